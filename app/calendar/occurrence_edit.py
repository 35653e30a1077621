"""Turning an editor result into writes, one undo step each.

Most saves are a single ``ctx.ops`` call (``create``, ``replace``, ``move``). Three are
not expressible as one: changing fields of *one* occurrence (an override needs its times
and its fields set), "this and following" with field changes (split, then edit the new
series), and 农历 yearly series (an RDATE list, which ``EventDraft`` does not carry).
Those run the same ``EditService`` steps inside one store transaction, merge the change
sets into one (``merge_changes``), and hand it to ``ops.record_agent_change`` — the
Operations hook for change sets committed elsewhere — so they are still one Ctrl+Z and
every view still refreshes from ``ops.changed``. No SQL here; only agent services.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from agent.errors import UserFacingError
from agent.lazy import lazy_module
from agent.services.editing import EventDraft, Scope
from agent.store.components import parse_component
from agent.store.events import Change, ChangeSet, EventRepo, Occurrence
from app.calendar.recurrence import LUNAR_MARK, lunar_rdates
from app.context import AppContext

if TYPE_CHECKING:
    import icalendar
else:  # on first edit, not at the first paint (start-up, issue 14)
    icalendar = lazy_module("icalendar", __name__)


@dataclass(frozen=True)
class EditorResult:
    """What the editor produced: the draft, plus what a draft cannot say."""

    draft: EventDraft
    lunar: bool = False  # 农历 yearly: RDATEs computed from the saved start
    count: int | None = None  # for lunar: occurrences in all
    until: date | None = None  # for lunar: last day
    recurrence_changed: bool = True


def merge_changes(first: ChangeSet, second: ChangeSet) -> ChangeSet:
    """One change set equal to ``first`` then ``second``, for a single undo step.

    A row keeps its earliest before-image; a row created by ``first`` stays "created"
    (undo deletes it) unless ``second`` deleted it again, in which case it vanishes.
    """
    def key(change: Change) -> tuple[str, str]:
        return (change.uid, change.recurrence_id)

    merged = ChangeSet(list(first.created), list(first.updated), list(first.deleted))
    created = {key(change) for change in first.created}
    seen = created | {key(change) for change in first.updated + first.deleted}
    for change in second.deleted:
        if key(change) in created:
            merged.created = [c for c in merged.created if key(c) != key(change)]
            created.discard(key(change))
        elif key(change) not in seen:
            merged.deleted.append(change)
            seen.add(key(change))
    for change in second.created:
        if key(change) not in seen:
            merged.created.append(change)
            seen.add(key(change))
    for change in second.updated:
        if key(change) not in seen:
            merged.updated.append(change)
            seen.add(key(change))
    return merged


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
        self.repo = EventRepo(ctx.store, ctx.profile_id)

    def component(self, uid: str, recurrence_id: str = "") -> icalendar.Event | None:
        row = self.repo.row(uid, recurrence_id)
        return parse_component(row["ics"]) if row is not None else None

    # ---- editor saves --------------------------------------------------------------------

    def save(self, original: Occurrence | None, result: EditorResult, scope: Scope = "all") -> ChangeSet | None:
        ops = self.ctx.ops
        draft = result.draft
        if original is None:
            if not result.lunar:
                return ops.create(draft)
            return self._composite(lambda: self._created_with_rdates(draft, result))
        if original.recurrence_id is not None and scope == "this":
            return self._composite(lambda: self._edit_one(original, draft))
        if original.recurrence_id is not None and scope == "following":
            return self._composite(lambda: self._edit_following(original, result))
        if original.recurrence_id is not None:
            draft = self._series_draft(original, draft)
        master = self.component(original.uid)
        if not result.recurrence_changed and master is not None and not result.lunar:
            # Recurrence untouched: keep the stored rule verbatim (its exact UNTIL, COUNT,
            # WKST …), never one rebuilt from what the editor could show.
            rule = master.get("RRULE")
            draft = replace(draft, rrule=rule.to_ical().decode() if rule is not None else None)
        had_rdates = master is not None and master.get("RDATE") is not None
        if not result.lunar and not had_rdates:
            return ops.replace(original.uid, draft)
        return self._composite(
            lambda: self._with_rdates(ops.edits.replace(original.uid, draft), original.uid, result))

    def _composite(self, action) -> ChangeSet | None:  # type: ignore[no-untyped-def]
        try:
            with self.ctx.store.transaction():
                changes = action()
        except UserFacingError as exc:
            self.ctx.ops.failed.emit(str(exc))
            return None
        self.ctx.ops.record_agent_change(changes)
        return changes

    def _created_with_rdates(self, draft: EventDraft, result: EditorResult) -> ChangeSet:
        changes = self.ctx.ops.edits.create(draft)
        return self._with_rdates(changes, changes.created[0].uid, result)

    def _with_rdates(self, changes: ChangeSet, uid: str, result: EditorResult) -> ChangeSet:
        """Set (or clear) the RDATE list on the event ``changes`` just wrote."""
        row = self.repo.row(uid, "")
        assert row is not None
        component = parse_component(row["ics"])
        component.pop("RDATE", None)
        component.pop("X-RICHENG-RECUR", None)
        rdates = lunar_rdates(component.decoded("DTSTART"), result.count, result.until) if result.lunar else []
        if rdates:
            component.pop("RRULE", None)
            component.add("RDATE", rdates)
            component.add("X-RICHENG-RECUR", LUNAR_MARK)
        return merge_changes(changes, self.repo.save(component, row["calendar_id"], row["origin"]))

    def _series_draft(self, occ: Occurrence, draft: EventDraft) -> EventDraft:
        """For "all": the master moves by the days the instance moved, to the new time."""
        master = self.component(occ.uid)
        if master is None:
            return draft
        old_start = master.decoded("DTSTART")
        occ_day = occ.start.date() if isinstance(occ.start, datetime) else occ.start
        new_day = draft.start.date() if isinstance(draft.start, datetime) else draft.start
        master_day = old_start.date() if isinstance(old_start, datetime) else old_start
        start_day = master_day + (new_day - occ_day)
        length = draft.end - draft.start  # type: ignore[operator]
        if isinstance(draft.start, datetime):
            start: date | datetime = datetime.combine(start_day, draft.start.timetz())
        else:
            start = start_day
        return replace(draft, start=start, end=start + length)

    def _edit_one(self, occ: Occurrence, draft: EventDraft) -> ChangeSet:
        """Only this occurrence: an override with the editor's times and fields."""
        edits = self.ctx.ops.edits
        changes = edits.move(occ, draft.start, draft.end, "this")
        row = self.repo.row(occ.uid, occ.recurrence_id or "")
        assert row is not None
        component = parse_component(row["ics"])
        for name, value in (("SUMMARY", draft.title.strip()), ("DESCRIPTION", draft.description),
                            ("LOCATION", draft.location), ("TRANSP", draft.transp)):
            component.pop(name, None)
            if value:
                component.add(name, value)
        component.subcomponents = [sub for sub in component.subcomponents if sub.name != "VALARM"]
        for minutes in draft.alarm_minutes:
            alarm = icalendar.Alarm()
            alarm.add("ACTION", "DISPLAY")
            alarm.add("DESCRIPTION", draft.title.strip())
            alarm.add("TRIGGER", timedelta(minutes=-minutes))
            component.add_component(alarm)
        return merge_changes(changes, self.repo.save(component, row["calendar_id"], row["origin"]))

    def _edit_following(self, occ: Occurrence, result: EditorResult) -> ChangeSet:
        """This and following: split at the occurrence, then edit the new series."""
        edits = self.ctx.ops.edits
        draft = result.draft
        changes = edits.move(occ, draft.start, draft.end, "following")
        new_uid = next(change.uid for change in changes.created if change.uid != occ.uid)
        if not result.recurrence_changed:
            component = self.component(new_uid)
            rule = component.get("RRULE") if component is not None else None
            draft = replace(draft, rrule=rule.to_ical().decode() if rule is not None else None)
        changes = merge_changes(changes, edits.replace(new_uid, draft))
        if result.lunar:
            changes = self._with_rdates(changes, new_uid, result)
        return changes

    # ---- drag and delete -----------------------------------------------------------------

    def move(self, occ: Occurrence, start: date | datetime, end: date | datetime, scope: Scope) -> ChangeSet | None:
        tz = self.ctx.tz
        return self.ctx.ops.move(occ, event_time(occ, start, tz), event_time(occ, end, tz), scope)

    def delete(self, occ: Occurrence, scope: Scope) -> ChangeSet | None:
        return self.ctx.ops.delete(occ, scope)
