"""Turning an editor result into writes, one undo step each.

Most saves are a single ``ctx.ops`` call (``create``, ``replace``, ``move``). Three are
not expressible as one: changing fields of *one* occurrence (an override needs its times
and its fields set), "this and following" with field changes (split, then edit the new
series), and 农历 yearly series (an RDATE list, which ``EventDraft`` does not carry).
Those are ``EditService`` methods (agent/services/editing.py: ``edit_one``,
``edit_following``, ``create_with_dates``, ``replace_with_dates``), each one transaction
with one merged change set; this module only picks the method, passes the 农历 rule (whose
dates the service computes with the one lunar rule, ``Recurrence.lunar_dates``) and hands
the result to ``ops.record_edit`` — the
Operations hook for change sets committed elsewhere — so each is still one Ctrl+Z and
every view still refreshes from ``ops.changed``. No SQL and no store access here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from agent.errors import UserFacingError
from agent.services.editing import EventDraft, Scope
from agent.store.changes import ChangeSet
from agent.store.occurrence import Occurrence
from agent.timesym.recurrence import Recurrence
from app.context import AppContext
from app.i18n import error_text

if TYPE_CHECKING:
    import icalendar

    from agent.store.expansion import CapNote


@dataclass(frozen=True)
class EditorResult:
    """What the editor produced: the draft, plus what a draft cannot say."""

    draft: EventDraft
    rule: Recurrence | None = None  # the repeat the editor shows (its RRULE is in the draft)
    recurrence_changed: bool = True

    @property
    def lunar(self) -> Recurrence | None:
        """The 农历 yearly rule, whose RDATEs the service computes from the saved start."""
        return self.rule if self.rule is not None and self.rule.lunar else None


def event_time(occ: Occurrence, value: date | datetime, tz: ZoneInfo) -> date | datetime:
    """A local (view) time as the occurrence's own kind: date, floating, or in its zone."""
    if occ.all_day:
        return value.date() if isinstance(value, datetime) else value
    if not isinstance(value, datetime):
        value = datetime.combine(value, time(0))
    if occ.floating:
        return value.replace(tzinfo=None)
    local = value if value.tzinfo is not None else value.replace(tzinfo=tz)
    return local.astimezone(ZoneInfo(occ.tzid)) if occ.tzid else local


class EventWrites:
    """The calendar area's write helpers; every path ends in ``ctx.ops``."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx

    def component(self, uid: str, recurrence_id: str = "") -> icalendar.Event | None:
        return self.ctx.ops.edits.component(uid, recurrence_id)

    def capped(self, uid: str) -> CapNote | None:
        return self.ctx.ops.edits.capped(uid)

    # ---- editor saves --------------------------------------------------------------------

    def save(self, original: Occurrence | None, result: EditorResult, scope: Scope = "all") -> ChangeSet | None:
        ops = self.ctx.ops
        edits = ops.edits
        draft = result.draft
        dates = result.lunar
        if original is None:
            if dates is None:
                return ops.create(draft)
            return self._composite(lambda: edits.create_with_dates(draft, dates), draft.title, created=True)
        if original.recurrence_id is not None and scope == "this":
            return self._composite(lambda: edits.edit_one(original, draft), draft.title)
        if original.recurrence_id is not None and scope == "following":
            keep = not result.recurrence_changed
            return self._composite(lambda: edits.edit_following(original, draft, keep_rule=keep, lunar=dates), draft.title)
        draft = edits.series_draft(original, draft, keep_rule=not result.recurrence_changed and dates is None)
        if dates is None and not edits.has_dates(original.uid):
            return ops.replace(original.uid, draft)
        return self._composite(lambda: edits.replace_with_dates(original.uid, draft, dates), draft.title)

    def _composite(self, action: Callable[[], ChangeSet], title: str, *, created: bool = False) -> ChangeSet | None:
        """Run one of ``EditService``'s composite saves (one transaction) as one undo step,
        named for the user's edit ("Edit “周会”"), not as the assistant's."""
        try:
            changes = action()
        except UserFacingError as exc:
            self.ctx.ops.failed.emit(error_text(exc))
            return None
        self.ctx.ops.record_edit(changes, title, created=created)
        return changes

    # ---- drag and delete -----------------------------------------------------------------

    def move(self, occ: Occurrence, start: date | datetime, end: date | datetime, scope: Scope) -> ChangeSet | None:
        tz = self.ctx.tz
        return self.ctx.ops.move(occ, event_time(occ, start, tz), event_time(occ, end, tz), scope)

    def delete(self, occ: Occurrence, scope: Scope) -> ChangeSet | None:
        return self.ctx.ops.delete(occ, scope)
