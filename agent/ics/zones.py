"""Turning the TZIDs found in real files into IANA zone names.

The store and the expander only understand IANA names, but files arrive with Outlook's
Windows names ("China Standard Time"), vendor-prefixed ids ("/mozilla.org/.../Europe/Berlin"),
Lotus-style "GMT+0800" and private VTIMEZONEs with invented names. Every TZID in a file is
resolved once, in this order:

1. an IANA name (any case) is kept;
2. a Windows name (CLDR's table, shipped with icalendar) maps to its primary IANA zone;
3. a vendor prefix is dropped when what remains is an IANA name;
4. "GMT+08:00"-style names become the fixed ``Etc/GMT-8`` zone;
5. a private VTIMEZONE is matched against every IANA zone by its UTC offsets over the years
   the file uses it; ties prefer a city named in the TZID, then well-known zones;
6. a VTIMEZONE that matches nothing keeps its instants: times are converted to UTC with the
   VTIMEZONE's own rules (``Resolution.convert``);
7. a TZID with no VTIMEZONE that we cannot name falls back to the calendar's
   X-WR-TIMEZONE if it has one, else the wall time is kept as floating.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

import icalendar

try:  # CLDR's windowsZones table; icalendar regenerates it with each release.
    from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON as _CLDR
except ImportError:  # pragma: no cover - only if icalendar moves the module
    _CLDR = {}

# A few names CLDR lacks but Outlook/Exchange have written over the years.
_EXTRA_WINDOWS = {
    "China Standard Time": "Asia/Shanghai",
    "Eastern Standard Time": "America/New_York",
    "Central Standard Time": "America/Chicago",
    "Mountain Standard Time": "America/Denver",
    "Pacific Standard Time": "America/Los_Angeles",
    "GMT Standard Time": "Europe/London",
    "W. Europe Standard Time": "Europe/Berlin",
    "Tokyo Standard Time": "Asia/Tokyo",
    "Beijing Standard Time": "Asia/Shanghai",
    "Mid-Atlantic Standard Time": "Atlantic/South_Georgia",
    "Kamchatka Standard Time": "Asia/Kamchatka",
}
WINDOWS_TO_IANA: dict[str, str] = {**_EXTRA_WINDOWS, **_CLDR}
_WINDOWS_CASEFOLD = {name.casefold(): iana for name, iana in WINDOWS_TO_IANA.items()}

# Tie-breakers when several zones share a private VTIMEZONE's offsets.
PREFERRED = (
    "Asia/Shanghai",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Paris",
    "Asia/Tokyo",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Singapore",
    "Asia/Kolkata",
    "Australia/Sydney",
    "Pacific/Auckland",
    "America/Sao_Paulo",
    "Europe/Moscow",
    "America/Anchorage",
    "Pacific/Honolulu",
    "Asia/Seoul",
)

_OFFSET_NAME = re.compile(r"^(?:\(?(?:GMT|UTC)\s*)([+-])\s*(\d{1,2})(?::?(\d{2}))?\)?$", re.IGNORECASE)
_TRAILING_NUMBER = re.compile(r"\s+\d+$")
_SKIP_PREFIXES = ("posix/", "right/", "SystemV/", "Etc/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")


# A VTIMEZONE is read (``icalendar``'s ``to_tz``) by expanding its rules into transitions,
# as a series is expanded: bounded the same way (docs/ics.md: under 10 s and 300 MB per file).
# Real zones have a few yearly rules, or a few hundred dated parts for a full history; a
# ``FREQ=SECONDLY`` rule or 100,000 parts is a bomb (issue 29: >150 s, 2.2 GB).
MAX_ZONE_BYTES = 256 * 1024
MAX_ZONE_PARTS = 60  # STANDARD and DAYLIGHT sub-components (a real zone, 1901-2038: 3 to 6)
MAX_FILE_ZONE_PARTS = 120  # all private VTIMEZONEs of one calendar together
MAX_ZONE_DATES = 1_000  # RDATE values, all parts together
MAX_RULE_SPREAD = 60  # instances all yearly rules together may make per year (BYMONTH x BYDAY x ...)
_ZONE_PART = re.compile(r"^BEGIN:(?:STANDARD|DAYLIGHT)[ \t]*\r?$", re.MULTILINE | re.IGNORECASE)
_ZONE_RULE = re.compile(r"^RRULE[;:]([^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_ZONE_DATES = re.compile(r"^RDATE[;:]([^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_ZONE_TZID = re.compile(r"^TZID[;:]([^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_FOLDED = re.compile(r"\r?\n[ \t]")
_SPREAD_PARTS = ("BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYHOUR", "BYMINUTE", "BYSECOND")


class ZoneTooCostly(ValueError):
    """A VTIMEZONE whose rules would cost more to read than any real zone (``zone_problem``)."""


def zone_tzid(text: str) -> str | None:
    """The TZID a VTIMEZONE's text names, read without parsing it."""
    match = _ZONE_TZID.search(_FOLDED.sub("", text))
    return match.group(1).split(":")[-1].strip().strip('"') or None if match else None


