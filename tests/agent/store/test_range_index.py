"""The range query's interval index (migration 6): long occurrences come from an R*Tree,
short ones from the start_ts index, and the answer is the exact half-open overlap.

Checked against a brute-force reading of the occurrences table (the definition of the
query), on boundaries, at the LONG_SPAN threshold, past 2038 where R*Tree's 32-bit boxes
are coarse, for floating and zoned rows, through every writer (save, delete, import,
cascade), and on a real file migrated from schema 5.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from agent.ics.importer import import_bytes
from agent.services.calendars import CalendarService
from agent.store.components import EPOCH, build_event, wall_seconds
from agent.store.db import Store
from agent.store.events import LONG_SPAN, EventRepo
from agent.store.migrations import known_version
from agent.store.occurrence import Occurrence
from agent.store.profiles import ensure_profile
from tests.support.clock import NEW_YORK, NOW, SHANGHAI
from tests.support.old_store import make_previous_store

UTC = UTC


def save(store: Store, profile: int, component: icalendar.Event) -> None:
    with store.transaction():
        EventRepo(store, profile).save(component, CalendarService(store, profile).default().id, "user")


def keys(found: list[Occurrence]) -> set[tuple[str, str]]:
    return {(o.uid, o.start.isoformat()) for o in found}


def brute_force(store: Store, profile: int, start: datetime, end: datetime, tz: ZoneInfo) -> set[tuple[int, int, int]]:
    """(event id, floating, start_ts) of every occurrence overlapping [start, end), read row
    by row in Python: ``start < end_q AND (end > start_q OR zero-length starting inside)``."""
    windows = {
        0: (int(start.timestamp()), int(end.timestamp())),
        1: (wall_seconds(start.astimezone(tz)), wall_seconds(end.astimezone(tz))),
    }
    out = set()
    for event_id, floating, s, e in store.conn.execute(
        "SELECT event_id, floating, start_ts, end_ts FROM occurrences WHERE profile_id = ?", (profile,)
    ):
        lo, hi = windows[floating]
        if s < hi and (e > lo or (e == s and s >= lo)):
            out.add((event_id, floating, s))
    return out


def indexed(store: Store, profile: int, start: datetime, end: datetime, tz: ZoneInfo) -> set[tuple[int, int, int]]:
    found = EventRepo(store, profile).occurrences(start, end, tz)
    out = set()
    for o in found:
        if o.floating:
            moment = o.start if isinstance(o.start, datetime) else datetime(o.start.year, o.start.month, o.start.day)
            out.add((o.event_id, 1, int((moment.replace(tzinfo=None) - EPOCH).total_seconds())))
        else:
            out.add((o.event_id, 0, int(o.start.timestamp())))  # type: ignore[union-attr]
    assert len(found) == len(out), "an occurrence came back twice"
    return out


def span_ids(store: Store) -> set[int]:
    return {row[0] for row in store.conn.execute("SELECT id FROM occurrences_span")}


def long_ids(store: Store) -> set[int]:
    return {row[0] for row in store.conn.execute("SELECT id FROM occurrences WHERE end_ts - start_ts > ?", (LONG_SPAN,))}


@pytest.fixture
def file_store(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = Store(tmp_path / "richeng.sqlite3", backups=False)
    yield store
    store.close()


def test_a_multi_year_note_and_a_trip_show_in_every_month_inside_them(file_store: Store) -> None:
    profile = ensure_profile(file_store)
    save(file_store, profile, build_event("博士 PhD", date(2019, 9, 1), date(2024, 7, 1), uid="phd", stamp=NOW))
    trip = datetime(2026, 12, 3, 8, 0, tzinfo=SHANGHAI)
    save(file_store, profile, build_event("旅行 trip", trip, trip + timedelta(weeks=5), uid="trip", stamp=NOW))
    save(
        file_store,
        profile,
        build_event(
            "lunch",
            datetime(2026, 12, 10, 12, tzinfo=SHANGHAI),
            datetime(2026, 12, 10, 13, tzinfo=SHANGHAI),
            uid="lunch",
            stamp=NOW,
        ),
    )
    repo = EventRepo(file_store, profile)
    month = lambda y, m: (datetime(y, m, 1, tzinfo=SHANGHAI), datetime(y + m // 12, m % 12 + 1, 1, tzinfo=SHANGHAI))  # noqa: E731
    assert {o.uid for o in repo.occurrences(*month(2022, 3), SHANGHAI)} == {"phd"}
    assert {o.uid for o in repo.occurrences(*month(2024, 6), SHANGHAI)} == {"phd"}
    assert {o.uid for o in repo.occurrences(*month(2024, 7), SHANGHAI)} == set()  # DTEND is exclusive
    assert {o.uid for o in repo.occurrences(*month(2019, 8), SHANGHAI)} == set()
    assert {o.uid for o in repo.occurrences(*month(2026, 12), SHANGHAI)} == {"trip", "lunch"}
    assert {o.uid for o in repo.occurrences(*month(2027, 1), SHANGHAI)} == {"trip"}
    assert long_ids(file_store) == span_ids(file_store) and len(span_ids(file_store)) == 2


def test_boundaries_are_half_open_for_long_events(file_store: Store) -> None:
    profile = ensure_profile(file_store)
    start, end = datetime(2026, 12, 1, 9, tzinfo=UTC), datetime(2026, 12, 20, 9, 0, 37, tzinfo=UTC)
    save(file_store, profile, build_event("long", start, end, uid="long", stamp=NOW))
    repo = EventRepo(file_store, profile)
    second = timedelta(seconds=1)
    assert repo.occurrences(end, end + timedelta(days=1), UTC) == []  # ends where the window starts
    assert [o.uid for o in repo.occurrences(end - second, end + timedelta(days=1), UTC)] == ["long"]
    assert repo.occurrences(start - timedelta(days=1), start, UTC) == []  # starts where the window ends
    assert [o.uid for o in repo.occurrences(start - timedelta(days=1), start + second, UTC)] == ["long"]


def test_the_long_span_threshold_loses_nothing_on_either_side(file_store: Store) -> None:
    """A row of exactly LONG_SPAN is short (start_ts index from LONG_SPAN before the window);
    one second more is long (the tree). Each is found by a window on its last second."""
    profile = ensure_profile(file_store)
    base = datetime(2026, 12, 1, 0, 0, 13, tzinfo=UTC)
    for n, length in enumerate((LONG_SPAN - 1, LONG_SPAN, LONG_SPAN + 1)):
        begin = base + timedelta(days=10 * n)
        save(file_store, profile, build_event(f"e{n}", begin, begin + timedelta(seconds=length), uid=f"e{n}", stamp=NOW))
        last = begin + timedelta(seconds=length - 1)
        found = EventRepo(file_store, profile).occurrences(last, last + timedelta(hours=1), UTC)
        assert [o.uid for o in found] == [f"e{n}"], length
    assert len(span_ids(file_store)) == 1 and span_ids(file_store) == long_ids(file_store)


def test_past_2038_the_coarse_tree_boxes_are_refiltered_exactly(file_store: Store) -> None:
    """Near 2040 a 32-bit float steps by 256 s: the tree's box ends up to 255 s late, and the
    exact integer test must still drop an event that ended before the window."""
    profile = ensure_profile(file_store)
    start = datetime(2040, 3, 1, 0, 0, 1, tzinfo=UTC)
    end = datetime(2040, 3, 20, 0, 0, 1, tzinfo=UTC)  # not a multiple of 256 s
    save(file_store, profile, build_event("2040", start, end, uid="far", stamp=NOW))
    (box_end,) = file_store.conn.execute("SELECT span_end FROM occurrences_span").fetchone()
    assert box_end > end.timestamp()  # the box really is wider: the exact test is needed
    repo = EventRepo(file_store, profile)
    assert repo.occurrences(end, end + timedelta(minutes=2), UTC) == []
    assert [o.uid for o in repo.occurrences(end - timedelta(seconds=1), end + timedelta(minutes=2), UTC)] == ["far"]
    assert repo.occurrences(start - timedelta(minutes=2), start, UTC) == []


def test_floating_long_events_keep_their_dates_in_any_zone(file_store: Store) -> None:
    profile = ensure_profile(file_store)
    save(file_store, profile, build_event("假期 holiday", date(2026, 12, 24), date(2027, 1, 4), uid="hol", stamp=NOW))
    zoned = datetime(2026, 12, 24, tzinfo=SHANGHAI)  # the same dates pinned to Shanghai
    save(file_store, profile, build_event("zoned", zoned, zoned + timedelta(days=11), uid="zoned", stamp=NOW))
    repo = EventRepo(file_store, profile)
    for tz in (SHANGHAI, NEW_YORK):
        day = datetime(2027, 1, 3, tzinfo=tz)
        found = {o.uid: o for o in repo.occurrences(day, day + timedelta(days=1), tz)}
        assert found["hol"].start == date(2026, 12, 24) and found["hol"].end == date(2027, 1, 4)
        after = datetime(2027, 1, 4, tzinfo=tz)
        late = {o.uid for o in repo.occurrences(after, after + timedelta(days=1), tz)}
        assert "hol" not in late and "zoned" not in late
        # The zoned copy ends at Shanghai's 01-04 00:00, New York's 01-03 11:00; the
        # floating one at 01-04 00:00 wherever the user is.
        noon = datetime(2027, 1, 3, 12, tzinfo=tz)
        at_noon = {o.uid for o in repo.occurrences(noon, noon + timedelta(hours=1), tz)}
        assert at_noon == ({"hol"} if tz is NEW_YORK else {"hol", "zoned"})


def test_random_windows_match_a_brute_force_reading(file_store: Store) -> None:
    """Singles short and long, zero-length, floating and zoned, a long weekly series and a
    second profile: the indexed query equals the definition on 300 random windows."""
    rng = random.Random(7)
    profile = ensure_profile(file_store)
    other = ensure_profile(file_store, "other")
    zones = (SHANGHAI, NEW_YORK, ZoneInfo("UTC"))
    for n in range(160):
        who = other if n % 9 == 0 else profile
        day = date(2025, 1, 1) + timedelta(days=rng.randrange(900))
        kind = n % 4
        if kind == 0:  # all-day, 1 day to 3 years
            length = rng.choice([1, 2, 3, 20, 400, 1100])
            component = build_event(f"d{n}", day, day + timedelta(days=length), uid=f"u{n}", stamp=NOW)
        else:
            start = datetime(
                day.year,
                day.month,
                day.day,
                rng.randrange(24),
                rng.randrange(60),
                tzinfo=zones[n % len(zones)] if kind != 3 else None,
            )
            seconds = rng.choice([0, 1800, LONG_SPAN, LONG_SPAN + 1, 86400 * 9, 86400 * 60])
            component = build_event(f"t{n}", start, start + timedelta(seconds=seconds), uid=f"u{n}", stamp=NOW)
        if n % 23 == 0:
            component.add("RRULE", icalendar.vRecur.from_ical("FREQ=WEEKLY;COUNT=30"))
        save(file_store, who, component)
    assert span_ids(file_store) == long_ids(file_store) and span_ids(file_store)
    for _ in range(300):
        tz = rng.choice(zones)
        start = datetime(2025, 1, 1, tzinfo=tz) + timedelta(seconds=rng.randrange(86400 * 1000))
        end = start + timedelta(seconds=rng.choice([1, 3600, 86400, LONG_SPAN, 86400 * 31, 86400 * 400]))
        assert indexed(file_store, profile, start, end, tz) == brute_force(file_store, profile, start, end, tz)


def test_every_writer_keeps_the_tree_in_step(file_store: Store) -> None:
    """save, re-save (a shorter event), delete, an ICS import, and a calendar's cascade."""
    profile = ensure_profile(file_store)
    repo = EventRepo(file_store, profile)
    long_trip = datetime(2026, 12, 1, 9, tzinfo=SHANGHAI)
    save(file_store, profile, build_event("trip", long_trip, long_trip + timedelta(weeks=3), uid="trip", stamp=NOW))
    assert len(span_ids(file_store)) == 1
    save(file_store, profile, build_event("trip", long_trip, long_trip + timedelta(hours=2), uid="trip", stamp=NOW))
    assert span_ids(file_store) == set() == long_ids(file_store)
    save(file_store, profile, build_event("trip", long_trip, long_trip + timedelta(weeks=3), uid="trip", stamp=NOW))
    with file_store.transaction():
        repo.delete("trip")
    assert span_ids(file_store) == set()
    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:imp\r\nDTSTAMP:20250101T000000Z\r\n"
        "SUMMARY:Sabbatical\r\nDTSTART;VALUE=DATE:20270101\r\nDTEND;VALUE=DATE:20280101\r\n"
        "RRULE:FREQ=YEARLY;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    import_bytes(file_store, profile, text.encode(), "假期")
    assert span_ids(file_store) == long_ids(file_store) and span_ids(file_store)
    july = datetime(2028, 7, 1, tzinfo=SHANGHAI)
    assert [o.title for o in repo.occurrences(july, july + timedelta(days=1), SHANGHAI)] == ["Sabbatical"]
    CalendarService(file_store, profile).delete("假期")
    assert span_ids(file_store) == set() == long_ids(file_store)


