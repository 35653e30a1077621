"""Reading a file the user named, with a cap on how much is taken in.

Every reader of a user's file (a script model, an ICS file, a backup's header) goes through
``read_limited``: a FIFO, a directory, a device such as ``/dev/zero`` or a file larger than the
reader's cap is refused with one line before anything is parsed, so no input can hang a
command or end it in ``MemoryError`` (issue 19, item 5).
"""

from __future__ import annotations

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
