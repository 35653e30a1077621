"""Automatic backups of the store, and restoring one.

A calendar app is often the only copy of someone's schedule, so the store keeps its own:
SQLite's online backup API (``Connection.backup``) copies a consistent snapshot while the
app runs, into ``<user data dir>/backups/`` (for a ``--db`` file elsewhere, a folder there
named after it). Kinds and how many of each are kept:

- ``daily``: the first open of a day that finds a valid file (after its ``quick_check``); the last 7.
- ``migration``: before a schema upgrade (the upgrade is refused if this copy fails); the last 7.
- ``import``: before an import of more than ``IMPORT_BACKUP_MIN_EVENTS`` events; the last 7.

Every decision takes ``now`` from the caller (the store's injected clock), never the wall
clock, so rotation is testable. Names carry the UTC time and the kind, e.g.
``richeng-20261201T101500Z-daily.sqlite3``; nothing but the name is needed to list them.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shlex
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from pathlib import Path
from typing import Any, Protocol

from agent.errors import NewerSchemaError, StoreError
from agent.files import PARTIAL, create_private, private_folder, remove_stale, sync_folder, tighten
from agent.messages.message import Message
from agent.store.file_check import (
    DamagedStoreError,
    FileCheck,
    connect_read_only,
    default_db_path,
    inspect_file,
    store_file_role,
)
from agent.store.file_guard import held_elsewhere
from agent.store.migrations import known_version


class BackupSource(Protocol):
    """What a backup reads of an open store (``agent.store.db.Store`` is one): its file, its
    connection and clock, and whether backups are wanted. A protocol, so this module sits
    below ``db`` and the store can make its own backups without an import circle."""

    @property
    def path(self) -> Path | str: ...
    @property
    def file(self) -> Path | None: ...
    @property
    def backup_dir(self) -> Path | None: ...
    @property
    def conn(self) -> sqlite3.Connection: ...
    @property
    def read_only(self) -> bool: ...
    @property
    def backups(self) -> bool: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...


KINDS = ("daily", "migration", "import")
KEEP = {"daily": 7, "migration": 7, "import": 7}
IMPORT_BACKUP_MIN_EVENTS = 200
SUFFIX = ".sqlite3"
STAMP = "%Y%m%dT%H%M%SZ"
MAX_NAMES = 10_000  # names tried per second and kind before giving up (each one is a file that exists)
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EXDEV, errno.EMLINK}
COUNT_LIMIT = 4 << 30
"""What ``count_vevents`` reads at most: far above any importer's cap (the 100k-event
benchmark file is 34 MB), so the count never refuses a file the import would take; it only
stops a device, a FIFO or an endless file from running forever."""


@dataclass(frozen=True)
class Backup:
    path: Path
    kind: str
    created: datetime  # aware, UTC
    size: int

    def to_json(self) -> dict[str, Any]:
        return {"path": str(self.path), "kind": self.kind, "created": self.created.isoformat(), "bytes": self.size}


def backup_dir_for(db: Path) -> Path:
    """Backups of the default file live in ``<data dir>/backups``; those of any other file
    in a sub-folder named after it (stem plus a hash of its absolute path), so two files
    never share, and so never rotate away, each other's copies."""
    import platformdirs

    base = Path(platformdirs.user_data_dir("richeng", appauthor=False)) / "backups"
    absolute = db.expanduser().resolve()
    if absolute == default_db_path().resolve():
        return base
    digest = hashlib.sha1(str(absolute).encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return base / f"{absolute.stem}-{digest}"


def wanted_for(db: Path) -> bool:
    """Automatic backups, unless the file (other than the default database) lives in the
    system's temporary folder: that is scratch by location (tests, benchmarks), and copying
    it into the user's data dir every day would fill it. ``RICHENG_BACKUPS=1`` turns them on
    anyway, ``=0`` off everywhere."""
    import tempfile

    forced = os.environ.get("RICHENG_BACKUPS")
    if forced in ("0", "1"):
        return forced == "1"
    absolute = db.expanduser().resolve()
    if absolute == default_db_path().resolve():
        return True  # the user's own calendar, wherever the data dir is
    try:
        absolute.relative_to(Path(tempfile.gettempdir()).resolve())
    except ValueError:
        return True
    return False


def _parse(path: Path) -> Backup | None:
    """A backup's kind and time from its name ``<stem>-<stamp>[-n]-<kind>.sqlite3``."""
    if not path.name.endswith(SUFFIX) or path.name.startswith("."):
        return None
    parts = path.name[: -len(SUFFIX)].split("-")
    if len(parts) < 3 or parts[-1] not in KINDS:
        return None
    stamp = parts[-3] if parts[-2].isdigit() and len(parts) >= 4 and parts[-3].endswith("Z") else parts[-2]
    try:
        created = datetime.strptime(stamp, STAMP).replace(tzinfo=UTC)
        size = path.stat().st_size
    except (ValueError, OSError):
        return None
    return Backup(path, parts[-1], created, size)


def list_backups(db: Path, directory: Path | None = None) -> list[Backup]:
    """Every backup of ``db``, newest first."""
    folder = directory or backup_dir_for(db)
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    found = [backup for backup in map(_parse, entries) if backup is not None]
    return sorted(found, key=lambda b: (b.created, b.path.name), reverse=True)


def daily_due(directory: Path, now: datetime) -> bool:
    """No daily backup yet on ``now``'s calendar day (in ``now``'s own zone). Backups dated
    after ``now`` (a clock that ran ahead) do not count for today, and never stop one."""
    zone = now.tzinfo
    return not any(b.kind == "daily" and local_date(b.created, zone) == now.date() for b in list_backups(Path("."), directory))


def local_date(moment: datetime, zone: tzinfo | None) -> date | None:
    """``moment``'s day in ``zone``; None where the day is past what ``datetime`` holds (a
    name stamped 9999-12-31T23:59Z is year 10000 in Shanghai)."""
    try:
        return moment.astimezone(zone).date()
    except (OverflowError, ValueError):
        return None


def shown_time(moment: datetime) -> str:
    """A backup's time as local ``YYYY-MM-DD HH:MM`` for people, or UTC when local time
    cannot hold it."""
    try:
        return f"{moment.astimezone():%Y-%m-%d %H:%M}"
    except (OverflowError, ValueError):
        return f"{moment:%Y-%m-%d %H:%M} UTC"


def make_backup(store: BackupSource, kind: str, now: datetime) -> Backup:
    """Copy ``store`` into its backup folder as ``kind``, then drop the oldest of that kind.

    Written to a hidden temporary name and renamed, so a crash leaves no half backup that
    a restore could pick. The copy is switched to a rollback journal: it is a single
    self-contained file that can be read in place (``db backups``) or copied anywhere.
    """
    if kind not in KINDS:
        raise ValueError(kind)
    if store.backup_dir is None or store.file is None:
        raise StoreError("store.memory_no_backups")
    folder = store.backup_dir
    stem = Path(store.path).stem
    stamp = utc_stamp(now)
    names = (folder / (f"{stem}-{stamp}-{kind}{SUFFIX}" if n == 1 else f"{stem}-{stamp}-{n}-{kind}{SUFFIX}")
             for n in range(1, MAX_NAMES + 1))  # fmt: skip
    partial = folder / f".{stem}-{stamp}-{kind}-{os.getpid()}-{threading.get_ident()}{SUFFIX}{PARTIAL}"
    try:
        private_backup_folder(folder)
        remove_stale(folder, ".")  # a killed backup's half copy (tens of MB), once its process is gone
    except OSError as exc:
        raise StoreError("store.backup_failed", path=str(store.path), folder=str(folder), reason=_reason(exc)) from None
    target = _copy_whole(store, partial, names, Path(store.path), folder)
    rotate(folder, kind, KEEP[kind], spare=target, now=now)
    try:
        size = target.stat().st_size
    except OSError:
        size = 0
    return Backup(target, kind, _parse_stamp(target) or now.astimezone(UTC), size)


def keep_replaced(store: BackupSource, now: datetime) -> Path:
    """Save what an open store still holds after its file was replaced by rename (issue 29,
    item 2) as ``<name>.replaced-<UTC stamp>[-n]`` beside the new file, 0600: the holder's
    connection still reads the old file and its ``-wal``, which no path names any more.
    SQLite leaves that ``-wal`` behind at close when the file has moved, and the next opener
    would apply it to the new file; the caller removes it once this copy is made."""
    if store.file is None:
        raise StoreError("store.memory_no_backups")
    db = store.file
    stamp = utc_stamp(now)
    partial = db.with_name(f".{db.name}.replaced-{os.getpid()}{PARTIAL}")
    names = (db.with_name(f"{db.name}.replaced-{stamp}" + ("" if n == 1 else f"-{n}")) for n in range(1, MAX_NAMES + 1))
    return _copy_whole(store, partial, names, db, db.parent)


def _copy_whole(store: BackupSource, partial: Path, names: Iterable[Path], path: Path, folder: Path) -> Path:
    """Copy what ``store`` holds to ``partial`` (0600 whatever the umask: SQLite keeps the
    mode it finds), then give it the first free name of ``names``: a copy is never seen half
    written and never replaces a file. Raises ``store.backup_failed`` naming ``path``."""
    try:
        partial.unlink(missing_ok=True)
        create_private(partial)
        copy = sqlite3.connect(partial)
        try:
            store.conn.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
        target = place_new(partial, names)
    except (OSError, sqlite3.Error) as exc:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise StoreError("store.backup_failed", path=str(path), folder=str(folder), reason=_reason(exc)) from None
    sync_folder(folder)
    return target


def _after(moment: datetime, now: datetime) -> bool:
    """Whether a backup's time is after ``now`` (a naive ``now`` is taken as UTC)."""
    try:
        return moment > (now if now.tzinfo is not None else now.replace(tzinfo=UTC))
    except (OverflowError, ValueError):
        return False


def _reason(exc: BaseException) -> str:
    """The operating system's words for a failed copy, never the name of our own hidden
    temporary file (issue 29: "unable to open database file: …/.richeng-….partial")."""
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    text = str(exc)
    return text.split(PARTIAL, 1)[0].rsplit(" ", 1)[0] if PARTIAL in text else text


def private_backup_folder(folder: Path) -> None:
    """The backup folder and the data folder above it, created 0700 and tightened to 0700 if
    looser (issue 29, item 8); the backups in it 0600. A folder that is not under the user
    data dir (``Store(backup_dir=...)``) is ours too: it was named for backups."""
    import platformdirs

    data = Path(platformdirs.user_data_dir("richeng", appauthor=False))
    private_folder(folder)
    for above in folder.parents:
        if above == data or data in above.parents:
            tighten(above)
        if above == data:
            break
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            if entry.name.endswith(SUFFIX):
                tighten(entry)


def _parse_stamp(path: Path) -> datetime | None:
    made = _parse(path)
    return made.created if made is not None else None


def utc_stamp(now: datetime) -> str:
    """``now`` as the UTC stamp of a file name. An instant UTC cannot hold (year 1 east of
    Greenwich) keeps its wall time: a name is no reason to refuse a backup."""
    try:
        moment = now.astimezone(UTC)
    except (OverflowError, ValueError):
        moment = now
    # not strftime: its %Y gives "1", not "0001", for year 1 on glibc
    return f"{moment.year:04d}{moment.month:02d}{moment.day:02d}T{moment.hour:02d}{moment.minute:02d}{moment.second:02d}Z"


def place_new(source: Path, names: Iterable[Path], *, keep_source: bool = False) -> Path:
    """Give ``source`` the first of ``names`` that no file has, and return it; never replaces
    a file (issue 19: two restores in the same second overwrote the first kept-aside copy).

    A hard link is the atomic test: ``os.link`` fails on an existing name, so a copy another
    process put there a moment ago still loses nothing. Then ``source``'s own name goes,
    unless ``keep_source`` (the database being restored keeps its name until the restored copy
    replaces it, so there is no moment without a file). On a file system without hard links
    the name is claimed with ``O_EXCL`` and ``source`` renamed onto that claim, its own empty
    file (the database's name is then free until the copy lands, as any rename would leave it).
    """
    for name in names:
        try:
            os.link(source, name, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise
            try:
                os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                continue
            os.replace(source, name)
            return name
        if not keep_source:
            os.unlink(source)
        return name
    raise OSError(errno.EEXIST, "every free name is taken", str(source))


def rotate(directory: Path, kind: str, keep: int, spare: Path | None = None, now: datetime | None = None) -> list[Path]:
    """Delete all but the newest ``keep`` backups of ``kind``; returns what was deleted.

    ``spare`` (the backup just made) is never deleted and counts as one of the ``keep``:
    after a clock that ran ahead (or a ``--now`` years on), seven backups dated in the future
    made today's copy the oldest, and rotation deleted it at once (issue 29, item 6). Given
    ``now``, backups dated after it go first: whichever clock was wrong, they were made
    before the one just made, so their dates say nothing about which copy is newest; the rest
    go by the dates in their names, oldest first."""
    mine = [b for b in list_backups(Path("."), directory) if b.kind == kind]
    if spare is not None:
        mine = [b for b in mine if b.path != spare]
        keep = max(keep - 1, 0)
    if now is not None:
        mine.sort(key=lambda b: _after(b.created, now))  # stable: newest first within each group
    removed = []
    for old in mine[keep:]:
        try:
            old.path.unlink()
            removed.append(old.path)
        except OSError:
            pass
    return removed


def backup_before_import(store: BackupSource, event_count: int, now: datetime | None = None) -> Backup | None:
    """The import path calls this with the number of events it is about to write: above
    ``IMPORT_BACKUP_MIN_EVENTS`` (and with anything in the store to lose) the store is
    copied first. A failed copy raises, so the import does not run unprotected."""
    if event_count <= IMPORT_BACKUP_MIN_EVENTS or store.file is None or store.read_only or not store.backups:
        return None
    if store.conn.execute("SELECT 1 FROM events LIMIT 1").fetchone() is None:
        return None
    return make_backup(store, "import", now or store.clock())


def count_vevents(path: Path, chunk: int = 1 << 20, limit: int = COUNT_LIMIT) -> int:
    """How many ``BEGIN:VEVENT`` lines a file holds, read in chunks (bounded memory). Not a
    regular file (``/dev/zero``, a FIFO, a folder) or over ``limit`` bytes: ``InputFileError``,
    one line, before anything is written."""
    from agent.files import iter_limited

    needle = b"BEGIN:VEVENT"
    total = 0
    tail = b""
    for block in iter_limited(path, limit, "the calendar file", chunk):
        data = (tail + block).upper()
        total += data.count(needle)
        tail = data[-(len(needle) - 1) :]
        # a needle straddling the seam is counted once: the tail is shorter than the needle
    return total


@dataclass(frozen=True)
class Restored:
    source: Path
    target: Path
    aside: Path | None
    events: int

    def to_json(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "restored": str(self.target),
            "previous_kept_as": str(self.aside) if self.aside else None,
            "events": self.events,
        }


def check_restorable(source: Path) -> int:
    """Refuse a file that is not a healthy Richeng store this version can open; returns its
    event count."""
    from agent.files import InputFileError, check_regular

    if not os.path.lexists(source):
        raise StoreError("store.restore_missing", source=str(source))
    try:
        check_regular(source, "the backup")
    except InputFileError as exc:
        raise StoreError("store.restore_unreadable", reason=Message(exc.text("zh"), exc.text("en"))) from None
    check = inspect_file(source)
    if check.state == "new":
        raise StoreError("store.restore_empty", source=str(source))
    if check.state != "ok":
        refused = refusal(check)
        raise StoreError("store.restore_refused", reason=Message(refused.text("zh"), refused.text("en")))
    conn = connect_read_only(source)
    try:
        has_events = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone()
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]) if has_events else 0
    finally:
        conn.close()


