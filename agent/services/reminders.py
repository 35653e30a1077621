"""Which VALARM reminders fall due in a window of time, for the app's reminder timer.

Alarms are stored per event row as the iCalendar TRIGGER text (``-PT15M``, relative to the
start; or an absolute UTC instant). The app asks "what fell due since I last looked" every
few seconds; answering from the occurrence index means a weekly meeting's alarm fires for
each week's instance, and an edited or moved event's alarm follows it without bookkeeping.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from icalendar.prop import vDDDTypes, vDuration

from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.occurrence import Occurrence

ABSOLUTE_LOOKAHEAD = timedelta(days=400)  # an absolute trigger names the first instance after it


def _parse_trigger(text: str, tz: ZoneInfo) -> timedelta | datetime | None:
    value = text.strip()
    try:
        offset = vDuration.from_ical(value)
        if isinstance(offset, timedelta):
            return offset
    except (ValueError, TypeError):
        pass
    try:
        instant = vDDDTypes.from_ical(value)
    except (ValueError, TypeError):
        return None
    if isinstance(instant, datetime):
        return instant if instant.tzinfo else instant.replace(tzinfo=tz)
    return None  # a bare DATE trigger is not valid iCalendar; ignore it rather than guess


def _start_instant(occ: Occurrence, tz: ZoneInfo) -> datetime:
    start = occ.start
    if isinstance(start, datetime):
        return start if start.tzinfo else start.replace(tzinfo=tz)
    assert isinstance(start, date)
    return datetime.combine(start, time(0), tz)  # all-day: relative to local midnight


def due_reminders(
    store: Store, profile_id: int, since: datetime, until: datetime, tz: ZoneInfo
) -> list[tuple[Occurrence, datetime]]:
    """Every (occurrence, fire time) with ``since < fire time <= until``, earliest first."""
    with store.lock:
        rows = store.conn.execute(
            "SELECT a.event_id, a.trigger FROM alarms a JOIN events e ON e.id = a.event_id"
            " WHERE e.profile_id = ? AND e.status != 'CANCELLED'",
            (profile_id,),
        ).fetchall()
    relative: dict[int, list[timedelta]] = {}
    absolute: dict[int, list[datetime]] = {}
    for event_id, trigger in rows:
        parsed = _parse_trigger(str(trigger), tz)
        if isinstance(parsed, timedelta):
            relative.setdefault(int(event_id), []).append(parsed)
        elif isinstance(parsed, datetime):
            absolute.setdefault(int(event_id), []).append(parsed)
    repo = EventRepo(store, profile_id)
    due: list[tuple[Occurrence, datetime]] = []
    seen: set[tuple[str, str, str]] = set()

    def keep(occ: Occurrence, fire: datetime) -> None:
        key = (occ.uid, str(occ.start), fire.isoformat())
        if since < fire <= until and occ.status != "CANCELLED" and key not in seen:
            seen.add(key)
            due.append((occ, fire))

    if relative:
        offsets = [offset for values in relative.values() for offset in values]
        # fire = start + offset, so start lies in (since - offset, until - offset]
        lo = since - max(offsets)
        hi = until - min(offsets) + timedelta(seconds=1)
        for occ in repo.occurrences(lo, hi, tz):
            for offset in relative.get(occ.event_id, []):
                keep(occ, _start_instant(occ, tz) + offset)
    for event_id, instants in absolute.items():
        for fire in instants:
            if not since < fire <= until:
                continue
            later = [occ for occ in repo.occurrences(fire, fire + ABSOLUTE_LOOKAHEAD, tz) if occ.event_id == event_id]
            if later:
                keep(later[0], fire)
    due.sort(key=lambda item: item[1])
    return due


# ---- the next fire time, and snoozes ---------------------------------------------------------
#
# The app sleeps on one single-shot timer until the next fire time instead of polling, so it
# needs "when is the next reminder after t". A snooze is a row in ``reminder_snoozes``
# (migration 5): the occurrence (UID and its start's recurrence key) and when it fires again.
# Rows live in the database, not in the window, so a snooze survives a restart; a fired
# snooze row is deleted, and a snooze on an event that was deleted simply finds nothing.

NEXT_HORIZON = timedelta(days=2)  # how far ahead one lookup searches for the next alarm


def next_fire_after(
    store: Store, profile_id: int, after: datetime, tz: ZoneInfo, horizon: timedelta = NEXT_HORIZON
) -> datetime | None:
    """The earliest alarm or snooze fire time in ``(after, after + horizon]``, or None."""
    found = [fire for _occ, fire in due_reminders(store, profile_id, after, after + horizon, tz)]
    found += [fire for _occ, fire in due_snoozes(store, profile_id, after, after + horizon, tz)]
    return min(found) if found else None


def occurrence_key(occ: Occurrence) -> str:
    """One instance's identity across edits of other instances: its start as a UTC key."""
    from agent.store.components import recurrence_key

    return recurrence_key(occ.start)


