"""The SQLite file: location, pragmas, migrations, refusal of files we do not understand,
transactions, and profile isolation for every service."""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import platformdirs
import pytest

from agent.errors import NewerSchemaError, NotFoundError, StoreError
from agent.services.archive import ArchiveService
from agent.services.calendars import CalendarService
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.services.queries import QueryService
from agent.services.settings import SettingsService
from agent.store import file_check
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.file_check import default_db_path
from agent.store.migrations import known_names, known_version, run_sql
from agent.store.profiles import DEFAULT_CALENDAR_NAME, ensure_profile
from agent.timesym.context import TimeContext
from tests.support.clock import NOW, SHANGHAI
from tests.support.old_store import newer_release

# ---- location -----------------------------------------------------------------------------


def test_default_path_is_in_the_user_data_dir(_isolated_user_dirs: Path) -> None:
    path = default_db_path()
    assert path == _isolated_user_dirs / "data" / "richeng" / "richeng.sqlite3"
    assert path.parent == Path(platformdirs.user_data_dir("richeng", appauthor=False))


def test_store_creates_missing_parent_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "r.sqlite3"
    with Store(target) as s:
        assert s.schema_version() == known_version()
    assert target.is_file()


def test_unusable_parent_folder_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError):
        Store(blocker / "sub" / "r.sqlite3")


# ---- pragmas and migrations ---------------------------------------------------------------


def test_pragmas_wal_foreign_keys_busy_timeout(file_store: Store) -> None:
    conn = file_store.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == file_check.BUSY_TIMEOUT_MS >= 1000


def test_foreign_keys_enforced(file_store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError), file_store.transaction() as conn:
        conn.execute("INSERT INTO calendars(profile_id, name, created_at) VALUES (999, 'x', 'now')")


def test_migrations_recorded(file_store: Store) -> None:
    rows = file_store.conn.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY version").fetchall()
    assert [r["version"] for r in rows] == list(range(1, known_version() + 1))
    assert [r["name"] for r in rows] == known_names()
    assert all(datetime.fromisoformat(r["applied_at"]).tzinfo is not None for r in rows)
    assert file_store.schema_version() == known_version()


def test_reopen_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with Store(path) as s:
        pid = ensure_profile(s)
        applied = s.conn.execute("SELECT applied_at FROM schema_migrations").fetchall()
    with Store(path) as s:
        assert s.conn.execute("SELECT applied_at FROM schema_migrations").fetchall() == applied
        assert ensure_profile(s) == pid


def m900_extra_tables(conn: sqlite3.Connection) -> None:
    run_sql(conn, "CREATE TABLE extra_one (x INTEGER);\nCREATE TABLE extra_two (y INTEGER);")


