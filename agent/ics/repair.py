"""Compat shims: repairing what real exporters write, so the event is imported, not dropped.

Each repair rewrites only the content lines it must, in the event's text, before
``prepare`` reads it; the file's own text stays in ``source``. Every repair leaves a note
for the import report. The rules (docs/ics.md, "Repairs") follow recurring-ical-events,
so that what it expands from the original file is what the store shows, except where a
different reading is deliberate and documented (a DATE start keeps the event all-day).
The ideas come from allenporter/ical's compat modules and the libraries' test corpora.

Most events need nothing: ``needs_repair`` is a few regular expressions run in C over the
text, and only the events it flags (or that ``prepare`` refused) are taken apart here.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import icalendar

from agent.ics.reader import logical_lines, split_head, unfold

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TIME_LINES = re.compile(r"^(DTSTART|DTEND|DURATION)([;:][^\n]*)", re.MULTILINE | re.IGNORECASE)
_ALARMS = re.compile(r"^BEGIN:VALARM.*?^END:VALARM[^\n]*\n?", re.MULTILINE | re.IGNORECASE | re.DOTALL)
_NO_T = re.compile(r"^([-+]?P(?:\d+W)?(?:\d+D)?)((?:\d+[HMS])+)$", re.IGNORECASE)
_BAD_TRIGGER = re.compile(r"^TRIGGER[;:][^\n]*?:?[-+]?P(?:\d+[WD])*\d+[HMS]\s*$", re.MULTILINE | re.IGNORECASE)
_TZID = re.compile(r';TZID=("[^"]*"|[^;:]*)', re.IGNORECASE)
_VALUE = re.compile(r";VALUE=[^;:]*", re.IGNORECASE)
_DTSTAMP = re.compile(r"^(?:DTSTAMP|UID)[;:][^\n]*\n(?:[ \t][^\n]*\n)*", re.MULTILINE | re.IGNORECASE)
# Cheap signs of a reminder without a usable DESCRIPTION (``_alarm_descriptions`` decides exactly).
_EMPTY_DESCRIPTION = re.compile(r"^DESCRIPTION(?:;[^\n]*?)?:[ \t]*\r?\n(?![ \t])", re.MULTILINE | re.IGNORECASE)
_ANY_DESCRIPTION = re.compile(r"^DESCRIPTION[;:]", re.MULTILINE | re.IGNORECASE)
_DISPLAY = re.compile(r"^ACTION[;:][^\n]*(?:DISPLAY|EMAIL)", re.MULTILINE | re.IGNORECASE)
# RFC 5545 3.6.6: these actions need a DESCRIPTION (a missing ACTION reads as DISPLAY, as the store does).
_NEEDS_DESCRIPTION = ("DISPLAY", "EMAIL", "")
DEFAULT_REMINDER = "Reminder"  # a reminder's DESCRIPTION when the event has no title either
# A second copy of these changes which instances exist (or whose they are).
SINGLE = ("UID", "DTSTART", "DTEND", "DURATION", "RECURRENCE-ID")


def needs_repair(text: str, uid_lines: int) -> bool:
    """Whether ``text`` shows a sign of anything ``repair`` fixes (cheap; no parsing)."""
    if uid_lines > 1 or _CONTROL.search(text) or _BAD_TRIGGER.search(text):
        return True
    top = text
    if "valarm" in text.lower():
        if any(_alarm_may_lack_description(alarm.group(0)) for alarm in _ALARMS.finditer(text)):
            return True
        top = _ALARMS.sub("", text)
    kinds: dict[str, tuple[str, str]] = {}
    for match in _TIME_LINES.finditer(top):
        name = match.group(1).upper()
        if name in kinds:
            return True  # doubled
        head, value = split_head(name + match.group(2).rstrip("\r"))
        value = value.strip()
        if name == "DURATION":
            kinds[name] = ("duration", value)
            if _NO_T.match(value):
                return True
            continue
        kind = _kind(head, value)
        if kind == "date" and "T" in value.upper():
            return True  # VALUE=DATE with a time
        kinds[name] = (kind, value)
    start, end, duration = kinds.get("DTSTART"), kinds.get("DTEND"), kinds.get("DURATION")
    if end is not None and duration is not None:
        return True
    if start is None:
        return False
    if duration is not None:
        return start[0] == "date" and "T" in duration[1].upper()
    if end is None:
        return False
    if start[0] != end[0]:
        return True  # date vs date-time, floating vs zoned, or two zones (cannot compare here)
    return end[1] < start[1] or (start[0] == "date" and end[1] == start[1])


def _alarm_may_lack_description(block: str) -> bool:
    """An empty DESCRIPTION, or a DISPLAY/EMAIL reminder with none: libical refuses both."""
    if _EMPTY_DESCRIPTION.search(block):
        return True
    return not _ANY_DESCRIPTION.search(block) and (
        _DISPLAY.search(block) is not None or not re.search(r"^ACTION[;:]", block, re.MULTILINE | re.IGNORECASE)
    )


def _kind(head: str, value: str) -> str:
    if "VALUE=DATE" in head.upper() and "VALUE=DATE-" not in head.upper():
        return "date"
    if "T" not in value.upper():
        return "date"
    if value.upper().endswith("Z"):
        return "utc"
    match = _TZID.search(head)
    return f"zone:{match.group(1)}" if match else "floating"


class _Event:
    """The event's content lines, with its own (top-level) properties indexed by name."""

    def __init__(self, text: str) -> None:
        self.lines = logical_lines(text)
        self.ending = "\r\n" if "\r\n" in text else "\n"

    def own(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        depth = 0
        for index, line in enumerate(self.lines):
            name = split_head(unfold(line))[0].split(";", 1)[0].upper()
            if name == "BEGIN":
                depth += 1
            elif name == "END":
                depth -= 1
            elif depth == 1:
                found.setdefault(name, []).append(index)
        return found

    def text(self) -> str:
        return "".join(line for line in self.lines if line)

    def set(self, index: int, content: str) -> None:
        self.lines[index] = content + self.ending

    def drop(self, index: int) -> None:
        self.lines[index] = ""

    def parts(self, index: int) -> tuple[str, str]:
        head, value = split_head(unfold(self.lines[index]))
        return head, value.strip()


def repair(text: str, notes: list[str], *, failed: bool = False) -> str | None:
    """``text`` with what we know how to fix fixed (and a note for each), or None if nothing was.

    ``failed`` (prepare refused the event) adds the repairs that need a parse to find:
    reminders icalendar cannot read, and time values it reads differently from the text.
    """
    before = len(notes)
    cleaned, count = _CONTROL.subn("", text)
    if count:
        notes.append(f"removed {count} control character{'s' if count > 1 else ''} (such as NUL) from the text")
    event = _Event(cleaned)
    if failed:
        _drop_unreadable_alarms(event, notes)
    _alarm_descriptions(event, notes)
    own = event.own()
    _doubles(event, own, notes)
    _durations(event, notes)
    own = event.own()
    _date_values(event, own, notes)
    _times(event, own, notes)
    return event.text() if len(notes) > before else None


def _doubles(event: _Event, own: dict[str, list[int]], notes: list[str]) -> None:
    """A second UID is dropped (the first names the event); identical copies of the other
    single-valued time properties are dropped too. Copies that disagree stay: ``prepare``
    refuses the event, since which one is meant cannot be known."""
    for name in SINGLE:
        indices = own.get(name, [])
        if len(indices) < 2:
            continue
        if name == "UID":
            values = [event.parts(index)[1] for index in indices]
            for index in indices[1:]:
                event.drop(index)
            shown = ", ".join(values[:3]) + (", ..." if len(values) > 3 else "")
            notes.append(f"it has {len(values)} UID lines ({shown}); kept the first")
            continue
        texts = {unfold(event.lines[index]).strip() for index in indices}
        if len(texts) == 1:
            for index in indices[1:]:
                event.drop(index)
            notes.append(f"the same {name} was written {len(indices)} times; kept one")


def _durations(event: _Event, notes: list[str]) -> None:
    """``P1H`` for ``PT1H`` (allenporter/ical's duration compat), in DURATION and TRIGGER."""
    for index, line in enumerate(event.lines):
        head, value = split_head(unfold(line))
        name = head.split(";", 1)[0].upper()
        if name not in ("DURATION", "TRIGGER"):
            continue
        match = _NO_T.match(value.strip())
        if match is not None:
            fixed = f"{match.group(1)}T{match.group(2)}"
            event.set(index, f"{head}:{fixed}")
            notes.append(f"{name}:{value.strip()} read as {fixed}")


def _date_values(event: _Event, own: dict[str, list[int]], notes: list[str]) -> None:
    """``VALUE=DATE:20250101T000000``: the date is meant (allenporter/ical's date compat)."""
    for name in ("DTSTART", "DTEND", "RECURRENCE-ID"):
        for index in own.get(name, []):
            head, value = event.parts(index)
            if _kind(head, value) == "date" and "T" in value.upper():
                event.set(index, f"{head}:{value.upper().split('T', 1)[0]}")
                notes.append(f"{name} says VALUE=DATE but has a time ({value}); kept the date")


def _parse(lines: list[str]) -> icalendar.Event | None:
    try:
        parsed = icalendar.Event.from_ical("BEGIN:VEVENT\r\n" + "".join(lines) + "END:VEVENT\r\n")
    except Exception:  # a value we cannot read is left to prepare to name
        return None
    return parsed if isinstance(parsed, icalendar.Event) else None


def _value(component: icalendar.Event, name: str) -> Any:
    prop = component.get(name)
    try:
        return None if prop is None or isinstance(prop, list) else prop.dt
    except Exception:  # broken property
        return None


def _times(event: _Event, own: dict[str, list[int]], notes: list[str]) -> None:
    """DTSTART/DTEND/DURATION made consistent; the rules are in docs/ics.md, "Repairs"."""
    starts, ends, durations = own.get("DTSTART", []), own.get("DTEND", []), own.get("DURATION", [])
    if len(starts) != 1 or len(ends) > 1 or len(durations) > 1:
        return
    if ends and durations:
        event.drop(durations[0])
        notes.append("it has both DTEND and DURATION; kept DTEND (RFC 5545 allows one)")
        durations = []
    lines = [event.lines[i] for i in starts + ends + durations]
    parsed = _parse(lines)
    if parsed is None:
        return
    start = _value(parsed, "DTSTART")
    if not isinstance(start, date):
        return
    start_head = event.parts(starts[0])[0]
    if durations:
        length = _value(parsed, "DURATION")
        if not isinstance(start, datetime) and isinstance(length, timedelta) and length.seconds:
            days = max(1, length.days + 1)
            event.set(durations[0], f"DURATION:P{days}D")
            notes.append(f"an all-day event with a DURATION in hours; made it {days} day{'s' if days > 1 else ''}")
        return
    if not ends:
        return
    end = _value(parsed, "DTEND")
    if not isinstance(end, date):
        return
    end_head = event.parts(ends[0])[0]
    if isinstance(start, datetime) != isinstance(end, datetime):
        end = _same_kind(start, end)
        event.set(ends[0], _line("DTEND", start_head, end))
        notes.append(f"DTSTART and DTEND are not both dates or both date-times; the start decides (DTEND {_show(end)})")
        end_head = start_head
    elif isinstance(start, datetime) and isinstance(end, datetime) and (start.tzinfo is None) != (end.tzinfo is None):
        if start.tzinfo is None:
            start = start.replace(tzinfo=end.tzinfo)
            start_head = _with_zone(start_head, end_head)
            event.set(starts[0], _line("DTSTART", start_head, start))
            notes.append("DTSTART had no time zone and DTEND had one; gave DTSTART the same zone")
        else:
            end = end.replace(tzinfo=start.tzinfo)
            end_head = _with_zone(end_head, start_head)
            event.set(ends[0], _line("DTEND", end_head, end))
            notes.append("DTEND had no time zone and DTSTART had one; gave DTEND the same zone")
    if not isinstance(start, datetime) and end == start:
        event.set(ends[0], _line("DTEND", start_head, start + timedelta(days=1)))
        notes.append("an all-day event ending on the day it starts; made it one day long")
        return
    try:
        backwards = end < start
    except TypeError:
        return
    if not backwards:
        return
    recurring = bool(own.get("RRULE") or own.get("RDATE")) and not own.get("RECURRENCE-ID")
    if recurring:
        # A series is anchored at DTSTART (its EXDATEs and overrides name those times).
        event.set(ends[0], _line("DTEND", start_head, start + (start - end)))
        notes.append("DTEND is before DTSTART; kept DTSTART (the series is anchored there) with the same length")
    else:
        start_line, end_line = event.lines[starts[0]], event.lines[ends[0]]
        event.lines[starts[0]] = "DTSTART" + end_line[len("DTEND") :]
        event.lines[ends[0]] = "DTEND" + start_line[len("DTSTART") :]
        notes.append("DTEND is before DTSTART; swapped them")


def _same_kind(start: date, end: date) -> date:
    """The end in the start's kind: a date start keeps the event all-day through the day
    its end reaches; a date end on a timed start means that day's midnight (as
    recurring-ical-events reads it), or the next one if that is not after the start."""
    if isinstance(start, datetime):
        moment = datetime.combine(end, time(0), tzinfo=start.tzinfo)
        return moment if moment > start else moment + timedelta(days=1)
    assert isinstance(end, datetime)
    day = end.date() + (timedelta(days=1) if end.time() != time(0) else timedelta(0))
    return day if day > start else start + timedelta(days=1)


def _with_zone(head: str, zoned: str) -> str:
    name = head.split(";", 1)[0]
    params = _TZID.sub("", head[len(name) :])
    match = _TZID.search(zoned)
    return name + (match.group(0) if match else "") + params


def _line(name: str, like: str, value: date) -> str:
    """A content line for ``value`` with the parameters of ``like`` (its TZID, not its VALUE)."""
    params = _VALUE.sub("", like[like.find(";") :] if ";" in like else "")
    if not isinstance(value, datetime):
        params = _TZID.sub("", params)
        return f"{name};VALUE=DATE{params}:{value:%Y%m%d}"
    if value.tzinfo is None:
        return f"{name}{_TZID.sub('', params)}:{value:%Y%m%dT%H%M%S}"
    if not _TZID.search(params):
        return f"{name}{params}:{value.astimezone(UTC):%Y%m%dT%H%M%S}Z"
    return f"{name}{params}:{value:%Y%m%dT%H%M%S}"


def _show(value: date) -> str:
    return value.isoformat() if not isinstance(value, datetime) else value.strftime("%Y-%m-%d %H:%M")


def _drop_unreadable_alarms(event: _Event, notes: list[str]) -> None:
    """A VALARM icalendar cannot read (``TRIGGER:PT-2H``) is dropped; the event is kept."""
    depth = 0
    block: list[int] = []
    for index, line in enumerate(event.lines):
        head = split_head(unfold(line))
        name, value = head[0].upper(), head[1].strip().upper()
        if name == "BEGIN":
            depth += 1
            if depth == 2 and value == "VALARM":
                block = [index]
                continue
        if block:
            block.append(index)
        if name == "END":
            depth -= 1
            if depth == 1 and block:
                if not _alarm_readable([event.lines[i] for i in block]):
                    trigger = next(
                        (event.parts(i)[1] for i in block if event.parts(i)[0].upper().startswith("TRIGGER")), "missing"
                    )
                    for i in block:
                        event.drop(i)
                    notes.append(f"dropped a reminder with an unreadable TRIGGER ({trigger})")
                block = []


def _alarm_descriptions(event: _Event, notes: list[str]) -> None:
    """Every reminder leaves with a DESCRIPTION that has a value, or with none where none is needed.

    Peers write ``DESCRIPTION:`` with nothing after it; kept, it was exported again and
    libical refuses the file ("no value for DESCRIPTION"). A DISPLAY (or EMAIL) alarm must
    have one (RFC 5545 3.6.6), so it gets the event's SUMMARY, as the reminders Richeng
    makes do (or ``DEFAULT_REMINDER`` when there is no title); any other action (AUDIO) needs
    none, so an empty one is dropped. Insertions are made after the walk, last first, so the
    indices the walk saw stay right.
    """
    own = event.own()
    titles = (event.parts(index)[1] for index in own.get("SUMMARY", []))
    title = next((value for value in titles if value), "")
    description = f"DESCRIPTION:{title or DEFAULT_REMINDER}"
    named = "the event's title" if title else f"'{DEFAULT_REMINDER}'"
    inserts: list[int] = []
    depth = 0
    block: list[int] | None = None
    for index, line in enumerate(event.lines):
        if not line:  # dropped by an earlier repair
            continue
        head, value = split_head(unfold(line))
        name = head.split(";", 1)[0].upper()
        if name == "BEGIN":
            depth += 1
            if depth == 2 and value.strip().upper() == "VALARM":
                block = []
            continue
        if name == "END":
            depth -= 1
            if depth == 1 and block is not None:
                if _alarm_description(event, block, description, named, notes):
                    inserts.append(index)
                block = None
            continue
        if block is not None and depth == 2:
            block.append(index)
    for index in reversed(inserts):
        event.lines.insert(index, description + event.ending)


def _alarm_description(event: _Event, block: list[int], description: str, named: str, notes: list[str]) -> bool:
    """Repair one VALARM's DESCRIPTION in place; True when one must be added before its END."""
    action = ""
    present: list[int] = []
    empty: list[int] = []
    for index in block:
        head, value = event.parts(index)
        name = head.split(";", 1)[0].upper()
        if name == "ACTION":
            action = value.upper()
        elif name == "DESCRIPTION":
            (present if value else empty).append(index)
    needed = action in _NEEDS_DESCRIPTION
    if not empty and (present or not needed):
        return False
    if not _alarm_readable(["BEGIN:VALARM\r\n", *(event.lines[index] for index in block), "END:VALARM\r\n"]):
        return False  # prepare drops this reminder and says so; a note about its text would only confuse
    if empty:
        if needed and not present:
            event.set(empty[0], description)
            empty = empty[1:]
            notes.append(f"a reminder had an empty DESCRIPTION (RFC 5545 requires one); gave it {named}")
        else:
            notes.append("dropped an empty DESCRIPTION from a reminder")
        for index in empty:
            event.drop(index)
        return False
    notes.append(f"a reminder had no DESCRIPTION (RFC 5545 requires one); gave it {named}")
    return True


def _alarm_readable(lines: list[str]) -> bool:
    """Whether ``prepare`` keeps this VALARM: a TRIGGER it reads, related to START or END."""
    try:
        alarm = icalendar.Component.from_ical("".join(lines))
    except Exception:
        return False
    trigger = alarm.get("TRIGGER")
    try:
        value = None if trigger is None or isinstance(trigger, list) else trigger.dt
    except Exception:
        return False
    related = str(trigger.params.get("RELATED", "START")).upper() if hasattr(trigger, "params") else "START"
    return isinstance(value, (timedelta, datetime)) and not alarm.errors and related in ("START", "END")


def content_digest(text: str) -> str:
    """What makes two UID-less events differ: their whole text but DTSTAMP (rewritten on
    every export) and the UID we gave them, in a stable form."""
    lines = sorted(unfold(line) for line in logical_lines(_DTSTAMP.sub("", text.replace("\r\n", "\n"))))
    return hashlib.sha1("\n".join(line for line in lines if line.strip()).encode()).hexdigest()
