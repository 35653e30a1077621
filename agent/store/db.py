"""The SQLite file: opening it safely, migrating it, one connection per thread, one
transaction per logical write.

A file we cannot understand is never modified: ``Store`` opens nothing before
``agent.store.file_check.inspect_file`` has read it without writing a byte, and refuses
what that check does not accept (``refusal``).

Threading rule (docs/architecture.md): every thread that touches a file store uses its own
connection, which ``Store.conn`` opens on first use in that thread; WAL lets readers run
beside the one writer. A connection used by any thread other than its owner raises. Writers
are serialised in-process by ``Store.lock`` (held for a whole transaction), so two threads
never wait on SQLite's busy timeout for each other. An in-memory store (tests, evals) is one
database reachable by one connection only, so it is exempt and must stay on one thread at a
time.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import tempfile
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent.errors import StoreError
from agent.files import PRIVATE_FOLDER, create_private, private_folder, remove_stale, tighten, write_replacing
from agent.messages.catalogue import pair
from agent.messages.message import Message
from agent.store import backups as backup_mod
from agent.store.backups import refusal
from agent.store.file_check import (
    BUSY_TIMEOUT_MS,
    connect_read_only,
    default_db_path,
    disk_full,
    inspect_file,
    read_version,
    writable,
)
from agent.store.file_guard import FileGuard
from agent.store.migrations import known_version, migrate, pending

__all__ = ["Clock", "ReadOnlyStoreError", "Store", "local_now", "utc_now_iso"]

Clock = Callable[[], datetime]


class ReadOnlyStoreError(StoreError):
    """The file cannot be written (permissions, read-only media) and the command writes."""


def utc_now_iso() -> str:
    """Server-side stamps: the store, not its callers, decides what time it is."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def local_now() -> datetime:
    """The default clock for backup decisions; tests inject their own."""
    return datetime.now().astimezone()


class _Verified:
    """The file's identity (size, mtime, inode, and its ``-wal``'s) when this program last
    left it, checked or written by itself. A file that still matches needs no new
    ``quick_check`` on open; anything else touching it changes the stamp. The stamp lives
    beside the backups, not beside the file, so a read-only folder does not matter."""

    def __init__(self, db: Path, directory: Path) -> None:
        self.db = db
        self.file = directory / "verified.json"

    def _identity(self) -> list[int]:
        main = self.db.stat()
        wal = Path(f"{self.db}-wal")
        extra = [wal.stat().st_size, wal.stat().st_mtime_ns] if wal.exists() else [0, 0]
        return [main.st_size, main.st_mtime_ns, main.st_ino, *extra]

    def matches(self) -> bool:
        try:
            return bool(json.loads(self.file.read_text("utf-8")) == self._identity())
        except (OSError, ValueError):
            return False

    def record(self) -> None:
        try:
            private_folder(self.file.parent)
            write_replacing(self.file, json.dumps(self._identity()).encode("utf-8"))
        except OSError:
            pass  # only a cache: the next open checks the file again


# ---- connections -------------------------------------------------------------------------


