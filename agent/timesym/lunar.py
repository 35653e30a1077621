"""Chinese lunar (农历) dates for ``L:MM-DD`` and for calendar display, and the 24 solar
terms (节气: 立春 ... 冬至) that the Chinese views show in place of a lunar day.

Birthdays and festivals are often kept by lunar date (e.g. 中秋 = L:08-15),
which moves against the Gregorian calendar every year. ``lunar-python`` does
the astronomy; this module only adds the search rules the grammar promises:

* ``L:MM-DD`` means the *non-leap* month MM (a 闰月 repeats the month number
  but is a different month; people mean the regular one);
* the next such day, today included;
* a month has 29 or 30 days depending on the year, so ``L:MM-30`` skips to the
  next year whose month MM has a 30th day. Between 1900 and 2200 the longest
  wait is 9 years; we search :data:`MAX_SEARCH_YEARS` and then report an error
  instead of silently picking day 29.
"""

from __future__ import annotations

from datetime import date
from typing import Final

from lunar_python import Lunar, LunarMonth, Solar

from agent.timesym.grammar import SymbolError

MAX_SEARCH_YEARS: Final = 20
"""Lunar years searched for an existing month-day before giving up."""

_DAY_NAMES: Final = (
    "初一", "初二", "初三", "初四", "初五", "初六", "初七", "初八", "初九", "初十",
    "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八", "十九", "二十",
    "廿一", "廿二", "廿三", "廿四", "廿五", "廿六", "廿七", "廿八", "廿九", "三十",
)  # fmt: skip
_MONTH_NAMES: Final = ("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "冬", "腊")


def _solar_to_date(solar: Solar) -> date:
    return date(solar.getYear(), solar.getMonth(), solar.getDay())


def lunar_year_of(d: date) -> int:
    """The lunar year (starting at 春节) that contains Gregorian date ``d``."""
    return Solar.fromYmd(d.year, d.month, d.day).getLunar().getYear()


def month_length(lunar_year: int, month: int) -> int:
    """Days (29 or 30) in the non-leap lunar ``month`` of ``lunar_year``."""
    return LunarMonth.fromYm(lunar_year, month).getDayCount()


def lunar_to_solar(lunar_year: int, month: int, day: int) -> date | None:
    """Gregorian date of a non-leap lunar month-day, or None if that day does not exist."""
    if not (1 <= month <= 12 and 1 <= day <= 30):
        return None
    if day > month_length(lunar_year, month):
        return None
    return _solar_to_date(Lunar.fromYmd(lunar_year, month, day).getSolar())


def next_lunar_date(month: int, day: int, today: date, symbol: str | None = None) -> date:
    """The first Gregorian date >= ``today`` that is lunar ``month``-``day`` (non-leap).

    Dates from earlier lunar years all precede today's lunar new year, so the
    search starts at today's lunar year.
    """
    symbol = symbol or f"L:{month:02d}-{day:02d}"
    if not (1 <= month <= 12 and 1 <= day <= 30):
        raise SymbolError.invalid(symbol, "timesym.lunar_invalid", symbol=symbol)
    try:
        start = lunar_year_of(today)
        for lunar_year in range(start, start + MAX_SEARCH_YEARS + 1):
            found = lunar_to_solar(lunar_year, month, day)
            if found is not None and found >= today:
                return found
    except Exception as exc:  # lunar-python raises bare Exception/AttributeError off its tables
        raise SymbolError(symbol, "timesym.lunar_out_of_range", symbol=symbol, today=today.isoformat()) from exc
    raise SymbolError(
        symbol, "timesym.lunar_no_day", symbol=symbol, month=month, day=day, years=MAX_SEARCH_YEARS, today=today.isoformat()
    )


def lunar_month_day(d: date) -> tuple[int, int, bool]:
    """(month, day, is_leap_month) of Gregorian ``d`` - for UI display and tests."""
    lunar = Solar.fromYmd(d.year, d.month, d.day).getLunar()
    month = lunar.getMonth()
    return abs(month), lunar.getDay(), month < 0


def lunar_label(d: date) -> str:
    """Short Chinese label for a calendar cell: "八月" on day one, else "十五".

    A month's first day shows the month (闰 prefixed for leap months), as
    printed calendars do, so the user can orient without a full lunar date.
    """
    return _short_label(Solar.fromYmd(d.year, d.month, d.day).getLunar())


def _short_label(lunar: Lunar) -> str:
    month, day = abs(lunar.getMonth()), lunar.getDay()
    if day == 1:
        return ("闰" if lunar.getMonth() < 0 else "") + _MONTH_NAMES[month - 1] + "月"
    return _DAY_NAMES[day - 1]


def solar_term(d: date) -> str:
    """The solar term (节气, "冬至") that begins on ``d``, or "" on the other ~340 days.

    lunar-python places each term at its instant in Beijing time, as Chinese calendars do:
    the 2026 December solstice is 20:50 UTC on the 21st, so 冬至 is 2026-12-22.
    """
    return str(Solar.fromYmd(d.year, d.month, d.day).getLunar().getJieQi() or "")


def day_label(d: date, solar_terms: bool = True, lunar_days: bool = True) -> str:
    """A Chinese cell's grey label: the solar term on its day (when shown), else the lunar day
    (when shown), else "".

    A term takes the lunar day's place rather than sitting beside it: a month cell has room
    for one short word next to the number, and the term is the rarer, more wanted one (as on
    printed calendars). A holiday's name still wins over both (the views decide that).
    """
    if not solar_terms and not lunar_days:
        return ""
    lunar = Solar.fromYmd(d.year, d.month, d.day).getLunar()
    term = str(lunar.getJieQi() or "") if solar_terms else ""
    return term or (_short_label(lunar) if lunar_days else "")


def lunar_full_label(d: date) -> str:
    """Full Chinese lunar date, e.g. "八月十五" or "闰六月初一" (for tooltips)."""
    month, day, leap = lunar_month_day(d)
    return ("闰" if leap else "") + _MONTH_NAMES[month - 1] + "月" + _DAY_NAMES[day - 1]
