"""iTIP (RFC 5546) in: a file with a METHOD is an invitation, an update, a cancellation or an
attendee's answer, never a plain import.

Before this, ``richeng import`` of an attendee's REPLY ("Accepted: Design review") replaced
the user's own event with the reply's copy, title and all, and a REQUEST without a UID was
given one and imported silently. Now every file whose VCALENDAR says REQUEST, ADD, REPLY,
CANCEL, COUNTER, REFRESH or DECLINECOUNTER comes here, however it arrives (``import_bytes``
routes it; the CLI's ``invitation show/respond/apply`` call here directly). PUBLISH, which
Google and Apple put on plain exports, stays a plain import.

Rules (docs/invitations.md): a copy is newer when its SEQUENCE is higher, or equal with a
later DTSTAMP (the organizer's DTSTAMP is stored as received); anything else is ``stale``
and changes nothing. An update keeps the user's answer unless it carries one other than
NEEDS-ACTION, or it is NEEDS-ACTION and moves the date, time or repeat (the organizer asks
again). A CANCEL marks the stored copy STATUS:CANCELLED (out of every view and of busy
time; undo puts it back). A REPLY changes only the answering attendee's PARTSTAT, never the
title. A COUNTER changes nothing: ``show`` presents its times as the proposal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from typing import Any

import icalendar

from agent.errors import UserFacingError
from agent.ics.importer import ITIP_METHODS, prepare_repaired
from agent.ics.prepare import CalendarContext, ComponentError, Prepared
from agent.ics.reader import scan, to_utf8
from agent.ics.report import ImportProblem, ImportReport, ImportSkip
from agent.messages.catalogue import render
from agent.services.calendars import CalendarService
from agent.services.invitations import UNANSWERED, me_among, my_addresses, remember_address
from agent.store.changes import ChangeSet
from agent.store.components import index_fields, parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import Person, read, write

FROM_ATTENDEE = frozenset({"REPLY", "COUNTER", "REFRESH"})
PARTSTATS = {"accept": "ACCEPTED", "tentative": "TENTATIVE", "decline": "DECLINED"}
ORIGIN = "import"


class InvitationError(UserFacingError):
    """A file or an answer the invitation flow refuses; nothing was written."""


@dataclass
class Message:
    """One iTIP file: its METHOD, the VEVENTs read (zones named as an import names them),
    and the components refused (no UID, unreadable), each named."""

    method: str
    items: list[Prepared]
    refused: list[ImportProblem] = field(default_factory=list)


def file_method(data: bytes, source_name: str = "<data>") -> str | None:
    """The routed METHOD of the file's first VCALENDAR that has one, else None."""
    data, offset, _ = to_utf8(data, source_name)
    for calendar in scan(data, source_name, offset):
        method = (calendar.text_property("METHOD") or "").upper()
        if method in ITIP_METHODS:
            return method
    return None


def read_message(data: bytes, source_name: str = "<data>") -> Message:
    """The file as an iTIP message; ``IcsReadError`` when it is no calendar, an
    ``InvitationError`` when it has no METHOD or no usable event."""
    data, offset, _ = to_utf8(data, source_name)
    calendars = scan(data, source_name, offset)
    method = ""
    message = Message("", [])
    position = 0
    for calendar in calendars:
        method = method or (calendar.text_property("METHOD") or "").upper()
        context = CalendarContext(calendar)
        for span in calendar.spans:
            if span.name != "VEVENT":
                continue
            if span.uid is None:  # a UID of our own would make a second copy of the organizer's event
                message.refused.append(ImportProblem(None, span.line, render("invitations.no_uid")))
                continue
            try:
                message.items.append(prepare_repaired(span.component(data), context, position))
            except ComponentError as exc:
                message.refused.append(ImportProblem(exc.uid, exc.line, str(exc)))
            position += 1
    if method not in ITIP_METHODS:
        raise InvitationError("invitations.no_method", name=Path(source_name).name)
    message.method = method
    return message


def read_file(path: str | Path) -> Message:
    from agent.files import read_limited
    from agent.ics.importer import MAX_FILE_BYTES

    return read_message(read_limited(Path(path), MAX_FILE_BYTES, "calendar file"), str(path))


# ---- comparing copies ---------------------------------------------------------------------


