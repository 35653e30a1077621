"""One VEVENT from the file made ready for the store: zones named, columns derived, text kept.

Most events need no rewriting beyond swapping a TZID for its IANA name, which is done on the
text itself so each component is parsed exactly once and never re-serialised: the file's
own wording survives in ``ics`` and importing stays close to the cost of a bare parse.
Only events that need their values changed (X-WR-TIMEZONE, a private zone converted to
UTC, a dropped broken alarm) are rewritten by icalendar.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
import x_wr_timezone

from agent.errors import UserFacingError
from agent.ics import quick, zones
from agent.ics.reader import RawCalendar, RawComponent, split_head, unfold
from agent.store import expansion, recurrence
from agent.store.components import EventFields, index_fields, parse_component

CALENDAR_PROPERTY = "X-RICHENG-CALENDAR"
CONVERT_PREFIX = "X-RICHENG-TO-UTC-"
# A broken value in any of these changes which instances exist, so the event is refused.
SINGLE = ("UID", "DTSTART", "DTEND", "DURATION", "RECURRENCE-ID")
CRITICAL = {"UID", "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "STATUS"}
DATE_PROPERTIES = ("DTSTART", "DTEND", "RDATE", "EXDATE", "RECURRENCE-ID", "DUE")
_TZID_ANYWHERE = re.compile(r";TZID=", re.IGNORECASE)
_TZID_PARAM = re.compile(r';TZID=("[^"]*"|[^;:]*)', re.IGNORECASE)
_MARKER_LINE = re.compile(r"^X-RICHENG-CALENDAR[;:][^\n]*\n(?:[ \t][^\n]*\n)*", re.MULTILINE)
_TZID_USE = re.compile(r';TZID=("[^"]*"|[^;:]*)[^:]*:(\d{4})', re.IGNORECASE)


class ComponentError(Exception):
    """A component that cannot be imported; the import goes on without it."""

    def __init__(self, message: str, uid: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.uid = uid
        self.line = line


@dataclass(slots=True)  # an import holds one per series part until the series is whole
class Prepared:
    """An event ready to write: derived columns, the component, and both texts."""

    fields: EventFields
    component: icalendar.Event | None
    ics: str
    source: str
    line: int
    calendar_hint: str | None
    position: int
    warnings: list[str]
    plain: bool = False  # read by ``quick.read``: never parsed (``quick.serialised`` writes it)

    @property
    def plain_override(self) -> bool:
        """An override ``quick.read`` took: it changes its own instance only, and was never parsed."""
        return self.plain and bool(self.fields.recurrence_id)

    def parsed(self) -> icalendar.Event:
        """The component; kept only for series parts, re-read from ``ics`` otherwise."""
        return self.component if self.component is not None else parse_component(self.ics)


class CalendarContext:
    """Per-VCALENDAR state: its VTIMEZONEs, its X-WR-TIMEZONE, and TZIDs resolved so far."""

    def __init__(self, raw: RawCalendar) -> None:
        self.raw = raw
        self.timezones: dict[str, icalendar.Timezone] = {}
        self.refused_zones: dict[str, str] = {}  # TZID -> why its VTIMEZONE was not read
        # The cut's spans say whether there is any VTIMEZONE without making a component of
        # each of 100,000 overrides to look.
        zoned = any(span.name == "VTIMEZONE" for span in raw.spans) or not raw.spans
        parts = 0
        for component in raw.components if zoned else ():
            if component.name != "VTIMEZONE" or component.problem:
                continue
            problem = zones.zone_problem(component.text)
            if problem is None and zones.iana_name(zones.zone_tzid(component.text) or "") is None:
                parts += zones.zone_parts(component.text)  # a private zone: read by its rules
                if parts > zones.MAX_FILE_ZONE_PARTS:
                    problem = f"its VTIMEZONEs have over {zones.MAX_FILE_ZONE_PARTS} rules together"
            if problem is not None:  # a rule bomb: never parsed, and what uses it is refused
                tzid = zones.zone_tzid(component.text)
                if tzid:
                    self.refused_zones.setdefault(tzid, problem)
                continue
            try:
                parsed = icalendar.Timezone.from_ical(component.text)
            except Exception:  # an unreadable VTIMEZONE is as if absent
                continue
            if not isinstance(parsed, icalendar.Timezone):  # from_ical is typed as any Component
                continue
            tzid = str(parsed.get("TZID") or "").strip()
            if tzid:
                self.timezones.setdefault(tzid, parsed)
        wr = raw.text_property("X-WR-TIMEZONE")
        named = zones.iana_name(wr) if wr else None
        self.x_wr_timezone = named[0] if named else None
        self.calendar_name = raw.text_property("X-WR-CALNAME")
        self.resolved: dict[str, zones.Resolution] = {}

    def plain_zone(self, tzid: str) -> tzinfo | None:
        """The zone of ``tzid`` for ``quick.read``: only an IANA name, exactly as written, that
        this file defines no VTIMEZONE for (nothing then rewrites the line, and icalendar
        reads it as that zone); None leaves the event to icalendar."""
        if tzid in self.timezones or tzid in self.refused_zones:
            return None
        named = zones.iana_name(tzid)
        if named is None or named[0] != tzid:
            return None
        resolution = self.resolve(tzid)
        return ZoneInfo(tzid) if resolution.convert is None and resolution.iana == tzid else None

    def resolve(self, tzid: str) -> zones.Resolution:
        found = self.resolved.get(tzid)
        if found is None:
            refused = self.refused_zones.get(tzid) or self.refused_zones.get(tzid.strip('"'))
            if refused is not None and zones.iana_name(tzid) is None:
                raise zones.ZoneTooCostly(f"time zone {tzid.strip(chr(34))[:60]}: {refused}")
            vtimezone = self.timezones.get(tzid) or self.timezones.get(tzid.strip('"'))
            years: list[int] = []
            if vtimezone is not None and zones.iana_name(tzid) is None:
                years = self._years_using(tzid)
            found = zones.resolve(tzid, vtimezone, years, fallback=self.x_wr_timezone)
            self.resolved[tzid] = found
        return found

    def _years_using(self, tzid: str) -> list[int]:
        """Years in which the file has times in ``tzid``: where a private zone must match."""
        years = []
        for component in self.raw.components:
            if component.name == "VTIMEZONE" or tzid not in component.text:
                continue
            for match in _TZID_USE.finditer(unfold_all(component.text)):
                if match.group(1).strip('"') == tzid:
                    years.append(int(match.group(2)))
        return years


def unfold_all(text: str) -> str:
    return re.sub(r"\r?\n[ \t]", "", text)


def fold(line: str) -> str:
    """RFC 5545 folding at 75 octets without splitting a UTF-8 character."""
    if len(line) <= 75 and line.isascii():
        return line
    out: list[str] = []
    current: list[str] = []
    size = 0
    for char in line:
        width = len(char.encode())
        if current and size + width > 75:
            out.append("".join(current))
            current, size = [" "], 1
        current.append(char)
        size += width
    out.append("".join(current))
    return "\r\n".join(out)


def prepare(raw: RawComponent, context: CalendarContext, position: int, *, quick_first: bool = True) -> Prepared:
    """Turn one VEVENT into columns and texts, or raise ``ComponentError`` saying why not.

    ``quick_first`` tries ``prepare_plain`` first (a caller that just did passes False)."""
    if raw.problem:
        raise ComponentError(raw.problem, _uid_hint(raw.text), raw.line)
    original = raw.text
    plain = prepare_plain(original, raw.line, context, position) if quick_first else None
    if plain is not None:
        return plain
    try:
        text, convert = _normalise_text(original, context)
    except zones.ZoneTooCostly as exc:  # this event only: the rest of the file goes on
        raise ComponentError(str(exc), _uid_hint(raw.text), raw.line) from None
    try:
        component = icalendar.Component.from_ical(text)
    except Exception as exc:  # icalendar raises many types for bad input
        raise ComponentError(f"cannot parse the event: {_reason(exc)}", _uid_hint(raw.text), raw.line) from None
    if not isinstance(component, icalendar.Event):
        raise ComponentError("not a VEVENT", _uid_hint(raw.text), raw.line)
    uid_value = component.get("UID")
    if isinstance(uid_value, list):  # two UID lines: name the first, not a Python list
        uid_value = uid_value[0]
    uid = str(uid_value or "").strip() or None
    _check(component, raw, uid)
    warnings: list[str] = []
    rewrite = _drop_bad_alarms(component, warnings)
    if convert:
        _convert_to_utc(component, convert)
        rewrite = True
    if context.x_wr_timezone:
        converted = _apply_x_wr_timezone(component, context.x_wr_timezone)
        if converted is not component:
            component, rewrite = converted, True
    calendar_hint = None
    if CALENDAR_PROPERTY in text and component.get(CALENDAR_PROPERTY) is not None:
        calendar_hint = str(component.pop(CALENDAR_PROPERTY)).strip() or None
        text = _strip_marker(text)
    if uid is None:
        component.add("UID", _stable_uid(component))
        if not rewrite:
            text = _insert_after_begin(text, f"UID:{component['UID']}")
    try:
        fields = index_fields(component)
    except UserFacingError as exc:
        raise ComponentError(str(exc), uid, raw.line) from None
    except Exception as exc:  # odd values icalendar accepted but cannot use
        raise ComponentError(f"unusable event: {_reason(exc)}", uid, raw.line) from None
    ics = component.to_ical().decode() if rewrite else text
    # Only series parts are expanded; dropping the rest early keeps a big import's heap,
    # and so the garbage collector's passes over it, small.
    keep = component if fields.rrule or fields.rdate or fields.recurrence_id else None
    return Prepared(fields, keep, ics, original, raw.line, calendar_hint, position, warnings)


def prepare_plain(text: str, line: int, context: CalendarContext, position: int) -> Prepared | None:
    """The event without a parser when ``quick.read`` takes it (most overrides are that plain);
    None otherwise. The only TZIDs it takes are IANA names no rewrite touches
    (``CalendarContext.plain_zone``); X-WR-TIMEZONE would rewrite its times, so a calendar
    with one goes through icalendar. Nothing it takes needs a repair."""
    if context.x_wr_timezone:
        return None
    fields = quick.read(text, context.plain_zone)
    return None if fields is None else Prepared(fields, None, text, text, line, None, position, [], plain=True)


def _check(component: icalendar.Event, raw: RawComponent, uid: str | None) -> None:
    """Refuse what would import wrong rather than not at all: broken or doubled time values."""
    for name, message in component.errors:
        if str(name).upper() in CRITICAL:
            raise ComponentError(f"bad {str(name).upper()}: {message}", uid, _line_of(raw, str(name)))
    # One pass over the stored properties (keys are upper case) instead of a lookup each.
    for name, values in dict.items(component):
        if name in SINGLE and isinstance(values, list):
            raise ComponentError(f"more than one {name}", uid, _line_of(raw, name))
        if name not in ("RDATE", "EXDATE"):
            continue
        for item in values if isinstance(values, list) else [values]:
            for entry in item.dts if isinstance(item, icalendar.vDDDLists) else []:
                value = entry.dt
                first = value[0] if isinstance(value, tuple) else value
                if not isinstance(first, (date, datetime)):
                    raise ComponentError(
                        f"{name} needs dates or date-times, not {type(first).__name__}", uid, _line_of(raw, name)
                    )


def _drop_bad_alarms(component: icalendar.Event, warnings: list[str]) -> bool:
    """A reminder we cannot read is dropped (and reported), not a reason to lose the event."""
    if not component.subcomponents:
        return False
    keep = []
    for sub in component.subcomponents:
        if getattr(sub, "name", "") == "VALARM":
            trigger = sub.get("TRIGGER")
            has_params = trigger is not None and hasattr(trigger, "params")
            related = str(trigger.params.get("RELATED", "START")).upper() if has_params else "START"
            value = getattr(trigger, "dt", None)
            unreadable = isinstance(trigger, list) or not isinstance(value, (timedelta, datetime))
            if sub.errors or unreadable or related not in ("START", "END"):
                warnings.append(f"dropped a reminder with an unreadable TRIGGER ({_trigger_text(trigger)})")
                continue
        keep.append(sub)
    if len(keep) == len(component.subcomponents):
        return False
    component.subcomponents[:] = keep
    return True


def _trigger_text(trigger: Any) -> str:
    if trigger is None:
        return "missing"
    try:
        raw = trigger.to_ical()
    except Exception:
        return "unreadable"
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def _normalise_text(text: str, context: CalendarContext) -> tuple[str, dict[str, Any]]:
    """TZIDs swapped for their IANA names, or dropped when the time is to stay floating.

    Only the content lines that carry a TZID are unfolded and rewritten; the rest of the
    text is left exactly as written. Returns the text and the private zones whose times
    must be converted to UTC after parsing (keyed by the placeholder TZID written).
    """
    hits = [match.start() for match in _TZID_ANYWHERE.finditer(text)]
    if not hits:
        return text, {}
    convert: dict[str, Any] = {}
    placeholders: dict[str, str] = {}
    pieces: list[str] = []
    done = 0
    for position in hits:
        if position < done:
            continue  # a second TZID on a line already rewritten
        start, end = _line_bounds(text, position)
        line = text[start:end]
        pieces.append(text[done:start])
        pieces.append(_rewrite_line(line, context, convert, placeholders))
        done = end
    pieces.append(text[done:])
    return "".join(pieces), convert


def _line_bounds(text: str, position: int) -> tuple[int, int]:
    """Start and end (after its line break) of the content line, folds included, at ``position``."""
    start = text.rfind("\n", 0, position) + 1
    while start > 0 and text[start : start + 1] in (" ", "\t"):
        start = text.rfind("\n", 0, start - 1) + 1
    end = text.find("\n", position)
    while end != -1 and text[end + 1 : end + 2] in (" ", "\t"):
        end = text.find("\n", end + 1)
    return start, len(text) if end == -1 else end + 1


def _rewrite_line(line: str, context: CalendarContext, convert: dict[str, Any], placeholders: dict[str, str]) -> str:
    head, value = split_head(unfold(line))
    match = _TZID_PARAM.search(head)
    if match is None:
        return line  # "TZID=" inside a value, not a parameter
    tzid = match.group(1).strip('"')
    resolution = context.resolve(tzid)
    if resolution.convert is not None:
        # icalendar caches every VTIMEZONE it has seen, process-wide: a placeholder keeps
        # that cache from deciding what this TZID means.
        placeholder = placeholders.setdefault(tzid, f"{CONVERT_PREFIX}{len(placeholders)}")
        convert[placeholder] = resolution.convert
        replacement = f";TZID={placeholder}"
    elif resolution.iana != tzid:
        replacement = f";TZID={resolution.iana}" if resolution.iana else ""
    else:
        return line
    head = head[: match.start()] + replacement + head[match.end() :]
    ending = "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""
    return fold(f"{head}:{value}").replace("\r\n", ending or "\r\n") + ending


def _strip_marker(text: str) -> str:
    return _MARKER_LINE.sub("", text)


def _insert_after_begin(text: str, content_line: str) -> str:
    newline = "\r\n" if "\r\n" in text else "\n"
    first = text.find("\n") + 1
    return text[:first] + fold(content_line).replace("\r\n", newline) + newline + text[first:]


def _convert_to_utc(component: icalendar.Event, convert: dict[str, tzinfo]) -> None:
    """Times in a private zone no IANA zone matches keep their instants, as UTC.

    Their TZID was swapped for a placeholder icalendar cannot resolve, so they arrive naive.
    """
    for name in DATE_PROPERTIES:
        values = component.get(name)
        if values is None:
            continue
        items = values if isinstance(values, list) else [values]
        replaced = [_to_utc(item, convert) for item in items]
        component[name] = replaced if isinstance(values, list) else replaced[0]


def _to_utc(item: Any, convert: dict[str, tzinfo]) -> Any:
    zone = convert.get(str(item.params.get("TZID", "")))
    if zone is None:
        return item

    def move(value: Any) -> Any:
        if isinstance(value, tuple):
            return tuple(move(part) for part in value)
        if isinstance(value, datetime):
            local = value.replace(tzinfo=zone) if value.tzinfo is None else value
            return local.astimezone(UTC)
        return value

    params = {key: val for key, val in item.params.items() if key.upper() != "TZID"}
    if isinstance(item, icalendar.vDDDLists):
        new: Any = icalendar.vDDDLists([move(entry.dt) for entry in item.dts])
    else:
        new = icalendar.vDDDTypes(move(item.dt))
    new.params.update(params)
    return new


def _apply_x_wr_timezone(component: icalendar.Event, zone: str) -> icalendar.Event:
    """Google writes UTC/floating times meant in X-WR-TIMEZONE; x-wr-timezone fixes them."""
    calendar = icalendar.Calendar()
    calendar.add("X-WR-TIMEZONE", zone)
    calendar.add_component(component)
    converted = x_wr_timezone.to_standard(calendar)
    return converted.subcomponents[0] if converted is not calendar else component


def ical_text(value: bytes | str) -> str:
    """A property's ``to_ical()`` as text: the date and recurrence types give bytes, a few
    others (by icalendar's own annotations) give str."""
    return value.decode() if isinstance(value, bytes) else value


def _stable_uid(component: icalendar.Event) -> str:
    """A file without UIDs must still not duplicate on re-import: hash what identifies it."""
    parts = [
        str(component.get("SUMMARY") or ""),
        ical_text(component["DTSTART"].to_ical()) if component.get("DTSTART") is not None else "",
        ical_text(component["RECURRENCE-ID"].to_ical()) if component.get("RECURRENCE-ID") is not None else "",
    ]
    digest = hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:24]
    return f"{digest}@import.richeng"


