"""The create tool's structured repeat and zone (issue 28): the slots, the rule code builds
from them, what reaches the exported file, and the repeat latch (each rule switched off
makes a named offline case write).

The offline groups ``repeat`` and ``repeat_grounding`` run every form through the real
runtime and check the exported VEVENT; here the export is read a second way (icalendar and
dateutil, as another program would) and its occurrences are counted.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

import icalendar
import pytest
from dateutil.rrule import rrulestr

from agent.evals.cases import load_cases
from agent.evals.runner import run_case
from agent.ics.exporter import export_calendar
from agent.models.script_backend import ScriptedModel
from agent.runtime import grounding, repeat_grounding, tools
from agent.runtime.repeat_grounding import said_intervals, said_weekdays, zone_said
from agent.runtime.repeat_slots import create_rule, slot_notes
from agent.runtime.tools import CREATE, tool_schemas
from agent.runtime.turn import Assistant
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI, ctx_at

THURSDAY = datetime(2026, 12, 3, 10, 0, tzinfo=SHANGHAI)  # the clock


def create_turn(store: Store, text: str, **args: object) -> tuple[str, list[icalendar.cal.Component]]:
    """One scripted create turn, then the profile's export read back with icalendar."""
    profile_id = ensure_profile(store)
    script = [{"tool_calls": [{"name": CREATE.name, "arguments": args}]}]
    result = Assistant(store, profile_id, ScriptedModel(script)).turn(text, ctx_at(THURSDAY))
    exported = icalendar.Calendar.from_ical(export_calendar(store, profile_id))
    return result.outcome, [component for component in exported.walk("VEVENT")]


def _rule_text(event: icalendar.cal.Component) -> str:
    value = event["RRULE"].to_ical()
    return value.decode() if isinstance(value, bytes) else str(value)


def first_starts(event: icalendar.cal.Component, n: int) -> list[datetime]:
    start = event.decoded("DTSTART")
    rule = rrulestr(_rule_text(event), dtstart=start)
    return [moment for moment, _ in zip(rule, range(n), strict=False)]


# ---- through to the file -------------------------------------------------------------------


def test_the_last_friday_of_every_month_is_exported_and_expands_on_those_fridays(store: Store) -> None:
    outcome, events = create_turn(
        store, "每月最后一个周五下午四点复盘", title="复盘", dateExpression="W5", time="16:00", repeatDays=["-1FR"]
    )
    assert outcome == "created" and len(events) == 1
    assert events[0]["DTSTART"].params["TZID"] == "Asia/Shanghai"
    days = [moment.date() for moment in first_starts(events[0], 4)]
    assert days == [date(2026, 12, 25), date(2027, 1, 29), date(2027, 2, 26), date(2027, 3, 26)]


def test_a_weekday_list_every_other_week_with_a_count(store: Store) -> None:
    outcome, events = create_turn(
        store,
        "每两周的周二和周四晚上七点羽毛球，共6次",
        title="羽毛球",
        dateExpression="W2",
        time="19:00",
        repeatDays=["TH", "TU"],
        repeatInterval=2,
        repeatCount=6,
    )
    assert outcome == "created"
    moments = list(rrulestr(_rule_text(events[0]), dtstart=events[0].decoded("DTSTART")))
    assert [moment.strftime("%m-%d %a %H:%M") for moment in moments] == [
        "12-08 Tue 19:00",
        "12-10 Thu 19:00",
        "12-22 Tue 19:00",
        "12-24 Thu 19:00",
        "01-05 Tue 19:00",
        "01-07 Thu 19:00",
    ]


def test_a_zone_pins_dtstart_and_the_instant(store: Store) -> None:
    outcome, events = create_turn(
        store,
        "4pm CET call with Berlin team tomorrow",
        title="call with Berlin team",
        dateExpression="D+1",
        time="16:00",
        timezone="Europe/Berlin",
    )
    assert outcome == "created"
    start = events[0].decoded("DTSTART")
    assert events[0]["DTSTART"].params["TZID"] == "Europe/Berlin" and start.tzinfo is not None
    assert start.astimezone(UTC) == datetime(2026, 12, 4, 15, 0, tzinfo=UTC)
    assert "RRULE" not in events[0]


def test_an_unknown_zone_goes_back_to_the_model_and_nothing_is_written(store: Store) -> None:
    profile_id = ensure_profile(store)
    bad = {"title": "call", "dateExpression": "D+1", "time": "16:00", "timezone": "Mars/Olympus"}
    script: list[dict[str, Any]] = [{"tool_calls": [{"name": CREATE.name, "arguments": bad}]}, {"content": "好的"}]
    result = Assistant(store, profile_id, ScriptedModel(script)).turn("4pm Mars time call tomorrow", ctx_at(THURSDAY))
    assert result.outcome != "created"
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


