"""One recurrence model for every part of Richeng: the editor, quick add, the chat tools,
ICS import/export and sync all say a repeat as a ``Recurrence`` and turn it into RRULE text
(or 农历 RDATEs) here, nowhere else.

Why one model: the app and the command layer used to write rules separately, with two
lunar rules, and only the app marked a lunar series, so a 农历 series made by chat shrank
to one event after an editor save (issue 28).

What it holds is RFC 5545's RRULE without the sub-day parts: a frequency, an interval,
weekdays with optional ordinals (``2TU``, ``-1FR``), month days, months, set positions, and
an end (a count, or the last day in the event's zone). ``LUNAR_YEARLY`` has no RRULE form
(no rule says "every 八月十五"): the series is its first date plus one RDATE per following
lunar year, and the master carries ``X-RICHENG-RECUR:LUNAR-YEARLY`` so every reader knows.
A rule with parts this model does not hold (BYHOUR, BYWEEKNO, a WKST other than MO …) keeps
its text in ``verbatim`` and is written back unchanged: opening and saving an imported event
never rewrites a rule Richeng cannot show.

The lunar rule (one for everyone): the series starts on the first day on or after the start
that has the start's lunar month and day (the regular month, never a 闰月); a lunar 30th in
a year whose month has 29 days falls on that month's 29th, as such birthdays are kept; an
open-ended series has ``LUNAR_DEFAULT_YEARS`` occurrences (the first included) and ends
where lunar-python's tables do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from agent.timesym.lunar import lunar_month_day, lunar_to_solar, lunar_year_of, month_length

FREQS = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
LUNAR_YEARLY = "LUNAR_YEARLY"
KEPT = "KEPT"  # a stored rule this model cannot read (FREQ=HOURLY, INTERVAL=0 …): only its text, kept
LUNAR_MARK = "LUNAR-YEARLY"  # the value of X-RICHENG-RECUR on a lunar series' master
MARK_PROPERTY = "X-RICHENG-RECUR"
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
LUNAR_DEFAULT_YEARS = 30
LUNAR_MAX_YEARS = 100
_KNOWN = {"FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "COUNT", "UNTIL", "WKST"}


@dataclass(frozen=True)
class Weekday:
    """A BYDAY item: ``day`` is MO…SU; ``ordinal`` 0 means every such day, 2 the second,
    -1 the last (in the month, or the year for a yearly rule)."""

    day: str
    ordinal: int = 0

    def to_ical(self) -> str:
        return f"{self.ordinal}{self.day}" if self.ordinal else self.day

    @classmethod
    def parse(cls, text: str) -> Weekday:
        text = text.strip().upper()
        day, number = text[-2:], text[:-2]
        if day not in WEEKDAYS or (number and not number.lstrip("+-").isdigit()):
            raise ValueError(f"not a weekday: {text!r}")
        ordinal = int(number) if number else 0
        if not -53 <= ordinal <= 53:
            raise ValueError(f"weekday ordinal out of range: {text!r}")
        return cls(day, ordinal)


@dataclass(frozen=True)
class Recurrence:
    """A repeat rule. ``until`` is the last day (inclusive) in the event's own zone."""

    freq: str  # one of FREQS, or LUNAR_YEARLY
    interval: int = 1
    weekdays: tuple[Weekday, ...] = ()
    month_days: tuple[int, ...] = ()
    months: tuple[int, ...] = ()
    set_positions: tuple[int, ...] = ()
    count: int | None = None
    until: date | None = None
    verbatim: str | None = None  # a rule with parts this model does not hold: written back as it was

    def __post_init__(self) -> None:
        if self.freq not in FREQS and self.freq != LUNAR_YEARLY and not (self.freq == KEPT and self.verbatim):
            raise ValueError(f"unknown frequency {self.freq!r}")
        if self.interval < 1:
            raise ValueError("interval must be at least 1")
        if self.count is not None and self.until is not None:
            raise ValueError("a rule ends by a count or on a day, not both")
        if self.count is not None and self.count < 1:
            raise ValueError("count must be at least 1")

    @property
    def lunar(self) -> bool:
        return self.freq == LUNAR_YEARLY

    def ending(self, count: int | None = None, until: date | None = None) -> Recurrence:
        """The same rule with another end (a verbatim rule loses its verbatim text)."""
        return replace(self, count=count, until=until, verbatim=None)

    # ------------------------------------------------------------------ RRULE text

    @classmethod
    def read(cls, text: str, tz: ZoneInfo | None = None) -> Recurrence:
        """A stored rule as the editor and the summary read it: never raises. A rule this
        model refuses (``from_rrule``'s ``ValueError``) comes back as ``KEPT`` with its text,
        shown as a custom repeat and written back unchanged."""
        try:
            return cls.from_rrule(text, tz)
        except (ValueError, IndexError):
            return cls(KEPT, verbatim=text.strip().removeprefix("RRULE:"))

    @classmethod
    def from_rrule(cls, text: str, tz: ZoneInfo | None = None) -> Recurrence:
        """Read RRULE text (without ``RRULE:``). A UTC UNTIL becomes a day in ``tz`` (the
        event's zone). Raises ``ValueError`` for a rule that is not well formed."""
        parts = _parts(text)
        freq = parts.get("FREQ", "")
        if freq not in FREQS:
            raise ValueError(f"unsupported frequency {freq!r}")
        if "COUNT" in parts and "UNTIL" in parts:
            raise ValueError("COUNT and UNTIL together")
        rule = cls(
            freq,
            interval=int(parts.get("INTERVAL", "1")),
            weekdays=tuple(Weekday.parse(item) for item in _items(parts.get("BYDAY"))),
            month_days=tuple(int(item) for item in _items(parts.get("BYMONTHDAY"))),
            months=tuple(int(item) for item in _items(parts.get("BYMONTH"))),
            set_positions=tuple(int(item) for item in _items(parts.get("BYSETPOS"))),
            count=int(parts["COUNT"]) if "COUNT" in parts else None,
            until=_until_day(parts["UNTIL"], tz) if "UNTIL" in parts else None,
        )
        if _held_elsewhere(parts) or "UNTIL" in parts and not _canonical_until(parts["UNTIL"]):
            rule = replace(rule, verbatim=text.strip().removeprefix("RRULE:"))
        return rule

    @classmethod
    def of_series(cls, text: str, start: date | datetime, tz: ZoneInfo | None = None) -> Recurrence:
        """A stored series' rule as the editor and the summary read it (never raises: see
        ``read``). An UNTIL becomes the day of the series' last real instance
        (``last_instance_day``): a "this and following" split ends the old series one second
        before the split instance, so its UNTIL falls on the split day although the last
        instance is a week earlier; saving the rule back (UNTIL = the end of the day shown)
        can then never bring the split instance back as a duplicate."""
        rule = cls.read(text, tz)
        if rule.until is None or rule.freq == KEPT or _held_elsewhere(_parts(text)):
            return rule
        last = last_instance_day(text, start, tz)
        return replace(rule, until=last, verbatim=None) if last is not None else rule

    def to_rrule(self, start: date | datetime) -> str | None:
        """RRULE text for a series starting at ``start`` (None for 农历 yearly, which is
        RDATEs). UNTIL covers the whole last day: a date for an all-day series, UTC for a
        zoned one, local for a floating one (RFC 5545)."""
        if self.lunar:
            return None
        if self.verbatim:
            return self.verbatim
        parts = [f"FREQ={self.freq}"]
        if self.interval > 1:
            parts.append(f"INTERVAL={self.interval}")
        if self.months:
            parts.append("BYMONTH=" + ",".join(str(month) for month in self.months))
        if self.month_days:
            parts.append("BYMONTHDAY=" + ",".join(str(day) for day in self.month_days))
        if self.weekdays:
            parts.append("BYDAY=" + ",".join(day.to_ical() for day in _week_order(self.weekdays)))
        if self.set_positions:
            parts.append("BYSETPOS=" + ",".join(str(pos) for pos in self.set_positions))
        if self.count is not None:
            parts.append(f"COUNT={self.count}")
        elif self.until is not None:
            parts.append("UNTIL=" + until_value(self.until, start))
        return ";".join(parts)

    # ------------------------------------------------------------------ 农历

    def lunar_dates(self, start: date | datetime, tz: ZoneInfo | None = None) -> list[date | datetime]:
        """Every date of a 农历 yearly series, the first included, in the form of ``start``
        (the first may lie after ``start``: the first day with its lunar month and day).
        Raises ``ValueError`` when no such day exists before the end."""
        if not self.lunar:
            raise ValueError("not a lunar rule")
        day = start.date() if isinstance(start, datetime) else start
        month, mday, _leap = lunar_month_day(day)
        total = min(self.count or LUNAR_DEFAULT_YEARS, LUNAR_MAX_YEARS)
        first_year = lunar_year_of(day)
        days: list[date] = []
        for lunar_year in range(first_year, first_year + LUNAR_MAX_YEARS + 1):
            if len(days) >= total:
                break
            try:
                solar = lunar_to_solar(lunar_year, month, min(mday, month_length(lunar_year, month)))
            except Exception:  # lunar-python's tables end (year 2100+): stop there
                break
            if solar is None or solar < day:
                continue
            if self.until is not None and solar > self.until:
                break
            days.append(solar)
        if not days:
            raise ValueError("no lunar date before the end")
        if not isinstance(start, datetime):
            return list(days)
        clock = start.timetz().replace(tzinfo=None)
        zone = start.tzinfo if tz is None else tz
        if zone is None:
            return [datetime.combine(found, clock) for found in days]
        return [_local(found, clock, zone) for found in days]


