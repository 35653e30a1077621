"""The database file before it is opened: where it lives by default, what is in it, and
what to tell the user about a file we will not open.

A file we cannot understand is never modified. Before any pragma that writes (WAL switches
header bytes 18, 19, 27 and 95), ``inspect_file`` reads it through a read-only connection:
the header, the migrations recorded in ``schema_migrations``, and ``PRAGMA quick_check``.
A damaged file, a foreign SQLite file, a newer schema or something that is not a database at
all is refused exactly as it was found, with a message (``refusal``) that says what to do. A zero-length file is
treated as missing and becomes a new store. ``agent.store.db`` re-exports every name here,
so callers may keep importing them from there.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from agent.errors import StoreError
from agent.store.migrations import unknown

BUSY_TIMEOUT_MS = 5000
SQLITE_MAGIC = b"SQLite format 3\x00"


class DamagedStoreError(StoreError):
    """The file is an SQLite database that SQLite itself reports as damaged."""

    def __init__(self, code: str, path: Path, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.path = path


def default_db_path() -> Path:
    """The per-user data file; ``--db`` overrides it."""
    import platformdirs

    return Path(platformdirs.user_data_dir("richeng", appauthor=False)) / "richeng.sqlite3"


@dataclass(frozen=True)
class FileCheck:
    """What ``inspect_file`` found. ``state``: new | ok | not_sqlite | damaged | foreign | newer.
    ``version``: how many migrations the file recorded; for ``newer``, ``detail`` names
    those this code does not know."""

    path: Path
    state: str
    version: int = 0
    detail: str = ""


def read_only_uri(path: Path) -> str:
    """A URI that cannot write. Without a ``-wal``/``-journal`` beside the file no other
    process has it open for writing, so ``immutable=1`` also keeps SQLite from creating
    ``-wal``/``-shm`` files next to a file we may be about to refuse."""
    uri = "file:" + quote(str(path.resolve())) + "?mode=ro"
    if not Path(f"{path}-wal").exists() and not Path(f"{path}-journal").exists():
        uri += "&immutable=1"
    return uri


def connect_read_only(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(read_only_uri(path), uri=True, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")  # another process mid-commit
    return conn


def header_problem(head: bytes) -> str | None:
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return "no SQLite header"
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1) or head[18] not in (1, 2) or head[19] not in (1, 2):
        return "the SQLite header is damaged"
    return None


def inspect_file(path: Path, *, integrity: bool = True) -> FileCheck:
    """Read ``path`` without writing a byte: header, recorded migrations, ``PRAGMA quick_check``.

    A file that records a migration the registry (agent/store/migrations.py) does not know
    is ``newer``; the store migrates from the same registry, so the two always agree.

    ``quick_check`` reads every page once (about 0.1 s for 100k events, 75 MB); the store
    skips it when the file is exactly as it last left it (see ``_Verified``).
    """
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return FileCheck(path, "new")
    except OSError as exc:
        raise StoreError("store.cannot_open", path=str(path), reason=exc.strerror) from None
    if size == 0:
        return FileCheck(path, "new")
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
    except OSError as exc:
        raise StoreError("store.cannot_read", path=str(path), reason=exc.strerror) from None
    problem = header_problem(head)
    if problem == "no SQLite header":
        return FileCheck(path, "not_sqlite", detail=problem)
    if problem:
        return FileCheck(path, "damaged", detail=problem)
    try:
        conn = connect_read_only(path)
    except sqlite3.Error as exc:
        raise StoreError("store.cannot_open", path=str(path), reason=str(exc)) from None
    try:
        version = read_version(conn)
        if version == 0 and has_schema(conn):
            return FileCheck(path, "foreign")
        strange = unknown(conn)
        if strange:
            return FileCheck(path, "newer", version, ", ".join(strange))
        if integrity:
            rows = [row[0] for row in conn.execute("PRAGMA quick_check(3)").fetchall()]
            if rows != ["ok"]:
                detail = "; ".join(str(row).replace("*** in database main ***", "").strip() for row in rows)
                return FileCheck(path, "damaged", version, f"SQLite's integrity check: {detail}")
        return FileCheck(path, "ok", version)
    except sqlite3.OperationalError as exc:  # cannot open, locked, I/O: not a verdict on the file
        full = disk_full(exc, path, reading=True)
        raise full or StoreError("store.cannot_read_untouched", path=str(path), reason=str(exc)) from None
    except sqlite3.DatabaseError as exc:  # corrupt, not a database
        return FileCheck(path, "damaged", detail=str(exc))
    finally:
        conn.close()


LOW_SPACE = 1 << 20
"""Free bytes under which SQLite's "disk I/O error" is taken to mean the disk is full: even a
read-only connection of a WAL file needs room for its ``-shm`` (issue 29, item 14: under
32 KB free every command said the file "cannot be read", as if it were damaged)."""

SQLITE_IOERR = 10
SQLITE_FULL = 13


def free_bytes(path: Path) -> int | None:
    """Free bytes for this user on the file system holding ``path`` (or its folder)."""
    for place in (path, path.parent):
        try:
            info = os.statvfs(place)
        except (OSError, AttributeError):  # AttributeError: Windows has no statvfs
            continue
        return info.f_bavail * info.f_frsize
    return None


def disk_full(exc: BaseException, path: Path | None, *, reading: bool = False) -> StoreError | None:
    """The one-line error for SQLite's "database or disk is full", or for its "disk I/O error"
    when the disk holding ``path`` is all but full; None for any other error. Turns
    ``internal error (OperationalError: database or disk is full)`` into a sentence, and keeps
    a full disk from being reported as a damaged file."""
    if not isinstance(exc, sqlite3.OperationalError):
        return None
    code = int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
    text = str(exc)
    shown = str(path) if path is not None else ":memory:"
    if code == SQLITE_FULL or "disk is full" in text:
        return StoreError("store.disk_full_read" if reading else "store.disk_full", path=shown)
    if path is not None and (code == SQLITE_IOERR or "disk I/O error" in text):
        free = free_bytes(path)
        if free is not None and free < LOW_SPACE:
            return StoreError("store.disk_full_read" if reading else "store.disk_full", path=shown)
    return None


def store_file_role(path: Path, db: Path, backup_dir: Path | None = None) -> str | None:
    """What ``path`` is to the database ``db``: ``"database"`` (the file itself, by name, link
    or hard link), ``"-wal"``, ``"-shm"``, ``"-journal"`` (its side files, existing or not),
    ``"backup"`` (a file in ``backup_dir``, its backup folder), else None. The one test that a command which
    writes a file the user named (``export -o``) or replaces the database (``db restore``)
    makes before writing a byte (issue 29, item 1: ``export -o DB`` wrote ICS over the
    database and exited 0)."""
    path, db = path.expanduser(), db.expanduser()
    try:
        if path.resolve() == db.resolve() or (path.exists() and db.exists() and path.samefile(db)):
            return "database"
        for extra in ("-wal", "-shm", "-journal"):
            named = {Path(f"{db}{extra}").resolve(), Path(f"{db.resolve()}{extra}")}
            if path.resolve() in named:
                return extra
        if backup_dir is not None and path.resolve().parent == backup_dir.resolve():
            return "backup"
    except (OSError, RuntimeError):  # a loop of links: not ours to judge, the write will say
        return None
    return None


def holds_database(path: Path) -> bool:
    """Whether ``path`` exists and starts with SQLite's header: a database (a backup, a copy
    kept aside, another program's) that a text export must never overwrite."""
    try:
        if not path.is_file():  # a FIFO would block the read; a device is no database
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            return os.read(fd, len(SQLITE_MAGIC)) == SQLITE_MAGIC
        finally:
            os.close(fd)
    except OSError:
        return False


def read_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").fetchone()
    if row is None:
        return 0
    (version,) = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return int(version)


def has_schema(conn: sqlite3.Connection) -> bool:
    """Whether the file already holds tables, views or indexes (of some other program)."""
    return conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None


def writable(path: Path) -> bool:
    """Whether the file and its folder (for ``-wal``/``-shm``) accept writes."""
    target = path if path.exists() else path.parent
    return os.access(target, os.W_OK) and os.access(path.parent, os.W_OK)
