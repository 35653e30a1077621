"""Scripted replay, spec parsing and key handling: the model layer's parts that need no model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.errors import UserFacingError
from agent.models import keys
from agent.models.base import ChatModel, ModelEvent, ModelUnavailable
from agent.models.registry import ModelSpecError, is_user_facing, load_model, parse_spec
from agent.models.script_backend import ScriptedModel

USER = [{"role": "user", "content": "hi"}]


def test_script_replays_turns_in_order_and_counts_calls() -> None:
    model = ScriptedModel(
        [
            {"tool_calls": [{"name": "shift_event", "arguments": {"event_id": 3, "when": "D+1"}}]},
            {"tool_calls": [{"name": "set_reminder", "arguments": '{"minutes": "5"}'}]},
            {"content": "Done: moved to tomorrow and reminding you 5 minutes before."},
        ]
    )
    assert isinstance(model, ChatModel)
    first = model.complete(USER, [])
    assert first.tool_calls[0].name == "shift_event"
    assert json.loads(first.tool_calls[0].arguments) == {"event_id": 3, "when": "D+1"}
    second = model.complete(USER, [])
    assert second.tool_calls[0].arguments == '{"minutes": "5"}'  # strings pass through verbatim
    events = list(model.stream(USER, []))
    tokens = [e for e in events if e.kind == "token"]
    assert len(tokens) >= 3 and events[-1].kind == "done"
    assert "".join(e.text for e in tokens) == events[-1].response.content  # type: ignore[union-attr]
    assert model.calls == 3 and model.remaining == 0
    with pytest.raises(ModelUnavailable, match="script exhausted"):
        list(model.stream(USER, []))
    assert model.calls == 4


def test_script_streams_cjk_in_pieces_and_keeps_text_exact() -> None:
    text = "好的，已经把周三下午三点的会议挪到周四。 "
    response_events = list(ScriptedModel([{"content": text}]).stream(USER, []))
    pieces = [e.text for e in response_events if e.kind == "token"]
    assert len(pieces) >= 3 and "".join(pieces) == text


def test_script_tool_call_events_and_timings() -> None:
    model = ScriptedModel([{"content": "Let me check.", "tool_calls": [{"name": "a"}, {"name": "b", "arguments": {}}]}])
    events: list[ModelEvent] = list(model.stream(USER, []))
    kinds = [e.kind for e in events]
    assert kinds.count("tool_call") == 2 and kinds[-1] == "done"
    response = events[-1].response
    assert response is not None
    assert [c.id for c in response.tool_calls] == ["call_0_0", "call_0_1"]
    assert response.tool_calls[0].arguments == "{}"
    t = response.timings
    assert t["request_sent"] <= t["first_token"] <= t["generation_end"]


def test_script_can_rehearse_an_outage() -> None:
    model = ScriptedModel([{"unavailable": "endpoint down"}, {"content": "back"}])
    with pytest.raises(ModelUnavailable, match="endpoint down"):
        model.complete(USER, [])
    assert model.complete(USER, []).content == "back"


@pytest.mark.parametrize("bad", [{"foo": 1}, {"content": 3}, {"tool_calls": [{"arguments": {}}]}, "text"])
def test_script_rejects_malformed_turns(bad: Any) -> None:
    with pytest.raises(ValueError):
        ScriptedModel([bad])


def test_script_spec_loads_a_file(tmp_path: Path) -> None:
    script = tmp_path / "turns.json"
    script.write_text(json.dumps([{"content": "hello there"}]), encoding="utf-8")
    model = load_model(f"script:{script}")
    assert model.name == f"script:{script}"
    assert model.complete(USER, []).content == "hello there"
    with pytest.raises(ModelUnavailable, match="not found"):
        load_model(f"script:{tmp_path / 'missing.json'}")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelUnavailable):
        load_model(f"script:{tmp_path / 'bad.json'}")


def test_parse_specs() -> None:
    spec = parse_spec("openai:llama3.2:3b@http://localhost:11434/v1")
    assert (spec.kind, spec.model, spec.base_url) == ("openai", "llama3.2:3b", "http://localhost:11434/v1")
    spec = parse_spec("openai:qwen-plus@https://dashscope.aliyuncs.com/compatible-mode/v1")
    assert spec.model == "qwen-plus" and spec.user_facing
    assert parse_spec("llama:~/models/qwen2.5-3b-instruct-q4_k_m.gguf").target.endswith(".gguf")
    assert parse_spec("bundled").kind == "bundled"
    assert is_user_facing("llama:/m.gguf") and is_user_facing("openai:m@http://x/v1")
    assert not is_user_facing("bundled") and not is_user_facing("script:x.json") and not is_user_facing("??")


@pytest.mark.parametrize("spec", ["gpt-4o", "openai:gpt-4o", "openai:@http://x", "ollama:llama3", "llama:", ""])
def test_unknown_specs_say_the_accepted_forms(spec: str) -> None:
    with pytest.raises(ModelSpecError) as info:
        load_model(spec)
    message = str(info.value)
    assert isinstance(info.value, UserFacingError) and isinstance(info.value, ValueError)
    assert "openai:MODEL@BASE_URL" in message and "llama:PATH.gguf" in message and "\n" not in message


class MemoryKeyring:
    """Just enough of keyring's backend API for set/get/delete."""

    priority = 1

    def __init__(self) -> None:
        self.data: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, user: str) -> str | None:
        return self.data.get((service, user))

    def set_password(self, service: str, user: str, password: str) -> None:
        self.data[(service, user)] = password

    def delete_password(self, service: str, user: str) -> None:
        del self.data[(service, user)]


