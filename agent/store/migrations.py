"""Named schema migrations, in the style of Simon Willison's ``llm``: each one a function
``mNNN_what(conn)`` registered in order by ``@migration``; the applied ones are recorded by
name in ``schema_migrations``.

Append only: a released migration is never edited or renamed, because users' files already
ran it. The order of the registry is the order every file applied them in; the schema
version of this code is how many it knows (``known_version``), never a constant kept by
hand. A file that records a migration this code does not know came from a newer Richeng (or
another branch) and is refused untouched (``agent.store.file_check.inspect_file``).

Bookkeeping. ``schema_migrations(version, applied_at, name)``: ``version`` is the
migration's place in the registry (1-based), ``name`` its function's name. Releases before
named migrations recorded numbers only, in a table without ``name``: a row with version N and
no name counts as the N-th migration. The ``name`` column is added, and those rows named,
the first time this code applies a migration to such a file, in the same transaction; a file
with nothing to apply is not written. ``version`` stays, so that those older releases (which
read ``MAX(version)``) still refuse a file that a newer one migrated.

Time columns: every event row keeps its original VEVENT text (``ics``) beside indexed
columns. ``start_ts``/``end_ts`` are epoch seconds: true UTC for events pinned to a zone,
or "wall-clock seconds" (the local date-time read as if it were UTC) when ``floating`` is 1,
which covers all-day and floating events. Keeping the two apart is what stops an all-day
event moving to the previous day when the user's zone changes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

Migration = Callable[[sqlite3.Connection], None]

# The registry, in the order files apply it; ``migration`` appends to it.
MIGRATIONS: list[Migration] = []


def migration(function: Migration) -> Migration:
    """Register ``function`` as the next migration; its ``__name__`` is what files record."""
    if function.__name__ in known_names():
        raise ValueError(f"a migration named {function.__name__} is already registered")
    MIGRATIONS.append(function)
    return function


def known_names() -> list[str]:
    return [function.__name__ for function in MIGRATIONS]


def known_version() -> int:
    """The schema this code writes: how many migrations it knows."""
    return len(MIGRATIONS)


def split_sql(script: str) -> list[str]:
    """Split a script into statements; ``sqlite3.complete_statement`` knows triggers."""
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


def run_sql(conn: sqlite3.Connection, script: str) -> None:
    """Each statement of ``script`` on ``conn``, inside the caller's transaction
    (``executescript`` would commit it)."""
    for statement in split_sql(script):
        conn.execute(statement)


# ---- bookkeeping ---------------------------------------------------------------------------


def recorded(conn: sqlite3.Connection) -> list[str]:
    """The migrations ``conn``'s file has applied, by name, in the order applied; reads only.

    A row of a release before named migrations (no name) is the registry's N-th migration,
    or ``number N`` when this code knows fewer than N (a name no registry has)."""
    tables = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").fetchone()
    if tables is None:
        return []
    named = any(row[1] == "name" for row in conn.execute("PRAGMA table_info(schema_migrations)"))
    rows = conn.execute(f"SELECT version, {'name' if named else 'NULL'} FROM schema_migrations ORDER BY version").fetchall()
    names = known_names()
    return [
        str(name) if name is not None else names[version - 1] if 0 < version <= len(names) else f"number {version}"
        for version, name in rows
    ]


def unknown(conn: sqlite3.Connection) -> list[str]:
    """Recorded migrations this code does not know: the file is from a newer Richeng."""
    names = set(known_names())
    return [name for name in recorded(conn) if name not in names]


def pending(conn: sqlite3.Connection, upto: int | None = None) -> list[tuple[int, Migration]]:
    """(version, migration) of each of the first ``upto`` (default: all) registered
    migrations that ``conn``'s file has not recorded, in order."""
    done = set(recorded(conn))
    return [(number, function) for number, function in enumerate(MIGRATIONS[:upto], 1) if function.__name__ not in done]


