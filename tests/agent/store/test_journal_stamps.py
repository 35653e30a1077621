"""The undo journal at the edges of time (issue 19, item 3): a clock at year 1 or 9999 still
writes its row, any stored stamp is shown rather than raised on, and events at the ends of
what ``datetime`` holds are described by an undo without OverflowError."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.store import journal, journal_record
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.journal import local_stamp
from agent.store.profiles import ensure_profile

SHANGHAI = ZoneInfo("Asia/Shanghai")
EAST = timezone(timedelta(hours=8))


def _calendar(store: Store, profile: int) -> int:
    return int(store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile,)).fetchone()[0])


@pytest.mark.parametrize(
    "now",
    [
        datetime(1, 1, 1, 3, 0, tzinfo=EAST),
        datetime(9999, 12, 31, 23, 59, tzinfo=ZoneInfo("America/New_York")),
        datetime(2026, 11, 30, 10, 0),
    ],
)
def test_a_clock_at_the_ends_of_time_still_journals(now: datetime) -> None:
    """Year 1 at +08:00 is year 0 in UTC: ``ValueError: year 0 is out of range`` ended the write."""
    store = Store(":memory:", clock=lambda: now)
    try:
        profile = ensure_profile(store)
        repo = EventRepo(store, profile)
        with store.transaction():
            changes = repo.save(
                build_event("t", datetime(2026, 12, 1, 9, tzinfo=SHANGHAI), datetime(2026, 12, 1, 10, tzinfo=SHANGHAI)),
                _calendar(store, profile),
                "user",
            )
            journal_record.collect(store, profile, changes)
        (entry,) = journal.recent(store, profile)
        assert entry.when(SHANGHAI)  # shown, whatever it is
        assert journal.undo_last(store, profile) is not None
    finally:
        store.close()


@pytest.mark.parametrize(
    ("stamp", "shown"),
    [
        ("2026-11-30T02:00:00+00:00", "2026-11-30 10:00"),
        ("2026-11-30T02:00:00", "2026-11-30 10:00"),  # naive: the journal writes UTC
        ("9999-12-31T23:59:00+00:00", "9999-12-31T23:59:00+00:00"),  # year 10000 in Shanghai
        ("0001-01-01T00:00:00+08:00", "0001-01-01T00:00:00+08:00"),
        ("not a stamp", "not a stamp"),
        ("", ""),
        (None, "None"),
    ],
)
def test_any_stored_stamp_is_shown_never_raised(stamp: object, shown: str) -> None:
    assert local_stamp(stamp, SHANGHAI) == shown


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (datetime(1, 1, 1, 10, tzinfo=UTC), datetime(1, 1, 1, 11, tzinfo=UTC)),
        (datetime(9999, 12, 31, 10, tzinfo=UTC), datetime(9999, 12, 31, 11, tzinfo=UTC)),
        (
            datetime(9999, 12, 31, 10, tzinfo=ZoneInfo("Pacific/Kiritimati")),
            datetime(9999, 12, 31, 11, tzinfo=ZoneInfo("Pacific/Kiritimati")),
        ),
        (datetime(1, 1, 2, 10, tzinfo=ZoneInfo("America/New_York")), datetime(1, 1, 2, 11, tzinfo=ZoneInfo("America/New_York"))),
        (date(1, 1, 1), date(1, 1, 2)),
        (date(9999, 12, 30), date(9999, 12, 31)),
    ],
)
def test_undo_describes_events_at_the_ends_of_time(start: date, end: date) -> None:
    store = Store(":memory:")
    try:
        profile = ensure_profile(store)
        repo = EventRepo(store, profile)
        with store.transaction():
            changes = repo.save(build_event("edge", start, end), _calendar(store, profile), "user")
            journal_record.collect(store, profile, changes)
        done = journal.undo_last(store, profile)
        assert done is not None and [event["title"] for event in done.events] == ["edge"]
        assert done.events[0]["start"][:4] in ("0001", "9999", "0000")
    finally:
        store.close()


def test_an_only_this_occurrence_edit_is_listed_as_an_edit(tmp_path: Path) -> None:
    """Issue 32, defect 13: `undo --list` called an "only this occurrence" edit "create …"."""

    from agent.services.calendars import CalendarService
    from agent.services.editing import EditService, EventDraft

    store = Store(tmp_path / "r.sqlite3")
    try:
        profile = ensure_profile(store)
        tz = ZoneInfo("Asia/Shanghai")
        start = datetime(2026, 12, 1, 15, tzinfo=tz)
        calendar = CalendarService(store, profile).default().id
        edits = EditService(store, profile)
        edits.create(EventDraft("周会", start, start + timedelta(hours=1), calendar, rrule="FREQ=WEEKLY;COUNT=4"))
        occurrences = EventRepo(store, profile).occurrences(start + timedelta(days=6), start + timedelta(days=8), tz)
        moved = start + timedelta(days=7, hours=1)
        edits.edit_one(occurrences[0], EventDraft("周会", moved, moved + timedelta(hours=1), calendar))
        assert journal.recent(store, profile)[0].label.startswith("edit ")
    finally:
        store.close()
