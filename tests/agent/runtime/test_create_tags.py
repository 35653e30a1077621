"""The chat create tool's tags (issue 28: chat says what the editor can): ``tags`` become the
event's CATEGORIES, the field table's row; a tag the user never gave asks first, and 是
writes exactly what was asked about."""

from __future__ import annotations

from datetime import datetime

import icalendar
import pytest

from agent.ics.exporter import export_calendar
from agent.models.script_backend import ScriptedModel
from agent.runtime import repeat_grounding
from agent.runtime.tools import CREATE, tool_schemas
from agent.runtime.turn import Assistant
from agent.store.db import Store
from agent.store.fields import read
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI, ctx_at

THURSDAY = datetime(2026, 12, 3, 10, 0, tzinfo=SHANGHAI)


def turns(store: Store, *steps: tuple[str, dict[str, object] | None]) -> tuple[list[str], list[str], list[tuple[str, ...]]]:
    """Scripted turns (a create call, or none for a reply code reads); their outcomes and
    replies, and each exported event's tags."""
    profile_id = ensure_profile(store)
    outcomes, replies = [], []
    for minute, (text, args) in enumerate(steps):
        script = [{"tool_calls": [{"name": CREATE.name, "arguments": args}]}] if args is not None else []
        result = Assistant(store, profile_id, ScriptedModel(script)).turn(text, ctx_at(THURSDAY.replace(minute=minute)))
        outcomes.append(result.outcome)
        replies.append(result.reply)
    exported = icalendar.Calendar.from_ical(export_calendar(store, profile_id))
    return outcomes, replies, [read(event, "categories") for event in exported.walk("VEVENT")]


@pytest.mark.parametrize(
    ("text", "title", "tags"),
    [
        ("Dentist tomorrow 3pm #health", "Dentist", ["health"]),
        ("明天下午三点看牙，标签：健康、牙科", "看牙", ["健康", "牙科"]),
    ],
)
def test_tags_the_user_gave_are_written_as_categories(store: Store, text: str, title: str, tags: list[str]) -> None:
    args = {"title": title, "dateExpression": "D+1", "time": "15:00", "tags": tags}
    outcomes, _, written = turns(store, (text, args))
    assert outcomes == ["created"] and written == [tuple(tags)]


def test_a_tag_never_given_asks_first_and_yes_writes_it(store: Store) -> None:
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "tags": ["Work"]}
    outcomes, replies, written = turns(store, ("明天下午三点开会", args), ("是", None))
    assert outcomes == ["unconfirmed", "created"]
    assert "你没有说要加这些标签：Work。" in replies[0]
    assert written == [("Work",)]


def test_mutation_without_the_tags_rule_an_invented_tag_is_written(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = {name: fn for name, fn in repeat_grounding.RULES.items() if name != "tags"}
    monkeypatch.setattr(repeat_grounding, "RULES", rules)
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "tags": ["Work"]}
    assert turns(store, ("明天下午三点开会", args))[0] == ["created"]


def test_the_schema_offers_tags_with_a_short_description() -> None:
    schema = next(tool for tool in tool_schemas(["日程"]) if tool["function"]["name"] == CREATE.name)
    tags = schema["function"]["parameters"]["properties"]["tags"]
    assert tags["type"] == "array" and len(tags["description"]) <= 40
