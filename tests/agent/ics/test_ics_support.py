"""Shared helpers for the ICS tests: fresh stores, field snapshots and instance lists.

Kept in a test module (not conftest) so each ICS test file states what it uses.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

from agent.store.components import parse_component, recurrence_key, span_columns
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile

DATA = Path(__file__).resolve().parents[2] / "data" / "ics"
UTC = ZoneInfo("UTC")


def fresh() -> tuple[Store, int]:
    store = Store(":memory:")
    return store, ensure_profile(store)


def fixture(name: str) -> bytes:
    return (DATA / name).read_bytes()


def event_fields(store: Store, profile_id: int) -> dict[tuple[str, str], tuple[Any, ...]]:
    """What a round trip must keep, per (UID, RECURRENCE-ID)."""
    rows = store.conn.execute(
        "SELECT e.id, e.uid, e.recurrence_id, e.title, e.start_ts, e.end_ts, e.all_day, e.floating, e.tzid,"
        " e.rrule, e.rdate, e.exdate, e.description, e.location, e.status, e.transp"
        " FROM events e WHERE e.profile_id = ?",
        (profile_id,),
    ).fetchall()
    out = {}
    for row in rows:
        alarms = sorted(
            tuple(alarm) for alarm in store.conn.execute("SELECT trigger, action FROM alarms WHERE event_id = ?", (row["id"],))
        )
        out[(row["uid"], row["recurrence_id"])] = (*tuple(row)[3:], tuple(alarms))
    return out


def instances(store: Store, profile_id: int, low: datetime, high: datetime) -> list[tuple[Any, ...]]:
    repo = EventRepo(store, profile_id)
    return sorted(
        (occ.uid, occ.recurrence_id or "", occ.start.isoformat(), occ.end.isoformat(), occ.all_day, occ.title)
        for occ in repo.occurrences(low, high, UTC)
    )


def span_of(store: Store, profile_id: int) -> tuple[datetime, datetime] | None:
    """A window around the stored events: from a day before the first to two years on."""
    row = store.conn.execute("SELECT MIN(start_ts), MAX(end_ts) FROM events WHERE profile_id = ?", (profile_id,)).fetchone()
    if row[0] is None:
        return None
    low = datetime.fromtimestamp(max(row[0], 86400 * 2), UTC) - timedelta(days=1)
    high = max(low + timedelta(days=730), datetime.fromtimestamp(min(row[1], 4102444800), UTC))
    return low, min(high, low + timedelta(days=3650))


def reference_starts(store: Store, profile_id: int, low: datetime, high: datetime) -> Counter[tuple[str, int, int]]:
    """Instances recurring-ical-events finds in the stored texts, started in [low, high).

    An independent check of the store's own materialisation.
    """
    groups: dict[str, list[str]] = {}
    for uid, ics in store.conn.execute("SELECT uid, ics FROM events WHERE profile_id = ?", (profile_id,)):
        groups.setdefault(uid, []).append(ics)
    found: Counter[tuple[str, int, int]] = Counter()
    lo_ts, hi_ts = int(low.timestamp()), int(high.timestamp())
    for uid, texts in groups.items():
        calendar = icalendar.Calendar()
        for text in texts:
            calendar.add_component(parse_component(text))
        query = recurring_ical_events.of(calendar, skip_bad_series=True)
        for instance in query.between(low - timedelta(days=2), high + timedelta(days=2)):
            if str(instance.get("STATUS") or "").upper() == "CANCELLED":
                continue
            start = instance.decoded("DTSTART")
            end = instance.decoded("DTEND") if instance.get("DTEND") is not None else start
            if instance.get("DTEND") is None and not isinstance(start, datetime):
                end = start + timedelta(days=1)
            _, _, start_ts, end_ts, _ = span_columns(start, end)
            if lo_ts <= start_ts < hi_ts:
                found[(uid, start_ts, end_ts)] += 1
    return found


def stored_starts(store: Store, profile_id: int, low: datetime, high: datetime) -> Counter[tuple[str, int, int]]:
    EventRepo(store, profile_id).ensure_expanded(int(high.timestamp()) + 86400)
    lo_ts, hi_ts = int(low.timestamp()), int(high.timestamp())
    rows = store.conn.execute(
        "SELECT e.uid, o.start_ts, o.end_ts FROM occurrences o JOIN events e ON e.id = o.event_id"
        " WHERE o.profile_id = ? AND o.start_ts >= ? AND o.start_ts < ?",
        (profile_id, lo_ts, hi_ts),
    ).fetchall()
    return Counter((row[0], row[1], row[2]) for row in rows)


def key(value: Any) -> str:
    return recurrence_key(value)
