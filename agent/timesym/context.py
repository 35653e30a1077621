"""The clock and zone that every symbol is resolved against, and the DST rule.

Resolution must be a pure function of (symbol, context) so tests can pin the
clock and the app can honour the zone from settings; nothing in this package
calls ``datetime.now()`` except :meth:`TimeContext.system`.

DST rule (deterministic, tested):

* a local time that does not exist (spring-forward gap) moves forward by the
  gap length: 02:30 in America/New_York on 2026-03-08 becomes 03:30 EDT;
* an ambiguous local time (fall-back fold) takes its first occurrence
  (``fold=0``);
* a day starts at local midnight under this rule and ends where the next day
  starts, so a DST day is 23 or 25 hours long.

With ``zoneinfo``, ``fold=0`` already interprets a gap time with the offset in
force *before* the transition; converting through UTC and back therefore
yields exactly "moved forward by the gap", and a fold time keeps its first
occurrence. The round trip also normalises the result so that ``utcoffset``
and the wall clock always agree.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULT_ZONE = "UTC"
"""Used only when the system cannot name its zone (e.g. a bare container)."""


def local_datetime(d: date, t: time, tz: ZoneInfo) -> datetime:
    """Wall-clock ``d t`` in ``tz`` as an aware datetime, applying the DST rule.

    Raises OverflowError/ValueError only for dates at the edges of
    ``datetime``'s range; callers that accept user input convert those.
    """
    naive = datetime.combine(d, t.replace(tzinfo=None, fold=0))
    provisional = naive.replace(tzinfo=tz, fold=0)
    return provisional.astimezone(UTC).astimezone(tz)


def day_start(d: date, tz: ZoneInfo) -> datetime:
    """Start of local day ``d``: midnight, or the first instant after a gap."""
    return local_datetime(d, time(0, 0), tz)


def day_end(d: date, tz: ZoneInfo) -> datetime:
    """Exclusive end of local day ``d``: where the next day starts."""
    return day_start(d + timedelta(days=1), tz)


def days_bounds(first: date, last: date, tz: ZoneInfo) -> tuple[datetime, datetime]:
    """``[start of first, end of last)`` for an inclusive run of whole days."""
    return day_start(first, tz), day_end(last, tz)


def month_first(year: int, month: int) -> date:
    """First day of a month; kept here so month arithmetic lives in one place."""
    return date(year, month, 1)


def add_months(year: int, month: int, delta: int) -> tuple[int, int]:
    """(year, month) shifted by ``delta`` calendar months."""
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def month_last(year: int, month: int) -> date:
    """Last day of a month (28..31)."""
    return date(year, month, calendar.monthrange(year, month)[1])


def week_monday(d: date) -> date:
    """Monday of the Monday-to-Sunday week containing ``d``."""
    return d - timedelta(days=d.weekday())


UTC_ALIASES: frozenset[str] = frozenset({"Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT", "Universal", "Zulu", "utc"})
"""tzdata's other names for UTC. A UTC system reports ``Etc/UTC`` while the editor offers
``UTC``; one canonical name keeps a new and an edited event's zone the same (issue 15)."""


def canonical_zone_name(name: str) -> str:
    """``UTC`` for any of UTC's aliases; every other name unchanged."""
    return "UTC" if name in UTC_ALIASES else name


def load_zone(name: str) -> ZoneInfo:
    """ZoneInfo for an IANA name, with an error that names the bad setting."""
    try:
        return ZoneInfo(canonical_zone_name(name))
    except (ZoneInfoNotFoundError, ValueError, OSError, UnicodeError) as exc:  # OSError: a name too long for a path
        raise ValueError(f"unknown time zone {name[:80]!r} (expected an IANA name such as 'Asia/Shanghai')") from exc


def system_zone_name() -> str:
    """The OS zone name via tzlocal; falls back to UTC rather than failing startup."""
    try:
        import tzlocal

        name = tzlocal.get_localzone_name()
    except Exception:  # tzlocal raises various errors on unconfigured systems
        name = None
    return canonical_zone_name(name) if name else DEFAULT_ZONE


@dataclass(frozen=True)
class TimeContext:
    """Everything resolution depends on besides the symbol itself.

    ``now`` must be aware so that "today" is unambiguous; it may be in any zone
    and is interpreted in ``tz`` (the user's zone from settings).
    """

    now: datetime
    tz: ZoneInfo
    holiday_country: str = "CN"

    def __post_init__(self) -> None:
        if self.now.tzinfo is None or self.now.utcoffset() is None:
            raise ValueError("TimeContext.now must be timezone-aware")
        if not isinstance(self.tz, ZoneInfo):
            raise TypeError("TimeContext.tz must be a zoneinfo.ZoneInfo")
        if not self.holiday_country:
            raise ValueError("TimeContext.holiday_country must be an ISO country code such as 'CN'")

    @property
    def today(self) -> date:
        """The user's local date at ``now``."""
        return self.now.astimezone(self.tz).date()

    @property
    def local_now(self) -> datetime:
        """``now`` expressed in the user's zone."""
        return self.now.astimezone(self.tz)

    @classmethod
    def system(
        cls,
        now: datetime | None = None,
        tz: str | None = None,
        holiday_country: str = "CN",
    ) -> TimeContext:
        """Context from the real clock and the OS zone unless overridden.

        A naive ``now`` is read as wall-clock time in the chosen zone (with the
        DST rule), which is what a caller passing one almost always means.
        """
        zone = load_zone(tz) if tz else load_zone(system_zone_name())
        if now is None:
            current = datetime.now(zone)
        elif now.tzinfo is None:
            current = local_datetime(now.date(), now.time(), zone)
        else:
            current = now.astimezone(zone)
        return cls(now=current, tz=zone, holiday_country=holiday_country.upper())

    def with_now(self, now: datetime) -> TimeContext:
        """Same zone and country at another instant (handy for tests and previews)."""
        return TimeContext(now=now, tz=self.tz, holiday_country=self.holiday_country)
