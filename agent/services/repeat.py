"""Repeating events from a word, not a rule: the model says ``WEEKLY``, code writes the RRULE.

The chat's create tool takes ``repeat`` (DAILY | WEEKDAYS | WEEKLY | BIWEEKLY | MONTHLY |
YEARLY | LUNAR_YEARLY), an optional last day (``repeatUntil``, a date symbol) or a count
(``repeatCount``). The pattern follows the start date: WEEKLY repeats on its weekday,
MONTHLY on its day of the month, YEARLY on its month and day. 农历 yearly (a birthday kept
by the lunar calendar, 中秋) has no RRULE form, so it becomes one RDATE per year, computed
by ``agent/timesym/lunar.py`` from the start's lunar month and day; a lunar 30th in a year
whose month has 29 days falls on that month's 29th. The model never writes an RRULE.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from agent.timesym.context import TimeContext, local_datetime
from agent.timesym.grammar import SymbolError
from agent.timesym.lunar import lunar_month_day, lunar_to_solar, lunar_year_of, month_length
from agent.timesym.resolve import resolve

REPEATS = ("DAILY", "WEEKDAYS", "WEEKLY", "BIWEEKLY", "MONTHLY", "YEARLY", "LUNAR_YEARLY")
BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
LUNAR_DEFAULT_YEARS = 30  # an open-ended 农历 series: this many years of dates
LUNAR_MAX_YEARS = 100


@dataclass
class Series:
    """What the create writes: an RRULE text or RDATEs, and what the receipt says."""

    kind: str
    rrule: str | None = None
    rdates: list[date | datetime] = field(default_factory=list)
    start: date | datetime | None = None  # moved forward when the day is not one of the pattern's
    until: date | None = None
    count: int | None = None
    dates: list[date | datetime] = field(default_factory=list)  # 农历: every day written, first included

    def to_json(self) -> dict[str, Any]:
        return {
            "repeat": self.kind,
            "rrule": self.rrule,
            "until": self.until.isoformat() if self.until else None,
            "count": self.count,
            "next": [value.isoformat() for value in self.dates[:3]],
        }


def build_series(
    kind: str,
    start: date | datetime,
    ctx: TimeContext,
    until_symbol: str | None = None,
    count: int | None = None,
) -> Series:
    """The series for ``kind`` starting at ``start``. Raises ``SymbolError`` for an unknown
    kind or an until-day that does not resolve or precedes the start."""
    kind = str(kind).upper()
    if kind not in REPEATS:
        raise SymbolError(kind, "services.repeat_choice", choices=", ".join(REPEATS))
    day = start.date() if isinstance(start, datetime) else start
    until = _until(until_symbol, ctx, day) if until_symbol else None
    if count is not None and until is not None:
        raise SymbolError(str(until_symbol), "services.until_or_count")
    series = Series(kind, start=start, until=until, count=count)
    if kind == "LUNAR_YEARLY":
        dates = _lunar_dates(start, ctx, until, count)
        series.start = dates[0]  # the first such day on or after the start: DTSTART counts as one
        series.rdates = dates[1:]
        series.dates = dates
        return series
    if kind == "WEEKDAYS" and day.isoweekday() > 5:  # a Saturday start: the first weekday after it
        shift = timedelta(days=8 - day.isoweekday())
        series.start = start + shift
        day = day + shift
    parts = {
        "DAILY": "FREQ=DAILY",
        "WEEKDAYS": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "WEEKLY": f"FREQ=WEEKLY;BYDAY={BYDAY[day.weekday()]}",
        "BIWEEKLY": f"FREQ=WEEKLY;INTERVAL=2;BYDAY={BYDAY[day.weekday()]}",
        "MONTHLY": f"FREQ=MONTHLY;BYMONTHDAY={day.day}",
        "YEARLY": f"FREQ=YEARLY;BYMONTH={day.month};BYMONTHDAY={day.day}",
    }[kind]
    if count is not None:
        parts += f";COUNT={count}"
    elif until is not None:
        if isinstance(start, datetime):
            last = local_datetime(until, time(23, 59, 59), ctx.tz).astimezone(UTC)
            parts += f";UNTIL={last:%Y%m%dT%H%M%SZ}"
        else:
            parts += f";UNTIL={until:%Y%m%d}"
    series.rrule = parts
    return series


def _until(symbol: str, ctx: TimeContext, first: date) -> date:
    resolved = resolve(symbol, ctx)
    if resolved.kind == "time" or resolved.end is None and not resolved.candidates:
        raise SymbolError(symbol, "services.until_not_day", symbol=symbol)
    if resolved.candidates:
        last = resolved.candidates[-1]
    else:
        assert resolved.end is not None
        last = (resolved.end.astimezone(ctx.tz) - timedelta(seconds=1)).date()
    if last < first:
        raise SymbolError(symbol, "services.until_before_first", last=last.isoformat(), first=first.isoformat())
    return last


def _lunar_dates(start: date | datetime, ctx: TimeContext, until: date | None, count: int | None) -> list[date | datetime]:
    day = start.date() if isinstance(start, datetime) else start
    month, mday, _leap = lunar_month_day(day)
    years = min(count or LUNAR_DEFAULT_YEARS, LUNAR_MAX_YEARS)
    first_year = lunar_year_of(day)
    found: list[date | datetime] = []
    for lunar_year in range(first_year, first_year + LUNAR_MAX_YEARS + 1):
        if len(found) >= years:
            break
        try:
            wanted = min(mday, month_length(lunar_year, month))
            solar = lunar_to_solar(lunar_year, month, wanted)
        except Exception:  # lunar-python's tables end (year 2100+): stop there
            break
        if solar is None or solar < day:
            continue
        if until is not None and solar > until:
            break
        if isinstance(start, datetime):
            found.append(local_datetime(solar, start.timetz().replace(tzinfo=None), ctx.tz))
        else:
            found.append(solar)
    if not found:
        raise SymbolError("LUNAR_YEARLY", "services.no_lunar_date")
    return found  # the first is the start itself when it is that lunar day (DTSTART counts)
