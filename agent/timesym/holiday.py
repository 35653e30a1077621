"""Official holiday periods (``H:name``) from the ``holidays`` package.

A holiday period is the maximal run of consecutive days off that contains the
named holiday's days. A day is off when it is a public holiday / day off in
the package data, or a weekend day that is not an adjusted workday. For China
this captures 调休: in 2026 National Day (Oct 1-3), its observed day (Oct 5),
the swapped days off (Oct 6-7, "休息日（由 … 调休）") and the Sunday in
between form 10-01..10-07, while Sunday 09-20 and Saturday 10-10 are
workdays. ``HolidayBase.is_working_day`` implements exactly this day-off test
(weekend days consult ``weekend_workdays``, other days consult the holiday
set), so we use it instead of re-deriving the rule.

Where 调休 data comes from: ``holidays.countries.china.ChinaStaticHolidays``
lists, per year, ``special_public_holidays`` tuples ``(to_month, to_day,
from_month, from_day[, from_year])`` - a day off moved from a weekend that
becomes a workday. ``StaticHolidays.__init__`` and ``_add_special_holidays``
collect those weekend dates into the instance's ``weekend_workdays``.

Coverage: for countries whose year plans are decreed annually (China), a year
without a ``special_public_holidays`` entry has not been published in the
installed package; the package would still compute the fixed-date holidays
for it, but without the swaps, which would be a guess. We therefore refuse
such years for the *period* (:func:`covered_years`). Other countries are rule-based and
covered over the entity's ``start_year..end_year``.

A year whose decree is not out yet (asking for 元旦 2027 in November 2026) is not refused:
the days fixed by law (元旦 01-01, 劳动节 05-01..02, 国庆 10-01..03) or by the lunar
calendar (除夕 and 春节 初一..初三, 端午, 中秋) are known, only the swaps are not. Those
statutory days are returned with a note saying the 调休 is not announced, so the caller can
say so instead of presenting a guess as the holiday period (:func:`holiday_period_noted`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Final

import holidays
from holidays.holiday_base import HolidayBase

from agent.timesym.grammar import SymbolError

STRICT_SUBSTITUTION_COUNTRIES: Final = frozenset({"CN"})
"""Countries whose holiday years are only trusted where the package has the decree."""

LOOKAHEAD_YEARS: Final = 3
"""How far past this year ``H:`` searches for a name that skips years."""

# Alias -> names as the package spells them in zh_CN. Keys are compared
# case-folded with spaces collapsed, so "national day" and "National  Day" match.
CN_ALIASES: Final[dict[str, tuple[str, ...]]] = {
    **dict.fromkeys(("元旦", "元旦节", "新年", "new year", "new year's day", "new years day"), ("元旦",)),
    **dict.fromkeys(
        ("春节", "过年", "农历新年", "spring festival", "chinese new year", "lunar new year", "cny"),
        ("春节", "农历除夕"),
    ),
    # 除夕 was a day off only in 2008-2013 and since 2025; in other years it is
    # still inside (or adjacent to) the Spring Festival period, which is what people mean.
    **dict.fromkeys(("除夕", "农历除夕", "chinese new year's eve"), ("农历除夕", "春节")),
    **dict.fromkeys(
        ("清明", "清明节", "qingming", "qingming festival", "tomb-sweeping day", "tomb sweeping day"),
        ("清明节",),
    ),
    **dict.fromkeys(
        ("劳动节", "五一", "五一劳动节", "国际劳动节", "labor day", "labour day", "may day"),
        ("劳动节",),
    ),
    **dict.fromkeys(
        ("端午", "端午节", "dragon boat festival", "dragon boat", "duanwu"),
        ("端午节",),
    ),
    **dict.fromkeys(
        ("中秋", "中秋节", "mid-autumn festival", "mid-autumn", "mid autumn festival", "mid autumn", "moon festival"),
        ("中秋节",),
    ),
    **dict.fromkeys(
        ("国庆", "国庆节", "十一", "national day", "golden week"),
        ("国庆节",),
    ),
}
COUNTRY_ALIASES: Final[dict[str, dict[str, tuple[str, ...]]]] = {"CN": CN_ALIASES}

_LOCK = threading.RLock()  # HolidayBase populates years lazily, i.e. mutates on read


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


NO_COUNTRY: Final = frozenset({"", "NONE", "-"})
"""What a profile with no public-holiday country passes (the setting is null)."""


@lru_cache(maxsize=64)
def _entity_class(country: str) -> type[HolidayBase]:
    if country.upper() in NO_COUNTRY:
        raise SymbolError(f"H:{country}", "timesym.no_holiday_country")
    try:
        return type(holidays.country_holidays(country, years=()))
    except NotImplementedError as exc:
        raise SymbolError(f"H:{country}", "timesym.holiday_country_unsupported", country=country) from exc


@lru_cache(maxsize=64)
def _calendar(country: str, language: str | None) -> HolidayBase:
    return holidays.country_holidays(country, language=language)


def _languages(country: str) -> tuple[str | None, ...]:
    """Languages whose names ``H:`` matches: the entity default, then English."""
    cls = _entity_class(country)
    langs: list[str | None] = [cls.default_language]
    if "en_US" in cls.supported_languages and cls.default_language != "en_US":
        langs.append("en_US")
    return tuple(langs)


@lru_cache(maxsize=64)
def covered_years(country: str) -> range:
    """Years whose holiday data can be trusted for period computation."""
    cls = _entity_class(country)
    if country.upper() in STRICT_SUBSTITUTION_COUNTRIES:
        specials = getattr(_calendar(country, cls.default_language), "special_public_holidays", {}) or {}
        years = [y for y, entries in specials.items() if _has_substitution(entries)]
        if years:
            return range(min(years), max(years) + 1)
        return range(0)
    return range(cls.start_year, cls.end_year + 1)


def _has_substitution(entries: object) -> bool:
    items = entries if isinstance(entries, tuple) and entries and isinstance(entries[0], tuple) else (entries,)
    return any(isinstance(item, tuple) and len(item) >= 4 for item in items)


def is_covered(country: str, year: int) -> bool:
    """True if ``year`` has official (or rule-based) data for ``country``."""
    return year in covered_years(country.upper())


def _require_covered(country: str, year: int, symbol: str) -> None:
    span = covered_years(country)
    if year in span:
        return
    known = f"{span.start}-{span.stop - 1}" if span else "none"
    raise SymbolError(symbol, "timesym.holiday_year_missing", symbol=symbol, country=country, year=year, known=known)


def is_day_off(country: str, d: date) -> bool:
    """Holiday, swapped day off, or a weekend day that is not an adjusted workday."""
    cal = _calendar(country, _entity_class(country).default_language)
    with _LOCK:
        return not cal.is_working_day(d)


def adjusted_workdays(country: str, year: int) -> set[date]:
    """Weekend days that are working days in ``year`` (调休上班); empty if none known."""
    country = country.upper()
    cal = _calendar(country, _entity_class(country).default_language)
    with _LOCK:
        _ = date(year, 1, 1) in cal  # populate the year (and its cross-year swaps)
        return {d for d in cal.weekend_workdays if d.year == year}


def holidays_in(country: str, start: date, end: date, language: str | None = None) -> dict[date, str]:
    """Holidays and swapped days off in ``[start, end)`` (end exclusive), by date.

    Names are in ``language`` or the country's default language (Chinese for CN).
    """
    country = country.upper()
    cal = _calendar(country, language or _entity_class(country).default_language)
    with _LOCK:
        for year in range(start.year, end.year + 1):
            _ = date(year, 1, 1) in cal
        return {d: cal[d] for d in sorted(cal) if start <= d < end}


def _targets(country: str, name: str) -> tuple[str, ...]:
    """Holiday names (package spelling, case-folded) that ``name`` refers to."""
    key = _key(name)
    alias = COUNTRY_ALIASES.get(country, {}).get(key)
    return tuple(_key(n) for n in alias) if alias else (key,)


def _matches(holiday_name: str, targets: tuple[str, ...]) -> bool:
    """Exact name, or the name with an "(observed)"-style suffix, per component."""
    for part in holiday_name.split(";"):
        part_key = _key(part)
        for target in targets:
            if part_key == target or part_key.startswith((target + " (", target + "（")):
                return True
    return False


def _named_days(country: str, targets: tuple[str, ...], year: int) -> list[date]:
    days: set[date] = set()
    for language in _languages(country):
        cal = _calendar(country, language)
        with _LOCK:
            _ = date(year, 1, 1) in cal
            days.update(d for d, n in cal.items() if d.year == year and _matches(n, targets))
    return sorted(days)


def _expand(country: str, seed: date, symbol: str) -> tuple[date, date]:
    """Maximal run of days off around ``seed``; each day inspected must be covered."""
    first = last = seed
    while True:
        prev = first - timedelta(days=1)
        _require_covered(country, prev.year, symbol)
        if not is_day_off(country, prev):
            break
        first = prev
    while True:
        nxt = last + timedelta(days=1)
        _require_covered(country, nxt.year, symbol)
        if not is_day_off(country, nxt):
            break
        last = nxt
    return first, last


def _periods(country: str, targets: tuple[str, ...], year: int, symbol: str) -> list[tuple[date, date]]:
    periods: list[tuple[date, date]] = []
    for day in _named_days(country, targets, year):
        if any(a <= day <= b for a, b in periods):
            continue
        periods.append(_expand(country, day, symbol))
    return sorted(periods)


def _is_derived_name(name: str) -> bool:
    """Swapped-day and observed/estimated labels: noise in a list of names to pick from."""
    lowered = name.casefold()
    return any(ch.isdigit() for ch in name) or any(marker in lowered for marker in ("补假", "推定", "observed", "estimated"))


def known_names(country: str, year: int) -> list[str]:
    """Distinct holiday names for a year (all languages), for error messages."""
    names: dict[str, None] = {}
    for language in _languages(country):
        cal = _calendar(country, language)
        with _LOCK:
            _ = date(year, 1, 1) in cal
            for d, n in sorted(cal.items()):
                if d.year == year:
                    for part in n.split(";"):
                        if not _is_derived_name(part):
                            names.setdefault(part.strip(), None)
    return list(names)


@dataclass(frozen=True)
class HolidayPeriod:
    """The days of one holiday period and, when they are only the statutory days of a year
    whose arrangement is not published, a note that says so (zh and en)."""

    days: tuple[date, ...]
    note: str | None = None


def unannounced_note(name: str, year: int) -> str:
    return (
        f"{year} 年{name}的放假调休安排尚未公布：这里只有法定（或按农历确定的）假日，公布后可能更长。"
        f" The official {year} arrangement for {name} (adjusted workdays, 调休) is not announced yet;"
        " these are only the days fixed by law or by the lunar calendar, and the period may grow once it is published."
    )


def _statutory_runs(country: str, targets: tuple[str, ...], year: int) -> list[tuple[date, ...]]:
    """The named holiday's own days in ``year`` (no observed/补假 or swapped days), in runs
    of consecutive days: what is certain before the year's decree is out."""
    days: set[date] = set()
    for language in _languages(country):
        cal = _calendar(country, language)
        with _LOCK:
            _ = date(year, 1, 1) in cal
            for d, n in cal.items():
                if d.year != year:
                    continue
                parts = [part for part in n.split(";") if not _is_derived_name(part)]
                if parts and _matches(";".join(parts), targets):
                    days.add(d)
    runs: list[list[date]] = []
    for d in sorted(days):
        if runs and runs[-1][-1] + timedelta(days=1) == d:
            runs[-1].append(d)
        else:
            runs.append([d])
    return [tuple(run) for run in runs]


