"""Turn canonical time symbols into concrete intervals in the user's zone.

The model only ever emits symbols (see :mod:`agent.timesym.grammar`); all
calendar arithmetic happens here, deterministically, against a
:class:`TimeContext`. Every date symbol denotes whole local days
``[start of first day, start of the day after the last day)``; times and
instants are wall-clock values placed with the DST rule of
:mod:`agent.timesym.context`.

Anything that is not a valid symbol raises :class:`SymbolError` - never a
guess, and never another exception type - with a message meant for a model
to fix its output in one retry.

Lenient input: surrounding whitespace is stripped and lowercase prefix
letters are accepted (``d+1``, ``we``, ``w3+1``, ``m-1``, ``h:国庆``,
``l:08-15``, ``d+1t15:00``); the exported JSON-schema patterns stay
canonical (uppercase) so a grammar-constrained model emits canonical forms.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

from agent.timesym.context import (
    TimeContext,
    add_months,
    day_end,
    day_start,
    days_bounds,
    local_datetime,
    month_first,
    week_monday,
)
from agent.timesym.grammar import (
    INSTANT_RE,
    LOOSE_INSTANT_RE,
    LOOSE_TIME_RE,
    SINGLE_DAY_FORMS,
    TIME_RE,
    SymbolError,
    normalize_case,
    parse_date_form,
)
from agent.timesym.patterns import next_month_day

__all__ = [
    "LATEST_NOW_DAY",
    "MAX_RANGE_DAYS",
    "Resolved",
    "error_json",
    "now_problem",
    "resolve",
    "resolve_date",
    "resolve_range",
    "resolve_time",
]

Kind = Literal["day", "days", "month", "instant", "time"]
DATE_KINDS: frozenset[str] = frozenset({"day", "days", "month"})
MAX_RANGE_DAYS = 366
EARLIEST_DAY = date(1900, 1, 1)
MAX_YEARS_AHEAD = 10
LATEST_NOW_DAY = date(2199, 12, 31)
"""The last day a pretended "now" (``--now``) may fall on. Like the symbols' bound it keeps a
typo out (``--now 9999-12-31`` poisoned the undo journal, issue 19): 1900..2199 is where
the lunar calendar and the holiday tables that "now" feeds are checked, with room for the
ten years ahead a symbol may reach."""


@dataclass(frozen=True)
class Resolved:
    """One resolved symbol; ``end`` is exclusive, all datetimes are in ``ctx.tz``."""

    symbol: str
    kind: Kind
    start: datetime | None
    end: datetime | None
    candidates: tuple[date, ...]
    time: time | None = None
    note: str | None = None  # e.g. a holiday year whose 调休 is not announced yet

    def to_json(self) -> dict[str, Any]:
        """Tool-result shape: ISO 8601 with offsets so the model sees exact instants."""
        return {
            "symbol": self.symbol,
            "kind": self.kind,
            "start": self.start.isoformat() if self.start is not None else None,
            "end": self.end.isoformat() if self.end is not None else None,
            "candidates": [d.isoformat() for d in self.candidates],
            "message": None,
            **({"note": self.note} if self.note else {}),
        }


def error_json(symbol: str, err: SymbolError) -> dict[str, Any]:
    """Tool-result shape for a failed symbol, mirroring :meth:`Resolved.to_json`."""
    return {
        "symbol": symbol,
        "kind": "error",
        "start": None,
        "end": None,
        "candidates": [],
        "message": err.message,
    }


# --- building blocks ---------------------------------------------------------


def _day(symbol: str, d: date, ctx: TimeContext) -> Resolved:
    start, end = days_bounds(d, d, ctx.tz)
    return Resolved(symbol, "day", start, end, (d,))


def _days(symbol: str, days: tuple[date, ...], ctx: TimeContext) -> Resolved:
    start, end = days_bounds(days[0], days[-1], ctx.tz)
    return Resolved(symbol, "days", start, end, days)


def _month(symbol: str, year: int, month: int, ctx: TimeContext) -> Resolved:
    ny, nm = add_months(year, month, 1)
    start = day_start(month_first(year, month), ctx.tz)
    end = day_start(month_first(ny, nm), ctx.tz)
    return Resolved(symbol, "month", start, end, ())


def _signed(match: re.Match[str], group: str) -> int:
    value = int(match.group(group) or 0)
    return -value if match.group("sign") == "-" else value


def _next_month_day(symbol: str, month: int, day: int, today: date) -> date:
    """Next ``month``-``day`` on or after today; 02-29 waits for a leap year."""
    found = next_month_day(month, day, today)
    if found is not None:
        return found
    raise SymbolError.invalid(symbol, "timesym.not_a_day", symbol=symbol, month=month, day=day)


def _resolve_date_form(symbol: str, form: str, m: re.Match[str], ctx: TimeContext) -> Resolved:
    today = ctx.today
    if form == "day_offset":
        return _day(symbol, today + timedelta(days=_signed(m, "n")), ctx)
    if form == "weekday_next":
        target = int(m.group("d")) - 1
        return _day(symbol, today + timedelta(days=(target - today.weekday()) % 7), ctx)
    if form == "weekday_in_week":
        monday = week_monday(today) + timedelta(weeks=_signed(m, "k"))
        return _day(symbol, monday + timedelta(days=int(m.group("d")) - 1), ctx)
    if form == "weekend":
        saturday = week_monday(today) + timedelta(weeks=_signed(m, "k"), days=5)
        return _days(symbol, (saturday, saturday + timedelta(days=1)), ctx)
    if form == "iso_date":
        y, mo, d = int(m.group("y")), int(m.group("m")), int(m.group("d"))
        try:
            return _day(symbol, date(y, mo, d), ctx)
        except ValueError as exc:
            if "year" in str(exc):
                raise SymbolError.invalid(symbol, "timesym.year_out_of_range", symbol=symbol, year=y) from exc
            raise SymbolError.invalid(symbol, "timesym.not_a_date", symbol=symbol, year=y, month=mo, day=d) from exc
    if form == "month_day":
        return _day(symbol, _next_month_day(symbol, int(m.group("m")), int(m.group("d")), today), ctx)
    if form == "month_offset":
        y, mo = add_months(today.year, today.month, _signed(m, "n"))
        return _month(symbol, y, mo, ctx)
    if form == "year_month":
        y = int(m.group("y"))
        if y < 1:
            raise SymbolError.invalid(symbol, "timesym.year_out_of_range", symbol=symbol, year=y)
        return _month(symbol, y, int(m.group("m")), ctx)
    if form == "holiday":
        from agent.timesym import holiday  # the holidays package costs ~0.2 s to import: only here

        period = holiday.holiday_period_noted(m.group("name"), today, ctx.holiday_country)
        return replace(_days(symbol, period.days, ctx), note=period.note)
    if form == "lunar":
        from agent.timesym import lunar  # lunar_python, likewise only for L: symbols

        return _day(symbol, lunar.next_lunar_date(int(m.group("m")), int(m.group("d")), today, symbol), ctx)
    raise AssertionError(f"unhandled form {form}")  # pragma: no cover - grammar and resolver out of sync


def _diagnose(symbol: str) -> tuple[str, dict[str, Any]]:
    """A targeted explanation for the common ways a symbol goes wrong: its message code and
    parameters (agent/messages/timesym.py)."""
    named = {"symbol": symbol}
    if not symbol:
        return "timesym.empty", {}
    if m := re.fullmatch(r"[Ww]([0-9]+)([+-][0-9]+)?", symbol):
        return "timesym.bad_weekday", named
    if re.fullmatch(r"[Ww][Ee]?[+-]?[0-9]*", symbol) or re.fullmatch(r"[Dd][0-9]+", symbol):
        return "timesym.needs_sign", named
    if re.fullmatch(r"[DdMmWw]([+-]|[Ee][+-])[0-9]{4,}", symbol):
        return "timesym.offset_too_large", named
    if m := LOOSE_TIME_RE.fullmatch(symbol):
        h, mi = int(m.group("h")), int(m.group("m"))
        if h > 23 or mi > 59:
            return "timesym.bad_time", named
        return "timesym.time_digits", {**named, "hour": h, "minute": mi}
    if re.fullmatch(r"[0-9]{4}-[0-9]{1,2}(-[0-9]{1,2})?|[0-9]{1,2}-[0-9]{1,2}", symbol):
        return "timesym.bad_date", named
    if re.fullmatch(r"[Ll]:.*", symbol):
        return "timesym.bad_lunar", named
    if re.fullmatch(r"[Hh]:?", symbol) or symbol.startswith(("H: ", "h: ")):
        return "timesym.holiday_name_missing", named
    if m := LOOSE_INSTANT_RE.fullmatch(symbol):
        return "timesym.bad_instant", named
    lowered = symbol.casefold()
    if lowered in {"today", "tomorrow", "yesterday", "今天", "明天", "昨天", "后天", "now", "现在"}:
        return "timesym.a_word", named
    return "timesym.unknown", named


def _fail(symbol: str) -> SymbolError:
    code, params = _diagnose(symbol)
    return SymbolError.invalid(symbol, code, **params)


def _guard(symbol: str, build: Callable[[], Resolved]) -> Resolved:
    """Run a resolution step, turning date-range overflow into a SymbolError."""
    try:
        return build()
    except SymbolError:
        raise
    except (OverflowError, ValueError) as exc:
        raise SymbolError.invalid(symbol, "timesym.outside_range", symbol=symbol) from exc


def latest_day(today: date) -> date:
    """The last day a symbol may reach: ten years after ``today`` (02-29 -> 02-28)."""
    try:
        return today.replace(year=today.year + MAX_YEARS_AHEAD)
    except ValueError:
        return today.replace(year=today.year + MAX_YEARS_AHEAD, day=28)


def now_problem(day: date) -> str | None:
    """Why ``day`` cannot be a pretended today (``--now``), or None when it can."""
    if EARLIEST_DAY <= day <= LATEST_NOW_DAY:
        return None
    span = f"{EARLIEST_DAY.isoformat()} to {LATEST_NOW_DAY.isoformat()}"
    return f"{day.isoformat()} is outside the dates Richeng can pretend it is ({span})"


def _plausible(resolved: Resolved, ctx: TimeContext, bounded: bool = True) -> Resolved:
    """Refuse a day far outside any plausible calendar use (before 1900, or more than ten
    years after today): a year typo like 1500 or 2099 is a bad symbol, never a write.

    ``bounded=False`` is for reading (listing, export): the store may hold any date a
    calendar file brought (libical's test data has events in 1864), and showing them is
    harmless; only dates ``datetime`` cannot hold are refused, by ``_guard``."""
    if not bounded or resolved.start is None or resolved.end is None:
        return resolved
    first = resolved.start.astimezone(ctx.tz).date()
    last = max(first, (resolved.end - timedelta(microseconds=1)).astimezone(ctx.tz).date())
    limit = latest_day(ctx.today)
    if first < EARLIEST_DAY or last > limit:
        raise SymbolError.invalid(
            resolved.symbol,
            "timesym.outside_accepted",
            symbol=resolved.symbol,
            day=first.isoformat() if first < EARLIEST_DAY else last.isoformat(),
            earliest=EARLIEST_DAY.isoformat(),
            latest=limit.isoformat(),
            years=MAX_YEARS_AHEAD,
        )
    return resolved


# --- public API --------------------------------------------------------------


def resolve_time(text: str) -> time:
    """Parse ``HH:MM`` (00:00..23:59); anything else is a SymbolError."""
    symbol = text.strip() if isinstance(text, str) else repr(text)
    m = TIME_RE.fullmatch(symbol)
    if m is None:
        raise _fail(symbol)
    return time(int(m.group("h")), int(m.group("m")))


def resolve(symbol: str, ctx: TimeContext, *, bounded: bool = True) -> Resolved:
    """Resolve any symbol: date kinds, a bare time, or a date+time instant. ``bounded``:
    refuse days outside the plausible range (see ``_plausible``)."""
    if not isinstance(symbol, str):
        raise SymbolError.invalid(repr(symbol), "timesym.not_a_string", type=type(symbol).__name__)
    raw = symbol.strip()
    s = normalize_case(raw)
    if TIME_RE.fullmatch(s):
        return Resolved(s, "time", None, None, (), time=resolve_time(s))
    if parsed := parse_date_form(s):
        form, m = parsed
        return _plausible(_guard(s, lambda: _resolve_date_form(s, form, m, ctx)), ctx, bounded)
    if im := INSTANT_RE.fullmatch(s):
        day_symbol = im.group("date")
        parsed = parse_date_form(day_symbol)
        assert parsed is not None and parsed[0] in SINGLE_DAY_FORMS
        t = resolve_time(im.group("time"))

        def build() -> Resolved:
            day = _resolve_date_form(day_symbol, parsed[0], parsed[1], ctx)
            at = local_datetime(day.candidates[0], t, ctx.tz)
            return Resolved(s, "instant", at, at, (), time=t)

        try:
            return _plausible(_guard(s, build), ctx, bounded)
        except SymbolError as exc:
            raise exc.renamed(s) from exc
    raise _fail(raw)


def resolve_date(symbol: str, ctx: TimeContext) -> Resolved:
    """Resolve a symbol that must denote days (day, days, month)."""
    resolved = resolve(symbol, ctx)
    if resolved.kind not in DATE_KINDS:
        raise SymbolError.invalid(resolved.symbol, "timesym.needs_date", symbol=resolved.symbol, kind=resolved.kind)
    return resolved


def _bound(expr: str, ctx: TimeContext, which: str, bounded: bool) -> Resolved:
    resolved = resolve(expr, ctx, bounded=bounded)
    if resolved.kind == "time":
        raise SymbolError.invalid(resolved.symbol, "timesym.bare_time_in_range", symbol=resolved.symbol, which=which)
    return resolved


def resolve_range(start_expr: str, end_expr: str, ctx: TimeContext, *, bounded: bool = True) -> tuple[datetime, datetime]:
    """``[start of start_expr, end of end_expr)``; must be non-empty and at most 366 days.
    ``bounded=False`` (listing and export) takes any day ``datetime`` can hold.

    Using the *end* of the end symbol is what makes ``D+1``..``D+1`` mean all
    of tomorrow and ``M+1``..``M+1`` all of next month. An instant's end is the
    instant itself, so ``D+1T09:00``..``D+1T10:00`` is that hour.
    """
    first = _bound(start_expr, ctx, "start", bounded)
    last = _bound(end_expr, ctx, "end", bounded)
    assert first.start is not None and last.end is not None
    start, end = first.start, last.end
    pair = f"{first.symbol}..{last.symbol}"
    # Compare instants, not wall clocks: same-tzinfo comparison in Python ignores offsets.
    if end.astimezone(UTC) <= start.astimezone(UTC):
        raise SymbolError(pair, "timesym.range_reversed", pair=pair, start=start.isoformat(), end=end.isoformat())
    wall_span = end.replace(tzinfo=None) - start.replace(tzinfo=None)
    if wall_span > timedelta(days=MAX_RANGE_DAYS):
        raise SymbolError(pair, "timesym.range_too_long", pair=pair, days=wall_span.days, max_days=MAX_RANGE_DAYS)
    return start, end


def day_interval(d: date, ctx: TimeContext) -> tuple[datetime, datetime]:
    """Whole local day ``d`` as ``[start, end)``, for callers that already hold a date."""
    return day_start(d, ctx.tz), day_end(d, ctx.tz)