def _local(day: date, clock: time, zone: object) -> datetime:
    naive = datetime.combine(day, clock)
    if isinstance(zone, ZoneInfo):
        return naive.replace(tzinfo=zone).astimezone(UTC).astimezone(zone)
    return naive.replace(tzinfo=zone)  # type: ignore[arg-type]


def _parts(text: str) -> dict[str, str]:
    parts: dict[str, str] = {}
    for part in text.strip().removeprefix("RRULE:").split(";"):
        if part.strip():
            key, sep, value = part.partition("=")
            if not sep:
                raise ValueError(f"not a rule part: {part!r}")
            parts[key.strip().upper()] = value.strip().upper()
    return parts


def _held_elsewhere(parts: dict[str, str]) -> bool:
    """Whether a rule has parts this model does not hold (BYHOUR, BYWEEKNO …), or a WKST
    that changes which days share a week (every N weeks on several days): kept verbatim.
    A WKST that changes nothing (every week, or one day a week) is read and not written back."""
    if set(parts) - _KNOWN:
        return True
    several = len(_items(parts.get("BYDAY"))) > 1 and parts.get("INTERVAL", "1") != "1"
    return parts.get("WKST", "MO") != "MO" and parts.get("FREQ") == "WEEKLY" and several


def _items(value: str | None) -> list[str]:
    return [item for item in (value or "").split(",") if item.strip()]


