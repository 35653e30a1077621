"""``richeng prompt``: the request the next turn would send (issue 14, a CLI contract).

The shape is checked from outside: ``{"messages", "tools"}``, plus ``prefix_tokens`` and
``total_tokens`` with ``--model llama:``. The preview must be the request a real turn sends
(compared against a recorded turn), and the static prefix must fit the 1,500-token budget
with every tool, counted with the bundled GGUF's own tokenizer.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.evals.runner import Recorder
from agent.models.base import reading_view
from agent.models.script_backend import ScriptedModel
from agent.runtime.tools import TOOL_NAMES
from agent.runtime.turn import Assistant
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, ctx_at

BASE = ["--now", NOW.isoformat(), "--tz", "Asia/Shanghai"]
PREFIX_BUDGET = 1500


def test_prompt_prints_the_request_body(db_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prompt", "--db", str(db_file), *BASE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"messages", "tools"}
    assert data["messages"][0]["role"] == "system" and data["messages"][-1]["role"] == "user"
    assert [tool["function"]["name"] for tool in data["tools"]] == list(TOOL_NAMES)
    assert "x-pattern" not in json.dumps(data)  # what a backend sends, not the private grammar keys


def test_a_malformed_model_spec_is_refused(db_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prompt", "--db", str(db_file), *BASE, "--json", "--model", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bogus" in err


def test_the_preview_is_the_request_a_turn_sends(store: Store) -> None:
    profile_id = ensure_profile(store)
    ctx = ctx_at(NOW)
    Assistant(store, profile_id, ScriptedModel([{"content": "你好！"}])).turn("你好", ctx)
    later = ctx_at(NOW.replace(minute=5))
    preview = Assistant(store, profile_id, None).next_request("明天有什么安排", later)
    recorder = Recorder(ScriptedModel([{"content": "好的"}]))
    Assistant(store, profile_id, recorder).turn("明天有什么安排", later)  # type: ignore[arg-type]
    sent = recorder.requests[0]
    assert preview["messages"] == sent["messages"]
    assert preview["tools"] == reading_view(sent["tools"])


def test_the_static_prefix_is_byte_stable_across_turns(store: Store) -> None:
    profile_id = ensure_profile(store)
    first = Assistant(store, profile_id, None).next_request("", ctx_at(NOW))
    Assistant(store, profile_id, ScriptedModel([{"content": "好"}])).turn("你好", ctx_at(NOW))
    second = Assistant(store, profile_id, None).next_request("", ctx_at(NOW.replace(minute=3)))
    assert first["messages"][0] == second["messages"][0] and first["tools"] == second["tools"]


@pytest.mark.model
def test_prefix_with_every_tool_fits_the_budget(db_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agent.models.base import ModelUnavailable
    from agent.models.bundled import bundled_gguf_path

    try:
        gguf = bundled_gguf_path()
    except ModelUnavailable as exc:
        pytest.skip(str(exc))
    assert main(["prompt", "--db", str(db_file), *BASE, "--json", "--model", f"llama:{gguf}"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"messages", "tools", "prefix_tokens", "total_tokens"}
    print(f"\nprefix {data['prefix_tokens']} tokens, whole request {data['total_tokens']}")
    assert 0 < data["prefix_tokens"] <= PREFIX_BUDGET
    assert data["total_tokens"] > data["prefix_tokens"]


def test_the_warm_up_reads_ahead_exactly_the_history_a_turn_resends(store: Store) -> None:
    """``Assistant.warm_messages`` (what the app's warm-up reads after a restart) is the turn's
    request minus its last message, history included; drift here would make the restarted
    app read the history twice."""
    profile_id = ensure_profile(store)
    Assistant(store, profile_id, ScriptedModel([{"content": "你好！"}])).turn("你好", ctx_at(NOW))
    later = NOW.replace(minute=5)
    ahead = Assistant(store, profile_id, None, clock=lambda: later).warm_messages()
    recorder = Recorder(ScriptedModel([{"content": "好的"}]))
    Assistant(store, profile_id, recorder).turn("明天有什么安排", ctx_at(later))  # type: ignore[arg-type]
    sent = recorder.requests[0]["messages"]
    assert ahead == sent[:-1] and [m["role"] for m in ahead] == ["system", "user", "assistant"]
    gone = Assistant(store, profile_id, None, clock=lambda: NOW + timedelta(hours=3)).warm_messages()
    assert [m["role"] for m in gone] == ["system"]  # past the session gap nothing is resent
