"""One query per visible range, kept until the store changes.

Every view asks for ``[first_day, end_day)``; a range inside one already fetched is cut
out of it instead of queried again, so switching from month to week (whose days lie inside
the month grid) touches no SQL at all. ``invalidate`` runs on ``ops.changed`` and
``ops.calendars_changed``; views never see stale data because they only reload after it.
Hidden calendars are filtered here, once, so no view can forget to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from agent.services.calendars import Calendar
from agent.services.invitations import drawn
from agent.services.queries import QueryService
from agent.store.occurrence import Occurrence
from app.context import AppContext

MAX_RANGES = 6


@dataclass(frozen=True)
class ViewEvent:
    """An occurrence in the view's terms: naive local wall times in the user's zone.

    All-day events run from midnight of their first day to midnight after their last;
    floating events are already wall times; zoned ones are converted once here, so the
    painting code never deals with time zones.
    """

    occ: Occurrence
    start: datetime
    end: datetime

    @property
    def all_day(self) -> bool:
        return self.occ.all_day

    @property
    def key(self) -> tuple[str, str]:
        """Identity of this instance across reloads (a single event has one instance)."""
        return (self.occ.uid, self.occ.recurrence_id or "")

    @property
    def is_bar(self) -> bool:
        """Drawn as a day bar (all-day row) rather than a block in the time grid."""
        return self.occ.all_day or self.end - self.start >= timedelta(hours=24)

    @property
    def first_day(self) -> date:
        return self.start.date()

    @property
    def end_day(self) -> date:
        """Exclusive last day, for bars."""
        if self.end.time() == time(0) and self.end > self.start:
            return self.end.date()
        return self.end.date() + timedelta(days=1)


def local_naive(value: datetime | date, tz: ZoneInfo) -> datetime:
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(tz)
        return value.replace(tzinfo=None)
    return datetime.combine(value, time(0))


def to_view_event(occ: Occurrence, tz: ZoneInfo) -> ViewEvent:
    return ViewEvent(occ, local_naive(occ.start, tz), local_naive(occ.end, tz))


def overlaps(event: ViewEvent, lo: datetime, hi: datetime) -> bool:
    if event.end == event.start:
        return lo <= event.start < hi
    return event.start < hi and event.end > lo


class EventSource:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._ranges: list[tuple[date, date, list[ViewEvent]]] = []
        self._calendars: list[Calendar] | None = None
        self.queries = 0  # how many times the store was asked (tests read this)

    def invalidate(self) -> None:
        self._ranges.clear()
        self._calendars = None

    def calendars(self) -> list[Calendar]:
        if self._calendars is None:
            self._calendars = self.ctx.ops.calendars.list()
        return self._calendars

    def visible_calendar_ids(self) -> set[int]:
        return {calendar.id for calendar in self.calendars() if calendar.visible}

    def covers(self, first: date, end: date) -> bool:
        return any(lo <= first and end <= hi for lo, hi, _ in self._ranges)

    def events(self, first: date, end: date) -> list[ViewEvent]:
        """Visible events overlapping the local days ``[first, end)``, in start order."""
        lo, hi = datetime.combine(first, time(0)), datetime.combine(end, time(0))
        for cached_first, cached_end, events in self._ranges:
            if cached_first <= first and end <= cached_end:
                if (cached_first, cached_end) == (first, end):
                    return events
                return [event for event in events if overlaps(event, lo, hi)]
        events = self._query(first, end)
        self._ranges.insert(0, (first, end, events))
        del self._ranges[MAX_RANGES:]
        return events

    def _query(self, first: date, end: date) -> list[ViewEvent]:
        tz = self.ctx.tz
        visible = self.visible_calendar_ids()
        service = QueryService(self.ctx.store, self.ctx.profile_id, self.ctx.time_context())
        start = datetime.combine(first, time(0), tzinfo=tz)
        stop = datetime.combine(end, time(0), tzinfo=tz)
        self.queries += 1
        found = drawn(self.ctx.store, self.ctx.profile_id, service.between(start, stop))  # invitations: tentative
        return [to_view_event(occ, tz) for occ in found if occ.calendar_id in visible]
