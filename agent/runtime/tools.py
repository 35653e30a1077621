"""The model's tools, one ``Tool`` object each: arguments, handler, receipt, status label,
and what the rest of the code asks about a tool (does it end the turn, what does it write,
which edit does it ask for, does it read the calendar, which intent is it).

Adding a tool touches this file and its tests (``docs/adding-a-tool.md``): an argument
model, a handler ``(deps, args) -> ToolResult``, for a terminal tool a receipt writer, and
one ``Tool(...)`` in ``TOOLS``. The turn, the observations and the evals derive their tool
sets from ``TOOLS`` (``TOOLS.writes`` ...), so nothing else lists the new name. Code that is
about one particular tool reads its name from the object (``CREATE.name``). The machinery
(parsing a call once, validation, schemas, the registry) is ``agent/runtime/toolkit.py``.

Schemas are derived from the pydantic models (``extra="forbid"`` gives
``additionalProperties: false``) and the symbol patterns come from the one grammar module.
No tool has a user, profile or account parameter: handlers get the services of the active
profile (``ToolDeps``), so a model cannot even name another profile. Tool names and their
schemas are a contract with the model (``tests`` pin them; ``richeng prompt`` prints them).
"""

from __future__ import annotations

from datetime import date
from datetime import time as wall_time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent.errors import UserFacingError
from agent.runtime import receipts as R
from agent.runtime.edit_receipts import edit_outcome_name, edit_receipt
from agent.runtime.grounding import (
    Grounding,
    bulk_word,
    check_create,
    edit_reasons,
    target_reasons,
    title_reasons,
    value_check,
)
from agent.runtime.invite_grounding import (
    Invitees,
    ground_people,
    refused_lines,
    reported_reasons,
)
from agent.runtime.invite_respond import RespondArgs, respond
from agent.runtime.repeat_grounding import RepeatSlots, repeat_reasons, until_day
from agent.runtime.repeat_slots import create_rule, pending_slots, slot_notes
from agent.runtime.shared_target import drop_target_pick, shared_reason
from agent.runtime.toolkit import EditOp, Receipt, Registry, Tool, ToolDeps, ToolResult
from agent.services.command_types import GroundingCheck, Outcome
from agent.services.invitations import my_addresses, synced
from agent.store.fields import Person
from agent.store.occurrence import Occurrence
from agent.timesym.grammar import RANGE_BOUND_PATTERN, TIME_PATTERN
from agent.timesym.recurrence import Weekday
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
    repeat: Repeat | None = Field(default=None, description="only for a repeating event")
    repeatDays: list[str] | None = Field(default=None, max_length=14, description="TU,TH; 1MO first Mon; -1FR last Fri")
    repeatInterval: int | None = Field(default=None, ge=1, le=99, description="every N, if said")
    repeatMonthDay: int | None = Field(default=None, ge=-1, le=31, description="-1 last")
    repeatUntil: str | None = Field(default=None, max_length=40, description="last day, " + DATE)
    repeatCount: int | None = Field(default=None, ge=1, le=1000)
    timezone: str | None = Field(default=None, max_length=64, description="IANA, only if said")
    tags: list[str] | None = Field(default=None, max_length=10, description="only if said")
    reminderMinutes: int | None = Field(default=None, ge=0, le=40320, description="minutes before")
    location: str | None = Field(default=None, max_length=200)
    notes: str | None = Field(default=None, max_length=2000)
    invite: list[str] | None = Field(default=None, description="e-mails or names to invite")

    @field_validator("repeatDays")
    @classmethod
    def _weekday_codes(cls, days: list[str] | None) -> list[str] | None:
        """MO…SU with an optional ordinal (1MO, -1FR); the error names the bad item."""
        for day in days or []:
            Weekday.parse(day)
        return days

    @field_validator("repeatMonthDay")
    @classmethod
    def _month_day(cls, day: int | None) -> int | None:
        if day == 0:
            raise ValueError("a day of the month is 1..31, or -1 for the last")
        return day


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


def _fail(exc: Exception) -> ToolResult:
    """An error the model can fix (a bad symbol, an end before the start): it retries."""
    return ToolResult(ok=False, payload={"error": str(exc)}, retry=True)


# ---- prepare_or_create_schedule ----------------------------------------------------------


