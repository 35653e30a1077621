"""The calendar's pure layout rules: columns for overlapping events, rows for day bars."""

from __future__ import annotations

from datetime import date, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from app.calendar.layout import bar_span, day_segments, pack_rows, place_columns, snap


def overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def test_three_overlapping_events_get_three_columns() -> None:
    placements = place_columns([(540, 630), (600, 690), (615, 645)])
    assert [p.column for p in placements] == [0, 1, 2]
    assert {p.columns for p in placements} == {3}


def test_non_overlapping_events_reuse_columns() -> None:
    # 9-10 and 10-11 touch but do not overlap (half-open); 9:30-10:30 overlaps both.
    placements = place_columns([(540, 600), (600, 660), (570, 630)])
    assert placements[0].column == placements[1].column == 0
    assert placements[2].column == 1
    assert all(p.columns == 2 for p in placements)


def test_separate_clusters_do_not_share_width() -> None:
    placements = place_columns([(0, 60), (30, 90), (600, 660)])
    assert placements[2].columns == 1 and placements[2].column == 0


def test_event_expands_into_free_columns_to_its_right() -> None:
    # Three columns at 9:00; the 10:00 event beside the long one has columns 1 and 2 free.
    placements = place_columns([(540, 660), (540, 600), (540, 570), (600, 660)])
    assert [p.column for p in placements] == [0, 1, 2, 1]
    assert placements[3].span == 2
    assert placements[0].span == placements[1].span == placements[2].span == 1


def test_zero_length_events_still_get_their_own_column_with_min_length() -> None:
    placements = place_columns([(600, 600), (605, 605)], min_length=20)
    assert {p.column for p in placements} == {0, 1}


def test_pack_rows_stacks_overlapping_bars_and_reuses_free_rows() -> None:
    rows = pack_rows([(0, 3), (1, 2), (3, 5), (0, 1)])
    assert rows[0] != rows[1] and rows[0] != rows[3]
    assert rows[2] == 0  # starts after the first bar ended


def test_day_segments_split_at_midnight_and_clip_to_visible_days() -> None:
    first = date(2026, 11, 30)
    parts = day_segments(datetime(2026, 11, 30, 22), datetime(2026, 12, 1, 2), first, 7)
    assert [(p.day_index, p.start_minute, p.end_minute) for p in parts] == [(0, 1320, 1440), (1, 0, 120)]
    assert parts[0].starts_here and not parts[0].ends_here and parts[1].ends_here
    ends_at_midnight = day_segments(datetime(2026, 11, 30, 22), datetime(2026, 12, 1, 0), first, 7)
    assert len(ends_at_midnight) == 1 and ends_at_midnight[0].ends_here
    assert day_segments(datetime(2026, 11, 29, 9), datetime(2026, 11, 29, 10), first, 7) == []


def test_bar_span_and_snap() -> None:
    first = date(2026, 11, 30)
    assert bar_span(date(2026, 11, 26), date(2026, 12, 1), first, 7) == (0, 1)
    assert bar_span(date(2026, 12, 6), date(2026, 12, 9), first, 7) == (6, 7)
    assert bar_span(date(2026, 12, 7), date(2026, 12, 8), first, 7) is None
    assert [snap(m) for m in (0, 7, 8, 22, 23, 61)] == [0, 0, 15, 15, 30, 60]


intervals = st.lists(
    st.tuples(st.integers(0, 1440), st.integers(0, 240)).map(lambda t: (t[0], t[0] + t[1])),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(intervals, st.sampled_from([0, 15, 20]))
def test_no_two_overlapping_events_share_a_column(spans: list[tuple[int, int]], min_length: int) -> None:
    placements = place_columns(spans, min_length)
    drawn = [(s, max(e, s + min_length)) for s, e in spans]
    for i in range(len(spans)):
        assert 0 <= placements[i].column < placements[i].columns
        assert placements[i].column + placements[i].span <= placements[i].columns
        for j in range(i + 1, len(spans)):
            if overlaps(drawn[i], drawn[j]):
                assert placements[i].column != placements[j].column
                assert placements[i].columns == placements[j].columns
                # Expanded widths never cover another overlapping event's column either.
                a = range(placements[i].column, placements[i].column + placements[i].span)
                b = range(placements[j].column, placements[j].column + placements[j].span)
                assert not set(a) & set(b)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(1, 7)).map(lambda t: (t[0], min(t[0] + t[1], 7))), max_size=30))
def test_no_two_overlapping_bars_share_a_row(spans: list[tuple[int, int]]) -> None:
    rows = pack_rows(spans)
    for i in range(len(spans)):
        for j in range(i + 1, len(spans)):
            if overlaps(spans[i], spans[j]):
                assert rows[i] != rows[j]
