"""EventRepo: VEVENT writes, the indexed half-open range query, recurrence, the horizon,
delete, and ChangeSet before-images with restore (undo)."""

from __future__ import annotations

import time
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest

from agent.services.calendars import CalendarService
from agent.services.queries import QueryService
from agent.store import expansion as expansion_module
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.occurrence import Occurrence
from agent.timesym.context import TimeContext
from tests.support.clock import NEW_YORK, NOW, SHANGHAI

UTC = ZoneInfo("UTC")


@pytest.fixture
def repo(store: Store, profile_id: int) -> EventRepo:
    return EventRepo(store, profile_id)


@pytest.fixture
def cal(store: Store, profile_id: int) -> int:
    return CalendarService(store, profile_id).default().id


def save(repo: EventRepo, cal: int, component: icalendar.Event, origin: str = "user"):
    with repo.store.transaction():
        return repo.save(component, cal, origin)


def save_ics(repo: EventRepo, cal: int, text: str) -> None:
    calendar = icalendar.Calendar.from_ical(text)
    with repo.store.transaction():
        for component in calendar.walk("VEVENT"):
            repo.save(component, cal, "import")


def sh(*args: int) -> datetime:
    return datetime(*args, tzinfo=SHANGHAI)  # type: ignore[misc]


def titles(found: list[Occurrence]) -> list[str]:
    return [o.title for o in found]


def day_window(d: date, tz: ZoneInfo) -> tuple[datetime, datetime]:
    start = datetime(d.year, d.month, d.day, tzinfo=tz)
    return start, start + timedelta(days=1)


# ---- all-day, floating, zoned ---------------------------------------------------------------


def test_all_day_event_keeps_its_date_in_every_zone(store: Store, profile_id: int, repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("休假", date(2026, 12, 1), date(2026, 12, 2)))
    for tz in (SHANGHAI, NEW_YORK, ZoneInfo("Pacific/Kiritimati"), ZoneInfo("Pacific/Pago_Pago")):
        found = repo.occurrences(*day_window(date(2026, 12, 1), tz), tz)
        assert [(o.title, o.start, o.end, o.all_day) for o in found] == [("休假", date(2026, 12, 1), date(2026, 12, 2), True)]
        assert repo.occurrences(*day_window(date(2026, 11, 30), tz), tz) == []
        assert repo.occurrences(*day_window(date(2026, 12, 2), tz), tz) == []  # exclusive end


def test_all_day_event_same_date_through_query_service_in_two_zones(
    store: Store, profile_id: int, repo: EventRepo, cal: int
) -> None:
    save(repo, cal, build_event("休假", date(2026, 12, 1), date(2026, 12, 2)))
    for tz in (SHANGHAI, NEW_YORK):
        q = QueryService(store, profile_id, TimeContext(now=NOW, tz=tz))
        result = q.range("2026-12-01", "2026-12-01")
        assert [(o.start, o.end) for o in result.events] == [(date(2026, 12, 1), date(2026, 12, 2))]
        assert q.range("2026-11-30", "2026-11-30").events == []
        assert q.range("2026-12-02", "2026-12-02").events == []


def test_multi_day_all_day_event(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("出差", date(2026, 12, 1), date(2026, 12, 4)))
    for d in (1, 2, 3):
        assert titles(repo.occurrences(*day_window(date(2026, 12, d), NEW_YORK), NEW_YORK)) == ["出差"]
    assert repo.occurrences(*day_window(date(2026, 12, 4), NEW_YORK), NEW_YORK) == []


def test_floating_event_keeps_its_wall_clock(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("晨跑", datetime(2026, 12, 1, 7, 0), datetime(2026, 12, 1, 8, 0)))
    for tz in (SHANGHAI, NEW_YORK):
        (occ,) = repo.occurrences(*day_window(date(2026, 12, 1), tz), tz)
        assert occ.floating and not occ.all_day
        assert occ.start == datetime(2026, 12, 1, 7, 0) and occ.end == datetime(2026, 12, 1, 8, 0)
        # 07:00 local is outside a 09:00-10:00 window in that same zone
        lo = datetime(2026, 12, 1, 9, tzinfo=tz)
        assert repo.occurrences(lo, lo + timedelta(hours=1), tz) == []


