"""Recurrence presets of the editor, as RRULE text, and 农历 yearly as an RDATE list.

The editor offers what people set by hand: daily, weekly on chosen weekdays, monthly,
yearly, each until a date or for a count. A rule it cannot show (an INTERVAL, BYSETPOS …)
is kept verbatim as "custom" so opening and saving an imported event never rewrites it.

Lunar yearly (农历生日): no RRULE can say "every 八月十五", so the series is its first date
plus an RDATE per following lunar year, computed with ``agent.timesym.lunar``. It is
finite by construction (``LUNAR_YEARS`` occurrences unless a count or until date is
given), and marked ``X-RICHENG-RECUR:LUNAR-YEARLY`` so the editor recognises it. A lunar
day 30 in a year whose month has 29 days falls on day 29, which is how such birthdays are
kept in practice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from agent.timesym.lunar import lunar_month_day, lunar_to_solar, lunar_year_of

LUNAR_YEARS = 30
LUNAR_MARK = "LUNAR-YEARLY"
LAST_DAY_SCAN = 50_000  # instances walked to find a series' last day (the editor opens in ms)
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
KINDS = ("none", "daily", "weekly", "monthly", "yearly", "lunar", "custom")
_FREQ = {"DAILY": "daily", "WEEKLY": "weekly", "MONTHLY": "monthly", "YEARLY": "yearly"}


@dataclass(frozen=True)
class RecurrenceSpec:
    kind: str = "none"  # one of KINDS
    weekdays: tuple[str, ...] = ()  # for weekly: "MO" …
    until: date | None = None  # last day (inclusive)
    count: int | None = None
    custom: str = ""  # the original rule, for "custom"


def parse_rule(rrule: str | None, lunar: bool = False, tz: ZoneInfo | None = None) -> RecurrenceSpec:
    """The editor's view of a stored rule (``lunar``: the event is marked lunar yearly).

    A UTC UNTIL is read back as a day in ``tz`` (the event's zone), the zone it was
    written from.
    """
    if lunar:
        return RecurrenceSpec("lunar")
    if not rrule:
        return RecurrenceSpec()
    parts = dict(part.split("=", 1) for part in rrule.strip().split(";") if "=" in part)
    parts = {key.upper(): value for key, value in parts.items()}
    kind = _FREQ.get(parts.pop("FREQ", "").upper(), "custom")
    weekdays = tuple(day for day in parts.pop("BYDAY", "").split(",") if day) if kind == "weekly" else ()
    until = _until_day(parts.pop("UNTIL"), tz) if "UNTIL" in parts else None
    count = int(parts.pop("COUNT")) if "COUNT" in parts else None
    parts.pop("WKST", None)
    if parts.get("INTERVAL") == "1":
        parts.pop("INTERVAL")
    if parts or kind == "custom" or any(day not in WEEKDAYS for day in weekdays):
        return RecurrenceSpec("custom", custom=rrule)
    return RecurrenceSpec(kind, weekdays, until, count)


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
    if spec.kind == "weekly" and spec.weekdays:
        parts.append("BYDAY=" + ",".join(day for day in WEEKDAYS if day in spec.weekdays))
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
