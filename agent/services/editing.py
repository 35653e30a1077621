"""Direct edits from the editor, drag and drop, and undo: create, change, move, delete.

Recurring events follow the usual calendar scopes. ``this`` writes an override (or an
EXDATE for a delete), ``following`` ends the series before the instance and starts a new one
from it, and ``all`` changes the master, moving it by the same amount the instance moved.
Every method returns the ``ChangeSet`` of one transaction, which the app keeps for undo.

The editor's saves that are more than one of those steps (one occurrence's times *and*
fields, "this and following" with field changes, a series given as an RDATE list) are
here too (``edit_one``, ``edit_following``, ``create_with_dates``, ``replace_with_dates``):
each runs its steps in one transaction and merges their change sets (``ChangeSet.merge``),
so the app only picks the method and keeps the result as one undo step.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from agent.lazy import lazy_module

if TYPE_CHECKING:
    import icalendar
else:  # on first use: the app's first paint imports this module but edits nothing yet
    icalendar = lazy_module("icalendar", __name__)

from agent.errors import NotFoundError, ValidationError
from agent.services.invitations import allow_sending, invited, my_addresses
from agent.store.changes import ChangeSet
from agent.store.components import build_event, index_fields, new_uid, parse_component, recurrence_key, set_alarms
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.expansion import CapNote
from agent.store.fields import Person, Value, drafted, write
from agent.store.occurrence import Occurrence
from agent.timesym.recurrence import LUNAR_MARK, MARK_PROPERTY, Recurrence

Scope = Literal["this", "following", "all"]
EDITABLE = ("title", "description", "location", "transp", "completed")


@dataclass(frozen=True, init=False)
class EventDraft:
    """What the editor hands over; ``start``/``end`` are dates for all-day events.

    ``extra`` holds the field table's ``SHOWN`` fields (those without a column the editor
    shows: the tags, the link …) by name, every one of them, so a field added to the table
    is carried, written and duplicated with no change here. They are given by keyword
    (``EventDraft(..., categories=("Work",))``) or as ``extra``; one not given is empty, and
    a save writes it empty, as the editor would."""

    title: str
    start: datetime | date
    end: datetime | date
    calendar_id: int
    description: str = ""
    location: str = ""
    transp: str = "OPAQUE"
    rrule: str | None = None
    alarm_minutes: tuple[int, ...] = ()
    attendees: tuple[Person, ...] | None = None  # the editor's attendees (issue 31); None: keep the stored ones
    send_invitations: bool = False  # the user said yes to "this will email N people" (agent/sync/scheduling.py)
    extra: Mapping[str, Value] = dataclasses.field(default_factory=dict)

    def __init__(
        self,
        title: str,
        start: datetime | date,
        end: datetime | date,
        calendar_id: int,
        description: str = "",
        location: str = "",
        transp: str = "OPAQUE",
        rrule: str | None = None,
        alarm_minutes: tuple[int, ...] = (),
        extra: Mapping[str, Value] | None = None,
        attendees: tuple[Person, ...] | None = None,
        send_invitations: bool = False,
        **named: Value,
    ) -> None:
        values = {"title": title, "start": start, "end": end, "calendar_id": calendar_id, "description": description}
        values |= {"location": location, "transp": transp, "rrule": rrule, "alarm_minutes": alarm_minutes}
        values |= {"attendees": attendees, "send_invitations": send_invitations}
        for name, value in values.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "extra", drafted({**(extra or {}), **named}))

    def __hash__(self) -> int:  # hashable as before ``extra``: its values are text or tuples
        return hash((self.title, self.start, self.end, self.calendar_id, self.rrule, self.attendees, tuple(self.extra.items())))


class EditService:
    def __init__(self, store: Store, profile_id: int, origin: str = "user") -> None:
        self.store = store
        self.profile_id = profile_id
        self.origin = origin
        self.repo = EventRepo(store, profile_id)

    # ---- create / change -----------------------------------------------------------------

    def create(self, draft: EventDraft) -> ChangeSet:
        self._check_calendar(draft.calendar_id)
        component = build_event(
            draft.title,
            draft.start,
            draft.end,
            description=draft.description,
            location=draft.location,
            transp=draft.transp,
            rrule=draft.rrule,
            alarm_minutes=list(draft.alarm_minutes),
        )
        _write_extra(component, draft)
        self._write_people(component, draft)
        with self.store.transaction():
            return self.repo.save(component, draft.calendar_id, self.origin)

    def replace(self, uid: str, draft: EventDraft) -> ChangeSet:
        """Rewrite a whole single event or series master from the editor's fields, keeping
        what the editor does not show (attendees, imported extras)."""
        row = self._row(uid, "")
        component = parse_component(row["ics"])
        _set_times(component, draft.start, draft.end)
        _set(component, "SUMMARY", draft.title.strip())
        _set(component, "DESCRIPTION", draft.description or None)
        _set(component, "LOCATION", draft.location or None)
        _set(component, "TRANSP", draft.transp)
        component.pop("RRULE", None)
        if draft.rrule:
            component.add("RRULE", icalendar.vRecur.from_ical(draft.rrule))
        set_alarms(component, draft.alarm_minutes, draft.title)
        _write_extra(component, draft)
        self._write_people(component, draft)
        self._check_calendar(draft.calendar_id)
        with self.store.transaction():
            return self.repo.save(self._bump(component), draft.calendar_id, self.origin_of(row))

    def set_completed(self, uid: str, done: bool) -> ChangeSet:
        row = self._row(uid, "")
        component = parse_component(row["ics"])
        _set(component, "X-RICHENG-COMPLETED", "TRUE" if done else None)
        with self.store.transaction():
            return self.repo.save(self._bump(component), row["calendar_id"], self.origin_of(row))

    def component(self, uid: str, recurrence_id: str = "") -> icalendar.Event | None:
        """The stored VEVENT of (uid, recurrence_id), parsed; None when there is none
        (the app duplicates an event from it without reading the store itself)."""
        row = self.repo.row(uid, recurrence_id)
        return parse_component(row["ics"]) if row is not None else None

    def capped(self, uid: str) -> CapNote | None:
        """Whether the series ``uid`` stops at the instance cap (the editor says so)."""
        return self.repo.capped(uid)

    # ---- the editor's composite saves (one transaction, one merged change set each) -------

    def series_draft(self, occ: Occurrence, draft: EventDraft, *, keep_rule: bool) -> EventDraft:
        """The draft of an "all" save from the editor opened on ``occ``, for ``replace``.

        The master moves by the days the instance moved, to the draft's time of day; with
        ``keep_rule`` (the user left the recurrence alone) the stored RRULE is kept verbatim
        (its exact UNTIL, COUNT, WKST …), never one rebuilt from what the editor could show."""
        row = self.repo.row(occ.uid, "")
        if row is None:
            return draft
        master = parse_component(row["ics"])
        if occ.recurrence_id is not None:
            draft = _moved_with(master, occ, draft)
        if keep_rule:
            draft = dataclasses.replace(draft, rrule=_rule_text(master))
        return draft

    def has_dates(self, uid: str) -> bool:
        """Whether the master of ``uid`` lists RDATEs (an "all" save must then rewrite them)."""
        row = self.repo.row(uid, "")
        return row is not None and parse_component(row["ics"]).get("RDATE") is not None

    def edit_one(self, occ: Occurrence, draft: EventDraft) -> ChangeSet:
        """Only this occurrence: an override with the draft's times and fields (title,
        description, location, free/busy, reminders)."""
        with self.store.transaction():
            changes = self.move(occ, draft.start, draft.end, "this")
            row = self._row(occ.uid, occ.recurrence_id or "")
            component = parse_component(row["ics"])
            for name, value in (("SUMMARY", draft.title.strip()), ("DESCRIPTION", draft.description),
                                ("LOCATION", draft.location), ("TRANSP", draft.transp)):  # fmt: skip
                _set(component, name, value)
            set_alarms(component, draft.alarm_minutes, draft.title)
            _write_extra(component, draft)
            return changes.merge(self.repo.save(component, row["calendar_id"], row["origin"]))

    def edit_following(
        self, occ: Occurrence, draft: EventDraft, *, keep_rule: bool, lunar: Recurrence | None = None
    ) -> ChangeSet:
        """This and following: split the series at ``occ``, then rewrite the new series from
        the draft (its rule kept verbatim with ``keep_rule``; 农历 dates from ``lunar``)."""
        with self.store.transaction():
            changes = self.move(occ, draft.start, draft.end, "following")
            new = next(change.uid for change in changes.created if change.uid != occ.uid)
            if keep_rule:
                draft = dataclasses.replace(draft, rrule=_rule_text(parse_component(self._row(new, "")["ics"])))
            changes = changes.merge(self.replace(new, draft))
            if lunar is not None:
                changes = self._with_dates(changes, new, lunar)
            return changes

    def create_with_dates(self, draft: EventDraft, lunar: Recurrence) -> ChangeSet:
        """``create``, then the 农历 dates of ``lunar`` as RDATEs in place of the rule."""
        with self.store.transaction():
            changes = self.create(draft)
            return self._with_dates(changes, changes.created[0].uid, lunar)

    def replace_with_dates(self, uid: str, draft: EventDraft, lunar: Recurrence | None) -> ChangeSet:
        """``replace``, then the 农历 dates of ``lunar`` (None: the stored list is dropped,
        the draft's rule stands)."""
        with self.store.transaction():
            return self._with_dates(self.replace(uid, draft), uid, lunar)

    def _with_dates(self, changes: ChangeSet, uid: str, lunar: Recurrence | None) -> ChangeSet:
        """Set (or clear) the RDATE list and the 农历 mark on the master ``changes`` just wrote.

        The dates follow the one lunar rule (``Recurrence.lunar_dates``, the chat's and quick
        add's too) from the saved DTSTART; a start with no lunar date before the series'
        end keeps the draft's rule."""
        row = self._row(uid, "")
        component = parse_component(row["ics"])
        component.pop("RDATE", None)
        component.pop(MARK_PROPERTY, None)
        listed: list[date | datetime] = []
        if lunar is not None:
            start = component.decoded("DTSTART")
            try:
                listed = [value for value in lunar.lunar_dates(start) if value != start]
            except ValueError:
                listed = []
        if lunar is not None and listed:
            component.pop("RRULE", None)
            component.add("RDATE", listed)
            component.add(MARK_PROPERTY, LUNAR_MARK)
        return changes.merge(self.repo.save(component, row["calendar_id"], row["origin"]))

    # ---- other changes -----------------------------------------------------------------------

    def move_to_calendar(self, uid: str, calendar_id: int) -> ChangeSet:
        self._check_calendar(calendar_id)
        changes = ChangeSet()
        with self.store.transaction():
            for row in self.store.conn.execute(
                "SELECT * FROM events WHERE profile_id = ? AND uid = ?", (self.profile_id, uid)
            ).fetchall():
                changes.extend(self.repo.save(parse_component(row["ics"]), calendar_id, row["origin"]))
        return changes

    def move(self, occ: Occurrence, start: datetime | date, end: datetime | date, scope: Scope = "all") -> ChangeSet:
        """Drag/resize an occurrence to [start, end)."""
        if end <= start:
            raise ValidationError("services.end_before_start")
        if occ.recurrence_id is None:
            row = self._row(occ.uid, "")
            component = parse_component(row["ics"])
            _set_times(component, start, end)
            with self.store.transaction():
                return self.repo.save(self._bump(component), row["calendar_id"], self.origin_of(row))
        if scope == "this":
            return self._override(occ, lambda c: _set_times(c, start, end))
        if scope == "following":
            return self._split(occ, lambda c: _set_times(c, start, end))
        master = self._row(occ.uid, "")
        component = parse_component(master["ics"])
        old_start = component.decoded("DTSTART")
        delta_start = _delta(occ.start, start)
        delta_length = _delta(occ.start, start) - _delta(occ.end, end)
        new_start = old_start + delta_start
        old_end = component.decoded("DTEND") if component.get("DTEND") else old_start
        _set_times(component, new_start, old_end + delta_start - delta_length)
        with self.store.transaction():
            return self.repo.save(self._bump(component), master["calendar_id"], self.origin_of(master))

    def update(
        self,
        occ: Occurrence,
        *,
        start: datetime | date | None = None,
        end: datetime | date | None = None,
        edit: Callable[[icalendar.Event], None] | None = None,
        scope: Scope = "this",
    ) -> ChangeSet:
        """Times and/or fields of one occurrence in one transaction, with the editor's
        scopes (the chat's ``update_schedule`` uses this, so a scope means what it means in
        the UI). ``edit`` changes the component's other properties; for ``all`` it runs on
        the master, which moves by the same amount as the instance."""
        if start is not None and end is not None and end <= start:
            raise ValidationError("services.end_before_start")

        def apply(component: icalendar.Event, new_start: Any, new_end: Any) -> None:
            if new_start is not None:
                _set_times(component, new_start, new_end)
            if edit is not None:
                edit(component)

        if occ.recurrence_id is None or scope == "all":
            row = self._row(occ.uid, "")
            component = parse_component(row["ics"])
            new_start, new_end = start, end
            if start is not None and end is not None and occ.recurrence_id is not None:
                old_start = component.decoded("DTSTART")
                old_end = component.decoded("DTEND") if component.get("DTEND") else old_start
                shift = _delta(occ.start, start)
                new_start = old_start + shift
                new_end = old_end + shift - (_delta(occ.start, start) - _delta(occ.end, end))
            apply(component, new_start, new_end)
            with self.store.transaction():
                return self.repo.save(self._bump(component), row["calendar_id"], self.origin_of(row))
        if scope == "this":
            return self._override(occ, lambda c: apply(c, start, end))
        return self._split(occ, lambda c: apply(c, start, end))

    # ---- delete --------------------------------------------------------------------------

    def delete(self, occ: Occurrence, scope: Scope = "all") -> ChangeSet:
        if occ.recurrence_id is None or scope == "all":
            with self.store.transaction():
                return self.repo.delete(occ.uid)
        master = self._row(occ.uid, "")
        component = parse_component(master["ics"])
        original = _original_start(occ.recurrence_id, component)
        with self.store.transaction():
            changes = ChangeSet()
            if scope == "this":
                component.add("EXDATE", original)
                if self.repo.row(occ.uid, occ.recurrence_id) is not None:
                    changes.extend(self.repo.delete(occ.uid, occ.recurrence_id))
            else:
                _end_series_before(component, original)
                for row in self._overrides_from(occ.uid, occ.recurrence_id):
                    changes.extend(self.repo.delete(occ.uid, row["recurrence_id"]))
            changes.extend(self.repo.save(self._bump(component), master["calendar_id"], self.origin_of(master)))
            return changes

    # ---- undo ----------------------------------------------------------------------------

    def undo(self, changes: ChangeSet) -> ChangeSet:
        """Put every touched row back as it was; returns the change set that redoes it."""
        inverse = ChangeSet()
        with self.store.transaction():
            for change in reversed(changes.created):
                inverse.extend(self.repo.delete(change.uid, change.recurrence_id or None))
            for change in reversed(changes.updated + changes.deleted):
                inverse.extend(self.repo.restore(change))
        return inverse

    # ---- helpers -------------------------------------------------------------------------

    def _write_people(self, component: icalendar.Event, draft: EventDraft) -> None:
        """The draft's attendees; an event that gains some without an organizer gets the
        user's first address as ORGANIZER (RFC 5545 wants one beside attendees)."""
        if draft.attendees is None:
            return
        write(component, "attendees", draft.attendees)
        mine = my_addresses(self.store, self.profile_id)
        if draft.attendees and component.get("ORGANIZER") is None and mine:
            write(component, "organizer", Person(mine[0], "", "", ""))
        if draft.attendees and draft.send_invitations:
            allow_sending(self.store, self.profile_id, str(component["UID"]))

    def _bump(self, component: icalendar.Event) -> icalendar.Event:
        """``_bump``, except on an invitation: its SEQUENCE and DTSTAMP stay the organizer's."""
        return _bump(component, organizers=invited(self.store, self.profile_id, component))

    def origin_of(self, row: Any) -> str:
        return str(row["origin"])

    def _row(self, uid: str, recurrence_id: str) -> Any:
        row = self.repo.row(uid, recurrence_id)
        if row is None:
            raise NotFoundError("services.no_event_uid", uid=uid)
        return row

    def _check_calendar(self, calendar_id: int) -> None:
        found = self.store.conn.execute(
            "SELECT 1 FROM calendars WHERE profile_id = ? AND id = ?", (self.profile_id, calendar_id)
        ).fetchone()
        if found is None:
            raise NotFoundError("services.no_profile_calendar")

    def _overrides_from(self, uid: str, recurrence_id: str) -> list[Any]:
        rows = self.store.conn.execute(
            "SELECT * FROM events WHERE profile_id = ? AND uid = ? AND recurrence_id != ''", (self.profile_id, uid)
        ).fetchall()
        return [row for row in rows if row["recurrence_id"] >= recurrence_id]

    def _override(self, occ: Occurrence, edit: Any) -> ChangeSet:
        """Write (or rewrite) the override for one instance."""
        assert occ.recurrence_id is not None
        existing = self.repo.row(occ.uid, occ.recurrence_id)
        master = self._row(occ.uid, "")
        if existing is not None:
            component = parse_component(existing["ics"])
        else:
            component = _instance_from_master(parse_component(master["ics"]), occ)
        edit(component)
        with self.store.transaction():
            return self.repo.save(self._bump(component), master["calendar_id"], self.origin_of(master))

    def _split(self, occ: Occurrence, edit: Any) -> ChangeSet:
        """End the series before ``occ`` and start a new series (new UID) from it."""
        assert occ.recurrence_id is not None
        master = self._row(occ.uid, "")
        old = parse_component(master["ics"])
        original = _original_start(occ.recurrence_id, old)
        new = copy.deepcopy(old)
        new["UID"] = icalendar.vText(new_uid())
        length = _length(old)
        _set_times(new, occ.start, occ.start + length)
        new.pop("EXDATE", None)
        new.pop("RDATE", None)
        rule = new.get("RRULE")
        if rule is not None and "COUNT" in rule:
            rule["COUNT"] = [max(1, int(rule["COUNT"][0]) - _instances_before(old, original))]
        edit(new)
        _end_series_before(old, original)
        with self.store.transaction():
            changes = ChangeSet()
            for row in self._overrides_from(occ.uid, occ.recurrence_id):
                changes.extend(self.repo.delete(occ.uid, row["recurrence_id"]))
            changes.extend(self.repo.save(self._bump(old), master["calendar_id"], self.origin_of(master)))
            changes.extend(self.repo.save(new, master["calendar_id"], self.origin_of(master)))
            return changes


def _rule_text(component: icalendar.Event) -> str | None:
    """The RRULE as written (its exact UNTIL, COUNT, WKST …); None when there is none."""
    rule = component.get("RRULE")
    if rule is None:
        return None
    text = rule.to_ical()
    return text.decode() if isinstance(text, bytes) else str(text)


def _moved_with(master: icalendar.Event, occ: Occurrence, draft: EventDraft) -> EventDraft:
    """For "all": the master moves by the days the instance moved, to the draft's time."""
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
    return dataclasses.replace(draft, start=start, end=start + length)


def _write_extra(component: icalendar.Event, draft: EventDraft) -> None:
    """Write the draft's table fields without a column (``EventDraft.extra``), each under
    the table's property."""
    for name, value in draft.extra.items():
        write(component, name, value)


def _set(component: icalendar.Event, name: str, value: Any) -> None:
    component.pop(name, None)
    if value is not None and value != "":
        component.add(name, value)


def _set_times(component: icalendar.Event, start: datetime | date, end: datetime | date) -> None:
    component.pop("DTSTART", None)
    component.pop("DTEND", None)
    component.pop("DURATION", None)
    component.add("DTSTART", start)
    component.add("DTEND", end)


def _bump(component: icalendar.Event, organizers: bool = False) -> icalendar.Event:
    """SEQUENCE and LAST-MODIFIED move forward on every local change (sync relies on them).
    ``organizers``: the user was invited to it, and SEQUENCE and DTSTAMP belong to the
    organizer (RFC 5546): only LAST-MODIFIED moves (docs/invitations.md)."""
    if not organizers:
        sequence = int(component.get("SEQUENCE") or 0) + 1
        _set(component, "SEQUENCE", sequence)
        _set(component, "DTSTAMP", datetime.now(UTC))
    _set(component, "LAST-MODIFIED", datetime.now(UTC))
    return component


def _delta(old: datetime | date, new: datetime | date) -> timedelta:
    if isinstance(old, datetime) and isinstance(new, datetime):
        if (old.tzinfo is None) != (new.tzinfo is None):
            old, new = old.replace(tzinfo=None), new.replace(tzinfo=None)
        return new - old
    old_day = old.date() if isinstance(old, datetime) else old
    new_day = new.date() if isinstance(new, datetime) else new
    return new_day - old_day


def _length(component: icalendar.Event) -> timedelta:
    fields = index_fields(component)
    return timedelta(seconds=fields.end_ts - fields.start_ts)


def _instances_before(master: icalendar.Event, original: datetime | date) -> int:
    """How many RRULE instances precede ``original`` (for COUNT when a series is split)."""
    from dateutil.rrule import rrulestr

    start = master.decoded("DTSTART")
    as_dt = start if isinstance(start, datetime) else datetime(start.year, start.month, start.day)
    limit = original if isinstance(original, datetime) else datetime(original.year, original.month, original.day)
    rule = rrulestr(_rule_text(master) or "", dtstart=as_dt)
    made = 0
    for instance in rule:  # stop at the instance: a COUNT=10000000 rule must not be walked whole
        if instance >= limit:
            break
        made += 1
    return made


def _original_start(recurrence_id: str, master: icalendar.Event) -> datetime | date:
    """The instance's original start, in the master's own form (date, floating or zoned)."""
    start = master.decoded("DTSTART")
    if len(recurrence_id) == 8:
        return datetime.strptime(recurrence_id, "%Y%m%d").date()
    if recurrence_id.endswith("Z"):
        value = datetime.strptime(recurrence_id, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        return value.astimezone(start.tzinfo) if isinstance(start, datetime) and start.tzinfo else value
    return datetime.strptime(recurrence_id, "%Y%m%dT%H%M%S")


def _instance_from_master(master: icalendar.Event, occ: Occurrence) -> icalendar.Event:
    assert occ.recurrence_id is not None
    instance = copy.deepcopy(master)
    for name in ("RRULE", "RDATE", "EXDATE"):
        instance.pop(name, None)
    original = _original_start(occ.recurrence_id, master)
    _set_times(instance, occ.start, occ.end)
    instance.add("RECURRENCE-ID", original)
    assert recurrence_key(original) == occ.recurrence_id
    return instance


def _end_series_before(component: icalendar.Event, original: datetime | date) -> None:
    rule = component.get("RRULE")
    if rule is None:
        return
    rule.pop("COUNT", None)
    until: datetime | date
    if isinstance(original, datetime):
        moment = original - timedelta(seconds=1)
        until = moment.astimezone(UTC) if moment.tzinfo is not None else moment
    else:
        until = original - timedelta(days=1)
    rule["UNTIL"] = [until]


__all__ = ["EditService", "EventDraft", "Scope"]