def _uid_hint(text: str) -> str | None:
    match = re.search(r"^UID[;:][^\r\n]*", text, re.MULTILINE | re.IGNORECASE)
    if match is None:
        return None
    _, value = split_head(match.group(0))
    return value.strip() or None


def _line_of(raw: RawComponent, name: str) -> int:
    upper = name.upper()
    for offset, line in enumerate(raw.text.splitlines()):
        head = line[: len(upper) + 1].upper()
        if head in (f"{upper}:", f"{upper};"):
            return raw.line + offset
    return raw.line


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def series_query(components: list[icalendar.Event], plain_overrides: int = 0) -> tuple[Any, str | None]:
    """The recurring-ical-events query for one series, or why it cannot expand it.

    Rules RFC 5545 forbids (INTERVAL=0 ...) or that never match are refused by
    ``recurrence.rule_problem``; the rest is built and asked for its first instance only,
    through the bounded walks (``recurrence.bound``), which is where malformed series fail
    (mixed RDATE/EXDATE kinds, rules dateutil rejects). No window is walked, so a SECONDLY
    rule costs what a yearly one does. The query, walks installed, is handed on to the
    store's expander so the series is not built twice. ``plain_overrides`` counts the
    series' overrides left unparsed (``quick.read`` took them; they change only their own
    instance): they are not given to the library, but they do take instances away.
    """
    masters = [c for c in components if c.get("RECURRENCE-ID") is None] or components
    for master in masters:
        problem = recurrence.component_problem(master)
        if problem:
            return None, problem
    calendar = icalendar.Calendar()
    # Overrides that change only their own instance are placed by the store from their
    # rows; the library sees the master (and any THISANDFUTURE or rule-bearing override).
    plain = all(_plain_override(c) for c in components if c.get("RECURRENCE-ID") is not None)
    for component in components:
        if not (plain and component.get("RECURRENCE-ID") is not None):
            calendar.add_component(component)
    try:
        query = recurring_ical_events.of(calendar)
        excluded = len(components) + plain_overrides + sum(len(_exdates(master)) for master in masters)
        recurrence.bound(query, recurrence_budget() + excluded)
        start = masters[0].decoded("DTSTART")
        low = start if isinstance(start, datetime) else datetime(start.year, start.month, start.day)
        for series in query.series:
            # every instance so far excluded: not an error, the expander caps it
            with contextlib.suppress(recurrence.InstanceBudget):
                next(iter(series.between(low - timedelta(days=1), _FAR)), None)
    except Exception as exc:  # any failure here would hide the series later
        return None, _reason(exc)
    return query, None


