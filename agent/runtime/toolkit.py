"""What a tool is: one ``Tool`` object, a ``Registry`` of them, and one request's ``Toolset``.

A tool used to be tables keyed by its name (the spec, the handler, the receipt branch, the
UI's status label, the observation's intent, the turn's and the evals' lists of write tools).
Now everything about a tool is one object (in the spirit of Simon Willison's ``llm.Tool``):
its name, its argument model (the JSON schema is derived from it), whether it ends the turn,
what it writes, which edit it asks for, whether it reads the calendar, the intent it stands
for, the handler, the receipt writer and the status label in both languages. Every list of
tool names elsewhere is derived from a ``Registry`` (``Registry.writes`` ...), never written
by hand (a test fails on one). The tools themselves are defined in ``agent/runtime/tools.py``;
adding one touches that file and its tests (``docs/adding-a-tool.md``).

A model's call is parsed once (``ParsedCall``): the JSON text as the model sent it, the dict
read from it (or why it could not be read), and nothing is parsed again downstream.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ValidationError

from agent.messages.catalogue import is_code, render
from agent.messages.message import Message
from agent.runtime.fence import as_data

if TYPE_CHECKING:
    from agent.runtime.grounding import Grounding
    from agent.services.archive import ArchiveService
    from agent.services.chat_edits import ChatEditService
    from agent.services.commands import CommandService
    from agent.services.memory import MemoryService
    from agent.services.queries import QueryService
    from agent.store.db import Store
    from agent.timesym.context import TimeContext


@dataclass(kw_only=True)
class ToolResult:
    """What a tool did. ``retry`` results go back to the model; others end the turn
    (terminal tools) or feed the next model call (intermediate tools).

    A handler leaves ``name`` and ``terminal`` alone: ``Toolset.call`` stamps both from the
    ``Tool`` that ran, so no handler repeats its own name."""

    ok: bool
    payload: dict[str, Any]
    name: str = ""
    retry: bool = False
    terminal: bool = False
    value: Any = None  # the service object (Outcome, RangeResult ...) the receipt is written from

    def for_model(self) -> str:
        """The result as the model reads it: fenced as data (it may quote stored text)."""
        return as_data(self.name, json.dumps(self.payload, ensure_ascii=False, default=str))


@dataclass(frozen=True)
class Receipt:
    """What the user reads after a terminal tool: written by code from the real result.

    ``outcome`` names the result (``created``, ``query`` ...); ``read`` says the reply
    states what was read from the calendar (the exit guard lets such a reply stand);
    ``meta`` is archived with the reply (the council invitation a later "yes" accepts)."""

    text: str
    outcome: str
    value: Any = None
    read: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class ToolDeps:
    """The services of one request, bound to one profile before the model is called: no
    argument a model sends can choose the profile, because no tool has such a parameter."""

    store: Store
    profile_id: int
    ctx: TimeContext
    commands: CommandService
    memory: MemoryService
    archive: ArchiveService
    queries: QueryService
    edits: ChatEditService
    grounding: Grounding | None = None
    found: list[str] = field(default_factory=list)  # what search tools returned this turn (it grounds too)
    #: The memories ``search_memory`` read this turn: the only stored text that grounds an
    #: invitee's address (an event's text or the chat history never does).
    memories: list[str] = field(default_factory=list)
    #: The calls that write events (the tool, its arguments) in the model response being run:
    #: more than one is a bulk change (one confirmation listing every event, never a direct write).
    writes: list[tuple[Tool, dict[str, Any]]] = field(default_factory=list)


Handler = Callable[[ToolDeps, Any], ToolResult]
ReceiptWriter = Callable[[ToolResult, str, date], Receipt]  # (result, language, today)


#: What a call of the tool may change: events, memories, or the pending command.
Writes = Literal["events", "memory", "pending"]
#: The change to an existing event a tool asks ``ChatEditService`` for.
EditOp = Literal["update", "delete", "respond"]


@dataclass(frozen=True, kw_only=True)
class Wording:
    """One short text in both interface languages, for a tool that lives outside the
    catalogue (a test's, a plug-in's); Richeng's own tools name a catalogue code instead."""

    en: str
    zh: str

    def text(self, lang: str) -> str:
        return Message(zh=self.zh, en=self.en).text(lang)