def test_zoned_event_moves_with_the_viewer(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("会议", sh(2026, 12, 1, 9), sh(2026, 12, 1, 10)))
    (occ,) = repo.occurrences(*day_window(date(2026, 12, 1), SHANGHAI), SHANGHAI)
    assert occ.tzid == "Asia/Shanghai" and not occ.floating
    assert occ.start == sh(2026, 12, 1, 9)
    # 09:00 Shanghai is 20:00 the previous evening in New York
    (ny,) = repo.occurrences(*day_window(date(2026, 11, 30), NEW_YORK), NEW_YORK)
    assert ny.start == datetime(2026, 11, 30, 20, tzinfo=NEW_YORK)
    assert ny.start.utcoffset() == timedelta(hours=-5)
    assert repo.occurrences(*day_window(date(2026, 12, 1), NEW_YORK), NEW_YORK) == []


def test_tzid_parsed_from_ics(repo: EventRepo, cal: int) -> None:
    save_ics(
        repo,
        cal,
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:ny@test\nSUMMARY:NY lunch\n"
        "DTSTART;TZID=America/New_York:20261201T120000\nDTEND;TZID=America/New_York:20261201T130000\n"
        "END:VEVENT\nEND:VCALENDAR\n",
    )
    row = repo.row("ny@test")
    assert row is not None and row["tzid"] == "America/New_York" and row["floating"] == 0
    (occ,) = repo.occurrences(*day_window(date(2026, 12, 2), SHANGHAI), SHANGHAI)
    assert occ.start == sh(2026, 12, 2, 1)


# ---- half-open overlap ---------------------------------------------------------------------

WINDOW = (sh(2026, 12, 1, 10), sh(2026, 12, 1, 12))


@pytest.mark.parametrize(
    ("start", "end", "included"),
    [
        (sh(2026, 12, 1, 9), sh(2026, 12, 1, 10), False),  # ends exactly at window start
        (sh(2026, 12, 1, 12), sh(2026, 12, 1, 13), False),  # starts exactly at window end
        (sh(2026, 12, 1, 8), sh(2026, 12, 1, 14), True),  # spans the whole window
        (sh(2026, 12, 1, 10), sh(2026, 12, 1, 10), True),  # zero length at window start
        (sh(2026, 12, 1, 12), sh(2026, 12, 1, 12), False),  # zero length at window end
        (sh(2026, 12, 1, 11), sh(2026, 12, 1, 11), True),  # zero length inside
        (sh(2026, 12, 1, 9), sh(2026, 12, 1, 10, 1), True),  # overlaps the start by a minute
        (sh(2026, 12, 1, 11, 59), sh(2026, 12, 1, 13), True),  # overlaps the end by a minute
        (sh(2026, 11, 20, 0), sh(2026, 12, 20, 0), True),  # month-long, starts long before
    ],
)
def test_half_open_overlap(repo: EventRepo, cal: int, start: datetime, end: datetime, included: bool) -> None:
    save(repo, cal, build_event("e", start, end))
    assert bool(repo.occurrences(*WINDOW, SHANGHAI)) is included


def test_all_day_half_open_against_timed_windows(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("day", date(2026, 12, 1), date(2026, 12, 2)))
    assert repo.occurrences(sh(2026, 11, 30, 23), sh(2026, 12, 1, 0), SHANGHAI) == []
    assert repo.occurrences(sh(2026, 12, 2, 0), sh(2026, 12, 2, 1), SHANGHAI) == []
    assert titles(repo.occurrences(sh(2026, 12, 1, 23, 59), sh(2026, 12, 2, 1), SHANGHAI)) == ["day"]


def test_results_sorted(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("c late", sh(2026, 12, 1, 15), sh(2026, 12, 1, 16)))
    save(repo, cal, build_event("b early", sh(2026, 12, 1, 8), sh(2026, 12, 1, 9)))
    save(repo, cal, build_event("a all day", date(2026, 12, 1), date(2026, 12, 2)))
    save(repo, cal, build_event("d next day", sh(2026, 12, 2, 1), sh(2026, 12, 2, 2)))
    found = repo.occurrences(sh(2026, 12, 1, 0), sh(2026, 12, 3, 0), SHANGHAI)
    assert titles(found) == ["a all day", "b early", "c late", "d next day"]


def test_transparent_and_calendar_filters(store: Store, profile_id: int, repo: EventRepo, cal: int) -> None:
    other = CalendarService(store, profile_id).add("工作").id
    save(repo, cal, build_event("free", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11), transp="TRANSPARENT"))
    save(repo, other, build_event("work", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11)))
    assert titles(repo.occurrences(*WINDOW, SHANGHAI)) == ["free", "work"]
    assert titles(repo.occurrences(*WINDOW, SHANGHAI, include_transparent=False)) == ["work"]
    assert titles(repo.occurrences(*WINDOW, SHANGHAI, calendar_ids=[other])) == ["work"]
    assert titles(repo.occurrences(*WINDOW, SHANGHAI, calendar_ids=[cal])) == ["free"]


