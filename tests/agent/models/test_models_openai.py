"""The OpenAI-compatible backend: failure modes, streamed tool-call assembly, and a real server.

A stub HTTP server speaks just enough of the chat-completions protocol to pin down edge cases
(tool-call deltas split across chunks, a 401 that echoes the key, an older server that rejects
``stream_options``). The real hosted path is ``python -m llama_cpp.server`` serving the
bundled GGUF on localhost.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from agent.models.base import ModelUnavailable
from agent.models.bundled import bundled_gguf_path
from agent.models.registry import load_model
from tests.support.model_fixtures import SCHEMAS, SYSTEM, TOOLS, llama_server, schema_errors
from tests.support.servers import free_port

SECRET = "sk-test-0123456789abcdefSECRET"
USER = [{"role": "user", "content": "hi"}]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip


def _call_delta(index: int, **function: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"index": index, "function": function}
    if "name" in function:
        entry.update(id=f"call_{index}", type="function")
    return {"tool_calls": [entry]}


STREAMS: dict[str, list[dict[str, Any]]] = {
    "tools": [
        _chunk({"role": "assistant", "content": "Moving it."}),
        _chunk(_call_delta(0, name="shift_event", arguments="")),
        _chunk(_call_delta(0, arguments='{"event_id": 1')),
        _chunk(_call_delta(0, arguments='2, "when": "W2"}')),
        _chunk(_call_delta(1, name="set_reminder", arguments='{"minutes":')),
        _chunk(_call_delta(1, arguments=' "15"}')),
        _chunk({}, finish="tool_calls"),
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [],
            "usage": {
                "prompt_tokens": 900,
                "completion_tokens": 30,
                "total_tokens": 930,
                "prompt_tokens_details": {"cached_tokens": 768},
            },
        },
    ],  # fmt: skip
    "old-server": [_chunk({"content": "hello"}), _chunk({"content": " there"}, finish="stop")],
    "truncated": [_chunk({"role": "assistant"})],
}


class StubHandler(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass

    def _json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body["authorization"] = self.headers.get("Authorization", "")
        StubHandler.requests.append(body)
        model = body["model"]
        if model == "auth":
            key = body["authorization"].removeprefix("Bearer ")
            self._json(401, {"error": {"message": f"Incorrect API key provided: {key}", "type": "invalid_request_error"}})
            return
        if model == "old-server" and "stream_options" in body:
            self._json(400, {"error": {"message": "Unrecognized request argument supplied: stream_options"}})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for chunk in STREAMS[model]:
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
        if model != "truncated":
            self.wfile.write(b"data: [DONE]\n\n")


@pytest.fixture(scope="module")
def stub_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), StubHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.fixture
def env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring

    monkeypatch.setattr(keyring, "get_password", lambda service, user: None)
    monkeypatch.setenv("RICHENG_API_KEY", SECRET)


def test_dead_endpoint_fails_fast_and_never_shows_the_key(env_key: None, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    port = free_port()  # bound then released: nothing listens there
    model = load_model(f"openai:x@http://127.0.0.1:{port}/v1")
    # "Fast" is a property of the configuration (a short connect timeout, one retry), not a
    # wall-clock assertion: the refused connection itself returns at once.
    client = vars(model)["_client"]
    assert client.max_retries <= 1 and client.timeout.connect is not None and client.timeout.connect <= 5
    with pytest.raises(ModelUnavailable) as info:
        model.complete(USER, TOOLS)
    message = str(info.value)
    assert f"127.0.0.1:{port}" in message and "\n" not in message
    assert model.name == f"openai:x@http://127.0.0.1:{port}/v1"
    for text in (model.name, repr(model), str(vars(model).get("name")), message, caplog.text):
        assert SECRET not in text
    assert "environment" in caplog.text  # where the key came from is logged, the key is not


def test_streamed_tool_call_deltas_are_assembled(stub_url: str, env_key: None) -> None:
    model = load_model(f"openai:tools@{stub_url}")
    events = list(model.stream(USER, TOOLS, tool_choice="required", max_tokens=64))
    # "reading the prompt" (no counts from a server) before the request, then what came back;
    # each tool-call delta is also a "writing" progress (the UI's phase, a place a Stop lands)
    writing = [
        e.progress.done for e in events if e.kind == "progress" and e.progress is not None and e.progress.phase == "writing"
    ]
    assert writing == list(range(1, len(writing) + 1)) and len(writing) >= 2
    rest = [e for e in events if not (e.kind == "progress" and e.progress is not None and e.progress.phase == "writing")]
    assert [e.kind for e in rest] == ["progress", "token", "tool_call", "tool_call", "done"]
    assert events[0].progress is not None and events[0].progress.phase == "reading"
    response = events[-1].response
    assert response is not None
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [
        ("call_0", "shift_event", '{"event_id": 12, "when": "W2"}'),
        ("call_1", "set_reminder", '{"minutes": "15"}'),
    ]
    assert (response.usage.prompt_tokens, response.usage.cached_tokens) == (900, 768)
    t = response.timings
    assert t["request_sent"] <= t["first_token"] <= t["generation_end"]
    sent = StubHandler.requests[-1]
    assert sent["tool_choice"] == "required" and sent["stream"] is True and sent["tools"] == TOOLS
    assert sent["authorization"] == f"Bearer {SECRET}"


def test_rejected_key_is_reported_without_echoing_it(stub_url: str, env_key: None) -> None:
    with pytest.raises(ModelUnavailable, match="HTTP 401") as info:
        load_model(f"openai:auth@{stub_url}").complete(USER, [])
    assert SECRET not in str(info.value) and SECRET[:8] not in str(info.value)


def test_older_server_without_stream_options_still_works(stub_url: str, env_key: None) -> None:
    response = load_model(f"openai:old-server@{stub_url}").complete(USER, [])
    assert response.content == "hello there" and response.tool_calls == []
    assert "tools" not in StubHandler.requests[-1]  # no tools: no tools/tool_choice fields at all


def test_stream_closed_without_an_answer_is_unavailable(stub_url: str, env_key: None) -> None:
    with pytest.raises(ModelUnavailable, match="without an answer"):
        load_model(f"openai:truncated@{stub_url}").complete(USER, [])


def test_keyless_local_server_gets_a_placeholder(stub_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring

    monkeypatch.setattr(keyring, "get_password", lambda service, user: None)
    monkeypatch.delenv("RICHENG_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    load_model(f"openai:old-server@{stub_url}").complete(USER, [])
    assert StubHandler.requests[-1]["authorization"] == "Bearer sk-no-key-required"


@pytest.fixture(scope="module")
def hosted() -> Iterator[str]:
    with llama_server(bundled_gguf_path()) as base_url:
        yield base_url


@pytest.mark.model
def test_hosted_llama_server_streams_text(hosted: str) -> None:
    model = load_model(f"openai:bundled@{hosted}", timeout=60)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Tell me about calendars."}]
    events = list(model.stream(messages, [], max_tokens=24))
    tokens = [e for e in events if e.kind == "token"]
    assert len(tokens) >= 3 and events[-1].kind == "done"
    response = events[-1].response
    assert response is not None and response.content == "".join(e.text for e in tokens)
    assert response.timings["first_token"] < response.timings["generation_end"]


@pytest.mark.model
@pytest.mark.parametrize("name", ["shift_event", "set_reminder"])
def test_hosted_llama_server_forced_tool_call(hosted: str, name: str) -> None:
    # llama_cpp.server turns a *named* tool_choice into a grammar from that tool's schema (any
    # chat format); "required"/"auto" are ignored by its default format for a template-less
    # model, and chatml-function-calling refuses them when streaming. See docs/models.md.
    model = load_model(f"openai:bundled@{hosted}", timeout=60)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Move event 12 to Tuesday."}]
    choice = {"type": "function", "function": {"name": name}}
    events = list(model.stream(messages, TOOLS, tool_choice=choice, max_tokens=64))
    calls = [e.tool_call for e in events if e.kind == "tool_call"]
    assert len(calls) == 1 and calls[0] is not None and calls[0].name == name
    assert schema_errors(json.loads(calls[0].arguments), SCHEMAS[name]) == []
