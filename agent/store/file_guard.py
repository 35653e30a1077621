"""Keeping a live database safe from SQLite's POSIX-lock hazard (issue 19, item 0).

SQLite on Unix locks with POSIX advisory locks, which belong to the *process*: closing any
descriptor of the file, even one a file dialog opened to sniff its type or a hash opened to
read it, drops every lock the process holds on that file. Another process (``richeng
events add`` beside the open app) then finds itself the last user, checkpoints, deletes the
``-wal`` and ``-shm`` the app still writes to, and the app's next connection starts a second
WAL: "database disk image is malformed". SQLite documents this (howtocorrupt.html, 2.2).

The store does not rely on no code in its process ever touching the file. While a ``Store``
is open, ``FileGuard`` holds three Linux *open file description* (OFD) locks, which belong
to a descriptor of the guard's own and survive any other descriptor being closed:

* a read lock on SQLite's SHARED byte range of the database file: no process can take the
  EXCLUSIVE lock SQLite needs before it deletes the WAL at close, so the WAL and ``-shm``
  stay while any Richeng store is open (the last one to close still checkpoints and tidies
  up, since each guard lets go before its store's connections close);
* a read lock on the ``-shm`` dead-man-switch byte: no process can believe it is the first
  and re-initialise the shared memory the others have mapped;
* a write lock on one byte beyond SQLite's ranges, held around every write transaction:
  Richeng's writers in different processes take turns even if SQLite's own writer lock in
  ``-shm`` was dropped by a stray close.

A tripwire checks before every write that the ``-wal`` is still the file the store opened;
if another program replaced it, the write is refused with one line instead of starting a
second WAL. It checks the database itself the same way (issue 29, item 2): a file put in
its place by rename (``mv other.sqlite3 db.sqlite3``, what Dropbox, Syncthing or a restore
by hand do) leaves this store writing to the deleted file while reporting success, so the
write is refused once the path no longer names the file the store holds. That check needs
no locks and runs on every platform. OFD locks conflict with POSIX locks of other processes (fcntl(2)), which is what
makes them visible to SQLite elsewhere. Where the platform has no OFD locks (macOS, Windows)
the guard does nothing and ``FileGuard.active`` is False (docs/architecture.md).
"""

from __future__ import annotations

import contextlib
import errno
import os
import struct
import time
from pathlib import Path

from agent.errors import StoreError

try:
    import fcntl
except ImportError:  # Windows: SQLite locks with LockFileEx there, which has no such hazard
    fcntl = None  # type: ignore[assignment]

PENDING_BYTE = 0x40000000  # SQLite's lock bytes (os_unix.c): PENDING, RESERVED, SHARED range
SHARED_FIRST = PENDING_BYTE + 2
SHARED_SIZE = 510
WRITER_BYTE = PENDING_BYTE + 1024  # Richeng's own: beyond every byte SQLite locks
SHM_DMS_BYTE = 128  # UNIX_SHM_BASE (120) + SQLITE_SHM_NLOCK (8): the dead-man switch

_OFD_SETLK: int = getattr(fcntl, "F_OFD_SETLK", -1)  # -1: the platform has no OFD locks
_OFD_GETLK: int = getattr(fcntl, "F_OFD_GETLK", -1)
HAVE_OFD = _OFD_SETLK >= 0
_FLOCK = "hhqqi4x"  # struct flock on Linux: l_type, l_whence, l_start, l_len, l_pid (0 for OFD)


def _flock(kind: int, start: int, length: int) -> bytes:
    return struct.pack(_FLOCK, kind, os.SEEK_SET, start, length, 0)


