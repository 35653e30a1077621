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
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

from agent.errors import NotFoundError
from agent.store.components import (
    EPOCH,
    EventFields,
    excluded_single,
    from_wall_seconds,
    index_fields,
    parse_component,
    recurrence_key,
    span_columns,
    wall_seconds,
)
from agent.store.db import Store, utc_now_iso

HORIZON = timedelta(days=2 * 365)
EXTEND_BY = timedelta(days=365)
MAX_INSTANCES_PER_CHUNK = 5000
DAY = 86400
WINDOW = 8 * 366 * DAY  # expansion walks the range in windows this long ...
MIN_WINDOW = 3600  # ... halving them down to this when a rule is very dense


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


class Occurrence(NamedTuple):
    """One instance as views and tools see it.

    A named tuple rather than a dataclass: a month view builds thousands of these per
    query, and tuple construction is several times cheaper than a frozen dataclass's."""

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


class EventRepo:
    """Rows of one profile. Writes must run inside ``store.transaction()``."""

    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id
        self._own_calendars: set[int] = set()

    def _check_calendar(self, calendar_id: int) -> None:
        """A calendar id from elsewhere (another profile's, a stale one) is refused: the row
        would otherwise belong to this profile but show another profile's calendar."""
        if calendar_id in self._own_calendars:
            return
        found = self.store.conn.execute(
            "SELECT 1 FROM calendars WHERE id = ? AND profile_id = ?", (calendar_id, self.profile_id)
        ).fetchone()
        if found is None:
            raise NotFoundError(f"calendar {calendar_id} does not belong to this profile")
        self._own_calendars.add(calendar_id)

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
        created_at: str | None = None,
    ) -> ChangeSet:
        """Insert or replace the row for (UID, RECURRENCE-ID) and refresh its instances.

        ``created_at`` lets a service that decides by its own clock (the command service's
        ten-minute idempotency window) stamp a new row with that clock; default: now."""
        self._check_calendar(calendar_id)
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
                "created_at": created_at or now,
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

    def materialize(
        self,
        uid: str,
        horizon_ts: int | None = None,
        *,
        components: Mapping[str, icalendar.Event] | None = None,
        query: Any = None,
    ) -> None:
        """Rebuild every occurrence of ``uid`` (master, overrides, or a single event).

        ``components`` (by recurrence id) lets a caller that has just parsed the rows, the
        importer, spare parsing each stored text again; ``query`` is a recurring-ical-events
        query it already built from exactly these rows.
        """
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
                # A single whose EXDATE names its DTSTART has no instance (RFC 5545).
                excluded = bool(row["exdate"]) and not row["recurrence_id"] and excluded_single(parse_component(row["ics"]))
                if row["status"] != "CANCELLED" and not excluded:
                    self._insert_occurrence(row["id"], row["id"], row["floating"], row["start_ts"], row["end_ts"], None)
                conn.execute("UPDATE events SET expanded_until = NULL WHERE id = ?", (row["id"],))
            return
        if horizon_ts is None:
            horizon_ts = max(int(time.time()), master["start_ts"]) + int(HORIZON.total_seconds())
        # An override may be moved before the series starts or past the horizon; its
        # instance must still be found (the day of slack also covers floating vs UTC).
        horizon_ts = max(horizon_ts, max(row["start_ts"] for row in rows) + DAY)
        start_ts = min(row["start_ts"] for row in rows) - DAY
        self._expand(master, rows, start_ts, horizon_ts, components, query)

    def _expand(
        self,
        master: sqlite3.Row,
        rows: list[sqlite3.Row],
        from_ts: int,
        to_ts: int,
        components: Mapping[str, icalendar.Event] | None = None,
        query: Any = None,
    ) -> None:
        """Expand ``master``'s series into occurrences starting in [from_ts, to_ts).

        Reads recurring-ical-events' occurrences (start, end) instead of asking it for a
        copied component per instance, which cost five times the expansion itself; only
        instances shaped by an override become components, to read their own status.
        The range is walked in windows so a dense rule stops at MAX_INSTANCES_PER_CHUNK.
        """
        if query is None:
            calendar = icalendar.Calendar()
            parsed = components or {}
            for row in rows:
                calendar.add_component(parsed.get(row["recurrence_id"]) or parse_component(row["ics"]))
            query = recurring_ical_events.of(calendar, skip_bad_series=True)
        floating = bool(master["floating"])
        overrides = {row["recurrence_id"]: row for row in rows if row["recurrence_id"]}
        suppressed = tuple(query.suppressed_errors)
        master_cancelled = str(master["status"]).upper() == "CANCELLED"
        batch: list[tuple[int, int, int, int, int, int, str | None]] = []
        reached = to_ts
        low = from_ts
        step = WINDOW
        while low < to_ts:
            high = min(low + step, to_ts)
            cap = MAX_INSTANCES_PER_CHUNK if step > MIN_WINDOW else None
            found = self._window(query.series, suppressed, floating, low, high, cap, master, overrides, master_cancelled)
            if found is None:
                step = max(step // 2, MIN_WINDOW)
                continue
            if batch and len(batch) + len(found) > MAX_INSTANCES_PER_CHUNK:
                reached = low
                break
            batch.extend(found)
            low = high
            if len(batch) >= MAX_INSTANCES_PER_CHUNK and low < to_ts:
                reached = low
                break
        self.store.conn.executemany(
            "INSERT INTO occurrences(profile_id, series_id, event_id, floating, start_ts, end_ts, recurrence_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            batch,
        )
        complete = reached == to_ts and _series_is_finite(master) and not self._more_after(query, floating, to_ts)
        expanded_until = None if complete else reached
        self.store.conn.execute(
            "UPDATE events SET expanded_until = ? WHERE id = ?", (expanded_until, master["id"])
        )

    @staticmethod
    def _more_after(query: Any, floating: bool, ts: int) -> bool:
        """Whether a finite series (COUNT, UNTIL or RDATEs, e.g. a lunar-yearly birthday) still
        has instances past the expanded range; if so it stays open and later queries extend it."""
        moment = from_wall_seconds(ts) if floating else datetime.fromtimestamp(ts, timezone.utc)
        try:
            return next(iter(query.after(moment)), None) is not None
        except Exception:  # a series recurring-ical-events cannot walk: treat as ended
            return False

    def _window(
        self,
        series_list: list[Any],
        suppressed: tuple[type[BaseException], ...],
        floating: bool,
        low: int,
        high: int,
        cap: int | None,
        master: sqlite3.Row,
        overrides: dict[str, sqlite3.Row],
        master_cancelled: bool,
    ) -> list[tuple[int, int, int, int, int, int, str | None]] | None:
        """Occurrence rows starting in [low, high); None when more than ``cap`` were seen."""
        if floating:
            span = (from_wall_seconds(low), from_wall_seconds(high))
        else:
            span = (datetime.fromtimestamp(low, timezone.utc), datetime.fromtimestamp(high, timezone.utc))
        out: list[tuple[int, int, int, int, int, int, str | None]] = []
        seen = 0
        for series in series_list:
            try:
                for occurrence in series.between(*span):
                    seen += 1
                    if cap is not None and seen > cap:
                        return None
                    if occurrence.recurrence_ids:
                        instance = occurrence.as_component(False)
                        fields = index_fields(instance)
                        is_floating, start_ts, end_ts = fields.floating, fields.start_ts, fields.end_ts
                        cancelled = str(instance.get("STATUS") or "").upper() == "CANCELLED"
                        rid_value = instance.decoded("RECURRENCE-ID") if instance.get("RECURRENCE-ID") else None
                        rid = recurrence_key(rid_value) if rid_value is not None else None
                    else:
                        _, is_floating, start_ts, end_ts, _ = span_columns(occurrence.start, occurrence.end)
                        cancelled = master_cancelled
                        rid = recurrence_key(occurrence.start)
                    if not low <= start_ts < high or cancelled:
                        continue
                    row = overrides.get(rid or "")
                    event_id = row["id"] if row is not None else master["id"]
                    out.append((self.profile_id, master["id"], event_id, int(is_floating), start_ts, end_ts, rid))
            except suppressed:
                continue
        return out

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
            calendars = {
                row[0]: (row[1], row[2])
                for row in conn.execute("SELECT id, name, color FROM calendars WHERE profile_id = ?", (self.profile_id,))
            }
            keyed: list[tuple[int, int, str, Occurrence]] = []
            cursor = conn.cursor()
            cursor.row_factory = None  # plain tuples: sqlite3.Row costs more than the query
            for floating, lo, hi in windows:
                (longest,) = cursor.execute(
                    "SELECT MAX(end_ts - start_ts) FROM occurrences WHERE profile_id = ? AND floating = ?",
                    (self.profile_id, floating),
                ).fetchone()
                if longest is None:
                    continue
                rows = cursor.execute(
                    "SELECT o.start_ts, o.end_ts, o.recurrence_id, o.series_id, e.id, e.uid, e.title, e.all_day,"
                    " e.tzid, e.location, e.description, e.transp, e.status, e.completed, e.origin, e.calendar_id"
                    " FROM occurrences o JOIN events e ON e.id = o.event_id"
                    " WHERE o.profile_id = ? AND o.floating = ? AND o.start_ts < ? AND o.start_ts >= ?"
                    " AND (o.end_ts > ? OR (o.end_ts = o.start_ts AND o.start_ts >= ?))" + extra,
                    [self.profile_id, floating, hi, lo - longest, lo, lo, *params_extra],
                ).fetchall()
                keyed.extend(_occurrences(rows, bool(floating), tz, calendars))
        keyed.sort(key=lambda item: item[:3])
        return [item[3] for item in keyed]


def _occurrences(
    rows: list[tuple[Any, ...]], floating: bool, tz: ZoneInfo, calendars: dict[int, tuple[str, str]]
) -> list[tuple[int, int, str, Occurrence]]:
    """(sort instant, all-day first, title, occurrence) for each row of one window."""
    out = []
    fromtimestamp = datetime.fromtimestamp
    for (o_start, o_end, rid, series_id, event_id, uid, title, all_day, tzid, location,
         description, transp, status, completed, origin, calendar_id) in rows:
        if floating:
            start: datetime | date = EPOCH + timedelta(seconds=o_start)
            end: datetime | date = EPOCH + timedelta(seconds=o_end)
            key = int(start.replace(tzinfo=tz).timestamp())  # type: ignore[union-attr]
            if all_day:
                start, end = start.date(), end.date()  # type: ignore[union-attr]
        else:
            start, end, key = fromtimestamp(o_start, tz), fromtimestamp(o_end, tz), o_start
        name, color = calendars.get(calendar_id, ("", "#888888"))
        occurrence = Occurrence(
            event_id, series_id, uid, rid, title, start, end, bool(all_day), floating, tzid, name,
            calendar_id, color, location, description, transp, status, bool(completed), origin,
        )
        out.append((key, 1 if not all_day else 0, title, occurrence))
    return out


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