def zone_parts(text: str) -> int:
    """How many STANDARD and DAYLIGHT parts the VTIMEZONE ``text`` has."""
    return len(_ZONE_PART.findall(text))


def zone_problem(text: str) -> str | None:
    """Why the VTIMEZONE ``text`` is refused before it is parsed, or None if it is fine.

    Cheap (regular expressions over the text): this runs before ``icalendar`` makes a
    component of it, which for 100,000 parts alone took 93 s.
    """
    if len(text) > MAX_ZONE_BYTES:
        return f"its VTIMEZONE is larger than {MAX_ZONE_BYTES // 1024} KB"
    parts = zone_parts(text)
    if parts > MAX_ZONE_PARTS:
        return f"its VTIMEZONE has {parts} rules (at most {MAX_ZONE_PARTS})"
    text = _FOLDED.sub("", text)
    dates = sum(len(match.group(1).split(",")) for match in _ZONE_DATES.finditer(text))
    if dates > MAX_ZONE_DATES:
        return f"its VTIMEZONE lists {dates} dates (at most {MAX_ZONE_DATES})"
    total = 0
    for match in _ZONE_RULE.finditer(text):
        rule = dict(part.partition("=")[::2] for part in match.group(1).upper().split(";") if part)
        if rule.get("FREQ") != "YEARLY":
            return f"its VTIMEZONE has a rule FREQ={rule.get('FREQ', '?')[:12]} (time zones change yearly)"
        total += _spread(rule)
        if total > MAX_RULE_SPREAD:
            return f"its VTIMEZONE's rules repeat over {MAX_RULE_SPREAD} times a year"
    return None


def _spread(rule: dict[str, str]) -> int:
    """About how many instances a yearly rule makes a year (an upper estimate)."""
    spread = 1
    for name in _SPREAD_PARTS:
        if name in rule:
            spread *= max(1, len(rule[name].split(",")))
    if "BYDAY" in rule:  # "SU" is every Sunday of the month (5); "-1SU" one
        spread *= sum(1 if day.strip()[:1] in "+-0123456789" else 5 for day in rule["BYDAY"].split(","))
    if "BYMONTH" not in rule and any(name in rule for name in ("BYDAY", "BYMONTHDAY")):
        spread *= 12
    return spread


@dataclass(frozen=True)
class Resolution:
    """What a TZID as written becomes.

    ``iana`` is the zone to write (None: drop the TZID). ``convert`` is set only when a
    private VTIMEZONE matched no IANA zone: its times are then moved to UTC with it.
    """

    tzid: str
    iana: str | None
    how: str
    convert: tzinfo | None = None


@functools.cache
def _iana_casefold() -> dict[str, str]:
    names = {name for name in zoneinfo.available_timezones() if not name.startswith(("posix/", "right/"))}
    names |= {"UTC", "GMT"}
    return {name.casefold(): name for name in names}


def is_iana(name: str) -> bool:
    return name.casefold() in _iana_casefold()


def iana_name(tzid: str) -> tuple[str, str] | None:
    """The IANA name for a TZID that names its zone (steps 1-4), with how it was found."""
    cleaned = tzid.strip().strip('"').strip()
    if not cleaned:
        return None
    known = _iana_casefold()
    if cleaned.casefold() in known:
        return known[cleaned.casefold()], "iana"
    if cleaned.upper() in ("Z", "UT", "ZULU", "UTC+0", "UTC+00:00", "GMT+0"):
        return "UTC", "iana"
    for candidate in (cleaned, _TRAILING_NUMBER.sub("", cleaned)):
        iana = _WINDOWS_CASEFOLD.get(candidate.casefold())
        if iana:
            return iana, "windows"
    stripped = cleaned.strip("/")
    if stripped.casefold() in known:
        return known[stripped.casefold()], "prefix"
    if "/" in stripped:
        parts = stripped.split("/")
        for first in range(1, len(parts)):
            tail = "/".join(parts[first:])
            if tail.casefold() in known:
                return known[tail.casefold()], "prefix"
        iana = _WINDOWS_CASEFOLD.get(parts[-1].casefold())
        if iana:
            return iana, "windows"
    match = _OFFSET_NAME.match(cleaned)
    if match:
        fixed = _fixed_zone(match.group(1), int(match.group(2)), int(match.group(3) or 0))
        if fixed:
            return fixed, "fixed"
    return None


def _fixed_zone(sign: str, hours: int, minutes: int) -> str | None:
    """Etc/GMT zones exist for whole hours only, and their sign is inverted (POSIX)."""
    if minutes or hours > 14:
        return None
    if hours == 0:
        return "UTC"
    return f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"


