"""Tool calling for local GGUF models: how tools are shown to the model and how its output is
constrained, so a call always parses and always matches the chosen tool's schema.

The model is taught one format (the Hermes/Qwen convention, which many instruct models already
know): a call is the marker ``<tool_call>`` followed by ``{"name": ..., "arguments": {...}}``.
A GBNF grammar (``root ::= call``) then makes that the only way a call can be written:

* ``required`` / a named function: the whole turn is decoded under the grammar (restricted to
  that one tool when named), so it is always exactly one valid call.
* ``auto``: the language is ``call | text``, where text does not begin with ``<``. It is decoded
  in two passes rather than with one ``call | text`` grammar: the turn starts unconstrained; if
  its first visible character is ``<`` the model has chosen to call, and the turn is decoded
  again under the call grammar (the prompt is still in the KV cache, so this costs one token);
  otherwise the text streams on unconstrained. Same language, but prose is not slowed by a
  grammar check over the whole vocabulary at every token (several times slower on the test model).
* ``none`` or no tools: no grammar at all.

``call`` has one alternative per tool, each pairing that tool's name with *its* argument
schema (converted by llama.cpp's JSON-schema converter), so the arguments can never belong to a
different tool. One call per turn: the runtime loops, and small models ramble otherwise.

The tool block is rendered byte-identically on every turn, whatever the tool_choice, so the
static prompt prefix (system prompt + tools) is reused from the KV cache.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from agent.models.base import message_text, reading_view

log = logging.getLogger(__name__)

TOOL_MARKER = "<tool_call>"
# JSON strings may not contain raw control characters; llama.cpp's C++ converter says the same,
# the Python one it ships lets newlines through, which would make `json.loads` fail.
_JSON_CHAR = r'[^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F])'
_HEAD_RE = re.compile(r'^\s*\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"arguments"\s*:\s*', re.S)

TOOLS_INSTRUCTIONS = (
    "# Tools\n"
    "To call a tool reply with exactly\n"
    '<tool_call>{"name": <tool>, "arguments": <JSON object>}\n'
    "and nothing else; otherwise reply in plain text. Arguments: name: type (notes); ? = optional.\n"
)


def _signature(parameters: dict[str, Any]) -> str:
    """``title: string (…); time?: string (…)``: each argument once, in words."""
    required = set(parameters.get("required") or [])
    parts = []
    for name, prop in (parameters.get("properties") or {}).items():
        kind = "|".join(str(value) for value in prop["enum"]) if "enum" in prop else str(prop.get("type", "string"))
        text = f"{name}{'' if name in required else '?'}: {kind}"
        if prop.get("description"):
            text += f" ({prop['description']})"
        parts.append(text)
    return "; ".join(parts)


def render_tools_block(tools: list[dict[str, Any]]) -> str:
    """The tool definitions as the model sees them, appended to the system prompt.

    One line per tool, each argument described once in words (JSON Schema's own words cost
    three times the tokens; the grammar built from the full schema enforces the shape).
    Deterministic, because any byte that changes between turns would invalidate the cached
    prefix after it.
    """
    lines = [TOOLS_INSTRUCTIONS, "<tools>"]
    for tool in tools:
        function = tool.get("function", tool)
        parameters = reading_view(function.get("parameters") or {"type": "object", "properties": {}})
        lines.append(f"{function['name']}({_signature(parameters)}): {function.get('description', '')}".rstrip(": "))
    lines.append("</tools>")
    return "\n".join(lines)


def render_call(name: str, arguments: str) -> str:
    """An earlier assistant call, written back exactly in the format the model is taught."""
    args = arguments.strip() or "{}"
    return f'{TOOL_MARKER}{{"name": {json.dumps(name, ensure_ascii=False)}, "arguments": {args}}}'


def normalize_messages(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[dict[str, str]]:
    """OpenAI messages -> plain system/user/assistant text turns any chat template accepts.

    Tools go into the (first) system message; assistant calls become marker text; tool results
    become user turns wrapped in ``<tool_response>``; adjacent turns of one role are merged,
    because strict templates (Gemma's, Llama-2's) demand alternating roles.
    """
    system_parts: list[str] = []
    turns: list[dict[str, str]] = []
    for message in messages:
        role = message.get("role")
        text = message_text(message.get("content"))
        if role in ("system", "developer") and not turns:
            system_parts.append(text)
            continue
        if role == "assistant":
            pieces = [text] if text else []
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                pieces.append(render_call(str(function.get("name", "")), str(function.get("arguments", ""))))
            _append(turns, "assistant", "\n".join(pieces))
        elif role == "tool":
            _append(turns, "user", f"<tool_response>\n{text}\n</tool_response>")
        else:  # user, and any late system note, are things the model is told
            _append(turns, "user", text)
    if tools:
        system_parts.append(render_tools_block(tools))
    system = "\n\n".join(part for part in system_parts if part)
    return ([{"role": "system", "content": system}] if system else []) + turns


def _append(turns: list[dict[str, str]], role: str, text: str) -> None:
    if turns and turns[-1]["role"] == role:
        turns[-1]["content"] = f"{turns[-1]['content']}\n\n{text}"
    else:
        turns.append({"role": role, "content": text})


def build_grammar(tools: list[dict[str, Any]], *, only: str | None = None) -> str:
    """GBNF for a turn that must be one call (of ``only``, when given); see the module docstring."""
    from llama_cpp.llama_grammar import SchemaConverter  # heavy import, only for local models

    chosen = [t for t in tools if only is None or t["function"]["name"] == only]
    if not chosen:
        raise ValueError(f"tool_choice names '{only}', which is not among the tools")
    converter = SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    alternatives: list[str] = []
    for index, tool in enumerate(chosen):
        function = tool["function"]
        schema = function.get("parameters") or {"type": "object", "properties": {}}
        args_rule = _arguments_rule(converter, schema, f"t{index}-args", str(function["name"]))
        name_literal = converter._format_literal(json.dumps(function["name"], ensure_ascii=False))
        alternatives.append(
            converter._add_rule(
                f"t{index}-call",
                rf'"{{" space "\"name\"" space ":" space {name_literal} space "," space '
                rf'"\"arguments\"" space ":" space {args_rule} "}}"',
            )
        )
    rules: dict[str, str] = dict(converter._rules)
    if "char" in rules:
        rules["char"] = _JSON_CHAR
    rules["call"] = f'"{TOOL_MARKER}" "\\n"? ( {" | ".join(alternatives)} )'
    rules["root"] = "call"
    return "\n".join(f"{name} ::= {rule}" for name, rule in rules.items())


# A string's maxLength becomes one nested optional per character in GBNF; llama.cpp rejects a
# grammar with thousands of them (a 2,000-character ``notes`` field did), so longer limits are
# left to the runtime's validation, which reports an overlong value as a retry.
GRAMMAR_MAX_LENGTH = 64


def _grammar_schema(node: Any) -> Any:
    """The schema the grammar enforces: the private ``x-pattern`` becomes a real pattern."""
    if isinstance(node, dict):
        out = {("pattern" if key == "x-pattern" else key): _grammar_schema(value) for key, value in node.items()}
        if isinstance(out.get("maxLength"), int) and out["maxLength"] > GRAMMAR_MAX_LENGTH:
            del out["maxLength"]
        return out
    if isinstance(node, list):
        return [_grammar_schema(item) for item in node]
    return node


def _arguments_rule(converter: Any, schema: dict[str, Any], rule_name: str, tool: str) -> str:
    try:
        resolved = converter.resolve_refs(_grammar_schema(json.loads(json.dumps(schema))), tool)
        return str(converter.visit(resolved, rule_name))
    except Exception as exc:  # an unsupported schema feature: constrain to "some JSON object"
        log.warning("tool %s: schema not convertible to a grammar (%s); using plain JSON", tool, exc)
        return str(converter._add_primitive("object", _object_primitive()))


def _object_primitive() -> Any:
    from llama_cpp.llama_grammar import PRIMITIVE_RULES

    return PRIMITIVE_RULES["object"]


def split_call(text: str) -> tuple[str, str, bool] | None:
    """``<tool_call>{"name": ..., "arguments": ...}`` -> (name, raw arguments JSON, complete).

    The arguments are returned as the exact text the model wrote. ``complete`` is False when
    generation stopped early (max_tokens) and the arguments are cut off; the runtime's schema
    validation then reports it. None when the text is not a call at all.
    """
    stripped = text.lstrip()
    if not stripped.startswith(TOOL_MARKER):
        return None
    body = stripped[len(TOOL_MARKER) :]
    head = _HEAD_RE.match(body)
    if head is None:
        return None
    name = json.loads(head.group(1))
    rest = body[head.end() :]
    try:
        _, end = json.JSONDecoder().raw_decode(rest)
    except json.JSONDecodeError:
        return name, rest.rstrip(), False
    tail = rest[end:].strip()
    return name, rest[:end], tail.startswith("}")
