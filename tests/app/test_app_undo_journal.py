"""The app's Ctrl+Z and the store's undo journal agree (``app/write_path.py``).

Ctrl+Z reverts the journal's newest open change (the window keeps no stack of its own), so
an undo made in the window shows as undone in ``journal`` (and ``richeng undo --list``) and
after a restart, a redo puts the change back in force, and a change undone from the CLI is
not undone twice by the app: the window's next undo is the journal's next change.
Real SQLite file, fixed service clock; Operations is a QObject and needs no window.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from agent.services.calendars import CalendarService
from agent.services.editing import EventDraft
from agent.store import journal, journal_record
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from app.write_path import Operations
from tests.support.clock import NOW, SHANGHAI


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "app.sqlite3", clock=lambda: NOW)
    yield s
    s.close()


def titles(store: Store) -> list[str]:
    return sorted(r[0] for r in store.conn.execute("SELECT title FROM events"))


def draft(store: Store, pid: int, title: str) -> EventDraft:
    calendar = CalendarService(store, pid).default()
    return EventDraft(title, datetime(2026, 12, 1, 9, tzinfo=SHANGHAI), datetime(2026, 12, 1, 10, tzinfo=SHANGHAI), calendar.id)


def test_ctrl_z_marks_the_journal_and_redo_restores_it(store: Store) -> None:
    pid = ensure_profile(store)
    ops = Operations(store, pid)
    ops.create(draft(store, pid, "一"))
    ops.create(draft(store, pid, "二"))
    first, second = sorted(e.id for e in journal.recent(store, pid))
    assert ops.undo() is not None and titles(store) == ["一"]
    assert journal.is_undone(store, second) and not journal.is_undone(store, first)
    assert ops.redo() is not None and titles(store) == ["一", "二"]
    assert not journal.is_undone(store, second)
    assert ops.undo() is not None and journal.is_undone(store, second)  # the redone change, again
    restarted = Operations(store, pid)  # a new window: the journal still knows what is open
    assert journal.undoable(store, pid).id == first  # type: ignore[union-attr]
    assert restarted.undo() is not None and titles(store) == []  # the journal is the history, not a window


def test_undo_specific_of_a_receipt_uses_the_journal(store: Store) -> None:
    pid = ensure_profile(store)
    ops = Operations(store, pid)
    reverted: list[Any] = []
    ops.reverted.connect(reverted.append)
    changes = ops.create(draft(store, pid, "会"))
    assert changes is not None
    change_id = journal.find(store, pid, changes)
    assert change_id is not None and ops.undo_specific(changes) is not None
    assert titles(store) == [] and journal.is_undone(store, change_id) and reverted == [changes]


def test_a_change_undone_from_the_cli_is_not_undone_twice(store: Store) -> None:
    pid = ensure_profile(store)
    ops = Operations(store, pid)
    failures: list[str] = []
    ops.failed.connect(failures.append)
    ops.create(draft(store, pid, "甲"))
    ops.create(draft(store, pid, "乙"))
    journal.undo_last(store, pid, origin="cli")  # `richeng undo` in a terminal took 乙 back
    assert titles(store) == ["甲"]
    assert ops.undo() is not None and titles(store) == [] and not failures  # the journal's next step: 甲


def test_a_step_edited_since_elsewhere_is_refused_whole(store: Store) -> None:
    pid = ensure_profile(store)
    ops = Operations(store, pid)
    failures: list[str] = []
    ops.failed.connect(failures.append)
    changes = ops.create(draft(store, pid, "会"))
    assert changes is not None
    uid = changes.created[0].uid
    with journal_record.origin(store, "sync"):  # the server renamed it meanwhile
        from agent.services.editing import EditService

        EditService(store, pid).replace(uid, draft(store, pid, "会（改）"))
    assert ops.undo() is None and titles(store) == ["会（改）"]
    assert failures and "changed since" in failures[-1]


def ics(uid: str, title: str, sequence: int = 0) -> bytes:
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\n"
        f"UID:{uid}\r\nDTSTAMP:20261101T000000Z\r\nSEQUENCE:{sequence}\r\n"
        "DTSTART;TZID=Asia/Shanghai:20261202T140000\r\nDTEND;TZID=Asia/Shanghai:20261202T150000\r\n"
        f"SUMMARY:{title}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    ).encode()


def test_an_app_import_of_two_files_is_one_step_over_two_journal_rows(store: Store) -> None:
    from agent.ics.importer import import_bytes
    from agent.store.changes import ChangeSet

    pid = ensure_profile(store)
    ops = Operations(store, pid)
    merged = ChangeSet()
    for name in ("a", "b"):
        merged.extend(import_bytes(store, pid, ics(f"{name}@t", f"文件{name}"), source_name=f"{name}.ics").changes)
    ops.record_import(merged)
    ids = [e.id for e in journal.recent(store, pid)]
    assert len(ids) == 2 and titles(store) == ["文件a", "文件b"]
    assert ops.undo() is not None and titles(store) == []
    assert all(journal.is_undone(store, i) for i in ids)
    assert ops.redo() is not None and titles(store) == ["文件a", "文件b"]
    assert not any(journal.is_undone(store, i) for i in ids)
    assert journal.recent(store, pid)[0].label == "redo #2: import b.ics + #1"


def test_a_reimport_after_restart_undoes_only_itself(store: Store) -> None:
    from agent.ics.importer import import_bytes

    pid = ensure_profile(store)
    Operations(store, pid).record_import(import_bytes(store, pid, ics("r@t", "旧")).changes)
    ops = Operations(store, pid)  # restarted: the first import is not on this stack
    ops.record_import(import_bytes(store, pid, ics("r@t", "新", sequence=3)).changes)
    first, second = sorted(e.id for e in journal.recent(store, pid))
    assert ops.undo() is not None and titles(store) == ["旧"]
    assert journal.is_undone(store, second) and not journal.is_undone(store, first)
