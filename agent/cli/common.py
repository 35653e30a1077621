"""What every ``richeng`` command module shares: the one-line parser, the usage error, output,
the global options' readers and the per-command session (store, profile, clock).

It sits at the bottom of ``agent/cli``: ``main`` wires the command modules, the command modules
import only this, and this imports no other CLI module (an import-linter contract in
pyproject.toml keeps it so). Heavy parts (the store, settings, icalendar) load only when a
command opens the store, so ``richeng time resolve`` and ``--help`` stay quick.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from agent.errors import UserFacingError

if TYPE_CHECKING:  # the store and the time context load only for commands that use them
    from agent.store.db import Store
    from agent.timesym.context import TimeContext

EXIT_USAGE = 2


class CliError(UserFacingError):
    """A bad option or argument; printed as one line, exit 2."""

    wrapped: UserFacingError | None = None

    @classmethod
    def of(cls, exc: BaseException) -> CliError:
        """``exc`` as a usage error that reads as ``exc`` does, in either language (its code
        and parameters kept, its own ``text`` used); another exception keeps its text."""
        if not isinstance(exc, UserFacingError):
            return cls(str(exc))
        error = cls(getattr(exc, "code", None) or str(exc), **getattr(exc, "params", {}))
        error.wrapped = exc
        return error

    def text(self, lang: str = "en") -> str:
        return self.wrapped.text(lang) if self.wrapped is not None else super().text(lang)


class Parser(argparse.ArgumentParser):
    """argparse prints usage plus an error over several lines; we promise one line."""

    def error(self, message: str) -> NoReturn:
        raise CliError("cli.usage", prog=self.prog, text=message)


def fail(message: str) -> int:
    """Print one line on stderr, prefixed ``richeng:`` once, and give the usage exit status."""
    line = " ".join(str(message).split())
    print(line if line.startswith("richeng") else f"richeng: {line}", file=sys.stderr)
    return EXIT_USAGE


def emit(args: argparse.Namespace, payload: Any, human: Callable[[], str]) -> None:
    """One JSON line with ``--json``, else the human text (nothing when it is empty)."""
    if getattr(args, "json", False):
        print(json.dumps(payload, ensure_ascii=False, indent=None))
    else:
        text = human()
        if text:
            print(text)


def parse_now(value: str | None, tz: str | None = None) -> datetime | None:
    """``--now`` as an aware instant, or None for the real clock: the reading the app shares
    (``agent.timesym.pretend_now.read_now``: without an offset, wall time in ``tz``, else in
    the system zone), refused as a usage error in one line."""
    if value is None:
        return None
    from agent.timesym.context import load_zone
    from agent.timesym.pretend_now import NowError, read_now

    try:
        return read_now(value, load_zone(tz) if tz else None)
    except NowError as exc:
        raise CliError.of(exc) from None


def clock_now(args: argparse.Namespace) -> datetime:
    """What time it is for this command, always aware: ``--now`` (read in ``--tz``, else the
    system zone), or the real clock. For commands that do not open the store (``db ...``),
    so the settings' zone is not read."""
    from agent.timesym.context import TimeContext

    tz = getattr(args, "tz", None)
    return TimeContext.system(now=parse_now(getattr(args, "now", None), tz), tz=tz).now


NAME_MAX = 255  # bytes in one path component on Linux, macOS and Windows file systems
PATH_MAX = 4096


# Codes (empty, a name too long, the path too long) by what the path is: an option names
# itself in any language, a thing has messages of its own.
_PATH_CHECKS = {
    "option": ("cli.path_empty", "cli.path_name_too_long", "cli.path_too_long"),
    "calendar_file": ("cli.calendar_file_empty", "cli.calendar_file_name_too_long", "cli.calendar_file_too_long"),
    "backup_file": ("cli.backup_file_empty", "cli.backup_file_name_too_long", "cli.backup_file_too_long"),
}