def test_cancelled_single_event_not_listed(repo: EventRepo, cal: int) -> None:
    event = build_event("gone", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11))
    event.add("STATUS", "CANCELLED")
    save(repo, cal, event)
    assert repo.row(str(event["UID"])) is not None
    assert repo.occurrences(*WINDOW, SHANGHAI) == []


def test_duration_and_default_ends(repo: EventRepo, cal: int) -> None:
    save_ics(
        repo,
        cal,
        "BEGIN:VCALENDAR\n"
        "BEGIN:VEVENT\nUID:dur@t\nSUMMARY:dur\nDTSTART;TZID=Asia/Shanghai:20261201T100000\nDURATION:PT90M\nEND:VEVENT\n"
        "BEGIN:VEVENT\nUID:date@t\nSUMMARY:date only\nDTSTART;VALUE=DATE:20261201\nEND:VEVENT\n"
        "END:VCALENDAR\n",
    )
    found = {o.title: o for o in repo.occurrences(*day_window(date(2026, 12, 1), SHANGHAI), SHANGHAI)}
    assert found["dur"].end == sh(2026, 12, 1, 11, 30)
    assert (found["date only"].start, found["date only"].end) == (date(2026, 12, 1), date(2026, 12, 2))


# ---- recurrence ----------------------------------------------------------------------------

WEEKLY = """BEGIN:VCALENDAR
BEGIN:VEVENT
UID:weekly@test
SUMMARY:周会
DTSTART;TZID=Asia/Shanghai:20261201T090000
DTEND;TZID=Asia/Shanghai:20261201T100000
RRULE:FREQ=WEEKLY
EXDATE;TZID=Asia/Shanghai:20261208T090000
END:VEVENT
BEGIN:VEVENT
UID:weekly@test
RECURRENCE-ID;TZID=Asia/Shanghai:20261215T090000
SUMMARY:周会(改到下午)
DTSTART;TZID=Asia/Shanghai:20261215T140000
DTEND;TZID=Asia/Shanghai:20261215T150000
END:VEVENT
BEGIN:VEVENT
UID:weekly@test
RECURRENCE-ID;TZID=Asia/Shanghai:20261222T090000
SUMMARY:周会
STATUS:CANCELLED
DTSTART;TZID=Asia/Shanghai:20261222T090000
DTEND;TZID=Asia/Shanghai:20261222T100000
END:VEVENT
END:VCALENDAR
"""


def test_rrule_exdate_overrides_expand_in_window(repo: EventRepo, cal: int) -> None:
    save_ics(repo, cal, WEEKLY)
    found = repo.occurrences(sh(2026, 11, 30), sh(2027, 1, 1), SHANGHAI)
    assert [(o.title, o.start) for o in found] == [
        ("周会", sh(2026, 12, 1, 9)),
        # 12-08 excluded by EXDATE
        ("周会(改到下午)", sh(2026, 12, 15, 14)),
        # 12-22 cancelled by its override
        ("周会", sh(2026, 12, 29, 9)),
    ]
    assert [o.recurrence_id for o in found] == ["20261201T010000Z", "20261215T010000Z", "20261229T010000Z"]
    master = repo.row("weekly@test")
    assert master is not None
    assert {o.series_id for o in found} == {master["id"]}
    assert found[1].event_id == repo.row("weekly@test", "20261215T010000Z")["id"]  # type: ignore[index]


def test_recurring_event_window_edges(repo: EventRepo, cal: int) -> None:
    save_ics(repo, cal, WEEKLY)
    # [10:00, ...) excludes the 09:00-10:00 instance of 12-01 (ends exactly at start)
    assert repo.occurrences(sh(2026, 12, 1, 10), sh(2026, 12, 2), SHANGHAI) == []
    # (..., 09:00) excludes the instance starting exactly at the end
    assert repo.occurrences(sh(2026, 11, 30), sh(2026, 12, 1, 9), SHANGHAI) == []


