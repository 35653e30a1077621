"""Tool schemas and the exit guard's claim detection (pure code, no model)."""

from __future__ import annotations

import json
import re

import pytest

from agent.runtime.claims import claims_calendar_state, claims_write
from agent.runtime.guard import UNVERIFIED_CREATE, UNVERIFIED_QUERY, TurnFacts, check_reply, honest_reply
from agent.runtime.tools import TERMINAL, TOOL_NAMES, TOOLS, tool_schemas

EXPECTED_TOOLS = {
    "prepare_or_create_schedule": True,
    "update_schedule": True,
    "delete_schedule": True,
    "respond_to_invitation": True,
    "query_schedule_range": True,
    "suggest_free_time": True,
    "cancel_schedule_command": True,
    "remember_fact": True,
    "offer_council": True,
    "search_memory": False,
    "search_chat_archive": False,
}


def test_tool_names_and_terminality_are_fixed() -> None:
    assert {spec.name: spec.terminal for spec in TOOLS.tools} == EXPECTED_TOOLS
    assert {name for name, terminal in EXPECTED_TOOLS.items() if terminal} == TERMINAL


def test_schemas_forbid_extra_arguments_and_carry_no_identity_fields() -> None:
    for tool in tool_schemas(["工作", "家庭"]):
        params = tool["function"]["parameters"]
        assert params["additionalProperties"] is False
        for name in params["properties"]:
            assert not re.search(r"user|profile|account|owner", name, re.IGNORECASE), name


def test_schema_patterns_use_digit_classes_not_backslash_d() -> None:
    text = json.dumps(tool_schemas(["工作"]))
    assert "\\\\d" not in text and "\\d" not in text
    create = next(t for t in tool_schemas(["工作"]) if t["function"]["name"] == "prepare_or_create_schedule")
    props = create["function"]["parameters"]["properties"]
    # The pattern rides privately (x-pattern) for the llama grammar; the model reads words.
    assert "[0-9]" in props["dateExpression"]["x-pattern"]
    assert re.fullmatch(props["time"]["x-pattern"].strip("^$"), "15:00")


def test_calendar_enum_is_injected_per_request() -> None:
    create = next(t for t in tool_schemas(["工作", "家庭"]) if t["function"]["name"] == "prepare_or_create_schedule")
    assert create["function"]["parameters"]["properties"]["calendarName"]["enum"] == ["工作", "家庭"]


def test_schemas_are_byte_identical_for_the_same_calendars() -> None:
    assert json.dumps(tool_schemas(["a", "b"])) == json.dumps(tool_schemas(["a", "b"]))


@pytest.mark.parametrize(
    "text",
    [
        "已创建日程：明天下午三点开会",
        "好的，我已经帮你安排好了",
        "已为你添加到日历",
        "记下了！",
        "I've scheduled the meeting for tomorrow.",
        "Done! Added to your calendar.",
        "The event has been created.",
    ],
)
def test_create_claims_are_detected(text: str) -> None:
    assert claims_write(text)


@pytest.mark.parametrize(
    "text",
    ["听起来很累，早点休息吧。", "要我帮你创建吗？", "你想安排在几点？", "Sounds tiring. Get some rest!", "Should I create it?"],
)
def test_ordinary_replies_are_not_create_claims(text: str) -> None:
    assert not claims_write(text)


@pytest.mark.parametrize(
    "text",
    [
        "你明天没有安排。",
        "本周共有3个安排：",
        "You have no events tomorrow.",
        "Your calendar is empty on Friday.",
        "There are 2 meetings.",
    ],
)
def test_calendar_state_claims_are_detected(text: str) -> None:
    assert claims_calendar_state(text)


NOTHING = TurnFacts()


def test_guard_replaces_never_appends() -> None:
    verdict = check_reply("已创建日程：明天开会", NOTHING, "zh")
    assert verdict.flag == UNVERIFIED_CREATE
    assert "已创建日程" not in verdict.reply and verdict.reply == honest_reply("create", "zh")
    verdict = check_reply("你明天没有安排", NOTHING, "zh")
    assert verdict.flag == UNVERIFIED_QUERY
    assert "你明天没有安排" not in verdict.reply and "还没有查看" in verdict.reply


def test_guard_lets_true_claims_through() -> None:
    assert check_reply("已创建日程", TurnFacts(created=True), "zh").flag is None
    assert check_reply("你明天没有安排", TurnFacts(read=True), "zh").flag is None


def test_tool_names_constant_matches_specs() -> None:
    assert set(TOOL_NAMES) == set(EXPECTED_TOOLS)
