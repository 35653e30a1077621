"""Recurrence as the editor shows it, as RRULE text, and 农历 yearly as an RDATE list.

The editor offers what people set by hand (issue 23): every N days, weeks, months or
years; weekly on chosen weekdays; monthly on the start's day, on its Nth or last weekday
(``BYDAY=2TU``, ``BYDAY=-1FR``) or on the last day (``BYMONTHDAY=-1``); each ending never,
on a date or after a count. A rule it cannot show (BYSETPOS over several days, BYMONTH,
BYHOUR, a WKST that changes which weeks count …) is kept verbatim as "custom", so opening
and saving an imported event never rewrites it. A monthly weekday rule that does not fit
its own start (``BYDAY=2MO`` on a Tuesday) is custom too: the editor derives the weekday
from the start, and would otherwise rewrite the rule on every save.

Lunar yearly (农历生日): no RRULE can say "every 八月十五", so the series is its first date
plus an RDATE per following lunar year, computed with ``agent.timesym.lunar``. It is
finite by construction (``LUNAR_YEARS`` occurrences unless a count or until date is
given), and marked ``X-RICHENG-RECUR:LUNAR-YEARLY`` so the editor recognises it. A lunar
day 30 in a year whose month has 29 days falls on day 29, which is how such birthdays are
kept in practice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from agent.timesym.lunar import lunar_month_day, lunar_to_solar, lunar_year_of

if TYPE_CHECKING:
    import icalendar

LUNAR_YEARS = 30
LUNAR_MARK = "LUNAR-YEARLY"
LAST_DAY_SCAN = 50_000  # instances walked to find a series' last day (the editor opens in ms)
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
KINDS = ("none", "daily", "weekly", "monthly", "yearly", "lunar", "custom")
ORDINALS = (1, 2, 3, 4, -1)  # the Nth weekday of a month the editor offers (-1: the last)
_FREQ = {"DAILY": "daily", "WEEKLY": "weekly", "MONTHLY": "monthly", "YEARLY": "yearly"}
_NTH_DAY = re.compile(r"^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$")


@dataclass(frozen=True)
class RecurrenceSpec:
    kind: str = "none"  # one of KINDS
    weekdays: tuple[str, ...] = ()  # weekly: the days ("MO" …); monthly by weekday: its one day
    until: date | None = None  # last day (inclusive)
    count: int | None = None
    custom: str = ""  # the original rule, for "custom"
    interval: int = 1  # every N days/weeks/months/years
    nth: int | None = None  # monthly on the Nth weekday: one of ORDINALS
    month_day: int | None = None  # monthly BYMONTHDAY: only -1 (the last day)


def parse_rule(rrule: str | None, lunar: bool = False, tz: ZoneInfo | None = None) -> RecurrenceSpec:
    """The editor's view of a stored rule (``lunar``: the event is marked lunar yearly).

    A UTC UNTIL is read back as a day in ``tz`` (the event's zone), the zone it was
    written from. Anything the editor cannot show comes back as "custom" with the rule.
    """
    if lunar:
        return RecurrenceSpec("lunar")
    if not rrule:
        return RecurrenceSpec()
    try:
        spec = _parse(rrule, tz)
    except (ValueError, IndexError):  # a malformed part: not ours to rewrite
        spec = None
    return spec if spec is not None else RecurrenceSpec("custom", custom=rrule)


def _parse(rrule: str, tz: ZoneInfo | None) -> RecurrenceSpec | None:
    parts: dict[str, str] = {}
    for part in rrule.strip().split(";"):
        if part:
            key, value = part.split("=", 1)
            parts[key.strip().upper()] = value.strip().upper()
    kind = _FREQ.get(parts.pop("FREQ", ""))
    interval = int(parts.pop("INTERVAL", "1"))
    if kind is None or interval < 1 or ("UNTIL" in parts and "COUNT" in parts):
        return None
    until = _until_day(parts.pop("UNTIL"), tz) if "UNTIL" in parts else None
    count = int(parts.pop("COUNT")) if "COUNT" in parts else None
    if count is not None and count < 1:
        return None
    wkst = parts.pop("WKST", "MO")
    days = [day for day in parts.pop("BYDAY", "").split(",") if day]
    weekdays: tuple[str, ...] = ()
    nth: int | None = None
    month_day: int | None = None
    if kind == "weekly" and days:
        if any(day not in WEEKDAYS for day in days):
            return None
        weekdays = tuple(day for day in WEEKDAYS if day in days)
        if wkst != "MO" and interval > 1 and len(weekdays) > 1:
            return None  # which days share a "week" depends on WKST, which build_rule does not write
    elif kind == "monthly" and days:
        match = _NTH_DAY.match(days[0]) if len(days) == 1 else None
        if match is None:
            return None
        setpos = parts.pop("BYSETPOS", None)
        if (match.group(1) is None) == (setpos is None):
            return None  # "TU" alone is every Tuesday; "2TU" with a BYSETPOS is not a form we show
        nth, weekdays = int(match.group(1) or setpos or "0"), (match.group(2),)
        if nth not in ORDINALS:
            return None
    elif kind == "monthly" and parts.get("BYMONTHDAY") == "-1":
        parts.pop("BYMONTHDAY")
        month_day = -1
    elif days:
        return None
    if parts:
        return None
    return RecurrenceSpec(kind, weekdays, until, count, interval=interval, nth=nth, month_day=month_day)


def nth_weekday(day: date) -> int:
    """Which of its month's weekdays ``day`` is: 1 for the first Tuesday … 5."""
    return (day.day - 1) // 7 + 1


def is_last_weekday(day: date) -> bool:
    return (day + timedelta(days=7)).month != day.month


def is_last_day(day: date) -> bool:
    return (day + timedelta(days=1)).month != day.month


def fits_start(spec: RecurrenceSpec, day: date) -> bool:
    """Whether a monthly weekday / last-day rule holds on its first day ``day``.

    The editor derives these from the start, so a rule that does not fit it (imported)
    is shown as custom and kept; every other form fits any start.
    """
    if spec.kind != "monthly":
        return True
    if spec.nth is not None:
        on_day = bool(spec.weekdays) and WEEKDAYS[day.weekday()] == spec.weekdays[0]
        return on_day and (is_last_weekday(day) if spec.nth == -1 else nth_weekday(day) == spec.nth)
    if spec.month_day == -1:
        return is_last_day(day)
    return True


def component_spec(master: icalendar.Event, tz: ZoneInfo | None) -> RecurrenceSpec:
    """The editor's view of a stored series master (``tz``: the event's own zone).

    "Until" is the day of the last real instance (``last_instance_day``); a lunar series
    counts its RDATEs; a rule that does not fit its DTSTART is custom (``fits_start``).
    """
    rule = master.get("RRULE")
    lunar = str(master.get("X-RICHENG-RECUR") or "") == LUNAR_MARK
    rule_text = rule.to_ical().decode() if rule is not None else None
    if lunar:
        rdates = master.get("RDATE")
        items = rdates if isinstance(rdates, list) else [rdates]
        return RecurrenceSpec("lunar", count=sum(len(item.dts) for item in items if item is not None) + 1)
    spec = parse_rule(rule_text, False, tz)
    if rule_text is None or spec.kind in ("none", "custom"):
        return spec
    start = master.decoded("DTSTART")
    if not fits_start(spec, start.date() if isinstance(start, datetime) else start):
        return RecurrenceSpec("custom", custom=rule_text)
    if spec.until is not None:
        last = last_instance_day(rule_text, start, tz)
        spec = dc_replace(spec, until=last) if last is not None else spec
    return spec


def _until_day(value: str, tz: ZoneInfo | None) -> date:
    digits = value.strip().upper()
    if digits.endswith("Z") and len(digits) == 16 and tz is not None:
        instant = datetime.strptime(digits, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        return instant.astimezone(tz).date()
    return date(int(digits[0:4]), int(digits[4:6]), int(digits[6:8]))


def last_instance_day(rrule: str, start: date | datetime, tz: ZoneInfo | None = None) -> date | None:
    """The day of the series' last instance under its UNTIL (None when it has none).

    A split ("this and following") ends the old series one second before the split
    instance, so its UNTIL falls on the split day although the last instance is a week
    earlier. The editor shows this day as "Until", so saving the rule back (UNTIL = end of
    that day) can never bring the split instance back as a duplicate.
    """
    from dateutil.rrule import rrulestr

    if "UNTIL=" not in rrule.upper():
        return None
    first = start if isinstance(start, datetime) else datetime.combine(start, time(0))
    try:
        last = None
        for count, instance in enumerate(rrulestr(rrule, dtstart=first)):
            last = instance
            if count >= LAST_DAY_SCAN:  # centuries of a daily rule: keep UNTIL's own day
                return None
    except (ValueError, TypeError, OverflowError):  # a rule dateutil cannot expand: keep UNTIL's day
        return None
    if last is None:
        return None
    if last.tzinfo is not None and tz is not None:
        last = last.astimezone(tz)
    return last.date()


def build_rule(spec: RecurrenceSpec, start: date | datetime) -> str | None:
    """RRULE text for ``spec`` (None for none/lunar); UNTIL covers the whole last day."""
    if spec.kind in ("none", "lunar"):
        return None
    if spec.kind == "custom":
        return spec.custom or None
    parts = [f"FREQ={spec.kind.upper()}"]
    if spec.interval > 1:
        parts.append(f"INTERVAL={spec.interval}")
    if spec.kind == "weekly" and spec.weekdays:
        parts.append("BYDAY=" + ",".join(day for day in WEEKDAYS if day in spec.weekdays))
    if spec.kind == "monthly" and spec.nth is not None and spec.weekdays:
        parts.append(f"BYDAY={spec.nth}{spec.weekdays[0]}")
    elif spec.kind == "monthly" and spec.month_day is not None:
        parts.append(f"BYMONTHDAY={spec.month_day}")
    if spec.count:
        parts.append(f"COUNT={spec.count}")
    elif spec.until is not None:
        parts.append("UNTIL=" + _until_value(spec.until, start))
    return ";".join(parts)


def _until_value(until: date, start: date | datetime) -> str:
    """RFC 5545: a date for all-day series, UTC for zoned ones, local for floating ones."""
    if not isinstance(start, datetime):
        return f"{until:%Y%m%d}"
    last = datetime.combine(until, time(23, 59, 59))
    if start.tzinfo is None:
        return f"{last:%Y%m%dT%H%M%S}"
    return f"{last.replace(tzinfo=start.tzinfo).astimezone(UTC):%Y%m%dT%H%M%SZ}"


def lunar_yearly_dates(first: date, count: int | None = None, until: date | None = None) -> list[date]:
    """Solar dates of the same lunar month-day in the following lunar years (not ``first``).

    ``count`` is the total number of occurrences including ``first`` (as RRULE COUNT);
    without count or until, ``LUNAR_YEARS`` in all.
    """
    month, day, _leap = lunar_month_day(first)
    total = count if count else (None if until else LUNAR_YEARS)
    dates: list[date] = []
    lunar_year = lunar_year_of(first)
    for year in range(lunar_year + 1, lunar_year + 1 + 200):
        if total is not None and len(dates) >= total - 1:
            break
        try:
            solar = lunar_to_solar(year, month, day) or lunar_to_solar(year, month, 29)
        except Exception:  # past lunar-python's tables: stop rather than guess
            break
        if solar is None or solar <= first:
            continue
        if until is not None and solar > until:
            break
        dates.append(solar)
    return dates


def lunar_rdates(start: date | datetime, count: int | None = None, until: date | None = None) -> list[date | datetime]:
    """RDATE values in the form of ``start`` (dates, floating or zoned date-times)."""
    first = start.date() if isinstance(start, datetime) else start
    days = lunar_yearly_dates(first, count, until)
    if not isinstance(start, datetime):
        return list(days)
    return [datetime.combine(day, start.timetz()) for day in days]