def test_all_day_weekly_series_in_new_york(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("健身日", date(2026, 12, 1), date(2026, 12, 2), rrule={"FREQ": "WEEKLY", "COUNT": 3}))
    found = repo.occurrences(datetime(2026, 11, 1, tzinfo=NEW_YORK), datetime(2027, 1, 1, tzinfo=NEW_YORK), NEW_YORK)
    assert [o.start for o in found] == [date(2026, 12, 1), date(2026, 12, 8), date(2026, 12, 15)]
    assert all(o.all_day for o in found)
    assert [o.recurrence_id for o in found] == ["20261201", "20261208", "20261215"]
    row = repo.row(found[0].uid)
    assert row is not None and row["expanded_until"] is None  # a finite series is fully expanded


def test_infinite_series_horizon_extends(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("周报", sh(2026, 12, 1, 9), sh(2026, 12, 1, 10), rrule="FREQ=WEEKLY"))
    row = repo.row(repo.store.conn.execute("SELECT uid FROM events").fetchone()[0])
    assert row is not None
    first_until = row["expanded_until"]
    assert first_until is not None
    lo, hi = sh(2031, 12, 1), sh(2031, 12, 31)  # five years ahead
    assert lo.timestamp() > first_until  # beyond what the first expansion covered
    found = repo.occurrences(lo, hi, SHANGHAI)
    assert [o.start for o in found] == [sh(2031, 12, d, 9) for d in (2, 9, 16, 23, 30)]
    assert all(o.recurrence_id for o in found)
    row = repo.row(row["uid"])
    assert row is not None and row["expanded_until"] >= hi.timestamp()
    # no duplicate instances were materialised at the chunk seams
    counts = repo.store.conn.execute(
        "SELECT start_ts, COUNT(*) FROM occurrences GROUP BY start_ts HAVING COUNT(*) > 1"
    ).fetchall()
    assert counts == []


def test_big_chunk_limit_is_resumed(repo: EventRepo, cal: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expansion_module, "MAX_INSTANCES_PER_CHUNK", 50)
    save(repo, cal, build_event("打卡", datetime(2026, 12, 1, 8), datetime(2026, 12, 1, 8, 5), rrule="FREQ=DAILY"))
    found = repo.occurrences(sh(2027, 6, 1), sh(2027, 6, 8), SHANGHAI)
    assert [o.start for o in found] == [datetime(2027, 6, d, 8) for d in range(1, 8)]


def test_series_expansion_uses_the_window_not_the_wall_clock(repo: EventRepo, cal: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Even if the machine's clock is far in the past, a query decides how far to expand.
    monkeypatch.setattr(time, "time", lambda: datetime(2000, 1, 1).timestamp())
    save(repo, cal, build_event("周报", sh(2026, 12, 1, 9), sh(2026, 12, 1, 10), rrule="FREQ=WEEKLY"))
    assert len(repo.occurrences(sh(2030, 1, 1), sh(2030, 1, 31), SHANGHAI)) in (4, 5)


def test_override_replaced_and_deleted(repo: EventRepo, cal: int) -> None:
    save_ics(repo, cal, WEEKLY)
    with repo.store.transaction():
        changes = repo.delete("weekly@test", "20261215T010000Z")
    assert [c.recurrence_id for c in changes.deleted] == ["20261215T010000Z"]
    found = repo.occurrences(sh(2026, 12, 15), sh(2026, 12, 16), SHANGHAI)
    assert [(o.title, o.start) for o in found] == [("周会", sh(2026, 12, 15, 9))]


# ---- delete, ChangeSet and restore ------------------------------------------------------------


def test_delete_series_removes_every_instance(repo: EventRepo, cal: int) -> None:
    save_ics(repo, cal, WEEKLY)
    with repo.store.transaction():
        changes = repo.delete("weekly@test")
    assert len(changes.deleted) == 3
    assert all(c.before_ics for c in changes.deleted)
    assert repo.occurrences(sh(2026, 11, 1), sh(2027, 11, 1), SHANGHAI) == []
    assert repo.store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0] == 0


def test_changeset_create_then_undo(repo: EventRepo, cal: int) -> None:
    event = build_event("新建", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11))
    changes = save(repo, cal, event)
    assert bool(changes) and not changes.updated and not changes.deleted
    (created,) = changes.created
    assert created.before_ics is None and created.event_id
    with repo.store.transaction():
        undo = repo.restore(created)
    assert len(undo.deleted) == 1
    assert repo.occurrences(*WINDOW, SHANGHAI) == []