# ---- the slots and the rule ------------------------------------------------------------------


def test_the_schema_offers_small_slots_and_no_rule_text() -> None:
    create = next(t for t in tool_schemas(["日程"]) if t["function"]["name"] == CREATE.name)
    props = create["function"]["parameters"]["properties"]
    assert {"repeat", "repeatDays", "repeatInterval", "repeatMonthDay", "repeatUntil", "repeatCount", "timezone"} <= set(props)
    assert props["repeatDays"]["type"] == "array" and props["repeatDays"]["items"] == {"type": "string"}
    assert "LUNAR_YEARLY" in props["repeat"]["enum"]
    assert not any("rrule" in name.casefold() for name in props)  # the model never writes a rule
    new = ("repeatDays", "repeatInterval", "repeatMonthDay", "timezone")
    assert all(len(props[name]["description"]) <= 40 for name in new)  # the prefix budget is 1,500 tokens


@pytest.mark.parametrize(
    ("repeat", "days", "interval", "month_day", "text"),
    [
        ("WEEKLY", ["TH", "TU"], None, None, "FREQ=WEEKLY;BYDAY=TU,TH"),
        (None, ["MO", "WE", "FR"], None, None, "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
        (None, ["-1FR"], None, None, "FREQ=MONTHLY;BYDAY=-1FR"),
        ("MONTHLY", ["1MO"], None, None, "FREQ=MONTHLY;BYDAY=1MO"),
        ("BIWEEKLY", ["WE"], None, None, "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE"),
        ("DAILY", None, 2, None, "FREQ=DAILY;INTERVAL=2"),
        ("MONTHLY", None, 3, 15, "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15"),
        (None, None, None, -1, "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("WEEKLY", None, None, None, None),  # the word alone keeps its own path
        ("LUNAR_YEARLY", None, None, None, None),
        ("WEEKLY", None, 1, None, None),
    ],
)
def test_slots_become_one_rule(
    repeat: str | None, days: list[str] | None, interval: int | None, month_day: int | None, text: str | None
) -> None:
    assert create_rule(repeat, days, interval, month_day)[1] == text


@pytest.mark.parametrize(
    ("repeat", "days", "interval", "month_day", "reason"),
    [
        (None, None, 2, None, "needs repeat"),
        ("WEEKLY", ["1MO"], None, None, "MONTHLY"),
        ("YEARLY", None, None, 10, "MONTHLY"),
        ("LUNAR_YEARLY", None, 2, None, "LUNAR_YEARLY"),
        ("DAILY", ["MO"], None, None, "WEEKLY"),
    ],
)
def test_a_meaningless_combination_is_a_reason_for_the_model(
    repeat: str | None, days: list[str] | None, interval: int | None, month_day: int | None, reason: str
) -> None:
    with pytest.raises(ValueError, match=reason):
        create_rule(repeat, days, interval, month_day)


def test_a_bad_weekday_code_or_month_day_fails_validation() -> None:
    with pytest.raises(ValueError, match="XX"):
        tools.CreateArgs.model_validate({"title": "x", "repeatDays": ["XX"]})
    with pytest.raises(ValueError, match="-1 for the last"):
        tools.CreateArgs.model_validate({"title": "x", "repeatMonthDay": 0})


# ---- what the message says -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("每周二四晚上七点瑜伽", {"TU", "TH"}),
        ("周一三五健身", {"MO", "WE", "FR"}),
        ("星期二和星期四", {"TU", "TH"}),
        ("每个工作日早上九点站会", {"MO", "TU", "WE", "TH", "FR"}),
        ("周一到周五跑步", {"MO", "TU", "WE", "TH", "FR"}),
        ("Gym every Mon Wed Fri at 7am", {"MO", "WE", "FR"}),
        ("Yoga every Tuesday and Thursday 7pm", {"TU", "TH"}),
        ("standup every weekday", {"MO", "TU", "WE", "TH", "FR"}),
        ("每月第一个周一", {"1MO"}),
        ("每月最后一个周五", {"-1FR"}),
        ("last Friday of every month", {"-1FR"}),
        ("the second Tuesday of each month", {"2TU"}),
        ("每周瑜伽", set()),
        ("每月倒数第二个周五下午四点复盘", {"-2FR"}),
        ("每月倒数第一个周日", {"-1SU"}),
        ("the second to last Friday of each month", {"-2FR"}),
        ("second-last Thursday", {"-2TH"}),
        ("penultimate Monday", {"-2MO"}),
    ],
)
def test_said_weekdays(text: str, days: set[str]) -> None:
    assert {day.to_ical() for day in said_weekdays(text)} == days


