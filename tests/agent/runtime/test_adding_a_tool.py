"""Adding a tool touches one file: a ``Tool`` object is all the turn engine needs.

The two trivial tools below are registered the way ``agent/runtime/tools.py`` registers the
real ten (``Registry``; here ``TOOLS.plus``) and run through scripted model turns: offered
in the request, validated from their own argument model, run, fed back to the model or
ended with their own receipt, labelled in the UI by their own status. No other table is
edited (``docs/adding-a-tool.md`` shows such a tool, ``list_calendars``, as a diff of tools.py;
the names here differ so that the recipe can be tried for real beside this test).
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from agent.models.script_backend import ScriptedModel
from agent.runtime.toolkit import Receipt, Registry, Tool, ToolDeps, ToolResult, Wording
from agent.runtime.tools import TOOL_NAMES, TOOLS
from agent.runtime.turn import Assistant
from agent.services.calendars import CalendarService
from agent.store.db import Store
from tests.support.clock import NOW, ctx_at

CTX = ctx_at(NOW)


class ListCalendarsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


def list_calendars(deps: ToolDeps, args: ListCalendarsArgs) -> ToolResult:
    return ToolResult(ok=True, payload={"calendars": CalendarService(deps.store, deps.profile_id).names()})


LIST_CALENDARS = Tool(
    name="calendar_names",
    args=ListCalendarsArgs,
    description="List the user's calendars.",
    handler=list_calendars,
    status=Wording(en="Listing your calendars…", zh="正在列出日历…"),
    reads=True,
    intent="calendar.list",
)


class EchoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    word: str = Field(min_length=1, max_length=20)


def echo(deps: ToolDeps, args: EchoArgs) -> ToolResult:
    return ToolResult(ok=True, payload={"word": args.word}, value=args.word)


def echo_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(("回声：" if lang == "zh" else "Echo: ") + str(result.value), "echoed", result.value)


ECHO = Tool(
    name="echo_word",
    args=EchoArgs,
    description="Repeat one word.",
    handler=echo,
    status=Wording(en="Echoing…", zh="正在回声…"),
    terminal=True,
    receipt=echo_receipt,
    intent="echo",
)


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def bot(store: Store, profile_id: int, turns: list[dict[str, Any]], *tools: Tool) -> tuple[Assistant, ScriptedModel]:
    model = ScriptedModel(turns)
    return Assistant(store, profile_id, model, tools=TOOLS.plus(*tools)), model


def offered(model: ScriptedModel, index: int = 0) -> list[str]:
    return [tool["function"]["name"] for tool in model.requests[index]["tools"]]


def test_an_added_intermediate_tool_is_offered_run_and_fed_back(store: Store, profile_id: int) -> None:
    assistant, model = bot(store, profile_id, [call("calendar_names"), {"content": "你有一个日历：日程。"}], LIST_CALENDARS)
    result = assistant.turn("我有哪些日历", CTX)
    assert offered(model) == [*TOOL_NAMES, "calendar_names"]
    schema = model.requests[0]["tools"][-1]["function"]
    assert schema["description"] == "List the user's calendars." and schema["parameters"]["additionalProperties"] is False
    assert result.tools == ["calendar_names"] and result.tool_log[0]["ok"] and result.model_calls == 2
    fed = [m for m in model.requests[1]["messages"] if m.get("role") == "tool"]
    names = CalendarService(store, profile_id).names()
    assert len(fed) == 1 and fed[0]["name"] == "calendar_names" and all(name in fed[0]["content"] for name in names)
    assert result.outcome == "chat" and result.reply == "你有一个日历：日程。"


def test_an_added_terminal_tool_ends_the_turn_with_its_own_receipt(store: Store, profile_id: int) -> None:
    assistant, model = bot(store, profile_id, [call("echo_word", word="hello")], ECHO)
    result = assistant.turn("say hello back", CTX)
    assert result.reply == "Echo: hello" and result.outcome == "echoed" and result.receipt == "hello"
    assert result.model_calls == 1 and model.calls == 1 and result.intent != "create"


def test_an_added_tool_validates_its_own_arguments(store: Store, profile_id: int) -> None:
    # An argument the tool's model does not have goes back to the model as a retry.
    turns = [call("echo_word", word="hi", loud=True), call("echo_word", word="hi")]
    assistant, model = bot(store, profile_id, turns, ECHO)
    result = assistant.turn("回声 hi", CTX)
    assert [log["ok"] for log in result.tool_log] == [False, True]
    assert "unknown argument 'loud'" in result.tool_log[0]["result"]["error"]
    assert result.reply == "回声：hi" and result.model_calls == 2


def test_the_status_label_is_the_tools_own() -> None:
    registry = TOOLS.plus(ECHO)
    assert registry.status("echo_word", "zh") == "正在回声…" and registry.status("echo_word", "en") == "Echoing…"
    assert registry.status("prepare_or_create_schedule", "zh") == "正在准备日程…"
    assert registry.status("no_such_tool", "en") == "Working…" and registry.status("no_such_tool", "zh") == "处理中…"


def test_a_registry_refuses_a_terminal_tool_without_a_receipt_and_a_second_name() -> None:
    with pytest.raises(ValueError, match="no receipt writer"):
        Registry([Tool(name="x", args=EchoArgs, description="x", handler=echo, status=Wording(en="x", zh="x"), terminal=True)])
    with pytest.raises(ValueError, match="share a name"):
        TOOLS.plus(ECHO, ECHO)


def test_the_default_tools_are_untouched_by_an_added_one() -> None:
    TOOLS.plus(ECHO, LIST_CALENDARS)
    assert TOOLS.names == TOOL_NAMES and "echo_word" not in TOOLS.names and len(TOOLS.schemas([])) == len(TOOL_NAMES)
