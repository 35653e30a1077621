"""Files made by an earlier Richeng, and a registry as a newer Richeng has it: what every
migration test starts from (CONTRIBUTING.md, "Adding a migration").

``make_previous_store`` writes a database as the release before the newest migration left
it: the first migrations only (by default all but the last), run by the real migration
functions, recorded as that release recorded them, and holding a few rows. ``newer_release``
registers extra migrations for the length of a test, so the code under test is the next
release and the real files of this one are "the previous version".
"""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from agent.store.components import build_event
from agent.store.db import Store, utc_now_iso
from agent.store.events import EventRepo
from agent.store.migrations import MIGRATIONS, Migration, known_version, migrate, migration
from agent.store.profiles import ensure_profile
from tests.support.clock import NEW_YORK, NOW, SHANGHAI

if TYPE_CHECKING:
    import icalendar

# Releases up to the one that added m006_occurrences_span recorded applied migrations by
# number only (``schema_migrations`` without ``name``); a file of that many migrations or
# fewer is made that way unless ``numbered=False`` asks for this code's bookkeeping.
NUMBERED_ONLY = 6


def previous_events() -> list[icalendar.Event]:
    """The default rows: a zoned meeting, a weekly series, a two-week zoned trip and a
    multi-year all-day note (long spans are what the range index cares about)."""
    meeting = datetime(2026, 12, 8, 9, tzinfo=SHANGHAI)
    trip = datetime(2026, 12, 5, 7, tzinfo=NEW_YORK)
    series = datetime(2026, 12, 1, 14, tzinfo=SHANGHAI)
    return [
        build_event("call", meeting, meeting + timedelta(hours=1), uid="call", stamp=NOW),
        build_event("weekly", series, series + timedelta(hours=1), uid="weekly", rrule="FREQ=WEEKLY;COUNT=4", stamp=NOW),
        build_event("trip", trip, trip + timedelta(weeks=2), uid="trip", stamp=NOW),
        build_event("note", date(2007, 1, 1), date(2031, 1, 1), uid="note", stamp=NOW),
    ]


def make_previous_store(
    path: Path,
    *,
    migrations: int | None = None,
    events: Sequence[icalendar.Event] | None = None,
    numbered: bool | None = None,
) -> Path:
    """A closed file at ``path`` holding the first ``migrations`` migrations (default: all
    but the last) and one profile with its default calendar and ``events`` (default
    ``previous_events()``), with their alarms and materialised instances.

    The schema is exactly what those migrations made (each object's SQL as the release
    stored it) and the record is that release's: numbers only up to ``NUMBERED_ONLY``
    migrations, names after (``numbered`` overrides). The rows are the ones this code writes,
    copied column by column into the tables and columns the older schema has; its
    triggers fill the full-text and span indexes as they did then."""
    upto = known_version() - 1 if migrations is None else migrations
    numbered = upto <= NUMBERED_ONLY if numbered is None else numbered
    with tempfile.TemporaryDirectory(prefix="richeng-previous-") as scratch:
        source = Path(scratch) / "rows.sqlite3"
        store = Store(source, backups=False)
        try:
            profile = ensure_profile(store)
            calendar = store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile,)).fetchone()[0]
            repo = EventRepo(store, profile)
            with store.transaction():
                for component in previous_events() if events is None else events:
                    repo.save(component, calendar, "user")
        finally:
            store.close()
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("BEGIN")
            _schema(conn, upto, numbered)
            conn.execute("COMMIT")
            _copy_rows(conn, source)
        finally:
            conn.close()
    return path


def _schema(conn: sqlite3.Connection, upto: int, numbered: bool) -> None:
    if not numbered:
        migrate(conn, upto=upto)
        return
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ( version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    for number, function in enumerate(MIGRATIONS[:upto], 1):
        function(conn)
        conn.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)", (number, utc_now_iso()))


def _copy_rows(conn: sqlite3.Connection, source: Path) -> None:
    """Every row of ``source`` in the tables and columns ``conn``'s schema has, but not into
    virtual tables or their shadow tables (their triggers fill them) or the record."""
    conn.execute("ATTACH DATABASE ? AS rows", (str(source),))
    conn.execute("BEGIN")
    try:
        master = conn.execute("SELECT name, sql FROM main.sqlite_master WHERE type = 'table'").fetchall()
        virtual = [name for name, sql in master if sql.upper().startswith("CREATE VIRTUAL TABLE")]
        theirs = {row[0] for row in conn.execute("SELECT name FROM rows.sqlite_master WHERE type = 'table'")}
        for name, _ in master:
            if name == "schema_migrations" or name.startswith("sqlite_") or name not in theirs:
                continue
            if any(name == owner or name.startswith(f"{owner}_") for owner in virtual):
                continue
            mine = [row[1] for row in conn.execute(f'PRAGMA main.table_info("{name}")')]
            have = {row[1] for row in conn.execute(f'PRAGMA rows.table_info("{name}")')}
            columns = ", ".join(f'"{column}"' for column in mine if column in have)
            conn.execute(f'INSERT INTO main."{name}" ({columns}) SELECT {columns} FROM rows."{name}"')
        conn.execute("COMMIT")
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.execute("DETACH DATABASE rows")


@contextlib.contextmanager
def newer_release(*functions: Migration) -> Iterator[None]:
    """The registry of the next release: ``functions`` registered after the real migrations
    (by ``@migration``, as a new one would be), and taken out again afterwards."""
    before = list(MIGRATIONS)
    try:
        for function in functions:
            migration(function)
        yield
    finally:
        MIGRATIONS[:] = before