def _stamp(component: icalendar.Event) -> datetime:
    value = component.get("DTSTAMP")
    try:
        stamp = value.dt if value is not None else None
    except AttributeError:
        stamp = None
    if not isinstance(stamp, datetime):
        return datetime.min.replace(tzinfo=UTC)
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def _sequence(component: icalendar.Event) -> int:
    try:
        return int(component.get("SEQUENCE") or 0)
    except (TypeError, ValueError):
        return 0


def newer(incoming: icalendar.Event, stored: icalendar.Event) -> bool:
    """A higher SEQUENCE, or the same with a later DTSTAMP (RFC 5546 2.1.5)."""
    ours, theirs = _sequence(stored), _sequence(incoming)
    return theirs > ours or (theirs == ours and _stamp(incoming) > _stamp(stored))


def moved(incoming: icalendar.Event, stored: icalendar.Event) -> bool:
    """Whether the date, time or repeat differ (what makes the organizer ask again). One
    occurrence compared with its series is moved when it no longer starts at its
    RECURRENCE-ID or lasts another length than the series' events."""
    a, b = index_fields(incoming), index_fields(stored)
    if a.recurrence_id and not b.recurrence_id:
        try:
            original = incoming.decoded("RECURRENCE-ID")
            start, end = _times(incoming)
            first, last = _times(stored)
            return bool(start != original or None in (end, last) or end - start != last - first)  # type: ignore[operator]
        except (KeyError, TypeError, ValueError):
            return True
    keys = ("start_ts", "end_ts", "all_day", "rrule", "rdate", "exdate")
    return any(getattr(a, key) != getattr(b, key) for key in keys)


# ---- the store side -----------------------------------------------------------------------


