"""Bounded recurrence: which rules are refused, and a lazy, capped walk over the rest.

recurring-ical-events hands each RRULE to dateutil, whose ``between`` walks the rule from
DTSTART on every call, builds a list of everything in the window, keeps every instance it
ever made (``cache=True``), and never stops for a rule that cannot advance (INTERVAL=0
yields DTSTART forever) or can never match (BYMONTH=2;BYMONTHDAY=30 makes a DAILY rule
spin to the year 9999, BYSETPOS=2 on a SECONDLY rule spins practically forever). So:

- ``rule_problem`` refuses what RFC 5545 forbids (INTERVAL < 1, BY values out of range) and
  rules that match nothing in 400 years. The Gregorian calendar repeats every 400 years
  (146,097 days, a whole number of weeks), so a rule shifted by whole 400-year cycles to
  the last centuries dateutil can reach asks for one instance and gets the same answer at
  a bounded cost; that is "never". A BYSETPOS no period can reach is refused before that.
- ``bound(query)`` swaps the rules inside a query's series for walkers that generate
  instances lazily, in order, once per process, optionally from a recorded resume point
  (the last instance already materialised, with how many the rule had made by then, for
  COUNT), and raise ``InstanceBudget`` past a budget. The store's expander sizes its
  windows with them and records their progress, so extending a series never walks it from
  DTSTART again and no rule can make it generate without bound.

The caps themselves (instances per series, per expansion step) live in
``agent/store/events.py``; docs/ics.md ("Bounded recurrence") gives the numbers and why.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping
from datetime import MAXYEAR, date, datetime
from typing import TYPE_CHECKING, Any, Protocol, cast

from agent.lazy import lazy_module

if TYPE_CHECKING:
    import icalendar
else:  # on first use (start-up, issue 14)
    icalendar = lazy_module("icalendar", __name__)
from dateutil.rrule import WEEKLY, rrule, rrulestr

CYCLE_YEARS = 400  # the Gregorian calendar's period: weekdays and leap years repeat
FREQS = ("SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY")
_PERIODS_PER_YEAR = {"YEARLY": 1, "MONTHLY": 12, "WEEKLY": 52, "DAILY": 365, "HOURLY": 8760,
                     "MINUTELY": 525_600, "SECONDLY": 31_536_000}  # fmt: skip
# RFC 5545 section 3.3.10 value ranges; ``signed`` parts take -hi..-1 and 1..hi, never 0.
_RANGES: dict[str, tuple[int, int, bool]] = {
    "BYSECOND": (0, 60, False),
    "BYMINUTE": (0, 59, False),
    "BYHOUR": (0, 23, False),
    "BYMONTHDAY": (1, 31, True),
    "BYYEARDAY": (1, 366, True),
    "BYWEEKNO": (1, 53, True),
    "BYMONTH": (1, 12, False),
    "BYSETPOS": (1, 366, True),
}
# How many candidates one period of each frequency can hold, before BYSETPOS picks.
_DAYS_PER_PERIOD = {"YEARLY": 366, "MONTHLY": 31, "WEEKLY": 7}
_TIME_PARTS = {"HOURLY": ("BYMINUTE", "BYSECOND"), "MINUTELY": ("BYSECOND",), "SECONDLY": ()}


class _RuleParts(Protocol):
    """The private parts of a dateutil ``rrule`` read here (its stubs leave them out)."""

    _count: int | None
    _dtstart: datetime
    _freq: int
    _bysetpos: tuple[int, ...] | None
    _byeaster: tuple[int, ...] | None


def _parts(rule: rrule) -> _RuleParts:
    return cast(_RuleParts, rule)


class InstanceBudget(Exception):
    """A series made more instances in one process than the expander may take from it."""


# ---- which rules are refused -----------------------------------------------------------


def component_problem(component: icalendar.Event) -> str | None:
    """Why the RRULEs of ``component`` cannot be expanded safely, or None when they can."""
    rules = component.get("RRULE")
    if rules is None or component.get("DTSTART") is None:
        return None
    start = component.decoded("DTSTART")
    for rule in rules if isinstance(rules, list) else [rules]:
        problem = rule_problem(rule, start)
        if problem:
            return problem
    return None


def rule_problem(rule: Mapping[str, list[Any]], dtstart: date | datetime) -> str | None:
    """What RFC 5545 forbids in ``rule``, or that it never matches; None for a usable rule."""
    freq = str(_first(rule, "FREQ") or "").upper()
    if freq not in FREQS:
        return f"RRULE needs FREQ to be one of {', '.join(FREQS)} (RFC 5545), not {freq or 'nothing'}"
    interval = _first(rule, "INTERVAL")
    if interval is not None:
        try:
            step = int(interval)
        except (TypeError, ValueError):
            return f"RRULE INTERVAL must be a whole number, not {interval}"
        if step < 1:
            return f"RRULE INTERVAL must be 1 or more (RFC 5545), not {step}: the series would never advance"
    for name, (low, high, signed) in _RANGES.items():
        for value in _values(rule, name):
            try:
                number = int(value)
            except (TypeError, ValueError):
                return f"RRULE {name} must hold whole numbers, not {value}"
            size = abs(number) if signed else number
            if not low <= size <= high or (signed and number == 0):
                span = f"-{high}..-1 or 1..{high}" if signed else f"{low}..{high}"
                return f"RRULE {name}={number} is outside {span} (RFC 5545)"
    positions = [int(value) for value in _values(rule, "BYSETPOS")]
    if positions:
        reach = _period_size(rule, freq)
        if all(abs(position) > reach for position in positions):
            return (
                f"RRULE BYSETPOS={','.join(str(p) for p in positions)} can never match: "
                f"each {freq.lower()} period holds at most {reach} candidate(s)"
            )
    return _never_matches(rule, freq, dtstart)


def _never_matches(rule: Mapping[str, list[Any]], freq: str, dtstart: date | datetime) -> str | None:
    """Ask dateutil for one instance of the rule, moved by whole 400-year cycles to where
    the iteration cannot run for more than a few centuries before dateutil's year 9999."""
    start = dtstart if isinstance(dtstart, datetime) else datetime(dtstart.year, dtstart.month, dtstart.day)
    start = start.replace(tzinfo=None)
    interval = max(1, int(_first(rule, "INTERVAL") or 1))
    years = CYCLE_YEARS * max(1, math.ceil(interval / _PERIODS_PER_YEAR[freq]))
    cycles = (MAXYEAR - years - start.year) // CYCLE_YEARS
    if cycles > 0:
        start = start.replace(year=start.year + cycles * CYCLE_YEARS)
    open_rule = icalendar.vRecur({key: value for key, value in rule.items() if key.upper() not in ("COUNT", "UNTIL")})
    try:
        probe = rrulestr(open_rule.to_ical().decode(), dtstart=start, cache=False)
        first = next(iter(probe), None)
    except (ValueError, TypeError, OverflowError) as exc:
        return f"RRULE cannot be expanded: {' '.join(str(exc).split()) or type(exc).__name__}"
    if first is None:
        text = open_rule.to_ical().decode()
        return f"RRULE {text} matches no date in {years} years: its BY parts exclude each other"
    return None


