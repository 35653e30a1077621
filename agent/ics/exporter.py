"""Exporting a profile's events as one RFC 5545 calendar.

Each stored ``ics`` text is already a VEVENT in IANA zones, so export concatenates them
rather than parsing and re-serialising ten thousand components: it only normalises line
breaks and folding, adds a DTSTAMP where a source lacked one, and writes one VTIMEZONE per
TZID used (generated from zoneinfo by icalendar). A series is always exported whole, master
with every override, so what another program expands matches what we expand.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar

from agent.errors import NotFoundError
from agent.ics import zones
from agent.ics.prepare import CALENDAR_PROPERTY, fold
from agent.services.calendars import CalendarService
from agent.store.db import Store
from agent.store.events import EventRepo

PRODID = "-//Richeng//Richeng Calendar//ZH"
_TZID_USE = re.compile(r';TZID=("[^"]*"|[^;:]*)', re.IGNORECASE)
_DTSTAMP = re.compile(r"^DTSTAMP[;:]", re.MULTILINE)
_NEWLINES = re.compile(r"\r\n|\r|\n")
_LAST_TZ_DATE = date(2038, 1, 1)
_CHUNK = 500


def export_calendar(
    store: Store,
    profile_id: int,
    calendar_name: str | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    tz: ZoneInfo | None = None,
) -> bytes:
    """The events of one calendar (or all, ``calendar_name`` None) as .ics bytes.

    With ``start``/``end``, only series and events with an instance overlapping
    [start, end) are exported, each whole (see docs/ics.md). Naive bounds and floating
    events are read in ``tz`` (default: the bounds' own zone, else UTC).
    """
    service = CalendarService(store, profile_id)
    if calendar_name is not None and calendar_name.strip():
        wanted = calendar_name.strip().casefold()
        chosen = [c for c in service.list() if c.name.casefold() == wanted]
        if not chosen:
            raise NotFoundError("ics.no_calendar", name=calendar_name, calendars=", ".join(service.names()))
        calendars = chosen
    else:
        calendars = service.list()
    names = {calendar.id: calendar.name for calendar in calendars}
    ids = list(names)
    with store.lock:
        uids = None if start is None and end is None else _uids_in_range(store, profile_id, ids, start, end, tz)
        rows = _rows(store, profile_id, ids, uids)
    mark_calendar = calendar_name is None or not calendar_name.strip()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    events: list[str] = []
    tzids: set[str] = set()
    first: int | None = None
    last: int | None = None
    for row in rows:
        text = _event_text(row["ics"], stamp, names[row["calendar_id"]] if mark_calendar else None)
        events.append(text)
        if ";TZID=" in text.upper():
            tzids.update(match.group(1).strip('"') for match in _TZID_USE.finditer(text))
            first = row["start_ts"] if first is None else min(first, row["start_ts"])
            last = row["end_ts"] if last is None else max(last, row["end_ts"])
    header = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN"]
    if not mark_calendar:
        header.append(fold("X-WR-CALNAME:" + icalendar.vText(calendars[0].name).to_ical().decode()))
    parts = ["\r\n".join(header) + "\r\n"]
    parts.extend(_timezones(tzids, first, last))
    parts.extend(events)
    parts.append("END:VCALENDAR\r\n")
    return "".join(parts).encode()


def _uids_in_range(
    store: Store,
    profile_id: int,
    calendar_ids: list[int],
    start: datetime | None,
    end: datetime | None,
    tz: ZoneInfo | None,
) -> set[str]:
    """UIDs with an instance overlapping the range; a missing bound is open."""
    zone = tz or _zone_of(start) or _zone_of(end) or ZoneInfo("UTC")
    low = _aware(start, zone) if start is not None else datetime(1, 1, 2, tzinfo=UTC)
    if end is not None:
        high = _aware(end, zone)
        repo = EventRepo(store, profile_id)
        return {occ.uid for occ in repo.occurrences(low, high, zone, calendar_ids=calendar_ids)}
    # Open end: anything ending after ``low``, plus open series (their future is unbounded).
    wall_low = int((low.astimezone(zone).replace(tzinfo=None) - datetime(1970, 1, 1)).total_seconds())
    marks = ", ".join("?" for _ in calendar_ids)
    rows = store.conn.execute(
        "SELECT DISTINCT e.uid FROM events e WHERE e.profile_id = ? AND e.calendar_id IN (" + marks + ") AND ("
        " e.expanded_until IS NOT NULL OR EXISTS (SELECT 1 FROM occurrences o WHERE o.series_id = e.id"
        " AND o.end_ts > (CASE o.floating WHEN 1 THEN ? ELSE ? END)))",
        [profile_id, *calendar_ids, wall_low, int(low.timestamp())],
    ).fetchall()
    return {row[0] for row in rows}


def _zone_of(value: datetime | None) -> ZoneInfo | None:
    if value is None or value.tzinfo is None:
        return None
    return value.tzinfo if isinstance(value.tzinfo, ZoneInfo) else None


def _aware(value: datetime, zone: ZoneInfo) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=zone)
    return datetime(value.year, value.month, value.day, tzinfo=zone)


def _rows(store: Store, profile_id: int, calendar_ids: list[int], uids: set[str] | None) -> list[sqlite3.Row]:
    """Rows ordered by UID then RECURRENCE-ID: masters first, stable across stores."""
    if not calendar_ids:
        return []
    marks = ", ".join("?" for _ in calendar_ids)
    query = (
        "SELECT uid, recurrence_id, calendar_id, ics, start_ts, end_ts FROM events"
        f" WHERE profile_id = ? AND calendar_id IN ({marks})"
    )
    if uids is None:
        return store.conn.execute(query + " ORDER BY uid, recurrence_id", [profile_id, *calendar_ids]).fetchall()
    rows: list[sqlite3.Row] = []
    ordered = sorted(uids)
    for at in range(0, len(ordered), _CHUNK):
        chunk = ordered[at : at + _CHUNK]
        rows.extend(
            store.conn.execute(
                query + f" AND uid IN ({', '.join('?' for _ in chunk)})",
                [profile_id, *calendar_ids, *chunk],
            ).fetchall()
        )
    rows.sort(key=lambda row: (row["uid"], row["recurrence_id"]))
    return rows


def _event_text(ics: str, stamp: str, calendar: str | None) -> str:
    """The stored VEVENT with CRLF breaks, folded lines, a DTSTAMP and our calendar marker."""
    lines = _NEWLINES.split(ics.strip("\r\n"))
    extra = []
    if not _DTSTAMP.search(ics):
        extra.append(f"DTSTAMP:{stamp}")
    if calendar is not None:
        extra.append(fold(f"{CALENDAR_PROPERTY}:" + icalendar.vText(calendar).to_ical().decode()))
    out = [lines[0], *extra]
    for line in lines[1:]:
        if not line:
            continue
        if len(line) > 75 or (not line.isascii() and len(line.encode()) > 75):
            line = fold(line)
        out.append(line)
    return "\r\n".join(out) + "\r\n"


def _timezones(tzids: Iterable[str], first_ts: int | None, last_ts: int | None) -> list[str]:
    """One VTIMEZONE per TZID, covering the exported events' years (and some future)."""
    first = _date_of(first_ts) - timedelta(days=366) if first_ts is not None else date(1970, 1, 1)
    last = max(_date_of(last_ts) + timedelta(days=366) if last_ts is not None else _LAST_TZ_DATE, _LAST_TZ_DATE)
    out = []
    for tzid in sorted(set(tzids)):
        text = _vtimezone(tzid, first, last)
        if text:
            out.append(text)
    return out


def _date_of(ts: int) -> date:
    return (datetime(1970, 1, 1) + timedelta(seconds=ts)).date()


@functools.lru_cache(maxsize=256)
def _vtimezone(tzid: str, first: date, last: date) -> str | None:
    """The VTIMEZONE icalendar generates from zoneinfo, without its COMMENTs.

    icalendar notes the years it built the zone for in a COMMENT on the VTIMEZONE itself,
    where RFC 5545 (3.6.5) allows none, and libical reports every export that carries one
    (issue 19). A COMMENT in its STANDARD/DAYLIGHT parts (allowed, but icalendar's are only
    notes to itself) goes too: the zone's meaning is all in its other properties.
    """
    if not zones.is_iana(tzid):
        return None
    try:
        component = icalendar.Timezone.from_tzid(tzid, first_date=max(first, date(1900, 1, 2)), last_date=last)
    except Exception:
        return None
    for part in component.walk():
        part.pop("COMMENT", None)
    return _NEWLINES.sub("\r\n", component.to_ical().decode())
