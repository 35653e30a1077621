"""The store's columns of the plainest VEVENTs, read line by line without icalendar.

icalendar builds a property object, a parameter dict and a parser state per content line;
for a file of 100,000 overrides that is 80% of an import and of a sync pull (issue 11:
36 s and 65 s, over 700 MB). Most such parts are a handful of unparameterised lines —
UID, RECURRENCE-ID, DTSTART, DTEND, SUMMARY — whose columns need no parser at all.

``read`` accepts a VEVENT only when every line is one it understands exactly and returns
``None`` for anything else, which then goes through icalendar as before: a parameter (a TZID
whose zone the caller does not vouch for, RANGE, LANGUAGE...), a property outside
``_ALLOWED`` (RRULE, RDATE, EXDATE, DURATION, X-...),
a sub-component (VALARM), a folded or over-long line, a bare LF among CRLFs, a doubled
property, a text value with a bare comma or semicolon, an escape icalendar would rewrite or a
control character, a time value that is not
``YYYYMMDDTHHMMSS[Z]`` (or ``;VALUE=DATE:YYYYMMDD``), start and end of different kinds or
in the wrong order (those are repairs), no UID or no DTSTART. What it accepts, icalendar
reads to the very same ``EventFields`` and re-serialises to the very same text (CRLF
breaks), so the text can be stored as it is; tests/agent/ics/test_ics_quick.py holds both to that.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from datetime import date, datetime, tzinfo

import icalendar

from agent.store.components import EventFields, recurrence_key, span_columns

_ALLOWED = frozenset(
    {"UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "RECURRENCE-ID", "DTSTART", "DTEND", "SUMMARY",
     "DESCRIPTION", "LOCATION", "STATUS", "TRANSP", "SEQUENCE"}
)  # fmt: skip
_TIMES = frozenset({"DTSTART", "DTEND", "RECURRENCE-ID"})
_DATED = {"DTSTART;VALUE=DATE": "DTSTART", "DTEND;VALUE=DATE": "DTEND", "RECURRENCE-ID;VALUE=DATE": "RECURRENCE-ID"}
_STAMPS = frozenset({"DTSTAMP", "CREATED", "LAST-MODIFIED"})
_DATE_TIME = re.compile(r"\d{8}T\d{6}Z?")
_DATE = re.compile(r"\d{8}")
_SEQUENCE = re.compile(r"0|[1-9]\d{0,8}")
# Characters whose reading differs between icalendar's parser and its writer (escapes,
# list separators) or that a repair removes: their presence sends the event to icalendar.
_PLAIN_TEXT = re.compile(r"[^\x00-\x1f\x7f\\,;]*")
_ODD = re.compile(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f\\,;]")  # the same, in a whole body (its breaks aside)
# Escapes icalendar reads and writes back as they are (``\N`` and ``\:`` it rewrites): a text
# value that holds only these is unescaped here exactly as icalendar unescapes it.
_ESCAPE = re.compile(r"\\([\\,;n])")
_TEXT = frozenset({"SUMMARY", "DESCRIPTION", "LOCATION"})
# ``NAME;TZID=zone`` (one parameter, unquoted): the zone is the caller's to vouch for.
_ZONED = re.compile(r"(DTSTART|DTEND|RECURRENCE-ID);TZID=([A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)+)")

#: The zone a TZID names when it needs no rewriting in this file, else None (see ``prepare_plain``).
ZoneOf = Callable[[str], tzinfo | None]


def read(text: str, zone_of: ZoneOf | None = None) -> EventFields | None:
    """The columns of ``text`` (one VEVENT) when it is plain enough to need no parser.

    With ``zone_of``, a time with a TZID the caller resolves (an IANA name that the file's
    own zones leave as it is) is read too; without it every TZID goes to icalendar. Lines
    may all end in LF instead (Radicale serves them so); a mix is left to icalendar."""
    text = _crlf(text)
    if not text.endswith("\r\nEND:VEVENT\r\n") or not text.startswith("BEGIN:VEVENT\r\n"):
        return None
    body = text[14:-14]
    breaks = body.count("\r\n")
    if body.count("\r") != breaks or body.count("\n") != breaks:
        return None  # a bare CR or LF
    ascii_only = body.isascii()
    values: dict[str, str] = {}
    zones: dict[str, tzinfo] = {}
    for line in body.split("\r\n"):
        if len(line) > 74 or (not ascii_only and len(line.encode()) > 74):
            return None  # icalendar would fold it (from 75 octets on), or it is folded already
        name, colon, value = line.partition(":")
        if not colon:
            return None
        if name in _DATED:
            name, value = _DATED[name], "D" + value
        elif name not in _ALLOWED:
            zoned = _ZONED.fullmatch(name) if zone_of is not None else None
            zone = zone_of(zoned.group(2)) if zoned is not None and zone_of is not None else None
            if zoned is None or zone is None or value.endswith("Z"):
                return None  # a parameter, a sub-component, a property we leave to icalendar
            name = zoned.group(1)
            zones[name] = zone
        if name in values:
            return None  # doubled: the repairs decide
        values[name] = value
    return _fields(values, _ODD.search(body) is None, zones)


def _crlf(text: str) -> str:
    """Every line break CRLF, where all were LF (icalendar reads both alike and writes CRLF)."""
    return text.replace("\n", "\r\n") if "\r" not in text else text


def _unescaped(value: str) -> str | None:
    """A text value with only the escapes icalendar writes back unchanged, unescaped; None
    for anything else (a bare comma or semicolon, ``\\N``, ``\\:``, a control character)."""
    if _PLAIN_TEXT.fullmatch(_ESCAPE.sub("", value)) is None:
        return None
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), value)


def _fields(values: dict[str, str], clean: bool, zones: dict[str, tzinfo]) -> EventFields | None:
    """``clean``: no value holds a character ``_PLAIN_TEXT`` refuses (checked on the body).
    ``zones``: the zone of each time written with a TZID."""
    uid = values.get("UID")
    if not uid or uid.strip() != uid or "DTSTART" not in values:
        return None
    for name, value in values.items():
        if name in _TIMES or name in _STAMPS:
            continue
        if name == "SEQUENCE":
            if _SEQUENCE.fullmatch(value) is None:
                return None
        elif not value and name in ("STATUS", "TRANSP"):
            return None
        elif not clean and not _PLAIN_TEXT.fullmatch(value):
            text = _unescaped(value) if name in _TEXT else None
            if text is None:
                return None
            values[name] = text
    for name in _STAMPS:
        stamp = values.get(name)
        if stamp is not None and not _stamp_ok(stamp):
            return None
    start = _moment(values["DTSTART"], zones.get("DTSTART"))
    if start is None:
        return None
    end_text = values.get("DTEND")
    if end_text is None:
        if not isinstance(start, datetime):
            return None  # an all-day start without end: icalendar's default is left to it
        end: date = start
    else:
        found = _moment(end_text, zones.get("DTEND"))
        if found is None or _kind(values["DTSTART"], zones.get("DTSTART")) != _kind(end_text, zones.get("DTEND")):
            return None  # date vs date-time, floating vs UTC: a repair
        if found < start or (found == start and not isinstance(start, datetime)):
            return None  # backwards, or an all-day event of no length: a repair
        end = found
    rid_text = values.get("RECURRENCE-ID")
    rid = _moment(rid_text, zones.get("RECURRENCE-ID")) if rid_text is not None else None
    if rid_text is not None and rid is None:
        return None
    all_day, floating, start_ts, end_ts, tzid = span_columns(start, end)
    last_modified = values.get("LAST-MODIFIED")
    return EventFields(
        uid=sys.intern(uid),  # interned: the parts of one series share their UID, status...
        recurrence_id=recurrence_key(rid),
        title=values.get("SUMMARY", ""),
        description=values.get("DESCRIPTION", ""),
        location=values.get("LOCATION", ""),
        tzid=tzid,
        all_day=all_day,
        floating=floating,
        start_ts=start_ts,
        end_ts=end_ts,
        rrule=None,
        rdate=None,
        exdate=None,
        transp=sys.intern(values.get("TRANSP", "OPAQUE").upper()),
        status=sys.intern(values.get("STATUS", "CONFIRMED").upper()),
        completed=False,
        sequence=int(values.get("SEQUENCE", "0")),
        last_modified=last_modified,
        alarms=[],
    )


@functools.lru_cache(maxsize=256)
def _stamp_ok(value: str) -> bool:
    """A DTSTAMP/CREATED/LAST-MODIFIED in UTC (the parts of a series share theirs)."""
    return value.endswith("Z") and _moment(value) is not None


def _kind(value: str, zone: tzinfo | None = None) -> str:
    if zone is not None:
        return f"zone {zone}"
    return "date" if value.startswith("D") else "utc" if value.endswith("Z") else "floating"


def _moment(value: str, zone: tzinfo | None = None) -> date | None:
    """``D``+YYYYMMDD (a VALUE=DATE), YYYYMMDDTHHMMSS (floating) or ...Z (UTC); None otherwise.

    The shape is checked first, so ``fromisoformat`` (C, and strict about ranges) never
    sees another of the ISO forms it would also take."""
    try:
        if value[:1] == "D":
            digits = value[1:]
            return date.fromisoformat(digits) if _DATE.fullmatch(digits) else None
        if _DATE_TIME.fullmatch(value) is None:
            return None
        # "...Z" comes back in datetime.timezone.utc, whose columns (seconds, key, zone
        # name) are those of icalendar's UTC; the datetimes themselves are never kept.
        moment = datetime.fromisoformat(value)
        return moment if zone is None else moment.replace(tzinfo=zone)  # a TZID'd time, as icalendar reads it
    except ValueError:
        return None  # month 13, second 60...: icalendar names the problem


@functools.cache
def _order() -> dict[str, int]:
    return {name: index for index, name in enumerate(icalendar.Event.canonical_order)}


def serialised(text: str) -> str:
    """``text`` (accepted by ``read``) as icalendar writes it: the same lines, in its
    canonical order (``Event.canonical_order`` first, the rest by name). A sync pull
    stores what icalendar would have written, without parsing the event to write it."""
    lines = _crlf(text)[14:-14].split("\r\n")
    order = _order()
    rest = len(order)

    def key(line: str) -> tuple[int, str]:
        name = line.split(":", 1)[0].split(";", 1)[0]
        return order.get(name, rest), name

    return "BEGIN:VEVENT\r\n" + "".join(line + "\r\n" for line in sorted(lines, key=key)) + "END:VEVENT\r\n"
