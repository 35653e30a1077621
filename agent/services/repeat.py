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
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from agent.timesym.context import TimeContext, local_datetime
from agent.timesym.grammar import SymbolError
from agent.timesym.recurrence import LUNAR_MARK, LUNAR_YEARLY, MARK_PROPERTY, Recurrence

if TYPE_CHECKING:
    import icalendar
from agent.timesym.resolve import resolve

REPEATS = ("DAILY", "WEEKDAYS", "WEEKLY", "BIWEEKLY", "MONTHLY", "YEARLY", LUNAR_YEARLY)
BYDAY = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


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
    if kind == LUNAR_YEARLY:
        return _lunar(Recurrence(LUNAR_YEARLY, count=count, until=until), start, ctx)
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


def series_from_rule(
    rule: Recurrence,
    start: date | datetime,
    ctx: TimeContext,
    until_symbol: str | None = None,
    count: int | None = None,
) -> Series:
    """The series for a structured rule (a weekday list, an interval, the Nth weekday …).

    An end given as a symbol or a count replaces the rule's own. The start moves forward to
    the rule's first occurrence when it is not one ("every Mon Wed Fri" said on a Thursday
    starts on Friday): DTSTART is always an occurrence, so every reader counts the same."""
    day = start.date() if isinstance(start, datetime) else start
    if until_symbol is not None or count is not None:
        until = _until(until_symbol, ctx, day) if until_symbol else None
        if count is not None and until is not None:
            raise SymbolError(str(until_symbol), "services.until_or_count")
        rule = rule.ending(count=count, until=until)
    if rule.lunar:
        return _lunar(rule, start, ctx)
    first = _first_occurrence(rule, start)
    if first is None:
        raise SymbolError(rule.freq, "services.no_lunar_date")
    text = rule.to_rrule(first)
    return Series(rule.freq, rrule=text, start=first, until=rule.until, count=rule.count)


def _lunar(rule: Recurrence, start: date | datetime, ctx: TimeContext) -> Series:
    try:
        dates = rule.lunar_dates(start, ctx.tz)
    except ValueError:
        raise SymbolError("LUNAR_YEARLY", "services.no_lunar_date") from None
    return Series(LUNAR_YEARLY, start=dates[0], rdates=dates[1:], dates=dates, until=rule.until, count=rule.count)


def _first_occurrence(rule: Recurrence, start: date | datetime) -> date | datetime | None:
    """The rule's first instance on or after ``start``, walked in the event's wall time (a
    rule's days are its local days); None when it has none before its end."""
    from dateutil.rrule import rrulestr

    if rule.verbatim is not None:
        return start
    naive = start.replace(tzinfo=None) if isinstance(start, datetime) else datetime.combine(start, time(0))
    text = rule.ending().to_rrule(naive)
    assert text is not None
    try:
        first = next(iter(rrulestr(text, dtstart=naive)), None)
    except (ValueError, TypeError, OverflowError):
        return None
    if first is None or rule.until is not None and first.date() > rule.until:
        return None
    if not isinstance(start, datetime):
        return first.date()
    if isinstance(start.tzinfo, ZoneInfo):
        return local_datetime(first.date(), start.time(), start.tzinfo)
    return first.replace(tzinfo=start.tzinfo)


def series_rule(master: icalendar.Event, tz: ZoneInfo | None = None) -> Recurrence | None:
    """The repeat rule of a stored series master, as the editor, the event card and the
    agenda read it (``tz``: the event's own zone); None for a single event.

    A master marked ``X-RICHENG-RECUR:LUNAR-YEARLY`` (by the editor, chat or quick add) is 农历
    yearly with as many occurrences as it lists (its RDATEs and the first); a rule is read
    with ``Recurrence.of_series``: the day of its last real instance as its end, a rule the
    model cannot read kept as its text."""
    if str(master.get(MARK_PROPERTY) or "") == LUNAR_MARK:
        listed = master.get("RDATE")
        items = listed if isinstance(listed, list) else [listed]
        return Recurrence(LUNAR_YEARLY, count=sum(len(item.dts) for item in items if item is not None) + 1)
    rule = master.get("RRULE")
    if rule is None or master.get("DTSTART") is None:
        return None
    return Recurrence.of_series(rule.to_ical().decode(), master.decoded("DTSTART"), tz)
