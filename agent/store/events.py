"""Events: the one write path for VEVENTs and the indexed range query over their instances.

Writes go through ``EventRepo.save``/``delete`` inside a caller's transaction and return a
``ChangeSet`` with before-images, which is what undo replays and what views refresh on.
Recurring series are expanded by ``recurring-ical-events`` into the ``occurrences`` table up
to a horizon that moves forward when a query looks further ahead, so a month view reads one
index range instead of expanding a thousand rules on every paint.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

from agent.store.components import (
    EventFields,
    aware,
    from_wall_seconds,
    index_fields,
    parse_component,
    recurrence_key,
    wall_seconds,
)
from agent.store.db import Store, utc_now_iso

HORIZON = timedelta(days=2 * 365)
EXTEND_BY = timedelta(days=365)
MAX_INSTANCES_PER_CHUNK = 5000
DAY = 86400


@dataclass(frozen=True)
class Change:
    """One row's before and after; ``before_ics`` None means it was created."""

    uid: str
    recurrence_id: str
    event_id: int | None
    before_ics: str | None
    before_calendar_id: int | None
    before_origin: str | None


@dataclass
class ChangeSet:
    created: list[Change] = field(default_factory=list)
    updated: list[Change] = field(default_factory=list)
    deleted: list[Change] = field(default_factory=list)

    def extend(self, other: ChangeSet) -> None:
        self.created += other.created
        self.updated += other.updated
        self.deleted += other.deleted

    def __bool__(self) -> bool:
        return bool(self.created or self.updated or self.deleted)


@dataclass(frozen=True)
class Occurrence:
    """One instance as views and tools see it."""

    event_id: int
    series_id: int
    uid: str
    recurrence_id: str | None
    title: str
    start: datetime | date
    end: datetime | date
    all_day: bool
    floating: bool
    tzid: str | None
    calendar: str
    calendar_id: int
    color: str
    location: str
    description: str
    transp: str
    status: str
    completed: bool
    origin: str

    def sort_key(self, tz: ZoneInfo) -> tuple[datetime, int, str]:
        return (_as_aware(self.start, tz), 0 if self.all_day else 1, self.title)

    def to_json(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "title": self.title,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "all_day": self.all_day,
            "calendar": self.calendar,
            "recurrence_id": self.recurrence_id,
        }


def _as_aware(value: datetime | date, tz: ZoneInfo) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=tz)
    return datetime(value.year, value.month, value.day, tzinfo=tz)