class _ThreadConnection(sqlite3.Connection):
    """A connection that refuses to run statements for any thread but the one that opened it
    (``check_same_thread`` would also refuse ``close`` from the thread that closes the store)."""

    owner: int = 0

    def _check(self) -> None:
        if self.owner and threading.get_ident() != self.owner:
            raise RuntimeError("a store connection was used by a thread that did not open it; use store.conn in each thread")

    def execute(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:
        self._check()
        return super().execute(*args, **kwargs)

    def executemany(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:
        self._check()
        return super().executemany(*args, **kwargs)

    def executescript(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:
        self._check()
        return super().executescript(*args, **kwargs)

    # typeshed declares cursor() generic in its factory's type; every cursor here is a plain one
    def cursor(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._check()
        return super().cursor(*args, **kwargs)

    def backup(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        super().backup(*args, **kwargs)


class Store:
    """One open database. Services borrow ``conn`` (this thread's connection); only
    ``transaction`` commits.

    ``reading=True`` is for commands that only show data: on a file that cannot be written
    they work on a private copy (occurrence caches have to be written somewhere), and nothing
    reaches the file. Without it a read-only file is refused before anything runs.
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        reading: bool = False,
        clock: Clock | None = None,
        backup_dir: Path | None = None,
        backups: bool | None = None,
    ) -> None:
        self.path = str(path)
        self.lock = threading.RLock()
        self.read_only = False
        self.notices: list[str] = []
        self.clock: Clock = clock or local_now
        self._local = threading.local()
        self._conns: weakref.WeakSet[_ThreadConnection] = weakref.WeakSet()
        self._closed = False
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._verified: _Verified | None = None
        self._shared: _ThreadConnection | None = None
        self._guard: FileGuard | None = None
        self._first_backup_due = False
        self.file: Path | None = None
        self.backup_dir: Path | None = None
        self.backups = False
        if self.path == ":memory:":
            self._shared = self._open_connection()
            self._shared.owner = 0  # one connection is the whole database: see the module docstring
            self._migrate_checked()
            return
        self._open_file(Path(self.path).expanduser(), reading, backup_dir, backups)

    def _open_file(self, file: Path, reading: bool, backup_dir: Path | None, backups: bool | None) -> None:

        if backups is None:
            backups = backup_mod.wanted_for(file)
        self.backups = backups

        try:
            if file.expanduser().resolve().parent == default_db_path().resolve().parent:
                private_folder(file.parent)  # the user data dir is ours: 0700 (issue 29, item 8)
            else:
                file.parent.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)  # the user's own folder: left as it is
        except OSError as exc:
            raise StoreError("store.cannot_create_folder", path=str(self.path), reason=exc.strerror) from None
        self.backup_dir = backup_dir or backup_mod.backup_dir_for(file)
        verified = _Verified(file, self.backup_dir)
        check = inspect_file(file, integrity=False)
        if check.state == "ok":
            due = backups and backup_mod.daily_due(self.backup_dir, self.clock())
            if due or not backups or not verified.matches():  # no stamps for scratch files either
                check = inspect_file(file)
        if check.state not in ("new", "ok"):
            raise refusal(check)
        if not writable(file):
            if check.state == "new":
                raise StoreError("store.folder_read_only", path=str(file))
            if not reading:
                raise ReadOnlyStoreError("store.read_only", path=str(file))
            self.read_only = True
            file = self._scratch_copy(file)
        if not self.read_only:
            self._make_private(file, new=check.state == "new")
        self.file = file
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as exc:
            self._close_all()
            raise disk_full(exc, self.file, reading=reading) or StoreError(
                "store.cannot_use", path=str(self.path), reason=str(exc)
            ) from None
        if not self.read_only:
            for extra in ("-wal", "-shm"):
                tighten(Path(f"{file}{extra}"))
        if not self.read_only and backups:
            self._verified = verified
            if 0 < check.version < known_version() and backups:
                self._backup_or_refuse("migration", pair("store.before_upgrade", version=check.version))
        self._migrate_checked()
        if not self.read_only:  # after the switch to WAL: see agent/store/file_guard.py
            self._guard = FileGuard(file)
            self._guard.take()
            self._first_backup_due = backups and not backup_mod.list_backups(file, self.backup_dir)
        if check.state == "ok" and not self.read_only and backups and backup_mod.daily_due(self.backup_dir, self.clock()):
            try:
                backup_mod.make_backup(self, "daily", self.clock())
            except StoreError as exc:
                self.notices.append(str(exc))

    @staticmethod
    def _make_private(file: Path, *, new: bool) -> None:
        """The database 0600 whatever the umask: a new one is created so before SQLite opens
        it (SQLite gives ``-wal`` and ``-shm`` the mode of the database), an existing one is
        tightened (issue 29, item 8). A killed restore's hidden copy beside it goes too."""
        if new:
            with contextlib.suppress(OSError):  # the folder refuses: SQLite says so in its own words
                create_private(file)
        tighten(file)
        remove_stale(file.parent, f".{file.name}.")

    def _scratch_copy(self, file: Path) -> Path:
        """A private, writable copy of a read-only file, deleted on close."""
        self._scratch = tempfile.TemporaryDirectory(prefix="richeng-readonly-")
        target = Path(self._scratch.name) / file.name
        try:
            source = connect_read_only(file)
        except sqlite3.Error as exc:
            raise StoreError("store.cannot_read", path=str(file), reason=str(exc)) from None
        try:
            copy = sqlite3.connect(target)
            try:
                source.backup(copy)
            finally:
                copy.close()
        except sqlite3.Error as exc:
            raise StoreError("store.cannot_read", path=str(file), reason=str(exc)) from None
        finally:
            source.close()
        return target

    def _backup_or_refuse(self, kind: str, why: Message) -> None:

        try:
            backup_mod.make_backup(self, kind, self.clock())
        except StoreError as exc:
            self._close_all()
            raise StoreError("store.backup_refused", reason=Message(exc.text("zh"), exc.text("en")), why=why) from None

    def _migrate_checked(self) -> None:
        try:
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._close_all()
            raise disk_full(exc, self.file) or StoreError("store.cannot_use", path=str(self.path), reason=str(exc)) from None

    # ---- connections ---------------------------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use (the threading rule)."""
        conn = self._shared or getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open_connection()
        return conn

    def _open_connection(self) -> _ThreadConnection:
        if self._closed:
            raise StoreError("store.closed", path=str(self.path))
        target = ":memory:" if self.file is None else str(self.file)
        try:
            conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False, factory=_ThreadConnection)
        except sqlite3.Error as exc:
            raise StoreError("store.cannot_open", path=str(self.path), reason=str(exc)) from None
        assert isinstance(conn, _ThreadConnection)
        conn.owner = threading.get_ident()
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if self.file is not None:
            conn.execute("PRAGMA synchronous = NORMAL")
        self._local.conn = conn
        self._local.depth = 0
        self._conns.add(conn)
        return conn

    # ---- schema --------------------------------------------------------------------------

    def _migrate(self) -> None:
        """The registered migrations the file has not recorded (agent/store/migrations.py),
        in one transaction; nothing is written when there are none."""
        if not pending(self.conn):
            return
        with self.transaction() as conn:
            migrate(conn)

    # ---- transactions and reads ----------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One logical write: BEGIN IMMEDIATE ... COMMIT, rolled back on any exception.

        Nested use joins the outer transaction, so a service can call another service's
        write inside its own and the whole thing still commits or fails as one. ``lock`` is
        held throughout, so in-process writers queue instead of hitting the busy timeout.
        """
        with self.lock:
            conn = self.conn
            local = self._local
            if getattr(local, "depth", 0):
                local.depth += 1
                try:
                    yield conn
                finally:
                    local.depth -= 1
                return
            guard = self._guard
            if guard is not None:
                guard.hold_writer(BUSY_TIMEOUT_MS / 1000)
                try:
                    guard.check_files()  # holding the writer byte: no Richeng writer is between the check and BEGIN
                except StoreError:
                    guard.drop_writer()
                    raise
            try:
                yield from self._outermost(conn, local)
            finally:
                if guard is not None:
                    guard.drop_writer()
            if self._first_backup_due:
                self._backup_if_holding_events(first=True)

    def _outermost(self, conn: sqlite3.Connection, local: threading.local) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE, the body, the before-commit hooks and COMMIT (or ROLLBACK)."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError("store.busy_or_read_only", reason=str(exc)) from None
        local.depth = 1
        local.hooks = {}
        try:
            yield conn
            while local.hooks:  # before-commit hooks (the undo journal), inside the transaction
                local.hooks.pop(next(iter(local.hooks)))(conn)
        except BaseException as exc:
            local.depth = 0
            local.hooks = {}
            self._rollback(conn)
            full = disk_full(exc, self.file)
            if full is not None:
                raise full from None
            raise
        local.depth = 0
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback(conn)
            full = disk_full(exc, self.file)
            if full is not None:
                raise full from None
            raise

    def before_commit(self, key: str, hook: Callable[[sqlite3.Connection], None]) -> bool:
        """Run ``hook`` inside this thread's open transaction just before it commits.

        Once per ``key`` and transaction; returns True when ``key`` is new in this one, so a
        caller that keeps per-transaction state (the undo journal) knows to start it afresh.
        A rollback drops the hooks. Outside a transaction this raises ``StoreError``."""
        local = self._local
        if not getattr(local, "depth", 0):
            raise StoreError("store.before_commit_outside")
        hooks: dict[str, Callable[[sqlite3.Connection], None]] = local.hooks
        if key in hooks:
            return False
        hooks[key] = hook
        return True

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        """ROLLBACK unless SQLite already ended the transaction itself (it does on some
        errors, e.g. a full disk); a failing ROLLBACK must not hide the original error."""
        if conn.in_transaction:
            conn.execute("ROLLBACK")

    def data_version(self) -> int:
        """SQLite's count of commits by *other* connections (other threads, other processes)
        as this thread's connection has seen them: the app polls it to show what the CLI or a
        sync in another process wrote (it costs no I/O while nothing changed)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def schema_version(self) -> int:
        return read_version(self.conn)

    def _backup_if_holding_events(self, *, first: bool) -> None:
        """A new file's first backup right after its first event is committed (``first``),
        and a daily one at close when none was made today: a database created today used to
        have no copy at all until the first open of a later day."""

        if self.conn.execute("SELECT 1 FROM events LIMIT 1").fetchone() is None:
            return
        self._first_backup_due = False
        if self.backup_dir is None or not (first or backup_mod.daily_due(self.backup_dir, self.clock())):
            return
        try:
            backup_mod.make_backup(self, "daily", self.clock())
        except StoreError as exc:
            self.notices.append(str(exc))

    def close(self) -> None:
        with self.lock:
            if self._closed:
                return
            if self.backups and not self.read_only and self.file is not None:
                with contextlib.suppress(StoreError, sqlite3.Error):  # closing must not fail; the next open backs up
                    self._backup_if_holding_events(first=False)
            replaced = self._guard is not None and self._guard.replaced()
            stale_wal = self._keep_replaced() if replaced else None
            self._close_all()
            if stale_wal is not None:  # the old file's log, saved above: never to be applied to the new file
                for extra in ("-wal", "-shm"):
                    with contextlib.suppress(OSError):
                        Path(f"{stale_wal}{extra}").unlink()
            if self._verified is not None and self.file is not None and self.file.exists() and not replaced:
                self._verified.record()  # never for a file put in place by someone else: it is checked on open

    def _keep_replaced(self) -> Path | None:
        """The file was replaced by rename while open: save what this store holds (the old
        file and its ``-wal``) beside it, and return the database path whose ``-wal`` and
        ``-shm`` are then removed, if they are still the ones this store opened."""
        guard = self._guard
        if guard is None or self.file is None or (self._shared or getattr(self._local, "conn", None)) is None:
            return None  # a new connection would open the new file, not the one this store held
        try:
            backup_mod.keep_replaced(self, self.clock())
        except (StoreError, sqlite3.Error):
            return None  # nothing saved: leave every file as it is
        return self.file if guard.wal_is_ours() else None

    def _close_all(self) -> None:
        self._closed = True
        guard, self._guard = self._guard, None
        if guard is not None:
            guard.release()  # first, so the last store to close may still checkpoint and tidy up
        for conn in list(self._conns):
            conn.close()
        if guard is not None:
            guard.close()
        self._local = threading.local()
        self._shared = None
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
