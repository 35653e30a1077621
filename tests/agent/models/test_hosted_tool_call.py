"""A real tool call on the hosted path: a real server, the openai backend, a real Richeng turn.

``llama_cpp.server`` runs the bundled GGUF with ``--chat_format chatml-function-calling``, the
llama-cpp-python chat format that turns the request's tools into a grammar, so what comes
back over HTTP is a genuine ``tool_calls`` delta stream. The runtime's ``Assistant`` (the
code the app and the CLI run) sends the request through ``load_model("openai:...@URL")``,
executes the call against a temp SQLite store and writes its receipt.

Two test-only adjustments live in ``_NamedTool``, a ChatModel wrapper between the runtime
and the backend; the runtime itself is unchanged for users:

* the first request names the function in ``tool_choice``: the bundled model is a base model,
  and with ``auto`` it picks no tool (probed: issue 14);
* later requests say ``none`` (a text answer): the server's ``auto`` stream for this model
  ends without a word;
* the requests carry only that tool: with all of them the prompt is ~5k tokens, which on a
  one-thread CPU would make this test take many minutes (and the server a larger context).

The tool is the range query, not a create: a base model's create arguments are not the
user's words, and the runtime rightly refuses to write them; what this test guards is the
wire (tools out, a ``tool_calls`` stream back, the result sent back as a tool message).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.models.base import ChatModel, ModelEvent, ModelResponse, drain
from agent.models.bundled import bundled_gguf_path
from agent.models.registry import load_model
from agent.runtime.turn import Assistant
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, ctx_at
from tests.support.model_fixtures import llama_server

pytestmark = pytest.mark.model

TOOL = "query_schedule_range"


class _NamedTool:
    """Forwards to ``inner`` with only ``tool``'s schema; the first request names it."""

    def __init__(self, inner: ChatModel, tool: str) -> None:
        self.inner = inner
        self.tool = tool
        self.name = inner.name
        self.requests: list[dict[str, Any]] = []

    def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> Iterator[ModelEvent]:
        tools = [t for t in tools if t["function"]["name"] == self.tool]
        if not self.requests:
            kwargs["tool_choice"] = {"type": "function", "function": {"name": self.tool}}
        else:  # after the tool result: a text answer (the server's "auto" stream ends empty here)
            kwargs["tool_choice"] = "none"
        self.requests.append({"tools": [t["function"]["name"] for t in tools], "tool_choice": kwargs.get("tool_choice", "auto")})
        kwargs["max_tokens"] = 64
        return self.inner.stream(messages, tools, **kwargs)

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> ModelResponse:
        return drain(self.stream(messages, tools, **kwargs))


@pytest.fixture(scope="module")
def function_calling_server() -> Iterator[str]:
    with llama_server(bundled_gguf_path(), extra=["--chat_format", "chatml-function-calling", "--n_ctx", "4096"]) as url:
        yield url


def test_a_real_server_tool_call_is_received_and_executed(function_calling_server: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "calendar.sqlite3")
    try:
        profile = ensure_profile(store)
        backend = load_model(f"openai:gemma@{function_calling_server}", api_key="sk-test", timeout=600.0)
        model = _NamedTool(backend, TOOL)
        assistant = Assistant(store, profile, model)  # type: ignore[arg-type]
        events: list[Any] = []
        generator = assistant.stream_turn("What is on my calendar tomorrow?", ctx_at(NOW))
        while True:
            try:
                events.append(next(generator))
            except StopIteration as done:
                result = done.value
                break

        assert model.requests[0] == {"tools": [TOOL], "tool_choice": {"type": "function", "function": {"name": TOOL}}}
        calls = [e for e in events if e.kind == "tool_call"]
        assert calls and calls[0].name == TOOL  # the server's tool_calls delta, assembled by the backend
        # While the call streams in, the UI hears "writing" (and a Stop can land) instead of silence.
        writing = [
            e.payload.done for e in events[: events.index(calls[0])] if e.kind == "progress" and e.payload.phase == "writing"
        ]
        assert writing and writing == list(range(1, len(writing) + 1))
        arguments = json.loads(calls[0].payload)
        assert set(arguments) >= {"startExpression", "endExpression"}
        # Executed by the runtime's toolset against the store: a result came back for it.
        assert result.tool_log and result.tool_log[0]["name"] == TOOL
        assert "result" in result.tool_log[0] and result.tools[0] == TOOL
        # The tool result went back to the server as a tool message and got an answer (this
        # second request used to fail: the server rejects an assistant message with null content).
        assert len(model.requests) == 2 and model.requests[1]["tool_choice"] == "none"
        assert result.model_calls == 2 and result.outcome != "model_unavailable", result.reply
    finally:
        store.close()
