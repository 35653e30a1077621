"""`richeng chat` contract: its JSON keys, no-model exit 2, a dead endpoint exits 0 honestly."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from agent.cli.main import main

KEYS = {"reply", "outcome", "tools", "intent", "model_calls", "guard", "command_id", "candidates", "timeline", "calendar"}
BASE = ["--now", "2026-11-30T10:00:00+08:00", "--tz", "Asia/Shanghai"]


def script(tmp_path: Path, turns: list[dict]) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(turns, ensure_ascii=False), encoding="utf-8")
    return f"script:{path}"


def test_chat_json_shape_and_create(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.sqlite3")
    spec = script(
        tmp_path,
        [
            {
                "tool_calls": [
                    {
                        "name": "prepare_or_create_schedule",
                        "arguments": {"title": "和张三开会", "dateExpression": "D+1", "time": "15:00"},
                    }
                ]
            }
        ],
    )
    assert main(["--db", db, *BASE, "chat", "明天下午三点和张三开会", "--model", spec, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == KEYS
    assert out["outcome"] == "created" and out["tools"] == ["prepare_or_create_schedule"] and out["model_calls"] == 1
    assert out["guard"] is None and out["intent"] == "create"
    assert main(["--db", db, *BASE, "events", "list", "--start", "D+1", "--end", "D+1", "--json"]) == 0
    assert [e["title"] for e in json.loads(capsys.readouterr().out)] == ["和张三开会"]


def test_chat_without_a_model_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(tmp_path / "r.sqlite3"), *BASE, "chat", "你好", "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--model" in err[0]


def test_dead_endpoint_is_model_unavailable_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = str(tmp_path / "r.sqlite3")
    code = main(["--db", db, *BASE, "chat", "明天下午三点开会", "--model", f"openai:x@http://127.0.0.1:{port}/v1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["outcome"] == "model_unavailable" and out["model_calls"] == 1
    assert main(["--db", db, *BASE, "events", "list", "--start", "D+0", "--end", "D+7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_unknown_model_spec_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(tmp_path / "r.sqlite3"), *BASE, "chat", "你好", "--model", "gpt4", "--json"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


class _Terminal:
    """A stderr that says it is a terminal, and keeps what was written."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_chat_shows_its_progress_on_a_terminal_and_wipes_it(tmp_path: Path, capsys, monkeypatch) -> None:
    """On a terminal stderr gets one self-rewriting line per phase, wiped before the reply;
    captured stderr (a script, these other tests) gets none, and stdout is the same either way."""
    import sys

    from agent.cli.progress_line import CLEAR

    turns = [
        {"tool_calls": [{"name": "query_schedule_range", "arguments": {"start": "D+1", "end": "D+1"}}]},
        {"content": "明天没有安排。"},
    ]
    assert main(["--db", str(tmp_path / "a.sqlite3"), *BASE, "chat", "明天有什么安排", "--model", script(tmp_path, turns)]) == 0
    plain = capsys.readouterr()
    assert plain.err == ""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["--db", str(tmp_path / "b.sqlite3"), *BASE, "chat", "明天有什么安排", "--model", script(tmp_path, turns)]) == 0
    assert capsys.readouterr().out == plain.out
    assert f"{CLEAR}calling a tool: query_schedule_range… · " in terminal.text  # (its seconds are the real clock's)
    assert terminal.text.endswith(CLEAR)  # nothing left on the line the reply is printed after


def test_the_progress_line_names_each_phase() -> None:
    import io

    from agent.cli.progress_line import CLEAR, ProgressLine
    from agent.models.base import Progress
    from agent.runtime.turn_types import TurnEvent

    now = [100.0]
    out = io.StringIO()
    line = ProgressLine(out, clock=lambda: now[0])
    line.on_event(TurnEvent("progress", payload=Progress("loading")))
    now[0] = 103.4
    line.on_event(TurnEvent("progress", payload=Progress("reading", 640, 1445)))
    line.on_event(TurnEvent("reset"))  # says nothing about the phase: the line stays
    line.on_event(TurnEvent("progress", payload=Progress("writing", 7)))
    line.on_event(TurnEvent("token", "好"))
    assert out.getvalue() == (
        f"{CLEAR}loading the model… · 0 s{CLEAR}reading the prompt: 640 / 1,445 tokens · 3 s"
        f"{CLEAR}writing the reply… · 3 s{CLEAR}"
    )
    line.clear()
    assert out.getvalue().endswith(f"3 s{CLEAR}")  # wiped once, not again


def test_an_empty_message_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It used to go to the model (the base model answered '[/INST]' over and over) and into the archive."""
    db = tmp_path / "r.sqlite3"
    assert main(["--db", str(db), *BASE, "chat", "   ", "--model", script(tmp_path, [{"content": "?"}]), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "empty" in captured.err
    assert not db.exists()  # nothing was opened, let alone written


def test_calendar_key_on_every_turn_and_the_line_in_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``"calendar"`` is unchanged, read or changed on every turn, from the turn's real results;
    the text output carries the code-written status line under a promise that no tool backs."""
    db = str(tmp_path / "r.sqlite3")
    create = [
        {
            "tool_calls": [
                {
                    "name": "prepare_or_create_schedule",
                    "arguments": {"title": "和张三开会", "dateExpression": "D+1", "time": "15:00"},
                }
            ]
        }
    ]
    query = [{"tool_calls": [{"name": "query_schedule_range", "arguments": {"startExpression": "D+1", "endExpression": "D+1"}}]}]
    promise = [{"content": "我这就帮你加上。"}]
    for turns, message, want in (
        (create, "明天下午三点和张三开会", "changed"),
        (query, "明天有什么安排", "read"),
        (promise, "后天上午开会", "unchanged"),
    ):
        assert main(["--db", db, *BASE, "chat", message, "--model", script(tmp_path, turns), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        # issue 30: the unchanged turn that talks calendar and names a day also carries "facts"
        assert set(out) == KEYS | ({"facts"} if want == "unchanged" else set()) and out["calendar"] == want
    assert main(["--db", db, *BASE, "chat", "后天上午开会", "--model", script(tmp_path, promise)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "我这就帮你加上。",
        "日历没有变化",
        "日历里查到的：12月2日（周三）05:00–12:00：没有安排",
    ]
