"""The store against a file system that misbehaves (issue 29): a database swapped by rename
under an open store, a disk that fills, a folder that turns read-only, a clock that jumps
over the backups and the undo journal, a umask that would make everything world-readable,
and the leftovers of a killed backup or restore.

Mount-based tests use a small tmpfs (tests/support/tmpfs.py) and skip where mounting is not
permitted. Every decision reads an injected clock."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from agent import files
from agent.errors import StoreError
from agent.store import journal, journal_record
from agent.store.backups import list_backups, make_backup, restore
from agent.store.components import build_event
from agent.store.db import ReadOnlyStoreError, Store
from agent.store.events import EventRepo
from agent.store.file_check import default_db_path, inspect_file
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI, SetClock
from tests.support.store_files import make_store, sha256
from tests.support.tmpfs import fill, read_only, small_tmpfs

DAY1 = datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)


@pytest.fixture(autouse=True)
def _backups_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")


def events_in(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    finally:
        conn.close()


def add_event(store: Store, title: str, when: datetime = DAY1) -> None:
    profile = ensure_profile(store)
    calendar = store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile,)).fetchone()[0]
    repo = EventRepo(store, profile)
    with store.transaction():
        changes = repo.save(build_event(title, when, when + timedelta(hours=1)), calendar, "user")
        journal_record.collect(store, profile, changes)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ---- item 2: a database replaced by rename while a store holds it --------------------------


def test_a_database_replaced_by_rename_refuses_the_next_write(tmp_path: Path) -> None:
    """``mv other.sqlite3 db.sqlite3`` under an open store: the holder wrote on to the deleted
    file and said "ok"; now the write is refused in one line and both files are intact."""
    db = make_store(tmp_path / "richeng.sqlite3", events=10)
    other = make_store(tmp_path / "other.sqlite3", events=3)
    other_hash = sha256(other)
    store = Store(db, clock=SetClock(DAY1))
    try:
        add_event(store, "before the swap")
        os.replace(other, db)
        with pytest.raises(StoreError) as refused:
            add_event(store, "after the swap")
        assert refused.value.code == "store.db_replaced"
        assert "\n" not in str(refused.value) and "nothing was written" in str(refused.value)
    finally:
        store.close()
    assert sha256(db) == other_hash  # the file put in place is exactly as it came
    assert not Path(f"{db}-wal").exists()  # the old file's log, which SQLite leaves behind, would apply to it
    assert inspect_file(db).state == "ok" and events_in(db) == 3
    (kept,) = tmp_path.glob("richeng.sqlite3.replaced-*")  # what the holder had, the write before the swap too
    assert inspect_file(kept).state == "ok" and events_in(kept) == 11
    reopened = Store(db, clock=SetClock(DAY1))  # and it is usable: the new file, checked on open
    try:
        add_event(reopened, "on the new file")
    finally:
        reopened.close()
    assert events_in(db) == 4


def test_a_deleted_database_refuses_the_next_write(tmp_path: Path) -> None:
    db = make_store(tmp_path / "richeng.sqlite3", events=2)
    store = Store(db, backups=False)
    try:
        db.unlink()
        with pytest.raises(StoreError) as refused:
            add_event(store, "into nothing")
        assert refused.value.code == "store.db_replaced"
    finally:
        store.close()


# ---- item 6: a clock that jumps over the backups -------------------------------------------


@pytest.mark.parametrize("jump", [timedelta(days=3 * 365), timedelta(days=8)])
def test_backups_dated_in_the_future_never_crash_and_the_new_one_stays(tmp_path: Path, jump: timedelta) -> None:
    """Seven daily backups dated ahead (a clock that ran fast, ``--now`` years on), then the
    right time: rotation deleted today's copy as the oldest, and ``assert made is not None``
    failed every command until that date."""
    db = make_store(tmp_path / "richeng.sqlite3", events=5)
    clock = SetClock(DAY1 + jump)
    for day in range(7):
        clock.now = DAY1 + jump + timedelta(days=day)
        Store(db, clock=clock).close()
    assert len(list_backups(db)) == 7
    clock.now = DAY1
    store = Store(db, clock=clock)  # the daily backup of the right day: no AssertionError
    try:
        made = make_backup(store, "daily", DAY1 + timedelta(minutes=5))
        assert made.path.exists() and made.created == (DAY1 + timedelta(minutes=5)).astimezone(made.created.tzinfo)
    finally:
        store.close()
    daily = list_backups(db)
    assert len(daily) == 7
    assert made.path in [b.path for b in daily]  # never the backup just made


def test_a_clock_that_jumps_back_and_forth_keeps_each_new_backup(tmp_path: Path) -> None:
    db = make_store(tmp_path / "richeng.sqlite3", events=5)
    clock = SetClock(DAY1)
    moments = [DAY1 + timedelta(days=d) for d in (0, 1, 2, 3, 4, 5, 6)]
    moments += [DAY1 - timedelta(days=400), DAY1 + timedelta(days=3000), DAY1 - timedelta(days=4000)]
    for moment in moments:
        clock.now = moment
        store = Store(db, clock=clock)
        try:
            add_event(store, f"at {moment:%Y-%m-%d}")
        finally:
            store.close()
        names = [b.created.astimezone(SHANGHAI).date() for b in list_backups(db)]
        assert moment.date() in names, (moment, names)  # the day's own copy survived its rotation
        assert len(names) <= 7
    assert inspect_file(db).state == "ok"


def test_backup_names_past_what_local_time_holds_do_not_crash(tmp_path: Path) -> None:
    """A backup stamped 9999-12-31T23:59Z is year 10000 in Shanghai: deciding whether today's
    copy is due must not raise OverflowError."""
    db = make_store(tmp_path / "richeng.sqlite3", events=2)
    Store(db, clock=SetClock(DAY1)).close()
    (first,) = list_backups(db)
    odd = first.path.with_name(first.path.name.replace(first.path.name.split("-")[1], "99991231T235900Z"))
    first.path.rename(odd)
    Store(db, clock=SetClock(DAY1)).close()
    assert len(list_backups(db)) == 2


# ---- the journal under a clock that jumps ---------------------------------------------------


def test_undo_takes_back_the_newest_change_whatever_the_clock_said(tmp_path: Path) -> None:
    """Stamps from a clock that jumped forward, then back: undo still goes newest first (by
    entry, not by stamp), and ``recent`` lists in the order the changes were made."""
    db = tmp_path / "richeng.sqlite3"
    clock = SetClock(DAY1)
    store = Store(db, clock=clock)
    try:
        profile = ensure_profile(store)
        for title, moment in (("first", DAY1), ("ahead", DAY1 + timedelta(days=3650)), ("back", DAY1 - timedelta(days=3650))):
            clock.now = moment
            add_event(store, title)
        recent = journal.recent(store, profile)
        assert [entry.id for entry in recent] == sorted((entry.id for entry in recent), reverse=True)
        assert all(entry.when(SHANGHAI) for entry in recent)  # shown, whatever the stamps
        titles = []
        for _ in range(3):
            undone = journal.undo_last(store, profile)
            assert undone is not None
            titles.append(undone.events[0]["title"])
        assert titles == ["back", "ahead", "first"]
    finally:
        store.close()


# ---- item 8: private by default --------------------------------------------------------------


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_files_and_folders_are_private_whatever_the_umask(umask_022: None) -> None:
    """With umask 022 the database, its -wal/-shm, the backups and verified.json were 0644 and
    the folders 0755."""
    db = default_db_path()
    store = Store(db, clock=SetClock(DAY1))
    try:
        add_event(store, "private")  # the first event makes the first backup
        assert mode(db) == 0o600
        assert mode(Path(f"{db}-wal")) == 0o600 and mode(Path(f"{db}-shm")) == 0o600
    finally:
        store.close()
    data = db.parent
    backups = list_backups(db)
    assert backups
    assert mode(data) == 0o700 and mode(data / "backups") == 0o700
    assert all(mode(b.path) == 0o600 for b in backups)
    assert mode(data / "backups" / "verified.json") == 0o600
    assert mode(db) == 0o600


def test_looser_modes_of_our_own_files_are_tightened_on_open(umask_022: None) -> None:
    db = default_db_path()
    db.parent.mkdir(parents=True, mode=0o755)
    os.chmod(db.parent, 0o755)
    make_store(db, events=3)
    Store(db, clock=SetClock(DAY1)).close()  # a daily backup
    for path in (db, *(b.path for b in list_backups(db))):
        os.chmod(path, 0o644)
    os.chmod(db.parent, 0o755)
    os.chmod(db.parent / "backups", 0o755)
    Store(db, clock=SetClock(DAY1 + timedelta(days=1))).close()
    assert mode(db.parent) == 0o700 and mode(db.parent / "backups") == 0o700
    assert mode(db) == 0o600
    assert all(mode(b.path) == 0o600 for b in list_backups(db))


def test_a_database_outside_the_data_folder_is_private_but_its_folder_is_left_alone(tmp_path: Path, umask_022: None) -> None:
    os.chmod(tmp_path, 0o755)
    db = tmp_path / "mine.sqlite3"
    Store(db, backups=False).close()
    assert mode(db) == 0o600
    assert mode(tmp_path) == 0o755  # the user's own folder is the user's business


def test_restored_and_recovered_files_are_private(tmp_path: Path, umask_022: None) -> None:
    from agent.store.recover import recover

    db = make_store(tmp_path / "richeng.sqlite3", events=3)
    backup = make_store(tmp_path / "copy.sqlite3", events=2)
    restore(backup, db, DAY1)
    assert mode(db) == 0o600
    out = tmp_path / "recovered.sqlite3"
    recover(db, out)
    assert mode(out) == 0o600 and events_in(out) == 2
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


# ---- item 5: files are replaced whole --------------------------------------------------------


def test_write_replacing_keeps_the_previous_file_when_the_disk_fills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "calendar.ics"
    target.write_bytes(b"BEGIN:VCALENDAR\r\nthe previous, good export\r\nEND:VCALENDAR\r\n")
    before = target.read_bytes()
    real_write = os.write

    def full_after_some(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 10:
            real_write(fd, bytes(data[:10]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    from agent.files import write_replacing

    monkeypatch.setattr(files.os, "write", full_after_some)
    with pytest.raises(OSError) as failed:
        write_replacing(target, b"BEGIN:VCALENDAR\r\n" + b"x" * 10_000)
    assert failed.value.errno == errno.ENOSPC and failed.value.filename == str(target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calendar.ics"]


def test_write_replacing_follows_a_link_and_writes_a_device_in_place(tmp_path: Path) -> None:
    from agent.files import write_replacing

    real = tmp_path / "real.ics"
    real.write_bytes(b"old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.ics"
    link.symlink_to(real)
    write_replacing(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert mode(real) == 0o640  # an existing file keeps its mode
    write_replacing(Path(os.devnull), b"into the void")
    assert Path(os.devnull).is_char_device()
    fresh = tmp_path / "fresh.ics"
    write_replacing(fresh, b"x")
    assert mode(fresh) == 0o600


# ---- item 14: leftovers of a killed backup or restore ---------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_leftovers_of_a_killed_backup_or_restore_are_removed(tmp_path: Path) -> None:
    from agent.files import remove_stale

    db = make_store(tmp_path / "richeng.sqlite3", events=2)
    Store(db, clock=SetClock(DAY1)).close()
    folder = list_backups(db)[0].path.parent
    dead, alive = _dead_pid(), os.getppid()
    stale_backup = folder / f".richeng-20261201T000000Z-daily-{dead}-1234.sqlite3.partial"
    live_backup = folder / f".richeng-20261201T000000Z-daily-{alive}-1234.sqlite3.partial"
    stale_restore = tmp_path / f".richeng.sqlite3.restoring-{dead}"
    live_restore = tmp_path / f".richeng.sqlite3.restoring-{alive}"
    users_own = tmp_path / ".richeng.sqlite3.notes"
    for leftover in (stale_backup, live_backup, stale_restore, live_restore, users_own):
        leftover.write_bytes(b"half a copy")
    Store(db, clock=SetClock(DAY1 + timedelta(days=1))).close()  # opens the file, makes a daily backup
    assert not stale_backup.exists() and not stale_restore.exists()
    assert live_backup.exists() and live_restore.exists() and users_own.exists()
    assert remove_stale(tmp_path, ".") == []


# ---- a disk that fills, a folder that turns read-only (tmpfs) ----------------------------------


def test_a_full_disk_refuses_a_write_in_one_line_and_loses_nothing(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path, 2048) as fs:
        db = make_store(fs / "richeng.sqlite3", events=20)
        store = Store(db, backups=False)
        try:
            add_event(store, "fits")
            fill(fs)
            with pytest.raises(StoreError) as refused:
                for index in range(200):  # until the WAL needs a page the disk does not have
                    add_event(store, f"does not fit {index} " + "y" * 2000)
            assert refused.value.code == "store.disk_full"
        finally:
            store.close()
        (fs / "filler").unlink()
        assert inspect_file(db).state == "ok"
        assert events_in(db) >= 21


def test_under_32_kb_free_a_file_is_not_called_damaged(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path, 1024) as fs:
        db = make_store(fs / "richeng.sqlite3", events=20)
        fill(fs, leave=16 * 1024)
        with pytest.raises(StoreError) as refused:
            Store(db, backups=False, reading=True).close()
        assert refused.value.code == "store.disk_full_read", str(refused.value)
        assert "is damaged" not in str(refused.value) and "cannot read" not in str(refused.value)
        (fs / "filler").unlink()
        assert inspect_file(db).state == "ok" and events_in(db) == 20


def test_a_read_only_folder_still_reads_and_refuses_writes_in_one_line(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path, 2048) as fs:
        db = make_store(fs / "richeng.sqlite3", events=4)
        before = sha256(db)
        read_only(fs)
        with Store(db, reading=True) as store:
            assert int(store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]) == 4
        with pytest.raises(ReadOnlyStoreError):
            Store(db)
        assert sha256(db) == before
