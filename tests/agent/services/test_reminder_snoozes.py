"""Snoozed reminders in the store (migration 5) and the next fire time the app sleeps until."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from agent.services.calendars import CalendarService
from agent.services.editing import EditService, EventDraft
from agent.services.reminders import (
    clear_snooze,
    due_reminders,
    due_snoozes,
    next_fire_after,
    snooze,
    snoozed_until,
)
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI


def _setup(path: Path) -> tuple[Store, int]:
    store = Store(path)
    profile = ensure_profile(store)
    calendar = CalendarService(store, profile).default().id
    start = datetime(2026, 12, 2, 14, 0, tzinfo=SHANGHAI)
    EditService(store, profile).create(EventDraft("牙医复诊", start, start + timedelta(hours=1), calendar, alarm_minutes=(15,)))
    weekly = datetime(2026, 12, 3, 9, 0, tzinfo=SHANGHAI)
    EditService(store, profile).create(
        EventDraft("周会", weekly, weekly + timedelta(hours=1), calendar, rrule="FREQ=WEEKLY", alarm_minutes=(5,))
    )
    return store, profile


def test_next_fire_after_is_the_exact_alarm_instant(tmp_path: Path) -> None:
    store, profile = _setup(tmp_path / "r.sqlite3")
    try:
        now = datetime(2026, 12, 2, 9, 0, tzinfo=SHANGHAI)
        assert next_fire_after(store, profile, now, SHANGHAI) == datetime(2026, 12, 2, 13, 45, tzinfo=SHANGHAI)
        after = datetime(2026, 12, 2, 13, 45, tzinfo=SHANGHAI)  # exclusive: the next one after
        assert next_fire_after(store, profile, after, SHANGHAI) == datetime(2026, 12, 3, 8, 55, tzinfo=SHANGHAI)
        assert next_fire_after(store, profile, after, SHANGHAI, horizon=timedelta(hours=1)) is None
    finally:
        store.close()


def test_a_snooze_fires_again_outlives_a_restart_and_is_cleared(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    store, profile = _setup(path)
    fired_at = datetime(2026, 12, 2, 13, 45, tzinfo=SHANGHAI)
    ((occ, _fire),) = [item for item in due_reminders(store, profile, fired_at - timedelta(seconds=1), fired_at, SHANGHAI)]
    until = fired_at + timedelta(minutes=10)
    snooze(store, profile, occ, until, fired_at)
    assert snoozed_until(store, profile, occ) == until
    assert next_fire_after(store, profile, fired_at, SHANGHAI) == until, "the snooze is the next thing to fire"
    store.close()

    store = Store(path)  # a restart
    try:
        assert due_snoozes(store, profile, fired_at, until - timedelta(seconds=1), SHANGHAI) == []
        ((again, fire),) = due_snoozes(store, profile, fired_at, until, SHANGHAI)
        assert again.title == "牙医复诊" and fire == until
        snooze(store, profile, again, until + timedelta(minutes=5), until)  # snoozed again: one row
        assert store.conn.execute("SELECT COUNT(*) FROM reminder_snoozes").fetchone()[0] == 1
        clear_snooze(store, profile, again)
        assert due_snoozes(store, profile, fired_at, until + timedelta(hours=1), SHANGHAI) == []
    finally:
        store.close()


def test_a_snooze_of_a_deleted_event_fires_nothing(tmp_path: Path) -> None:
    store, profile = _setup(tmp_path / "r.sqlite3")
    try:
        fired_at = datetime(2026, 12, 3, 8, 55, tzinfo=SHANGHAI)
        ((occ, _),) = due_reminders(store, profile, fired_at - timedelta(seconds=1), fired_at, SHANGHAI)
        snooze(store, profile, occ, fired_at + timedelta(minutes=5), fired_at)
        EditService(store, profile).delete(occ, "this")
        assert due_snoozes(store, profile, fired_at, fired_at + timedelta(hours=1), SHANGHAI) == []
    finally:
        store.close()
