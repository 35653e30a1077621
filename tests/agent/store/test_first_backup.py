"""A database created today gets its first backup as soon as it holds an event, and a daily
one at close when none was made that day (issue 19, item 0): the user who met a damaged file
on its first day had no backup at all, since backups were made only at the first open of a
later day."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from agent.store.backups import list_backups
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.chat_fixtures import add_event
from tests.support.clock import SHANGHAI, SetClock

DAY1 = datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)


@pytest.fixture(autouse=True)
def _backups_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")


def test_a_new_database_is_backed_up_once_it_holds_an_event(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    store = Store(db, clock=SetClock(DAY1))
    profile = ensure_profile(store)
    assert list_backups(db) == []  # calendars and settings alone: nothing worth a copy yet
    add_event(store, profile, "第一个日程", DAY1 + timedelta(hours=2), DAY1 + timedelta(hours=3))
    (first,) = list_backups(db)
    assert first.kind == "daily"
    add_event(store, profile, "第二个", DAY1 + timedelta(hours=4), DAY1 + timedelta(hours=5))
    store.close()
    assert len(list_backups(db)) == 1  # one a day: neither the second write nor the close adds one


def test_close_makes_the_days_backup_when_the_app_ran_past_midnight(tmp_path: Path) -> None:
    db = tmp_path / "long.sqlite3"
    clock = SetClock(DAY1)
    store = Store(db, clock=clock)
    profile = ensure_profile(store)
    add_event(store, profile, "会", DAY1 + timedelta(hours=2), DAY1 + timedelta(hours=3))
    clock.now = DAY1 + timedelta(days=1, hours=1)  # still open the next morning
    store.close()
    assert [b.created.astimezone(SHANGHAI).date() for b in list_backups(db)] == [
        (DAY1 + timedelta(days=1)).date(),
        DAY1.date(),
    ]


def test_an_empty_database_is_not_backed_up_at_close(tmp_path: Path) -> None:
    db = tmp_path / "empty.sqlite3"
    store = Store(db, clock=SetClock(DAY1))
    ensure_profile(store)
    store.close()
    assert list_backups(db) == []
