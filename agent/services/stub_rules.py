"""Which day a slot reply may choose for a pending command: only one the stub offered.

A stub that asked "12月12日（周六）还是12月13日（周日）？" for 下周末修车 offered exactly
those days. The clarification parser reads the reply "周日下午2点" as ``W7``, which on its
own means *the next* Sunday (this week's); answering the stub, it means the offered Sunday.
These rules have one right answer, so they are code (docs/architecture.md, "Slot replies
answer their own stub"):

* **needs_date** (the stub offered a set of days): a *loose* reply, one that names only a
  weekday or "the weekend" (``W1``..``W7``, ``WE``), maps onto the offered day(s) with that
  weekday. An exact reply (明天, 12月13日, 下周日) must be one of the offered days. A reply
  that names no offered day writes nothing: the stub asks again, naming what it offers, and
  the user who has changed their mind says so in words ("改到周五"), which go to the model.
* **conflict / past_time / unconfirmed** (the stub is about one day it already chose): the
  question was "change the time, or go ahead?", so a new day is a legitimate answer. A reply
  with only a time keeps the day. An exact day is a real new date the user chose explicitly
  and goes through every check again (past, conflict, duplicate). A loose weekday that is
  the stub's own weekday means the stub's day; another weekday has two readings (that day
  in the stub's week, or the next such day from today) and when they differ, code asks
  between them instead of guessing.
* A stub that offered nothing (no date yet, an invalid round) accepts any date.

Nothing here writes or reads the store: ``CommandService`` applies the ``Fit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from agent.timesym.context import TimeContext, week_monday
from agent.timesym.grammar import SymbolError, normalize_case, parse_date_form
from agent.timesym.resolve import resolve

CHOOSING = frozenset({"needs_date"})  # stubs whose question offered a set of days
DAY_BOUND = frozenset({"conflict", "past_time", "unconfirmed"})  # stubs about one chosen day
MAX_COVERED_DAYS = 62


@dataclass(frozen=True)
class Fit:
    """How a reply's date applies to a stub.

    ``symbol``: the date symbol to store (an ISO day when a loose reply was mapped onto an
    offered day); ``None`` with no ``ask`` keeps the stub's own date. A non-empty ``ask``
    means nothing may be written this round: ask the user among those days. ``rejected``
    lists the days the reply named that the stub did not offer (for the receipt)."""

    symbol: str | None
    ask: tuple[date, ...] = ()
    rejected: tuple[date, ...] = field(default_factory=tuple)


def loose_weekdays(symbol: str) -> frozenset[int] | None:
    """ISO weekdays a loose symbol names (``W7`` -> {7}, ``WE`` -> {6, 7}); None if exact."""
    parsed = parse_date_form(normalize_case(symbol.strip()))
    if parsed is None:
        return None
    form, match = parsed
    if form == "weekday_next":
        return frozenset({int(match.group("d"))})
    if form == "weekend" and not match.group("sign"):
        return frozenset({6, 7})
    return None


def covered_days(symbol: str, ctx: TimeContext) -> tuple[date, ...] | None:
    """The local days a date symbol (or an instant's day) covers; None if it does not
    resolve to days (the round that evaluates it reports the error)."""
    try:
        resolved = resolve(symbol, ctx)
    except SymbolError:
        return None
    if resolved.kind == "time" or resolved.start is None or resolved.end is None:
        return None
    if resolved.kind == "instant":
        return (resolved.start.astimezone(ctx.tz).date(),)
    if resolved.candidates:
        return tuple(resolved.candidates)
    first = resolved.start.astimezone(ctx.tz).date()
    last = (resolved.end - timedelta(microseconds=1)).astimezone(ctx.tz).date()
    count = min((last - first).days + 1, MAX_COVERED_DAYS)
    return tuple(first + timedelta(days=i) for i in range(count))


def fit_reply(status: str, offered: Sequence[date], symbol: str, ctx: TimeContext) -> Fit:
    """Apply the rules of the module docstring to one reply's date symbol."""
    offered = tuple(sorted(set(offered)))
    if not offered or status not in CHOOSING | DAY_BOUND:
        return Fit(symbol)
    weekdays = loose_weekdays(symbol)
    if weekdays is not None:
        matches = tuple(day for day in offered if day.isoweekday() in weekdays)
    else:
        days = covered_days(symbol, ctx)
        if days is None:
            return Fit(symbol)  # not a date: the round says why
        matches = tuple(day for day in offered if day in days)
    if status in CHOOSING:
        if len(matches) == 1:
            return Fit(matches[0].isoformat())
        if matches and set(matches) == set(offered):
            return Fit(None)  # "周末" for a weekend stub: still both days
        if matches:
            return Fit(None, ask=matches)
        named = covered_days(symbol, ctx) or ()
        return Fit(None, ask=offered, rejected=tuple(named))
    # DAY_BOUND: the stub is about one day it chose; a new day is a legitimate answer.
    if weekdays is None:
        return Fit(symbol)  # an exact day the user chose explicitly
    if len(matches) == 1:
        return Fit(matches[0].isoformat())
    readings = set(covered_days(symbol, ctx) or ())  # the next such day(s) from today
    monday = week_monday(offered[0])
    readings |= {monday + timedelta(days=weekday - 1) for weekday in weekdays}
    if status != "past_time":
        readings = {day for day in readings if day >= ctx.today}
    ordered = tuple(sorted(readings))
    if len(ordered) == 1:
        return Fit(ordered[0].isoformat())
    if not ordered:
        return Fit(symbol)
    return Fit(None, ask=ordered)


def map_loose(offered: Sequence[date], symbol: str | None) -> str | None:
    """For a model's continuation of a needs_date stub: a loose weekday that matches exactly
    one offered day means that day. Anything else is the model's own reading, unchanged."""
    if symbol is None:
        return None
    weekdays = loose_weekdays(symbol)
    if weekdays is None:
        return symbol
    matches = [day for day in offered if day.isoweekday() in weekdays]
    return matches[0].isoformat() if len(matches) == 1 else symbol