@pytest.mark.parametrize(
    ("text", "intervals"),
    [
        ("每两周周三", {2}),
        ("隔周周三", {2}),
        ("每隔一天", {2}),
        ("每隔三天早上八点给花浇水", {3}),  # as quick add reads it (docs/quick-add.md)
        ("每隔两周", {2}),
        ("每三个月", {3}),
        ("every other week", {2}),
        ("every 3 months", {3}),
        ("every third week", {3}),
        ("每周三", set()),
    ],
)
def test_said_intervals(text: str, intervals: set[int]) -> None:
    assert said_intervals(text) == intervals


@pytest.mark.parametrize(
    ("zone", "text", "said"),
    [
        ("Europe/Berlin", "4pm CET call", True),
        ("Europe/Berlin", "call with Berlin team at 4pm", False),
        ("Europe/Berlin", "4pm Berlin time", True),
        ("America/New_York", "9am New York time", True),
        ("America/New_York", "纽约时间上午9点", True),
        ("America/New_York", "9am EST", True),
        ("Europe/London", "9am EST", False),
        ("UTC", "10:00 UTC", True),
        ("America/New_York", "9am ET standup", True),
        ("America/Los_Angeles", "10am Pacific time", True),
        ("Asia/Tokyo", "日本时间晚上8点", True),
        ("Asia/Tokyo", "和日本客户晚上8点开会", False),
    ],
)
def test_zone_words(zone: str, text: str, said: bool) -> None:
    assert zone_said(zone, text, date(2026, 12, 3)) is said


def test_the_question_names_what_was_not_said_in_both_languages() -> None:
    reasons = ["repeat_days:MO,-1FR", "repeat_interval:3/WEEKLY", "zone:Europe/Berlin", "title_not_from_user"]
    assert slot_notes(reasons, "zh") == [
        "你没有说是这几天：每周一、最后一个周五。",
        "你没有说隔多久重复一次（会写成每 3 周一次）。",
        "你没有说这是哪个时区的时间（会按 Europe/Berlin 写入）。",
    ]
    assert slot_notes(reasons, "en")[1] == "You did not say how often it repeats (it would be every 3 weeks)."


# ---- mutation: each rule off, a named case writes ---------------------------------------------

MUTATIONS = {
    "days": "repeat_grounding.days-unsaid-asks-then-yes",
    "interval": "repeat_grounding.interval-unsaid-asks",
    "month_day": "repeat_grounding.month-day-unsaid-asks",
    "end": "repeat_grounding.count-unsaid-asks",
    "zone": "repeat_grounding.zone-unsaid-asks-then-no",
}


def _first_turn_writes(case_id: str) -> bool:
    case = next(c for c in load_cases("offline", group=case_id.split(".")[0]) if c.id == case_id)
    return bool(run_case(case).turns[0].added)


@pytest.mark.parametrize("rule", sorted(MUTATIONS))
def test_mutation_each_repeat_rule_off_its_case_writes(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not _first_turn_writes(MUTATIONS[rule])
    rules = {name: fn for name, fn in repeat_grounding.RULES.items() if name != rule}
    monkeypatch.setattr(repeat_grounding, "RULES", rules)
    assert _first_turn_writes(MUTATIONS[rule]), f"turning off {rule} wrote nothing"


def test_mutation_without_the_series_end_the_until_date_contradicts_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _first_turn_writes("repeat.until-daily")
    real = grounding.check_create  # defined there; patched where the create tool calls it
    monkeypatch.setattr(tools, "check_create", lambda *a, series_end=None, **k: real(*a, **k))
    assert not _first_turn_writes("repeat.until-daily")  # 到12月31日 read as the start's day


def test_mutation_last_weekday_of_read_as_the_past_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _first_turn_writes("repeat.last-weekday-en")
    monkeypatch.setattr(grounding, "_LAST_OF", re.compile(r"(?!)"))
    assert not _first_turn_writes("repeat.last-weekday-en")


def test_every_repeat_form_case_checks_the_export() -> None:
    cases = load_cases("offline", group="repeat")
    forms = {case.id.split(".")[1] for case in cases}
    for form in ("weekday-list", "every-weekday", "interval", "nth-weekday", "last-weekday", "month-day", "yearly", "lunar"):
        assert any(name.startswith(form) for name in forms), form
    for form in ("count", "until", "zone"):
        assert any(name.startswith(form) for name in forms), form
    for case in cases:
        exported = [item for turn in case.turns for item in turn.expect.get("exported", [])]
        assert exported and all("rrule" in item and "dtstart" in item for item in exported), case.id