def snooze(store: Store, profile_id: int, occ: Occurrence, until: datetime, now: datetime) -> datetime:
    """Remind again about ``occ`` at ``until`` (replacing an earlier snooze of it)."""
    if until.tzinfo is None:
        raise ValueError("a snooze time must be aware")
    fire = until.astimezone(UTC).replace(microsecond=0)
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO reminder_snoozes(profile_id, uid, occurrence, fire_at, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(profile_id, uid, occurrence) DO UPDATE SET fire_at = excluded.fire_at,"
            " created_at = excluded.created_at",
            (profile_id, occ.uid, occurrence_key(occ), fire.isoformat(), now.astimezone(UTC).isoformat()),
        )
    return fire


def snoozed_until(store: Store, profile_id: int, occ: Occurrence) -> datetime | None:
    with store.lock:
        row = store.conn.execute(
            "SELECT fire_at FROM reminder_snoozes WHERE profile_id = ? AND uid = ? AND occurrence = ?",
            (profile_id, occ.uid, occurrence_key(occ)),
        ).fetchone()
    return datetime.fromisoformat(row[0]) if row else None


def clear_snooze(store: Store, profile_id: int, occ: Occurrence) -> None:
    with store.transaction() as conn:
        conn.execute(
            "DELETE FROM reminder_snoozes WHERE profile_id = ? AND uid = ? AND occurrence = ?",
            (profile_id, occ.uid, occurrence_key(occ)),
        )


def due_snoozes(
    store: Store, profile_id: int, since: datetime, until: datetime, tz: ZoneInfo
) -> list[tuple[Occurrence, datetime]]:
    """Snoozed reminders with ``since < fire <= until``, each with its occurrence as it is
    now (a snooze on a deleted or cancelled event yields nothing), earliest first."""
    lo, hi = since.astimezone(UTC).isoformat(), until.astimezone(UTC).isoformat()
    with store.lock:
        rows = store.conn.execute(
            "SELECT uid, occurrence, fire_at FROM reminder_snoozes"
            " WHERE profile_id = ? AND fire_at > ? AND fire_at <= ? ORDER BY fire_at",
            (profile_id, lo, hi),
        ).fetchall()
    if not rows:
        return []
    repo = EventRepo(store, profile_id)
    found: list[tuple[Occurrence, datetime]] = []
    for uid, key, fire_text in rows:
        occ = _occurrence_by_key(repo, str(uid), str(key), tz)
        if occ is not None and occ.status != "CANCELLED":
            found.append((occ, datetime.fromisoformat(str(fire_text))))
    return found


def _occurrence_by_key(repo: EventRepo, uid: str, key: str, tz: ZoneInfo) -> Occurrence | None:
    from agent.store.components import recurrence_key

    if "T" in key:
        start = datetime.strptime(key.rstrip("Z"), "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    else:
        start = datetime.combine(datetime.strptime(key, "%Y%m%d").date(), time(0), tz)
    for occ in repo.occurrences(start - timedelta(days=1), start + timedelta(days=1), tz):
        if occ.uid == uid and recurrence_key(occ.start) == key:
            return occ
    return None