class Flow:
    """The invitation flow on one profile's store."""

    def __init__(self, store: Store, profile_id: int, tz: tzinfo | None = None, now: datetime | None = None) -> None:
        self.store = store
        self.profile_id = profile_id
        self.repo = EventRepo(store, profile_id)
        self.tz = tz
        self.now = now or datetime.now(UTC)
        self.changes = ChangeSet()  # what this flow saved (journalled by each save already)

    def stored(self, item: Prepared) -> tuple[Any, icalendar.Event] | None:
        """The stored row the item is a copy of: its own (UID, RECURRENCE-ID), else, for one
        occurrence of a series held here, the series' master."""
        row = self.repo.row(item.fields.uid, item.fields.recurrence_id)
        if row is None and item.fields.recurrence_id:
            row = self.repo.row(item.fields.uid, "")
        return (row, parse_component(row["ics"])) if row is not None else None

    def status(self, method: str, item: Prepared) -> str:
        """``new``, ``update``, ``stale``, ``cancel`` or ``reply`` for one item."""
        if method in FROM_ATTENDEE:
            return "reply"
        found = self.stored(item)
        if found is not None and not newer(item.parsed(), found[1]):
            own_row = found[0]["recurrence_id"] == item.fields.recurrence_id
            if own_row or _sequence(item.parsed()) < _sequence(found[1]):
                return "stale"
        if method == "CANCEL":
            return "cancel"
        return "new" if found is None else "update"

    # ---- show -----------------------------------------------------------------------------

    def show(self, message: Message) -> dict[str, Any]:
        """The contract's object for the message's first event; writes nothing."""
        if not message.items:
            raise InvitationError("invitations.no_event", problem=_first_problem(message))
        item = message.items[0]
        component = item.parsed()
        organizer = read(component, "organizer")
        start, end = _times(component)
        return {
            "method": message.method,
            "uid": item.fields.uid,
            "summary": item.fields.title,
            "start": self._iso(start),
            "end": self._iso(end),
            "organizer": organizer.to_json() if organizer is not None else None,
            "attendees": [person.to_json() for person in read(component, "attendees")],
            "sequence": _sequence(component),
            "status": self.status(message.method, item),
        }

    def _iso(self, value: date | datetime | None) -> str | None:
        if value is None:
            return None
        if isinstance(value, datetime) and value.tzinfo is not None and self.tz is not None:
            value = value.astimezone(self.tz)
        return value.isoformat()

    # ---- apply ----------------------------------------------------------------------------

    def apply(
        self, message: Message, calendar_name: str | None = None, report: ImportReport | None = None
    ) -> list[dict[str, Any]]:
        """Apply every item; one ``{"uid","status","changed"}`` per item. With ``report``
        (an import), its counts and skips are filled as an import's are."""
        if not message.items and report is None:
            raise InvitationError("invitations.no_event", problem=_first_problem(message))
        results = []
        with self.store.transaction():
            for item in message.items:
                status = self.status(message.method, item)
                try:
                    changed = self._apply_one(message.method, status, item, calendar_name)
                except UserFacingError as exc:  # an import names it and goes on; the CLI writes nothing
                    if report is None:
                        raise
                    report.errors.append(ImportProblem(item.fields.uid, item.line, str(exc)))
                    continue
                results.append({"uid": item.fields.uid, "status": status, "changed": changed})
                if report is not None:
                    _count(report, item, status, changed)
        if report is not None:  # the app's import keeps these as its undo step
            report.errors.extend(message.refused)
            report.changes.extend(self.changes)
        return results

    def _apply_one(self, method: str, status: str, item: Prepared, calendar_name: str | None) -> bool:
        if status == "stale" or method in ("REFRESH", "COUNTER", "DECLINECOUNTER"):
            return False
        found = self.stored(item)
        if method == "REPLY":
            return self._reply(item, found)
        if method == "CANCEL":
            return self._cancel(item, found, calendar_name)
        component = self._merged(item, found)
        return self._save(component, found, calendar_name)

    def _merged(self, item: Prepared, found: tuple[Any, icalendar.Event] | None) -> icalendar.Event:
        """The incoming copy, carrying the user's stored answer where the rules keep it."""
        component = item.parsed()
        if found is None:
            return component
        mine = my_addresses(self.store, self.profile_id)
        me = me_among(read(component, "attendees"), mine)
        before = me_among(read(found[1], "attendees"), mine)
        if me is None or before is None or me.partstat != UNANSWERED or before.partstat == UNANSWERED:
            return component
        if moved(component, found[1]):
            return component  # the organizer moved it: the user is asked again
        _set_partstat(component, me.email, before.partstat)
        return component

    def _save(self, component: icalendar.Event, found: tuple[Any, icalendar.Event] | None, calendar_name: str | None) -> bool:
        text = component.to_ical().decode()
        uid = str(component.get("UID"))
        row = self.repo.row(uid, index_fields(component).recurrence_id)
        if row is not None and row["ics"] == text:
            return False
        if found is not None:
            calendar_id = int(found[0]["calendar_id"])
        else:
            calendar_id = CalendarService(self.store, self.profile_id).choose(calendar_name).calendar.id
        self.changes.extend(self.repo.save(component, calendar_id, ORIGIN, ics=text))
        return True

    def _cancel(self, item: Prepared, found: tuple[Any, icalendar.Event] | None, calendar_name: str | None) -> bool:
        if found is None:
            return False  # nothing here to cancel
        row, stored = found
        # One occurrence of a stored series is cancelled by an override of its own.
        component = stored if row["recurrence_id"] == item.fields.recurrence_id else item.parsed()
        if str(component.get("STATUS") or "").upper() == "CANCELLED":
            return False
        for name in ("SEQUENCE", "DTSTAMP"):  # the organizer's, as received
            if item.parsed().get(name) is not None:
                component.pop(name, None)
                component.add(name, item.parsed().decoded(name) if name == "DTSTAMP" else _sequence(item.parsed()))
        component.pop("STATUS", None)
        component.add("STATUS", "CANCELLED")
        return self._save(component, found, calendar_name)

    def _reply(self, item: Prepared, found: tuple[Any, icalendar.Event] | None) -> bool:
        """An attendee's answer: their PARTSTAT on the stored copy; nothing else changes."""
        if found is None:
            return False
        row, stored = found
        component = stored if row["recurrence_id"] == item.fields.recurrence_id else item.parsed()
        attendees = list(read(component, "attendees"))
        changed = False
        for answer in read(item.parsed(), "attendees"):
            index = next((i for i, person in enumerate(attendees) if person.same(answer.email)), None)
            if index is None:
                attendees.append(answer)
                changed = True
            elif attendees[index].partstat != answer.partstat:
                old = attendees[index]
                attendees[index] = Person(old.email, old.name or answer.name, answer.partstat, old.role, old.extra)
                changed = True
        if not changed:
            return False
        write(component, "attendees", attendees)
        return self._save(component, found, None)

    # ---- respond --------------------------------------------------------------------------

    def respond(self, message: Message, email: str, partstat: str, calendar_name: str | None = None) -> tuple[str, str]:
        """Store each event of the invitation with ``email``'s PARTSTAT and give (UID, the
        METHOD:REPLY calendar's text). ``email`` must be an attendee of every one of them;
        else ``InvitationError`` before anything is written."""
        if not message.items:
            raise InvitationError("invitations.no_event", problem=_first_problem(message))
        if message.method not in ("REQUEST", "ADD"):
            raise InvitationError("invitations.not_a_request", method=message.method)
        for item in message.items:
            if me_among(read(item.parsed(), "attendees"), [email]) is None:
                raise InvitationError("invitations.not_attendee", email=email[:120], uid=item.fields.uid[:120])
        replies = []
        with self.store.transaction():
            remember_address(self.store, self.profile_id, email)
            for item in message.items:
                found = self.stored(item)
                own = found is not None and found[0]["recurrence_id"] == item.fields.recurrence_id
                if own and found is not None and not newer(item.parsed(), found[1]):
                    component = found[1]  # the stored copy is as new: answer on it
                else:
                    component = self._merged(item, found)
                _set_partstat(component, email, partstat)
                self._save(component, found, calendar_name)
                replies.append(reply_event(component, email, partstat, self.now))
        return message.items[0].fields.uid, reply_calendar(replies)


