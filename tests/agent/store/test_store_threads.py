"""The store's threading rule: every thread gets its own connection to the file (WAL lets
readers run beside the writer), a connection used by another thread raises, and writers
from several threads queue on the store lock. The race test pins a reader between two
statements of a writer's open transaction: it must see the last commit, never half of one."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.errors import StoreError
from agent.store.db import Store
from agent.store.profiles import ensure_profile

TIMEOUT = 30  # seconds a handshake may wait before the test fails instead of hanging


def in_thread(work: Callable[[], Any]) -> Any:
    """Run ``work`` on a fresh thread and return (or raise) its result."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "richeng.sqlite3", backups=False)
    ensure_profile(s)
    yield s
    s.close()


def count(store: Store) -> int:
    return int(store.conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0])


def insert(conn: Any, text: str) -> None:
    conn.execute("INSERT INTO memories(profile_id, text, created_at) VALUES (1, ?, 'now')", (text,))


def test_each_thread_has_its_own_connection(store: Store) -> None:
    mine = store.conn
    assert store.conn is mine
    theirs = in_thread(lambda: store.conn)
    assert theirs is not mine


def test_a_connection_used_by_another_thread_raises(store: Store) -> None:
    mine = store.conn
    with pytest.raises(RuntimeError, match="did not open it"):
        in_thread(lambda: mine.execute("SELECT 1"))
    with pytest.raises(RuntimeError):
        in_thread(lambda: mine.cursor())


def test_reader_pinned_inside_a_writers_transaction_sees_only_commits(store: Store) -> None:
    """Deterministic interleaving: the writer inserts one of a pair and waits; the reader
    reads then; the writer inserts the second and commits. The reader must see 0, never 1."""
    half_written = threading.Event()
    read_done = threading.Event()
    seen: list[int] = []

    def writer() -> None:
        with store.transaction() as conn:
            insert(conn, "pair a")
            half_written.set()
            assert read_done.wait(TIMEOUT)
            insert(conn, "pair b")

    def reader() -> None:
        assert half_written.wait(TIMEOUT)
        seen.append(count(store))
        read_done.set()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert seen == [0]
    assert count(store) == 2


def test_reader_thread_racing_a_writer_never_sees_half_a_transaction(store: Store) -> None:
    """Free-running race: the writer commits pairs; the reader keeps counting on its own
    thread. Every count is even and never goes down, and nothing raises."""
    pairs = 300
    done = threading.Event()
    counts: list[int] = []
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for index in range(pairs):
                with store.transaction() as conn:
                    insert(conn, f"{index} a")
                    insert(conn, f"{index} b")
        except BaseException as exc:  # handed back to the test
            errors.append(exc)
        finally:
            done.set()

    def reader() -> None:
        try:
            while not done.is_set():
                # One statement, one snapshot: both counts see the same committed state.
                total, latest = store.conn.execute(
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE text LIKE '% b') FROM memories"
                ).fetchone()
                counts.append(total)
                assert total == 2 * latest
            counts.append(count(store))
        except BaseException as exc:  # handed back to the test
            errors.append(exc)

    threads = [threading.Thread(target=reader), threading.Thread(target=writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 4)
    assert not errors, errors
    assert counts and all(c % 2 == 0 for c in counts)
    assert counts == sorted(counts) and counts[-1] == 2 * pairs


def test_writers_on_several_threads_lose_nothing(store: Store) -> None:
    per_thread, threads_n = 50, 4
    errors: list[BaseException] = []

    def writer(tag: int) -> None:
        try:
            for index in range(per_thread):
                with store.transaction() as conn:
                    insert(conn, f"w{tag}-{index}")
        except BaseException as exc:  # handed back to the test
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(tag,)) for tag in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 4)
    assert not errors and count(store) == per_thread * threads_n


def test_nested_transactions_are_per_thread(store: Store) -> None:
    """Thread B's transaction must not join thread A's just because A is inside one."""
    inside = threading.Event()
    release = threading.Event()

    def outer() -> None:
        with store.transaction() as conn:
            insert(conn, "outer")
            inside.set()
            assert release.wait(TIMEOUT)
            raise RuntimeError("roll back the outer one")

    def other() -> None:
        assert inside.wait(TIMEOUT)
        release.set()  # the outer rolls back while this waits for the lock
        with store.transaction() as conn:
            insert(conn, "other")

    first = threading.Thread(target=lambda: pytest.raises(RuntimeError, outer))
    second = threading.Thread(target=other)
    first.start()
    second.start()
    first.join(TIMEOUT)
    second.join(TIMEOUT)
    texts = [r[0] for r in store.conn.execute("SELECT text FROM memories")]
    assert texts == ["other"]


def test_close_closes_every_threads_connection(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.sqlite3", backups=False)
    theirs = in_thread(lambda: store.conn)
    assert Path(f"{tmp_path / 'r.sqlite3'}-wal").exists()
    store.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        sqlite3.Connection.execute(theirs, "SELECT 1")  # past the owner check: closed itself
    assert not Path(f"{tmp_path / 'r.sqlite3'}-wal").exists()  # the last close checkpointed
    with pytest.raises(StoreError, match="closed"):
        in_thread(lambda: store.conn)
