"""``richeng db recover``: copy what SQLite can still read from a damaged store into a new file.

Python's ``sqlite3`` has no ``.recover``, so this does the table-by-table version of it: a
fresh file gets the current schema from the real migrations, then each known table is read
from the damaged one through its own b-tree (``NOT INDEXED``, rowid order, so a damaged
index costs nothing) one row at a time. A seek that hits an unreadable page skips ahead in
growing steps until rows can be read again, so one bad page loses the rows on it and not
the rest of the table. Derived data is rebuilt rather than trusted: occurrences are
materialised again from the events, the full-text indexes are filled by their triggers.
Events whose calendar was lost go to a new calendar "已恢复 Recovered" of their profile.

The damaged file is only ever opened read-only; the result is a new file, never in place,
written under a hidden temporary name (mode 0600) and given its name by a hard link only once
it is whole, in a folder that must already exist; an existing file is never replaced. A source that is not a Richeng
database (a text file, another program's SQLite file) is refused before anything is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from agent.errors import StoreError
from agent.files import create_private, partial_name, remove_stale, sync_folder
from agent.messages.message import Message
from agent.store.backups import place_new
from agent.store.event_sql import EVENT_TABLES, EventSql
from agent.store.migrations import known_version, migrate, unknown

# Parents before children, so foreign keys hold as rows arrive. The full-text tables and
# schema_migrations are not copied; occurrences are copied last and checked (see below).
TABLES = (
    "profiles",
    "settings",
    "calendars",
    "events",
    "alarms",
    "memories",
    "messages",
    "commands",
    "observations",
    "sync_accounts",
    "sync_calendars",
    "sync_items",
    "sync_conflicts",
)
RECOVERED_CALENDAR = "已恢复 Recovered"
MAX_SKIP_PROBES = 64
BATCH = 500


@dataclass
class RecoveryReport:
    source: Path
    target: Path
    events: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    unreadable: dict[str, int] = field(default_factory=dict)  # seeks or rows that failed, per table
    rejected: dict[str, int] = field(default_factory=dict)  # rows read but refused by the schema
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "output": str(self.target),
            "events": self.events,
            "rows": self.rows,
            "unreadable": self.unreadable,
            "rejected": self.rejected,
            "notes": self.notes,
        }


def _rows(conn: sqlite3.Connection, table: str, columns: list[str], problems: dict[str, int]) -> Iterator[tuple[Any, ...]]:
    """Every readable row of ``table`` in rowid order, stepping over unreadable pages."""
    names = ", ".join(f'"{c}"' for c in columns)
    query = f'SELECT rowid, {names} FROM "{table}" NOT INDEXED WHERE rowid > ? ORDER BY rowid LIMIT 1'
    try:
        top = conn.execute(f'SELECT MAX(rowid) FROM "{table}" NOT INDEXED').fetchone()[0]
    except sqlite3.DatabaseError:
        top = None

    def seek_from(first: int) -> tuple[Any, ...] | None:
        return conn.execute(query.replace("rowid > ?", "rowid >= ?"), (first,)).fetchone()

    scan = query.replace(" LIMIT 1", "")
    last = -(2**63)
    while True:
        try:
            for row in conn.execute(scan, (last,)):  # one seek, then the leaves in order
                last = int(row[0])
                yield tuple(row[1:])
            return
        except sqlite3.DatabaseError:
            problems[table] = problems.get(table, 0) + 1
            found = _past_bad_page(seek_from, max(last, 0), top)
        if found is None:
            return
        last = int(found[0])
        yield tuple(found[1:])


def _past_bad_page(seek_from: Any, failed: int, top: int | None) -> tuple[Any, ...] | None:
    """The first readable row after an unreadable stretch that starts above ``failed``:
    probe +1, +2, +4 ... until a seek (``rowid >= probe``) works, then bisect back so that
    only the rows of the bad page itself are lost, not the start of the next one."""
    seek = seek_from
    step = 1
    good: int | None = None
    for _ in range(MAX_SKIP_PROBES):
        probe = failed + step
        if top is not None and probe > top:
            return None
        try:
            seek(probe)
            good = probe
            break
        except sqlite3.DatabaseError:
            failed, step = probe, step * 2
    if good is None:
        return None
    while good - failed > 1:
        middle = (good + failed) // 2
        try:
            seek(middle)
            good = middle
        except sqlite3.DatabaseError:
            failed = middle
    return seek(good)


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    try:
        return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]
    except sqlite3.DatabaseError:
        return []


def recover(source: Path, target: Path) -> RecoveryReport:
    """Copy the readable rows of ``source`` into the new file ``target`` (which must not exist).

    The new file is first given the damaged file's own schema version (its migrations, run
    on a plain connection), the rows are copied into that, and only then does ``Store``
    migrate it to the current version, so any data step of a later migration runs on the
    recovered rows exactly as it would have on the original.
    """
    from agent.store import db, file_check
    from agent.store.events import EventRepo

    _check_source(source)
    if os.path.lexists(target):
        raise StoreError("store.recover_target_exists", target=str(target))
    if not target.parent.is_dir():
        raise StoreError("store.recover_no_folder", target=str(target), folder=str(target.parent))
    try:
        damaged = file_check.connect_read_only(source)
        damaged.row_factory = None
        damaged.execute("PRAGMA writable_schema = ON")  # read the schema even if it is inconsistent
    except sqlite3.Error as exc:
        raise StoreError("store.cannot_read", path=str(source), reason=str(exc)) from None
    report = RecoveryReport(source, target)
    final, target = target, partial_name(target, "recovering")  # written aside, renamed when whole (issue 29, item 5)
    remove_stale(final.parent, f".{final.name}.")  # a killed recovery's half file
    created = False
    try:
        _check_richeng(damaged, source)
        try:
            version = file_check.read_version(damaged)
            strange = unknown(damaged)
        except sqlite3.DatabaseError:
            version, strange = 0, []
            report.notes.append("the schema version is unreadable; the current schema is used")
        if strange:
            raise StoreError("store.recover_newer", source=str(source), version=version)
        start = version if version > 0 else known_version()
        try:
            Path(target).unlink(missing_ok=True)
            created = create_private(target)  # 0600 whatever the umask
            fresh = sqlite3.connect(target, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError("store.cannot_create", path=str(final), reason=getattr(exc, "strerror", None) or str(exc)) from None
        try:
            fresh.execute("BEGIN")
            _schema_at(fresh, start)
            for table in TABLES:
                _copy_table(damaged, fresh, table, report)
            _mend_orphans(fresh, report)
            rebuild = _needing_instances(damaged, fresh, report)
            fresh.execute("COMMIT")
        finally:
            fresh.close()
    except BaseException:
        if created:  # our own half-written file; the damaged one was only read
            _remove_partial(target)
        raise
    finally:
        damaged.close()
    try:
        store = db.Store(target, backups=False)  # migrates start -> current
        try:
            with store.transaction():
                for profile_id, uid in rebuild:
                    try:
                        EventRepo(store, int(profile_id)).expander.materialize(uid)
                    except Exception as exc:  # one unreadable event must not stop the rest
                        report.notes.append(f"event {uid}: its instances could not be rebuilt ({exc})")
            report.events = int(store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        finally:
            store.close()
        place_new(target, [final])  # a hard link: a file that appeared at ``final`` meanwhile is never replaced
    except FileExistsError:
        _remove_partial(target)
        raise StoreError("store.recover_target_exists", target=str(final)) from None
    except OSError as exc:
        _remove_partial(target)
        if exc.errno == errno.EEXIST:
            raise StoreError("store.recover_target_exists", target=str(final)) from None
        raise StoreError("store.cannot_create", path=str(final), reason=exc.strerror or str(exc)) from None
    except BaseException:
        _remove_partial(target)
        raise
    sync_folder(final.parent)
    report.target = final
    if start != known_version():
        report.notes.append(f"the damaged file had schema {start}; the new file was upgraded to {known_version()}")
    return report


def _remove_partial(partial: Path) -> None:
    for extra in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(f"{partial}{extra}").unlink(missing_ok=True)


def default_output(source: Path, now: datetime) -> Path:
    """``<stem>-recovered-<UTC stamp>.sqlite3`` beside the database, numbered ``-2``, ``-3`` …
    past names already taken (a second recovery in the same second, or under a fixed
    ``--now``, used to be refused as "already exists")."""
    from agent.store.backups import MAX_NAMES, utc_stamp

    stamp = utc_stamp(now)
    for number in range(1, MAX_NAMES + 1):
        suffix = "" if number == 1 else f"-{number}"
        candidate = source.with_name(f"{source.stem}-recovered-{stamp}{suffix}.sqlite3")
        if not os.path.lexists(candidate):
            return candidate
    raise StoreError("store.recover_names_taken", source=str(source))


def _check_source(source: Path) -> None:
    """A regular file, or one line: a folder, FIFO or device is no database to recover."""
    from agent.files import InputFileError, check_regular

    try:
        info = check_regular(source, "the database")
    except InputFileError as exc:
        raise StoreError("store.recover_unreadable", reason=Message(exc.text("zh"), exc.text("en"))) from None
    if info.st_size == 0:
        raise StoreError("store.recover_empty", source=str(source))


def _check_richeng(damaged: sqlite3.Connection, source: Path) -> None:
    """Refuse, before any file is created, a source that is not a Richeng database: a text
    file (``/etc/passwd``) or another program's SQLite file used to give "saved 0 events"
    and an empty new file. A damaged Richeng file still passes as long as SQLite can read
    its table list (``schema_migrations``) or the events table's columns."""
    try:
        names = {str(row[0]) for row in damaged.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError:
        names = set()
    if "schema_migrations" in names or {"uid", "ics"} <= set(_columns(damaged, "events")):
        return
    # No plain open() of the file to tell the two apart: closing it would drop this process's
    # SQLite locks on it (agent/store/file_guard.py); SQLite's own answer is enough.
    raise StoreError("store.recover_foreign" if names else "store.recover_not_database", source=str(source))


def _schema_at(conn: sqlite3.Connection, version: int) -> None:
    """The schema of the first ``version`` migrations, recorded as the store records it."""
    migrate(conn, upto=version)


def _needing_instances(damaged: sqlite3.Connection, conn: sqlite3.Connection, report: RecoveryReport) -> list[tuple[int, str]]:
    """The (profile, uid) whose occurrences must be rebuilt. Readable occurrence rows are
    copied (rebuilding 1k long series costs minutes); only what they cannot vouch for is
    materialised again: every event when the occurrences table itself had unreadable
    pages, else events with no instance row and series that lost an instance's event."""
    _copy_table(damaged, conn, "occurrences", report)
    everything = "SELECT DISTINCT profile_id, uid FROM events"
    if report.unreadable.get("occurrences") or report.rejected.get("occurrences") or "occurrences" not in report.rows:
        EventSql(conn).clear_all_occurrences()
        return [(int(p), str(u)) for p, u in conn.execute(everything).fetchall()]
    wanted = conn.execute(
        "SELECT DISTINCT e.profile_id, e.uid FROM occurrences o JOIN events e ON e.id = o.series_id"
        " WHERE o.event_id NOT IN (SELECT id FROM events)"
        " UNION SELECT e.profile_id, e.uid FROM events e WHERE NOT EXISTS"
        " (SELECT 1 FROM occurrences o WHERE o.event_id = e.id OR o.series_id = e.id)"
    ).fetchall()
    EventSql(conn).clear_orphan_occurrences()
    return [(int(p), str(u)) for p, u in wanted]


def _copy_table(damaged: sqlite3.Connection, conn: sqlite3.Connection, table: str, report: RecoveryReport) -> None:
    wanted = _columns(conn, table)
    present = set(_columns(damaged, table))
    columns = [c for c in wanted if c in present]
    if not columns:
        if present or table in ("profiles", "calendars", "events"):
            report.notes.append(f"table {table}: unreadable or missing")
        return
    if table in EVENT_TABLES:  # the event tables' SQL lives in EventSql, recovery's copy too
        insert = EventSql.salvage_insert(table, columns)
    else:
        insert = f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({", ".join("?" for _ in columns)})'
    copied = rejected = 0

    def flush(batch: list[tuple[Any, ...]]) -> None:
        """A batch in one statement; if the schema refuses any row, row by row, so one bad
        row costs only itself."""
        nonlocal copied, rejected
        conn.execute("SAVEPOINT batch")
        try:
            conn.executemany(insert, batch)
            conn.execute("RELEASE batch")
            copied += len(batch)
            return
        except sqlite3.Error:
            conn.execute("ROLLBACK TO batch")
            conn.execute("RELEASE batch")
        for row in batch:
            try:
                conn.execute("SAVEPOINT one_row")
                conn.execute(insert, row)
                conn.execute("RELEASE one_row")
                copied += 1
            except sqlite3.Error:
                conn.execute("ROLLBACK TO one_row")
                conn.execute("RELEASE one_row")
                rejected += 1

    batch: list[tuple[Any, ...]] = []
    for row in _rows(damaged, table, columns, report.unreadable):
        batch.append(row)
        if len(batch) >= BATCH:
            flush(batch)
            batch = []
    if batch:
        flush(batch)
    report.rows[table] = copied
    if rejected:
        report.rejected[table] = rejected


def _mend_orphans(conn: sqlite3.Connection, report: RecoveryReport) -> None:
    """Events (and calendars) whose parent row was on a lost page keep their data: a lost
    profile is recreated by id, a lost calendar becomes one "Recovered" calendar per profile."""
    from agent.store.db import utc_now_iso

    now = utc_now_iso()
    for table in ("calendars", "events", "memories", "messages", "settings"):
        for (profile_id,) in conn.execute(
            f"SELECT DISTINCT profile_id FROM {table} WHERE profile_id NOT IN (SELECT id FROM profiles)"
        ).fetchall():
            conn.execute(
                "INSERT INTO profiles(id, name, created_at) VALUES (?, ?, ?)", (profile_id, f"recovered-{profile_id}", now)
            )
            report.notes.append(f"profile {profile_id} was unreadable; recreated as recovered-{profile_id}")
    orphans = conn.execute(
        "SELECT DISTINCT profile_id FROM events WHERE calendar_id NOT IN (SELECT id FROM calendars)"
    ).fetchall()
    for (profile_id,) in orphans:
        row = conn.execute(
            "SELECT id FROM calendars WHERE profile_id = ? AND name = ?", (profile_id, RECOVERED_CALENDAR)
        ).fetchone()
        if row is None:
            default = conn.execute("SELECT 1 FROM calendars WHERE profile_id = ? AND is_default = 1", (profile_id,)).fetchone()
            cur = conn.execute(
                "INSERT INTO calendars(profile_id, name, color, is_default, created_at) VALUES (?, ?, '#9ca3af', ?, ?)",
                (profile_id, RECOVERED_CALENDAR, 0 if default else 1, now),
            )
            calendar_id = cur.lastrowid
        else:
            calendar_id = row[0]
        moved = EventSql(conn).rehome_orphans(profile_id, int(calendar_id or 0))
        report.notes.append(f"{moved} events whose calendar was unreadable are in '{RECOVERED_CALENDAR}'")
    gone = EventSql(conn).clear_orphan_alarms()
    if gone:
        report.notes.append(f"{gone} alarms rows lost their parent and were dropped")
    for child, parent_col, parent in (
        ("sync_items", "mapping_id", "sync_calendars"),
        ("sync_conflicts", "mapping_id", "sync_calendars"),
        ("sync_calendars", "account_id", "sync_accounts"),
    ):
        gone = conn.execute(f"DELETE FROM {child} WHERE {parent_col} NOT IN (SELECT id FROM {parent})").rowcount
        if gone:
            report.notes.append(f"{gone} {child} rows lost their parent and were dropped")
    conn.execute("UPDATE commands SET event_id = NULL WHERE event_id NOT IN (SELECT id FROM events)")
    conn.execute("DELETE FROM sync_calendars WHERE calendar_id NOT IN (SELECT id FROM calendars)")
