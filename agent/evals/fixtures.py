"""A case's world: a fresh in-memory store filled from its fixtures, and a clock it controls.

Fixtures go in through the same services the app uses (calendars, memories, the archive,
the command service for a pending stub), so a fixture can never be a state the app could
not reach. Only the clock and the zone are the case's; everything else is real.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from agent.evals.cases import Case, CaseError, parse_when
from agent.services.archive import ArchiveService
from agent.services.calendars import CalendarService
from agent.services.command_types import ACTIVE
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.services.settings import SettingsService
from agent.store.components import aware, build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import Person, write
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext, local_datetime

EventKey = tuple[str, str, str, str]  # title, start, end, calendar (local wall-clock text)


class Clock:
    """The case's "now"; turns move it forward (``at``), services read it through the assistant."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


_template: Store | None = None
_template_lock = threading.Lock()


class _CopiedStore(Store):
    """A store whose schema is copied from a template that ran the real migrations once.

    Migrating a fresh in-memory database costs several milliseconds; the offline suite runs
    hundreds of them and must finish in about a second. The copy is byte-for-byte the
    migrated schema (SQLite's backup API), so nothing a service sees differs."""

    def _migrate(self) -> None:
        if self.file is not None or _template is None:  # only a new in-memory database is copied
            super()._migrate()
            return
        with _template_lock:
            _template.conn.backup(self.conn)


def fresh_store() -> Store:
    global _template
    with _template_lock:
        if _template is None:
            _template = Store(":memory:")
    return _CopiedStore(":memory:")


@dataclass
class World:
    store: Store
    profile_id: int
    zone: ZoneInfo
    clock: Clock

    def ctx(self, at: datetime | None = None) -> TimeContext:
        country = str(SettingsService(self.store, self.profile_id).get("holiday_country"))
        return TimeContext(now=at or self.clock.now, tz=self.zone, holiday_country=country)


def build_world(case: Case) -> World:
    store = fresh_store()
    profile_id = ensure_profile(store)
    zone = case.zone
    world = World(store, profile_id, zone, Clock(case.now))
    fixtures = case.fixtures
    settings = SettingsService(store, profile_id)
    settings.set("timezone", case.tz)
    for key, value in (fixtures.get("settings") or {}).items():
        settings.set(key, value)
    _calendars(store, profile_id, fixtures.get("calendars") or [], case)
    for item in fixtures.get("events") or []:
        _event(world, item, case)
    memories = MemoryService(store, profile_id)
    for text in fixtures.get("memories") or []:
        memories.remember(str(text))
    for item in fixtures.get("archive") or []:
        if not isinstance(item, dict) or not {"role", "content", "at"} <= set(item):
            raise CaseError("evals.archive_fixture", where=case.source)
        at = parse_when(str(item["at"]), case.now, zone)
        ArchiveService(store, profile_id, clock=at).append(str(item["role"]), str(item["content"]), item.get("meta"))
    if fixtures.get("stub"):
        _stub(world, fixtures["stub"], case)
    return world


def _calendars(store: Store, profile_id: int, items: list[Any], case: Case) -> None:
    service = CalendarService(store, profile_id)
    for item in items:
        spec = {"name": item} if isinstance(item, str) else dict(item)
        name = str(spec["name"])
        existing = {c.casefold() for c in service.names()}
        if name.casefold() not in existing:
            service.add(name, spec.get("color"), bool(spec.get("default", False)))
        elif spec.get("default"):
            service.set_default(name)


def _when(value: str, zone: ZoneInfo) -> date | datetime:
    """``YYYY-MM-DD`` is an all-day date; ``YYYY-MM-DDTHH:MM`` is wall-clock time in the zone."""
    if "T" not in value:
        return date.fromisoformat(value)
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        return local_datetime(parsed.date(), parsed.time(), zone)
    return parsed


def _event(world: World, item: dict[str, Any], case: Case) -> None:
    if not isinstance(item, dict) or "title" not in item or "start" not in item:
        raise CaseError("evals.event_fixture", where=case.source)
    start = _when(str(item["start"]), world.zone)
    if item.get("end"):
        end = _when(str(item["end"]), world.zone)
    else:
        end = start + (timedelta(days=1) if not isinstance(start, datetime) else timedelta(hours=1))
    component = build_event(
        str(item["title"]),
        start,
        end,
        description=str(item.get("description", "")),
        location=str(item.get("location", "")),
        transp=str(item.get("transp", "OPAQUE")),
        rrule=item.get("rrule"),
    )
    if item.get("completed"):
        component.add("X-RICHENG-COMPLETED", "TRUE")
    if item.get("status"):
        component.add("STATUS", str(item["status"]))
    if item.get("organizer"):  # an invitation (issue 31): who organises it, who is asked
        write(component, "organizer", Person(str(item["organizer"]), "", "", ""))
    write(component, "attendees", [Person(str(email)) for email in item.get("attendees") or []])
    calendars = CalendarService(world.store, world.profile_id)
    calendar = calendars.get(str(item["calendar"])) if item.get("calendar") else calendars.default()
    with world.store.transaction():
        EventRepo(world.store, world.profile_id).save(component, calendar.id, str(item.get("origin", "user")))


