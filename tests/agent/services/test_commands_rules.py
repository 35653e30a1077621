"""A create with a structured rule or a zone: what the command layer writes (issue 28).

The repeat word (WEEKLY …) follows the start; a structured rule says what the user said
(every Mon Wed Fri), starts on its own first day, and a 农历 series carries the mark every
reader (the editor included) recognises it by."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent.services.commands import CommandService
from agent.store.db import Store
from agent.timesym.context import TimeContext
from agent.timesym.recurrence import LUNAR_MARK, MARK_PROPERTY
from tests.support.clock import SHANGHAI


def master(store: Store, event_id: int) -> str:
    return str(store.conn.execute("SELECT ics FROM events WHERE id = ?", (event_id,)).fetchone()[0])


def test_a_weekday_list_starts_on_its_first_day(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)  # now: Mon 2026-11-30 10:00
    out = svc.prepare_or_create("Gym", "D+1", time="07:00", rrule="FREQ=WEEKLY;BYDAY=MO,WE,FR")
    assert out.status == "created" and out.event is not None
    assert out.event.start == datetime(2026, 12, 2, 7, 0, tzinfo=SHANGHAI)  # Tuesday said: Wednesday is the first
    assert "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR" in master(store, out.event.event_id)


def test_a_zone_pins_the_clock_time(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)
    out = svc.prepare_or_create("Call with Berlin", "D+1", time="16:00", zone="Europe/Berlin")
    assert out.status == "created" and out.event is not None
    assert out.event.start == datetime(2026, 12, 1, 16, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    assert "TZID=Europe/Berlin" in master(store, out.event.event_id)
    assert svc.prepare_or_create("x", "D+2", time="09:00", zone="Mars/Olympus").status == "invalid"


def test_a_lunar_series_is_marked(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)
    out = svc.prepare_or_create("中秋聚餐", "2027-09-15", repeat="LUNAR_YEARLY")
    assert out.status == "created" and out.event is not None
    assert f"{MARK_PROPERTY}:{LUNAR_MARK}" in master(store, out.event.event_id)