class EventRepo:
    """Rows of one profile. Writes must run inside ``store.transaction()``."""

    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id

    # ---- writes -------------------------------------------------------------------------

    def row(self, uid: str, recurrence_id: str = "") -> sqlite3.Row | None:
        return self.store.conn.execute(
            "SELECT * FROM events WHERE profile_id = ? AND uid = ? AND recurrence_id = ?",
            (self.profile_id, uid, recurrence_id),
        ).fetchone()

    def row_by_id(self, event_id: int) -> sqlite3.Row | None:
        return self.store.conn.execute(
            "SELECT * FROM events WHERE profile_id = ? AND id = ?", (self.profile_id, event_id)
        ).fetchone()

    def save(
        self,
        component: icalendar.Event,
        calendar_id: int,
        origin: str,
        *,
        source: str | None = None,
        materialize: bool = True,
    ) -> ChangeSet:
        """Insert or replace the row for (UID, RECURRENCE-ID) and refresh its instances."""
        conn = self.store.conn
        fields = index_fields(component)
        ics = component.to_ical().decode()
        existing = self.row(fields.uid, fields.recurrence_id)
        now = utc_now_iso()
        values = _columns(fields) | {"ics": ics, "source": source, "updated_at": now}
        changes = ChangeSet()
        if existing is None:
            values |= {
                "profile_id": self.profile_id,
                "calendar_id": calendar_id,
                "origin": origin,
                "created_at": now,
            }
            cols = ", ".join(values)
            marks = ", ".join("?" for _ in values)
            cur = conn.execute(f"INSERT INTO events ({cols}) VALUES ({marks})", list(values.values()))
            event_id = int(cur.lastrowid or 0)
            changes.created.append(Change(fields.uid, fields.recurrence_id, event_id, None, None, None))
        else:
            event_id = int(existing["id"])
            values["calendar_id"] = calendar_id
            sets = ", ".join(f"{name} = ?" for name in values)
            conn.execute(f"UPDATE events SET {sets} WHERE id = ?", [*values.values(), event_id])
            changes.updated.append(
                Change(
                    fields.uid,
                    fields.recurrence_id,
                    event_id,
                    existing["ics"],
                    existing["calendar_id"],
                    existing["origin"],
                )
            )
        conn.execute("DELETE FROM alarms WHERE event_id = ?", (event_id,))
        conn.executemany(
            "INSERT INTO alarms(event_id, trigger, action) VALUES (?, ?, ?)",
            [(event_id, trigger, action) for trigger, action in fields.alarms],
        )
        if materialize:
            self.materialize(fields.uid)
        return changes

    def delete(self, uid: str, recurrence_id: str | None = None) -> ChangeSet:
        """Delete one override (``recurrence_id`` given) or a whole series/single event."""
        conn = self.store.conn
        if recurrence_id:
            rows = conn.execute(
                "SELECT * FROM events WHERE profile_id = ? AND uid = ? AND recurrence_id = ?",
                (self.profile_id, uid, recurrence_id),
            ).fetchall()
        else:
            rows = conn.execute(
                "SELECT * FROM events WHERE profile_id = ? AND uid = ?", (self.profile_id, uid)
            ).fetchall()
        changes = ChangeSet()
        for row in rows:
            changes.deleted.append(
                Change(row["uid"], row["recurrence_id"], row["id"], row["ics"], row["calendar_id"], row["origin"])
            )
            conn.execute("DELETE FROM events WHERE id = ?", (row["id"],))
        if recurrence_id:
            self.materialize(uid)
        return changes

    def restore(self, change: Change) -> ChangeSet:
        """Put a row back as ``change`` found it (undo of an update or delete)."""
        if change.before_ics is None:
            return self.delete(change.uid, change.recurrence_id or None)
        component = parse_component(change.before_ics)
        return self.save(component, int(change.before_calendar_id or 0), change.before_origin or "user")

    # ---- occurrence materialisation -----------------------------------------------------

    def materialize(self, uid: str, horizon_ts: int | None = None) -> None:
        """Rebuild every occurrence of ``uid`` (master, overrides, or a single event)."""
        conn = self.store.conn
        rows = conn.execute(
            "SELECT * FROM events WHERE profile_id = ? AND uid = ? ORDER BY recurrence_id",
            (self.profile_id, uid),
        ).fetchall()
        conn.executemany(
            "DELETE FROM occurrences WHERE series_id = ?", [(row["id"],) for row in rows]
        )
        if not rows:
            return
        master = rows[0] if rows[0]["recurrence_id"] == "" else None
        if master is None or not (master["rrule"] or master["rdate"]):
            # Singles, and overrides whose master we do not have: each stands alone.
            for row in rows:
                if row["status"] != "CANCELLED":
                    self._insert_occurrence(row["id"], row["id"], row["floating"], row["start_ts"], row["end_ts"], None)
                conn.execute("UPDATE events SET expanded_until = NULL WHERE id = ?", (row["id"],))
            return
        if horizon_ts is None:
            horizon_ts = max(int(time.time()), master["start_ts"]) + int(HORIZON.total_seconds())
        start_ts = master["start_ts"] - DAY
        self._expand(master, rows, start_ts, horizon_ts)

    def _expand(self, master: sqlite3.Row, rows: list[sqlite3.Row], from_ts: int, to_ts: int) -> None:
        """Expand ``master``'s series into occurrences starting in [from_ts, to_ts)."""
        calendar = icalendar.Calendar()
        for row in rows:
            calendar.add_component(parse_component(row["ics"]))
        floating = bool(master["floating"])
        lo = from_wall_seconds(from_ts) if floating else datetime.fromtimestamp(from_ts, timezone.utc)
        overrides = {row["recurrence_id"]: row for row in rows if row["recurrence_id"]}
        query = recurring_ical_events.of(calendar, skip_bad_series=True)
        reached = to_ts
        count = 0
        for instance in query.after(lo):
            fields = index_fields(instance)
            if fields.start_ts >= to_ts:
                break
            if fields.start_ts < from_ts:
                continue  # began in an earlier chunk, which already holds it
            if count >= MAX_INSTANCES_PER_CHUNK:
                reached = fields.start_ts
                break
            count += 1
            if str(instance.get("STATUS") or "").upper() == "CANCELLED":
                continue
            rid = recurrence_key(instance.decoded("RECURRENCE-ID")) if instance.get("RECURRENCE-ID") else None
            row = overrides.get(rid or "")
            event_id = row["id"] if row is not None else master["id"]
            self._insert_occurrence(event_id, master["id"], int(fields.floating), fields.start_ts, fields.end_ts, rid)
        complete = reached == to_ts
        finite = _series_is_finite(master)
        expanded_until = None if (finite and complete) else reached
        self.store.conn.execute(
            "UPDATE events SET expanded_until = ? WHERE id = ?", (expanded_until, master["id"])
        )

    def _insert_occurrence(
        self, event_id: int, series_id: int, floating: int, start_ts: int, end_ts: int, rid: str | None
    ) -> None:
        self.store.conn.execute(
            "INSERT INTO occurrences(profile_id, event_id, series_id, floating, start_ts, end_ts, recurrence_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.profile_id, event_id, series_id, floating, start_ts, end_ts, rid),
        )

    def ensure_expanded(self, until_utc: int) -> None:
        """Extend open-ended series whose occurrences stop before ``until_utc``.

        Floating series compare wall seconds with UTC seconds; a day of slack covers every
        zone offset, and expanding a little further than needed is harmless.
        """
        conn = self.store.conn
        limit = until_utc + DAY
        stale = conn.execute(
            "SELECT id FROM events WHERE profile_id = ? AND expanded_until IS NOT NULL AND expanded_until < ?",
            (self.profile_id, limit),
        ).fetchall()
        if not stale:
            return
        target = limit + int(EXTEND_BY.total_seconds())
        with self.store.transaction():
            for (master_id,) in stale:
                master = self.row_by_id(master_id)
                if master is None or master["expanded_until"] is None:
                    continue
                rows = conn.execute(
                    "SELECT * FROM events WHERE profile_id = ? AND uid = ? ORDER BY recurrence_id",
                    (self.profile_id, master["uid"]),
                ).fetchall()
                while master is not None and master["expanded_until"] is not None and master["expanded_until"] < limit:
                    self._expand(master, rows, master["expanded_until"], target)
                    master = self.row_by_id(master_id)

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
        results: list[Occurrence] = []
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
            for floating, lo, hi in windows:
                (longest,) = conn.execute(
                    "SELECT MAX(end_ts - start_ts) FROM occurrences WHERE profile_id = ? AND floating = ?",
                    (self.profile_id, floating),
                ).fetchone()
                if longest is None:
                    continue
                rows = conn.execute(
                    "SELECT o.start_ts AS o_start, o.end_ts AS o_end, o.recurrence_id AS o_rid,"
                    " o.series_id, e.id, e.uid, e.title, e.all_day, e.floating, e.tzid, e.location,"
                    " e.description, e.transp, e.status, e.completed, e.origin, e.calendar_id,"
                    " c.name AS calendar, c.color"
                    " FROM occurrences o JOIN events e ON e.id = o.event_id"
                    " JOIN calendars c ON c.id = e.calendar_id"
                    " WHERE o.profile_id = ? AND o.floating = ? AND o.start_ts < ? AND o.start_ts >= ?"
                    " AND (o.end_ts > ? OR (o.end_ts = o.start_ts AND o.start_ts >= ?))" + extra,
                    [self.profile_id, floating, hi, lo - longest, lo, lo, *params_extra],
                ).fetchall()
                results.extend(_occurrence(row, tz) for row in rows)
        results.sort(key=lambda occ: occ.sort_key(tz))
        return results