def _stub(world: World, spec: dict[str, Any], case: Case) -> None:
    at = parse_when(str(spec.get("at", "-1m")), case.now, world.zone)
    commands = CommandService(world.store, world.profile_id, world.ctx(at))
    outcome = commands.prepare_or_create(
        spec.get("title"),
        spec.get("date"),
        time=spec.get("time"),
        end_time=spec.get("end_time"),
        duration_minutes=spec.get("duration_minutes"),
        calendar_name=spec.get("calendar"),
    )
    if outcome.status not in ACTIVE:
        raise CaseError("evals.stub_not_pending", where=case.source, status=outcome.status)


# ---- snapshots ------------------------------------------------------------------------


def events_snapshot(store: Store, profile_id: int, zone: ZoneInfo) -> Counter[EventKey]:
    """Every stored event as (title, start, end, calendar) in local wall-clock text.

    All-day starts are ``YYYY-MM-DD``; timed ones ``YYYY-MM-DDTHH:MM`` in the case's zone."""
    rows = store.conn.execute(
        "SELECT e.title, e.start_ts, e.end_ts, e.floating, e.all_day, c.name AS calendar"
        " FROM events e JOIN calendars c ON c.id = e.calendar_id WHERE e.profile_id = ?",
        (profile_id,),
    ).fetchall()
    found: Counter[EventKey] = Counter()
    for row in rows:
        start = aware(int(row["start_ts"]), bool(row["floating"]), zone)
        end = aware(int(row["end_ts"]), bool(row["floating"]), zone)
        if row["all_day"]:
            key = (row["title"], start.date().isoformat(), end.date().isoformat(), row["calendar"])
        else:
            key = (row["title"], f"{start:%Y-%m-%dT%H:%M}", f"{end:%Y-%m-%dT%H:%M}", row["calendar"])
        found[key] += 1
    return found


def exported_events(store: Store, profile_id: int) -> list[dict[str, Any]]:
    """Every VEVENT of the profile's ICS export (``agent/ics/exporter.py``), read from its
    lines as another program would: SUMMARY, the RRULE value, DTSTART's value and TZID, how
    many RDATEs, and the 农历 mark. A case's ``exported`` expectation is checked against it,
    so a repeat is proved through to the file, not only to the store."""
    from agent.ics.exporter import export_calendar

    text = re.sub(r"\r?\n[ \t]", "", export_calendar(store, profile_id).decode())
    found: list[dict[str, Any]] = []
    event: dict[str, Any] | None = None
    depth = 0
    for line in text.splitlines():
        if line == "BEGIN:VEVENT":
            event, depth = {"title": "", "rrule": None, "dtstart": "", "tzid": None, "rdates": 0, "mark": None}, 0
            continue
        if event is None:
            continue
        if line.startswith("BEGIN:"):
            depth += 1  # a VALARM inside the event: its lines are not the event's
        elif line.startswith("END:") and depth:
            depth -= 1
        elif line == "END:VEVENT":
            found.append(event)
            event = None
        elif not depth:
            head, _, value = line.partition(":")
            name, *params = head.split(";")
            if name == "SUMMARY":
                event["title"] = re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
            elif name == "RRULE":
                event["rrule"] = value
            elif name == "DTSTART":
                event["dtstart"] = value
                event["tzid"] = next((p.partition("=")[2] for p in params if p.upper().startswith("TZID=")), None)
            elif name == "RDATE":
                event["rdates"] += len([item for item in value.split(",") if item])
            elif name == "X-RICHENG-RECUR":
                event["mark"] = value
    return found


def memories_snapshot(store: Store, profile_id: int) -> Counter[str]:
    rows = store.conn.execute("SELECT text FROM memories WHERE profile_id = ?", (profile_id,)).fetchall()
    return Counter(str(row["text"]) for row in rows)


def stub_snapshot(world: World) -> dict[str, Any] | None:
    stub = CommandService(world.store, world.profile_id, world.ctx()).active_stub()
    return None if stub is None else {"title": stub.title, "status": stub.status, "slots": stub.slots}


def event_dicts(keys: Counter[EventKey]) -> list[dict[str, str]]:
    return [
        {"title": title, "start": start, "end": end, "calendar": calendar}
        for (title, start, end, calendar), count in sorted(keys.items())
        for _ in range(count)
    ]