def migrate(conn: sqlite3.Connection, upto: int | None = None) -> list[str]:
    """Apply and record what ``pending`` lists, inside the caller's transaction; returns
    their names. The one way a file's schema is made or upgraded (the store, recovery, and
    the tests' older files)."""
    todo = pending(conn, upto)
    if not todo:
        return []
    _name_the_record(conn)
    for number, function in todo:
        function(conn)
        conn.execute(
            "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
            (number, function.__name__, datetime.now(UTC).isoformat(timespec="microseconds")),
        )
    return [function.__name__ for _, function in todo]


def _name_the_record(conn: sqlite3.Connection) -> None:
    """The bookkeeping's own migration: the table as releases before named migrations made
    it, then its ``name`` column, filled for the rows they recorded by number. New and
    upgraded files end with the same table."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ( version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    if any(row[1] == "name" for row in conn.execute("PRAGMA table_info(schema_migrations)")):
        return
    conn.execute("ALTER TABLE schema_migrations ADD COLUMN name TEXT")
    names = known_names()
    conn.executemany(
        "UPDATE schema_migrations SET name = ? WHERE version = ?",
        [(name, number) for number, name in enumerate(names, 1)],
    )


# ---- the migrations, oldest first ------------------------------------------------------------


# The initial schema.
@migration
def m001_initial(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    CREATE TABLE profiles (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        created_at  TEXT NOT NULL
    );

    CREATE TABLE settings (
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        key         TEXT NOT NULL,
        value       TEXT NOT NULL,              -- JSON
        PRIMARY KEY (profile_id, key)
    );

    CREATE TABLE calendars (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        name        TEXT NOT NULL,
        color       TEXT NOT NULL DEFAULT '#3b82f6',
        is_default  INTEGER NOT NULL DEFAULT 0,
        visible     INTEGER NOT NULL DEFAULT 1,
        created_at  TEXT NOT NULL,
        UNIQUE (profile_id, name)
    );
    CREATE UNIQUE INDEX calendars_one_default ON calendars(profile_id) WHERE is_default = 1;

    CREATE TABLE events (
        id              INTEGER PRIMARY KEY,
        profile_id      INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        calendar_id     INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
        uid             TEXT NOT NULL,
        recurrence_id   TEXT NOT NULL DEFAULT '',   -- '' for a single event or a series master
        title           TEXT NOT NULL DEFAULT '',
        description     TEXT NOT NULL DEFAULT '',
        location        TEXT NOT NULL DEFAULT '',
        tzid            TEXT,                       -- IANA name; NULL when floating/all-day
        all_day         INTEGER NOT NULL DEFAULT 0,
        floating        INTEGER NOT NULL DEFAULT 0,
        start_ts        INTEGER NOT NULL,
        end_ts          INTEGER NOT NULL,
        rrule           TEXT,
        rdate           TEXT,
        exdate          TEXT,
        transp          TEXT NOT NULL DEFAULT 'OPAQUE',
        status          TEXT NOT NULL DEFAULT 'CONFIRMED',
        completed       INTEGER NOT NULL DEFAULT 0,
        origin          TEXT NOT NULL CHECK (origin IN ('user', 'agent', 'import')),
        sequence        INTEGER NOT NULL DEFAULT 0,
        last_modified   TEXT,
        ics             TEXT NOT NULL,              -- the VEVENT, normalised to IANA zones
        source          TEXT,                       -- original imported text, kept verbatim
        expanded_until  INTEGER,                    -- series masters: occurrences exist below this
        created_at      TEXT NOT NULL,
        updated_at      TEXT NOT NULL,
        UNIQUE (profile_id, uid, recurrence_id)
    );
    CREATE INDEX events_calendar ON events(calendar_id);
    CREATE INDEX events_open_series ON events(profile_id, expanded_until)
        WHERE expanded_until IS NOT NULL;
    CREATE INDEX events_dedupe ON events(profile_id, title, start_ts);

    -- One row per instance a view can show: singles have one, series have one per
    -- materialised occurrence. Range queries read only this table's index.
    CREATE TABLE occurrences (
        id              INTEGER PRIMARY KEY,
        profile_id      INTEGER NOT NULL,
        event_id        INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        series_id       INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        floating        INTEGER NOT NULL,
        start_ts        INTEGER NOT NULL,
        end_ts          INTEGER NOT NULL,
        recurrence_id   TEXT
    );
    CREATE INDEX occurrences_range ON occurrences(profile_id, floating, start_ts);
    CREATE INDEX occurrences_length ON occurrences(profile_id, floating, (end_ts - start_ts));
    CREATE INDEX occurrences_series ON occurrences(series_id);
    CREATE INDEX occurrences_event ON occurrences(event_id);

    CREATE TABLE alarms (
        id          INTEGER PRIMARY KEY,
        event_id    INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        trigger     TEXT NOT NULL,                  -- ISO 8601 duration or absolute instant
        action      TEXT NOT NULL DEFAULT 'DISPLAY'
    );
    CREATE INDEX alarms_event ON alarms(event_id);

    CREATE TABLE memories (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        text        TEXT NOT NULL,
        created_at  TEXT NOT NULL
    );
    CREATE VIRTUAL TABLE memories_fts USING fts5(
        text, content='memories', content_rowid='id', tokenize='trigram'
    );
    CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, text) VALUES (new.id, new.text);
    END;
    CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, text) VALUES ('delete', old.id, old.text);
    END;

    CREATE TABLE messages (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        role        TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
        content     TEXT NOT NULL,
        created_at  TEXT NOT NULL,                  -- set by the store, never by a caller
        meta        TEXT                            -- JSON: turn id, receipt kind, guard flag
    );
    CREATE INDEX messages_time ON messages(profile_id, created_at);
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, content='messages', content_rowid='id', tokenize='trigram'
    );
    CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
    END;
    CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    END;

    -- A create that could not finish in one round (needs a date, conflicts, in the past).
    CREATE TABLE commands (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL DEFAULT 'create',
        title       TEXT NOT NULL,
        slots       TEXT NOT NULL,                  -- JSON
        status      TEXT NOT NULL,
        candidates  TEXT NOT NULL DEFAULT '[]',     -- JSON
        event_id    INTEGER REFERENCES events(id) ON DELETE SET NULL,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        expires_at  TEXT NOT NULL
    );
    CREATE INDEX commands_active ON commands(profile_id, status, expires_at);

    -- One record per agent turn; written for reports and evals, never read by decisions.
    CREATE TABLE observations (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        created_at  TEXT NOT NULL,
        user_text   TEXT NOT NULL,
        intent      TEXT,
        outcome     TEXT,
        guard       TEXT,
        model       TEXT,
        model_calls INTEGER NOT NULL DEFAULT 0,
        data        TEXT NOT NULL                   -- JSON: tools, tokens, timeline
    );
    CREATE INDEX observations_time ON observations(profile_id, created_at);
    """,
    )


