"""Holiday periods (调休 included), data coverage, and lunar dates, on fixed clocks."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from agent.timesym import holiday, lunar
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve, resolve_range
from tests.support.clock import SHANGHAI


def ctx_at(y: int, m: int, d: int, country: str = "CN", tz: str = "Asia/Shanghai") -> TimeContext:
    zone = ZoneInfo(tz)
    return TimeContext(now=datetime(y, m, d, 9, 0, tzinfo=zone), tz=zone, holiday_country=country)


def span(first: date, last: date) -> tuple[date, ...]:
    return tuple(first + timedelta(days=i) for i in range((last - first).days + 1))


# --- holiday periods ------------------------------------------------------------


def test_national_day_2026_includes_swapped_days_off() -> None:
    r = resolve("H:国庆", ctx_at(2026, 9, 2))
    assert r.kind == "days"
    assert r.candidates == span(date(2026, 10, 1), date(2026, 10, 7))
    assert r.start == datetime(2026, 10, 1, tzinfo=SHANGHAI)
    assert r.end == datetime(2026, 10, 8, tzinfo=SHANGHAI)
    assert r.to_json()["candidates"][0] == "2026-10-01"


@pytest.mark.parametrize("alias", ["国庆", "国庆节", "十一", "National Day", "national  day", "GOLDEN WEEK"])
def test_national_day_aliases(alias: str) -> None:
    assert resolve(f"H:{alias}", ctx_at(2026, 9, 2)).candidates == span(date(2026, 10, 1), date(2026, 10, 7))


@pytest.mark.parametrize(
    ("alias", "first", "last"),
    [
        ("春节", date(2026, 2, 15), date(2026, 2, 23)),
        ("Spring Festival", date(2026, 2, 15), date(2026, 2, 23)),
        ("Chinese New Year", date(2026, 2, 15), date(2026, 2, 23)),
        ("除夕", date(2026, 2, 15), date(2026, 2, 23)),
        ("清明", date(2026, 4, 4), date(2026, 4, 6)),
        ("五一", date(2026, 5, 1), date(2026, 5, 5)),
        ("劳动节", date(2026, 5, 1), date(2026, 5, 5)),
        ("端午", date(2026, 6, 19), date(2026, 6, 21)),
        ("中秋", date(2026, 9, 25), date(2026, 9, 27)),
        ("Mid-Autumn Festival", date(2026, 9, 25), date(2026, 9, 27)),
    ],
)
def test_2026_periods(alias: str, first: date, last: date) -> None:
    assert resolve(f"H:{alias}", ctx_at(2026, 1, 5)).candidates == span(first, last)


def test_new_year_2026_period() -> None:
    # 2026-01-01 Thu, 01-02 swapped day off, 01-03 Sat; Sunday 01-04 is a workday.
    assert resolve("H:元旦", ctx_at(2025, 12, 20)).candidates == span(date(2026, 1, 1), date(2026, 1, 3))


def test_inside_a_period_returns_that_period() -> None:
    assert resolve("H:国庆", ctx_at(2026, 10, 7)).candidates == span(date(2026, 10, 1), date(2026, 10, 7))
    assert resolve("h:国庆", ctx_at(2026, 10, 4)).candidates[0] == date(2026, 10, 1)


def test_past_period_moves_to_next_year_when_covered() -> None:
    # 2025: Oct 1-8 (National Day + Mid-Autumn Oct 6 + swaps).
    r = resolve("H:国庆", ctx_at(2024, 11, 30))
    assert r.candidates == span(date(2025, 10, 1), date(2025, 10, 8))
    r = resolve("H:中秋", ctx_at(2025, 9, 20))
    assert r.candidates == span(date(2025, 10, 1), date(2025, 10, 8))  # 2025 中秋 merged into 国庆


def test_uncovered_year_gives_statutory_days_with_a_note_not_a_guessed_period() -> None:
    """Issue 15: an unpublished year resolves to the law's days and says the 调休 is unknown
    (tests/agent/timesym/test_holiday_unannounced.py has the rest)."""
    r = resolve("H:国庆", ctx_at(2026, 11, 30))
    assert r.candidates == span(date(2027, 10, 1), date(2027, 10, 3))
    assert r.note and "2027" in r.note and "调休" in r.note
    assert resolve("H:国庆", ctx_at(2026, 9, 2)).note is None


def test_unknown_holiday_lists_names() -> None:
    with pytest.raises(SymbolError) as info:
        resolve("H:不存在的节日", ctx_at(2026, 9, 2))
    assert "国庆节" in info.value.message and "Valid date symbols" in info.value.message
    assert "调休" not in info.value.message.split("Chinese aliases")[0]


def test_holiday_range_end() -> None:
    start, end = resolve_range("D+0", "H:国庆", ctx_at(2026, 9, 2))
    assert (start.date(), end.date()) == (date(2026, 9, 2), date(2026, 10, 8))


def test_other_countries_use_package_names() -> None:
    r = resolve("H:Thanksgiving Day", ctx_at(2026, 9, 2, country="US", tz="America/New_York"))
    assert r.candidates == (date(2026, 11, 26),)
    # Memorial Day 2026 is Monday 05-25: the run of days off is Sat-Mon.
    r = resolve("H:Memorial Day", ctx_at(2026, 5, 1, country="US", tz="America/New_York"))
    assert r.candidates == span(date(2026, 5, 23), date(2026, 5, 25))
    # Christmas 2026 is a Friday: today (Saturday) is inside Fri-Sun.
    r = resolve("H:Christmas Day", ctx_at(2026, 12, 26, country="US", tz="America/New_York"))
    assert r.candidates == span(date(2026, 12, 25), date(2026, 12, 27))
    # Christmas 2027 is a Saturday, observed Friday 12-24.
    r = resolve("H:christmas day", ctx_at(2026, 12, 28, country="US", tz="America/New_York"))
    assert r.candidates == span(date(2027, 12, 24), date(2027, 12, 26))


def test_unknown_country_is_symbol_error() -> None:
    with pytest.raises(SymbolError):
        resolve("H:国庆", ctx_at(2026, 9, 2, country="ZZ"))


# --- UI helpers -------------------------------------------------------------------


def test_adjusted_workdays() -> None:
    assert holiday.adjusted_workdays("CN", 2026) == {
        date(2026, 1, 4),
        date(2026, 2, 14),
        date(2026, 2, 28),
        date(2026, 5, 9),
        date(2026, 9, 20),
        date(2026, 10, 10),
    }
    assert all(d.weekday() >= 5 for d in holiday.adjusted_workdays("CN", 2025))
    assert holiday.adjusted_workdays("US", 2026) == set()


def test_holidays_in_is_end_exclusive() -> None:
    got = holiday.holidays_in("CN", date(2026, 10, 1), date(2026, 10, 7))
    assert sorted(got) == [date(2026, 10, d) for d in (1, 2, 3, 5, 6)]
    assert got[date(2026, 10, 1)] == "国庆节"
    assert "调休" in got[date(2026, 10, 6)]
    english = holiday.holidays_in("CN", date(2026, 10, 1), date(2026, 10, 2), language="en_US")
    assert english == {date(2026, 10, 1): "National Day"}


def test_day_off_rule() -> None:
    assert holiday.is_day_off("CN", date(2026, 10, 4))  # Sunday inside the period
    assert not holiday.is_day_off("CN", date(2026, 9, 20))  # Sunday, adjusted workday
    assert not holiday.is_day_off("CN", date(2026, 10, 8))
    assert holiday.is_day_off("CN", date(2026, 10, 6))  # weekday swapped day off


def test_coverage_detection() -> None:
    cn = holiday.covered_years("CN")
    assert cn.start == 2001 and 2026 in cn and 2027 not in cn
    assert holiday.is_covered("cn", 2026) and not holiday.is_covered("CN", 2000)
    assert 2040 in holiday.covered_years("US")


# --- lunar -----------------------------------------------------------------------


def test_mid_autumn_lunar() -> None:
    r = resolve("L:08-15", ctx_at(2026, 9, 1))
    assert (r.kind, r.candidates) == ("day", (date(2026, 9, 25),))
    assert resolve("L:08-15", ctx_at(2026, 9, 25)).candidates == (date(2026, 9, 25),)
    assert resolve("L:08-15", ctx_at(2026, 9, 26)).candidates == (date(2027, 9, 15),)


def test_lunar_new_year_from_late_2026() -> None:
    assert resolve("L:01-01", ctx_at(2026, 11, 30)).candidates == (date(2027, 2, 6),)


def test_lunar_year_boundary_month_12() -> None:
    # 腊月初八 of lunar 2026 falls in January 2027.
    assert resolve("L:12-08", ctx_at(2026, 11, 30)).candidates == (date(2027, 1, 15),)


def test_lunar_missing_day_30_skips_to_a_year_that_has_it() -> None:
    # Lunar 2026 and 2027 month 12 have 29 days; 2028 month 12 too; 2029 has 30.
    got = resolve("L:12-30", ctx_at(2026, 9, 2)).candidates[0]
    assert lunar.lunar_month_day(got) == (12, 30, False)
    assert got == date(2030, 2, 2)


def test_lunar_is_non_leap_month() -> None:
    # 2025 has a leap 6th month (闰六月); L:06-01 means the regular 六月.
    got = resolve("L:06-01", ctx_at(2025, 6, 1)).candidates[0]
    assert got == date(2025, 6, 25)
    assert lunar.lunar_month_day(got) == (6, 1, False)
    assert lunar.lunar_month_day(date(2025, 7, 25)) == (6, 1, True)


def test_lunar_instant_and_errors() -> None:
    r = resolve("L:08-15T19:00", ctx_at(2026, 9, 1))
    assert r.start == datetime(2026, 9, 25, 19, 0, tzinfo=SHANGHAI)
    for bad in ("L:13-01", "L:00-10", "L:01-31", "L:1-1"):
        with pytest.raises(SymbolError):
            resolve(bad, ctx_at(2026, 9, 1))


def test_lunar_labels() -> None:
    assert lunar.lunar_label(date(2026, 9, 25)) == "十五"
    assert lunar.lunar_label(date(2027, 2, 6)) == "正月"
    assert lunar.lunar_full_label(date(2026, 9, 25)) == "八月十五"
    assert lunar.lunar_full_label(date(2025, 7, 25)) == "闰六月初一"
