"""The model's tools, one ``Tool`` object each: arguments, handler, receipt, status label.

Adding a tool touches this file and its test (``docs/adding-a-tool.md``): an argument
model, a handler ``(deps, args) -> ToolResult``, for a terminal tool a receipt writer, and
one ``Tool(...)`` in ``TOOLS``. The machinery (parsing a call once, validation, schemas,
the registry) is ``agent/runtime/toolkit.py``.

Schemas are derived from the pydantic models (``extra="forbid"`` gives
``additionalProperties: false``) and the symbol patterns come from the one grammar module.
No tool has a user, profile or account parameter: handlers get the services of the active
profile (``ToolDeps``), so a model cannot even name another profile. Tool names and their
schemas are a contract with the model (``tests`` pin them; ``richeng prompt`` prints them).
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent.errors import UserFacingError
from agent.runtime import receipts as R
from agent.runtime.edit_receipts import edit_outcome_name, edit_receipt
from agent.runtime.grounding import Grounding, bulk_word, edit_reasons, target_reasons, title_reasons, value_check
from agent.runtime.toolkit import Receipt, Registry, Tool, ToolDeps, ToolResult
from agent.store.occurrence import Occurrence
from agent.timesym.grammar import RANGE_BOUND_PATTERN, TIME_PATTERN
from agent.timesym.resolve import resolve_range

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

    targetTitle: str | None = Field(
        default=None, max_length=200, description="user's words for the event; omit if the day has one"
    )
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


def _fail(name: str, exc: Exception) -> ToolResult:
    """An error the model can fix (a bad symbol, an end before the start): it retries."""
    return ToolResult(name, False, {"error": str(exc)}, retry=True)


# ---- prepare_or_create_schedule ----------------------------------------------------------


def _create(deps: ToolDeps, args: CreateArgs) -> ToolResult:
    outcome = deps.commands.prepare_or_create(
        args.title,
        args.dateExpression,
        time=args.time,
        end_time=args.endTime,
        duration_minutes=args.durationMinutes,
        calendar_name=args.calendarName,
        allow_conflict=bool(args.allowConflict),
        check=deps.check,
        repeat=args.repeat,
        repeat_until=args.repeatUntil,
        repeat_count=args.repeatCount,
        reminder_minutes=args.reminderMinutes,
        location=args.location,
        notes=args.notes,
    )
    if outcome.status == "invalid":
        return ToolResult("prepare_or_create_schedule", False, {"error": outcome.message}, retry=True, value=outcome)
    return ToolResult("prepare_or_create_schedule", True, outcome.to_json(), value=outcome)


def _outcome_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(R.outcome_receipt(result.value, lang), result.value.status, result.value)


# ---- update_schedule / delete_schedule ---------------------------------------------------


def _change(name: str, op: str, deps: ToolDeps, args: UpdateArgs | DeleteArgs) -> ToolResult:
    raw = args.model_dump(exclude_none=True)
    grounding = deps.grounding
    reasons = edit_reasons(op, raw, grounding, deps.ctx) if grounding is not None else []

    def check(occ: Occurrence, scope: str) -> tuple[list[str], dict[str, Any]]:
        if grounding is None:
            return [], {}
        recurring = occ.recurrence_id is not None
        reasons = target_reasons(occ.title, occ.start, recurring, scope, raw, grounding, deps.ctx)
        values, offer = value_check(occ.start, raw, grounding, deps.ctx)
        return reasons + values, offer

    word = bulk_word(grounding.user_text) if grounding is not None else None
    if len(deps.writes) > 1 or word:  # bulk: one confirmation listing every event, never a direct write
        calls = [
            ("delete" if name == "delete_schedule" else "update", dict(args))
            for name, args in deps.writes
            if name in ("update_schedule", "delete_schedule")
        ] or [(op, raw)]
        try:
            return ToolResult(
                name,
                True,
                (bulk := deps.edits.request_bulk(calls, reasons + [f"bulk:{word or len(deps.writes)}"])).to_json(),
                value=bulk,
            )
        except UserFacingError as exc:
            return _fail(name, exc)
    try:
        outcome = deps.edits.request(op, raw, reasons, check)
    except UserFacingError as exc:
        return _fail(name, exc)
    return ToolResult(name, True, outcome.to_json(), value=outcome)


def _update(deps: ToolDeps, args: UpdateArgs) -> ToolResult:
    return _change("update_schedule", "update", deps, args)


def _delete(deps: ToolDeps, args: DeleteArgs) -> ToolResult:
    return _change("delete_schedule", "delete", deps, args)


def _edit_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    answered = result.value.status == "answered"  # code read the store to answer a question
    return Receipt(edit_receipt(result.value, lang), edit_outcome_name(result.value), result.value, read=answered)


# ---- reading ------------------------------------------------------------------------------


def _query(deps: ToolDeps, args: QueryArgs) -> ToolResult:
    try:
        result = deps.queries.range(args.startExpression, args.endExpression, incomplete_only=bool(args.incompleteOnly))
    except UserFacingError as exc:
        return _fail("query_schedule_range", exc)
    return ToolResult("query_schedule_range", True, result.to_json(), value=result)


def _query_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(R.range_receipt(result.value, lang), "query", result.value, read=True)


def _free(deps: ToolDeps, args: FreeTimeArgs) -> ToolResult:
    try:
        slots = deps.queries.free_slots(args.startExpression, args.endExpression, args.durationMinutes or 60)
    except UserFacingError as exc:
        return _fail("suggest_free_time", exc)
    return ToolResult("suggest_free_time", True, {"slots": [slot.to_json() for slot in slots]}, value=slots)


def _free_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(R.free_receipt(result.value, lang, today), "free_time", result.value, read=True)


# ---- the pending command, memory, the council ---------------------------------------------


def _cancel(deps: ToolDeps, args: CancelArgs) -> ToolResult:
    outcome = deps.commands.cancel_active()
    return ToolResult("cancel_schedule_command", True, outcome.to_json(), value=outcome)


def _remember(deps: ToolDeps, args: RememberArgs) -> ToolResult:
    # A memory is a write too: its words must be the user's own this turn, never only
    # text the store handed the model (an event SUMMARY saying "remember that ...").
    if deps.grounding is not None and title_reasons(args.fact, Grounding(deps.grounding.user_text)):
        return ToolResult("remember_fact", False, {"error": "not in the user's words", "fact": args.fact}, value=None)
    try:
        saved = deps.memory.remember(args.fact)
    except UserFacingError as exc:
        return _fail("remember_fact", exc)
    return ToolResult("remember_fact", True, saved.to_json(), value=saved)


def _remember_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    if result.value is None:  # the grounding latch refused words the user did not write
        return Receipt(R.memory_unconfirmed_receipt(str(result.payload.get("fact", "")), lang), "memory_unconfirmed")
    return Receipt(R.memory_receipt(result.value, lang), "memory_saved", result.value)


def _council(deps: ToolDeps, args: CouncilArgs) -> ToolResult:
    try:
        start, end = resolve_range(args.startExpression, args.endExpression, deps.ctx)
    except UserFacingError as exc:
        return _fail("offer_council", exc)
    offer = {"topic": args.topic, "start": start.isoformat(), "end": end.isoformat()}
    return ToolResult("offer_council", True, offer, value=offer)


def _council_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    topic = str(result.payload.get("topic", ""))
    return Receipt(R.council_offer_receipt(topic, lang), "council_offered", result.value, meta={"council_offer": result.payload})


def _search_memory(deps: ToolDeps, args: SearchArgs) -> ToolResult:
    memories = deps.memory.search(args.query)
    deps.found.extend(m.text for m in memories)
    return ToolResult("search_memory", True, {"memories": [m.text for m in memories]})


def _search_archive(deps: ToolDeps, args: SearchArgs) -> ToolResult:
    messages = deps.archive.search(args.query)
    deps.found.extend(m.content[:500] for m in messages)
    return ToolResult(
        "search_chat_archive",
        True,
        {"messages": [{"role": m.role, "at": m.created_at.isoformat(), "content": m.content[:500]} for m in messages]},
    )


# ---- the tools, in the order the model reads them -----------------------------------------

TOOLS = Registry((
    Tool(
        "prepare_or_create_schedule",
        CreateArgs,
        "Add a future event the user asks for (明天下午三点开会). Code checks dates, conflicts and "
        "duplicates and may ask the user. " + CALENDAR_CHOICE,
        True, _create, "Preparing the event…", "正在准备日程…", _outcome_receipt,
    ),
    Tool("update_schedule", UpdateArgs, "Change an existing event; give only what changes.",
         True, _update, "Changing the event…", "正在修改日程…", _edit_receipt),
    Tool("delete_schedule", DeleteArgs, "Delete or cancel an existing event.",
         True, _delete, "Deleting the event…", "正在删除日程…", _edit_receipt),
    Tool("query_schedule_range", QueryArgs, "Read the events in a range (本周有什么安排).",
         True, _query, "Reading your calendar…", "正在查看日历…", _query_receipt),
    Tool("suggest_free_time", FreeTimeArgs, "Find free time in a range.",
         True, _free, "Looking for free time…", "正在找空闲时间…", _free_receipt),
    Tool("cancel_schedule_command", CancelArgs, "Drop the pending request (算了，不建了).",
         True, _cancel, "Cancelling…", "正在取消…", _outcome_receipt),
    Tool("remember_fact", RememberArgs, "Save a fact the user asks you to remember (请记住…).",
         True, _remember, "Remembering…", "正在记住…", _remember_receipt),
    Tool("offer_council", CouncilArgs, "Offer three advisors' review of a busy period; the user accepts with yes.",
         True, _council, "Thinking it over…", "正在考虑…", _council_receipt),
    Tool("search_memory", SearchArgs, "Look up remembered facts.",
         False, _search_memory, "Searching memories…", "正在搜索记忆…"),
    Tool("search_chat_archive", SearchArgs, "Search older conversation.",
         False, _search_archive, "Searching earlier chats…", "正在搜索以前的对话…"),
))  # fmt: skip
TOOL_NAMES = TOOLS.names
TERMINAL = TOOLS.terminal


def tool_schemas(calendar_names: list[str]) -> list[dict[str, Any]]:
    """The tool list every turn sends (``Registry.schemas`` of ``TOOLS``)."""
    return TOOLS.schemas(calendar_names)