def test_changeset_update_before_image_and_undo(store: Store, profile_id: int, repo: EventRepo, cal: int) -> None:
    other = CalendarService(store, profile_id).add("工作").id
    uid = "edit@test"
    save(repo, cal, build_event("原标题", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11), uid=uid), origin="agent")
    changes = save(repo, other, build_event("新标题", sh(2026, 12, 1, 14), sh(2026, 12, 1, 15), uid=uid))
    (updated,) = changes.updated
    assert not changes.created
    assert "原标题" in (updated.before_ics or "")
    assert (updated.before_calendar_id, updated.before_origin) == (cal, "agent")
    assert titles(repo.occurrences(sh(2026, 12, 1), sh(2026, 12, 2), SHANGHAI)) == ["新标题"]
    with repo.store.transaction():
        repo.restore(updated)
    (occ,) = repo.occurrences(sh(2026, 12, 1), sh(2026, 12, 2), SHANGHAI)
    assert (occ.title, occ.start, occ.calendar_id) == ("原标题", sh(2026, 12, 1, 10), cal)
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1


def test_delete_then_undo_restores_series_with_overrides(repo: EventRepo, cal: int) -> None:
    save_ics(repo, cal, WEEKLY)
    window = (sh(2026, 11, 30), sh(2027, 1, 1))
    before = [(o.title, o.start, o.recurrence_id) for o in repo.occurrences(*window, SHANGHAI)]
    with repo.store.transaction():
        changes = repo.delete("weekly@test")
    with repo.store.transaction():
        for change in changes.deleted:
            repo.restore(change)
    assert [(o.title, o.start, o.recurrence_id) for o in repo.occurrences(*window, SHANGHAI)] == before


def test_failed_save_inside_transaction_leaves_nothing(repo: EventRepo, cal: int) -> None:
    with pytest.raises(RuntimeError), repo.store.transaction():
        repo.save(build_event("half", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11)), cal, "user")
        raise RuntimeError("after the save")
    assert repo.store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
    assert repo.store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0] == 0


def test_alarms_stored_with_event(repo: EventRepo, cal: int) -> None:
    save(repo, cal, build_event("提醒", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11), alarm_minutes=[15]))
    rows = repo.store.conn.execute("SELECT trigger, action FROM alarms").fetchall()
    assert [(r["trigger"], r["action"]) for r in rows] == [("-PT15M", "DISPLAY")]


def test_completed_flag_from_component(repo: EventRepo, cal: int) -> None:
    done = build_event("做完了", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11))
    done.add("X-RICHENG-COMPLETED", "TRUE")
    save(repo, cal, done)
    save(repo, cal, build_event("没做完", sh(2026, 12, 1, 10), sh(2026, 12, 1, 11)))
    assert titles(repo.occurrences(*WINDOW, SHANGHAI)) == ["做完了", "没做完"]
    assert titles(repo.occurrences(*WINDOW, SHANGHAI, incomplete_only=True)) == ["没做完"]


def test_finite_series_beyond_the_horizon_is_still_found(store: Store, profile_id: int) -> None:
    """An RDATE-only series (how the editor stores 农历 yearly birthdays) and a long COUNT
    series are finite, but their later instances lie past the first expansion horizon."""
    import icalendar

    calendar_id = CalendarService(store, profile_id).default().id
    event = icalendar.Event()
    event.add("UID", "lunar-birthday")
    event.add("SUMMARY", "妈妈生日")
    event.add("DTSTART", date(2026, 12, 1))
    event.add("DTEND", date(2026, 12, 2))
    event.add("RDATE", [date(2026 + years, 12, 1) for years in range(1, 12)])
    weekly = build_event(
        "周会", datetime(2026, 1, 5, 9, tzinfo=SHANGHAI), datetime(2026, 1, 5, 10, tzinfo=SHANGHAI), rrule="FREQ=WEEKLY;COUNT=600"
    )
    with store.transaction():
        EventRepo(store, profile_id).save(event, calendar_id, "user")
        EventRepo(store, profile_id).save(weekly, calendar_id, "user")
    repo = EventRepo(store, profile_id)
    found = repo.occurrences(datetime(2036, 11, 1, tzinfo=SHANGHAI), datetime(2037, 1, 1, tzinfo=SHANGHAI), SHANGHAI)
    assert [(o.title, o.start) for o in found if o.title == "妈妈生日"] == [("妈妈生日", date(2036, 12, 1))]
    assert any(o.title == "周会" for o in found)
    beyond = repo.occurrences(datetime(2040, 1, 1, tzinfo=SHANGHAI), datetime(2040, 2, 1, tzinfo=SHANGHAI), SHANGHAI)
    assert beyond == []