SIDE_FILES = ("-wal", "-shm", "-journal")


def restore(source: Path, target: Path, now: datetime) -> Restored:
    """Put a copy of ``source`` in place of ``target``; the current file (with its ``-wal``)
    is kept aside first under a name no file has, never deleted or overwritten. Close the
    app before restoring."""

    source, target = source.expanduser(), target.expanduser()
    if store_file_role(source, target) == "database":
        raise StoreError("store.restore_is_database", source=str(source))
    events = check_restorable(source)
    if held_elsewhere(target):
        raise StoreError("store.restore_target_open", target=str(target))
    if not target.parent.is_dir():
        raise StoreError("store.restore_no_folder", target=str(target), folder=str(target.parent))
    partial = target.with_name(f".{target.name}.restoring-{os.getpid()}")
    remove_stale(target.parent, f".{target.name}.restoring-")  # a killed restore's copy
    reader = connect_read_only(source)
    try:
        partial.unlink(missing_ok=True)
        create_private(partial)
        copy = sqlite3.connect(partial)
        try:
            reader.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        raise StoreError("store.copy_failed", source=str(source), reason=getattr(exc, "strerror", None) or str(exc)) from None
    finally:
        reader.close()
    aside = None
    try:
        if target.exists():
            aside = keep_aside(target, now)
        os.replace(partial, target)
        sync_folder(target.parent)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        reason = exc.strerror or str(exc)
        if aside:
            raise StoreError("store.restore_failed_kept", target=str(target), reason=reason, aside=str(aside)) from None
        raise StoreError("store.restore_failed", target=str(target), reason=reason) from None
    return Restored(source, target, aside, events)


