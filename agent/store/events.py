"""Events: the one write path for VEVENTs and the indexed range query over their instances.

Writes go through ``EventRepo.save``/``delete`` inside a caller's transaction and return a
``ChangeSet`` with before-images, which is what undo replays and what views refresh on; the
statements themselves are ``EventSql``'s (agent/store/event_sql.py). Recurring series are
expanded into the ``occurrences`` table by agent/store/expansion.py up to a horizon that
moves forward when a query looks further ahead, so a month view reads one index range
instead of expanding a thousand rules on every paint.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from agent.lazy import lazy_module

if TYPE_CHECKING:
    import icalendar
else:  # on first use: a range query needs none (start-up, issue 14)
    icalendar = lazy_module("icalendar", __name__)

from agent.errors import NotFoundError, ValidationError
from agent.store import journal_record
from agent.store.changes import Change, ChangeSet
from agent.store.components import EPOCH, EventFields, index_fields, parse_component, wall_seconds
from agent.store.db import Store, utc_now_iso
from agent.store.event_sql import ChangedRow, EventSql, NewRow
from agent.store.expansion import (
    DAY,
    CapNote,
    Expander,
)
from agent.store.occurrence import Occurrence
from agent.store.read_only import ReadOnlyCalendars
from agent.store.recurrence import component_problem

# Occurrences longer than this are found through the R*Tree ``occurrences_span``, the rest
# through the start_ts index from LONG_SPAN before a window (migration 6 fixes the number).
LONG_SPAN = 2 * DAY


class EventRepo:
    """Rows of one profile. Writes must run inside ``store.transaction()``.

    Every write is refused in a read-only calendar (``agent.store.read_only``) except in the
    repository's ``feed``: the one calendar a sync pull or a subscription refresh keeps in
    step with its source (only those two writers name one)."""

    def __init__(self, store: Store, profile_id: int, *, feed: int | None = None) -> None:
        self.store = store
        self.profile_id = profile_id
        self._own_calendars: set[int] = set()
        self.expander = Expander(store, profile_id)
        self.feed = feed
        self.read_only = ReadOnlyCalendars(store, profile_id)

    def check_writable(self, uid: str, calendar_id: int | None = None) -> None:
        """Refuse (``ReadOnlyCalendarError``) a write of ``uid`` into ``calendar_id`` when
        either that calendar or the one the UID is in now is read-only (the feed aside)."""
        self.read_only.check_uid(uid, calendar_id, feed=self.feed)

    def _check_calendar(self, calendar_id: int) -> None:
        """A calendar id from elsewhere (another profile's, a stale one) is refused: the row
        would otherwise belong to this profile but show another profile's calendar."""
        if calendar_id in self._own_calendars:
            return
        found = self.store.conn.execute(
            "SELECT 1 FROM calendars WHERE id = ? AND profile_id = ?", (calendar_id, self.profile_id)
        ).fetchone()
        if found is None:
            raise NotFoundError("store.calendar_not_in_profile", calendar_id=calendar_id)
        self._own_calendars.add(calendar_id)

    @property
    def sql(self) -> EventSql:
        """The statements that write event rows (agent/store/event_sql.py), on this store."""
        return EventSql(self.store.conn)

    # ---- writes -------------------------------------------------------------------------

    def row(self, uid: str, recurrence_id: str = "") -> sqlite3.Row | None:
        return self.store.conn.execute(
            "SELECT * FROM events WHERE profile_id = ? AND uid = ? AND recurrence_id = ?",
            (self.profile_id, uid, recurrence_id),
        ).fetchone()

    def save(
        self,
        component: icalendar.Event | None,
        calendar_id: int,
        origin: str,
        *,
        source: str | None = None,
        materialize: bool = True,
        created_at: str | None = None,
        ics: str | None = None,
        fields: EventFields | None = None,
    ) -> ChangeSet:
        """Insert or replace the row for (UID, RECURRENCE-ID) and refresh its instances.

        ``created_at`` lets a service that decides by its own clock (the command service's
        ten-minute idempotency window) stamp a new row with that clock; default: now. ``ics`` is the
        component already serialised, when the caller has it (a sync pull does); ``fields``
        its columns, when the caller has read them (a sync pull's plain overrides come with
        ``ics`` and ``fields`` and no component: agent/ics/quick.py)."""
        self._check_calendar(calendar_id)
        if fields is None or component is not None:
            assert component is not None, "save needs a component, or its ics and fields"
            fields = index_fields(component)
        self.check_writable(fields.uid, calendar_id)
        if fields.rrule:
            assert component is not None
            problem = component_problem(component)
            if problem:
                raise ValidationError("store.series_invalid", problem=problem)
        if ics is None:
            assert component is not None
            ics = component.to_ical().decode()  # a caller may have it serialised
        existing = self.row(fields.uid, fields.recurrence_id)
        now = utc_now_iso()
        changes = ChangeSet()
        if existing is None:
            event_id = self.sql.insert(
                self.profile_id, calendar_id, origin, fields, ics, source, created_at=created_at or now, updated_at=now
            )
            changes.created.append(Change(fields.uid, fields.recurrence_id, event_id, None, None, None))
        else:
            event_id = int(existing["id"])
            self.sql.update(event_id, calendar_id, fields, ics, source, updated_at=now)
            changes.updated.append(
                Change(
                    fields.uid,
                    fields.recurrence_id,
                    event_id,
                    existing["ics"],
                    existing["calendar_id"],
                    existing["origin"],
                    existing["source"],
                )
            )
        if materialize:
            self.expander.materialize(fields.uid)
        journal_record.collect(self.store, self.profile_id, changes, origin)  # the undo journal (one entry per commit)
        return changes

    def save_plain(self, parts: list[tuple[str, EventFields]], calendar_id: int, origin: str) -> ChangeSet:
        """``save(None, calendar_id, origin, ics=ics, fields=fields, materialize=False)`` for
        each (ics, fields) in order, in three statements instead of three per row.

        For parts that need no parsing and have no alarms or rule (a sync pull's plain
        overrides, agent/ics/quick.py): 100,000 of them are one resource. Rows, change set
        and journal come out as the single saves would make them; the caller materialises."""
        self._check_calendar(calendar_id)
        if not parts:
            return ChangeSet()
        assert all(not (fields.rrule or fields.rdate or fields.alarms) for _, fields in parts)
        for uid in sorted({fields.uid for _, fields in parts}):
            self.check_writable(uid, calendar_id)
        conn = self.store.conn
        uids = sorted({fields.uid for _, fields in parts})
        existing: dict[tuple[str, str], sqlite3.Row] = {}
        for uid in uids:
            for row in conn.execute(
                "SELECT id, uid, recurrence_id, ics, calendar_id, origin, source FROM events WHERE profile_id = ? AND uid = ?",
                (self.profile_id, uid),
            ):
                existing[(row["uid"], row["recurrence_id"])] = row
        now = utc_now_iso()
        changes = ChangeSet()
        inserts: list[NewRow] = []
        updates: list[ChangedRow] = []
        for ics, fields in parts:
            old = existing.get((fields.uid, fields.recurrence_id))
            if old is None:
                inserts.append((calendar_id, ics, None, fields))
            else:
                updates.append((int(old["id"]), calendar_id, ics, None, fields))
                changes.updated.append(Change(fields.uid, fields.recurrence_id, int(old["id"]), old["ics"],
                                              old["calendar_id"], old["origin"], old["source"]))  # fmt: skip
        new_ids = self.sql.save_many(self.profile_id, origin, inserts, updates, now)
        changes.created = [
            Change(fields.uid, fields.recurrence_id, new_id, None, None, None)
            for new_id, (_, _, _, fields) in zip(new_ids, inserts, strict=True)
        ]
        journal_record.collect(self.store, self.profile_id, changes, origin)
        return changes

    def delete(self, uid: str, recurrence_id: str | None = None) -> ChangeSet:
        """Delete one override (``recurrence_id`` given) or a whole series/single event."""
        self.check_writable(uid)
        conn = self.store.conn
        if recurrence_id:
            rows = conn.execute(
                "SELECT * FROM events WHERE profile_id = ? AND uid = ? AND recurrence_id = ?",
                (self.profile_id, uid, recurrence_id),
            ).fetchall()
        else:
            rows = conn.execute("SELECT * FROM events WHERE profile_id = ? AND uid = ?", (self.profile_id, uid)).fetchall()
        changes = ChangeSet()
        for row in rows:
            changes.deleted.append(
                Change(row["uid"], row["recurrence_id"], row["id"], row["ics"], row["calendar_id"], row["origin"], row["source"])
            )
        self.sql.delete(row["id"] for row in rows)
        if recurrence_id:
            self.expander.materialize(uid)
        journal_record.collect(self.store, self.profile_id, changes)
        return changes

    def restore(self, change: Change) -> ChangeSet:
        """Put a row back as ``change`` found it (undo of an update or delete)."""
        if change.before_ics is None:
            return self.delete(change.uid, change.recurrence_id or None)
        component = parse_component(change.before_ics)
        return self.save(
            component,
            int(change.before_calendar_id or 0),
            change.before_origin or "user",
            source=change.before_source,
            ics=change.before_ics,
        )

    # ---- occurrence materialisation: rebuilding goes straight to ``self.expander`` -----------

    def ensure_expanded(self, until_utc: int) -> None:
        """Extend open-ended series whose occurrences stop before ``until_utc``."""
        self.expander.ensure_expanded(until_utc)

    def capped(self, uid: str) -> CapNote | None:
        """Whether the series ``uid`` stopped at the cap, and from when nothing is shown."""
        return self.expander.capped(uid)

    # ---- reads --------------------------------------------------------------------------

    def occurrences(
        self,
        start: datetime,
        end: datetime,
        tz: ZoneInfo,
        *,
        calendar_ids: list[int] | None = None,
        incomplete_only: bool = False,
        include_transparent: bool = True,
    ) -> list[Occurrence]:
        """Instances overlapping [start, end), half-open: ``start < end_q AND end > start_q``.

        A zero-length event counts when it starts inside the window.
        """
        self.ensure_expanded(int(end.timestamp()))
        conn = self.store.conn
        windows = (
            (0, int(start.timestamp()), int(end.timestamp())),
            (1, wall_seconds(start.astimezone(tz)), wall_seconds(end.astimezone(tz))),
        )
        extra = ""
        params_extra: list[Any] = []
        if calendar_ids is not None:
            extra += f" AND e.calendar_id IN ({', '.join('?' for _ in calendar_ids)})"
            params_extra += list(calendar_ids)
        if incomplete_only:
            extra += " AND e.completed = 0"
        if not include_transparent:
            extra += " AND e.transp != 'TRANSPARENT'"
        with self.store.lock:
            calendars = {
                row[0]: (row[1], row[2])
                for row in conn.execute("SELECT id, name, color FROM calendars WHERE profile_id = ?", (self.profile_id,))
            }
            keyed: list[tuple[int, int, str, Occurrence]] = []
            cursor = conn.cursor()
            cursor.row_factory = None  # plain tuples: sqlite3.Row costs more than the query
            for floating, lo, hi in windows:
                # Short rows from the start_ts index (they start at most LONG_SPAN before
                # the window), long ones from the R*Tree (migration 6); each branch takes
                # only its own lengths, so no row comes twice. The tree's 32-bit boxes only
                # ever contain their rows: the exact integer test follows.
                rows = cursor.execute(
                    RANGE_COLUMNS + " FROM occurrences o JOIN events e ON e.id = o.event_id"
                    " WHERE o.profile_id = ? AND o.floating = ? AND o.start_ts < ? AND o.start_ts >= ?"
                    " AND o.end_ts - o.start_ts <= ?"
                    " AND (o.end_ts > ? OR (o.end_ts = o.start_ts AND o.start_ts >= ?))" + extra,
                    [self.profile_id, floating, hi, lo - LONG_SPAN, LONG_SPAN, lo, lo, *params_extra],
                ).fetchall()
                rows += cursor.execute(
                    RANGE_COLUMNS + " FROM occurrences_span s CROSS JOIN occurrences o ON o.id = s.id"
                    " JOIN events e ON e.id = o.event_id"
                    " WHERE s.span_start < ? AND s.span_end > ? AND o.profile_id = ? AND o.floating = ?"
                    " AND o.start_ts < ? AND o.end_ts > ? AND o.end_ts - o.start_ts > ?" + extra,
                    [hi, lo, self.profile_id, floating, hi, lo, LONG_SPAN, *params_extra],
                ).fetchall()
                keyed.extend(_occurrences(rows, bool(floating), tz, calendars))
        keyed.sort(key=lambda item: item[:3])
        return [item[3] for item in keyed]


RANGE_COLUMNS = (
    "SELECT o.start_ts, o.end_ts, o.recurrence_id, o.series_id, e.id, e.uid, e.title, e.all_day,"
    " e.tzid, e.location, e.description, e.transp, e.status, e.completed, e.origin, e.calendar_id"
)


def _occurrences(
    rows: list[tuple[Any, ...]], floating: bool, tz: ZoneInfo, calendars: dict[int, tuple[str, str]]
) -> list[tuple[int, int, str, Occurrence]]:
    """(sort instant, all-day first, title, occurrence) for each row of one window."""
    out = []
    fromtimestamp = datetime.fromtimestamp
    for (
        o_start,
        o_end,
        rid,
        series_id,
        event_id,
        uid,
        title,
        all_day,
        tzid,
        location,
        description,
        transp,
        status,
        completed,
        origin,
        calendar_id,
    ) in rows:
        start: datetime | date
        end: datetime | date
        if floating:
            wall_start, wall_end = EPOCH + timedelta(seconds=o_start), EPOCH + timedelta(seconds=o_end)
            key = int(wall_start.replace(tzinfo=tz).timestamp())
            start, end = (wall_start.date(), wall_end.date()) if all_day else (wall_start, wall_end)
        else:
            start, end, key = fromtimestamp(o_start, tz), fromtimestamp(o_end, tz), o_start
        name, color = calendars.get(calendar_id, ("", "#888888"))
        occurrence = Occurrence(
            event_id,
            series_id,
            uid,
            rid,
            title,
            start,
            end,
            bool(all_day),
            floating,
            tzid,
            name,
            calendar_id,
            color,
            location,
            description,
            transp,
            status,
            bool(completed),
            origin,
        )
        out.append((key, 1 if not all_day else 0, title, occurrence))
    return out


__all__ = ["LONG_SPAN", "EventRepo"]