def resolve(
    tzid: str,
    vtimezone: icalendar.Timezone | None,
    years: Sequence[int] = (),
    fallback: str | None = None,
) -> Resolution:
    """Decide what ``tzid`` means in this file (see the module docstring for the order)."""
    named = iana_name(tzid)
    if named is not None:
        return Resolution(tzid, named[0], named[1])
    if vtimezone is not None:
        try:
            custom = vtimezone.to_tz(lookup_tzid=False)
        except Exception:  # a VTIMEZONE we cannot read is treated as absent
            custom = None
        if custom is not None:
            sample_years = _pick_years(years)
            matched = match_offsets(custom, sample_years, hint=tzid)
            if matched is not None:
                return Resolution(tzid, matched, "vtimezone")
            return Resolution(tzid, None, "utc-convert", convert=custom)
    if fallback and is_iana(fallback):
        return Resolution(tzid, _iana_casefold()[fallback.casefold()], "calendar")
    return Resolution(tzid, None, "floating")


def _pick_years(years: Iterable[int]) -> list[int]:
    distinct = sorted({year for year in years if 1900 < year < 2200})
    if not distinct:
        return [datetime.now(UTC).year]
    if len(distinct) <= 3:
        return distinct
    return [distinct[0], distinct[len(distinct) // 2], distinct[-1]]


def _instants(year: int, step_hours: int) -> list[datetime]:
    start = datetime(year, 1, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC)
    out = []
    moment = start
    while moment < end:
        out.append(moment)
        moment += timedelta(hours=step_hours)
    return out


def _offsets(zone: tzinfo, instants: list[datetime]) -> tuple[timedelta | None, ...]:
    return tuple(moment.astimezone(zone).utcoffset() for moment in instants)


@functools.cache
def _coarse_table(year: int) -> dict[str, tuple[timedelta | None, ...]]:
    """Offsets of every IANA zone on a few days of ``year``: a cheap first filter."""
    instants = _coarse_instants(year)
    table = {}
    for name in _iana_casefold().values():
        if name.startswith(_SKIP_PREFIXES) or "/" not in name:
            continue
        try:
            table[name] = _offsets(zoneinfo.ZoneInfo(name), instants)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # pragma: no cover
            continue
    return table


def _coarse_instants(year: int) -> list[datetime]:
    return [datetime(year, month, 15, 12, tzinfo=UTC) for month in (1, 3, 4, 7, 10, 11, 12)]


def match_offsets(custom: tzinfo, years: Sequence[int], hint: str = "") -> str | None:
    """The IANA zone whose UTC offset equals ``custom``'s on every day of ``years``.

    Offsets are compared once a day at the zone's local noon: that catches a rule that
    switches on another day, and ignores one that switches at another hour of the same
    night (Lotus Notes writes 02:00 where the EU switches at 01:00 UTC), which no calendar
    user could tell apart.
    """
    try:
        targets = {year: _offsets(custom, _coarse_instants(year)) for year in years}
        noon = timedelta(hours=12) - (targets[years[0]][0] or timedelta(0))
        daily = {year: _daily(year, noon) for year in years}
        wanted = {year: _offsets(custom, daily[year]) for year in years}
    except Exception:  # a broken private zone simply matches nothing
        return None
    candidates: set[str] | None = None
    for year, target in targets.items():
        found = {name for name, offsets in _coarse_table(year).items() if offsets == target}
        candidates = found if candidates is None else candidates & found
    exact = sorted(
        name for name in candidates or () if all(_offsets(zoneinfo.ZoneInfo(name), daily[year]) == wanted[year] for year in years)
    )
    if not exact:
        return _constant_fixed(custom, years)
    return _best(exact, hint, custom, years)


def _daily(year: int, at: timedelta) -> list[datetime]:
    start = datetime(year, 1, 1, tzinfo=UTC) + at
    return [start + timedelta(days=day) for day in range(365)]


def _best(names: list[str], hint: str, custom: tzinfo, years: Sequence[int]) -> str:
    folded = hint.casefold().replace("_", " ")
    named = [name for name in names if name.split("/")[-1].replace("_", " ").casefold() in folded]
    if named:
        return min(named, key=lambda name: folded.find(name.split("/")[-1].replace("_", " ").casefold()))
    fixed = _constant_fixed(custom, years)
    if fixed is not None:
        return fixed
    for name in PREFERRED:
        if name in names:
            return name
    primary = set(WINDOWS_TO_IANA.values())
    for name in names:
        if name in primary:
            return name
    return names[0]


def _constant_fixed(custom: tzinfo, years: Sequence[int]) -> str | None:
    """A zone with one offset all year is honestly an ``Etc/GMT`` zone (whole hours only)."""
    offsets = set()
    for year in years:
        offsets |= set(_offsets(custom, _instants(year, 24 * 7)))
    if len(offsets) != 1:
        return None
    (offset,) = offsets
    if offset is None:
        return None
    seconds = int(offset.total_seconds())
    sign = "+" if seconds >= 0 else "-"
    hours, rest = divmod(abs(seconds), 3600)
    return _fixed_zone(sign, hours, rest // 60) if rest % 60 == 0 else None