@dataclass(frozen=True, kw_only=True)
class Tool:
    """One tool, whole. ``handler(deps, args)`` gets the validated ``args`` model; a
    terminal tool's ``receipt(result, lang, today)`` writes what the user reads.

    ``terminal``: the call ends the turn with the receipt (else its result feeds the next
    model request). ``writes``: what a call may change (the ``no_write_tools`` eval and the
    bulk check read it). ``edit``: the edit of an existing event it asks for (such calls in
    one response make one bulk confirmation). ``reads``: it reads the calendar (the turn's
    ``calendar`` may then be ``read``). ``intent``: what a turn that ran it was (observations
    and evals; a terminal tool's intent wins over an intermediate one's). ``status``: what
    the UI shows while it runs: a catalogue code (``runtime.status.<tool>``,
    agent/messages/runtime.py), or a ``Wording`` for a tool outside the catalogue."""

    name: str
    args: type[BaseModel]
    description: str
    handler: Handler
    status: str | Wording
    terminal: bool = False
    receipt: ReceiptWriter | None = None
    writes: Writes | None = None
    edit: EditOp | None = None
    reads: bool = False
    intent: str | None = None

    def parameters(self) -> dict[str, Any]:
        return clean_schema(self.args.model_json_schema())


WORKING = "runtime.status.working"  # the status of a tool no registry knows