def _rule_years(country: str) -> range:
    cls = _entity_class(country)
    return range(cls.start_year, cls.end_year + 1)


def holiday_period(name: str, today: date, country: str = "CN") -> tuple[date, ...]:
    """Days of the next period of holiday ``name`` not yet ended (today inside -> that one).

    Raises SymbolError for unknown names and for years without trusted data.
    """
    return holiday_period_noted(name, today, country).days


def holiday_period_noted(name: str, today: date, country: str = "CN") -> HolidayPeriod:
    """:func:`holiday_period` with its note: for a decree-based country (CN) whose next
    period falls in a year not yet published, the statutory days and a note that the 调休
    is not announced. Raises SymbolError for unknown names and years outside the data."""
    country = country.upper()
    symbol = f"H:{name}"
    name = name.strip()
    if len(name) > 6 and name[-6] in "Tt" and name[-5:-3].isdigit() and name[-3] == ":":
        raise SymbolError.invalid(symbol, "timesym.holiday_no_time", symbol=symbol)
    targets = _targets(country, name)
    seen_name = False
    for year in range(today.year - 1, today.year + LOOKAHEAD_YEARS + 1):
        if not is_covered(country, year):
            if year < today.year:
                continue
            if not seen_name and not _named_days(country, targets, year):
                break  # unknown name: report that rather than coverage
            if country in STRICT_SUBSTITUTION_COUNTRIES and year in _rule_years(country):
                runs = _statutory_runs(country, targets, year)
                seen_name = seen_name or bool(runs)
                for run in runs:
                    if run[-1] >= today:
                        return HolidayPeriod(run, unannounced_note(name, year))
                continue
            _require_covered(country, year, symbol)
        periods = _periods(country, targets, year, symbol)
        seen_name = seen_name or bool(periods)
        for first, last in periods:
            if last >= today:
                return HolidayPeriod(tuple(first + timedelta(days=i) for i in range((last - first).days + 1)))
    if not seen_name:
        sample = ", ".join(known_names(country, today.year)[:24])
        aliases = ", ".join(sorted({k for k in COUNTRY_ALIASES.get(country, {}) if not k.isascii()}))
        code = "timesym.holiday_unknown_aliases" if aliases else "timesym.holiday_unknown"
        raise SymbolError.invalid(symbol, code, symbol=symbol, name=name, country=country, sample=sample, aliases=aliases)
    raise SymbolError(
        symbol, "timesym.holiday_none_ahead", symbol=symbol, name=name, years=LOOKAHEAD_YEARS, today=today.isoformat()
    )
