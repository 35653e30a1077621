"""``richeng prompt [--model SPEC] [--json]``: the exact request the next chat turn would send.

Machine-checked contract (issue 14): prints ``{"messages": [...], "tools": [...]}`` — the
fields of the chat-completions request body — and, with ``--model llama:PATH`` (or ``bundled``), also
``prefix_tokens`` (the static prefix every turn starts with: system prompt and tools, as the
model's own chat template renders them) and ``total_tokens`` (the whole request), counted
with that model's tokenizer. It is how the prompt's size is measured and kept honest.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from agent.cli.common import CliError, Session, emit


def prompt(args: argparse.Namespace) -> int:
    from agent.models.base import ModelUnavailable
    from agent.models.registry import load_model, parse_spec
    from agent.runtime.turn import Assistant

    session = Session(args)
    request: dict[str, Any] = Assistant(session.store, session.profile_id, None).next_request("", session.ctx)
    spec = args.model
    # A malformed SPEC is a usage error (exit 2), never silently ignored; local models
    # (llama:PATH, bundled) also count tokens with their own tokenizer.
    if spec and parse_spec(spec).kind in ("llama", "bundled"):
        try:
            model = load_model(spec)
        except ModelUnavailable as exc:
            raise CliError.of(exc) from exc
        count = getattr(model, "render_prompt", None)
        prefix = getattr(model, "prefix_tokens", None)
        if count is None or prefix is None:
            raise CliError("cli.no_token_count", spec=spec)
        request["prefix_tokens"] = len(prefix(request["messages"][:1], request["tools"]))
        request["total_tokens"] = len(count(request["messages"], request["tools"])[0])
    emit(args, request, lambda: json.dumps(request, ensure_ascii=False, indent=2))
    return 0


def register(sub: Any, commands: Any) -> None:
    p = sub(commands, "prompt", "print the request the next chat turn would send", prompt)
    p.add_argument("--model", metavar="SPEC", help="llama:PATH.gguf adds prefix_tokens and total_tokens")