class Registry:
    """The tools a turn offers, in the order the model reads them."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools: tuple[Tool, ...] = tuple(tools)
        self._by_name = {tool.name: tool for tool in self.tools}
        if len(self._by_name) != len(self.tools):
            raise ValueError("two tools share a name")
        for tool in self.tools:
            if tool.terminal and tool.receipt is None:
                raise ValueError(f"terminal tool {tool.name} has no receipt writer")
            if isinstance(tool.status, str) and not is_code(tool.status):
                raise ValueError(f"tool {tool.name}'s status {tool.status!r} is not a catalogue code")
            if tool.edit is not None and tool.writes != "events":
                raise ValueError(f"edit tool {tool.name} must write events")
        self.names: tuple[str, ...] = tuple(self._by_name)
        # The name sets other modules read: derived here, never written out by hand.
        self.terminal: frozenset[str] = frozenset(tool.name for tool in self.tools if tool.terminal)
        self.writes: frozenset[str] = frozenset(tool.name for tool in self.tools if tool.writes)
        self.reads: frozenset[str] = frozenset(tool.name for tool in self.tools if tool.reads)
        self._schemas: dict[tuple[str, ...], str] = {}

    def plus(self, *tools: Tool) -> Registry:
        """These tools and ``tools`` after them (a test or a plug-in adds one this way)."""
        return Registry(self.tools + tools)

    def get(self, name: str) -> Tool | None:
        return self._by_name.get(name)

    def ran(self, names: Iterable[str]) -> list[Tool]:
        """The tools of these names, in order; a name no tool has (a model's typo) is left out."""
        return [tool for tool in map(self.get, names) if tool is not None]

    def status(self, name: str, lang: str) -> str:
        status = tool.status if (tool := self.get(name)) is not None else WORKING
        return render(status, lang) if isinstance(status, str) else status.text(lang)

    def schemas(self, calendar_names: list[str]) -> list[dict[str, Any]]:
        """OpenAI-style tool list. Only ``calendarName``'s enum varies, and only per user.

        Built once per calendar list (pydantic schema generation is the slow part of a turn)
        and handed out as a fresh copy, so a caller can never alter the cached prefix."""
        key = tuple(calendar_names)
        text = self._schemas.get(key)
        if text is None:
            tools = []
            for tool in self.tools:
                parameters = tool.parameters()
                if "calendarName" in parameters["properties"] and calendar_names:
                    parameters["properties"]["calendarName"]["enum"] = list(calendar_names)
                tools.append(
                    {
                        "type": "function",
                        "function": {"name": tool.name, "description": tool.description, "parameters": parameters},
                    }
                )
            text = json.dumps(tools, ensure_ascii=False)
            if len(self._schemas) >= 32:
                self._schemas.clear()
            self._schemas[key] = text
        result: list[dict[str, Any]] = json.loads(text)
        return result


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Pydantic's schema, minus titles and the ``anyOf [.., null]`` of optional fields:
    an optional argument is simply not required, which small grammars handle better."""
    properties: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        prop = dict(prop)
        prop.pop("title", None)
        prop.pop("default", None)
        if "anyOf" in prop:
            options = [option for option in prop.pop("anyOf") if option.get("type") != "null"]
            if len(options) == 1:
                prop = {**options[0], **prop}
        # What the model reads: type, enum, a few words. The pattern rides along privately for
        # the llama grammar (backends strip ``x-`` keys before the model sees the schema);
        # bounds are left to validation, whose message the model reads on a retry.
        if "pattern" in prop:
            prop["x-pattern"] = prop.pop("pattern")
        for bound in ("minLength", "maxLength", "minimum", "maximum"):
            prop.pop(bound, None)
        properties[name] = prop
    result: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if schema.get("required"):
        result["required"] = list(schema["required"])
    return result


def validation_message(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(item) for item in error.get("loc", ())) or "arguments"
        if error.get("type") == "extra_forbidden":
            parts.append(f"unknown argument '{where}' (not part of this tool)")
        else:
            parts.append(f"{where}: {error.get('msg')}")
    return "; ".join(parts)


@dataclass
class ParsedCall:
    """One tool call of the model, its arguments parsed once.

    ``text`` is the JSON the turn logs and reports (the model's, or the model's with the
    clarification parser's slots applied); ``data`` is the object read from it, or None with
    ``error`` saying why it is not one (the model reads that on a retry)."""

    id: str
    name: str
    text: str
    data: dict[str, Any] | None
    error: str | None = None

    @classmethod
    def parse(cls, call_id: str, name: str, arguments: str | dict[str, Any]) -> ParsedCall:
        if isinstance(arguments, dict):
            return cls(call_id, name, json.dumps(arguments, ensure_ascii=False), dict(arguments))
        try:
            raw = json.loads(arguments)
            if raw is None:
                raw = {}
            if not isinstance(raw, dict):
                raise ValueError("arguments must be a JSON object")
        except ValueError as exc:
            return cls(call_id, name, arguments, None, f"arguments are not valid JSON: {exc}")
        return cls(call_id, name, arguments, raw)

    def patched(self, values: dict[str, str]) -> ParsedCall:
        """These slots win over the model's (a clarification the parser read); a call whose
        arguments are empty or unreadable is left as it is."""
        if not self.data:
            return self
        data = self.data | values
        return ParsedCall(self.id, self.name, json.dumps(data, ensure_ascii=False), data)


@dataclass
class Toolset:
    """The tools of one request, bound to one profile's services."""

    registry: Registry
    deps: ToolDeps
    schemas: list[dict[str, Any]] = field(default_factory=list)  # what the model is offered

    def call(self, call: ParsedCall) -> ToolResult:
        name = call.name
        tool = self.registry.get(name)
        if tool is None:
            available = ", ".join(self.registry.names)
            error = f"unknown tool '{name}'; available: {available}"
            return ToolResult(name=name, ok=False, payload={"error": error}, retry=True)
        if call.data is None:
            error = call.error or "arguments are not valid JSON"
            return ToolResult(name=name, ok=False, payload={"error": error}, retry=True)
        try:
            args = tool.args.model_validate(call.data)
        except ValidationError as exc:
            return ToolResult(name=name, ok=False, payload={"error": validation_message(exc)}, retry=True)
        result = tool.handler(self.deps, args)
        result.name = tool.name  # stamped here: a handler never repeats its own name
        result.terminal = tool.terminal and not result.retry
        return result
