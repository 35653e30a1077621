"""Reading the indexed columns out of a VEVENT, and writing simple VEVENTs.

Every event in the store is a VEVENT first: the command service, the editor and the ICS
importer all hand the repository an ``icalendar.Event``, and the columns used for range
queries are derived here. One derivation means an agent-created event and an imported one
can never disagree about what "all day" or "floating" means.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any, get_type_hints
from zoneinfo import ZoneInfo

from agent.lazy import lazy_module

if TYPE_CHECKING:
    import icalendar
else:  # on first use: reading the columns needs no VEVENT parser (start-up, issue 14)
    icalendar = lazy_module("icalendar", __name__)

from agent.errors import ValidationError
from agent.store.fields import prop, write
from agent.timesym.context import canonical_zone_name

# The properties the columns are read from, by the field table (agent/store/fields.py);
# bound once, since ``index_fields`` runs once per event of an import.
_SUMMARY, _DESCRIPTION, _LOCATION = prop("title"), prop("description"), prop("location")
_TRANSP, _STATUS, _COMPLETED = prop("transp"), prop("status"), prop("completed")

EPOCH = datetime(1970, 1, 1)


def wall_seconds(value: datetime | date) -> int:
    """Wall-clock seconds: a naive local date-time read as if it were UTC."""
    naive = value.replace(tzinfo=None) if isinstance(value, datetime) else datetime(value.year, value.month, value.day)
    return int((naive - EPOCH).total_seconds())


def from_wall_seconds(seconds: int) -> datetime:
    return EPOCH + timedelta(seconds=seconds)


def utc_seconds(value: datetime) -> int:
    return int(value.timestamp())


def zone_name(value: datetime) -> str | None:
    """The IANA name of an aware datetime's zone, or None when it has none we can name."""
    tz = value.tzinfo
    if tz is None:
        return None
    key = getattr(tz, "key", None)
    if key:
        return canonical_zone_name(str(key))  # Etc/UTC and UTC: one name (issue 15)
    if value.utcoffset() == timedelta(0):
        return "UTC"
    zone = getattr(tz, "zone", None)  # pytz
    return str(zone) if zone else None


def recurrence_key(value: date | datetime | None) -> str:
    """The identity of an instance inside its series, comparable across imports.

    Aware times become UTC (``20261201T010000Z``), floating ones stay wall-clock
    (``20261201T090000``), dates are ``20261201``: the same instant always has one key.
    """
    if value is None:
        return ""
    # f-strings rather than strftime: this runs once per expanded instance.
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
            suffix = "Z"
        else:
            suffix = ""
        return f"{value.year:04d}{value.month:02d}{value.day:02d}T{value.hour:02d}{value.minute:02d}{value.second:02d}{suffix}"
    return f"{value.year:04d}{value.month:02d}{value.day:02d}"


@dataclass(frozen=True, slots=True)
class Column:
    """Marks a field of ``EventFields`` as an ``events`` column: ``sql`` is its type as the
    migrations declared it (tests/agent/store/test_event_sql.py holds the two together)."""

    sql: str


@dataclass(slots=True)  # slots: an import holds one per series part until the series is whole
class EventFields:
    """The columns of ``events`` that are derived from the VEVENT, and its alarms.

    The one declaration of those columns: each field marked ``Column`` is one, in this order,
    written under its own name (``event_columns``; ``agent.store.event_sql`` builds its
    statements and values from it). A new one is a field here, its reading in
    ``index_fields`` (and ``agent.ics.quick``), and the migration that adds it."""

    uid: Annotated[str, Column("TEXT NOT NULL")]
    recurrence_id: Annotated[str, Column("TEXT NOT NULL")]
    title: Annotated[str, Column("TEXT NOT NULL")]
    description: Annotated[str, Column("TEXT NOT NULL")]
    location: Annotated[str, Column("TEXT NOT NULL")]
    tzid: Annotated[str | None, Column("TEXT")]
    all_day: Annotated[bool, Column("INTEGER NOT NULL")]  # bools bind as 0/1
    floating: Annotated[bool, Column("INTEGER NOT NULL")]
    start_ts: Annotated[int, Column("INTEGER NOT NULL")]
    end_ts: Annotated[int, Column("INTEGER NOT NULL")]
    rrule: Annotated[str | None, Column("TEXT")]
    rdate: Annotated[str | None, Column("TEXT")]
    exdate: Annotated[str | None, Column("TEXT")]
    transp: Annotated[str, Column("TEXT NOT NULL")]
    status: Annotated[str, Column("TEXT NOT NULL")]
    completed: Annotated[bool, Column("INTEGER NOT NULL")]
    sequence: Annotated[int, Column("INTEGER NOT NULL")]
    last_modified: Annotated[str | None, Column("TEXT")]
    alarms: list[tuple[str, str]]

    @property
    def recurring(self) -> bool:
        return bool(self.rrule or self.rdate) and not self.recurrence_id