def keep_aside(target: Path, now: datetime, label: str = "before-restore") -> Path:
    """Give the database (and its ``-wal``, ``-shm``, ``-journal``) the first free name
    ``<name>.<label>-<UTC stamp>[-n]`` (the app's salvage uses ``damaged``). The name is free when none of the four exists;
    ``place_new`` then takes each atomically, so another restore in the same second (or any
    restore under a fixed ``--now``) takes the next number instead of replacing this copy.
    The database keeps its own name too until the restored copy replaces it; its side files
    leave theirs, so SQLite never applies the old ``-wal`` to the restored file."""
    base = f"{target.name}.{label}-{utc_stamp(now)}"
    for number in range(1, MAX_NAMES + 1):
        aside = target.with_name(base if number == 1 else f"{base}-{number}")
        if any(os.path.lexists(f"{aside}{extra}") for extra in SIDE_FILES):
            continue
        try:
            place_new(target, [aside], keep_source=True)
        except OSError as exc:
            if exc.errno != errno.EEXIST:
                raise
            continue
        for extra in SIDE_FILES:
            side = Path(f"{target}{extra}")
            if side.exists():
                place_new(side, [Path(f"{aside}{extra}")])
        return aside
    raise OSError(errno.EEXIST, "every kept-aside name is taken", str(target))


