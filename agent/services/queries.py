"""Reading the calendar: events in a range, and free time inside working hours.

Both take symbols (``D+1``, ``M+1`` ...) or instants; the symbol-to-interval step is the
resolver's, so "what is on tomorrow" and "create tomorrow" can never disagree about which
day tomorrow is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from agent.errors import ValidationError
from agent.services.calendars import CalendarService
from agent.services.invitations import is_busy
from agent.services.settings import SettingsService, WorkingHours
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.occurrence import Occurrence
from agent.timesym.context import TimeContext, local_datetime
from agent.timesym.resolve import resolve_range

MAX_SLOTS = 20


@dataclass(frozen=True)
class RangeResult:
    start: datetime
    end: datetime
    events: list[Occurrence]
    today: date | None = None  # the query's today: receipts show a year only when it differs

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "events": [event.to_json() for event in self.events],
        }


@dataclass(frozen=True)
class FreeSlot:
    start: datetime
    end: datetime

    def to_json(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


class QueryService:
    def __init__(self, store: Store, profile_id: int, ctx: TimeContext) -> None:
        self.store = store
        self.profile_id = profile_id
        self.ctx = ctx
        self.events = EventRepo(store, profile_id)
        self.calendars = CalendarService(store, profile_id)

    def between(
        self,
        start: datetime,
        end: datetime,
        *,
        calendar: str | None = None,
        incomplete_only: bool = False,
        include_cancelled: bool = False,
    ) -> list[Occurrence]:
        calendar_ids = [self.calendars.get(calendar).id] if calendar else None
        found = self.events.occurrences(start, end, self.ctx.tz, calendar_ids=calendar_ids, incomplete_only=incomplete_only)
        if include_cancelled:
            return found
        return [occ for occ in found if occ.status != "CANCELLED"]

    def range(
        self,
        start_expression: str,
        end_expression: str,
        *,
        calendar: str | None = None,
        incomplete_only: bool = False,
    ) -> RangeResult:
        """``[start of start_expression, end of end_expression)``; SymbolError on bad input."""
        start, end = resolve_range(start_expression, end_expression, self.ctx)
        events = self.between(start, end, calendar=calendar, incomplete_only=incomplete_only)
        return RangeResult(start, end, events, self.ctx.today)

    def busy(self, start: datetime, end: datetime) -> list[Occurrence]:
        """Events that make their time unavailable: opaque, not cancelled, not declined
        (an invitation the user declined is kept but takes no time: issue 31)."""
        return is_busy(self.store, self.profile_id, [occ for occ in self.between(start, end) if occ.transp != "TRANSPARENT"])

    def free_slots(self, start_expression: str, end_expression: str, duration_minutes: int = 60) -> list[FreeSlot]:
        """Free stretches of at least ``duration_minutes`` within working hours, from now on."""
        if not 5 <= duration_minutes <= 24 * 60:
            raise ValidationError("services.duration_range")
        start, end = resolve_range(start_expression, end_expression, self.ctx)
        start = max(start, self.ctx.now.astimezone(self.ctx.tz))
        if start >= end:
            return []
        hours = SettingsService(self.store, self.profile_id).working_hours()
        busy = sorted((_bounds(occ, self.ctx) for occ in self.busy(start, end)), key=lambda b: b[0])
        need = timedelta(minutes=duration_minutes)
        slots: list[FreeSlot] = []
        for window_start, window_end in _working_windows(start, end, hours, self.ctx):
            cursor = window_start
            for occ_start, occ_end in busy:
                if occ_end <= cursor or occ_start >= window_end:
                    continue
                if occ_start - cursor >= need:
                    slots.append(FreeSlot(cursor, occ_start))
                cursor = max(cursor, occ_end)
            if window_end - cursor >= need:
                slots.append(FreeSlot(cursor, window_end))
            if len(slots) >= MAX_SLOTS:
                break
        return slots[:MAX_SLOTS]


def _bounds(occ: Occurrence, ctx: TimeContext) -> tuple[datetime, datetime]:
    """An occurrence's instants in the user's zone (all-day: whole local days)."""

    def instant(value: date | datetime) -> datetime:
        if isinstance(value, datetime):
            if value.tzinfo is None:
                return local_datetime(value.date(), value.time(), ctx.tz)
            return value.astimezone(ctx.tz)
        return local_datetime(value, time(0, 0), ctx.tz)

    return instant(occ.start), instant(occ.end)


def _working_windows(start: datetime, end: datetime, hours: WorkingHours, ctx: TimeContext) -> list[tuple[datetime, datetime]]:
    windows = []
    day = start.astimezone(ctx.tz).date()
    last = end.astimezone(ctx.tz).date()
    while day <= last:
        if day.isoweekday() in hours.days:
            lo = max(start, local_datetime(day, hours.start, ctx.tz))
            hi = min(end, local_datetime(day, hours.end, ctx.tz))
            if lo < hi:
                windows.append((lo, hi))
        day += timedelta(days=1)
    return windows
