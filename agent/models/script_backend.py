"""A model that replays scripted turns, for evals and tests that must not depend on a real model.

Each ``stream()`` call plays the next turn, so a script reads like the transcript of what a
model would have said. Turns are checked when the script is built: a typo in an eval's script
should fail at load time, not as a confusing runtime error three turns in.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agent.files import InputFileError, MiB, read_limited
from agent.models.base import (
    BaseChatModel,
    ModelEvent,
    ModelResponse,
    ModelUnavailable,
    Stopwatch,
    ToolCall,
    ToolChoice,
    Usage,
)

MAX_SCRIPT_BYTES = 16 * MiB
"""Scripts are a few kilobytes of turns; this only stops ``/dev/zero`` or a stray big file."""
_PIECE_RE = re.compile(r"\s*\S+")
_MAX_PIECE = 4


class ScriptFileError(ModelUnavailable, InputFileError):
    """The script file itself cannot be read as a script (not a regular file, too large):
    an unavailable model to the app, and the user's bad file to the CLI (exit 2)."""


def pieces(content: str) -> list[str]:
    """A few token-like pieces (words; runs of CJK split into short chunks) for realistic streams."""
    out: list[str] = []
    for word in _PIECE_RE.findall(content) or ([content] if content else []):
        while len(word) > _MAX_PIECE * 2:
            out.append(word[:_MAX_PIECE])
            word = word[_MAX_PIECE:]
        out.append(word)
    consumed = "".join(out)
    if consumed != content:  # trailing whitespace the regex left behind
        out.append(content[len(consumed) :])
    return out


def _validated(turns: Any) -> list[dict[str, Any]]:
    if not isinstance(turns, list):
        raise ValueError("a model script is a JSON list of turns")
    checked: list[dict[str, Any]] = []
    for index, turn in enumerate(turns):
        where = f"script turn {index + 1}"
        if not isinstance(turn, dict) or not ({"content", "tool_calls", "unavailable"} & set(turn)):
            raise ValueError(f"{where}: expected an object with 'content', 'tool_calls' or 'unavailable'")
        if "content" in turn and not isinstance(turn["content"], str):
            raise ValueError(f"{where}: 'content' must be a string")
        calls = turn.get("tool_calls", [])
        if not isinstance(calls, list):
            raise ValueError(f"{where}: 'tool_calls' must be a list")
        for call in calls:
            if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                raise ValueError(f"{where}: each tool call needs a 'name'")
            if not isinstance(call.get("arguments", {}), (dict, list, str)):
                raise ValueError(f"{where}: 'arguments' must be an object or a JSON string")
        checked.append(turn)
    return checked


class ScriptedModel(BaseChatModel):
    """Replays ``turns``: ``{"content": ...}``, ``{"tool_calls": [{"name", "arguments"}]}`` (both
    may appear in one turn) or ``{"unavailable": "reason"}`` to rehearse an outage."""

    def __init__(self, turns: list[dict[str, Any]], *, name: str = "script:<memory>") -> None:
        self.name = name
        self.turns = _validated(turns)
        self.calls = 0  # stream() calls so far, exhausted ones included
        self.requests: list[dict[str, Any]] = []  # what each call was asked, for assertions
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedModel:
        """Read a script of at most ``MAX_SCRIPT_BYTES``. A missing file is an unavailable
        model, as before; one that cannot be a script at all (``/dev/zero`` read without end,
        a FIFO, a folder, a huge file) is ``ScriptFileError``, which the CLI refuses in one line."""
        file = Path(path).expanduser()
        try:
            if not file.exists():
                raise ModelUnavailable("models.script_missing", path=str(file))
            raw = read_limited(file, MAX_SCRIPT_BYTES, "the model script")
        except InputFileError as exc:
            raise ScriptFileError(exc.code, **exc.params) from None
        except OSError as exc:  # a name too long, a folder we may not enter
            raise ScriptFileError("models.script_unreadable", path=str(file)[:120], reason=exc.strerror or str(exc)) from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise ModelUnavailable("models.script_not_json", name=file.name, reason=str(exc)) from None
        try:
            return cls(data, name=f"script:{file}")
        except ValueError as exc:
            raise ModelUnavailable("models.script_bad", name=file.name, reason=str(exc)) from None

    @property
    def remaining(self) -> int:
        return max(0, len(self.turns) - self.calls)

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Iterator[ModelEvent]:
        with self._lock:
            index = self.calls
            self.calls += 1
            self.requests.append({"messages": messages, "tools": tools, "tool_choice": tool_choice})
        return self._play(index)

    def _play(self, index: int) -> Iterator[ModelEvent]:
        watch = Stopwatch()
        if index >= len(self.turns):
            raise ModelUnavailable("models.script_exhausted")
        turn = self.turns[index]
        if "unavailable" in turn:
            raise ModelUnavailable("models.script_unavailable", text=str(turn["unavailable"]))
        content = str(turn.get("content", ""))
        for piece in pieces(content):
            watch.first_output()
            yield ModelEvent(kind="token", text=piece)
        calls: list[ToolCall] = []
        for number, raw in enumerate(turn.get("tool_calls", [])):
            arguments = raw.get("arguments", {})
            text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
            call = ToolCall(id=str(raw.get("id") or f"call_{index}_{number}"), name=raw["name"], arguments=text)
            calls.append(call)
            watch.first_output()
            yield ModelEvent(kind="tool_call", tool_call=call)
        response = ModelResponse(content=content, tool_calls=calls, usage=Usage(), timings=watch.end())
        yield ModelEvent(kind="done", response=response)