def db_hint(path: Path) -> str:
    """``richeng`` or ``richeng --db PATH``: the command a message tells the user to run."""
    try:
        if path.resolve() == default_db_path().resolve():
            return "richeng"
    except OSError:
        pass
    return f"richeng --db {shlex.quote(str(path))}"


def refusal(check: FileCheck) -> StoreError:
    """The one-line error for a file we will not open, naming it and saying what to do."""
    path = check.path
    if check.state == "not_sqlite":
        # A DamagedStoreError, so the app offers its salvage: a Richeng file whose first page
        # was overwritten looks exactly like this, and its -wal may still hold that page.
        return DamagedStoreError("store.not_sqlite", path, path=str(path))
    if check.state == "foreign":
        return StoreError("store.foreign", path=str(path))
    if check.state == "newer":
        return NewerSchemaError("store.newer", path=str(path), version=check.version, known=known_version(), unknown=check.detail)
    hint = db_hint(path)
    found = list_backups(path)
    if found:
        newest = found[0]
        return DamagedStoreError(
            "store.damaged_backup",
            path,
            path=str(path),
            detail=check.detail,
            hint=hint,
            backup=str(newest.path),
            created=shown_time(newest.created),
            quoted=shlex.quote(str(newest.path)),
        )
    return DamagedStoreError("store.damaged_no_backup", path, path=str(path), detail=check.detail, hint=hint)