# CalDAV sync. The local store stays the working copy; these tables only remember what
# the server had when we last agreed with it, so changes on either side show by comparison.
@migration
def m002_caldav_sync(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    CREATE TABLE sync_accounts (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        name        TEXT NOT NULL,
        url         TEXT NOT NULL,
        username    TEXT NOT NULL,                  -- the password lives in the OS keyring
        created_at  TEXT NOT NULL,
        last_sync_at TEXT,
        last_status TEXT,                           -- JSON: the last run's counts and errors
        UNIQUE (profile_id, name)
    );

    -- One remote calendar collection kept in step with one local calendar.
    CREATE TABLE sync_calendars (
        id          INTEGER PRIMARY KEY,
        account_id  INTEGER NOT NULL REFERENCES sync_accounts(id) ON DELETE CASCADE,
        remote_url  TEXT NOT NULL,
        remote_name TEXT NOT NULL DEFAULT '',
        calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
        sync_token  TEXT,                           -- RFC 6578; NULL: list everything next time
        ctag        TEXT,                           -- CalendarServer getctag, for servers without tokens
        last_sync_at TEXT,
        created_at  TEXT NOT NULL,
        UNIQUE (account_id, remote_url),
        UNIQUE (calendar_id)
    );

    -- One CalDAV resource (a UID: master plus overrides) as last synced. ``local_hash`` is the
    -- hash of the local rows' text then: a differing hash now is an offline edit, a missing UID
    -- a local delete. ``remote_hash`` is the server content then, compared ignoring DTSTAMP and
    -- property order, so a server that only rewrote its copy is not taken for an edit.
    CREATE TABLE sync_items (
        id          INTEGER PRIMARY KEY,
        mapping_id  INTEGER NOT NULL REFERENCES sync_calendars(id) ON DELETE CASCADE,
        uid         TEXT NOT NULL,
        href        TEXT NOT NULL,                  -- URL path on the server, unquoted
        etag        TEXT,
        local_hash  TEXT NOT NULL,
        remote_hash TEXT,
        ignored     INTEGER NOT NULL DEFAULT 0,     -- a resource with no VEVENT (a task): tracked, never touched
        synced_at   TEXT NOT NULL,
        UNIQUE (mapping_id, uid),
        UNIQUE (mapping_id, href)
    );

    -- Both sides changed the same resource. Both texts are kept, also after the user chose,
    -- so no version is ever lost without a trace. NULL text: that side deleted it.
    CREATE TABLE sync_conflicts (
        id          INTEGER PRIMARY KEY,
        mapping_id  INTEGER NOT NULL REFERENCES sync_calendars(id) ON DELETE CASCADE,
        uid         TEXT NOT NULL,
        href        TEXT NOT NULL,
        local_ics   TEXT,
        server_ics  TEXT,
        server_etag TEXT,
        detected_at TEXT NOT NULL,
        resolved_at TEXT,
        resolution  TEXT CHECK (resolution IN ('local', 'server'))
    );
    CREATE UNIQUE INDEX sync_conflicts_open ON sync_conflicts(mapping_id, uid) WHERE resolved_at IS NULL;
    """,
    )


# Bounded recurrence (docs/ics.md). ``expansion`` is a series master's progress as
# JSON (instances made, each RRULE's resume point, where the cap stopped it) and
# ``capped`` is 1 when the series has more instances than Richeng materialises.
@migration
def m003_bounded_recurrence(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    ALTER TABLE events ADD COLUMN expansion TEXT;
    ALTER TABLE events ADD COLUMN capped INTEGER NOT NULL DEFAULT 0;
    """,
    )