def event_columns(kind: type[EventFields] = EventFields) -> tuple[tuple[str, Column], ...]:
    """(name, spec) of each field of ``kind`` marked ``Column``, in declaration order."""
    hints = get_type_hints(kind, include_extras=True)
    found = []
    for item in fields(kind):
        specs = [mark for mark in getattr(hints[item.name], "__metadata__", ()) if isinstance(mark, Column)]
        if specs:
            found.append((item.name, specs[0]))
    return tuple(found)


def _text(props: dict[str, Any], name: str) -> str:
    value = props.get(name)
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _prop_lines(props: dict[str, Any], name: str) -> str | None:
    """Serialised property values (several lines joined by newline), kept for display/diff."""
    value = props.get(name)
    if value is None:
        return None
    values = value if isinstance(value, list) else [value]
    lines = []
    for item in values:
        raw = item.to_ical()
        lines.append(raw.decode() if isinstance(raw, bytes) else str(raw))
    return "\n".join(lines)


def _props(component: icalendar.Component) -> dict[str, Any]:
    """The properties by (upper-case) name, read once.

    icalendar stores names upper-cased; reading the mapping directly skips its
    case-folding lookup, which dominated deriving the columns of a large import.
    """
    return dict(dict.items(component))


def start_end(component: icalendar.Event) -> tuple[date | datetime, date | datetime]:
    """DTSTART and the effective end: DTEND, else DTSTART+DURATION, else RFC 5545's default
    (one day for a date, zero length for a date-time)."""
    if component.get("DTSTART") is None:
        raise ValidationError("store.no_dtstart")
    start = component.decoded("DTSTART")
    if component.get("DTEND") is not None:
        end = component.decoded("DTEND")
    elif component.get("DURATION") is not None:
        end = start + component.decoded("DURATION")
    elif isinstance(start, datetime):
        end = start
    else:
        end = start + timedelta(days=1)
    end = coerce_end(start, end)
    if end < start:
        raise ValidationError("store.ends_before_start")
    return start, end


def coerce_end(start: date | datetime, end: date | datetime) -> date | datetime:
    """A date start with a date-time end (or the reverse) appears in the wild; the start
    decides the kind, and the end keeps its calendar day."""
    if isinstance(start, datetime) != isinstance(end, datetime):
        if isinstance(start, datetime):
            return datetime.combine(end, start.timetz())
        return end.date() if isinstance(end, datetime) else end
    return end


def span_columns(start: date | datetime, end: date | datetime) -> tuple[bool, bool, int, int, str | None]:
    """(all_day, floating, start_ts, end_ts, tzid) of one instance.

    Shared by ``index_fields`` and the series expander so that a stored event and each of
    its expanded instances can never disagree about what is floating.
    """
    end = coerce_end(start, end)
    all_day = not isinstance(start, datetime)
    floating = all_day or start.tzinfo is None  # type: ignore[union-attr]
    if floating:
        return all_day, True, wall_seconds(start), wall_seconds(end), None
    assert isinstance(start, datetime) and isinstance(end, datetime)
    if end.tzinfo is None:
        end = end.replace(tzinfo=start.tzinfo)
    return False, False, utc_seconds(start), utc_seconds(end), zone_name(start)


def index_fields(component: icalendar.Event) -> EventFields:
    props = _props(component)
    uid = str(props.get("UID") or "").strip()
    if not uid:
        raise ValidationError("store.no_uid")
    start, end = start_end(component)
    all_day, floating, start_ts, end_ts, tzid = span_columns(start, end)
    rid_value = component.decoded("RECURRENCE-ID") if props.get("RECURRENCE-ID") else None
    status = str(props.get(_STATUS) or "CONFIRMED").upper()
    alarms = []
    for alarm in component.walk("VALARM"):
        trigger = alarm.get("TRIGGER")
        if trigger is None:
            continue
        raw = trigger.to_ical()
        alarms.append((raw.decode() if isinstance(raw, bytes) else str(raw), str(alarm.get("ACTION") or "DISPLAY")))
    last_modified = props.get("LAST-MODIFIED")
    return EventFields(
        uid=uid,
        recurrence_id=recurrence_key(rid_value),
        title=_text(props, _SUMMARY),
        description=_text(props, _DESCRIPTION),
        location=_text(props, _LOCATION),
        tzid=tzid,
        all_day=all_day,
        floating=floating,
        start_ts=start_ts,
        end_ts=end_ts,
        rrule=_prop_lines(props, "RRULE"),
        rdate=_prop_lines(props, "RDATE"),
        exdate=_prop_lines(props, "EXDATE"),
        transp=str(props.get(_TRANSP) or "OPAQUE").upper(),
        status=status,
        completed=str(props.get(_COMPLETED) or "") == "TRUE",
        sequence=int(props.get("SEQUENCE") or 0),
        last_modified=last_modified.to_ical().decode() if last_modified is not None else None,
        alarms=alarms,
    )


