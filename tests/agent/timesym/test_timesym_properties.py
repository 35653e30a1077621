"""Property tests: symbols generated from the grammar pieces always give well-formed
intervals, and arbitrary text either resolves or raises SymbolError - nothing else."""

from __future__ import annotations

import contextlib
import json
import re
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.timesym import grammar
from agent.timesym.context import TimeContext, day_start
from agent.timesym.grammar import SymbolError
from agent.timesym.holiday import CN_ALIASES
from agent.timesym.resolve import Resolved, resolve, resolve_range

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ZONES = [
    "Asia/Shanghai",
    "America/New_York",
    "Europe/London",
    "Australia/Lord_Howe",  # 30-minute DST shift
    "Asia/Beirut",  # DST at midnight: some days start at 01:00
    "America/Santiago",  # DST at midnight in the southern hemisphere
    "UTC",
]


@st.composite
def contexts(draw: st.DrawFn, min_year: int = 2000, max_year: int = 2090) -> TimeContext:
    tz = ZoneInfo(draw(st.sampled_from(ZONES)))
    naive = draw(st.datetimes(min_value=datetime(min_year, 1, 1), max_value=datetime(max_year, 12, 31, 23, 59)))
    return TimeContext(now=naive.replace(tzinfo=UTC).astimezone(tz), tz=tz)


def _count(max_value: int) -> st.SearchStrategy[str]:
    return st.integers(0, max_value).map(str)


sign = st.sampled_from(["+", "-"])
weekday = st.integers(1, 7).map(str)
# Fixed 4-digit years away from datetime's edges so offsets stay representable.
iso_dates = st.dates(min_value=date(1000, 1, 1), max_value=date(9000, 12, 31))

single_day_symbols = st.one_of(
    st.tuples(sign, _count(9999)).map(lambda t: f"D{t[0]}{t[1]}"),
    weekday.map(lambda d: f"W{d}"),
    st.tuples(weekday, sign, _count(999)).map(lambda t: f"W{t[0]}{t[1]}{t[2]}"),
    iso_dates.map(lambda d: d.isoformat()),
    st.dates(min_value=date(2028, 1, 1), max_value=date(2028, 12, 31)).map(lambda d: d.strftime("%m-%d")),
    st.tuples(st.integers(1, 12), st.integers(1, 30)).map(lambda t: f"L:{t[0]:02d}-{t[1]:02d}"),
)
multi_day_symbols = st.one_of(
    st.just("WE"),
    st.tuples(sign, _count(999)).map(lambda t: f"WE{t[0]}{t[1]}"),
    st.tuples(sign, _count(999)).map(lambda t: f"M{t[0]}{t[1]}"),
    st.tuples(st.integers(1000, 9000), st.integers(1, 12)).map(lambda t: f"{t[0]:04d}-{t[1]:02d}"),
)
times = st.tuples(st.integers(0, 23), st.integers(0, 59)).map(lambda t: f"{t[0]:02d}:{t[1]:02d}")
instants = st.tuples(single_day_symbols, times).map(lambda t: f"{t[0]}T{t[1]}")
date_symbols = st.one_of(single_day_symbols, multi_day_symbols)


def _utc(dt: datetime | None) -> datetime:
    assert dt is not None and dt.tzinfo is not None
    return dt.astimezone(UTC)


def check_well_formed(r: Resolved, ctx: TimeContext) -> None:
    json.dumps(r.to_json())
    if r.kind == "time":
        assert r.start is None and r.end is None and r.time is not None and r.candidates == ()
        return
    assert r.start is not None and r.end is not None
    assert r.start.utcoffset() is not None and r.start.tzinfo == ctx.tz and r.end.tzinfo == ctx.tz
    if r.kind == "instant":
        assert r.start == r.end and r.time is not None and r.candidates == ()
        return
    assert _utc(r.start) < _utc(r.end)
    # Whole local days: both bounds are day starts under the DST rule.
    assert r.start == day_start(r.start.date(), ctx.tz)
    assert r.end == day_start(r.end.date(), ctx.tz)
    if r.kind == "month":
        assert r.candidates == () and r.start.day == 1 and r.end.day == 1
        assert (r.end.year * 12 + r.end.month) - (r.start.year * 12 + r.start.month) == 1
        return
    assert r.candidates, r
    assert r.candidates[0] == r.start.date()
    assert r.end == day_start(r.candidates[-1] + timedelta(days=1), ctx.tz)
    for prev, nxt in pairwise(r.candidates):
        assert nxt - prev == timedelta(days=1)
    for d in r.candidates:
        assert _utc(r.start) <= _utc(day_start(d, ctx.tz)) < _utc(r.end)
    if r.kind == "day":
        assert len(r.candidates) == 1
    if r.symbol.startswith("WE"):
        assert [d.weekday() for d in r.candidates] == [5, 6]