class BrokenKeyring(MemoryKeyring):
    def get_password(self, service: str, user: str) -> str | None:
        raise RuntimeError("D-Bus is not running")

    def set_password(self, service: str, user: str, password: str) -> None:
        raise RuntimeError("D-Bus is not running")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in keys.ENV_VARS:
        monkeypatch.delenv(var, raising=False)


def test_keyring_then_environment_then_placeholder(monkeypatch: pytest.MonkeyPatch, clean_env: None) -> None:
    import keyring

    ring = MemoryKeyring()
    monkeypatch.setattr(keyring, "get_password", ring.get_password)
    monkeypatch.setattr(keyring, "set_password", ring.set_password)
    monkeypatch.setattr(keyring, "delete_password", ring.delete_password)
    url = "https://api.deepseek.com/v1/"
    assert keys.resolve_api_key(url) == (keys.PLACEHOLDER_KEY, "none")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-openai")
    assert keys.get_api_key(url) == "sk-env-openai"
    monkeypatch.setenv("RICHENG_API_KEY", "sk-env-richeng")
    assert keys.get_api_key(url) == "sk-env-richeng"
    keys.store_api_key(url, "  sk-ring-0123456789  ")
    assert ring.data == {("richeng", "https://api.deepseek.com/v1"): "sk-ring-0123456789"}
    assert keys.resolve_api_key("https://api.deepseek.com/v1") == ("sk-ring-0123456789", "keyring")
    assert keys.get_api_key("https://other.example/v1") == "sk-env-richeng"  # keys are per endpoint
    assert keys.delete_api_key(url) and not keys.delete_api_key(url)
    with pytest.raises(UserFacingError):
        keys.store_api_key(url, "   ")


def test_failing_keyring_means_no_key(monkeypatch: pytest.MonkeyPatch, clean_env: None) -> None:
    import keyring

    broken = BrokenKeyring()
    monkeypatch.setattr(keyring, "get_password", broken.get_password)
    monkeypatch.setattr(keyring, "set_password", broken.set_password)
    assert keys.get_api_key("http://127.0.0.1:8080/v1") is None
    with pytest.raises(UserFacingError, match="RICHENG_API_KEY"):
        keys.store_api_key("http://127.0.0.1:8080/v1", "sk-x")


def test_redact_hides_full_and_prefix_forms() -> None:
    secret = "sk-proj-abcdefghijklmnop"
    text = f"Incorrect API key provided: {secret[:8]}****mnop; full {secret}"
    assert secret not in keys.redact(text, secret) and secret[:8] not in keys.redact(text, secret)