def _first_problem(message: Message) -> str:
    return message.refused[0].message if message.refused else render("invitations.nothing")


def _count(report: ImportReport, item: Prepared, status: str, changed: bool) -> None:
    if status == "new" and changed:
        report.imported += 1
    elif changed:
        report.updated += 1
    else:
        reason = "older" if status == "stale" else "unchanged"
        setattr(report, reason, getattr(report, reason) + 1)
        report.skipped += 1
        report.skips.append(ImportSkip(item.fields.uid, item.line, item.fields.title, reason))


def _times(component: icalendar.Event) -> tuple[date | datetime | None, date | datetime | None]:
    from agent.store.components import start_end

    try:
        return start_end(component)
    except (KeyError, ValueError, TypeError):
        return None, None


def _set_partstat(component: icalendar.Event, email: str, partstat: str) -> None:
    attendees = [
        Person(p.email, p.name, partstat, p.role, tuple((k, v) for k, v in p.extra if k != "RSVP")) if p.same(email) else p
        for p in read(component, "attendees")
    ]
    write(component, "attendees", attendees)


# ---- the REPLY written for the organizer ----------------------------------------------------


def reply_event(component: icalendar.Event, email: str, partstat: str, now: datetime) -> icalendar.Event:
    """One VEVENT of a REPLY (RFC 5546 3.2.3): the same UID, SEQUENCE, RECURRENCE-ID, times
    and SUMMARY, the ORGANIZER, exactly one ATTENDEE (the answer), a fresh DTSTAMP."""
    reply = icalendar.Event()
    for name in ("UID", "RECURRENCE-ID", "DTSTART", "DTEND", "DURATION", "SUMMARY", "ORGANIZER"):
        value = component.get(name)
        if value is not None:
            reply.add(name, value, encode=False)
    reply.add("SEQUENCE", _sequence(component))
    reply.add("DTSTAMP", now.astimezone(UTC))
    me = me_among(read(component, "attendees"), [email])
    person = me or Person(email)
    write(reply, "attendees", [Person(person.email, person.name, partstat, person.role)])
    return reply


def reply_calendar(events: list[icalendar.Event]) -> str:
    calendar = icalendar.Calendar()
    calendar.add("PRODID", "-//Richeng//Richeng//EN")
    calendar.add("VERSION", "2.0")
    calendar.add("METHOD", "REPLY")
    for event in events:
        calendar.add_component(event)
    calendar.add_missing_timezones()  # the organizer's program reads DTSTART;TZID=... with its VTIMEZONE
    return str(calendar.to_ical().decode())


