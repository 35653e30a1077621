"""One CalDAV resource <-> the store's rows of one UID, and the hashes that compare them.

A CalDAV calendar object is one VCALENDAR per UID holding the master, its overrides and
the VTIMEZONEs they use. Incoming resources go through the ICS importer's own cutting and
preparation (``reader.split`` + ``prepare``), so a server copy and an imported file can
never disagree about zones, X-WR-TIMEZONE or broken alarms. Outgoing resources are the
stored VEVENT texts verbatim, with a VTIMEZONE generated from zoneinfo for every TZID.

Two hashes, for two questions:
``local_hash`` — "did the user touch this since we synced?" — is over the exact stored text,
cheap and strict. ``canonical_hash`` — "do these two versions say the same thing?" — ignores
DTSTAMP, line folding, property order and parameter order, because servers re-serialise
what they store (Radicale via vobject) and a rewrite that changes nothing must not count as
an edit.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar

from agent.errors import UserFacingError
from agent.ics import quick, zones
from agent.ics.importer import prepare_repaired
from agent.ics.prepare import CalendarContext, ComponentError, Prepared, ical_text, series_parts, series_query
from agent.ics.reader import RawCalendar, scan
from agent.services.repeat import series_rule
from agent.store.components import EventFields, start_end
from agent.timesym.recurrence_words import summary

PRODID = "-//Richeng//Richeng Calendar//ZH"
_TZID_USE = re.compile(r';TZID=("[^"]*"|[^;:]*)', re.IGNORECASE)
_NEWLINES = re.compile(r"\r\n|\r|\n")
_FOLD = re.compile(r"\r?\n[ \t]")
_UID_LINE = re.compile(r"^UID[;:]([^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]")
_LAST_TZ_YEAR = 2038


@dataclass(frozen=True)
class LocalRow:
    """One stored row of a UID, as much as sync needs of it."""

    recurrence_id: str
    ics: str
    start_ts: int = 0
    end_ts: int = 0


@dataclass
class ServerResource:
    """A server copy made ready for the store, or the reason it cannot be used.

    ``ignored`` marks a resource without any VEVENT (a task in a mixed calendar): it is
    tracked so it is not fetched again, and never written or deleted by us. ``components``
    holds the parsed series parts (master, RDATE series, overrides) the expansion reads and
    None for every other part; ``fields`` holds every part's columns, so the store need not
    derive them again.
    """

    uid: str | None
    components: list[icalendar.Event | None] = field(default_factory=list)
    rows: list[LocalRow] = field(default_factory=list)
    canonical: str = ""
    ignored: bool = False
    problem: str | None = None
    text: str = ""
    fields: list[EventFields] = field(default_factory=list)


def local_hash(rows: Iterable[LocalRow], *, in_order: bool = False) -> str:
    """``in_order``: ``rows`` already come by recurrence id (read as a stream, not sorted)."""
    ordered = rows if in_order else sorted(rows, key=lambda row: row.recurrence_id)
    digest = hashlib.sha256()
    for row in ordered:
        digest.update(row.recurrence_id.encode())
        digest.update(b"\x1e")
        digest.update(row.ics.encode())
        digest.update(b"\x1d")
    return digest.hexdigest()


def _canonical_lines(ics: str) -> list[str]:
    text = _FOLD.sub("", ics)
    if "SCHEDULE-" in text:  # what uploads add and scheduling servers answer (agent/sync/scheduling.py)
        text = _SCHEDULING_PARAM.sub("", text)
    lines = [_sorted_parameters(line) for line in _NEWLINES.split(text) if line and not line.upper().startswith("DTSTAMP")]
    return sorted(lines)


# SCHEDULE-AGENT (set on upload) and SCHEDULE-STATUS (a scheduling server's delivery note) on
# a person: not part of the event, so a copy that differs only there is the same copy.
_SCHEDULING_PARAM = re.compile(r';SCHEDULE-(?:AGENT|STATUS)=(?:"[^"]*"|[^;:]*)', re.IGNORECASE)


def _sorted_parameters(line: str) -> str:
    """``line`` with its parameters in one order: serialisers keep different ones, and
    ``DTSTART;VALUE=DATE-TIME;TZID=X`` says what ``DTSTART;TZID=X;VALUE=DATE-TIME`` says."""
    head, colon, _ = line.partition(":")
    if head.count(";") < 2:  # no parameter, or one: nothing to order (nearly every line)
        return line
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in ";:":
            parts.append("".join(current))
            current = []
            if char == ":":
                return ";".join([parts[0], *sorted(parts[1:])]) + line[index:]
            continue
        current.append(char)
    return line  # no value: not a content line to reorder


def canonical_hash(rows: Iterable[LocalRow]) -> str:
    digest = hashlib.sha256()
    for row in sorted(rows, key=lambda row: row.recurrence_id):
        digest.update(row.recurrence_id.encode())
        digest.update(b"\x1e")
        digest.update("\n".join(_canonical_lines(row.ics)).encode())
        digest.update(b"\x1d")
    return digest.hexdigest()


def parse_resource(text: str, name: str = "<server>") -> ServerResource:
    """The events of one server resource, normalised exactly as an import would store them.

    All or nothing: a resource with one unreadable VEVENT is refused whole, because storing
    the rest and later pushing our copy back would delete the part we could not read.
    """
    uid_match = _UID_LINE.search(text)
    uid_hint = uid_match.group(1).strip() if uid_match else None
    try:
        # Components decode their text when read, one at a time: a resource of 100,000
        # overrides is not held as 100,000 component objects besides their prepared rows.
        calendars = scan(text.encode("utf-8", "surrogatepass"), name)
    except UserFacingError as exc:
        return ServerResource(uid_hint, problem=str(exc), text=text)
    prepared: list[Prepared] = []
    position = 0
    for raw_calendar in calendars:
        _skip_named_zones(raw_calendar)
        if not any(line[:5].upper() == "X-WR-" for line in raw_calendar.header_lines):
            # No X-WR-TIMEZONE/CALNAME to read: spare the context parsing the header for them.
            raw_calendar._header = icalendar.Calendar()
        context = CalendarContext(raw_calendar)
        for raw in raw_calendar.components:
            if raw.name != "VEVENT":
                continue
            try:
                # As an import does: the repairs first (control characters a terminal would
                # obey, doubled properties, broken reminders), so a server copy and an
                # imported file are stored alike (issue 29: ESC from a server reached the screen).
                prepared.append(prepare_repaired(raw, context, position))
            except ComponentError as exc:
                return ServerResource(exc.uid or uid_hint, problem=f"line {exc.line}: {exc}", text=text)
            position += 1
    if not prepared:
        return ServerResource(uid_hint, ignored=True, text=text)
    uids = {item.fields.uid for item in prepared}
    if len(uids) != 1:
        return ServerResource(uid_hint, problem=f"one resource holds {len(uids)} UIDs", text=text)
    uid = uids.pop()
    by_rid: dict[str, Prepared] = {}
    for item in prepared:
        by_rid[item.fields.recurrence_id] = item  # a repeated RECURRENCE-ID: the later copy
    ordered = [by_rid[rid] for rid in sorted(by_rid)]
    if any(item.fields.recurring for item in ordered):
        _, problem = series_query(*series_parts(ordered))
        if problem:
            return ServerResource(uid, problem=f"cannot expand the series: {problem}", text=text)
    # Series parts (the only ones ``prepare`` keeps parsed, and the only ones the expansion
    # needs) hold the text icalendar writes. A part ``quick.read`` took is written by
    # ``quick.serialised`` (the same text, tests/agent/ics/test_ics_quick.py): a resource of
    # 100,000 overrides is not parsed and re-serialised 100,000 times. Any other part keeps
    # the text ``prepare`` made, as an import stores it: the server's own, or icalendar's
    # where a repair or a zone rewrote it. Parsing those again only to write them back out
    # was half of a first pull's time (docs/sync.md), and changed nothing ``canonical_hash``
    # compares: it sorts lines and parameters, so a server's own order is no difference.
    components = [item.component for item in ordered]
    rows = [
        LocalRow(
            item.fields.recurrence_id,
            _row_text(item),
            item.fields.start_ts,
            item.fields.end_ts,
        )
        for item in ordered
    ]
    fields = [item.fields for item in ordered]
    # Only rows and columns go on: the cut (the bytes, their offsets) and the parts' own
    # texts are let go before hashing, so a 100,000-part resource peaks lower.
    del calendars, prepared, by_rid, ordered, item
    return ServerResource(uid, components, rows, canonical_hash(rows), text=text, fields=fields)


def _row_text(item: Prepared) -> str:
    if item.plain:
        return quick.serialised(item.ics)
    if item.component is not None:
        return item.component.to_ical().decode()
    return item.ics


def _skip_named_zones(raw_calendar: RawCalendar) -> None:
    """Leave out VTIMEZONEs whose TZID already names an IANA zone.

    The importer's zone resolution never reads those (the name wins), but parsing them is
    most of the cost of a small resource, and every resource Richeng or most servers write
    carries one. A private zone (any TZID that is not a known name) is kept and resolved
    from its VTIMEZONE exactly as an import would.
    """
    if not any(span.name == "VTIMEZONE" for span in raw_calendar.spans):  # spans: no component made
        return
    used = {
        match.group(1).strip('"')
        for component in raw_calendar.components
        if component.name != "VTIMEZONE"
        for match in _TZID_USE.finditer(component.text)
    }
    if all(zones.iana_name(tzid) is not None for tzid in used):
        raw_calendar.components = [c for c in raw_calendar.components if c.name != "VTIMEZONE"]


def build_resource(rows: Sequence[LocalRow]) -> bytes:
    """One VCALENDAR: VTIMEZONEs for every TZID used, then master and overrides."""
    if not rows:
        raise ValueError("a resource needs at least one event")
    ordered = sorted(rows, key=lambda row: row.recurrence_id)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    tzids: set[str] = set()
    events: list[str] = []
    for row in ordered:
        text = _event_text(row.ics, stamp)
        if ";TZID=" in text.upper():
            tzids.update(match.group(1).strip('"') for match in _TZID_USE.finditer(text))
        events.append(text)
    first_year = min(_year(row.start_ts) for row in ordered) - 1
    last_year = max(_LAST_TZ_YEAR, max(_year(row.end_ts) for row in ordered) + 2)
    parts = [f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:{PRODID}\r\nCALSCALE:GREGORIAN\r\n"]
    for tzid in sorted(tzids):
        vtimezone = _vtimezone(tzid, max(first_year, 1901), last_year)
        if vtimezone:
            parts.append(vtimezone)
    parts.extend(events)
    parts.append("END:VCALENDAR\r\n")
    return "".join(parts).encode()


def _year(ts: int) -> int:
    return (datetime(1970, 1, 1) + timedelta(seconds=ts)).year


def _event_text(ics: str, stamp: str) -> str:
    """The stored VEVENT with CRLF breaks and the DTSTAMP RFC 5545 requires."""
    lines = [line for line in _NEWLINES.split(ics.strip("\r\n")) if line]
    if not any(line.upper().startswith(("DTSTAMP:", "DTSTAMP;")) for line in lines):
        lines.insert(1, f"DTSTAMP:{stamp}")
    return "\r\n".join(lines) + "\r\n"


@functools.lru_cache(maxsize=256)
def _vtimezone(tzid: str, first_year: int, last_year: int) -> str | None:
    if not zones.is_iana(tzid):
        return None
    try:
        component = icalendar.Timezone.from_tzid(tzid, first_date=date(first_year, 1, 1), last_date=date(last_year, 1, 1))
    except Exception:  # a zone icalendar cannot describe is left to the reader
        return None
    return _NEWLINES.sub("\r\n", component.to_ical().decode())


def resource_name(uid: str) -> str:
    """A file name for a new resource: the UID where it is plain, else made plain and unique.

    Servers differ on which characters they quote (``@`` above all), so names keep to a
    set every server leaves alone; a hash suffix keeps two UIDs that clean up alike apart.
    """
    clean = _SAFE_NAME.sub("-", uid).strip(".-")[:80]
    if clean != uid or not clean:
        clean = f"{clean}-{hashlib.sha1(uid.encode()).hexdigest()[:10]}".lstrip("-")
    return f"{clean}.ics"


def describe(rows: Sequence[LocalRow]) -> dict[str, object]:
    """What a person needs to tell two versions apart: title, time, place, notes, overrides."""
    ordered = sorted(rows, key=lambda row: row.recurrence_id)
    if not ordered:
        return {}
    try:
        master = icalendar.Event.from_ical(ordered[0].ics)
        if not isinstance(master, icalendar.Event):  # from_ical is typed as any Component
            raise ValueError(f"a row holds a {master.name}, not a VEVENT")
        start, end = start_end(master)
    except Exception:  # a listing must show something even for odd text
        return {"title": "", "start": None, "end": None, "all_day": False, "location": "", "overrides": len(ordered) - 1}
    return {
        "title": str(master.get("SUMMARY") or ""),
        "start": _iso(start),
        "end": _iso(end),  # as stored: an all-day DTEND is the day after the last (RFC 5545)
        "all_day": not isinstance(start, datetime),
        "location": str(master.get("LOCATION") or ""),
        "description": str(master.get("DESCRIPTION") or ""),
        "rrule": ical_text(master["RRULE"].to_ical()) if master.get("RRULE") is not None else None,
        "repeat": _repeat_words(master, start),
        "overrides": len(ordered) - 1 if ordered[0].recurrence_id == "" else len(ordered),
    }


def _repeat_words(master: icalendar.Event, start: date | datetime) -> dict[str, str]:
    """How the version repeats, in the words the editor and the card use ({"zh": …, "en": …};
    empty for a single event): a 农历 series by its mark, a rule read by the one model."""
    zone = start.tzinfo if isinstance(start, datetime) and isinstance(start.tzinfo, ZoneInfo) else None
    rule = series_rule(master, zone)
    return {lang: summary(rule, start, lang) for lang in ("zh", "en")} if rule is not None else {}


def _iso(value: date | datetime) -> str:
    return value.isoformat()
