"""The SQLite file: opening it safely, migrating it, and one transaction per logical write.

A file we cannot understand is never modified: the schema version is read on a plain
connection before any pragma that writes (WAL switches the header), so a database from a
newer Richeng, or one that is not a database at all, is refused exactly as it was found.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from agent.errors import NewerSchemaError, StoreError
from agent.store.migrations import MIGRATIONS

SCHEMA_VERSION = len(MIGRATIONS)
BUSY_TIMEOUT_MS = 5000


def default_db_path() -> Path:
    """The per-user data file; ``--db`` overrides it."""
    import platformdirs

    return Path(platformdirs.user_data_dir("richeng", appauthor=False)) / "richeng.sqlite3"


def utc_now_iso() -> str:
    """Server-side stamps: the store, not its callers, decides what time it is."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _read_version(conn: sqlite3.Connection) -> int:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if row is None:
        return 0
    (version,) = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return int(version)


def _has_schema(conn: sqlite3.Connection) -> bool:
    """Whether the file already holds tables, views or indexes (of some other program)."""
    return conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None


class Store:
    """One open database file. Services borrow its connection; only it commits.

    ``check_same_thread`` is off because the app's agent worker and the UI share one
    store; the lock serialises access so a connection is never used by two threads at once.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self.lock = threading.RLock()
        self._depth = 0
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {self.path}: {exc.strerror}") from None
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        self.conn.row_factory = sqlite3.Row
        try:
            version = _read_version(self.conn)
            foreign = version == 0 and _has_schema(self.conn)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(
                f"{self.path} is not a Richeng database or is damaged ({exc}); it was left untouched"
            ) from None
        if foreign:
            self.conn.close()
            raise StoreError(
                f"{self.path} is an SQLite database of another program, not Richeng's; it was left untouched"
            )
        if version > SCHEMA_VERSION:
            self.conn.close()
            raise NewerSchemaError(
                f"{self.path} was written by a newer Richeng (schema {version}, this version "
                f"knows {SCHEMA_VERSION}); update Richeng to open it. The file was left untouched."
            )
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.conn.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self.conn.execute("PRAGMA journal_mode = WAL")
                self.conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate(version)
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(f"cannot use {self.path}: {exc}") from None

    def _migrate(self, current: int) -> None:
        if current == SCHEMA_VERSION:
            return
        with self.transaction() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            for number in range(current + 1, SCHEMA_VERSION + 1):
                for statement in _split_sql(MIGRATIONS[number - 1]):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)",
                    (number, utc_now_iso()),
                )

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One logical write: BEGIN IMMEDIATE ... COMMIT, rolled back on any exception.

        Nested use joins the outer transaction, so a service can call another service's
        write inside its own and the whole thing still commits or fails as one.
        """
        with self.lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreError(f"the database is busy or read-only: {exc}") from None
            self._depth = 1
            try:
                yield self.conn
            except BaseException:
                self._depth = 0
                self._rollback()
                raise
            self._depth = 0
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                self._rollback()
                raise

    def _rollback(self) -> None:
        """ROLLBACK unless SQLite already ended the transaction itself (it does on some
        errors, e.g. a full disk); a failing ROLLBACK must not hide the original error."""
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def read(self) -> sqlite3.Connection:
        """The connection for queries (callers hold ``lock`` around multi-step reads)."""
        return self.conn

    def schema_version(self) -> int:
        return _read_version(self.conn)

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements; ``sqlite3.complete_statement`` knows triggers."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