# ---- invitations out: REQUEST, CANCEL and REPLY from the stored event (issue 31 item 3) ------
#
# Where no server schedules (a local calendar, Radicale, Xandikos ...), the organizer's mail
# client carries the iTIP message: Richeng writes it, the user attaches it. The app's "Save
# invitation for your mail client" and ``richeng invitation request|cancel UID -o FILE`` both
# write what these build; the app's "Save reply" and ``invitation respond -o`` likewise.

_PERSONAL = ("X-RICHENG-",)  # the user's own marks (completed, lunar repeat) stay home


def _outgoing_copy(component: icalendar.Event) -> icalendar.Event:
    """The event as it goes out: no alarms (the organizer's own), no Richeng marks, and no
    SCHEDULE-AGENT / SCHEDULE-STATUS (a server's business, not a mail client's)."""
    out = icalendar.Event()
    for name, value in component.property_items(recursive=False):
        if name in ("BEGIN", "END") or name.startswith(_PERSONAL):
            continue
        out.add(name, value, encode=False)
    for key in ("organizer", "attendees"):
        value = read(out, key)
        if isinstance(value, Person):
            write(out, key, _unscheduled(value))
        elif value:
            write(out, key, tuple(_unscheduled(person) for person in value))
    return out


def _unscheduled(person: Person) -> Person:
    return Person(
        person.email,
        person.name,
        person.partstat,
        person.role,
        tuple(x for x in person.extra if not x[0].startswith("SCHEDULE-")),
    )