def _period_size(rule: Mapping[str, list[Any]], freq: str) -> int:
    """The most candidates one period can hold: days in the period times times in a day."""
    parts = _TIME_PARTS.get(freq, ("BYHOUR", "BYMINUTE", "BYSECOND"))
    times = math.prod(len(set(_values(rule, name))) or 1 for name in parts)
    return _DAYS_PER_PERIOD.get(freq, 1) * times


def _first(rule: Mapping[str, list[Any]], name: str) -> Any:
    values = _values(rule, name)
    return values[0] if values else None


def _values(rule: Mapping[str, list[Any]], name: str) -> list[Any]:
    for key, value in rule.items():
        if str(key).upper() == name:
            return list(value) if isinstance(value, (list, tuple)) else [value]
    return []


# ---- lazy, ordered, capped walks --------------------------------------------------------


class Budget:
    """Instances the walks of one series may still generate in this process."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise InstanceBudget


class Walk:
    """One RRULE as recurring-ical-events uses it (``between``, ``until``), generated lazily.

    Instances are made in order and kept for this process only (a window walked twice is
    read back by bisection, not regenerated), each one spends the series' budget, and an
    instance that does not come after the previous one ends the walk: dateutil with an
    INTERVAL of 0 would repeat DTSTART forever.
    """

    def __init__(self, rule: rrule, budget: Budget, resume: tuple[str, int] | None = None) -> None:
        self.until = getattr(rule, "until", None)  # recurring-ical-events reads this
        self.budget = budget
        self.offset = 0
        self.resumed: tuple[str, int] | None = None
        self.seen: list[datetime] = []
        self.done = False
        count = _parts(rule)._count  # dateutil keeps COUNT here; resuming must shrink it
        source: rrule | None = rule.replace(cache=False)
        if resume is not None and resumable(rule):
            at, made = resume
            moment = datetime.fromisoformat(at).replace(tzinfo=_parts(rule)._dtstart.tzinfo)
            if count is not None and made >= count:
                source = None
            else:
                source = rule.replace(dtstart=moment, count=None if count is None else count - made, cache=False)
            self.offset, self.resumed = made, resume
        self._iterator: Iterator[datetime] = iter(source) if source is not None else iter(())
        if source is None:
            self.done = True

    def _pull(self) -> bool:
        if self.done:
            return False
        value = next(self._iterator, None)
        if value is None or (self.seen and not value > self.seen[-1]):
            self.done = True
            return False
        self.budget.spend()
        self.seen.append(value)
        return True

    def between(self, after: datetime, before: datetime, inc: bool = False) -> Iterator[datetime]:
        """Instances in [after, before] (``inc``) or (after, before), in order, lazily."""
        seen = self.seen
        index = bisect_left(seen, after) if inc else bisect_right(seen, after)
        while True:
            while index < len(seen):
                value = seen[index]
                if value > before or (not inc and value == before):
                    return
                yield value
                index += 1
            if not self._pull():
                return

    def nth_from(self, moment: datetime, n: int, stop: datetime | None = None) -> datetime | None:
        """The ``n``-th instance at or after ``moment`` (1-based), generating as needed;
        None when there are fewer, or (with ``stop``) fewer before ``stop``."""
        seen = self.seen
        index = bisect_left(seen, moment) + n - 1
        while index >= len(seen):
            if stop is not None and seen and seen[-1] > stop:
                return None
            if not self._pull():
                return None
        return seen[index]

    def has_after(self, moment: datetime) -> bool:
        return self.nth_from(moment, 1) is not None

    def count_before(self, moment: datetime, limit: int) -> int:
        """How many instances (up to ``limit``) this walk makes before ``moment``."""
        while len(self.seen) < limit and (not self.seen or self.seen[-1] < moment):
            if not self._pull():
                break
        return min(limit, bisect_left(self.seen, moment))

    def progress(self, before: datetime) -> tuple[str, int] | None:
        """Where to resume so that every instance from ``before`` on is made again: the last
        instance before it, with how many the rule had made until then (for COUNT)."""
        index = bisect_left(self.seen, before) - 1
        if index < 0:
            return self.resumed
        return self.seen[index].replace(tzinfo=None).isoformat(), self.offset + index


class Dates:
    """The RDATEs (and DTSTART) set of a series: sorted once, read by bisection."""

    until = None

    def __init__(self, values: Iterable[datetime]) -> None:
        self.seen = sorted(set(values))
        self.done = True

    def between(self, after: datetime, before: datetime, inc: bool = False) -> Iterator[datetime]:
        index = bisect_left(self.seen, after) if inc else bisect_right(self.seen, after)
        stop = bisect_right(self.seen, before) if inc else bisect_left(self.seen, before)
        return iter(self.seen[index:stop])

    def nth_from(self, moment: datetime, n: int, stop: datetime | None = None) -> datetime | None:
        index = bisect_left(self.seen, moment) + n - 1
        return self.seen[index] if index < len(self.seen) else None

    def has_after(self, moment: datetime) -> bool:
        return self.nth_from(moment, 1) is not None

    def count_before(self, moment: datetime, limit: int) -> int:
        return min(limit, bisect_left(self.seen, moment))

    def progress(self, before: datetime) -> None:
        return None


def resumable(rule: rrule) -> bool:
    """Whether restarting the rule at one of its instances gives the same later instances.

    dateutil derives a rule's implicit parts (weekday, month day, time of day) from
    DTSTART, and an instance has the same ones; its periods are counted from DTSTART in
    whole INTERVALs, and an instance's period is on that grid. The one exception is
    WEEKLY with BYSETPOS: dateutil's first week starts on DTSTART's day, not on WKST, so
    BYSETPOS would count a partial week. Easter offsets are not RFC 5545 and stay unresumed.
    """
    parts = _parts(rule)
    return not ((parts._freq == WEEKLY and parts._bysetpos) or parts._byeaster)


def bound(query: Any, budget: int, resume: list[tuple[str, int] | None] | None = None) -> list[Walk | Dates]:
    """Replace the dateutil rules inside ``query``'s series with walks (once per query).

    ``resume`` holds one entry per RRULE of the (single) series, as ``Walk.progress``
    gave them. Returns the walks: the RDATE set first, then one per RRULE, for the first
    series with rules (a query here holds one UID).
    """
    found: list[Walk | Dates] = []
    for series in query.series:
        recurrence = series.recurrence
        if not getattr(recurrence, "has_core", False):
            continue
        rules = recurrence.rrules
        if rules and isinstance(rules[0], Dates):
            walks = list(rules)
        else:
            shared = Budget(budget)
            walks = [Dates(rules[0]._rdate)]  # recurring-ical-events' RDATE set
            for index, rule in enumerate(rules[1:]):
                point = resume[index] if resume and index < len(resume) else None
                walks.append(Walk(rule, shared, (point[0], point[1]) if point else None))  # a JSON list or a tuple
            recurrence.rrules = walks
        if not found:
            found = walks
    return found
