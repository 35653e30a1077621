"""A continuation sends only the slots the answer changes: the prompt says so, the tool
schema agrees (``dateExpression`` is optional), the local-model grammar allows leaving it
out, and a first create without a date is asked about by code, not written."""

from __future__ import annotations

import json

import pytest

from agent.runtime.prompt import SYSTEM_PROMPT
from agent.runtime.tools import CreateArgs, tool_schemas
from agent.services.commands import CommandService
from agent.store.db import Store
from agent.timesym.context import TimeContext


def _create_schema() -> dict:
    return next(t for t in tool_schemas(["日程"]) if t["function"]["name"] == "prepare_or_create_schedule")["function"][
        "parameters"
    ]


def test_schema_and_prompt_agree_on_a_continuation() -> None:
    schema = _create_schema()
    assert schema["required"] == ["title"]
    assert "dateExpression" in schema["properties"]
    assert "omit dateExpression when the day stays the same" in SYSTEM_PROMPT
    assert CreateArgs.model_validate({"title": "开会", "allowConflict": True}).dateExpression is None
    with pytest.raises(ValueError):
        CreateArgs.model_validate({"title": "开会", "dateExpression": "tomorrow"})


def test_llama_grammar_makes_date_optional() -> None:
    pytest.importorskip("llama_cpp")
    from agent.models.tool_grammar import build_grammar

    grammar = build_grammar(tool_schemas(["日程"]), only="prepare_or_create_schedule")
    args = next(line for line in grammar.splitlines() if line.startswith("t0-args ::="))
    # title first and required; every other field (dateExpression included) inside ( ... )?
    assert args.index("t0-args-title-kv") < args.index("t0-args-dateExpression-kv")
    assert '( "," space ( t0-args-dateExpression-kv' in args and args.rstrip().endswith(')? "}" space')
    from llama_cpp import LlamaGrammar

    LlamaGrammar.from_string(grammar, verbose=False)  # it compiles


def test_continuation_without_date_keeps_the_stub_day(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)
    svc.prepare_or_create("先来", "D+1", time="14:00")
    assert svc.prepare_or_create("后到", "D+1", time="14:30").status == "conflict"
    args = CreateArgs.model_validate(json.loads('{"title": "后到", "allowConflict": true}'))
    done = svc.prepare_or_create(args.title, args.dateExpression, allow_conflict=bool(args.allowConflict))
    assert done.status == "created" and done.event is not None and done.event.start.isoformat().startswith("2026-12-01T14:30")


def test_first_create_without_date_is_asked_not_written(store: Store, profile_id: int, ctx: TimeContext) -> None:
    out = CommandService(store, profile_id, ctx).prepare_or_create("开会", None, time="15:00")
    assert out.status == "needs_date" and out.candidates == []
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