# change_journal, the persistent undo history (docs/architecture.md, "Undo journal").
# One row per committed change set: the rows' before-images (text, calendar, origin,
# imported source) and a digest of each row after, so an undo can tell whether the row
# is still as the change left it. ``kind`` 'undo'/'redo' rows are the inverses an undo
# recorded (``reverts`` names the row they took back). AUTOINCREMENT: ids are never
# reused after old rows are pruned, because receipts and the app refer to them.
@migration
def m004_change_journal(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    CREATE TABLE change_journal (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        created_at  TEXT NOT NULL,                  -- the service clock (store.clock), UTC
        origin      TEXT NOT NULL CHECK (origin IN ('chat', 'cli', 'import', 'user', 'sync')),
        kind        TEXT NOT NULL DEFAULT 'change' CHECK (kind IN ('change', 'undo', 'redo')),
        reverts     INTEGER,                        -- undo/redo: the journal row taken back
        label       TEXT NOT NULL DEFAULT '',
        created     INTEGER NOT NULL DEFAULT 0,     -- row counts, for listing without the JSON
        updated     INTEGER NOT NULL DEFAULT 0,
        deleted     INTEGER NOT NULL DEFAULT 0,
        changes     TEXT NOT NULL,                  -- JSON: the change set (agent/store/journal.py)
        undone      INTEGER NOT NULL DEFAULT 0,
        undone_at   TEXT,
        undone_by   INTEGER                         -- the undo row that took this one back
    );
    CREATE INDEX change_journal_recent ON change_journal(profile_id, id);
    """,
    )


# reminder_snoozes, the reminders a user snoozed (app/reminders.py, docs/app-calendar.md).
# One row per snoozed occurrence: the event's UID and the instance's start as a recurrence
# key (agent/store/components.recurrence_key), and when to remind again (UTC ISO text). In
# the database rather than the window, so a snooze outlives a restart; deleted once fired.
@migration
def m005_reminder_snoozes(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    CREATE TABLE reminder_snoozes (
        id          INTEGER PRIMARY KEY,
        profile_id  INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        uid         TEXT NOT NULL,
        occurrence  TEXT NOT NULL,                  -- recurrence key of the instance's start
        fire_at     TEXT NOT NULL,                  -- UTC, ISO 8601
        created_at  TEXT NOT NULL,
        UNIQUE (profile_id, uid, occurrence)
    );
    CREATE INDEX reminder_snoozes_due ON reminder_snoozes(profile_id, fire_at);
    """,
    )


