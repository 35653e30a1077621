"""The tool handlers of one request, as closures over one profile's services.

Nothing a model sends can choose the profile: the handlers below were built for it before
the model was called. A handler's error that the model can fix (a bad symbol, an end before
the start) comes back as a ``retry`` result; the model sees the message and tries again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time
from typing import Any

from agent.errors import UserFacingError
from agent.runtime.grounding import Grounding, check_create, title_reasons
from agent.timesym.clarify import date_mentions
from agent.runtime.tools import (
    CancelArgs,
    CouncilArgs,
    CreateArgs,
    DeleteArgs,
    FreeTimeArgs,
    QueryArgs,
    RememberArgs,
    SearchArgs,
    Toolset,
    ToolResult,
    UpdateArgs,
    tool_schemas,
)
from agent.services.chat_edits import ChatEditService
from agent.services.archive import ArchiveService
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.services.queries import QueryService
from agent.store.db import Store
from agent.timesym.context import TimeContext
from agent.timesym.resolve import SymbolError, resolve, resolve_range


def build_toolset(
    store: Store,
    profile_id: int,
    ctx: TimeContext,
    commands: CommandService,
    memory: MemoryService,
    archive: ArchiveService,
    calendar_names: list[str],
    grounding: Grounding | None = None,
    edits: ChatEditService | None = None,
) -> Toolset:
    """``grounding`` holds the user's words this turn and the pending command; what the
    search tools return is added to it as they run, and every create is checked against it
    (``agent/runtime/grounding.py``) before anything is written."""
    queries = QueryService(store, profile_id, ctx)
    found: list[str] = []

    def check(title: str, day: date | None, start: time | None) -> list[str]:
        if grounding is None:
            return []
        return check_create(title, day, grounding.with_found(found), ctx, start).reasons

    def fail(name: str, exc: Exception) -> ToolResult:
        return ToolResult(name, False, {"error": str(exc)}, retry=True)

    def create(args: CreateArgs) -> ToolResult:
        outcome = commands.prepare_or_create(
            args.title,
            args.dateExpression,
            time=args.time,
            end_time=args.endTime,
            duration_minutes=args.durationMinutes,
            calendar_name=args.calendarName,
            allow_conflict=bool(args.allowConflict),
            check=check,
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

    edit_service = edits or ChatEditService(store, profile_id, ctx, commands.facts)

    def change(name: str, op: str, args: UpdateArgs | DeleteArgs) -> ToolResult:
        raw = args.model_dump(exclude_none=True)
        reasons = edit_reasons(op, raw, grounding, ctx) if grounding is not None else []
        try:
            outcome = edit_service.request(op, raw, reasons)
        except UserFacingError as exc:
            return fail(name, exc)
        return ToolResult(name, True, outcome.to_json(), value=outcome)

    def query(args: QueryArgs) -> ToolResult:
        try:
            result = queries.range(args.startExpression, args.endExpression, incomplete_only=bool(args.incompleteOnly))
        except UserFacingError as exc:
            return fail("query_schedule_range", exc)
        return ToolResult("query_schedule_range", True, result.to_json(), value=result)

    def free(args: FreeTimeArgs) -> ToolResult:
        try:
            slots = queries.free_slots(args.startExpression, args.endExpression, args.durationMinutes or 60)
        except UserFacingError as exc:
            return fail("suggest_free_time", exc)
        return ToolResult("suggest_free_time", True, {"slots": [slot.to_json() for slot in slots]}, value=slots)

    def cancel(args: CancelArgs) -> ToolResult:
        outcome = commands.cancel_active()
        return ToolResult("cancel_schedule_command", True, outcome.to_json(), value=outcome)

    def remember(args: RememberArgs) -> ToolResult:
        # A memory is a write too: its words must be the user's own this turn, never only
        # text the store handed the model (an event SUMMARY saying "remember that ...").
        if grounding is not None and title_reasons(args.fact, Grounding(grounding.user_text)):
            return ToolResult("remember_fact", False, {"error": "not in the user's words", "fact": args.fact}, value=None)
        try:
            saved = memory.remember(args.fact)
        except UserFacingError as exc:
            return fail("remember_fact", exc)
        return ToolResult("remember_fact", True, saved.to_json(), value=saved)

    def council(args: CouncilArgs) -> ToolResult:
        try:
            start, end = resolve_range(args.startExpression, args.endExpression, ctx)
        except UserFacingError as exc:
            return fail("offer_council", exc)
        offer = {"topic": args.topic, "start": start.isoformat(), "end": end.isoformat()}
        return ToolResult("offer_council", True, offer, value=offer)

    def search_memory(args: SearchArgs) -> ToolResult:
        memories = memory.search(args.query)
        found.extend(m.text for m in memories)
        return ToolResult("search_memory", True, {"memories": [m.text for m in memories]})

    def search_archive(args: SearchArgs) -> ToolResult:
        messages = archive.search(args.query)
        found.extend(m.content[:500] for m in messages)
        return ToolResult(
            "search_chat_archive",
            True,
            {"messages": [{"role": m.role, "at": m.created_at.isoformat(), "content": m.content[:500]} for m in messages]},
        )

    handlers: dict[str, Callable[[Any], ToolResult]] = {
        "prepare_or_create_schedule": create,
        "update_schedule": lambda args: change("update_schedule", "update", args),
        "delete_schedule": lambda args: change("delete_schedule", "delete", args),
        "query_schedule_range": query,
        "suggest_free_time": free,
        "cancel_schedule_command": cancel,
        "remember_fact": remember,
        "offer_council": council,
        "search_memory": search_memory,
        "search_chat_archive": search_archive,
    }
    return Toolset(handlers=handlers, calendar_names=calendar_names, schemas=tool_schemas(calendar_names))


#: Fields of an edit whose words must be the user's own this turn (rule 1 of grounding.py).
EDIT_WORD_FIELDS = ("targetTitle", "newTitle", "location", "notes")


#: Words that say "change" / "delete" in a message. Their absence does not decide anything:
#: it only makes code ask before the write ("明天的周会是几点？" with a delete call asks).
CHANGE_WORDS = (
    "改", "挪", "移", "换", "推", "提前", "延", "调", "放到", "放在", "标记", "完成", "做完", "搞定", "好了", "提醒", "叫",
    "地点", "备注", "加上", "设", "定在", "定到", "move", "change", "reschedul", "push", "shift", "rename", "mark", "done",
    "remind", "set", "put", "postpone", "delay", "bring", "make it", "switch", "update", "call it", "finished", "complete",
)
DELETE_WORDS = (
    "删", "取消", "去掉", "不去", "不要", "不用", "不参加", "不开", "撤", "清", "移除", "划掉", "拿掉", "算了", "不办", "不做", "不约",
    "cancel", "delet", "remov", "drop", "clear", "call off", "scrap", "skip", "not going", "won't", "get rid",
)


def edit_reasons(op: str, args: dict[str, Any], grounding: Grounding, ctx: TimeContext) -> list[str]:
    """Reasons to ask before an edit: a message with no word for the change at all, a target
    or new value the user did not write this turn (the title-units rule of ``grounding.py``,
    against the message and the pending command), or a day that contradicts the exact days
    the message names. The latch adds a question; it never decides to write."""
    reasons: list[str] = []
    folded = grounding.user_text.casefold()
    words = DELETE_WORDS if op == "delete" else CHANGE_WORDS
    if grounding.user_text and not any(word in folded for word in words):
        reasons.append("not_from_user:action")
    own = Grounding(grounding.user_text, grounding.stub_title)
    for key in EDIT_WORD_FIELDS:
        value = args.get(key)
        if isinstance(value, str) and value.strip() and title_reasons(value, own):
            reasons.append(f"not_from_user:{key}")
    mentions = date_mentions(grounding.user_text, ctx)
    allowed = {day for mention in mentions for day in mention.days}
    exact = [mention for mention in mentions if mention.exact]
    for key in ("targetDate", "newDate"):
        symbol = args.get(key)
        if not symbol:
            continue
        try:
            days = set(resolve(str(symbol), ctx).candidates)
        except SymbolError:
            continue  # the service reports the bad symbol to the model
        if exact and days and not days & allowed:
            reasons.append(f"date_contradicts:{exact[0].text}")
        elif key == "newDate" and not mentions:
            reasons.append("not_from_user:newDate")
    return reasons
