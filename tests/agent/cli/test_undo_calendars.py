"""Creating and deleting a calendar are journal entries (issue 28, item 4).

Before, a calendar deletion went outside the journal (its events by cascade), so
``richeng undo`` could not bring it back and took back an older change instead; only the
window that deleted it could. Now the calendar row and its events' before-images are one
entry, reverted exactly or not at all, and redo reads the journal too.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from agent.cli.main import main
from agent.errors import JournalError
from agent.ics.importer import import_bytes
from agent.services.calendars import CalendarService
from agent.services.collection import CalendarCollection
from agent.services.editing import EventDraft
from agent.store import journal
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "cal.sqlite3", clock=lambda: NOW)
    yield s
    s.close()


@pytest.fixture
def pid(store: Store) -> int:
    return ensure_profile(store)


def at(day: int, hour: int) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=SHANGHAI)


def state(store: Store) -> tuple[Any, ...]:
    calendars = sorted(
        tuple(r) for r in store.conn.execute("SELECT id, name, color, is_default, visible, created_at FROM calendars")
    )
    events = sorted(tuple(r) for r in store.conn.execute("SELECT uid, recurrence_id, calendar_id, origin, ics FROM events"))
    instances = store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0]
    return calendars, events, instances


def family(store: Store, pid: int) -> CalendarCollection:
    collection = CalendarCollection(store, pid)
    calendar = collection.add_calendar("家庭", "#10b981", default=True).calendar
    assert calendar is not None
    collection.create(EventDraft("Piano", at(7, 15), at(7, 16), calendar.id, rrule="FREQ=WEEKLY;COUNT=4"))
    collection.create(EventDraft("Dinner", at(8, 19), at(8, 20), calendar.id, location="家"))
    return collection


def test_undo_last_restores_a_deleted_calendar_with_its_events_exactly(store: Store, pid: int) -> None:
    collection = family(store, pid)
    before = state(store)
    deleted = collection.delete_calendar("家庭")
    assert deleted.journal_id is not None and len(deleted.events.deleted) == 2
    assert [c.name for c in CalendarService(store, pid).list()] == ["日程"]
    entry = journal.recent(store, pid)[0]
    assert (entry.label, entry.deleted) == ("delete calendar 家庭", 2)
    result = journal.undo_last(store, pid, origin="cli")
    assert result is not None and result.entry.id == deleted.journal_id
    assert result.calendars == [{"action": "restored", "name": "家庭"}]
    assert state(store) == before  # same id, colour, default flag, created_at; same rows and instances


def test_redo_deletes_it_again_and_a_new_change_ends_the_redo_chain(store: Store, pid: int) -> None:
    collection = family(store, pid)
    collection.delete_calendar("家庭")
    undone = collection.undo()
    assert undone is not None and undone.calendars and collection.redoable() is not None
    redone = collection.redo()
    assert redone is not None and [c.name for c in CalendarService(store, pid).list()] == ["日程"]
    collection.undo()
    collection.create(EventDraft("New", at(9, 9), at(9, 10), CalendarService(store, pid).default().id))
    assert collection.redoable() is None  # a change since the undo: nothing to redo


def test_a_name_taken_again_refuses_the_restore_and_changes_nothing(store: Store, pid: int) -> None:
    collection = family(store, pid)
    deleted = collection.delete_calendar("家庭")
    collection.add_calendar("家庭")
    before = state(store)
    assert deleted.journal_id is not None
    with pytest.raises(JournalError) as refused:
        journal.revert(store, pid, deleted.journal_id)
    assert "家庭" in str(refused.value) and state(store) == before


def test_a_created_calendar_is_undone_unless_events_were_added_to_it_since(store: Store, pid: int) -> None:
    collection = CalendarCollection(store, pid)
    made = collection.add_calendar("工作")
    assert made.calendar is not None and made.journal_id is not None
    collection.create(EventDraft("Review", at(9, 9), at(9, 10), made.calendar.id))
    before = state(store)
    with pytest.raises(JournalError):  # taken out of order: the calendar holds an event made since
        journal.revert(store, pid, made.journal_id)
    assert state(store) == before
    collection.undo()  # journal order: the event first
    collection.undo()  # then the calendar
    assert [c.name for c in CalendarService(store, pid).list()] == ["日程"]
    collection.redo()
    assert sorted(c.name for c in CalendarService(store, pid).list()) == ["工作", "日程"]


def test_an_import_that_made_a_calendar_takes_it_back_and_redo_brings_both(store: Store, pid: int) -> None:
    ics = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:i@t\r\nDTSTAMP:20261101T000000Z\r\n"
        "DTSTART;TZID=Asia/Shanghai:20261202T140000\r\nDTEND;TZID=Asia/Shanghai:20261202T150000\r\n"
        "SUMMARY:导入\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    ).encode()
    before = state(store)
    import_bytes(store, pid, ics, calendar_name="Google")
    assert journal.undo_last(store, pid) is not None
    assert state(store) == before
    collection = CalendarCollection(store, pid)
    collection.redo()
    assert sorted(c.name for c in CalendarService(store, pid).list()) == ["Google", "日程"]
    assert store.conn.execute("SELECT title FROM events").fetchall()[0][0] == "导入"


def test_joined_entries_are_one_undo_for_the_cli_too(store: Store, pid: int) -> None:
    collection = CalendarCollection(store, pid)
    default = CalendarService(store, pid).default().id
    first = collection.create(EventDraft("甲", at(9, 9), at(9, 10), default)).journal_id
    second = collection.create(EventDraft("乙", at(9, 11), at(9, 12), default)).journal_id
    assert first is not None and second is not None
    journal.join(store, [first, second])
    assert journal.group_of(store, second) == [second, first]
    result = journal.undo_last(store, pid)
    assert result is not None and store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
    assert journal.is_undone(store, first) and journal.is_undone(store, second)


def test_richeng_undo_prints_the_calendar_it_restored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.sqlite3"
    store = Store(db, clock=lambda: NOW)
    pid = ensure_profile(store)
    family(store, pid).delete_calendar("家庭")
    store.close()
    assert main(["--db", str(db), "--now", "2026-11-30T10:00:00+08:00", "undo"]) == 0
    out = capsys.readouterr().out
    assert "delete calendar 家庭" in out and "已恢复/Restored: 日历/calendar 家庭" in out
    assert "Dinner" in out and "Piano" in out


def test_a_created_calendar_mapped_to_a_server_is_not_removed_by_undo(store: Store, pid: int) -> None:
    """Removing it would drop its sync mapping by cascade, and a redo could not bring that back."""
    collection = CalendarCollection(store, pid)
    made = collection.add_calendar("Remote")
    assert made.calendar is not None and made.journal_id is not None
    with store.transaction() as conn:
        account = conn.execute(
            "INSERT INTO sync_accounts(profile_id, name, url, username, created_at)"
            " VALUES (?, 'a', 'http://127.0.0.1/', 'u', 'now')",
            (pid,),
        ).lastrowid
        conn.execute(
            "INSERT INTO sync_calendars(account_id, remote_url, calendar_id, created_at)"
            " VALUES (?, 'http://127.0.0.1/c/', ?, 'now')",
            (account, made.calendar.id),
        )
    before = state(store)
    with pytest.raises(JournalError) as refused:
        collection.undo()
    assert "Remote" in str(refused.value) and state(store) == before
