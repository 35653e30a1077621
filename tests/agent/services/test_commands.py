"""CommandService.prepare_or_create and its stubs: every outcome, continuation, expiry,
calendar choice, idempotency and the after-commit write fact."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.services.calendars import CalendarService
from agent.services.commands import CommandService
from agent.services.queries import QueryService
from agent.services.text import clean_title
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import DEFAULT_CALENDAR_NAME, ensure_profile
from agent.timesym.context import TimeContext
from tests.support.clock import NOW, SHANGHAI

SATURDAY_AFTERNOON = datetime(2026, 12, 5, 15, 0, tzinfo=SHANGHAI)
SUNDAY_MORNING = datetime(2026, 12, 6, 10, 0, tzinfo=SHANGHAI)


@pytest.fixture
def svc(store: Store, profile_id: int, ctx: TimeContext) -> CommandService:
    return CommandService(store, profile_id, ctx)


def sh(*args: int) -> datetime:
    return datetime(*args, tzinfo=SHANGHAI)  # type: ignore[misc]


def count(store: Store, table: str) -> int:
    return store.conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def command_row(store: Store, command_id: int) -> sqlite3.Row:
    return store.conn.execute("SELECT * FROM commands WHERE id = ?", (command_id,)).fetchone()


def add_all_day(store: Store, profile_id: int, title: str, day: date, **kw: object) -> None:
    cal = CalendarService(store, profile_id).default().id
    with store.transaction():
        EventRepo(store, profile_id).save(build_event(title, day, day + timedelta(days=1), **kw), cal, "user")  # type: ignore[arg-type]


# ---- created ----------------------------------------------------------------------------------


def test_created_timed_with_default_duration(svc: CommandService, store: Store) -> None:
    out = svc.prepare_or_create("看牙", "D+1", time="15:00")
    assert out.status == "created" and out.command_id is None
    assert out.event is not None
    assert (out.event.title, out.event.start, out.event.end) == ("看牙", sh(2026, 12, 1, 15), sh(2026, 12, 1, 16))
    assert out.calendar == DEFAULT_CALENDAR_NAME and not out.calendar_fell_back
    assert count(store, "events") == 1 and count(store, "commands") == 0
    row = store.conn.execute("SELECT origin, tzid FROM events").fetchone()
    assert (row["origin"], row["tzid"]) == ("agent", "Asia/Shanghai")


def test_created_with_end_time_and_with_duration(svc: CommandService) -> None:
    a = svc.prepare_or_create("A", "D+1", time="09:00", end_time="09:30")
    b = svc.prepare_or_create("B", "D+2", time="09:00", duration_minutes=150)
    assert a.event is not None and a.event.end == sh(2026, 12, 1, 9, 30)
    assert b.event is not None and b.event.end == sh(2026, 12, 2, 11, 30)


def test_default_duration_comes_from_settings(store: Store, profile_id: int, svc: CommandService) -> None:
    from agent.services.settings import SettingsService

    SettingsService(store, profile_id).set("default_duration_minutes", 45)
    out = svc.prepare_or_create("短会", "D+1", time="09:00")
    assert out.event is not None and out.event.end == sh(2026, 12, 1, 9, 45)


def test_missing_time_makes_an_all_day_event(svc: CommandService) -> None:
    out = svc.prepare_or_create("交房租", "D+1")
    assert out.status == "created" and out.event is not None
    assert out.event.all_day
    assert (out.event.start, out.event.end) == (date(2026, 12, 1), date(2026, 12, 2))


def test_instant_symbol_carries_its_time(svc: CommandService) -> None:
    out = svc.prepare_or_create("电话", "D+1T16:30")
    assert out.event is not None and out.event.start == sh(2026, 12, 1, 16, 30)


def test_event_past_midnight_with_duration(svc: CommandService) -> None:
    out = svc.prepare_or_create("夜班", "D+1", time="23:00", duration_minutes=180)
    assert out.status == "created" and out.event is not None
    assert out.event.end == sh(2026, 12, 2, 2, 0)


# ---- needs_date ---------------------------------------------------------------------------------


def test_needs_date_for_weekend_on_a_monday(svc: CommandService, store: Store) -> None:
    out = svc.prepare_or_create("修汽车轮毂", "WE")
    assert out.status == "needs_date"
    assert out.candidates == [date(2026, 12, 5), date(2026, 12, 6)]
    assert count(store, "events") == 0
    stub = svc.active_stub()
    assert stub is not None and stub.id == out.command_id
    assert (stub.title, stub.status, stub.slots) == ("修汽车轮毂", "needs_date", {"date": "WE"})
    assert stub.candidates == ["2026-12-05", "2026-12-06"]
    assert stub.expires_at == NOW + timedelta(minutes=30)


def test_weekend_on_saturday_afternoon_keeps_both_days(store: Store, profile_id: int) -> None:
    svc = CommandService(store, profile_id, TimeContext(now=SATURDAY_AFTERNOON, tz=SHANGHAI))
    out = svc.prepare_or_create("修车", "WE")
    assert out.status == "needs_date"
    assert out.candidates == [date(2026, 12, 5), date(2026, 12, 6)]
    # Saturday morning has passed: choosing it with a morning time is past_time.
    late = svc.continue_active(date="W6", time="10:00")
    assert late is not None and late.status == "past_time"
    ok = svc.continue_active(date="W6", time="16:00")
    assert ok is not None and ok.status == "created" and ok.event is not None
    assert ok.event.start == sh(2026, 12, 5, 16)


def test_weekend_on_sunday_drops_saturday(store: Store, profile_id: int) -> None:
    svc = CommandService(store, profile_id, TimeContext(now=SUNDAY_MORNING, tz=SHANGHAI))
    out = svc.prepare_or_create("修车", "WE", time="14:00")
    assert out.status == "created" and out.event is not None
    assert out.event.start == sh(2026, 12, 6, 14)
    day_only = svc.prepare_or_create("洗车", "WE")
    assert day_only.status == "created" and day_only.event is not None
    assert day_only.event.start == date(2026, 12, 6) and day_only.event.all_day


def test_needs_date_drops_past_days_of_a_holiday(store: Store, profile_id: int) -> None:
    svc = CommandService(store, profile_id, TimeContext(now=sh(2026, 10, 3, 10), tz=SHANGHAI))
    out = svc.prepare_or_create("出游", "H:国庆")
    assert out.status == "needs_date"
    assert out.candidates and min(out.candidates) == date(2026, 10, 3)
    assert all(d >= date(2026, 10, 3) for d in out.candidates)


def test_every_candidate_past_is_past_time(store: Store, profile_id: int) -> None:
    svc = CommandService(store, profile_id, TimeContext(now=sh(2026, 12, 9, 10), tz=SHANGHAI))
    out = svc.prepare_or_create("修车", "WE-1")
    assert out.status == "past_time"
    assert out.candidates == [date(2026, 12, 5), date(2026, 12, 6)]


def test_missing_date_needs_date(svc: CommandService) -> None:
    out = svc.prepare_or_create("某事", None, time="10:00")
    assert out.status == "needs_date" and out.candidates == []


# ---- the story ------------------------------------------------------------------------------------


def test_story_weekend_wheel_repair(svc: CommandService, store: Store) -> None:
    # "这个周末去修汽车轮毂"
    first = svc.prepare_or_create("修汽车轮毂", "WE")
    assert first.status == "needs_date"
    assert first.candidates == [date(2026, 12, 5), date(2026, 12, 6)]
    assert not svc.facts.event_written
    done = svc.continue_active(date="W7", time="14:00")
    assert done is not None and done.status == "created" and done.event is not None
    assert (done.event.title, done.event.start, done.event.end) == (
        "修汽车轮毂",
        sh(2026, 12, 6, 14),
        sh(2026, 12, 6, 15),
    )
    assert done.command_id == first.command_id
    assert svc.facts.event_written and svc.facts.event_ids == [done.event.event_id]
    row = command_row(store, first.command_id or 0)
    assert (row["status"], row["event_id"]) == ("created", done.event.event_id)
    assert svc.active_stub() is None


def test_story_conflict_with_all_day_leave(svc: CommandService, store: Store, profile_id: int) -> None:
    add_all_day(store, profile_id, "休假", date(2026, 12, 1))
    first = svc.prepare_or_create("开会", "D+1", time="14:00", allow_conflict=True)  # no effect on round one
    assert first.status == "conflict"
    assert [c.title for c in first.conflicts] == ["休假"]
    assert count(store, "events") == 1
    stub = svc.active_stub()
    assert stub is not None and stub.status == "conflict"
    done = svc.continue_active(allow_conflict=True)
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 1, 14)
    assert count(store, "events") == 2


def test_transparent_event_is_no_conflict(svc: CommandService, store: Store, profile_id: int) -> None:
    add_all_day(store, profile_id, "生日", date(2026, 12, 1), transp="TRANSPARENT")
    assert svc.prepare_or_create("开会", "D+1", time="14:00").status == "created"


def test_allow_conflict_ignored_unless_stub_is_in_conflict(svc: CommandService, store: Store, profile_id: int) -> None:
    with store.transaction():
        EventRepo(store, profile_id).save(
            build_event("已有", sh(2026, 12, 6, 14), sh(2026, 12, 6, 15)),
            CalendarService(store, profile_id).default().id,
            "user",
        )
    assert svc.prepare_or_create("修车", "WE").status == "needs_date"
    # the stub is in needs_date: allow_conflict must not let a clash through
    clash = svc.continue_active(date="W7", time="14:30", allow_conflict=True)
    assert clash is not None and clash.status == "conflict"
    assert [c.title for c in clash.conflicts] == ["已有"]
    done = svc.continue_active(allow_conflict=True)
    assert done is not None and done.status == "created"


def test_conflict_resolved_by_moving_the_time(svc: CommandService, store: Store, profile_id: int) -> None:
    svc.prepare_or_create("先来", "D+1", time="14:00")
    second = svc.prepare_or_create("后到", "D+1", time="14:30")
    assert second.status == "conflict" and [c.title for c in second.conflicts] == ["先来"]
    moved = svc.continue_active(time="16:00")
    assert moved is not None and moved.status == "created" and moved.event is not None
    assert moved.event.start == sh(2026, 12, 1, 16)


# ---- past_time ----------------------------------------------------------------------------------


def test_past_time_today(svc: CommandService, store: Store) -> None:
    out = svc.prepare_or_create("早会", "D+0", time="09:00")
    assert out.status == "past_time"
    assert out.candidates == [date(2026, 11, 30)]
    assert count(store, "events") == 0
    stub = svc.active_stub()
    assert stub is not None and stub.status == "past_time"


def test_start_exactly_now_is_not_past(svc: CommandService) -> None:
    assert svc.prepare_or_create("现在", "D+0", time="10:00").status == "created"


def test_past_day_all_day(svc: CommandService) -> None:
    assert svc.prepare_or_create("昨天的事", "D-1").status == "past_time"
    assert svc.prepare_or_create("今天的事", "D+0").status == "created"


def test_past_time_allowed_only_on_continuation(svc: CommandService) -> None:
    first = svc.prepare_or_create("补记", "D+0", time="09:00")
    assert first.status == "past_time"
    done = svc.continue_active(allow_past=True)
    assert done is not None and done.status == "created"


# ---- invalid ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"title": "x", "date_expression": "Q+1"}, "not a valid time symbol"),
        ({"title": "x", "date_expression": "tomorrow"}, "D+1"),
        ({"title": "x", "date_expression": "14:00"}, "is a time"),
        ({"title": "x", "date_expression": "D+1", "time": "9:00"}, "HH:MM"),
        ({"title": "x", "date_expression": "D+1", "time": "25:00"}, "00:00..23:59"),
        ({"title": "x", "date_expression": "D+1", "time": "10:00", "end_time": "09:00"}, "not after"),
        ({"title": "x", "date_expression": "D+1", "time": "10:00", "end_time": "10:00"}, "not after"),
        (
            {"title": "x", "date_expression": "D+1", "time": "10:00", "end_time": "11:00", "duration_minutes": 30},
            "not both",
        ),
        ({"title": "x", "date_expression": "D+1", "time": "10:00", "duration_minutes": 0}, "durationMinutes"),
        ({"title": "x", "date_expression": "D+1", "end_time": "11:00"}, "start time"),
        ({"title": "", "date_expression": "D+1"}, "title"),
        ({"title": "   ", "date_expression": "D+1"}, "title"),
        ({"title": "\x00\x07", "date_expression": "D+1"}, "title"),
        ({"title": None, "date_expression": "D+1"}, "title"),
    ],
)
def test_invalid_outcomes(svc: CommandService, store: Store, kwargs: dict, fragment: str) -> None:
    out = svc.prepare_or_create(**kwargs)
    assert out.status == "invalid"
    assert out.message and fragment in out.message
    assert count(store, "events") == 0
    stub = svc.active_stub()
    assert stub is not None and stub.status == "invalid" and stub.id == out.command_id


# ---- stubs: merge, supersede, end -------------------------------------------------------------


def test_patch_merges_into_the_stub(svc: CommandService) -> None:
    first = svc.prepare_or_create("体检", "WE", time="09:00", duration_minutes=120)
    assert first.status == "needs_date"
    stub = svc.active_stub()
    assert stub is not None and stub.slots == {"date": "WE", "time": "09:00", "duration_minutes": 120}
    done = svc.continue_active(date="W6")  # only the date is patched; time and duration stay
    assert done is not None and done.status == "created" and done.event is not None
    assert (done.event.start, done.event.end) == (sh(2026, 12, 5, 9), sh(2026, 12, 5, 11))


def test_date_patch_without_time_makes_all_day(svc: CommandService) -> None:
    svc.prepare_or_create("搬家", "WE")
    done = svc.continue_active(date="W6")
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.all_day and done.event.start == date(2026, 12, 5)


def test_time_patch_keeps_the_date(svc: CommandService) -> None:
    svc.prepare_or_create("跑步", "D+0", time="08:00")  # past_time
    stub = svc.active_stub()
    assert stub is not None and stub.slots == {"date": "D+0", "time": "08:00"}
    done = svc.continue_active(time="18:00")
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 11, 30, 18)


def test_same_title_call_continues_and_replaces_end(svc: CommandService) -> None:
    first = svc.prepare_or_create("课", "WE", time="10:00", end_time="11:00")
    assert first.status == "needs_date"
    second = svc.prepare_or_create("课", "W6", duration_minutes=30)
    assert second.status == "created" and second.command_id == first.command_id
    assert second.event is not None and second.event.end - second.event.start == timedelta(minutes=30)


def test_omitted_title_continues(svc: CommandService) -> None:
    first = svc.prepare_or_create("看电影", "WE", time="19:00")
    second = svc.prepare_or_create(None, "W7")
    assert second.status == "created" and second.title == "看电影" and second.command_id == first.command_id


def test_different_title_cancels_the_old_stub(svc: CommandService, store: Store) -> None:
    old = svc.prepare_or_create("旧的", "WE")
    new = svc.prepare_or_create("新的", "WE")
    assert new.command_id != old.command_id
    assert command_row(store, old.command_id or 0)["status"] == "cancelled"
    stub = svc.active_stub()
    assert stub is not None and stub.title == "新的"


def test_cancel_active(svc: CommandService, store: Store) -> None:
    assert svc.cancel_active().status == "none"
    out = svc.prepare_or_create("取消我", "WE")
    cancelled = svc.cancel_active()
    assert (cancelled.status, cancelled.command_id) == ("cancelled", out.command_id)
    assert command_row(store, out.command_id or 0)["status"] == "cancelled"
    assert svc.active_stub() is None
    assert svc.continue_active(date="W6") is None


def test_stub_expires_after_thirty_minutes(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)
    out = svc.prepare_or_create("过期", "WE")
    still = CommandService(store, profile_id, ctx.with_now(NOW + timedelta(minutes=29, seconds=59)))
    assert still.active_stub() is not None
    later = CommandService(store, profile_id, ctx.with_now(NOW + timedelta(minutes=30)))
    assert later.active_stub() is None
    assert later.continue_active(date="W6", time="10:00") is None
    assert command_row(store, out.command_id or 0)["status"] == "expired"
    assert count(store, "events") == 0


def test_continuation_refreshes_expiry(store: Store, profile_id: int, ctx: TimeContext) -> None:
    CommandService(store, profile_id, ctx).prepare_or_create("续期", "WE")
    t20 = ctx.with_now(NOW + timedelta(minutes=20))
    out = CommandService(store, profile_id, t20).continue_active(time="10:00")
    assert out is not None and out.status == "needs_date"
    stub = CommandService(store, profile_id, ctx.with_now(NOW + timedelta(minutes=45))).active_stub()
    assert stub is not None and stub.expires_at == NOW + timedelta(minutes=50)


def test_ttl_from_settings(store: Store, profile_id: int, ctx: TimeContext) -> None:
    from agent.services.settings import SettingsService

    SettingsService(store, profile_id).set("command_ttl_minutes", 5)
    CommandService(store, profile_id, ctx).prepare_or_create("短", "WE")
    assert CommandService(store, profile_id, ctx.with_now(NOW + timedelta(minutes=5))).active_stub() is None


# ---- calendars -----------------------------------------------------------------------------------


def test_named_calendar_is_used(svc: CommandService, store: Store, profile_id: int) -> None:
    CalendarService(store, profile_id).add("工作")
    out = svc.prepare_or_create("周报", "D+1", time="09:00", calendar_name=" 工作 ")
    assert out.status == "created" and out.event is not None
    assert (out.calendar, out.event.calendar, out.calendar_fell_back) == ("工作", "工作", False)
    CalendarService(store, profile_id).add("Gym")
    gym = svc.prepare_or_create("Lift", "D+2", time="09:00", calendar_name="gym")
    assert gym.calendar == "Gym" and not gym.calendar_fell_back


def test_unknown_calendar_falls_back_and_says_so(svc: CommandService) -> None:
    out = svc.prepare_or_create("周报", "D+1", time="09:00", calendar_name="不存在")
    assert out.status == "created" and out.event is not None
    assert out.calendar == DEFAULT_CALENDAR_NAME == out.event.calendar
    assert out.calendar_fell_back and out.requested_calendar == "不存在"
    js = out.to_json()
    assert js["calendar_fell_back"] is True and js["requested_calendar"] == "不存在"


def test_omitted_calendar_is_default(svc: CommandService, store: Store, profile_id: int) -> None:
    CalendarService(store, profile_id).add("家庭", default=True)
    out = svc.prepare_or_create("聚餐", "D+1", time="19:00")
    assert out.calendar == "家庭" and not out.calendar_fell_back and out.requested_calendar is None


# ---- idempotency ----------------------------------------------------------------------------------


def test_repeat_within_ten_minutes_writes_nothing(store: Store, profile_id: int, ctx: TimeContext) -> None:
    first = CommandService(store, profile_id, ctx).prepare_or_create("面试", "D+1", time="10:00")
    before = {t: count(store, t) for t in ("events", "occurrences", "commands", "alarms")}
    again_svc = CommandService(store, profile_id, ctx)
    again = again_svc.prepare_or_create("面试", "D+1", time="10:00")
    assert again.status == "created" and again.deduplicated
    assert again.event is not None and first.event is not None
    assert again.event.event_id == first.event.event_id and again.event.uid == first.event.uid
    assert {t: count(store, t) for t in before} == before
    assert not again_svc.facts.event_written
    # all-day repeats too
    CommandService(store, profile_id, ctx).prepare_or_create("全天", "D+2")
    assert CommandService(store, profile_id, ctx).prepare_or_create("全天", "D+2").deduplicated
    assert count(store, "events") == 2


def test_different_end_or_calendar_is_not_a_repeat(store: Store, profile_id: int, ctx: TimeContext) -> None:
    CalendarService(store, profile_id).add("工作")
    svc = CommandService(store, profile_id, ctx)
    svc.prepare_or_create("A", "D+2")
    assert not svc.prepare_or_create("A", "D+2", calendar_name="工作").deduplicated
    assert count(store, "events") == 2


def test_repeat_after_ten_minutes_is_not_deduplicated(store: Store, profile_id: int, ctx: TimeContext) -> None:
    CommandService(store, profile_id, ctx).prepare_or_create("面试", "D+1", time="10:00")
    # The window runs on the service's clock, never the machine's.
    later = ctx.with_now(NOW + timedelta(minutes=11))
    again = CommandService(store, profile_id, later).prepare_or_create("面试", "D+1", time="10:00")
    assert not again.deduplicated
    assert again.status == "conflict"  # the earlier one is a real, separate event now


# ---- the write fact ---------------------------------------------------------------------------------


def test_fact_false_when_save_fails(svc: CommandService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(EventRepo, "save", broken)
    out = svc.prepare_or_create("失败", "D+1", time="10:00")
    assert out.status != "created"
    assert out.message and "could not be saved" in out.message
    assert not svc.facts.event_written and svc.facts.event_ids == [] and not svc.facts.changes
    assert count(store, "events") == 0 and count(store, "occurrences") == 0


def test_fact_false_when_commit_fails(svc: CommandService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    original = EventRepo.save

    def save_then_poison_commit(self: EventRepo, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        changes = original(self, *args, **kwargs)  # type: ignore[arg-type]
        # a deferred constraint makes COMMIT itself fail, after save returned normally
        self.store.conn.execute("PRAGMA defer_foreign_keys = ON")
        self.store.conn.execute("INSERT INTO alarms(event_id, trigger) VALUES (987654, '-PT5M')")
        return changes

    monkeypatch.setattr(EventRepo, "save", save_then_poison_commit)
    out = svc.prepare_or_create("提交失败", "D+1", time="10:00")
    assert out.status != "created"
    assert not svc.facts.event_written
    assert count(store, "events") == 0 and count(store, "occurrences") == 0 and count(store, "alarms") == 0


def test_event_and_stub_end_are_one_write(svc: CommandService, store: Store) -> None:
    first = svc.prepare_or_create("原子", "WE")
    store.conn.execute(
        "CREATE TEMP TRIGGER refuse_stub_end BEFORE UPDATE OF status ON commands"
        " WHEN NEW.status = 'created' BEGIN SELECT RAISE(ABORT, 'stub update failed'); END"
    )
    out = svc.continue_active(date="W7", time="14:00")
    assert out is not None and out.status != "created"
    assert count(store, "events") == 0
    assert not svc.facts.event_written
    stub = svc.active_stub()
    assert stub is not None and stub.id == first.command_id


def test_fact_accumulates_changes(svc: CommandService) -> None:
    a = svc.prepare_or_create("一", "D+1", time="10:00")
    b = svc.prepare_or_create("二", "D+2", time="10:00")
    assert a.event and b.event
    assert svc.facts.event_ids == [a.event.event_id, b.event.event_id]
    assert len(svc.facts.changes.created) == 2


def test_user_origin(store: Store, profile_id: int, ctx: TimeContext) -> None:
    CommandService(store, profile_id, ctx, origin="user").prepare_or_create("手动", "D+1")
    assert store.conn.execute("SELECT origin FROM events").fetchone()[0] == "user"


# ---- titles --------------------------------------------------------------------------------------


def test_clean_title() -> None:
    assert clean_title("  修\t汽车\n轮毂  ") == "修 汽车 轮毂"
    assert clean_title("a\x00b\u200bc") == "abc"
    assert clean_title("Meeting\nwith\r\nBob") == "Meeting with Bob"
    assert len(clean_title("长" * 500)) == 200 and clean_title("长" * 500).endswith("…")
    assert clean_title(None) == ""


_title_chars = st.characters(blacklist_categories=("Cs",))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    title=st.one_of(
        st.text(_title_chars, min_size=1, max_size=60),
        st.sampled_from(
            [
                "'; DROP TABLE events; --",
                '<script>alert("x")</script>',
                "a\\b;c,d:e",
                "%_%\\",
                "line1\r\nline2\x00\x1b[31m",
                "BEGIN:VEVENT",
                "周会 / Weekly sync",
            ]
        ),
    )
)
def test_any_title_round_trips_through_create_and_list(title: str) -> None:
    store = Store(":memory:")
    try:
        pid = ensure_profile(store)
        ctx = TimeContext(now=NOW, tz=SHANGHAI)
        out = CommandService(store, pid, ctx).prepare_or_create(title, "D+1", time="10:00")
        expected = clean_title(title)
        if not expected:
            assert out.status == "invalid"
            return
        assert out.status == "created", out.message
        listed = QueryService(store, pid, ctx).range("D+1", "D+1").events
        assert [o.title for o in listed] == [expected]
        again = CommandService(store, pid, ctx).prepare_or_create(title, "D+1", time="10:00")
        assert again.deduplicated
    finally:
        store.close()


# ---- slot replies answer their own stub (stub_rules.py) ---------------------------------------


def events_on(store: Store) -> list[tuple[str, int]]:
    return [(r["title"], r["start_ts"]) for r in store.conn.execute("SELECT title, start_ts FROM events")]


def test_weekday_reply_picks_the_offered_sunday_not_this_one(svc: CommandService, store: Store) -> None:
    # "下周末修车" -> "周日下午2点": the parser reads 周日 as W7 (this Sunday, 12-06); the stub
    # offered next weekend, so it is next weekend's Sunday.
    first = svc.prepare_or_create("修车", "WE+1")
    assert first.status == "needs_date" and first.candidates == [date(2026, 12, 12), date(2026, 12, 13)]
    done = svc.continue_active(date="W7", time="14:00")
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 13, 14)


def test_reply_naming_a_day_not_offered_asks_again_and_writes_nothing(svc: CommandService, store: Store) -> None:
    first = svc.prepare_or_create("修车", "WE+1")
    for symbol in ("W5", "D+1", "W7+2", "2026-12-06"):
        again = svc.continue_active(date=symbol, time="14:00")
        assert again is not None and again.status == "needs_date", symbol
        assert again.candidates == [date(2026, 12, 12), date(2026, 12, 13)]
        assert again.rejected and again.rejected[0] not in again.candidates
        assert again.command_id == first.command_id
    assert count(store, "events") == 0 and not svc.facts.event_written
    done = svc.continue_active(date="W6")  # the time the rejected reply gave is kept
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 12, 14)


def test_exact_offered_day_and_weekend_word(svc: CommandService) -> None:
    svc.prepare_or_create("修车", "WE+1")
    same = svc.continue_active(date="WE", time="10:00")  # "周末上午10点": still both days
    assert same is not None and same.status == "needs_date"
    assert same.candidates == [date(2026, 12, 12), date(2026, 12, 13)] and not same.rejected
    done = svc.continue_active(date="2026-12-13")
    assert done is not None and done.event is not None and done.event.start == sh(2026, 12, 13, 10)


def test_model_continuation_maps_a_bare_weekday_onto_the_stub(svc: CommandService) -> None:
    svc.prepare_or_create("修车", "WE+1")
    done = svc.prepare_or_create("修车", "W7", time="14:00")
    assert done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 13, 14)


def test_conflict_reply_time_keeps_day_same_weekday_confirms(svc: CommandService) -> None:
    svc.prepare_or_create("先来", "W4+1", time="14:00")  # Thursday 12-10
    assert svc.prepare_or_create("后到", "W4+1", time="14:30").status == "conflict"
    done = svc.continue_active(date="W4", time="16:00")  # "周四下午4点": the stub's Thursday
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 10, 16)


def test_conflict_reply_other_weekday_with_two_readings_asks(svc: CommandService, store: Store) -> None:
    svc.prepare_or_create("先来", "W4+1", time="14:00")
    assert svc.prepare_or_create("后到", "W4+1", time="14:30").status == "conflict"
    ask = svc.continue_active(date="W5", time="16:00")  # this Friday 12-04 or the stub's week's 12-11?
    assert ask is not None and ask.status == "needs_date"
    assert ask.candidates == [date(2026, 12, 4), date(2026, 12, 11)]
    assert count(store, "events") == 1
    assert svc.continue_active(time="17:00").status == "needs_date"  # type: ignore[union-attr]
    done = svc.continue_active(date="W5+1")
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 11, 17)


def test_conflict_reply_exact_new_day_is_the_users_choice(svc: CommandService) -> None:
    svc.prepare_or_create("先来", "D+1", time="14:00")
    assert svc.prepare_or_create("后到", "D+1", time="14:30").status == "conflict"
    done = svc.continue_active(date="D+2")  # "后天": an explicit new date, checked again
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2026, 12, 2, 14, 30)
    assert svc.prepare_or_create("再来", "D+2", time="15:00").status == "conflict"  # 后到 is 14:30-15:30
    clash = svc.continue_active(date="D+1", time="14:30")  # explicit, but 先来 is there: checked again
    assert clash is not None and clash.status == "conflict" and [c.title for c in clash.conflicts] == ["先来"]


def test_month_stub_takes_only_days_of_that_month(svc: CommandService, store: Store) -> None:
    # "1月份体检" (M+2 on 11-30): the stub offers January; "15号" read alone is 12-15.
    first = svc.prepare_or_create("体检", "M+2")
    assert first.status == "needs_date" and first.candidates == []
    again = svc.continue_active(date="2026-12-15", time="09:00")
    assert again is not None and again.status == "needs_date" and again.candidates == []
    assert again.rejected == [date(2026, 12, 15)] and count(store, "events") == 0
    saturdays = svc.continue_active(date="W6")  # "周六": five Saturdays in January
    assert saturdays is not None and saturdays.status == "needs_date"
    assert saturdays.candidates == [date(2027, 1, d) for d in (2, 9, 16, 23, 30)]
    done = svc.continue_active(date="2027-01-16")
    assert done is not None and done.status == "created" and done.event is not None
    assert done.event.start == sh(2027, 1, 16, 9)