def _instance_id(master: icalendar.Event, recurrence_id: str) -> date | datetime:
    """The RECURRENCE-ID value of instance ``recurrence_id`` (the store's key) in the
    master's own form: a date, a floating time or a time in the master's zone."""
    if len(recurrence_id) == 8:
        return datetime.strptime(recurrence_id, "%Y%m%d").date()
    if not recurrence_id.endswith("Z"):
        return datetime.strptime(recurrence_id, "%Y%m%dT%H%M%S")
    value = datetime.strptime(recurrence_id, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    start = master.decoded("DTSTART")
    return value.astimezone(start.tzinfo) if isinstance(start, datetime) and start.tzinfo is not None else value


def _calendar(method: str, events: list[icalendar.Event]) -> str:
    calendar = icalendar.Calendar()
    calendar.add("PRODID", "-//Richeng//Richeng//EN")
    calendar.add("VERSION", "2.0")
    calendar.add("METHOD", method)
    for event in events:
        calendar.add_component(event)
    calendar.add_missing_timezones()  # the attendees' programs read DTSTART;TZID=... with its VTIMEZONE
    return str(calendar.to_ical().decode())


def request_calendar(components: list[icalendar.Event], now: datetime) -> str:
    """METHOD:REQUEST (RFC 5546 3.2.2): the event as stored (the series and its changed
    occurrences), its SEQUENCE as the last change left it, a DTSTAMP of ``now``."""
    events = []
    for component in components:
        event = _outgoing_copy(component)
        event.pop("DTSTAMP", None)
        event.add("DTSTAMP", now.astimezone(UTC))
        events.append(event)
    return _calendar("REQUEST", events)


def cancel_calendar(component: icalendar.Event, now: datetime, recurrence_id: str = "") -> str:
    """METHOD:CANCEL (RFC 5546 3.2.5) of the event (or of its occurrence ``recurrence_id``,
    the store's key): UID, the times and SUMMARY, ORGANIZER and every ATTENDEE,
    STATUS:CANCELLED, SEQUENCE one above the stored copy's (a cancellation is a change the
    attendees' copies must take as newer), a DTSTAMP of ``now``."""
    source = _outgoing_copy(component)
    event = icalendar.Event()
    for name in ("UID", "RECURRENCE-ID", "DTSTART", "DTEND", "DURATION", "SUMMARY", "ORGANIZER", "ATTENDEE"):
        values = source.get(name)
        for value in values if isinstance(values, list) else [values] if values is not None else []:
            event.add(name, value, encode=False)
    if recurrence_id and event.get("RECURRENCE-ID") is None:
        original = _instance_id(component, recurrence_id)
        event.add("RECURRENCE-ID", original)
        start, end = _times(component)
        if start is not None and end is not None:  # the occurrence's own times, not the series' first
            for name in ("DTSTART", "DTEND", "DURATION"):
                event.pop(name, None)
            event.add("DTSTART", original)
            event.add("DTEND", original + (end - start))
    event.add("SEQUENCE", _sequence(component) + 1)
    event.add("STATUS", "CANCELLED")
    event.add("DTSTAMP", now.astimezone(UTC))
    return _calendar("CANCEL", [event])


def stored_rows(store: Store, profile_id: int, uid: str) -> list[icalendar.Event]:
    """Every stored VEVENT of ``uid``, the series first; ``NotFoundError`` when none."""
    from agent.errors import NotFoundError

    rows = store.conn.execute(
        "SELECT ics FROM events WHERE profile_id = ? AND uid = ? ORDER BY recurrence_id != '', recurrence_id", (profile_id, uid)
    ).fetchall()
    if not rows:
        raise NotFoundError("services.no_event_uid", uid=uid)
    return [parse_component(row[0]) for row in rows]


def outgoing(store: Store, profile_id: int, uid: str, method: str, now: datetime, recurrence_id: str = "") -> str:
    """The REQUEST or CANCEL of the stored event ``uid`` for the organizer's mail client.
    Only for an event the user organises with attendees: else ``InvitationError`` (an
    invitation's copy is its organizer's to send; an event without attendees invites no one)."""
    components = stored_rows(store, profile_id, uid)
    master = components[0]
    mine = my_addresses(store, profile_id)
    organizer = read(master, "organizer")
    if not read(master, "attendees"):
        raise InvitationError("invitations.no_attendees", uid=uid[:120])
    if organizer is not None and mine and not any(organizer.same(address) for address in mine):
        raise InvitationError("invitations.not_organizer", uid=uid[:120], organizer=str(organizer)[:120])
    if method == "CANCEL":
        own = next((c for c in components if recurrence_id and index_fields(c).recurrence_id == recurrence_id), None)
        return cancel_calendar(own or master, now, "" if own is not None else recurrence_id)
    return request_calendar(components, now)


def stored_reply(store: Store, profile_id: int, uid: str, recurrence_id: str, email: str, now: datetime) -> str:
    """The METHOD:REPLY of the user's stored answer on (uid, recurrence_id), else on its
    series: what ``invitation respond -o`` writes (``reply_event``, ``reply_calendar``), for
    an answer given in the app."""
    repo = EventRepo(store, profile_id)
    row = repo.row(uid, recurrence_id) or repo.row(uid, "")
    if row is None:
        from agent.errors import NotFoundError

        raise NotFoundError("services.no_event_uid", uid=uid)
    component = parse_component(row["ics"])
    me = me_among(read(component, "attendees"), [email])
    if me is None:
        raise InvitationError("invitations.not_attendee", email=email[:120], uid=uid[:120])
    return reply_calendar([reply_event(component, email, me.partstat, now)])


def file_recipients(store: Store, profile_id: int, data: bytes, source_name: str = "<data>") -> dict[str, tuple[Person, ...]]:
    """For an import: by UID, whom each event of a plain (no METHOD) file would tell once
    uploaded to a scheduling server (``services.invitations.recipients``: the user's own
    meetings only). A file with a METHOD goes to the invitation flow and is no one's here;
    an event without a UID gets one at import and cannot be named ahead (it stays quiet)."""
    from agent.services.invitations import recipients

    data, offset, _ = to_utf8(data, source_name)
    if b"ATTENDEE" not in data.upper():
        return {}
    found: dict[str, tuple[Person, ...]] = {}
    for calendar in scan(data, source_name, offset):
        if (calendar.text_property("METHOD") or "").upper() in ITIP_METHODS:
            continue
        for span in calendar.spans:
            if span.name != "VEVENT" or span.uid is None:
                continue
            text = span.text(data)
            if "ATTENDEE" not in text.upper():
                continue
            try:
                people = recipients(store, profile_id, parse_component(text))
            except (ValueError, AssertionError):  # unreadable: the import reports it
                continue
            if people:
                found[span.uid.decode("utf-8", "replace")] = people
    return found


__all__ = [
    "FROM_ATTENDEE",
    "PARTSTATS",
    "Flow",
    "InvitationError",
    "Message",
    "cancel_calendar",
    "file_method",
    "file_recipients",
    "moved",
    "newer",
    "outgoing",
    "read_file",
    "read_message",
    "reply_calendar",
    "reply_event",
    "request_calendar",
    "stored_reply",
    "stored_rows",
]