def _create(deps: ToolDeps, args: CreateArgs) -> ToolResult:
    try:
        rule, rrule_text = create_rule(args.repeat, args.repeatDays, args.repeatInterval, args.repeatMonthDay)
    except ValueError as exc:
        return _fail(exc)
    # Who may be invited: an address in the user's words or a memory read this turn, never
    # one the model made up (agent/runtime/invite_grounding.py).
    invitees = ground_people(args.invite or (), deps.grounding.user_text if deps.grounding else "", deps.memories)
    mine = my_addresses(deps.store, deps.profile_id)  # the user organises: never their own attendee
    invitees.people = [person for person in invitees.people if not any(person.same(address) for address in mine)]
    try:
        outcome = _prepare(
            deps,
            args,
            RepeatSlots(rule, args.repeatCount, args.repeatUntil, args.timezone, tuple(args.tags or ())),
            rrule_text,
            invitees,
        )
    except UserFacingError as exc:  # a read-only calendar: back to the model, nothing written
        return _fail(exc)
    if outcome.status == "invalid":
        return ToolResult(ok=False, payload={"error": outcome.message}, retry=True, value=outcome)
    payload = outcome.to_json() | (invitees.to_json() if args.invite else {})
    return ToolResult(ok=True, payload=payload, value=outcome)


def _prepare(
    deps: ToolDeps, args: CreateArgs, slots: RepeatSlots, rrule_text: str | None, invitees: Invitees | None = None
) -> Outcome:
    """The create round; a write into a read-only calendar raises (``ReadOnlyCalendarError``)."""
    return deps.commands.prepare_or_create(
        args.title,
        args.dateExpression,
        time=args.time,
        end_time=args.endTime,
        duration_minutes=args.durationMinutes,
        calendar_name=args.calendarName,
        allow_conflict=bool(args.allowConflict),
        check=_create_check(deps, slots, args.calendarName, invitees.people if invitees else []),
        # A structured rule goes as RRULE text written by code (the model never writes one);
        # the plain word keeps its own path (WEEKLY follows the start date).
        repeat=None if rrule_text else args.repeat,
        rrule=rrule_text,
        zone=args.timezone,
        repeat_until=args.repeatUntil,
        repeat_count=args.repeatCount,
        reminder_minutes=args.reminderMinutes,
        location=args.location,
        notes=args.notes,
        fields={"categories": args.tags} if args.tags else None,  # the editor's Tags (agent/store/fields.py)
        people=invitees.people if invitees else None,
    )


def _create_check(deps: ToolDeps, slots: RepeatSlots, calendar: str | None, people: list[Person]) -> GroundingCheck:
    """The grounding latch for this create: the title and day (``check_create``) and the
    repeat's parts and zone (``repeat_reasons``), against the user's words this turn; and
    for attendees on a synced calendar, "this will email N people" (only a yes sends)."""

    def check(title: str, day: date | None, start: wall_time | None) -> list[str]:
        stub = deps.commands.active_stub()
        invited = people or list((stub.slots.get("people") or []) if stub is not None else [])
        # The stub's calendar too: asking about one calendar too many is safe, one too few is not.
        names = [calendar or (stub.slots.get("calendar") if stub is not None else None)]
        names += [stub.slots.get("calendar")] if stub is not None and stub.slots.get("calendar") else []
        on_server = any(synced(deps.store, deps.commands.calendars.choose(name).calendar.id) for name in names)
        emails = [f"will_email:{len(invited)}"] if invited and on_server else []
        if deps.grounding is None:
            return emails
        grounding = deps.grounding.with_found(deps.found)
        end = until_day(slots.until, deps.ctx) if slots.until else None
        reasons = check_create(title, day, grounding, deps.ctx, start, series_end=end).reasons
        pending = pending_slots(stub, deps.ctx)
        reported = reported_reasons(grounding.user_text)  # "张三邀请我明天吃饭，好开心": news, not a request
        return reasons + repeat_reasons(slots, pending, grounding.user_text, deps.ctx) + reported + emails

    return check


def _outcome_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    text = R.outcome_receipt(result.value, lang)
    if result.value.status == "unconfirmed":  # what the repeat latch asks about, one line each
        text = "\n".join([text, *slot_notes(result.value.reasons, lang)])
    if result.value.status in ("created", "unconfirmed"):  # who could not be invited, and why
        text = "\n".join([text, *refused_lines(result.payload.get("not_invited") or [], lang)])
    return Receipt(text, result.value.status, result.value)