def resolve_plausible(symbol: str, ctx: TimeContext) -> Resolved | None:
    """Days before 1900 or over ten years after today are refused (issue 10); a generated
    symbol may land there and must then fail with exactly that explanation."""
    try:
        return resolve(symbol, ctx)
    except SymbolError as err:
        assert "outside the dates Richeng accepts" in err.message, err.message
        return None


@FAST
@given(symbol=date_symbols, ctx=contexts())
def test_generated_date_symbols_resolve_to_whole_days(symbol: str, ctx: TimeContext) -> None:
    assert re.fullmatch(grammar.DATE_SYMBOL_PATTERN, symbol)
    assert re.fullmatch(grammar.RANGE_BOUND_PATTERN, symbol)
    r = resolve_plausible(symbol, ctx)
    if r is None:
        return
    assert r.kind in ("day", "days", "month")
    check_well_formed(r, ctx)


@FAST
@given(symbol=st.one_of(instants, times), ctx=contexts())
def test_generated_times_and_instants(symbol: str, ctx: TimeContext) -> None:
    assert re.fullmatch(grammar.SYMBOL_PATTERN, symbol)
    r = resolve_plausible(symbol, ctx)
    if r is None:
        return
    assert r.kind == ("instant" if "T" in symbol else "time")
    check_well_formed(r, ctx)
    if r.kind == "instant":
        assert r.start is not None and r.time is not None
        # Same wall time unless it fell into a gap, in which case it moved forward.
        wall = r.start.replace(tzinfo=None)
        asked = datetime.combine(wall.date(), r.time)
        assert wall >= asked and wall - asked <= timedelta(hours=2)


@FAST
@given(alias=st.sampled_from(sorted(CN_ALIASES)), ctx=contexts(min_year=2008, max_year=2024))
def test_holiday_aliases_resolve_in_covered_years(alias: str, ctx: TimeContext) -> None:
    r = resolve(f"H:{alias}", ctx)
    assert r.kind == "days"
    check_well_formed(r, ctx)
    assert r.candidates[-1] >= ctx.today
    assert len(r.candidates) <= 12


@FAST
@given(start=date_symbols, end=date_symbols, ctx=contexts())
def test_ranges_are_ordered_and_bounded_or_error(start: str, end: str, ctx: TimeContext) -> None:
    try:
        lo, hi = resolve_range(start, end, ctx)
    except SymbolError as err:
        assert err.message
        return
    assert _utc(lo) < _utc(hi)
    assert hi.replace(tzinfo=None) - lo.replace(tzinfo=None) <= timedelta(days=366)


NEAR_MISS_ALPHABET = "DWEMHLTdwemhlt+-:0123456789 国庆"
noise = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=NEAR_MISS_ALPHABET, max_size=12),
    st.tuples(date_symbols, st.text(alphabet=NEAR_MISS_ALPHABET, max_size=3)).map("".join),
)


@FAST
@given(text=noise, ctx=contexts())
def test_arbitrary_text_resolves_or_raises_symbol_error(text: str, ctx: TimeContext) -> None:
    try:
        r = resolve(text, ctx)
    except SymbolError as err:
        assert isinstance(err, ValueError) and err.message and isinstance(err.symbol, str)
        assert "Valid date symbols" in err.message or err.symbol.startswith(("H:", "L:")) or "range" in err.message
        return
    check_well_formed(r, ctx)


@FAST
@given(text=noise)
def test_exported_pattern_agrees_with_parsers(text: str) -> None:
    """The JSON-schema pattern and the resolver's parsers accept exactly the same strings."""
    by_pattern = re.fullmatch(grammar.SYMBOL_PATTERN, text) is not None
    by_parsers = (
        grammar.parse_date_form(text) is not None
        or grammar.TIME_RE.fullmatch(text) is not None
        or grammar.INSTANT_RE.fullmatch(text) is not None
    )
    assert by_pattern == by_parsers


@FAST
@given(start=st.one_of(date_symbols, instants, noise), end=st.one_of(date_symbols, instants, noise), ctx=contexts())
def test_resolve_range_never_raises_anything_else(start: str, end: str, ctx: TimeContext) -> None:
    with contextlib.suppress(SymbolError):  # the one error it may raise; anything else fails
        resolve_range(start, end, ctx)