def test_missing_migrations_are_applied_in_order(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with Store(path):
        pass
    released = known_version()
    with newer_release(m900_extra_tables), Store(path) as s:
        assert s.schema_version() == released + 1
        names = {r[0] for r in s.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"extra_one", "extra_two"} <= names


def _snapshot(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def test_newer_schema_refused_and_file_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    with Store(path) as s:
        ensure_profile(s)
    plain = sqlite3.connect(path)
    plain.execute("PRAGMA journal_mode = DELETE")
    plain.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, 'later')", (known_version() + 1,))
    plain.commit()
    plain.close()
    before = _snapshot(path)
    os.utime(path, ns=(before[1] - 10**9, before[1] - 10**9))  # an mtime a write would move
    before = _snapshot(path)
    with pytest.raises(NewerSchemaError) as info:
        Store(path)
    message = str(info.value)
    assert "newer" in message and str(known_version() + 1) in message and "untouched" in message
    assert _snapshot(path) == before
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


@pytest.mark.parametrize("size", [100, 5000])
def test_corrupt_file_is_store_error_and_untouched(tmp_path: Path, size: int) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(os.urandom(size).replace(b"SQLite", b"xxxxxx"))
    before = _snapshot(path)
    with pytest.raises(StoreError) as info:
        Store(path)
    assert not isinstance(info.value, NewerSchemaError)
    assert "not a Richeng database" in str(info.value)
    assert _snapshot(path) == before


def test_foreign_sqlite_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    plain = sqlite3.connect(path)
    plain.execute("CREATE TABLE bookmarks (url TEXT)")
    plain.execute("INSERT INTO bookmarks VALUES ('https://example.org')")
    plain.commit()
    plain.close()
    before = _snapshot(path)
    with pytest.raises(StoreError):
        Store(path)
    assert _snapshot(path) == before


# ---- transactions -------------------------------------------------------------------------


def _profile_count(s: Store) -> int:
    return s.conn.execute("SELECT COUNT(*) FROM profiles").fetchone()[0]


def test_transaction_commits(store: Store) -> None:
    with store.transaction() as conn:
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('a', 'x')")
    assert _profile_count(store) == 1
    assert not store.conn.in_transaction


def test_exception_rolls_back_everything(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('a', 'x')")
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('b', 'x')")
        raise RuntimeError("boom")
    assert _profile_count(store) == 0
    assert not store.conn.in_transaction


def test_nested_transaction_joins_outer(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('outer', 'x')")
        with store.transaction() as inner:
            inner.execute("INSERT INTO profiles(name, created_at) VALUES ('inner', 'x')")
        assert store.conn.in_transaction  # the inner block did not commit
        raise RuntimeError("after the inner block")
    assert _profile_count(store) == 0


def test_exception_in_nested_block_rolls_back_outer(store: Store) -> None:
    with pytest.raises(ValueError), store.transaction() as conn:
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('outer', 'x')")
        with store.transaction() as inner:
            inner.execute("INSERT INTO profiles(name, created_at) VALUES ('inner', 'x')")
            raise ValueError("inner")
    assert _profile_count(store) == 0
    with store.transaction() as conn:  # the store is usable again
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('next', 'x')")
    assert _profile_count(store) == 1


def test_original_error_survives_when_sqlite_already_rolled_back(store: Store) -> None:
    with pytest.raises(ValueError, match="original"), store.transaction() as conn:
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('a', 'x')")
        conn.execute("ROLLBACK")  # what SQLite does by itself on e.g. a full disk
        raise ValueError("original")
    assert _profile_count(store) == 0


def test_commit_failure_rolls_back_and_raises(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError), store.transaction() as conn:
        conn.execute("PRAGMA defer_foreign_keys = ON")
        conn.execute("INSERT INTO profiles(name, created_at) VALUES ('a', 'x')")
        conn.execute("INSERT INTO calendars(profile_id, name, created_at) VALUES (999, 'c', 'x')")
    assert _profile_count(store) == 0
    assert not store.conn.in_transaction


def test_busy_database_is_a_store_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "busy.sqlite3"
    with Store(path):
        pass
    s = Store(path)
    s.conn.execute("PRAGMA busy_timeout = 1")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="busy"), s.transaction():
            pass
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        s.close()


# ---- profiles -----------------------------------------------------------------------------


def test_ensure_profile_is_idempotent_and_makes_a_default_calendar(store: Store) -> None:
    a = ensure_profile(store)
    assert ensure_profile(store) == a
    b = ensure_profile(store, "work")
    assert a != b
    for pid in (a, b):
        calendars = CalendarService(store, pid).list()
        assert [(c.name, c.is_default) for c in calendars] == [(DEFAULT_CALENDAR_NAME, True)]


def _populate(store: Store, pid: int, tag: str, ctx: TimeContext) -> None:
    CalendarService(store, pid).add(f"cal-{tag}")
    SettingsService(store, pid).set("working_hours", ["10:00", "12:00"] if tag == "a" else ["08:00", "20:00"])
    outcome = CommandService(store, pid, ctx).prepare_or_create(f"event-{tag}", "D+1", time="09:00")
    assert outcome.status == "created"
    stub = CommandService(store, pid, ctx).prepare_or_create(f"pending-{tag}", "WE")
    assert stub.status == "needs_date"
    MemoryService(store, pid).remember(f"memory-{tag} 咖啡")
    ArchiveService(store, pid, clock=NOW).append("user", f"message-{tag} 你好")


def test_profiles_are_isolated_in_every_service(store: Store, ctx: TimeContext) -> None:
    a = ensure_profile(store, "a")
    b = ensure_profile(store, "b")
    _populate(store, a, "a", ctx)
    _populate(store, b, "b", ctx)

    for pid, mine, theirs in ((a, "a", "b"), (b, "b", "a")):
        # calendars
        cals = CalendarService(store, pid)
        assert f"cal-{mine}" in cals.names() and f"cal-{theirs}" not in cals.names()
        with pytest.raises(NotFoundError):
            cals.get(f"cal-{theirs}")
        with pytest.raises(NotFoundError):
            cals.delete(f"cal-{theirs}")
        with pytest.raises(NotFoundError):
            cals.update(f"cal-{theirs}", new_name="stolen")
        # settings
        hours = SettingsService(store, pid).get("working_hours")
        assert hours == (["10:00", "12:00"] if mine == "a" else ["08:00", "20:00"])
        # queries (events)
        titles = [o.title for o in QueryService(store, pid, ctx).range("D+0", "D+6").events]
        assert titles == [f"event-{mine}"]
        with pytest.raises(NotFoundError):
            QueryService(store, pid, ctx).range("D+0", "D+6", calendar=f"cal-{theirs}")
        # events repository
        theirs_uid = store.conn.execute("SELECT uid FROM events WHERE title = ?", (f"event-{theirs}",)).fetchone()[0]
        repo = EventRepo(store, pid)
        assert repo.row(theirs_uid) is None
        with store.transaction():
            assert not repo.delete(theirs_uid)
        # commands (stubs)
        stub = CommandService(store, pid, ctx).active_stub()
        assert stub is not None and stub.title == f"pending-{mine}"
        # memories
        memories = MemoryService(store, pid)
        assert [m.text for m in memories.list()] == [f"memory-{mine} 咖啡"]
        assert [m.text for m in memories.search("咖啡")] == [f"memory-{mine} 咖啡"]
        assert [m.text for m in memories.search(f"memory-{theirs}")] == []
        their_memory = store.conn.execute("SELECT id FROM memories WHERE text LIKE ?", (f"memory-{theirs}%",)).fetchone()[0]
        with pytest.raises(NotFoundError):
            memories.forget(their_memory)
        # messages
        archive = ArchiveService(store, pid, clock=NOW)
        assert [m.content for m in archive.recent()] == [f"message-{mine} 你好"]
        assert [m.content for m in archive.search("你好")] == [f"message-{mine} 你好"]
        assert [m.content for m in archive.segment()[0]] == [f"message-{mine} 你好"]

    # Continuing or cancelling in one profile leaves the other's stub alone.
    assert CommandService(store, a, ctx).cancel_active().status == "cancelled"
    assert CommandService(store, b, ctx).active_stub() is not None
    # Every row is still there: nothing above changed the other profile.
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
    assert store.conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == 2
    assert {r[0] for r in store.conn.execute("SELECT name FROM calendars")} >= {"cal-a", "cal-b"}


def test_same_create_in_two_profiles_is_not_deduplicated(store: Store, ctx: TimeContext) -> None:
    a = ensure_profile(store, "a")
    b = ensure_profile(store, "b")
    first = CommandService(store, a, ctx).prepare_or_create("同一个", "D+1", time="09:00")
    second = CommandService(store, b, ctx).prepare_or_create("同一个", "D+1", time="09:00")
    assert first.status == second.status == "created"
    assert not second.deduplicated
    assert first.event is not None and second.event is not None
    assert first.event.event_id != second.event.event_id


def test_same_uid_in_two_profiles_is_independent(store: Store, ctx: TimeContext) -> None:
    a = ensure_profile(store, "a")
    b = ensure_profile(store, "b")
    start = datetime(2026, 12, 1, 9, tzinfo=SHANGHAI)
    for pid, title in ((a, "A"), (b, "B")):
        cal = CalendarService(store, pid).default().id
        with store.transaction():
            EventRepo(store, pid).save(build_event(title, start, start + timedelta(hours=1), uid="same@x"), cal, "user")
    with store.transaction():
        EventRepo(store, a).delete("same@x")
    lo, hi = start - timedelta(days=1), start + timedelta(days=1)
    assert EventRepo(store, a).occurrences(lo, hi, SHANGHAI) == []
    assert [o.title for o in EventRepo(store, b).occurrences(lo, hi, SHANGHAI)] == ["B"]


def test_event_repo_refuses_another_profiles_calendar(store: Store) -> None:
    a = ensure_profile(store, "a")
    b = ensure_profile(store, "b")
    foreign = CalendarService(store, b).add("b-private").id
    start = datetime(2026, 12, 1, 9, tzinfo=UTC)
    with pytest.raises(NotFoundError), store.transaction():
        EventRepo(store, a).save(build_event("x", start, start + timedelta(hours=1)), foreign, "user")
