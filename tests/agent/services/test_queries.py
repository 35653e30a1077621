"""QueryService: ranges from symbols, recurring expansion, completion filter, sorting,
and free time inside working hours."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from agent.errors import NotFoundError, ValidationError
from agent.services.calendars import CalendarService
from agent.services.queries import FreeSlot, QueryService
from agent.services.settings import SettingsService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from tests.support.clock import NEW_YORK, NOW, SHANGHAI


def sh(*args: int) -> datetime:
    return datetime(*args, tzinfo=SHANGHAI)  # type: ignore[misc]


@pytest.fixture
def q(store: Store, profile_id: int, ctx: TimeContext) -> QueryService:
    return QueryService(store, profile_id, ctx)


@pytest.fixture
def add(store: Store, profile_id: int):  # type: ignore[no-untyped-def]
    repo = EventRepo(store, profile_id)
    default = CalendarService(store, profile_id).default().id

    def _add(title: str, start, end, calendar_id: int | None = None, completed: bool = False, **kw):  # type: ignore[no-untyped-def]
        event = build_event(title, start, end, **kw)
        if completed:
            event.add("X-RICHENG-COMPLETED", "TRUE")
        with store.transaction():
            repo.save(event, calendar_id or default, "user")
        return event

    return _add


def titles(result) -> list[str]:  # type: ignore[no-untyped-def]
    events = result.events if hasattr(result, "events") else result
    return [o.title for o in events]


# ---- ranges ----------------------------------------------------------------------------------


def test_tomorrow_is_all_of_tomorrow(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("today late", sh(2026, 11, 30, 23), sh(2026, 12, 1, 0))  # ends exactly at tomorrow's start
    add("midnight", sh(2026, 12, 1, 0), sh(2026, 12, 1, 0, 30))
    add("late", sh(2026, 12, 1, 23, 30), sh(2026, 12, 1, 23, 59))
    add("day after", sh(2026, 12, 2, 0), sh(2026, 12, 2, 1))
    result = q.range("D+1", "D+1")
    assert (result.start, result.end) == (sh(2026, 12, 1), sh(2026, 12, 2))
    assert titles(result) == ["midnight", "late"]


def test_next_month_is_all_of_next_month(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("nov", sh(2026, 11, 30, 22), sh(2026, 11, 30, 23))
    add("dec first", sh(2026, 12, 1, 0), sh(2026, 12, 1, 1))
    add("dec last", sh(2026, 12, 31, 23), sh(2026, 12, 31, 23, 30))
    add("new year", date(2027, 1, 1), date(2027, 1, 2))
    result = q.range("M+1", "M+1")
    assert (result.start, result.end) == (sh(2026, 12, 1), sh(2027, 1, 1))
    assert titles(result) == ["dec first", "dec last"]


def test_range_half_open_and_spanning(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("spans", sh(2026, 11, 29), sh(2026, 12, 3))
    add("zero at start", sh(2026, 12, 1, 0), sh(2026, 12, 1, 0))
    add("zero at end", sh(2026, 12, 2, 0), sh(2026, 12, 2, 0))
    assert titles(q.range("D+1", "D+1")) == ["spans", "zero at start"]


def test_recurring_expanded_in_window(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("站会", sh(2026, 11, 2, 9), sh(2026, 11, 2, 9, 15), rrule="FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR")
    result = q.range("D+0", "D+6")
    starts = [o.start for o in result.events]
    assert starts == [sh(2026, 11, 30, 9), *[sh(2026, 12, d, 9) for d in (1, 2, 3, 4)]]
    assert all(o.recurrence_id for o in result.events)
    assert len({o.recurrence_id for o in result.events}) == 5


def test_incomplete_only(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("done", sh(2026, 12, 1, 9), sh(2026, 12, 1, 10), completed=True)
    add("todo", sh(2026, 12, 1, 11), sh(2026, 12, 1, 12))
    assert titles(q.range("D+1", "D+1")) == ["done", "todo"]  # default: everything
    assert titles(q.range("D+1", "D+1", incomplete_only=False)) == ["done", "todo"]
    assert titles(q.range("D+1", "D+1", incomplete_only=True)) == ["todo"]


def test_results_sorted_across_kinds(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("z 15:00", sh(2026, 12, 1, 15), sh(2026, 12, 1, 16))
    add("y floating 08:00", datetime(2026, 12, 1, 8), datetime(2026, 12, 1, 9))
    add("x all day", date(2026, 12, 1), date(2026, 12, 2))
    add("w 07:00", sh(2026, 12, 1, 7), sh(2026, 12, 1, 8))
    assert titles(q.range("D+1", "D+1")) == ["x all day", "w 07:00", "y floating 08:00", "z 15:00"]


def test_calendar_filter(store: Store, profile_id: int, q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    work = CalendarService(store, profile_id).add("工作").id
    add("home", sh(2026, 12, 1, 9), sh(2026, 12, 1, 10))
    add("office", sh(2026, 12, 1, 11), sh(2026, 12, 1, 12), calendar_id=work)
    assert titles(q.range("D+1", "D+1", calendar="工作")) == ["office"]
    with pytest.raises(NotFoundError):
        q.range("D+1", "D+1", calendar="nope")


def test_bad_symbols_raise_symbol_error(q: QueryService) -> None:
    for start, end in (("tomorrow", "D+1"), ("D+2", "D+1"), ("10:00", "D+1")):
        with pytest.raises(SymbolError):
            q.range(start, end)


def test_to_json_shape(q: QueryService, add) -> None:  # type: ignore[no-untyped-def]
    add("x", date(2026, 12, 1), date(2026, 12, 2))
    payload = q.range("D+1", "D+1").to_json()
    assert set(payload) == {"start", "end", "events"}
    (event,) = payload["events"]
    assert set(event) == {"uid", "title", "start", "end", "all_day", "calendar", "recurrence_id"}
    assert (event["start"], event["end"], event["all_day"]) == ("2026-12-01", "2026-12-02", True)


def test_all_day_stays_put_when_the_zone_changes(store: Store, profile_id: int, add) -> None:  # type: ignore[no-untyped-def]
    add("休假", date(2026, 12, 1), date(2026, 12, 2))
    for tz in (SHANGHAI, NEW_YORK):
        q = QueryService(store, profile_id, TimeContext(now=NOW, tz=tz))
        (occ,) = q.between(datetime(2026, 12, 1, tzinfo=tz), datetime(2026, 12, 2, tzinfo=tz))
        assert occ.start == date(2026, 12, 1)


# ---- free time -------------------------------------------------------------------------------


def slots(found: list[FreeSlot]) -> list[tuple[datetime, datetime]]:
    return [(s.start, s.end) for s in found]


def test_free_slots_in_working_hours(store: Store, profile_id: int, add) -> None:  # type: ignore[no-untyped-def]
    SettingsService(store, profile_id).set("working_hours", ["10:00", "12:00"])
    add("busy", sh(2026, 12, 1, 10, 30), sh(2026, 12, 1, 11))
    q = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI))
    assert slots(q.free_slots("D+1", "D+1", 30)) == [
        (sh(2026, 12, 1, 10), sh(2026, 12, 1, 10, 30)),
        (sh(2026, 12, 1, 11), sh(2026, 12, 1, 12)),
    ]
    assert slots(q.free_slots("D+1", "D+1", 60)) == [(sh(2026, 12, 1, 11), sh(2026, 12, 1, 12))]
    assert q.free_slots("D+1", "D+1", 90) == []


def test_free_slots_default_hours_and_working_days(store: Store, profile_id: int) -> None:
    q = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI))
    found = slots(q.free_slots("D+1", "W7", 60))  # Tue..Sun: weekend has no working hours
    assert found == [(sh(2026, 12, d, 9), sh(2026, 12, d, 18)) for d in (1, 2, 3, 4)]


def test_free_slots_never_in_the_past(store: Store, profile_id: int, add) -> None:  # type: ignore[no-untyped-def]
    SettingsService(store, profile_id).set("working_hours", ["10:00", "12:00"])
    add("busy", sh(2026, 11, 30, 11), sh(2026, 11, 30, 11, 30))
    q = QueryService(store, profile_id, TimeContext(now=sh(2026, 11, 30, 10, 45), tz=SHANGHAI))
    assert slots(q.free_slots("D-1", "D+0", 30)) == [(sh(2026, 11, 30, 11, 30), sh(2026, 11, 30, 12))]
    assert slots(q.free_slots("D-1", "D+0", 15)) == [
        (sh(2026, 11, 30, 10, 45), sh(2026, 11, 30, 11)),
        (sh(2026, 11, 30, 11, 30), sh(2026, 11, 30, 12)),
    ]
    late = QueryService(store, profile_id, TimeContext(now=sh(2026, 11, 30, 13), tz=SHANGHAI))
    assert late.free_slots("D+0", "D+0", 15) == []


def test_free_slots_ignore_transparent_and_respect_all_day(store: Store, profile_id: int, add) -> None:  # type: ignore[no-untyped-def]
    SettingsService(store, profile_id).set("working_hours", ["10:00", "12:00"])
    add("生日", date(2026, 12, 1), date(2026, 12, 2), transp="TRANSPARENT")
    add("focus", sh(2026, 12, 1, 10), sh(2026, 12, 1, 12), transp="TRANSPARENT")
    add("休假", date(2026, 12, 2), date(2026, 12, 3))
    q = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI))
    assert slots(q.free_slots("D+1", "D+2", 60)) == [(sh(2026, 12, 1, 10), sh(2026, 12, 1, 12))]


def test_free_slots_overlapping_busy_events(store: Store, profile_id: int, add) -> None:  # type: ignore[no-untyped-def]
    add("a", sh(2026, 12, 1, 9), sh(2026, 12, 1, 12))
    add("b", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11))  # inside a
    add("c", sh(2026, 12, 1, 13), sh(2026, 12, 1, 19))  # runs past the working day
    q = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI))
    assert slots(q.free_slots("D+1", "D+1", 30)) == [(sh(2026, 12, 1, 12), sh(2026, 12, 1, 13))]


def test_free_slots_recurring_busy(store: Store, profile_id: int, add) -> None:  # type: ignore[no-untyped-def]
    SettingsService(store, profile_id).set("working_hours", ["10:00", "12:00"])
    add("站会", sh(2026, 11, 2, 10), sh(2026, 11, 2, 11), rrule="FREQ=DAILY")
    q = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI))
    assert slots(q.free_slots("D+1", "D+2", 60)) == [
        (sh(2026, 12, 1, 11), sh(2026, 12, 1, 12)),
        (sh(2026, 12, 2, 11), sh(2026, 12, 2, 12)),
    ]


def test_free_slots_duration_bounds(q: QueryService) -> None:
    for bad in (0, 4, 24 * 60 + 1):
        with pytest.raises(ValidationError):
            q.free_slots("D+1", "D+1", bad)


def test_free_slots_in_another_zone(store: Store, profile_id: int) -> None:
    SettingsService(store, profile_id).set("working_hours", ["10:00", "12:00"])
    q = QueryService(store, profile_id, TimeContext(now=NOW, tz=NEW_YORK))  # Sun 2026-11-29 21:00 NY
    found = slots(q.free_slots("D+1", "D+1", 60))
    assert found == [(datetime(2026, 11, 30, 10, tzinfo=NEW_YORK), datetime(2026, 11, 30, 12, tzinfo=NEW_YORK))]
    assert found[0][0] - found[0][0].replace(hour=0) == timedelta(hours=10)
