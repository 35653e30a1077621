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


class CreateArgs(_Args):
    title: str = Field(min_length=1, max_length=200, description="Short event title in the user's words, without the date/time words.")
    dateExpression: str | None = Field(
        default=None,
        pattern=DATE_OR_INSTANT_PATTERN,
        description="Date symbol (see the time symbols), or an instant like D+1T15:00. Omit only when "
        "continuing a pending command whose day stays the same (or when the user named no day: code asks).",
    )
    time: str | None = Field(default=None, pattern=TIME_PATTERN, description="Start time HH:MM (24 h). Omit for an all-day event.")
    endTime: str | None = Field(default=None, pattern=TIME_PATTERN, description="End time HH:MM, only if the user said when it ends.")
    durationMinutes: int | None = Field(default=None, ge=1, le=10080, description="Length in minutes, only if the user said how long.")
    calendarName: str | None = Field(default=None, description="One of the user's calendars; omit when unsure.")
    allowConflict: bool | None = Field(default=None, description="True only when the user, told about a conflict, says to create it anyway.")
    repeat: Repeat | None = Field(default=None, description="Only for a repeating event (每周五, every day); follows the start date.")
    repeatUntil: str | None = Field(default=None, max_length=40, description="Last day of the series (date symbol).")
    repeatCount: int | None = Field(default=None, ge=1, le=1000, description="Number of times, if the user said.")
    reminderMinutes: int | None = Field(default=None, ge=0, le=40320, description="Remind this many minutes before.")
    location: str | None = Field(default=None, max_length=200)
    notes: str | None = Field(default=None, max_length=2000)


class _TargetArgs(_Args):
    """Which event: the user's own words for it. Code finds it; the model never sees an id.

    The date fields carry no schema pattern (each would add ~250 prompt tokens); code
    resolves them and a bad symbol goes back to the model as a retry with the reason."""

    targetTitle: str | None = Field(default=None, max_length=200, description="The user's words for the event (会, 健身); omit if the day has one event.")
    targetDate: str | None = Field(default=None, max_length=40, description="Its day, if the user named one.")
    targetTime: str | None = Field(default=None, pattern=TIME_PATTERN, description="Its start time HH:MM, if named.")
    scope: Scope | None = Field(default=None, description="For a repeating event: this (default), following, or all.")


class UpdateArgs(_TargetArgs):
    newDate: str | None = Field(default=None, max_length=40, description="New day (date symbol).")
    newTime: str | None = Field(default=None, pattern=TIME_PATTERN, description="New start HH:MM.")
    newEndTime: str | None = Field(default=None, pattern=TIME_PATTERN)
    durationMinutes: int | None = Field(default=None, ge=1, le=10080)
    newTitle: str | None = Field(default=None, max_length=200)
    calendarName: str | None = Field(default=None, description="Move it to this calendar.")
    location: str | None = Field(default=None, max_length=200)
    notes: str | None = Field(default=None, max_length=2000)
    reminderMinutes: int | None = Field(default=None, ge=0, le=40320)
    completed: bool | None = Field(default=None, description="True to mark it done.")


class DeleteArgs(_TargetArgs):
    pass


class QueryArgs(_Args):
    startExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description="Start of the range (inclusive).")
    endExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN, description="End of the range: the END of this symbol is the range end (D+1..D+1 = all of tomorrow).")
    incompleteOnly: bool | None = Field(default=None, description="True only when the user asks for unfinished items.")


class FreeTimeArgs(_Args):
    startExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN)
    endExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN)
    durationMinutes: int | None = Field(default=None, ge=5, le=1440, description="How long the free slot must be; default 60.")


class CancelArgs(_Args):
    pass


class RememberArgs(_Args):
    fact: str = Field(min_length=1, max_length=1000, description="The fact to remember, in the user's words.")


class CouncilArgs(_Args):
    topic: str = Field(min_length=1, max_length=200, description="What the advisors would look at.")
    startExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN)
    endExpression: str = Field(pattern=DATE_OR_INSTANT_PATTERN)


class SearchArgs(_Args):
    query: str = Field(min_length=1, max_length=200, description="Words to look for (Chinese substrings work).")


CALENDAR_CHOICE = (
    "Calendar choice: first use evidence in the context (a conflicting 休假/vacation event, other "
    "items that day), then the meaning of the words (回老家/陪家人 -> a family calendar, 健身 -> "
    "sports, 开会/客户 -> work). When unsure, omit calendarName and the default calendar is used."
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
        "Create a calendar event the user wants to add now (future plans: 明天下午三点开会, 'lunch with "
        "Amy on Friday'). Never for past-tense remarks or questions. Code checks dates, conflicts and "
        "duplicates and may ask the user to pick a day or confirm. " + CALENDAR_CHOICE,
        True,
    ),
    ToolSpec(
        "update_schedule",
        UpdateArgs,
        "Change an existing event: move it (day/time), rename, change calendar, place, notes, reminder, or "
        "mark it done. Give only the fields that change.",
        True,
    ),
    ToolSpec("delete_schedule", DeleteArgs, "Delete or cancel an existing event.", True),
    ToolSpec(
        "query_schedule_range",
        QueryArgs,
        "Read the user's events in a range (本周有什么安排, 'what's on tomorrow'). Read-only.",
        True,
    ),
    ToolSpec("suggest_free_time", FreeTimeArgs, "Find free time within working hours in a range. Read-only.", True),
    ToolSpec(
        "cancel_schedule_command",
        CancelArgs,
        "Drop the pending (not yet created) event request when the user gives up on it (算了，不建了).",
        True,
    ),
    ToolSpec("remember_fact", RememberArgs, "Save a fact the user explicitly asks you to remember (请记住...).", True),
    ToolSpec(
        "offer_council",
        CouncilArgs,
        "Offer a review of the user's schedule by three advisors when they ask for advice about a busy "
        "period; the user accepts with a short yes.",
        True,
    ),
    ToolSpec("search_memory", SearchArgs, "Look up facts the user asked you to remember (birthdays, preferences).", False),
    ToolSpec("search_chat_archive", SearchArgs, "Search older conversation not shown in the context.", False),
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
