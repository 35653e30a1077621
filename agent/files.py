"""Reading a file the user named, with a cap on how much is taken in.

Every reader of a user's file (a script model, an ICS file, a backup's header) goes through
``read_limited``: a FIFO, a directory, a device such as ``/dev/zero`` or a file larger than the
reader's cap is refused with one line before anything is parsed, so no input can hang a
command or end it in ``MemoryError`` (issue 19, item 5).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from agent.errors import UserFacingError
from agent.messages.catalogue import pair
from agent.messages.files import KINDS, NOUNS
from agent.messages.message import Message

MiB = 1 << 20


class InputFileError(UserFacingError):
    """A file the user named cannot be read as the command needs (missing, not a regular
    file, too large, unreadable)."""


def _describe(mode: int) -> Message:
    if stat.S_ISDIR(mode):
        return KINDS["folder"]
    if stat.S_ISFIFO(mode):
        return KINDS["fifo"]
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return KINDS["device"]
    if stat.S_ISSOCK(mode):
        return KINDS["socket"]
    return KINDS["other"]


def _noun(what: str) -> Message:
    return NOUNS.get(what) or Message(what, what)


def check_regular(path: Path, what: str) -> os.stat_result:
    """The file's stat if it is a regular file (links followed), else ``InputFileError``."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputFileError("files.missing", what=_noun(what), path=str(path)) from None
    except OSError as exc:
        raise InputFileError("files.unreadable", what=_noun(what), path=str(path), reason=exc.strerror or str(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise InputFileError("files.wrong_kind", what=_noun(what), path=str(path), kind=_describe(info.st_mode))
    return info


def iter_limited(path: Path, limit: int, what: str, chunk: int = MiB) -> Iterator[bytes]:
    """The file in chunks of at most ``chunk`` bytes, for readers that need not hold it
    whole (counting events before an import). Refused like ``read_limited``: not a regular
    file, or more than ``limit`` bytes (raised once the reader gets past the limit, so a file
    that grows while it is read is still cut off). The open is non-blocking, so a FIFO swapped
    in after the check cannot hang the read."""
    check_regular(path, what)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputFileError("files.unreadable", what=_noun(what), path=str(path), reason=exc.strerror or str(exc)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputFileError("files.not_regular", what=_noun(what), path=str(path))
        taken = 0
        while True:
            try:
                block = os.read(fd, min(chunk, limit + 1 - taken))
            except OSError as exc:
                raise InputFileError(
                    "files.unreadable", what=_noun(what), path=str(path), reason=exc.strerror or str(exc)
                ) from None
            if not block:
                return
            taken += len(block)
            if taken > limit:
                raise InputFileError("files.too_large", what=_noun(what), path=str(path), size=_size(limit))
            yield block
    finally:
        os.close(fd)


def read_limited(path: Path, limit: int, what: str) -> bytes:
    """The whole file, refused with one line when it is not a regular file or holds more than
    ``limit`` bytes. The open is non-blocking, so a FIFO swapped in after the check still cannot
    hang the read, and at most ``limit + 1`` bytes are ever read."""
    return b"".join(iter_limited(path, limit, what))


def _size(limit: int) -> Message:
    return pair("files.size_mib", n=limit // MiB) if limit >= MiB else pair("files.size_bytes", n=limit)


# ---- writing a file for a person (issue 29, items 5 and 8) ---------------------------------

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
PARTIAL = ".partial"


def partial_name(target: Path, tag: str = "") -> Path:
    """The hidden temporary name a file is written under before it is renamed to ``target``:
    in ``target``'s own folder (so the rename is atomic), carrying this process's id (so a
    leftover of a killed writer can be told from a live one: ``remove_stale``)."""
    return target.with_name(f".{target.name}.{tag or 'writing'}-{os.getpid()}{PARTIAL}")


def write_replacing(path: Path, data: bytes, *, mode: int = PRIVATE_FILE) -> Path:
    """Write ``data`` to ``path`` so that the file is at every moment either the previous one
    or the complete new one: written to a temporary file in the same folder, flushed and
    fsynced, then renamed over ``path`` (a full disk used to leave a good export truncated
    mid-event). A new file gets ``mode``; one that exists keeps its own mode. A link is
    followed (the file it names is replaced, the link stays); a device or a FIFO (``-o
    /dev/stdout``) is written to directly, having no contents to lose, and so is a writable
    file in a folder this user may not add to (the one case left in place, as before).
    Returns the file written. Errors are ``OSError`` naming ``path``; nothing is left behind."""
    target = Path(os.path.realpath(path))
    try:
        info: os.stat_result | None = target.stat()
    except FileNotFoundError:
        info = None
    if info is not None and (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
        with open(target, "wb") as stream:
            stream.write(data)
        return target
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    remove_stale(target.parent, f".{target.name}.")
    partial = partial_name(target)
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_FILE)
    except PermissionError:
        if info is None or not os.access(target, os.W_OK):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path)) from None
        # A writable file in a folder we may not add to: in place, as before (the only case)
        with open(target, "r+b") as stream:
            stream.write(data)
            stream.truncate()
            stream.flush()
            os.fsync(stream.fileno())
        return target
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        try:
            os.fchmod(fd, stat.S_IMODE(info.st_mode) if info is not None else mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(partial, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    sync_folder(target.parent)
    return target


def sync_folder(folder: Path) -> None:
    """fsync a folder, so a rename in it survives a power cut; best effort (not every
    platform or file system can)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def private_folder(folder: Path) -> Path:
    """Create ``folder`` (and its parents) for Richeng's own data, 0700 whatever the umask, and
    tighten it to 0700 if it exists with group or other bits (a folder that is not ours, by
    owner, is left as it is). Raises ``OSError`` when it cannot be created."""
    folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    tighten(folder)
    return folder


def tighten(path: Path) -> None:
    """Take group and other permissions off one of Richeng's own files or folders (issue 29,
    item 8: everything was world-readable under umask 022). Only a path this user owns is
    changed; failure (a read-only mount) is not an error: the data is still there."""
    with contextlib.suppress(OSError):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode) or info.st_uid != os.geteuid() or not info.st_mode & 0o077:
            return
        os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o077)


def create_private(path: Path) -> bool:
    """Create the empty file ``path`` with mode 0600 unless it exists; True when created.
    SQLite gives a new database (and its ``-wal``, ``-shm``) the mode of the file it finds."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE_FILE))
    except FileExistsError:
        return False
    return True


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return True


def remove_stale(folder: Path, prefix: str) -> list[Path]:
    """Delete the leftovers of writers that were killed: hidden files in ``folder`` named
    ``<prefix>…-<pid>.partial`` or ``<prefix>…restoring-<pid>`` (a backup, an export, a
    restore copy; tens of MB each) whose process no longer exists. A live writer's file, and
    anything not named so, is never touched. Returns what was removed."""
    removed: list[Path] = []
    try:
        entries = [entry for entry in folder.iterdir() if entry.name.startswith(prefix)]
    except OSError:
        return removed
    for entry in entries:
        pid = _writer_pid(entry.name)
        if pid is None or _pid_alive(pid):
            continue
        with contextlib.suppress(OSError):
            entry.unlink()
            removed.append(entry)
    return removed


def _writer_pid(name: str) -> int | None:
    """The process id in a temporary name (``…-<pid>.partial``, ``…-<pid>-<thread>.sqlite3.partial``,
    ``….restoring-<pid>``), or None for a name that is not one of ours."""
    if not name.startswith("."):
        return None
    if name.endswith(PARTIAL):
        stem = name[: -len(PARTIAL)].removesuffix(".sqlite3")
        parts = stem.split("-")
        digits = [part for part in parts[-2:] if part.isdigit()]
        if not digits:
            return None
        return int(parts[-2]) if len(digits) == 2 else int(digits[-1])
    head, found, pid = name.rpartition(".restoring-")
    if found and head and pid.isdigit():
        return int(pid)
    return None
