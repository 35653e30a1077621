"""Resolution rules for date/time symbols, DST handling, ranges, errors and docs sync.

Every test uses a fixed clock; nothing depends on the real "now".
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.timesym import grammar
from agent.timesym.context import TimeContext, day_start, local_datetime
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import Resolved, error_json, resolve, resolve_date, resolve_range, resolve_time
from tests.support.clock import NEW_YORK, SHANGHAI

LONDON = ZoneInfo("Europe/London")
DOCS = Path(__file__).resolve().parents[3] / "docs" / "time-symbols.md"


def ctx_at(y: int, m: int, d: int, hh: int = 10, tz: ZoneInfo = SHANGHAI) -> TimeContext:
    return TimeContext(now=datetime(y, m, d, hh, 0, tzinfo=tz), tz=tz)


def elapsed(start: datetime | None, end: datetime | None) -> timedelta:
    """Real elapsed time; plain subtraction within one tzinfo is wall-clock time."""
    assert start is not None and end is not None
    return timedelta(seconds=end.timestamp() - start.timestamp())


def day_of(symbol: str, ctx: TimeContext) -> date:
    r = resolve(symbol, ctx)
    assert r.kind == "day", r
    return r.candidates[0]


# --- D+n ---------------------------------------------------------------------


def test_day_offsets_basic() -> None:
    ctx = ctx_at(2026, 9, 2)
    assert day_of("D+0", ctx) == date(2026, 9, 2)
    assert day_of("D-0", ctx) == date(2026, 9, 2)
    assert day_of("D+1", ctx) == date(2026, 9, 3)
    assert day_of("D-1", ctx) == date(2026, 9, 1)
    assert day_of("D+0030", ctx) == date(2026, 10, 2)


def test_day_offset_crosses_year_and_leap_day() -> None:
    assert day_of("D+1", ctx_at(2026, 12, 31)) == date(2027, 1, 1)
    assert day_of("D-1", ctx_at(2027, 1, 1)) == date(2026, 12, 31)
    assert day_of("D+1", ctx_at(2028, 2, 28)) == date(2028, 2, 29)
    assert day_of("D+1", ctx_at(2028, 2, 29)) == date(2028, 3, 1)
    assert day_of("D+1", ctx_at(2027, 2, 28)) == date(2027, 3, 1)


def test_today_is_taken_in_user_zone_not_now_zone() -> None:
    # 2026-09-02 20:00 UTC is already 09-03 in Shanghai.
    ctx = TimeContext(now=datetime(2026, 9, 2, 20, 0, tzinfo=ZoneInfo("UTC")), tz=SHANGHAI)
    assert ctx.today == date(2026, 9, 3)
    assert day_of("D+0", ctx) == date(2026, 9, 3)


def test_day_interval_is_whole_local_day() -> None:
    r = resolve("D+1", ctx_at(2026, 9, 2))
    assert r.start == datetime(2026, 9, 3, tzinfo=SHANGHAI)
    assert r.end == datetime(2026, 9, 4, tzinfo=SHANGHAI)
    assert r.candidates == (date(2026, 9, 3),)
    assert r.time is None


# --- weekdays and weekends -----------------------------------------------------


def test_next_weekday_includes_today() -> None:
    ctx = ctx_at(2026, 9, 2)  # Wednesday
    assert day_of("W3", ctx) == date(2026, 9, 2)
    assert day_of("W4", ctx) == date(2026, 9, 3)
    assert day_of("W1", ctx) == date(2026, 9, 7)
    assert day_of("W2", ctx) == date(2026, 9, 8)


def test_next_weekday_when_today_is_sunday() -> None:
    ctx = ctx_at(2026, 9, 6)  # Sunday
    assert day_of("W7", ctx) == date(2026, 9, 6)
    assert day_of("W1", ctx) == date(2026, 9, 7)
    assert day_of("W6", ctx) == date(2026, 9, 12)


def test_weekday_in_week() -> None:
    ctx = ctx_at(2026, 9, 2)
    assert day_of("W3+1", ctx) == date(2026, 9, 9)
    assert day_of("W3+0", ctx) == date(2026, 9, 2)
    assert day_of("W1+0", ctx) == date(2026, 8, 31)  # this week's Monday, already past
    assert day_of("W1-1", ctx) == date(2026, 8, 24)
    assert day_of("W7+0", ctx) == date(2026, 9, 6)


def test_week_offsets_on_sunday_and_saturday() -> None:
    sunday = ctx_at(2026, 9, 6)
    assert day_of("W7+0", sunday) == date(2026, 9, 6)
    assert day_of("W1+0", sunday) == date(2026, 8, 31)
    assert day_of("W1+1", sunday) == date(2026, 9, 7)
    saturday = ctx_at(2026, 9, 5)
    assert day_of("W6+0", saturday) == date(2026, 9, 5)
    assert day_of("W7+0", saturday) == date(2026, 9, 6)


def test_weekday_in_week_across_year_end() -> None:
    ctx = ctx_at(2026, 12, 30)  # Wednesday
    assert day_of("W1+1", ctx) == date(2027, 1, 4)
    assert day_of("W5+0", ctx) == date(2027, 1, 1)
    assert day_of("W1+0", ctx) == date(2026, 12, 28)


def test_weekend_symbols() -> None:
    r = resolve("WE", ctx_at(2026, 9, 2))
    assert r.kind == "days"
    assert r.candidates == (date(2026, 9, 5), date(2026, 9, 6))
    assert r.start == datetime(2026, 9, 5, tzinfo=SHANGHAI)
    assert r.end == datetime(2026, 9, 7, tzinfo=SHANGHAI)
    assert resolve("WE+1", ctx_at(2026, 9, 2)).candidates == (date(2026, 9, 12), date(2026, 9, 13))
    assert resolve("WE-1", ctx_at(2026, 9, 2)).candidates == (date(2026, 8, 29), date(2026, 8, 30))


def test_weekend_on_saturday_and_sunday_is_this_weekend() -> None:
    assert resolve("WE", ctx_at(2026, 9, 5)).candidates == (date(2026, 9, 5), date(2026, 9, 6))
    assert resolve("WE", ctx_at(2026, 9, 6)).candidates == (date(2026, 9, 5), date(2026, 9, 6))
    assert resolve("WE+1", ctx_at(2026, 9, 6)).candidates == (date(2026, 9, 12), date(2026, 9, 13))


# --- absolute dates and months -------------------------------------------------


def test_iso_dates() -> None:
    ctx = ctx_at(2026, 9, 2)
    assert day_of("2026-10-01", ctx) == date(2026, 10, 1)
    assert day_of("2028-02-29", ctx) == date(2028, 2, 29)
    assert day_of("2020-01-01", ctx) == date(2020, 1, 1)  # past dates are fine


@pytest.mark.parametrize("bad", ["2026-02-30", "2027-02-29", "2026-04-31", "0000-01-01"])
def test_impossible_iso_dates_raise(bad: str) -> None:
    with pytest.raises(SymbolError) as info:
        resolve(bad, ctx_at(2026, 9, 2))
    assert info.value.symbol == bad


def test_month_day_next_occurrence() -> None:
    ctx = ctx_at(2026, 9, 2)
    assert day_of("09-02", ctx) == date(2026, 9, 2)
    assert day_of("09-01", ctx) == date(2027, 9, 1)
    assert day_of("12-25", ctx) == date(2026, 12, 25)
    assert day_of("01-01", ctx_at(2026, 12, 31)) == date(2027, 1, 1)


def test_month_day_leap_day() -> None:
    assert day_of("02-29", ctx_at(2026, 9, 2)) == date(2028, 2, 29)
    assert day_of("02-29", ctx_at(2028, 2, 29)) == date(2028, 2, 29)
    assert day_of("02-29", ctx_at(2028, 3, 1)) == date(2032, 2, 29)
    with pytest.raises(SymbolError):
        resolve("02-30", ctx_at(2026, 9, 2))


def test_months() -> None:
    ctx = ctx_at(2026, 9, 2)
    r = resolve("M+0", ctx)
    assert r.kind == "month" and r.candidates == ()
    assert (r.start, r.end) == (datetime(2026, 9, 1, tzinfo=SHANGHAI), datetime(2026, 10, 1, tzinfo=SHANGHAI))
    december = ctx_at(2026, 12, 15)
    r = resolve("M+1", december)
    assert (r.start, r.end) == (datetime(2027, 1, 1, tzinfo=SHANGHAI), datetime(2027, 2, 1, tzinfo=SHANGHAI))
    r = resolve("M-12", december)
    assert r.start == datetime(2025, 12, 1, tzinfo=SHANGHAI)
    r = resolve("2026-12", ctx)
    assert (r.start, r.end) == (datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2027, 1, 1, tzinfo=SHANGHAI))
    r = resolve("2028-02", ctx)
    assert (r.end - r.start) == timedelta(days=29)


# --- times and instants ----------------------------------------------------------


def test_times() -> None:
    assert resolve_time("00:00") == time(0, 0)
    assert resolve_time(" 23:59 ") == time(23, 59)
    r = resolve("15:00", ctx_at(2026, 9, 2))
    assert (r.kind, r.start, r.end, r.candidates, r.time) == ("time", None, None, (), time(15, 0))


@pytest.mark.parametrize("bad", ["24:00", "23:60", "9:30", "0930", "12:5", "12:00:00", ""])
def test_bad_times(bad: str) -> None:
    with pytest.raises(SymbolError):
        resolve_time(bad)


def test_instants() -> None:
    ctx = ctx_at(2026, 9, 2)
    r = resolve("D+1T15:00", ctx)
    assert r.kind == "instant"
    assert r.start == r.end == datetime(2026, 9, 3, 15, 0, tzinfo=SHANGHAI)
    assert r.time == time(15, 0) and r.candidates == ()
    assert resolve("2026-09-01T09:30", ctx).start == datetime(2026, 9, 1, 9, 30, tzinfo=SHANGHAI)
    assert resolve("W3+1T08:00", ctx).start == datetime(2026, 9, 9, 8, 0, tzinfo=SHANGHAI)
    assert resolve("12-25T20:00", ctx).start == datetime(2026, 12, 25, 20, 0, tzinfo=SHANGHAI)


@pytest.mark.parametrize("bad", ["M+1T09:00", "WET10:00", "2026-10T09:00", "D+1T24:00", "D+1T9:00", "H:国庆T09:00"])
def test_instants_need_single_day_and_valid_time(bad: str) -> None:
    with pytest.raises(SymbolError):
        resolve(bad, ctx_at(2026, 9, 2))


def test_lowercase_prefixes_and_whitespace_accepted() -> None:
    ctx = ctx_at(2026, 9, 2)
    assert day_of(" d+1 ", ctx) == date(2026, 9, 3)
    assert resolve("we", ctx).candidates == (date(2026, 9, 5), date(2026, 9, 6))
    assert day_of("w3+1", ctx) == date(2026, 9, 9)
    assert resolve("m+1", ctx).start == datetime(2026, 10, 1, tzinfo=SHANGHAI)
    assert resolve("d+1t15:00", ctx).start == datetime(2026, 9, 3, 15, tzinfo=SHANGHAI)
    assert resolve("d+1", ctx).symbol == "D+1"


def test_resolve_date_rejects_times_and_instants() -> None:
    ctx = ctx_at(2026, 9, 2)
    assert resolve_date("WE", ctx).kind == "days"
    for bad in ("15:00", "D+1T15:00"):
        with pytest.raises(SymbolError):
            resolve_date(bad, ctx)


# --- DST ---------------------------------------------------------------------------


def test_spring_forward_gap_moves_forward() -> None:
    dt = local_datetime(date(2026, 3, 8), time(2, 30), NEW_YORK)
    assert dt.replace(tzinfo=None) == datetime(2026, 3, 8, 3, 30)
    assert dt.utcoffset() == timedelta(hours=-4)
    ctx = ctx_at(2026, 3, 7, tz=NEW_YORK)
    assert resolve("D+1T02:30", ctx).start.isoformat() == "2026-03-08T03:30:00-04:00"


def test_fall_back_fold_takes_first_occurrence() -> None:
    dt = local_datetime(date(2026, 11, 1), time(1, 30), NEW_YORK)
    assert dt.isoformat() == "2026-11-01T01:30:00-04:00"
    assert dt.fold == 0


def test_dst_days_are_23_and_25_hours() -> None:
    spring = resolve("2026-03-08", ctx_at(2026, 3, 1, tz=NEW_YORK))
    assert elapsed(spring.start, spring.end) == timedelta(hours=23)
    fall = resolve("2026-11-01", ctx_at(2026, 3, 1, tz=NEW_YORK))
    assert elapsed(fall.start, fall.end) == timedelta(hours=25)
    london_spring = resolve("2026-03-29", ctx_at(2026, 3, 1, tz=LONDON))
    assert elapsed(london_spring.start, london_spring.end) == timedelta(hours=23)
    london_fall = resolve("2026-10-25", ctx_at(2026, 3, 1, tz=LONDON))
    assert elapsed(london_fall.start, london_fall.end) == timedelta(hours=25)
    start, end = resolve_range("2026-03-08", "2026-03-08", ctx_at(2026, 3, 1, tz=NEW_YORK))
    assert elapsed(start, end) == timedelta(hours=23)


def test_london_gap_and_fold() -> None:
    gap = local_datetime(date(2026, 3, 29), time(1, 30), LONDON)
    assert gap.isoformat() == "2026-03-29T02:30:00+01:00"
    fold = local_datetime(date(2026, 10, 25), time(1, 30), LONDON)
    assert fold.isoformat() == "2026-10-25T01:30:00+01:00"


def test_midnight_gap_day_starts_after_gap() -> None:
    # Asia/Beirut springs forward at midnight: 2026-03-29 00:00 does not exist.
    beirut = ZoneInfo("Asia/Beirut")
    start = day_start(date(2026, 3, 29), beirut)
    assert start.replace(tzinfo=None) == datetime(2026, 3, 29, 1, 0)


def test_month_across_dst_is_whole_local_days() -> None:
    r = resolve("2026-03", ctx_at(2026, 1, 1, tz=NEW_YORK))
    assert r.start.isoformat() == "2026-03-01T00:00:00-05:00"
    assert r.end.isoformat() == "2026-04-01T00:00:00-04:00"


# --- ranges --------------------------------------------------------------------------


def test_range_same_day_is_24_hours() -> None:
    start, end = resolve_range("D+1", "D+1", ctx_at(2026, 9, 2))
    assert start == datetime(2026, 9, 3, tzinfo=SHANGHAI)
    assert elapsed(start, end) == timedelta(hours=24)


def test_range_month_and_instants() -> None:
    ctx = ctx_at(2026, 12, 15)
    start, end = resolve_range("M+1", "M+1", ctx)
    assert (start, end) == (datetime(2027, 1, 1, tzinfo=SHANGHAI), datetime(2027, 2, 1, tzinfo=SHANGHAI))
    start, end = resolve_range("D+1T09:00", "D+1T10:30", ctx)
    assert end - start == timedelta(minutes=90)
    start, end = resolve_range("D+0", "M+0", ctx)
    assert (start.day, end.month) == (15, 1)


def test_range_errors() -> None:
    ctx = ctx_at(2026, 9, 2)
    with pytest.raises(SymbolError, match="after the start"):
        resolve_range("D+1", "D+0", ctx)
    with pytest.raises(SymbolError, match="after the start"):
        resolve_range("D+1T10:00", "D+1T10:00", ctx)
    ny = ctx_at(2026, 3, 7, tz=NEW_YORK)  # 02:30 does not exist on 03-08 and becomes 03:30
    with pytest.raises(SymbolError, match="after the start"):
        resolve_range("D+1T02:30", "D+1T03:30", ny)
    with pytest.raises(SymbolError, match="366"):
        resolve_range("D+0", "D+366", ctx)
    with pytest.raises(SymbolError, match="bare time"):
        resolve_range("15:00", "D+1", ctx)
    with pytest.raises(SymbolError) as info:
        resolve_range("D+0", "W9", ctx)
    assert info.value.symbol == "W9"


def test_range_limit_is_366_days_inclusive() -> None:
    ctx = ctx_at(2027, 3, 1)  # span includes 2028-02-29
    start, end = resolve_range("D+0", "D+365", ctx)
    assert (end - start) == timedelta(days=366)
    start, end = resolve_range("M+0", "M+11", ctx)
    assert end.date() == date(2028, 3, 1)


def test_range_limit_uses_wall_clock_across_dst() -> None:
    ctx = ctx_at(2026, 1, 1, tz=NEW_YORK)
    start, end = resolve_range("2026-01-01", "2026-12-31", ctx)
    assert end.replace(tzinfo=None) - start.replace(tzinfo=None) == timedelta(days=365)


# --- errors and JSON -----------------------------------------------------------------


def test_error_message_is_written_for_a_model() -> None:
    with pytest.raises(SymbolError) as info:
        resolve("W8", ctx_at(2026, 9, 2))
    err = info.value
    assert isinstance(err, ValueError)
    assert err.symbol == "W8"
    assert "1..7" in err.message and "Monday=1" in err.message
    assert "Valid date symbols" in err.message and "H:name" in err.message
    assert str(err) == err.message


@pytest.mark.parametrize(
    "bad",
    ["", "   ", "tomorrow", "明天", "D3", "D+", "W", "W0", "W8+1", "M1", "2026-9-1", "13-01", "L:13-01", "H:", "X+1"],
)
def test_invalid_symbols_raise_symbol_error(bad: str) -> None:
    with pytest.raises(SymbolError):
        resolve(bad, ctx_at(2026, 9, 2))


def test_to_json_and_error_json() -> None:
    r = resolve("D+1", ctx_at(2026, 9, 2))
    payload = r.to_json()
    assert payload == {
        "symbol": "D+1",
        "kind": "day",
        "start": "2026-09-03T00:00:00+08:00",
        "end": "2026-09-04T00:00:00+08:00",
        "candidates": ["2026-09-03"],
        "message": None,
    }
    json.dumps(payload)
    timed = resolve("15:00", ctx_at(2026, 9, 2)).to_json()
    assert timed["start"] is None and timed["candidates"] == []
    with pytest.raises(SymbolError) as info:
        resolve("W8", ctx_at(2026, 9, 2))
    err = info.value
    e = error_json("W8", err)
    assert e == {"symbol": "W8", "kind": "error", "start": None, "end": None, "candidates": [], "message": err.message}


def test_context_validation_and_system() -> None:
    with pytest.raises(ValueError):
        TimeContext(now=datetime(2026, 9, 2), tz=SHANGHAI)
    ctx = TimeContext.system(now=datetime(2026, 9, 2, 10, 0), tz="Asia/Shanghai")
    assert ctx.now == datetime(2026, 9, 2, 10, 0, tzinfo=SHANGHAI)
    assert ctx.holiday_country == "CN"
    assert isinstance(TimeContext.system().now, datetime)
    with pytest.raises(ValueError):
        TimeContext.system(tz="Not/AZone")


def test_resolved_is_frozen() -> None:
    r = resolve("D+1", ctx_at(2026, 9, 2))
    assert isinstance(r, Resolved)
    with pytest.raises(AttributeError):
        r.kind = "month"  # type: ignore[misc]


# --- grammar patterns ----------------------------------------------------------------


def test_exported_patterns_are_json_schema_safe() -> None:
    for name in ("DATE_SYMBOL_PATTERN", "TIME_PATTERN", "RANGE_BOUND_PATTERN", "INSTANT_PATTERN", "SYMBOL_PATTERN"):
        pattern = getattr(grammar, name)
        assert pattern.startswith("^") and pattern.endswith("$"), name
        assert "\\" not in pattern, name  # no \d, \s, escapes at all
        assert "(?" not in pattern, name  # no named groups, lookarounds or flags
        re.compile(pattern)


def test_patterns_accept_and_reject() -> None:
    date_ok = ["D+1", "D-12", "W3", "W3+1", "W7-2", "WE", "WE+2", "2026-10-01", "10-01", "M+0", "2026-10", "H:国庆", "L:08-15"]
    for s in date_ok:
        assert re.fullmatch(grammar.DATE_SYMBOL_PATTERN, s), s
        assert re.fullmatch(grammar.RANGE_BOUND_PATTERN, s), s
    for s in ["W8", "D1", "2026-13-01", "2026-1-1", "24:00", "H: x", "L:01-31", "D+1T15:00", "WE+", 'H:a"b']:
        assert not re.fullmatch(grammar.DATE_SYMBOL_PATTERN, s), s
    assert re.fullmatch(grammar.RANGE_BOUND_PATTERN, "D+1T15:00")
    assert not re.fullmatch(grammar.RANGE_BOUND_PATTERN, "15:00")
    assert not re.fullmatch(grammar.RANGE_BOUND_PATTERN, "WET15:00")
    assert re.fullmatch(grammar.TIME_PATTERN, "23:59") and not re.fullmatch(grammar.TIME_PATTERN, "24:00")


def test_grammar_summary_mentions_every_form() -> None:
    for form in ("D+n", "Wd", "Wd+k", "WE", "YYYY-MM-DD", "MM-DD", "M+n", "YYYY-MM", "H:name", "L:MM-DD", "HH:MM"):
        assert form in grammar.GRAMMAR_SUMMARY, form
    assert set(grammar.WEEKDAY_NUMBERS) == set(range(1, 8)) and grammar.WEEKDAY_NUMBERS[1] == "Monday"


# --- docs cannot drift ---------------------------------------------------------------


def _doc_section(title: str) -> list[list[str]]:
    text = DOCS.read_text(encoding="utf-8")
    body = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in body.splitlines():
        if line.startswith("| `"):
            rows.append([cell.strip().strip("`") for cell in line.strip().strip("|").split("|")])
    assert rows, title
    return rows


def _render(r: Resolved) -> str:
    if r.kind == "day":
        return r.candidates[0].isoformat()
    if r.kind == "days":
        return f"{r.candidates[0].isoformat()}..{r.candidates[-1].isoformat()}"
    if r.kind == "month":
        assert r.start is not None
        return r.start.strftime("%Y-%m")
    if r.kind == "instant":
        assert r.start is not None
        return r.start.isoformat(timespec="minutes")
    assert r.time is not None
    return r.time.strftime("%H:%M")


DOC_CTX = TimeContext(now=datetime(2026, 9, 2, 10, 0, tzinfo=SHANGHAI), tz=SHANGHAI, holiday_country="CN")


def test_docs_examples_match_patterns_and_resolve() -> None:
    for symbol, kind, expected in _doc_section("Examples"):
        assert re.fullmatch(grammar.SYMBOL_PATTERN, symbol), symbol
        if kind != "time":
            assert re.fullmatch(grammar.RANGE_BOUND_PATTERN, symbol), symbol
        else:
            assert re.fullmatch(grammar.TIME_PATTERN, symbol), symbol
        r = resolve(symbol, DOC_CTX)
        assert r.kind == kind, symbol
        assert _render(r) == expected, symbol


def test_docs_range_examples_resolve() -> None:
    for start_expr, end_expr, expected in _doc_section("Ranges"):
        start, end = resolve_range(start_expr, end_expr, DOC_CTX)
        rendered = f"[{start.isoformat(timespec='minutes')}, {end.isoformat(timespec='minutes')})"
        assert rendered == expected, (start_expr, end_expr)


def test_docs_invalid_examples_fail() -> None:
    for symbol, _why in _doc_section("Invalid examples"):
        with pytest.raises(SymbolError):
            resolve(symbol, DOC_CTX)


def test_docs_show_the_exported_patterns_verbatim() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for pattern in (grammar.DATE_SYMBOL_PATTERN, grammar.TIME_PATTERN, grammar.RANGE_BOUND_PATTERN):
        assert f"\n{pattern}\n" in text
