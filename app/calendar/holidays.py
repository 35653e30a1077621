"""Holiday and 调休 marks for the days a view shows, looked up once per year.

The ``holidays`` package builds a whole year on first use (tens of milliseconds), so the
marks are kept per (country, language, year) for the life of the app; switching months
or views then costs a dictionary lookup. A country the package does not know gives no
marks rather than an error, because a typo in settings should not break the calendar.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from PySide6.QtCore import QLocale

from agent.timesym.holiday import adjusted_workdays, holidays_in


@dataclass(frozen=True)
class DayMark:
    """What a day cell or column header says about a date besides its events."""

    name: str  # short holiday name, "" when the day is only an adjusted workday
    off: bool  # an official day off (holiday, observed day, swapped rest day)
    workday: bool  # a weekend day that is a working day (调休上班, shown as "班")


def short_name(name: str) -> str:
    """"国庆节（补假）" -> "国庆节", "Day off (substituted from …)" -> "Day off"; first of several."""
    first = name.split(";")[0].strip()
    for bracket in ("（", " ("):
        first = first.split(bracket)[0]
    return first.strip()


@lru_cache(maxsize=32)
def _year_marks(country: str, language: str | None, year: int) -> dict[date, DayMark]:
    try:
        names = holidays_in(country, date(year, 1, 1), date(year + 1, 1, 1), language=language)
        workdays = adjusted_workdays(country, year)
    except Exception:  # unknown country or language: a settings typo must not break the views
        return {}
    marks = {day: DayMark(short_name(name), True, False) for day, name in names.items()}
    for day in workdays:
        marks[day] = DayMark("", False, True)
    return marks


def prefers_chinese(language_setting: object) -> bool:
    """Whether day cells speak Chinese: the setting when given, else the system locale."""
    if language_setting in ("zh", "zh_CN"):
        return True
    if language_setting in ("en",):
        return False
    return QLocale().language() == QLocale.Language.Chinese


class HolidayBook:
    """Marks for one holiday country, in Chinese or English names."""

    def __init__(self, country: str, chinese: bool) -> None:
        self.country = (country or "").upper()
        self.language = None if chinese else "en_US"

    def marks(self, first: date, end: date) -> dict[date, DayMark]:
        """Marks for days in ``[first, end)``."""
        if not self.country or end <= first:
            return {}
        found: dict[date, DayMark] = {}
        for year in range(first.year, (end - timedelta(days=1)).year + 1):
            for day, mark in _year_marks(self.country, self.language, year).items():
                if first <= day < end:
                    found[day] = mark
        return found
