"""The one interface every chat model backend speaks.

The runtime is written against ``ChatModel`` only, so a hosted endpoint, an in-process GGUF
and a scripted replay are interchangeable. Everything a backend returns is plain data (no SDK
objects) so the runtime, the evals and the logs never depend on which backend produced it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from agent.errors import UserFacingError

ToolChoice = str | dict[str, Any]
"""``"auto"``, ``"none"``, ``"required"`` or ``{"type": "function", "function": {"name": ...}}``."""


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as the model produced it; the runtime validates and parses


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens served from a prefix/context cache, when known


@dataclass
class ModelResponse:
    content: str
    tool_calls: list[ToolCall]
    usage: Usage
    # monotonic seconds: "request_sent", "first_token" (first text token or tool-call output),
    # "generation_end"
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    """What a backend is busy with before its first token, for a person to read.

    ``loading``: the model file is being loaded. ``reading``: the prompt is being evaluated,
    ``done`` of ``total`` tokens (``total`` 0 when the backend cannot know, e.g. a hosted
    server). ``writing``: a tool call is being written, ``done`` pieces so far; its text is
    never shown, so without these a slow model writing a call looked stuck on "reading" and
    a Stop waited for the whole call. A text reply is visible from its token events.
    """

    phase: Literal["loading", "reading", "writing"]
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class ModelEvent:
    # "progress" events may come before the first token; consumers that do not show progress
    # ignore them. They also give the consumer a chance to stop between prompt chunks.
    kind: Literal["token", "tool_call", "done", "progress"]
    text: str = ""
    tool_call: ToolCall | None = None
    response: ModelResponse | None = None  # set on "done", which is always the last event
    progress: Progress | None = None  # set on "progress"


class ModelUnavailable(UserFacingError):
    """The model cannot answer right now; ``str()`` is a one-line, honest reason.

    Raised for an endpoint that is down or slow, a rejected key, a missing model file or an
    exhausted script, so the chat pane can say so instead of showing a traceback.
    """


@runtime_checkable
class ChatModel(Protocol):
    name: str  # e.g. "openai:qwen-plus@https://..."; never contains a key

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Iterator[ModelEvent]: ...

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> ModelResponse: ...


def drain(events: Iterable[ModelEvent]) -> ModelResponse:
    """Consume a stream to its "done" event; a stream that ends without one is a backend bug."""
    for event in events:
        if event.kind == "done":
            if event.response is None:
                raise RuntimeError("model stream ended with a 'done' event without a response")
            return event.response
    raise RuntimeError("model stream ended without a 'done' event")


class BaseChatModel:
    """Shared ``complete()`` and ``repr`` so each backend only writes ``stream()``."""

    name: str = "model"

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Iterator[ModelEvent]:
        raise NotImplementedError

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> ModelResponse:
        return drain(self.stream(messages, tools, tool_choice=tool_choice, max_tokens=max_tokens, temperature=temperature))

    def __repr__(self) -> str:
        # Only the public name: a key or a client object must never reach a log through repr().
        return f"{type(self).__name__}({self.name!r})"


def forced_tool_name(tool_choice: ToolChoice) -> str | None:
    """The function a tool_choice pins, or None; accepts the OpenAI dict or a bare tool name."""
    if isinstance(tool_choice, dict):
        function = tool_choice.get("function")
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            return str(function["name"])
        raise ValueError(f"unsupported tool_choice {tool_choice!r}")
    if tool_choice in ("auto", "none", "required"):
        return None
    return tool_choice


def message_text(content: Any) -> str:
    """Flatten OpenAI content (a string, None, or a list of parts) to text for local prompts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return str(content)


class Stopwatch:
    """Collects the three timing marks every backend reports, on the monotonic clock."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {"request_sent": time.monotonic()}

    def first_output(self) -> None:
        self.timings.setdefault("first_token", time.monotonic())

    def end(self) -> dict[str, float]:
        now = time.monotonic()
        self.timings.setdefault("first_token", now)
        self.timings["generation_end"] = now
        return dict(self.timings)


def reading_view(node: Any) -> Any:
    """A tool schema as the model reads it: private ``x-`` keys (the date pattern the llama
    grammar enforces) removed, everything else byte-identical, so the prompt stays stable."""
    if isinstance(node, dict):
        return {key: reading_view(value) for key, value in node.items() if not (isinstance(key, str) and key.startswith("x-"))}
    if isinstance(node, list):
        return [reading_view(item) for item in node]
    return node
