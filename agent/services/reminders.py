"""Which VALARM reminders fall due in a window of time, for the app's reminder timer.

Alarms are stored per event row as the iCalendar TRIGGER text (``-PT15M``, relative to the
start; or an absolute UTC instant). The app asks "what fell due since I last looked" every
few seconds; answering from the occurrence index means a weekly meeting's alarm fires for
each week's instance, and an edited or moved event's alarm follows it without bookkeeping.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from icalendar.prop import vDDDTypes, vDuration

from agent.store.db import Store
from agent.store.events import EventRepo, Occurrence

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
