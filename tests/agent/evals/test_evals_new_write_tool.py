"""A write tool added to the registry is a write for the ``no_write_tools`` eval, with no list
to edit: the checker asks the registry (``TOOLS.writes``), never a set of names of its own.

Two ways: in process, a registry with one more write tool stands in for ``TOOLS``; and for
real, a scratch copy of ``agent/`` whose only edits are one more ``Tool`` in
``agent/runtime/tools.py`` and its status label in ``agent/messages/runtime.py`` runs an
offline case end to end (offered, run, counted).
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from agent.evals import expect as expect_module
from agent.evals.cases import Case, parse_case
from agent.evals.expect import check_turn
from agent.evals.runner import TurnRecord
from agent.runtime.toolkit import Receipt, Tool, ToolDeps, ToolResult, Wording
from agent.runtime.tools import TOOLS
from tests.support.clock import NOW_ARG as NOW

ROOT = Path(__file__).resolve().parents[3]


class _NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _archive(deps: ToolDeps, args: _NoArgs) -> ToolResult:
    return ToolResult(ok=True, payload={}, value="archived")


ARCHIVE = Tool(
    name="archive_event",
    args=_NoArgs,
    description="Archive an event.",
    handler=_archive,
    status=Wording(en="Archiving…", zh="正在归档…"),
    terminal=True,
    receipt=lambda result, lang, today: Receipt("archived", "archived", "archived"),
    writes="events",
)


def _turn(*tools: str) -> TurnRecord:
    return TurnRecord(index=0, user="明天有什么", at=NOW, tools=list(tools), outcome="chat", receipt="model")


def _case() -> Case:
    record = {"id": "t.case", "group": "t", "now": NOW, "tz": "Asia/Shanghai", "turns": [{"user": "明天有什么", "script": []}]}
    return parse_case(record, "offline", "test")


def test_a_call_to_a_write_tool_added_to_the_registry_is_counted_as_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    case = _case()
    assert check_turn({"no_write_tools": True}, _turn(ARCHIVE.name), case) == []  # not registered: no write
    monkeypatch.setattr(expect_module, "TOOLS", TOOLS.plus(ARCHIVE))
    problems = check_turn({"no_write_tools": True}, _turn(ARCHIVE.name), case)
    assert problems == ["write tool(s) called on a message that must not write: ['archive_event']"]
    # The ten are judged as before: a read is not a write, a memory is.
    assert check_turn({"no_write_tools": True}, _turn("query_schedule_range"), case) == []
    assert check_turn({"no_write_tools": True}, _turn("remember_fact"), case) != []


NEW_TOOL = """

class ArchiveArgs(_TargetArgs):
    pass


def _archive(deps: ToolDeps, args: ArchiveArgs) -> ToolResult:
    return ToolResult(ok=True, payload={"archived": args.targetTitle}, value=args.targetTitle)


def _archive_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(f"Archived {result.value}", "archived", result.value)


ARCHIVE = Tool(
    name="archive_event",
    args=ArchiveArgs,
    description="Archive an existing event.",
    handler=_archive,
    status="runtime.status.archive",
    terminal=True,
    receipt=_archive_receipt,
    writes="events",
    intent="archive",
)
"""


def _assigns_tools(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TOOLS" for t in node.targets)


RUN_CASE = """
import json, sys
from agent.evals.cases import Case, parse_case
from agent.evals.expect import check
from agent.evals.runner import run_case
script = [{"tool_calls": [{"name": "archive_event", "arguments": {"targetTitle": "开会"}}]}]
turn = {"user": "明天的会怎么样", "script": script, "expect": {"no_write_tools": True}}
case = parse_case({"id": "t.new", "group": "t", "now": sys.argv[1], "tz": "Asia/Shanghai", "turns": [turn]}, "offline", "t")
run = run_case(case)
offered = [tool["function"]["name"] for tool in run.turns[0].requests[0]["tools"]]
print(json.dumps({"offered": offered, "turn": run.turns[0].to_json(), "problems": check(run)}, ensure_ascii=False))
"""


def test_one_tool_added_to_tools_py_alone_is_offered_run_and_counted_by_the_eval(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "agent", tmp_path / "agent", ignore=shutil.ignore_patterns("__pycache__"))
    tools_py = tmp_path / "agent" / "runtime" / "tools.py"
    # The one edit: the new Tool, and the registry with it, right where TOOLS is defined (so
    # TOOL_NAMES and everything else read after it see it).
    lines = tools_py.read_text(encoding="utf-8").splitlines(keepends=True)
    (end,) = [node.end_lineno for node in ast.parse("".join(lines)).body if _assigns_tools(node)]
    assert end is not None
    added = NEW_TOOL + "\nTOOLS = Registry((*TOOLS.tools, ARCHIVE))\n"
    tools_py.write_text("".join(lines[:end]) + added + "".join(lines[end:]), encoding="utf-8")
    # ... and its status label, in both languages, in the catalogue (CONTRIBUTING.md, "Adding a message").
    messages_py = tmp_path / "agent" / "messages" / "runtime.py"
    text = messages_py.read_text(encoding="utf-8")
    cut = text.rindex("}")
    entry = '    "runtime.status.archive": Message(zh="正在归档…", en="Archiving…"),\n'
    messages_py.write_text(text[:cut] + entry + text[cut:], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", RUN_CASE, NOW],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["offered"][-1] == "archive_event" and len(result["offered"]) == len(TOOLS.names) + 1
    turn = result["turn"]
    assert turn["tools"] == ["archive_event"] and turn["reply"] == "Archived 开会" and turn["intent"] == "archive"
    assert "turn 1: write tool(s) called on a message that must not write: ['archive_event']" in result["problems"]
