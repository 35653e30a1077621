"""Turning an editor result into writes, one undo step each.

Most saves are a single ``ctx.ops`` call (``create``, ``replace``, ``move``). Three are
not expressible as one: changing fields of *one* occurrence (an override needs its times
and its fields set), "this and following" with field changes (split, then edit the new
series), and 农历 yearly series (an RDATE list, which ``EventDraft`` does not carry).
Those are ``EditService`` methods (agent/services/editing.py: ``edit_one``,
``edit_following``, ``create_with_dates``, ``replace_with_dates``), each one transaction
with one merged change set; this module only picks the method and passes the 农历 rule
(whose dates the service computes with the one lunar rule, ``Recurrence.lunar_dates``) to
the op runner's method of that name (``app/write_path.py``), so each is still one journal
entry, one Ctrl+Z, and every view refreshes from ``ops.changed``. No SQL and no store
access here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from agent.services.editing import EventDraft, Scope
from agent.store.changes import ChangeSet
from agent.store.occurrence import Occurrence
from agent.timesym.recurrence import Recurrence
from app.context import AppContext

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
        """One editor save, as one op of ``ctx.ops`` (one transaction, one journal entry)."""
        ops = self.ctx.ops
        draft = result.draft
        dates = result.lunar
        if original is None:
            return ops.create(draft) if dates is None else ops.create_with_dates(draft, dates)
        if original.recurrence_id is not None and scope == "this":
            return ops.edit_one(original, draft)
        if original.recurrence_id is not None and scope == "following":
            return ops.edit_following(original, draft, keep_rule=not result.recurrence_changed, lunar=dates)
        draft = ops.edits.series_draft(original, draft, keep_rule=not result.recurrence_changed and dates is None)
        if dates is None and (not result.recurrence_changed or not ops.edits.has_dates(original.uid)):
            return ops.replace(original.uid, draft)  # the repeat untouched: RDATEs and the mark stay as stored
        return ops.replace_with_dates(original.uid, draft, dates)

    # ---- drag and delete -----------------------------------------------------------------

    def move(self, occ: Occurrence, start: date | datetime, end: date | datetime, scope: Scope) -> ChangeSet | None:
        tz = self.ctx.tz
        return self.ctx.ops.move(occ, event_time(occ, start, tz), event_time(occ, end, tz), scope)

    def delete(self, occ: Occurrence, scope: Scope) -> ChangeSet | None:
        return self.ctx.ops.delete(occ, scope)