# ---- update_schedule / delete_schedule ---------------------------------------------------


def _change(op: EditOp, deps: ToolDeps, args: UpdateArgs | DeleteArgs) -> ToolResult:
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
        calls: list[tuple[str, dict[str, Any]]] = [
            (tool.edit, dict(args)) for tool, args in deps.writes if tool.edit in ("update", "delete")
        ] or [(op, raw)]
        try:
            bulk = deps.edits.request_bulk(calls, reasons + [f"bulk:{word or len(deps.writes)}"])
        except UserFacingError as exc:
            return _fail(exc)
        return ToolResult(ok=True, payload=bulk.to_json(), value=bulk)
    if grounding is not None and shared_reason(raw, grounding.user_text, deps.edits.queries, deps.ctx):
        drop_target_pick(raw)  # several events share the words: the user chooses (shared_target.py)
    try:
        outcome = deps.edits.request(op, raw, reasons, check)
    except UserFacingError as exc:
        return _fail(exc)
    return ToolResult(ok=True, payload=outcome.to_json(), value=outcome)


def _update(deps: ToolDeps, args: UpdateArgs) -> ToolResult:
    return _change("update", deps, args)


def _delete(deps: ToolDeps, args: DeleteArgs) -> ToolResult:
    return _change("delete", deps, args)


def _edit_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    answered = result.value.status == "answered"  # code read the store to answer a question
    return Receipt(edit_receipt(result.value, lang), edit_outcome_name(result.value), result.value, read=answered)


# ---- reading ------------------------------------------------------------------------------


def _query(deps: ToolDeps, args: QueryArgs) -> ToolResult:
    try:
        result = deps.queries.range(args.startExpression, args.endExpression, incomplete_only=bool(args.incompleteOnly))
    except UserFacingError as exc:
        return _fail(exc)
    return ToolResult(ok=True, payload=result.to_json(), value=result)


def _query_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(R.range_receipt(result.value, lang), "query", result.value, read=True)


def _free(deps: ToolDeps, args: FreeTimeArgs) -> ToolResult:
    try:
        slots = deps.queries.free_slots(args.startExpression, args.endExpression, args.durationMinutes or 60)
    except UserFacingError as exc:
        return _fail(exc)
    return ToolResult(ok=True, payload={"slots": [slot.to_json() for slot in slots]}, value=slots)


def _free_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    return Receipt(R.free_receipt(result.value, lang, today), "free_time", result.value, read=True)


# ---- the pending command, memory, the council ---------------------------------------------


def _cancel(deps: ToolDeps, args: CancelArgs) -> ToolResult:
    outcome = deps.commands.cancel_active()
    return ToolResult(ok=True, payload=outcome.to_json(), value=outcome)


def _remember(deps: ToolDeps, args: RememberArgs) -> ToolResult:
    # A memory is a write too: its words must be the user's own this turn, never only
    # text the store handed the model (an event SUMMARY saying "remember that ...").
    if deps.grounding is not None and title_reasons(args.fact, Grounding(deps.grounding.user_text)):
        return ToolResult(ok=False, payload={"error": "not in the user's words", "fact": args.fact}, value=None)
    try:
        saved = deps.memory.remember(args.fact)
    except UserFacingError as exc:
        return _fail(exc)
    return ToolResult(ok=True, payload=saved.to_json(), value=saved)


def _remember_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    if result.value is None:  # the grounding latch refused words the user did not write
        return Receipt(R.memory_unconfirmed_receipt(str(result.payload.get("fact", "")), lang), "memory_unconfirmed")
    return Receipt(R.memory_receipt(result.value, lang), "memory_saved", result.value)


def _council(deps: ToolDeps, args: CouncilArgs) -> ToolResult:
    try:
        start, end = resolve_range(args.startExpression, args.endExpression, deps.ctx)
    except UserFacingError as exc:
        return _fail(exc)
    offer = {"topic": args.topic, "start": start.isoformat(), "end": end.isoformat()}
    return ToolResult(ok=True, payload=offer, value=offer)


def _council_receipt(result: ToolResult, lang: str, today: date) -> Receipt:
    topic = str(result.payload.get("topic", ""))
    return Receipt(R.council_offer_receipt(topic, lang), "council_offered", result.value, meta={"council_offer": result.payload})