def checked_path(value: str, what: str) -> Path:
    """A path the user typed, refused in one line when it is empty or longer than the OS
    allows (ENAMETOOLONG ended as an internal error, issue 19). ``what``: the option
    (``--db``), or ``calendar_file`` / ``backup_file``."""
    empty, name_too_long, too_long = _PATH_CHECKS["option" if what.startswith("-") else what]
    if not value.strip():
        raise CliError(empty, what=what)
    path = Path(value).expanduser()
    raw = str(path).encode("utf-8", "surrogateescape")
    longest = max((len(part.encode("utf-8", "surrogateescape")) for part in path.parts), default=0)
    if longest > NAME_MAX or len(raw) > PATH_MAX:
        code, limit = (name_too_long, NAME_MAX) if longest > NAME_MAX else (too_long, PATH_MAX)
        raise CliError(code, what=what, limit=limit, shown=str(path)[:60])
    return path


def db_path(value: str | None) -> Path:
    """``--db``, else the user data dir's file (the store module loads only in that case).
    An empty ``--db ""`` is an error, not the default file; a folder, pipe or device is refused
    before SQLite opens it (a FIFO would hang, ``/dev/zero`` read as an endless file)."""
    if value is None:
        from agent.store.file_check import default_db_path

        return default_db_path()
    path = checked_path(value, "--db")
    try:
        path.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return path  # a new file: the store creates it
    except OSError as exc:
        raise CliError("cli.db_unusable", path=str(path), text=str(exc.strerror or exc)) from None
    from agent.files import InputFileError, check_regular

    try:
        check_regular(path, "--db")
    except InputFileError as exc:
        raise CliError.of(exc) from None
    return path


OPEN_STORES: list[Store] = []


def close_stores() -> None:
    """Close what this command opened, so the store records that it left the file valid
    (the next command then skips the full integrity check)."""
    while OPEN_STORES:
        OPEN_STORES.pop().close()


@dataclass
class Session:
    """The store, profile and clock one command runs against."""

    args: argparse.Namespace
    reading: bool = False  # the command only shows data: a read-only file is still usable

    @cached_property
    def store(self) -> Store:
        from agent.store.db import Store

        pretend = getattr(self.args, "now", None) is not None
        store = Store(db_path(getattr(self.args, "db", None)), reading=self.reading,
                      clock=self._clock if pretend else None)  # fmt: skip
        OPEN_STORES.append(store)
        from agent.store import journal_record

        journal_record.set_default_origin(store, "cli")  # the undo journal says who wrote (chat turns say chat)
        for notice in store.notices:  # e.g. a daily backup that could not be written
            print(f"richeng: warning: {' '.join(notice.split())}", file=sys.stderr)
        return store

    def _clock(self) -> datetime:
        """The store's clock under ``--now``: the same instant the time context reads, so the
        undo journal's stamps and the backups' names agree with ``--tz`` (a ``--now`` without
        an offset was taken as UTC there). While the store is still opening, the settings'
        zone cannot be read yet: ``--tz`` or the system zone decides (backup names only)."""
        if "store" in self.__dict__:
            return self.ctx.now
        return clock_now(self.args)

    @cached_property
    def profile_id(self) -> int:
        from agent.store.profiles import DEFAULT_PROFILE, ensure_profile

        return ensure_profile(self.store, getattr(self.args, "profile", None) or DEFAULT_PROFILE)

    @cached_property
    def ctx(self) -> TimeContext:
        from agent.services.settings import SettingsService, zone
        from agent.timesym.context import TimeContext

        tz = getattr(self.args, "tz", None)
        settings = None
        if tz is None:
            settings = SettingsService(self.store, self.profile_id)
            tz = settings.timezone_name()
        zone(tz)  # a clear error for an unknown name
        country = "CN"
        if getattr(self.args, "db", None) is not None or settings is not None:
            settings = settings or SettingsService(self.store, self.profile_id)
            country = str(settings.get("holiday_country"))
        return TimeContext.system(now=parse_now(getattr(self.args, "now", None), tz), tz=tz, holiday_country=country)