def excluded_single(component: icalendar.Event) -> bool:
    """A non-recurring event whose EXDATE names its own DTSTART: RFC 5545 leaves it no
    instance, and other programs show nothing. A DATE in EXDATE excludes that whole day,
    and a time matches by instant or, when one side is floating, by wall clock."""
    props = _props(component)
    if props.get("EXDATE") is None or props.get("RRULE") or props.get("RDATE") or props.get("RECURRENCE-ID"):
        return False
    try:
        start = component.decoded("DTSTART")
        values = props["EXDATE"] if isinstance(props["EXDATE"], list) else [props["EXDATE"]]
        excluded = [entry.dt for item in values for entry in getattr(item, "dts", [])]
    except (KeyError, ValueError, TypeError, AttributeError):
        return False
    keys = {recurrence_key(start), _wall_key(start)}
    for value in excluded:
        if isinstance(value, tuple):
            value = value[0]
        if not isinstance(value, datetime):
            if isinstance(value, date) and value == (start.date() if isinstance(start, datetime) else start):
                return True
            continue
        floating = value.tzinfo is None or getattr(start, "tzinfo", None) is None
        if recurrence_key(value) in keys or (floating and _wall_key(value) in keys):
            return True
    return False


def _wall_key(value: date | datetime) -> str:
    return recurrence_key(value.replace(tzinfo=None) if isinstance(value, datetime) else value)


def new_uid() -> str:
    return f"{uuid.uuid4()}@richeng"


def build_event(
    title: str,
    start: date | datetime,
    end: date | datetime,
    *,
    uid: str | None = None,
    description: str = "",
    location: str = "",
    transp: str = "OPAQUE",
    rrule: dict[str, Any] | str | None = None,
    alarm_minutes: list[int] | None = None,
    stamp: datetime | None = None,
) -> icalendar.Event:
    """A VEVENT for an event made inside Richeng (editor or agent); its fields are written
    under the properties the field table names (agent/store/fields.py)."""
    if not title.strip():
        raise ValidationError("store.no_title")
    event = icalendar.Event()
    event.add("UID", uid or new_uid())
    event.add("DTSTAMP", stamp or datetime.now(UTC))
    write(event, "title", title.strip())
    event.add(prop("start"), start)
    event.add(prop("end"), end)
    write(event, "description", description)
    write(event, "location", location)
    write(event, "transp", transp)
    if rrule:
        event.add("RRULE", icalendar.vRecur.from_ical(rrule) if isinstance(rrule, str) else rrule)
    set_alarms(event, alarm_minutes or [], title)
    return event


def set_alarms(component: icalendar.Event, minutes: Iterable[int], title: str) -> None:
    """Replace the VEVENT's VALARMs with one DISPLAY alarm ``m`` minutes before its start for
    each ``m`` of ``minutes``, described by ``title``.

    The one way Richeng writes a reminder (a new event, the editor's save, one occurrence's
    fields), so the reminder service reads every alarm it made the same way."""
    component.subcomponents = [sub for sub in component.subcomponents if sub.name != "VALARM"]
    for before in minutes:
        alarm = icalendar.Alarm()
        alarm.add("ACTION", "DISPLAY")
        alarm.add("DESCRIPTION", title.strip())
        alarm.add("TRIGGER", timedelta(minutes=-before))
        component.add_component(alarm)


def parse_component(text: str) -> icalendar.Event:
    """The stored VEVENT text back into a component."""
    component = icalendar.Event.from_ical(text)
    assert isinstance(component, icalendar.Event)
    return component


def aware(ts: int, floating: bool, tz: ZoneInfo) -> datetime:
    """An occurrence boundary as a datetime a caller can show: floating ones stay naive."""
    if floating:
        return from_wall_seconds(ts)
    return datetime.fromtimestamp(ts, tz)