_FAR = datetime(9000, 1, 1)


def series_parts(items: list[Prepared]) -> tuple[list[icalendar.Event], int]:
    """The parsed parts of one series for ``series_query``, and how many plain overrides
    were left out unparsed. They can be left out only while every parsed override is plain
    too; otherwise the library sees every part, as before, and those are parsed now."""
    others = [item.parsed() for item in items if not item.plain_override]
    left = len(items) - len(others)
    if not left or all(_plain_override(c) for c in others if c.get("RECURRENCE-ID") is not None):
        return others, left
    return [item.parsed() for item in items], 0


def _plain_override(component: icalendar.Event) -> bool:
    rid = component.get("RECURRENCE-ID")
    ranged = str(getattr(rid, "params", {}).get("RANGE", "")).upper() == "THISANDFUTURE"
    return not ranged and component.get("RRULE") is None and component.get("RDATE") is None


def recurrence_budget() -> int:
    """The walks' budget for one series, as the store's expander sets it."""
    return expansion.MAX_SERIES_INSTANCES + 2 * expansion.MAX_INSTANCES_PER_CHUNK


def _exdates(component: icalendar.Event) -> list[Any]:
    values = component.get("EXDATE")
    if values is None:
        return []
    items = values if isinstance(values, list) else [values]
    return [entry for item in items for entry in getattr(item, "dts", [item])]