def _search_memory(deps: ToolDeps, args: SearchArgs) -> ToolResult:
    memories = deps.memory.search(args.query)
    deps.found.extend(m.text for m in memories)
    deps.memories.extend(m.text for m in memories)
    return ToolResult(ok=True, payload={"memories": [m.text for m in memories]})


def _search_archive(deps: ToolDeps, args: SearchArgs) -> ToolResult:
    messages = deps.archive.search(args.query)
    deps.found.extend(m.content[:500] for m in messages)
    found = [{"role": m.role, "at": m.created_at.isoformat(), "content": m.content[:500]} for m in messages]
    return ToolResult(ok=True, payload={"messages": found})


# ---- the tools, in the order the model reads them -----------------------------------------

CREATE = Tool(
    name="prepare_or_create_schedule",
    args=CreateArgs,
    description="Add a future event the user asks for (明天下午三点开会); code checks it. " + CALENDAR_CHOICE,
    handler=_create,
    status="runtime.status.create",
    terminal=True,
    receipt=_outcome_receipt,
    writes="events",
    intent="create",
)
UPDATE = Tool(
    name="update_schedule",
    args=UpdateArgs,
    description="Change an existing event; give only what changes.",
    handler=_update,
    status="runtime.status.update",
    terminal=True,
    receipt=_edit_receipt,
    writes="events",
    edit="update",
    intent="update",
)
DELETE = Tool(
    name="delete_schedule",
    args=DeleteArgs,
    description="Delete or cancel an existing event.",
    handler=_delete,
    status="runtime.status.delete",
    terminal=True,
    receipt=_edit_receipt,
    writes="events",
    edit="delete",
    intent="delete",
)
RESPOND = Tool(
    name="respond_to_invitation",
    args=RespondArgs,
    description="Answer an invitation (接受周五评审会的邀请).",
    handler=respond,
    status="runtime.status.respond",
    terminal=True,
    receipt=_edit_receipt,
    writes="events",
    edit="respond",
    intent="update",
)
QUERY = Tool(
    name="query_schedule_range",
    args=QueryArgs,
    description="Read the events in a range (本周有什么安排).",
    handler=_query,
    status="runtime.status.query",
    terminal=True,
    receipt=_query_receipt,
    reads=True,
    intent="query_range",
)
FREE_TIME = Tool(
    name="suggest_free_time",
    args=FreeTimeArgs,
    description="Find free time in a range.",
    handler=_free,
    status="runtime.status.free_time",
    terminal=True,
    receipt=_free_receipt,
    reads=True,
    intent="query_range",
)
CANCEL = Tool(
    name="cancel_schedule_command",
    args=CancelArgs,
    description="Drop the pending request (算了，不建了).",
    handler=_cancel,
    status="runtime.status.cancel",
    terminal=True,
    receipt=_outcome_receipt,
    writes="pending",
    intent="clarification_reply",
)
REMEMBER = Tool(
    name="remember_fact",
    args=RememberArgs,
    description="Save a fact the user asks you to remember (请记住…).",
    handler=_remember,
    status="runtime.status.remember",
    terminal=True,
    receipt=_remember_receipt,
    writes="memory",
    intent="memory.remember",
)
COUNCIL = Tool(
    name="offer_council",
    args=CouncilArgs,
    description="Offer three advisors' review of a busy period; the user accepts with yes.",
    handler=_council,
    status="runtime.status.council",
    terminal=True,
    receipt=_council_receipt,
    intent="council",
)
SEARCH_MEMORY = Tool(
    name="search_memory",
    args=SearchArgs,
    description="Look up remembered facts.",
    handler=_search_memory,
    status="runtime.status.recall",
    intent="memory.search",
)
SEARCH_ARCHIVE = Tool(
    name="search_chat_archive",
    args=SearchArgs,
    description="Search older conversation.",
    handler=_search_archive,
    status="runtime.status.search_chats",
    intent="archive.search",
)

TOOLS = Registry((CREATE, UPDATE, DELETE, RESPOND, QUERY, FREE_TIME, CANCEL, REMEMBER, COUNCIL, SEARCH_MEMORY, SEARCH_ARCHIVE))
TOOL_NAMES = TOOLS.names
TERMINAL = TOOLS.terminal


def tool_schemas(calendar_names: list[str]) -> list[dict[str, Any]]:
    """The tool list every turn sends (``Registry.schemas`` of ``TOOLS``)."""
    return TOOLS.schemas(calendar_names)
