"""The model's tools: typed argument models, their JSON schemas, and per-request closures.

Schemas are derived from the pydantic models (``extra="forbid"`` gives
``additionalProperties: false``) and the symbol patterns come from the one grammar module.
No tool has a user, profile or account parameter: ``build_toolset`` closes over the
services of the active profile, so a model cannot even name another profile.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.runtime.fence import as_data
from agent.timesym.grammar import RANGE_BOUND_PATTERN, TIME_PATTERN

DATE_OR_INSTANT_PATTERN = RANGE_BOUND_PATTERN
Repeat = Literal["DAILY", "WEEKDAYS", "WEEKLY", "BIWEEKLY", "MONTHLY", "YEARLY", "LUNAR_YEARLY"]
Scope = Literal["this", "following", "all"]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# The model reads each argument described once, in words; the patterns and bounds below are
# enforced by pydantic (a violation goes back to the model as a retry with the reason) and by
# the llama grammar (``x-pattern`` in the schema), not repeated in the text the model reads.
DATE = "date symbol"


class CreateArgs(_Args):
    title: str = Field(min_length=1, max_length=200, description="in the user's words, no date/time words")
    dateExpression: str | None = Field(
        default=None,
        pattern=DATE_OR_INSTANT_PATTERN,
        description=DATE + " or instant (D+1T15:00); omit when a pending command keeps its day",
    )
    time: str | None = Field(default=None, pattern=TIME_PATTERN, description="HH:MM; omit for all-day")
    endTime: str | None = Field(default=None, pattern=TIME_PATTERN, description="HH:MM, only if said")
    durationMinutes: int | None = Field(default=None, ge=1, le=10080, description="only if said")
    calendarName: str | None = Field(default=None, description="omit when unsure")
    allowConflict: bool | None = Field(default=None, description="only after a conflict, if the user says create anyway")
    repeat: Repeat | None = Field(default=None, description="only for a repeating event; follows the start date")
    repeatUntil: str | None = Field(default=None, max_length=40, description="last day, " + DATE)
    repeatCount: int | None = Field(default=None, ge=1, le=1000)
    reminderMinutes: int | None = Field(default=None, ge=0, le=40320, description="minutes before")
    location: str | None = Field(default=None, max_length=200)
    notes: str | None = Field(default=None, max_length=2000)


class _TargetArgs(_Args):
    """Which event: the user's own words for it. Code finds it; the model never sees an id.

    The date fields carry no pattern: code resolves them and a bad symbol goes back to the
    model as a retry with the reason."""

    targetTitle: str | None = Field(default=None, max_length=200, description="user's words for the event; omit if the day has one")
    targetDate: str | None = Field(default=None, max_length=40, description=DATE)
    targetTime: str | None = Field(default=None, pattern=TIME_PATTERN, description="HH:MM")
    scope: Scope | None = Field(default=None, description="for a repeating event; default this")


class UpdateArgs(_TargetArgs):
    newDate: str | None = Field(default=None, max_length=40, description=DATE)
    newTime: str | None = Field(default=None, pattern=TIME_PATTERN)
    newEndTime: str | None = Field(default=None, pattern=TIME_PATTERN)
    durationMinutes: int | None = Field(default=None, ge=1, le=10080)
    newTitle: str | None = Field(default=None, max_length=200)
    calendarName: str | None = Field(default=None)
    location: str | None = Field(default=None, max_length=200)
    notes: str | None = Field(default=None, max_length=2000)
    reminderMinutes: int | None = Field(default=None, ge=0, le=40320)
    completed: bool | None = Field(default=None, description="true: mark done")


class DeleteArgs(_TargetArgs):
    pass


class QueryArgs(_Args):
    startExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description=DATE)
    endExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description=DATE + "; its end ends the range")
    incompleteOnly: bool | None = Field(default=None, description="only if asked for unfinished items")


class FreeTimeArgs(_Args):
    startExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description=DATE)
    endExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description=DATE)
    durationMinutes: int | None = Field(default=None, ge=5, le=1440, description="default 60")


class CancelArgs(_Args):
    pass


class RememberArgs(_Args):
    fact: str = Field(min_length=1, max_length=1000, description="in the user's words")


class CouncilArgs(_Args):
    topic: str = Field(min_length=1, max_length=200)
    startExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description=DATE)
    endExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description=DATE)


class SearchArgs(_Args):
    query: str = Field(min_length=1, max_length=200)


CALENDAR_CHOICE = (
    "Calendar: use evidence in the context first (a conflicting 休假/vacation event), then the words "
    "(回老家/陪家人 -> a family calendar, 健身 -> sports, 开会/客户 -> work)."
)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    args: type[_Args]
    description: str
    terminal: bool


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "prepare_or_create_schedule",
        CreateArgs,
        "Add a future event the user asks for (明天下午三点开会). Code checks dates, conflicts and "
        "duplicates and may ask the user. " + CALENDAR_CHOICE,
        True,
    ),
    ToolSpec("update_schedule", UpdateArgs, "Change an existing event; give only what changes.", True),
    ToolSpec("delete_schedule", DeleteArgs, "Delete or cancel an existing event.", True),
    ToolSpec("query_schedule_range", QueryArgs, "Read the events in a range (本周有什么安排).", True),
    ToolSpec("suggest_free_time", FreeTimeArgs, "Find free time in a range.", True),
    ToolSpec("cancel_schedule_command", CancelArgs, "Drop the pending request (算了，不建了).", True),
    ToolSpec("remember_fact", RememberArgs, "Save a fact the user asks you to remember (请记住…).", True),
    ToolSpec("offer_council", CouncilArgs, "Offer three advisors' review of a busy period; the user accepts with yes.", True),
    ToolSpec("search_memory", SearchArgs, "Look up remembered facts.", False),
    ToolSpec("search_chat_archive", SearchArgs, "Search older conversation.", False),
)
SPEC_BY_NAME = {spec.name: spec for spec in SPECS}
TOOL_NAMES = tuple(SPEC_BY_NAME)
TERMINAL = frozenset(spec.name for spec in SPECS if spec.terminal)


def _clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
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


@lru_cache(maxsize=32)
def _schemas_json(calendar_names: tuple[str, ...]) -> str:
    tools = []
    for spec in SPECS:
        parameters = _clean_schema(spec.args.model_json_schema())
        if "calendarName" in parameters["properties"] and calendar_names:
            parameters["properties"]["calendarName"]["enum"] = list(calendar_names)
        tools.append({"type": "function", "function": {"name": spec.name, "description": spec.description, "parameters": parameters}})
    return json.dumps(tools, ensure_ascii=False)


def tool_schemas(calendar_names: list[str]) -> list[dict[str, Any]]:
    """OpenAI-style tool list. Only ``calendarName``'s enum varies, and only per user.

    Built once per calendar list (pydantic schema generation is the slow part of a turn)
    and handed out as a fresh copy, so a caller can never alter the cached prefix."""
    return json.loads(_schemas_json(tuple(calendar_names)))


@dataclass
class ToolResult:
    """What a tool did. ``retry`` results go back to the model; others end the turn
    (terminal tools) or feed the next model call (intermediate tools)."""

    name: str
    ok: bool
    payload: dict[str, Any]
    retry: bool = False
    terminal: bool = False
    value: Any = None  # the service object (Outcome, RangeResult ...) for receipts

    def for_model(self) -> str:
        """The result as the model reads it: fenced as data (it may quote stored text)."""
        return as_data(self.name, json.dumps(self.payload, ensure_ascii=False, default=str))


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
class Toolset:
    """The tools of one request, bound to one profile's services."""

    handlers: dict[str, Callable[[Any], ToolResult]]
    calendar_names: list[str]
    schemas: list[dict[str, Any]] = field(default_factory=list)

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        spec = SPEC_BY_NAME.get(name)
        if spec is None or name not in self.handlers:
            return ToolResult(name, False, {"error": f"unknown tool '{name}'; available: {', '.join(TOOL_NAMES)}"}, retry=True)
        try:
            raw = json.loads(arguments) if isinstance(arguments, str) else arguments
            if raw is None:
                raw = {}
            if not isinstance(raw, dict):
                raise ValueError("arguments must be a JSON object")
            args = spec.args.model_validate(raw)
        except (ValueError, ValidationError) as exc:
            message = validation_message(exc) if isinstance(exc, ValidationError) else f"arguments are not valid JSON: {exc}"
            return ToolResult(name, False, {"error": message}, retry=True)
        result = self.handlers[name](args)
        result.terminal = spec.terminal and not result.retry
        return result