def _identity(path: Path | str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class FileGuard:
    """The OFD locks of one open store (see the module docstring). ``take`` after the store's
    first connection has put the file in WAL mode; ``release`` before its connections close."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.wal = Path(f"{db}-wal")
        self._db_name, self._wal_name = str(db), f"{db}-wal"  # stat()ed before every write: no Path work there
        self._fds: list[int] = []
        self._db_fd = -1
        self._wal_id: tuple[int, int] | None = None
        self._db_id: tuple[int, int] | None = None
        self.active = False

    def take(self) -> None:
        self._db_id = _identity(self.db)
        if not HAVE_OFD:
            return
        try:
            self._db_fd = self._lock(self.db, os.O_RDWR, fcntl.F_RDLCK, SHARED_FIRST, SHARED_SIZE)  # RDWR: the writer byte
            self._lock(Path(f"{self.db}-shm"), os.O_RDONLY, fcntl.F_RDLCK, SHM_DMS_BYTE, 1)
        except OSError:
            self.release()  # a file system without locks (some network mounts): SQLite's own only
            return  # the descriptors stay open until close(): see release
        self._wal_id = _identity(self.wal)
        held = os.fstat(self._db_fd)
        self._db_id = held.st_dev, held.st_ino  # the file this store's descriptors hold, whatever the path names now
        self.active = True

    def _lock(self, path: Path, mode: int, kind: int, start: int, length: int) -> int:
        fd = os.open(path, mode | os.O_CLOEXEC)
        self._fds.append(fd)
        fcntl.fcntl(fd, _OFD_SETLK, _flock(kind, start, length))
        return fd

    def check_files(self) -> None:
        """Refuse a write when the database this store opened is no longer at its path
        (deleted, or replaced by rename), or its ``-wal`` has been deleted or replaced."""
        if self.replaced():
            raise StoreError("store.db_replaced", db=str(self.db))
        if self.active and _identity(self._wal_name) != self._wal_id:
            raise StoreError("store.wal_replaced", db=str(self.db))

    def wal_is_ours(self) -> bool:
        """Whether the ``-wal`` at the path is still the one this store opened (known only
        while the guard holds its locks)."""
        return self.active and self._wal_id is not None and _identity(self.wal) == self._wal_id

    def replaced(self) -> bool:
        """Whether the path now names another file than the one this store holds (or none)."""
        return self._db_id is not None and _identity(self._db_name) != self._db_id

    def hold_writer(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for, then hold, Richeng's writer byte (between processes;
        in-process writers already queue on ``Store.lock``)."""
        if not self.active:
            return
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.fcntl(self._db_fd, _OFD_SETLK, _flock(fcntl.F_WRLCK, WRITER_BYTE, 1))
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise StoreError("store.cannot_lock", db=str(self.db), reason=exc.strerror) from None
                if time.monotonic() >= deadline:
                    raise StoreError("store.busy_writer", db=str(self.db)) from None
            time.sleep(0.005)

    def drop_writer(self) -> None:
        if self.active:
            fcntl.fcntl(self._db_fd, _OFD_SETLK, _flock(fcntl.F_UNLCK, WRITER_BYTE, 1))

    def release(self) -> None:
        """Let go of the locks but keep the descriptors: closing one now would drop this
        process's POSIX locks on the file (the very hazard) while its connections still live.
        ``close`` after the connections have closed."""
        ranges = [(fcntl.F_UNLCK, SHARED_FIRST, SHARED_SIZE), (fcntl.F_UNLCK, SHM_DMS_BYTE, 1)]
        for fd, (kind, start, length) in zip(self._fds, ranges, strict=False):
            with contextlib.suppress(OSError):  # closing the descriptor in close() drops it all the same
                fcntl.fcntl(fd, _OFD_SETLK, _flock(kind, start, length))
        self.active = False

    def close(self) -> None:
        self.release()
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        self._db_fd = -1


def held_elsewhere(db: Path) -> bool:
    """Whether another open store (or any SQLite connection in another process) holds ``db``:
    a write lock on SQLite's SHARED range would conflict. Asked before replacing the file
    (``db restore``), which must never pull it from under a running app. False where the
    platform cannot tell. Its probe descriptor is closed again, which drops this process's own
    POSIX locks on ``db``: call it only where this process has no connection to ``db`` open."""
    if not HAVE_OFD or not db.exists():
        return False
    fd = os.open(db, os.O_RDONLY | os.O_CLOEXEC)
    try:
        answer = fcntl.fcntl(fd, _OFD_GETLK, _flock(fcntl.F_WRLCK, SHARED_FIRST, SHARED_SIZE))
    except OSError:
        return False
    finally:
        os.close(fd)
    return bool(struct.unpack(_FLOCK, answer)[0] != fcntl.F_UNLCK)
