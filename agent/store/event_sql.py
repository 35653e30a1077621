"""Every write to the event tables, and the one mapping from a VEVENT's fields to columns.

The event tables are ``events``, ``alarms`` and ``occurrences`` (migration 6's triggers keep
``occurrences_span`` in step with the last). Like khal's ``SQLiteDb``, one class holds every
INSERT, UPDATE and DELETE on them: the repository's single saves (``EventRepo.save``), the
importer's and sync's bulk saves (``save_many``), occurrence materialisation, the undo
journal's removals and recovery's mending all call ``EventSql``. Its column list and values
come from the declaration of ``components.EventFields``, so a new column is a field there
and nothing here, and an imported event and an edited one cannot be written differently
(tests/agent/store/test_event_sql.py checks both the parity and that no other module writes
these tables). Reads stay with their readers: a query is shaped by what its caller needs.

The methods run on the caller's connection inside the caller's transaction; none commits.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Any

from agent.store.components import EventFields, event_columns

# The tables this class alone writes (the grep test reads this tuple).
EVENT_TABLES = ("events", "alarms", "occurrences", "occurrences_span")

# The ``events`` columns derived from the VEVENT (the fields of ``EventFields`` marked
# ``Column``), in the order ``column_values`` gives them.
COLUMNS: tuple[str, ...] = tuple(name for name, _ in event_columns())
_READ = attrgetter(*COLUMNS)

# The columns a write sets beside them; ``id`` None lets SQLite choose (``rowid``).
_OWN = ("id", "profile_id", "calendar_id", "origin", "created_at", "updated_at", "ics", "source")
_INSERT = f"INSERT INTO events ({', '.join(_OWN + COLUMNS)}) VALUES ({', '.join('?' for _ in _OWN + COLUMNS)})"
_UPDATE = (
    "UPDATE events SET "
    + ", ".join(f"{name} = ?" for name in ("calendar_id", "updated_at", "ics", "source", *COLUMNS))
    + " WHERE id = ?"
)
_OCCURRENCE = (
    "INSERT INTO occurrences(profile_id, series_id, event_id, floating, start_ts, end_ts, recurrence_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)

# An occurrence row as ``insert_occurrences`` takes it:
# (profile_id, series_id, event_id, floating, start_ts, end_ts, recurrence_id).
OccurrenceRow = tuple[int, int, int, int, int, int, str | None]
# A row to insert: (calendar_id, ics, source, fields); to update: (event_id, calendar_id, ics, source, fields).
NewRow = tuple[int, str, str | None, EventFields]
ChangedRow = tuple[int, int, str, str | None, EventFields]


def column_values(fields: EventFields) -> tuple[Any, ...]:
    """``fields`` as the values of ``COLUMNS``: the one VEVENT-to-row mapping (bools bind as
    SQLite integers 0/1, as ``int()`` of them did)."""
    values: tuple[Any, ...] = _READ(fields)
    return values


class EventSql:
    """The statements that change event rows, on one connection (the caller's transaction)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    # ---- events and their alarms ------------------------------------------------------

    def insert(
        self,
        profile_id: int,
        calendar_id: int,
        origin: str,
        fields: EventFields,
        ics: str,
        source: str | None,
        *,
        created_at: str,
        updated_at: str,
    ) -> int:
        """One new row and its alarms; returns its id (SQLite's next rowid)."""
        cur = self.conn.execute(
            _INSERT, (None, profile_id, calendar_id, origin, created_at, updated_at, ics, source, *column_values(fields))
        )
        event_id = int(cur.lastrowid or 0)
        self._add_alarms([(event_id, fields)])
        return event_id

    def update(
        self, event_id: int, calendar_id: int, fields: EventFields, ics: str, source: str | None, *, updated_at: str
    ) -> None:
        """Replace one row's text and columns and its alarms; id, origin and created_at stay."""
        self.conn.execute(_UPDATE, (calendar_id, updated_at, ics, source, *column_values(fields), event_id))
        self.conn.execute("DELETE FROM alarms WHERE event_id = ?", (event_id,))
        self._add_alarms([(event_id, fields)])

    def save_many(
        self,
        profile_id: int,
        origin: str,
        inserts: Sequence[NewRow],
        updates: Sequence[ChangedRow],
        now: str,
    ) -> list[int]:
        """``insert`` of each of ``inserts`` and ``update`` of each of ``updates``, in a few
        statements instead of three per row (an import, a sync pull's plain overrides).

        New ids follow the highest id in the table, in order, as single inserts would get
        them; they are returned in ``inserts``' order. ``created_at`` and ``updated_at`` are
        both ``now``."""
        ids: list[int] = []
        if inserts:
            (top,) = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()
            ids = list(range(top + 1, top + 1 + len(inserts)))
            self.conn.executemany(
                _INSERT,
                (  # a generator: 100k rows of 26 values are not built as one list
                    (new_id, profile_id, calendar_id, origin, now, now, ics, source, *column_values(fields))
                    for new_id, (calendar_id, ics, source, fields) in zip(ids, inserts, strict=True)
                ),
            )
        if updates:
            self.conn.executemany(
                _UPDATE,
                (
                    (calendar_id, now, ics, source, *column_values(fields), event_id)
                    for event_id, calendar_id, ics, source, fields in updates
                ),
            )
            self.conn.executemany("DELETE FROM alarms WHERE event_id = ?", ((row[0],) for row in updates))
        self._add_alarms(
            [(new_id, row[3]) for new_id, row in zip(ids, inserts, strict=True) if row[3].alarms]
            + [(row[0], row[4]) for row in updates if row[4].alarms]
        )
        return ids

    def _add_alarms(self, rows: list[tuple[int, EventFields]]) -> None:
        self.conn.executemany(
            "INSERT INTO alarms(event_id, trigger, action) VALUES (?, ?, ?)",
            [(event_id, trigger, action) for event_id, fields in rows for trigger, action in fields.alarms],
        )

    def delete(self, event_ids: Iterable[int]) -> None:
        """Remove rows; their alarms and instances go with them (ON DELETE CASCADE)."""
        self.conn.executemany("DELETE FROM events WHERE id = ?", ((event_id,) for event_id in event_ids))

    # ---- occurrences ----------------------------------------------------------------------

    def clear_occurrences(self, profile_id: int, uid: str) -> None:
        """Every instance of ``uid``'s rows, in one statement (a series may have 100,000)."""
        self.conn.execute(
            "DELETE FROM occurrences WHERE series_id IN (SELECT id FROM events WHERE profile_id = ? AND uid = ?)",
            (profile_id, uid),
        )

    def clear_series(self, series_ids: Iterable[int]) -> None:
        """Every instance whose series is one of ``series_ids``."""
        self.conn.executemany("DELETE FROM occurrences WHERE series_id = ?", ((series_id,) for series_id in series_ids))

    def insert_occurrences(self, rows: Iterable[OccurrenceRow]) -> None:
        """Rows in ``OccurrenceRow`` order: (profile_id, series_id, event_id, floating, start_ts,
        end_ts, recurrence_id)."""
        self.conn.executemany(_OCCURRENCE, rows)

    def reset_expansion(self, event_ids: Iterable[int]) -> None:
        """Mark rows as not series being expanded (singles, overrides, finished series)."""
        self.conn.executemany(
            "UPDATE events SET expanded_until = NULL, expansion = NULL, capped = 0 WHERE id = ?",
            ((event_id,) for event_id in event_ids),
        )

    def set_expansion(self, event_id: int, expanded_until: int | None, expansion: str | None, *, capped: bool) -> None:
        """Record how far a series master's instances exist (``events.expansion``)."""
        self.conn.execute(
            "UPDATE events SET expanded_until = ?, expansion = ?, capped = ? WHERE id = ?",
            (expanded_until, expansion, int(capped), event_id),
        )

    # ---- recovery (agent/store/recover.py: a fresh file being mended) ---------------------

    @staticmethod
    def salvage_insert(table: str, columns: Sequence[str]) -> str:
        """The statement recovery copies an event table's rows with, verbatim, from a damaged
        file into the fresh one (the columns both schemas have; values are not re-derived,
        since the salvaged ``ics`` text is what the rows are rebuilt from)."""
        if table not in EVENT_TABLES:
            raise ValueError(f"{table} is not an event table")
        return f'INSERT INTO "{table}" ({", ".join(columns)}) VALUES ({", ".join("?" for _ in columns)})'

    def clear_all_occurrences(self) -> None:
        """Every instance of every profile: they are all rebuilt."""
        self.conn.execute("DELETE FROM occurrences")

    def clear_orphan_occurrences(self) -> None:
        """Instances whose event or series row was lost."""
        self.conn.execute(
            "DELETE FROM occurrences WHERE event_id NOT IN (SELECT id FROM events) OR series_id NOT IN (SELECT id FROM events)"
        )

    def clear_orphan_alarms(self) -> int:
        """Alarms whose event was lost; returns how many went."""
        return int(self.conn.execute("DELETE FROM alarms WHERE event_id NOT IN (SELECT id FROM events)").rowcount)

    def rehome_orphans(self, profile_id: int, calendar_id: int) -> int:
        """Move ``profile_id``'s events whose calendar was lost into ``calendar_id``; returns how many."""
        return int(
            self.conn.execute(
                "UPDATE events SET calendar_id = ? WHERE profile_id = ? AND calendar_id NOT IN (SELECT id FROM calendars)",
                (calendar_id, profile_id),
            ).rowcount
        )