def _old_events() -> list[icalendar.Event]:
    trip = datetime(2026, 12, 5, 7, tzinfo=NEW_YORK)
    call = datetime(2026, 12, 8, 9, tzinfo=SHANGHAI)
    return [
        build_event("note", date(2007, 1, 1), date(2031, 1, 1), uid="note", stamp=NOW),
        build_event("trip", trip, trip + timedelta(weeks=2), uid="trip", stamp=NOW),
        build_event("call", call, call + timedelta(hours=1), uid="call", stamp=NOW),
    ]


def test_a_schema_5_file_gains_the_tree_and_answers_the_same(tmp_path: Path) -> None:
    """m006_occurrences_span on a file a schema-5 release left, with a note, a trip and a
    call already in it: the tree gets the long ones, and the answer is a new file's."""
    window = (datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2027, 1, 1, tzinfo=SHANGHAI))
    with Store(":memory:") as fresh:
        fresh_profile = ensure_profile(fresh)
        for component in _old_events():
            save(fresh, fresh_profile, component)
        expected = keys(EventRepo(fresh, fresh_profile).occurrences(*window, SHANGHAI))
    path = make_previous_store(tmp_path / "old.sqlite3", migrations=5, events=_old_events())
    plain = sqlite3.connect(path)
    assert plain.execute("SELECT MAX(version) FROM schema_migrations").fetchone() == (5,)
    assert plain.execute("SELECT 1 FROM sqlite_master WHERE name = 'occurrences_span'").fetchone() is None
    assert plain.execute("SELECT 1 FROM sqlite_master WHERE name = 'occurrences_length'").fetchone() is not None
    plain.close()
    store = Store(path, backups=False)
    try:
        assert store.schema_version() == known_version()
        profile = ensure_profile(store)
        assert span_ids(store) == long_ids(store) and len(span_ids(store)) == 2
        assert store.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'occurrences_length'").fetchone() is None
        after = keys(EventRepo(store, profile).occurrences(*window, SHANGHAI))
        assert after == expected and {uid for uid, _ in after} == {"note", "trip", "call"}
        assert indexed(store, profile, *window, SHANGHAI) == brute_force(store, profile, *window, SHANGHAI)
        # and the triggers work from here on
        save(store, profile, build_event("later", date(2027, 2, 1), date(2027, 3, 1), uid="later", stamp=NOW))
        assert span_ids(store) == long_ids(store) and len(span_ids(store)) == 3
    finally:
        store.close()
