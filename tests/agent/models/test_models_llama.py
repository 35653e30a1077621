"""The real local path: the bundled Gemma 3 270M GGUF run in-process by llama-cpp-python.

The model is a base model with no judgment, which is the point: whatever it "wants" to say,
the grammar must make every forced tool call parse and match the chosen tool's schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.models.base import ChatModel, ModelEvent, ModelUnavailable
from agent.models.bundled import bundled_gguf_path
from agent.models.llama_backend import LlamaChatModel, clear_cache, loaded_paths
from agent.models.registry import load_model
from agent.models.tool_grammar import TOOL_MARKER
from tests.support.model_fixtures import PROMPTS, SCHEMAS, SYSTEM, THREADS, TOOLS, schema_errors

pytestmark = pytest.mark.model


@pytest.fixture
def bundled() -> ChatModel:
    # Function-scoped on purpose: load_model returns the process-wide instance, so this is cheap,
    # and it survives the prefix-cache test clearing that cache.
    return load_model("bundled", n_ctx=2048, n_threads=THREADS)


def _messages(prompt: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]


def _check_call(events: list[ModelEvent], allowed: set[str]) -> dict[str, Any]:
    assert events[-1].kind == "done" and events[-1].response is not None
    response = events[-1].response
    assert len(response.tool_calls) == 1, f"no tool call; content={response.content!r}"
    call = response.tool_calls[0]
    assert [e.tool_call for e in events if e.kind == "tool_call"] == [call]
    assert call.name in allowed
    arguments = json.loads(call.arguments)
    assert schema_errors(arguments, SCHEMAS[call.name]) == []
    assert response.content == ""
    return dict(arguments)


def test_bundled_loads_once_per_process(bundled: ChatModel) -> None:
    assert bundled.name == "bundled:gemma-3-270m-q4_k_m"
    assert isinstance(bundled, ChatModel)
    again = load_model("bundled", n_ctx=2048, n_threads=THREADS)
    assert isinstance(again, LlamaChatModel) and isinstance(bundled, LlamaChatModel)
    assert again.llama is bundled.llama
    assert loaded_paths().count(str(bundled_gguf_path())) == 1


@pytest.mark.parametrize("prompt", PROMPTS[:3])
def test_required_tool_calls_always_parse_and_validate(bundled: ChatModel, prompt: str) -> None:
    events = list(bundled.stream(_messages(prompt), TOOLS, tool_choice="required", max_tokens=64))
    _check_call(events, {"shift_event", "set_reminder"})


@pytest.mark.parametrize("name", ["shift_event", "set_reminder"])
def test_named_tool_choice_pins_the_tool_and_its_schema(bundled: ChatModel, name: str) -> None:
    choice = {"type": "function", "function": {"name": name}}
    events = list(bundled.stream(_messages(PROMPTS[3]), TOOLS, tool_choice=choice, max_tokens=64))
    _check_call(events, {name})


def test_writing_a_tool_call_reports_progress_and_can_be_stopped(bundled: ChatModel) -> None:
    """A call's text is never shown, so the decode reports each piece as "writing": the UI
    leaves "reading the prompt" and a Stop (the consumer closing the stream) lands mid-call."""
    from agent.models.base import Progress

    choice = {"type": "function", "function": {"name": "set_reminder"}}
    events = list(bundled.stream(_messages(PROMPTS[3]), TOOLS, tool_choice=choice, max_tokens=64))
    call_at = next(i for i, e in enumerate(events) if e.kind == "tool_call")
    writing = [
        e.progress.done
        for e in events[:call_at]
        if e.kind == "progress" and e.progress is not None and e.progress.phase == "writing"
    ]
    assert len(writing) >= 5 and writing == list(range(1, len(writing) + 1))
    stream = bundled.stream(_messages(PROMPTS[3]), TOOLS, tool_choice=choice, max_tokens=64)
    for event in stream:
        if event.kind == "progress" and event.progress == Progress("writing", 2):
            break
    stream.close()  # stopped two pieces into the call: the model is free for the next turn at once
    _check_call(list(bundled.stream(_messages(PROMPTS[3]), TOOLS, tool_choice=choice, max_tokens=64)), {"set_reminder"})


def test_auto_gives_text_or_a_valid_call(bundled: ChatModel) -> None:
    response = bundled.complete(_messages("What is on my calendar today?"), TOOLS, tool_choice="auto", max_tokens=48)
    if response.tool_calls:
        call = response.tool_calls[0]
        assert schema_errors(json.loads(call.arguments), SCHEMAS[call.name]) == []
    else:
        assert response.content.strip() and not response.content.lstrip().startswith("<")


def test_streaming_text_arrives_in_tokens(bundled: ChatModel) -> None:
    events = list(bundled.stream(_messages("Tell me about calendars."), [], max_tokens=24))
    tokens = [e for e in events if e.kind == "token"]
    assert len(tokens) >= 3 and [e.kind for e in events][-1] == "done"
    first_token = next(i for i, e in enumerate(events) if e.kind == "token")
    assert first_token >= 1 and all(e.kind == "progress" for e in events[:first_token])  # reading the prompt
    assert all(e.kind == "token" for e in events[first_token:-1])
    response = events[-1].response
    assert response is not None and response.content == "".join(e.text for e in tokens)
    t = response.timings
    assert t["request_sent"] < t["first_token"] < t["generation_end"]
    assert response.usage.prompt_tokens > 20 and response.usage.completion_tokens > 0


def test_tool_choice_none_never_calls_even_with_tools(bundled: ChatModel) -> None:
    response = bundled.complete(_messages(PROMPTS[0]), TOOLS, tool_choice="none", max_tokens=12)
    assert response.tool_calls == []


def _long_system_prompt() -> str:
    rules = [
        f"Rule {i}: when the user mentions a meeting, a class, a flight or a dinner, keep the title short, "
        f"keep the original language, and never invent attendees or locations (case {i})."
        for i in range(1, 18)
    ]
    return SYSTEM + "\n" + "\n".join(rules)


def test_prefix_cache_makes_the_second_turn_fast() -> None:
    clear_cache()  # the first turn must start from a cold, freshly loaded instance
    model = LlamaChatModel(bundled_gguf_path(), n_ctx=2048, n_threads=THREADS)
    system = {"role": "system", "content": _long_system_prompt()}
    first_turn = [system, {"role": "user", "content": "Move event 12 to next Tuesday."}]
    static_len = len(model.render_prompt([system], TOOLS)[0])
    assert static_len >= 800  # a prefix long enough for the cache to matter (tools render compactly now)

    first = model.complete(first_turn, TOOLS, tool_choice="auto", max_tokens=4)
    second_turn = [
        *first_turn,
        {"role": "assistant", "content": first.content or "OK."},
        {"role": "user", "content": "Also remind me 15 minutes before."},
    ]
    tokens_one, _ = model.render_prompt(first_turn, TOOLS)
    tokens_two, _ = model.render_prompt(second_turn, TOOLS)
    assert tokens_two[: static_len - 2] == tokens_one[: static_len - 2]  # byte-identical prefix

    second = model.complete(second_turn, TOOLS, tool_choice="auto", max_tokens=4)
    ttft_first = first.timings["first_token"] - first.timings["request_sent"]
    ttft_second = second.timings["first_token"] - second.timings["request_sent"]
    print(f"\nprefix {static_len} tokens: TTFT cold {ttft_first:.3f}s, warm {ttft_second:.3f}s "
          f"({ttft_second / ttft_first:.1%}); cached {second.usage.cached_tokens}/{second.usage.prompt_tokens}")  # fmt: skip
    assert first.usage.cached_tokens == 0
    assert second.usage.cached_tokens >= static_len - 2
    # The time-to-first-token ratio is a benchmark figure (printed above), not an assertion.


def test_missing_and_invalid_gguf_are_unavailable(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="not found"):
        load_model(f"llama:{tmp_path / 'nope.gguf'}")
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(ModelUnavailable, match="cannot load junk.gguf"):
        load_model(f"llama:{junk}")


def test_overlong_conversation_is_unavailable_not_a_crash(bundled: ChatModel) -> None:
    huge = " ".join(["calendar"] * 3000)
    with pytest.raises(ModelUnavailable, match="does not fit"):
        bundled.complete(_messages(huge), TOOLS, max_tokens=8)


def test_marker_is_what_the_prompt_teaches() -> None:
    model = load_model("bundled", n_ctx=2048, n_threads=THREADS)
    assert isinstance(model, LlamaChatModel)
    tokens, _ = model.render_prompt(_messages("hi"), TOOLS)
    prompt = model.llama.detokenize(tokens).decode("utf-8")
    assert TOOL_MARKER in prompt and "shift_event(event_id: integer (id of the event); when: string)" in prompt


def test_lazy_grammar_decodes_exactly_like_the_eager_one(bundled: ChatModel) -> None:
    from llama_cpp import LlamaGrammar, LogitsProcessorList

    from agent.models.lazy_grammar import LazyGrammarProcessor
    from agent.models.tool_grammar import build_grammar

    assert isinstance(bundled, LlamaChatModel)
    llama = bundled.llama
    tokens, _ = bundled.render_prompt(_messages("Remind me 30 minutes before lunch with Wang."), TOOLS)
    gbnf = build_grammar(TOOLS, only="set_reminder")
    # Both runs start from an empty KV cache: a prefix reused from another batch size can move
    # logits by float noise and flip a near-tie, which would not be the grammar's doing.
    llama.reset()
    eager = llama.create_completion(tokens, max_tokens=28, temperature=0.0, grammar=LlamaGrammar.from_string(gbnf, verbose=False))
    lazy = LazyGrammarProcessor(llama, gbnf)
    try:
        llama.reset()
        fast = llama.create_completion(tokens, max_tokens=28, temperature=0.0, logits_processor=LogitsProcessorList([lazy]))
    finally:
        lazy.close()
    assert fast["choices"][0]["text"] == eager["choices"][0]["text"]  # type: ignore[index]
    assert lazy.steps > 10 and lazy.full_masks < lazy.steps


def test_the_grammar_of_the_runtime_tools_is_accepted_by_llama_cpp(bundled: ChatModel) -> None:
    # A 2,000-character maxLength once became 2,000 nested optionals, which llama.cpp refuses.
    from agent.models.lazy_grammar import LazyGrammarProcessor
    from agent.models.tool_grammar import build_grammar
    from agent.runtime.tools import tool_schemas

    assert isinstance(bundled, LlamaChatModel)
    long_notes: dict[str, Any] = {
        "type": "function",
        "function": {
            "name": "add_note",
            "description": "Attach a note to an event.",
            "parameters": {
                "type": "object",
                "properties": {"notes": {"type": "string", "maxLength": 2000}},
                "required": ["notes"],
            },
        },
    }
    for tools in (tool_schemas(["Work", "家庭"]), [long_notes]):
        processor = LazyGrammarProcessor(bundled.llama, build_grammar(tools))
        processor.close()


def test_loading_a_model_prints_nothing_of_llama_cpp_to_the_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    # Every `richeng chat` used to show "llama_kv_cache_iswa: using full-size SWA cache (ref: …)"
    # on stderr, verbose=False or not. The native log now goes to the module's logger.
    from llama_cpp import Llama

    from agent.models import llama_backend

    llama_backend._route_llama_log()
    capfd.readouterr()
    Llama(model_path=str(bundled_gguf_path()), n_ctx=512, n_threads=THREADS, verbose=False).close()
    err = capfd.readouterr().err
    assert "llama_" not in err and "SWA" not in err, err[:300]