# occurrences_span, an R*Tree over the long occurrences, so a range query stays flat
# however long the longest event is (docs/architecture.md, "Store"; issue 14). A range
# query reads occurrences of up to two days (172800 s, ``LONG_SPAN`` in
# agent/store/events.py; this number is fixed here for good) from the start_ts index,
# starting two days before its window, and the longer ones (trips, multi-year notes) from
# this tree; before, one long event widened every scan to its length. Only long rows are
# in the tree because an R*Tree insert costs ~37 us CPU against ~5 us for a row's
# B-tree indexes, and nearly every occurrence is short. One box per long row (same id),
# in the row's own seconds (UTC or wall); the join to ``occurrences`` filters profile and
# floating (a flat second dimension for them made R*Tree split on it, 30x slower). R*Tree
# keeps 32-bit floats, rounding lower bounds down and upper bounds up (128 s steps near
# 2026, 256 s past 2038): a box always contains its row, so a search returns a superset
# and the query re-checks the exact integer columns. Triggers keep it in step with every
# writer of occurrences (the event repository, the importer, recovery, cascading
# deletes). The length index that bounded the old scan goes: nothing reads it now.
@migration
def m006_occurrences_span(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    CREATE VIRTUAL TABLE occurrences_span USING rtree(id, span_start, span_end);
    INSERT INTO occurrences_span(id, span_start, span_end)
        SELECT id, start_ts, end_ts FROM occurrences WHERE end_ts - start_ts > 172800 ORDER BY start_ts;
    CREATE TRIGGER occurrences_span_ai AFTER INSERT ON occurrences
    WHEN new.end_ts - new.start_ts > 172800 BEGIN
        INSERT INTO occurrences_span(id, span_start, span_end) VALUES (new.id, new.start_ts, new.end_ts);
    END;
    CREATE TRIGGER occurrences_span_ad AFTER DELETE ON occurrences
    WHEN old.end_ts - old.start_ts > 172800 BEGIN
        DELETE FROM occurrences_span WHERE id = old.id;
    END;
    CREATE TRIGGER occurrences_span_au AFTER UPDATE ON occurrences BEGIN
        DELETE FROM occurrences_span WHERE id = old.id;
        INSERT INTO occurrences_span(id, span_start, span_end)
            SELECT new.id, new.start_ts, new.end_ts WHERE new.end_ts - new.start_ts > 172800;
    END;
    DROP INDEX IF EXISTS occurrences_length;
    """,
    )


# subscriptions, calendars fed by a published .ics URL (webcal://, https://; issue 31 item 6,
# docs/subscriptions.md). One row per subscribed calendar, removed with it: the URL as the
# user gave it, what the last fetch answered (ETag, Last-Modified, for the next conditional
# GET), when it last worked and the last failure's line. A subscribed calendar is read-only
# (agent/store/read_only.py): only a refresh writes its events.
@migration
def m007_subscriptions(conn: sqlite3.Connection) -> None:
    run_sql(
        conn,
        """
    CREATE TABLE subscriptions (
        id              INTEGER PRIMARY KEY,
        profile_id      INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        calendar_id     INTEGER NOT NULL UNIQUE REFERENCES calendars(id) ON DELETE CASCADE,
        url             TEXT NOT NULL,
        etag            TEXT,
        last_modified   TEXT,                       -- the server's Last-Modified, verbatim
        refreshed_at    TEXT,                       -- UTC ISO: the last fetch that worked
        last_error      TEXT,                       -- the last failed fetch's line; NULL after one that worked
        created_at      TEXT NOT NULL
    );
    CREATE INDEX subscriptions_profile ON subscriptions(profile_id);
    """,
    )
