"""SQLite's POSIX-lock hazard (issue 19, item 0), without Qt: a process holds a ``Store``,
some code in it opens and closes the database file once with plain I/O (what a file dialog's
type sniffing or a hash does), a CLI process opens and closes the same file, then a new
connection of the holder writes. Before ``FileGuard`` the CLI deleted the holder's ``-wal``
and ``-shm`` and the write left "database disk image is malformed"."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from agent.errors import StoreError
from agent.store.backups import restore
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.file_guard import HAVE_OFD, FileGuard, held_elsewhere
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI

BASE = datetime(2026, 12, 1, 9, 0, tzinfo=SHANGHAI)
CLI = [sys.executable, "-c", "import sys; from agent.cli.main import main; sys.exit(main(sys.argv[1:]))"]
pytestmark = pytest.mark.skipif(not HAVE_OFD, reason="no OFD locks on this platform")


def _cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "--db", str(db), *args], capture_output=True, text=True, timeout=120)


def _write_in_new_thread(store: Store, profile: int, titles: list[str]) -> None:
    """Each title in a transaction of a thread's own, new connection (as the app's workers do)."""
    errors: list[BaseException] = []

    def work() -> None:
        try:
            repo = EventRepo(store, profile)
            calendar = store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile,)).fetchone()[0]
            for index, title in enumerate(titles):
                start = BASE + timedelta(hours=index)
                with store.transaction():
                    repo.save(build_event(title, start, start + timedelta(hours=1), stamp=BASE), calendar, "user")
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _integrity(db: Path) -> tuple[str, int]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0], conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        conn.close()


def _hazard(db: Path) -> tuple[str, int]:
    store = Store(db, backups=False)
    profile = ensure_profile(store)
    _write_in_new_thread(store, profile, [f"before {n}" for n in range(30)])
    with open(db, "rb") as handle:  # the stray read: drops every POSIX lock this process held on db
        assert handle.read(16) == b"SQLite format 3\x00"
    listed = _cli(db, "calendars", "list")
    assert listed.returncode == 0, listed.stderr
    _write_in_new_thread(store, profile, [f"after {n}" for n in range(30)])
    store.close()
    return _integrity(db)


def test_a_stray_close_and_a_cli_run_leave_the_database_whole(tmp_path: Path) -> None:
    assert _hazard(tmp_path / "guarded.sqlite3") == ("ok", 60)


def test_without_the_guard_the_cli_deletes_the_live_wal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hazard is real here, so the tests around can fail: without the guard the CLI's close
    deletes the WAL the holder is still using, every time. What follows varies with SQLite's
    timing (8 runs here: the file was "not a database" after 3, whole after 5), so the
    deterministic step is what is checked."""
    monkeypatch.setattr(FileGuard, "take", lambda self: None)
    db = tmp_path / "bare.sqlite3"
    store = Store(db, backups=False)
    profile = ensure_profile(store)
    _write_in_new_thread(store, profile, ["before"])
    wal = Path(f"{db}-wal")
    live = wal.stat().st_ino
    with open(db, "rb") as handle:
        handle.read(16)
    assert _cli(db, "calendars", "list").returncode == 0
    assert not wal.exists() or wal.stat().st_ino != live
    store.close()


def test_the_cli_keeps_the_holders_wal_and_shm(tmp_path: Path) -> None:
    db = tmp_path / "f.sqlite3"
    store = Store(db, backups=False)
    ensure_profile(store)
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    before = (wal.stat().st_ino, shm.stat().st_ino)
    with open(db, "rb"):
        pass
    assert _cli(db, "calendars", "list").returncode == 0
    assert (wal.stat().st_ino, shm.stat().st_ino) == before
    store.close()
    assert not wal.exists() and not shm.exists()  # the last store out still tidies up


def test_a_replaced_wal_refuses_the_write_instead_of_starting_a_second_one(tmp_path: Path) -> None:
    db = tmp_path / "f.sqlite3"
    store = Store(db, backups=False)
    profile = ensure_profile(store)
    wal = Path(f"{db}-wal")
    wal.rename(tmp_path / "elsewhere")  # what another program's deletion looks like from here
    wal.write_bytes(b"")
    with pytest.raises(StoreError, match=r"write-ahead log was replaced\); nothing was written"), store.transaction() as conn:
        conn.execute("UPDATE profiles SET name = 'x' WHERE id = ?", (profile,))
    store.close()


@contextmanager
def _held_by_another_process(db: Path) -> Iterator[None]:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from agent.store.db import Store; s = Store(sys.argv[1], backups=False); "
         "print('open', flush=True); sys.stdin.readline()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        yield
    finally:
        holder.communicate("\n", timeout=60)


def test_held_elsewhere_sees_another_process(tmp_path: Path) -> None:
    db = tmp_path / "f.sqlite3"
    Store(db, backups=False).close()
    assert not held_elsewhere(db)
    with _held_by_another_process(db):
        assert held_elsewhere(db)
    assert not held_elsewhere(db)


def test_restore_refuses_while_the_app_has_the_file_open(tmp_path: Path) -> None:
    """A restore renamed the live file under a running app, which went on writing to the copy
    kept aside; now it says to close the app first and changes nothing."""
    db = tmp_path / "f.sqlite3"
    store = Store(db, backups=False)
    ensure_profile(store)
    store.close()
    backup = tmp_path / "backup.sqlite3"
    shutil.copy(db, backup)
    with _held_by_another_process(db):
        before = {p.name: p.stat().st_ino for p in tmp_path.iterdir()}
        with pytest.raises(StoreError, match="open in another Richeng"):
            restore(backup, db, BASE)
        assert {p.name: p.stat().st_ino for p in tmp_path.iterdir()} == before
    assert restore(backup, db, BASE).aside is not None  # closed: the restore goes ahead
