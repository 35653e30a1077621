"""The local tool-call format without running a model: prompt shaping, grammar text, parsing."""

from __future__ import annotations

import json

import pytest

from agent.models.tool_grammar import (
    TOOL_MARKER,
    build_grammar,
    normalize_messages,
    render_tools_block,
    split_call,
)
from tests.support.model_fixtures import SYSTEM, TOOLS


def test_tools_go_into_one_leading_system_turn_and_roles_alternate() -> None:
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Move event 12 to next Tuesday."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "shift_event", "arguments": '{"event_id":12,"when":"W2"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"ok": true}'},
        {"role": "tool", "tool_call_id": "c2", "content": '{"ok": false}'},
        {"role": "user", "content": [{"type": "text", "text": "thanks"}]},
    ]
    turns = normalize_messages(messages, TOOLS)
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "user"]
    assert turns[0]["content"].startswith(SYSTEM) and turns[0]["content"].endswith("</tools>")
    assert turns[2]["content"] == f'{TOOL_MARKER}{{"name": "shift_event", "arguments": {{"event_id":12,"when":"W2"}}}}'
    assert turns[3]["content"].count("<tool_response>") == 2 and turns[3]["content"].endswith("thanks")


def test_static_prefix_is_identical_whatever_follows() -> None:
    one = normalize_messages([{"role": "system", "content": SYSTEM}, {"role": "user", "content": "a"}], TOOLS)
    two = normalize_messages(
        [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "b"}, {"role": "assistant", "content": "c"}],
        TOOLS,
    )
    assert one[0] == two[0]
    assert render_tools_block(TOOLS) == render_tools_block(json.loads(json.dumps(TOOLS)))


def test_grammar_shapes() -> None:
    both = build_grammar(TOOLS)
    assert "root ::= call" in both.splitlines()
    assert 'call ::= "<tool_call>" "\\n"? ( t0-call | t1-call )' in both.splitlines()
    # each alternative pairs a tool's name with its own argument rule
    assert any(
        line.startswith("t0-call ::=") and '"\\"shift_event\\""' in line and "t0-args" in line for line in both.splitlines()
    )
    assert any(
        line.startswith("t1-call ::=") and '"\\"set_reminder\\""' in line and "t1-args" in line for line in both.splitlines()
    )
    assert 't0-args-when ::= "\\"" ("D" [+-]' in both  # the pattern became grammar, not free text
    assert "\\x00-\\x1F" in both  # no raw control characters inside JSON strings
    one = build_grammar(TOOLS, only="set_reminder")
    assert "set_reminder" in one and "shift_event" not in one
    with pytest.raises(ValueError, match="not among the tools"):
        build_grammar(TOOLS, only="delete_everything")


def test_unconvertible_schema_falls_back_to_any_object() -> None:
    tool = {
        "type": "function",
        "function": {
            "name": "odd",
            "parameters": {"type": "object", "properties": {"x": {"type": "string", "pattern": "abc"}}},
        },
    }
    grammar = build_grammar([tool])  # unanchored pattern: converter refuses
    assert "object ::=" in grammar


def test_split_call() -> None:
    text = '<tool_call>\n{"name": "set_reminder", "arguments": {"minutes": "15", "note": "a}b"} }'
    assert split_call(text) == ("set_reminder", '{"minutes": "15", "note": "a}b"}', True)
    cut = '<tool_call>{"name": "set_reminder", "arguments": {"minutes": "1'
    assert split_call(cut) == ("set_reminder", '{"minutes": "1', False)
    assert split_call('<tool_call>{"na') is None
    assert split_call("Sure, done.") is None


def test_templates_refusing_a_system_role_get_it_folded_into_the_first_user_turn() -> None:
    from types import SimpleNamespace

    from agent.models.llama_backend import render_prompt

    def strict(*, messages: list[dict[str, str]]) -> SimpleNamespace:
        if messages[0]["role"] == "system":
            raise ValueError("System role not supported")
        return SimpleNamespace(prompt=repr(messages), stop=None, added_special=True)

    turns = [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]
    assert render_prompt(strict, turns).prompt == repr([{"role": "user", "content": "S\n\nU"}])

    def broken(*, messages: list[dict[str, str]]) -> SimpleNamespace:
        raise ValueError("Conversation roles must alternate")

    fallback = render_prompt(broken, [{"role": "assistant", "content": "A"}, {"role": "user", "content": "U"}])
    assert "[INST]" in fallback.prompt  # the generic Llama-2 layout


def test_the_model_reads_words_while_the_grammar_keeps_the_date_pattern() -> None:
    """Prompt diet (issue 14): the date pattern is in the grammar, not in the text the model reads."""
    from agent.runtime.tools import tool_schemas

    tools = tool_schemas(["日程", "工作"])
    block = render_tools_block(tools)
    assert "pattern" not in block and "[0-9]" not in block and "x-" not in block
    assert "dateExpression?: string (date symbol" in block and "calendarName?: 日程|工作" in block
    grammar = build_grammar(tools)
    assert '"D" [+-]' in grammar  # the symbol shape is enforced while decoding


def test_hosted_requests_never_carry_private_keys() -> None:
    from agent.models.base import reading_view
    from agent.runtime.tools import tool_schemas

    assert "x-pattern" not in json.dumps(reading_view(tool_schemas(["日程"])))
