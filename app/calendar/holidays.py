"""Holiday and 调休 marks for the days a view shows, looked up once per year.

The ``holidays`` package builds a whole year on first use (tens of milliseconds), so the
marks are kept per (country, language, year) for the life of the app; switching months
or views then costs a dictionary lookup. A country the package does not know gives no
marks rather than an error, because a typo in settings should not break the calendar.

Start-up (issue 14, item 6): importing ``holidays`` costs ~50 ms CPU, a seventh of the app's
start, and the first paint needs this year's marks. So computed years are also kept in the
user cache dir (``holiday-marks.json``), keyed by the data they came from: the installed
package's version file and Richeng's own rules (agent/timesym/holiday.py), each by path,
size and mtime, found without importing either. An update rewrites those files, so a year
is never shown from other data; a cache that cannot be read or does not match is ignored
and rewritten, and where the files are not on disk nothing is cached.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale

CACHE_FORMAT = 1
_disk: dict[str, Any] | None = None  # the cache file's years, read once per process


@dataclass(frozen=True)
class DayMark:
    """What a day cell or column header says about a date besides its events."""

    name: str  # short holiday name, "" when the day is only an adjusted workday
    off: bool  # an official day off (holiday, observed day, swapped rest day)
    workday: bool  # a weekend day that is a working day (调休上班, shown as "班")


def short_name(name: str) -> str:
    """ "国庆节（补假）" -> "国庆节", "Day off (substituted from …)" -> "Day off"; first of several."""
    first = name.split(";")[0].strip()
    for bracket in ("（", " ("):
        first = first.split(bracket)[0]
    return first.strip()


@lru_cache(maxsize=32)
def _year_marks(country: str, language: str | None, year: int) -> dict[date, DayMark]:
    key = f"{country}|{language or ''}|{year}"
    cached = _cached_year(key)
    if cached is not None:
        return cached
    from agent.timesym.holiday import adjusted_workdays, holidays_in

    try:
        names = holidays_in(country, date(year, 1, 1), date(year + 1, 1, 1), language=language)
        workdays = adjusted_workdays(country, year)
    except Exception:  # unknown country or language: a settings typo must not break the views
        return {}
    marks = {day: DayMark(short_name(name), True, False) for day, name in names.items()}
    for day in workdays:
        marks[day] = DayMark("", False, True)
    _store_year(key, marks)
    return marks


def cache_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("richeng", appauthor=False)) / "holiday-marks.json"


def data_identity() -> str | None:
    """Which holiday data marks come from, without importing it (see the module doc)."""
    try:
        import importlib.util

        import agent.timesym

        spec = importlib.util.find_spec("holidays")
        if spec is None or not spec.origin:
            return None
        parts = []
        for path in (Path(spec.origin).with_name("version.py"), Path(agent.timesym.__file__).with_name("holiday.py")):
            stat = path.stat()
            parts.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
        return "|".join(parts)
    except (OSError, ImportError, ValueError, TypeError):
        return None


def _years() -> dict[str, Any]:
    """The cached years that match today's data (empty when none do or the file is bad)."""
    global _disk
    if _disk is None:
        _disk = {}
        identity = data_identity()
        if identity is not None:
            try:
                loaded = json.loads(cache_path().read_text(encoding="utf-8"))
                if loaded.get("format") == CACHE_FORMAT and loaded.get("identity") == identity:
                    _disk = dict(loaded["years"])
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                _disk = {}
    return _disk


def _cached_year(key: str) -> dict[date, DayMark] | None:
    entry = _years().get(key)
    if not isinstance(entry, dict):
        return None
    try:
        return {date.fromisoformat(day): DayMark(str(v[0]), bool(v[1]), bool(v[2])) for day, v in entry.items()}
    except (ValueError, TypeError, IndexError):
        return None


def _store_year(key: str, marks: dict[date, DayMark]) -> None:
    """Add one computed year to the cache file (written whole, then renamed into place)."""
    identity = data_identity()
    if identity is None:
        return
    years = _years()
    years[key] = {day.isoformat(): [m.name, m.off, m.workday] for day, m in marks.items()}
    path = cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(
            json.dumps({"format": CACHE_FORMAT, "identity": identity, "years": years}, ensure_ascii=False), encoding="utf-8"
        )
        os.replace(partial, path)
    except OSError:
        pass  # a cache only: the marks are right either way


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
