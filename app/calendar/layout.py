"""Pure geometry for the calendar views: columns for overlapping events, rows for bars.

Nothing here imports Qt, so the rules that decide what a view draws can be tested (and
property-tested) on plain numbers. The views turn the results into rectangles.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

SNAP_MINUTES = 15
MINUTES_PER_DAY = 24 * 60


@dataclass(frozen=True)
class Placement:
    """Where one timed event sits among the events it overlaps.

    ``columns`` is the width of its overlap cluster, so every event in a cluster is drawn
    the same width; ``span`` lets an event stretch into free columns to its right, which
    keeps a short meeting beside a long one from leaving half the day empty.
    """

    column: int
    columns: int
    span: int = 1


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def place_columns(intervals: Sequence[tuple[float, float]], min_length: float = 0.0) -> list[Placement]:
    """Side-by-side columns for half-open ``[start, end)`` intervals, in input order.

    ``min_length`` widens very short (and zero-length) events to the height they are drawn
    at, because two five-minute events that do not overlap in time still overlap on screen.
    Greedy by start time: an event takes the first column whose last event has ended, so
    no two overlapping events ever share a column and non-overlapping ones reuse them.
    """
    spans = [(float(s), max(float(e), float(s) + min_length)) for s, e in intervals]
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], -spans[i][1], i))
    column_of = [0] * len(spans)
    width_of = [1] * len(spans)
    members: list[list[int]] = []
    member_of = [0] * len(spans)
    cluster: list[int] = []
    columns = 0
    busy: list[tuple[float, int]] = []  # (end, column) of the columns in use
    free: list[int] = []  # columns whose last event has ended, lowest first
    cluster_end = float("-inf")
    # Heaps and per-column member lists keep this near n log n: a day holding 20,000
    # overlapping instances of a dense series (issue 11) must not take minutes to lay out.
    by_column: list[dict[int, list[int]]] = []

    def close_cluster() -> None:
        grouped: dict[int, list[int]] = {}
        for index in cluster:
            width_of[index] = columns
            member_of[index] = len(members)
            grouped.setdefault(column_of[index], []).append(index)
        members.append(cluster)
        by_column.append(grouped)

    for index in order:
        start, end = spans[index]
        if cluster and start >= cluster_end:
            close_cluster()
            cluster, columns, busy, free, cluster_end = [], 0, [], [], float("-inf")
        while busy and busy[0][0] <= start:
            heapq.heappush(free, heapq.heappop(busy)[1])
        if free:
            column = heapq.heappop(free)
        else:
            column, columns = columns, columns + 1
        column_of[index] = column
        heapq.heappush(busy, (end, column))
        cluster.append(index)
        cluster_end = max(cluster_end, end)
    close_cluster()

    placements: list[Placement] = []
    for index, (start_end, column, width) in enumerate(zip(spans, column_of, width_of, strict=True)):
        span = 1
        grouped = by_column[member_of[index]]
        while column + span < width and not any(
            _overlaps(start_end, spans[other]) for other in grouped.get(column + span, ()) if other != index
        ):
            span += 1
        placements.append(Placement(column, width, span))
    return placements


def pack_rows(spans: Sequence[tuple[int, int]]) -> list[int]:
    """Rows for day bars ``[first_day, end_day)`` (all-day and multi-day events).

    Longer bars go first among those starting the same day so they stay on top, the way
    printed calendars draw a trip above the single days inside it.
    """
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], -(spans[i][1] - spans[i][0]), i))
    row_ends: list[int] = []
    rows = [0] * len(spans)
    for index in order:
        first, end = spans[index]
        end = max(end, first + 1)
        for row, row_end in enumerate(row_ends):
            if row_end <= first:
                row_ends[row] = end
                rows[index] = row
                break
        else:
            rows[index] = len(row_ends)
            row_ends.append(end)
    return rows


@dataclass(frozen=True)
class DaySegment:
    """The part of a timed event that falls on one visible day, in minutes of that day."""

    day_index: int
    start_minute: int
    end_minute: int
    starts_here: bool
    ends_here: bool


def day_segments(start: datetime, end: datetime, first_day: date, days: int) -> list[DaySegment]:
    """Split a (naive, local) timed event at midnights, keeping only visible days."""
    segments: list[DaySegment] = []
    end = max(end, start)
    day = start.date()
    last = end.date() if end.time() != time(0) or end == start else end.date() - timedelta(days=1)
    while day <= last:
        index = (day - first_day).days
        if 0 <= index < days:
            lo = start if start.date() == day else datetime.combine(day, time(0))
            lo_minute = lo.hour * 60 + lo.minute
            hi_minute = end.hour * 60 + end.minute if end.date() == day else MINUTES_PER_DAY
            segments.append(DaySegment(index, lo_minute, hi_minute, day == start.date(), day == last))
        day += timedelta(days=1)
    return segments


def bar_span(start: date, end: date, first_day: date, days: int) -> tuple[int, int] | None:
    """Visible ``[first, end)`` day indexes of a bar from ``start`` to exclusive ``end``."""
    first = max((start - first_day).days, 0)
    stop = min((max(end, start + timedelta(days=1)) - first_day).days, days)
    return (first, stop) if first < stop else None


def snap(minutes: float, step: int = SNAP_MINUTES) -> int:
    """Nearest multiple of ``step`` (the editor's 15-minute grid)."""
    return int(round(minutes / step)) * step


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))