def _week_order(days: tuple[Weekday, ...]) -> list[Weekday]:
    return sorted(days, key=lambda item: (item.ordinal if item.ordinal > 0 else 99 + item.ordinal, WEEKDAYS.index(item.day)))


def _canonical_until(value: str) -> bool:
    """Whether an UNTIL is one this model writes back identically (a day's last second or a date)."""
    return len(value) == 8 or value.endswith("Z") or value.endswith("T235959")


def _until_day(value: str, tz: ZoneInfo | None) -> date:
    digits = value.strip().upper()
    if len(digits) < 8 or not digits[:8].isdigit():
        raise ValueError(f"bad UNTIL {value!r}")
    if digits.endswith("Z") and len(digits) == 16 and tz is not None:
        instant = datetime.strptime(digits, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        return instant.astimezone(tz).date()
    return date(int(digits[0:4]), int(digits[4:6]), int(digits[6:8]))


def until_value(until: date, start: date | datetime) -> str:
    """RFC 5545's UNTIL for the last day ``until``: a date for all-day series, UTC for zoned
    ones, local for floating ones; the whole last day counts."""
    if not isinstance(start, datetime):
        return f"{until:%Y%m%d}"
    last = datetime.combine(until, time(23, 59, 59))
    if start.tzinfo is None:
        return f"{last:%Y%m%dT%H%M%S}"
    zone = start.tzinfo
    if isinstance(zone, ZoneInfo):
        local = last.replace(tzinfo=zone).astimezone(UTC).astimezone(zone)
        return f"{local.astimezone(UTC):%Y%m%dT%H%M%SZ}"
    return f"{last.replace(tzinfo=zone).astimezone(UTC):%Y%m%dT%H%M%SZ}"


def nth_weekday(day: date) -> int:
    """Which of its month's weekdays ``day`` is: 1 for the first Tuesday … 5."""
    return (day.day - 1) // 7 + 1


def is_last_weekday(day: date) -> bool:
    return (day + timedelta(days=7)).month != day.month


def is_last_day(day: date) -> bool:
    return (day + timedelta(days=1)).month != day.month


# ---------------------------------------------------------------------- the editor's forms
#
# The editor offers what people set by hand (issue 23): every N days, weeks, months or
# years; weekly on chosen weekdays; monthly on the start's day, on its Nth or last weekday
# or on the last day. Those forms are derived from the start, so a rule shows in one only
# when it holds on its first day (``fits_start``): a rule that skipped its own DTSTART
# would show a stray first event, and the editor would rewrite it on every save.

EDITOR_KINDS = ("none", "daily", "weekly", "monthly", "yearly", "lunar", "custom")
MONTHLY_FORMS = ("day", "nth", "last", "lastday")  # on the start's day, its Nth / last weekday, the last day
EDITOR_NTH = (1, 2, 3, 4, -1)  # the Nth weekday the editor offers (-1: the last)
LAST_DAY_SCAN = 50_000  # instances walked to find a series' last day (the editor opens in ms)


def editor_kind(rule: Recurrence | None, start: date) -> str:
    """Which of the editor's forms shows ``rule`` on a series starting ``start`` (one of
    ``EDITOR_KINDS``): ``custom`` for a rule the editor cannot show, which it keeps verbatim."""
    if rule is None:
        return "none"
    if rule.lunar:
        return "lunar"
    if rule.verbatim is not None or rule.freq not in FREQS or not fits_start(rule, start):
        return "custom"
    if rule.freq == "DAILY":
        plain = not (rule.weekdays or rule.month_days or rule.months or rule.set_positions)
        return "daily" if plain else "custom"
    if rule.freq == "WEEKLY":
        ordinals = any(item.ordinal for item in rule.weekdays)
        return "custom" if ordinals or rule.month_days or rule.months or rule.set_positions else "weekly"
    if rule.freq == "MONTHLY":
        return "monthly" if monthly_form(rule) is not None else "custom"
    held = rule.weekdays or rule.set_positions or len(rule.months) > 1 or len(rule.month_days) > 1
    return "custom" if held else "yearly"


def monthly_form(rule: Recurrence) -> str | None:
    """The editor's monthly form of ``rule`` (one of ``MONTHLY_FORMS``), None for none:
    ``BYDAY=2TU`` (or ``TU`` with ``BYSETPOS=2``) is "nth", ``-1FR`` "last", ``BYMONTHDAY=-1``
    "lastday", no day or one day of the month (``BYMONTHDAY=10`` on a 10th) "day"."""
    if rule.months:
        return None
    if rule.month_days:
        if rule.weekdays or rule.set_positions or len(rule.month_days) != 1:
            return None
        return "lastday" if rule.month_days[0] == -1 else "day" if rule.month_days[0] > 0 else None
    if not rule.weekdays:
        return None if rule.set_positions else "day"
    nth = _single_nth(rule)
    if nth is None or nth not in EDITOR_NTH:
        return None
    return "last" if nth == -1 else "nth"


def _single_nth(rule: Recurrence) -> int | None:
    """The N of a rule on one weekday a month: ``2TU``, or ``TU`` with one ``BYSETPOS``."""
    if len(rule.weekdays) != 1:
        return None
    item = rule.weekdays[0]
    if item.ordinal:
        return None if rule.set_positions else item.ordinal
    return rule.set_positions[0] if len(rule.set_positions) == 1 else None


def monthly_rule(form: str, start: date, interval: int = 1) -> Recurrence:
    """The editor's monthly ``form`` on a series starting ``start`` (the Nth weekday is the
    start's: the second Tuesday when it starts on one)."""
    day = WEEKDAYS[start.weekday()]
    if form == "nth":
        return Recurrence("MONTHLY", interval, weekdays=(Weekday(day, nth_weekday(start)),))
    if form == "last":
        return Recurrence("MONTHLY", interval, weekdays=(Weekday(day, -1),))
    if form == "lastday":
        return Recurrence("MONTHLY", interval, month_days=(-1,))
    return Recurrence("MONTHLY", interval)


def monthly_forms(start: date) -> list[str]:
    """The monthly forms that hold on ``start``: its day always, its Nth weekday (up to the
    fourth), its last weekday and the last day when it is one."""
    forms = ["day"]
    if nth_weekday(start) <= 4:
        forms.append("nth")
    if is_last_weekday(start):
        forms.append("last")
    if is_last_day(start):
        forms.append("lastday")
    return forms


def fits_start(rule: Recurrence, day: date) -> bool:
    """Whether a monthly or yearly rule's day holds on its first day ``day`` (the Nth or
    last weekday, the last day, the day of the month, the month and day); every other
    form fits any start."""
    if rule.freq == "MONTHLY":
        nth = _single_nth(rule)
        if nth is not None:
            on_day = WEEKDAYS[day.weekday()] == rule.weekdays[0].day
            return on_day and (is_last_weekday(day) if nth == -1 else nth_weekday(day) == nth)
        if rule.month_days == (-1,):
            return is_last_day(day)
        if len(rule.month_days) == 1:
            return rule.month_days[0] == day.day
        return True
    if rule.freq == "YEARLY" and not rule.weekdays:
        return (not rule.months or day.month in rule.months) and (not rule.month_days or day.day in rule.month_days)
    return True


def last_instance_day(text: str, start: date | datetime, tz: ZoneInfo | None = None) -> date | None:
    """The day of the last instance of the series ``text`` starting at ``start`` under its
    UNTIL (None when it has no UNTIL, no instance, or more than ``LAST_DAY_SCAN``)."""
    from dateutil.rrule import rrulestr

    if "UNTIL=" not in text.upper():
        return None
    first = start if isinstance(start, datetime) else datetime.combine(start, time(0))
    last = None
    try:
        for count, instance in enumerate(rrulestr(text.removeprefix("RRULE:"), dtstart=first)):
            last = instance
            if count >= LAST_DAY_SCAN:  # centuries of a daily rule: keep UNTIL's own day
                return None
    except (ValueError, TypeError, OverflowError):  # a rule dateutil cannot expand: keep UNTIL's day
        return None
    if last is None:
        return None
    if last.tzinfo is not None and tz is not None:
        last = last.astimezone(tz)
    return last.date()
