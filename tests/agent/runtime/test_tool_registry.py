"""A tool is one object: what the rest of the code asks about a tool is a field of its
``Tool``, and every set of tool names is derived from a ``Registry``, never written out.

The scan below fails on any module of ``agent/`` or ``app/`` (outside ``agent/runtime/tools.py``,
where the tools are defined) that spells a tool's name as a string: a hand-written list of
names (``WRITE_TOOLS = {...}``, an intent table) is how a new tool used to slip past a check.
Code about one particular tool reads the name from its object (``CREATE.name``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from agent.runtime.observe import infer_intent
from agent.runtime.toolkit import ParsedCall, Registry, Tool, ToolDeps, ToolResult, Toolset, Wording
from agent.runtime.tools import CREATE, TOOLS
from agent.runtime.toolset import build_toolset
from agent.services.archive import ArchiveService
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.store.db import Store
from tests.support.clock import NOW, ctx_at

ROOT = Path(__file__).resolve().parents[3]
DEFINED_IN = ROOT / "agent" / "runtime" / "tools.py"


def spelled_names(source: str, names: frozenset[str]) -> list[tuple[int, str, bool]]:
    """(line, name, inside a literal with another tool name) for each string equal to a name."""
    tree = ast.parse(source)
    in_list: set[int] = set()
    for node in ast.walk(tree):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
        if isinstance(node, (ast.Set, ast.Tuple, ast.List, ast.Dict)) and items is not None:
            hits = [item for item in items if isinstance(item, ast.Constant) and item.value in names]
            if len(hits) >= 2:
                in_list.update(id(item) for item in hits)
    return [
        (node.lineno, node.value, id(node) in in_list)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]


def test_the_scan_finds_a_hand_written_list_and_a_single_name() -> None:
    names = frozenset(TOOLS.names)
    found = spelled_names('WRITES = {"update_schedule", "delete_schedule"}\nif x == "remember_fact": pass\n', names)
    assert found == [(1, "update_schedule", True), (1, "delete_schedule", True), (2, "remember_fact", False)]
    assert spelled_names('"""update_schedule is mentioned in words."""\nNAME = CREATE.name\n', names) == []


def test_no_module_spells_a_tool_name_outside_the_module_that_defines_the_tools() -> None:
    names = frozenset(TOOLS.names)
    problems = []
    for path in sorted([*(ROOT / "agent").rglob("*.py"), *(ROOT / "app").rglob("*.py")]):
        if path == DEFINED_IN:
            continue
        for line, name, listed in spelled_names(path.read_text(encoding="utf-8"), names):
            what = "a hand-written list of tool names" if listed else "a tool name spelled out (use the Tool's .name)"
            problems.append(f"{path.relative_to(ROOT)}:{line}: {what}: {name!r}")
    assert problems == []


# What the side tables said before the tools carried it (the observation's intent table, the
# evals' WRITE_TOOLS / READ_TOOLS, the turn's bulk and edit names): the same answers, now read
# from each tool. Only these ten are pinned, so a new tool edits nothing here.
BEFORE = {
    # name: (writes, edit, reads, intent)
    "prepare_or_create_schedule": ("events", None, False, "create"),
    "update_schedule": ("events", "update", False, "update"),
    "delete_schedule": ("events", "delete", False, "delete"),
    "query_schedule_range": (None, None, True, "query_range"),
    "suggest_free_time": (None, None, True, "query_range"),
    "cancel_schedule_command": ("pending", None, False, "clarification_reply"),
    "remember_fact": ("memory", None, False, "memory.remember"),
    "offer_council": (None, None, False, "council"),
    "search_memory": (None, None, False, "memory.search"),
    "search_chat_archive": (None, None, False, "archive.search"),
}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_each_tool_carries_what_the_side_tables_said(name: str) -> None:
    tool = TOOLS.get(name)
    assert tool is not None and (tool.writes, tool.edit, tool.reads, tool.intent) == BEFORE[name]
    assert (name in TOOLS.writes) == (BEFORE[name][0] is not None) and (name in TOOLS.reads) == BEFORE[name][2]


def test_intent_is_the_terminal_tools_else_the_first_intermediate_ones() -> None:
    def intent(*tools: str) -> str:
        return infer_intent(list(tools), TOOLS, dispatched=False, council=False)

    assert intent("search_memory", "prepare_or_create_schedule") == "create"
    assert intent("search_chat_archive", "search_memory") == "archive.search"
    assert intent("no_such_tool", "query_schedule_range") == "query_range" and intent("no_such_tool") == "general.chat"
    assert (
        intent() == "general.chat"
        and infer_intent(["remember_fact"], TOOLS, dispatched=True, council=False) == "clarification_reply"
    )
    assert infer_intent(["remember_fact"], TOOLS, dispatched=False, council=True) == "council"


class _NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _nameless(deps: ToolDeps, args: _NoArgs) -> ToolResult:
    return ToolResult(ok=True, payload={"n": 1})


PLAIN = Tool(name="plain_tool", args=_NoArgs, description="x", handler=_nameless, status=Wording(en="x", zh="x"))


def test_a_tool_and_a_result_take_keywords_only() -> None:
    with pytest.raises(TypeError):
        Tool("plain_tool", _NoArgs, "x", _nameless, Wording(en="x", zh="x"))  # type: ignore[misc]
    with pytest.raises(TypeError):
        ToolResult(True, {})  # type: ignore[misc]
    with pytest.raises(TypeError):
        Wording("x", "x")  # type: ignore[misc]


def test_an_edit_tool_must_write_events() -> None:
    with pytest.raises(ValueError, match="must write events"):
        Registry(
            [Tool(name="e", args=_NoArgs, description="e", handler=_nameless, status=Wording(en="e", zh="e"), edit="update")]
        )


def test_the_toolset_stamps_the_name_a_handler_left_out(store: Store, profile_id: int) -> None:
    ctx = ctx_at(NOW)
    toolset: Toolset = build_toolset(
        store,
        profile_id,
        ctx,
        CommandService(store, profile_id, ctx),
        MemoryService(store, profile_id),
        ArchiveService(store, profile_id),
        [],
        registry=TOOLS.plus(PLAIN),
    )
    result = toolset.call(ParsedCall.parse("c1", "plain_tool", "{}"))
    assert result.name == "plain_tool" and result.ok and not result.terminal and "plain_tool" in result.for_model()
    created = toolset.call(ParsedCall.parse("c2", CREATE.name, '{"title": "开会", "dateExpression": "D+1", "time": "15:00"}'))
    assert created.name == CREATE.name and created.terminal