def _occurrence(row: sqlite3.Row, tz: ZoneInfo) -> Occurrence:
    floating = bool(row["floating"])
    all_day = bool(row["all_day"])
    start: datetime | date = aware(row["o_start"], floating, tz)
    end: datetime | date = aware(row["o_end"], floating, tz)
    if all_day:
        assert isinstance(start, datetime) and isinstance(end, datetime)
        start, end = start.date(), end.date()
    return Occurrence(
        event_id=row["id"],
        series_id=row["series_id"],
        uid=row["uid"],
        recurrence_id=row["o_rid"],
        title=row["title"],
        start=start,
        end=end,
        all_day=all_day,
        floating=floating,
        tzid=row["tzid"],
        calendar=row["calendar"],
        calendar_id=row["calendar_id"],
        color=row["color"],
        location=row["location"],
        description=row["description"],
        transp=row["transp"],
        status=row["status"],
        completed=bool(row["completed"]),
        origin=row["origin"],
    )


def _columns(fields: EventFields) -> dict[str, Any]:
    return {
        "uid": fields.uid,
        "recurrence_id": fields.recurrence_id,
        "title": fields.title,
        "description": fields.description,
        "location": fields.location,
        "tzid": fields.tzid,
        "all_day": int(fields.all_day),
        "floating": int(fields.floating),
        "start_ts": fields.start_ts,
        "end_ts": fields.end_ts,
        "rrule": fields.rrule,
        "rdate": fields.rdate,
        "exdate": fields.exdate,
        "transp": fields.transp,
        "status": fields.status,
        "completed": int(fields.completed),
        "sequence": fields.sequence,
        "last_modified": fields.last_modified,
    }


def _series_is_finite(master: sqlite3.Row) -> bool:
    """A series ends when every RRULE has COUNT or UNTIL (RDATE-only series always end)."""
    rules = (master["rrule"] or "").splitlines()
    return all("COUNT=" in rule.upper() or "UNTIL=" in rule.upper() for rule in rules)
