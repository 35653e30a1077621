"""One chat turn: dispatch, council gate, one model request, tools, receipt, guard, record.

``Assistant.stream_turn`` is a generator (tokens and tool events, then ``done``) so the app
can run it in a worker and the CLI and evals can drain it: all three run this same code.
Its result is typed (``TurnResult.receipt`` is the service object the receipt was written
from); JSON is made only at the CLI and eval boundary (``TurnResult.to_json``,
``receipt_payload``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator
from datetime import datetime, timedelta
from typing import Any

from agent.errors import UserFacingError
from agent.models.base import ChatModel, ModelEvent, ModelResponse, ModelUnavailable, reading_view
from agent.runtime import receipts as R
from agent.runtime.calendar_status import calendar_state, status_line
from agent.runtime.council import is_affirmative, pending_offer, run_council
from agent.runtime.edit_receipts import edit_outcome_name, edit_receipt
from agent.runtime.facts_card import answer_claim, card_text, facts_for
from agent.runtime.fence import as_data
from agent.runtime.grounding import Grounding
from agent.runtime.guard import ANSWERED, UNVERIFIED_QUERY, TurnFacts, check_reply
from agent.runtime.observe import infer_intent, record
from agent.runtime.prompt import build_messages, context_block
from agent.runtime.toolkit import ParsedCall, Receipt, Registry, ToolResult, Toolset
from agent.runtime.tools import CREATE, TOOLS
from agent.runtime.toolset import build_toolset
from agent.runtime.turn_types import ReceiptValue, TurnEvent, TurnRequest, TurnResult, TurnState
from agent.services.archive import ArchiveService, Message
from agent.services.calendars import CalendarService
from agent.services.chat_edits import ChatEditService, EditOutcome, EditStub
from agent.services.command_types import Outcome, Stub
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.services.queries import QueryService
from agent.services.settings import SettingsService
from agent.services.wording import confirmation_answer
from agent.store.db import Store
from agent.store.read_only import ReadOnlyCalendars
from agent.timesym.clarify import SlotPatch, parse_slot_reply
from agent.timesym.context import TimeContext

MAX_MODEL_CALLS = 4  # hard cap on model requests (tool iterations) per turn
MAX_RETRIES = 2  # invalid tool calls sent back to the model before the user is asked


class Assistant:
    """The chat agent of one profile. Construct once; call ``stream_turn`` per message."""

    def __init__(
        self,
        store: Store,
        profile_id: int,
        model: ChatModel | None,
        *,
        tz: str | None = None,
        clock: Callable[[], datetime] | None = None,
        tools: Registry | None = None,
    ) -> None:
        self.store = store
        self.profile_id = profile_id
        self.model = model
        self.tools = tools or TOOLS  # the tools offered to the model (``agent/runtime/tools.py``)
        self.settings = SettingsService(store, profile_id)
        self._tz = tz
        self._clock = clock

    def context(self, now: datetime | None = None) -> TimeContext:
        return TimeContext.system(
            now=now or (self._clock() if self._clock else None),
            tz=self._tz or self.settings.timezone_name(),
            holiday_country=str(self.settings.get("holiday_country")),
        )

    def turn(self, text: str, ctx: TimeContext | None = None) -> TurnResult:
        return _drain(self.stream_turn(text, ctx))

    def action(self, kind: str, ctx: TimeContext | None = None, *, date: str | None = None) -> TurnResult:
        """UI buttons on a pending command: pick_date, create_anyway, add_anyway, confirm, cancel;
        on a pending edit: pick_target (``date`` carries the 1-based option number),
        confirm_edit, and cancel.

        They reach the command and edit services directly: zero model calls, same receipts."""
        ctx = ctx or self.context()
        req = self._open(ctx)
        commands, stub, edits, pending, archive = req.commands, req.stub, req.edits, req.pending, req.archive
        last_user = next((m.content for m in reversed(archive.recent(20)) if m.role == "user" and not m.meta.get("action")), "")
        lang = R.language_of(stub.title if stub and pending is None else last_user, self.settings.get("language"))
        state = TurnState(text=f"[{kind}{' ' + date if date else ''}]", ctx=ctx, lang=lang, dispatched=True)
        if pending is not None and kind in ("pick_target", "confirm_edit", "cancel"):
            if kind == "cancel":
                edit = edits.cancel(pending)
            elif kind == "pick_target" and pending.status == "choose":
                edit = edits.pick(pending, int(date) - 1 if date and date.isdigit() else -1)
            elif kind == "confirm_edit" and pending.status != "choose":
                edit = edits.confirm(pending)
            else:
                edit = EditOutcome("none", today=ctx.today)
            archive.append("user", state.text, {"action": kind})
            return self._finish(state, edit_receipt(edit, lang), edit_outcome_name(edit), edit, commands, None)
        if kind in ("pick_target", "confirm_edit"):
            edit = EditOutcome("none", today=ctx.today)
            archive.append("user", state.text, {"action": kind})
            return self._finish(state, edit_receipt(edit, lang), "none", edit, commands, None)
        if kind == "cancel":
            outcome = commands.cancel_active()
        else:
            outcome = commands.continue_active(
                date=date, allow_conflict=kind == "create_anyway", allow_past=kind == "add_anyway"
            ) or Outcome("none")
        archive.append("user", state.text, {"action": kind})
        return self._finish(state, R.outcome_receipt(outcome, lang), outcome.status, outcome, commands, None)

    def next_request(self, text: str = "", ctx: TimeContext | None = None) -> dict[str, Any]:
        """The chat-completions request the next turn would send for ``text`` (``richeng
        prompt``): the same history, context block and tool list ``stream_turn`` builds, with
        tools as a backend sends them (private ``x-`` keys removed). Writes nothing but the
        expiry of a stale pending command, as any turn would."""
        ctx = ctx or self.context()
        req = self._open(ctx)
        history, older = req.archive.segment(int(self.settings.get("session_gap_minutes")))
        names, messages = self._messages(req, ctx, history, older, text)
        return {"messages": messages, "tools": reading_view(self.tools.schemas(names))}

    def warm_messages(self) -> list[dict[str, Any]]:
        """The leading messages the next turn will resend: the system prompt and this
        session's history (``archive.segment``, as ``stream_turn`` reads it), without the
        final user message, which holds the clock and the person's text. A warm-up reads them
        before that message arrives. Reads only."""
        archive = ArchiveService(self.store, self.profile_id, clock=self.context().now)
        history, _older = archive.segment(int(self.settings.get("session_gap_minutes")))
        return build_messages(history, "", "")[:-1]

    def _messages(
        self, req: TurnRequest, ctx: TimeContext, history: list[Message], older: int, text: str
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """The calendar names and the messages of a turn's model request: the history, then
        the context block (clock, calendars, what is pending) with the user's text."""
        calendars = CalendarService(self.store, self.profile_id)
        listed = calendars.list()
        names = [calendar.name for calendar in listed]
        locked = ReadOnlyCalendars(self.store, self.profile_id).ids()
        read_only = [calendar.name for calendar in listed if calendar.id in locked]
        context = context_block(ctx, names, calendars.default().name, req.stub, older, read_only)
        if req.pending is not None:
            context += "\nPending change (the user may answer it): " + as_data("pending_change", _pending_summary(req.pending))
        return names, build_messages(history, context, text)

    # ---- the turn ---------------------------------------------------------------------

    def stream_turn(
        self, text: str, ctx: TimeContext | None = None, should_stop: Callable[[], bool] | None = None
    ) -> Generator[TurnEvent, None, TurnResult]:
        """One message: a reply code can read needs no model (``_dispatch``), an accepted
        council offer runs the council, anything else is the model loop (``_model_loop``)
        with its tool calls (``_run_tools``); every way ends in ``_finish``."""
        ctx = ctx or self.context()
        stop = should_stop or (lambda: False)
        state = TurnState(text=text, ctx=ctx, lang=R.language_of(text, self.settings.get("language")))
        req = self._open(ctx)
        archive = req.archive
        history, older = archive.segment(int(self.settings.get("session_gap_minutes")))
        last = archive.last_assistant()
        archive.append("user", text)

        # 1. Dispatch: a pure slot reply to a pending command needs no model, and neither
        #    does a short yes/no to a write the grounding latch asked about.
        dispatched = self._dispatch(state, req)
        if dispatched is not None:
            yield TurnEvent("done", dispatched.reply, payload=dispatched)
            return dispatched

        # 2. Council gate: only a recorded invitation, only a short yes, only within 30 min.
        offer = pending_offer(last, ctx.now)
        if offer is not None and is_affirmative(text):
            result = yield from self._council(state, offer, req.commands, req.memory)
            return result

        # 3. One model request (plus what intermediate tools need).
        if self.model is None:
            reply = R.unavailable_reply(R.no_model_reason(state.lang), state.lang)
            result = self._finish(state, reply, "model_unavailable", None, req.commands, req.memory)
            yield TurnEvent("done", reply, payload=result)
            return result
        names, messages = self._messages(req, ctx, history, older, text)
        stub, pending = req.stub, req.pending
        # The pending choice grounds too: "都不是，是后天那个" may name an event it listed.
        pending_words = " ".join(str(o.get("title", "")) for o in _pending_options(pending)) if pending is not None else ""
        grounding = Grounding(text, " ".join(part for part in (stub.title if stub is not None else "", pending_words) if part))
        toolset = build_toolset(
            self.store, self.profile_id, ctx, req.commands, req.memory, archive, names, grounding, req.edits, self.tools
        )
        state.timeline.mark("context_build")

        reply, outcome_name, value = yield from self._model_loop(state, toolset, messages, req.patch, stop)
        edited = any(tool.edit is not None for tool in self.tools.ran(state.tools))
        if pending is not None and state.tools and not edited:
            req.edits.supersede()  # the user moved on: a later 好的 must not answer this old question
        result = self._finish(state, reply, outcome_name, value, req.commands, req.memory)
        if result.guard:
            yield TurnEvent("reset")
        yield TurnEvent("done", result.reply, payload=result)
        return result

    def _open(self, ctx: TimeContext) -> TurnRequest:
        """The services of one turn and what is pending (a stale command expires first)."""
        commands = CommandService(self.store, self.profile_id, ctx)
        commands.expire_stale()
        stub = commands.active_stub()
        edits = ChatEditService(self.store, self.profile_id, ctx, commands.facts)
        return TurnRequest(
            commands=commands,
            memory=MemoryService(self.store, self.profile_id),
            archive=ArchiveService(self.store, self.profile_id, clock=ctx.now),
            edits=edits,
            stub=stub,
            pending=_newer_edit(edits.active(), stub),
        )

    def _dispatch(self, state: TurnState, req: TurnRequest) -> TurnResult | None:
        """A reply code can read, with zero model calls: an answer to a pending edit ("第二个",
        "10点那个", 是 / 不用), a slot reply or a yes/no to a pending command. None: it goes on
        to the model (``req.patch`` then carries the slots the reply filled)."""
        text, ctx = state.text, state.ctx
        commands, stub, pending = req.commands, req.stub, req.pending
        if pending is not None:
            edit = req.edits.answer(pending, text)
            if edit is not None:
                state.dispatched = True
                state.timeline.mark("tool_execution")
                return self._finish(state, edit_receipt(edit, state.lang), edit_outcome_name(edit), edit, commands, req.memory)
        req.patch = patch = parse_slot_reply(text, ctx)
        answer = confirmation_answer(text) if stub is not None and stub.status == "unconfirmed" else None
        if stub is None or pending is not None or (patch is None and answer is None):
            return None
        state.dispatched = True
        if answer is False:
            outcome = commands.cancel_active()
        elif patch is not None:
            outcome = commands.continue_active(date=patch.date, time=patch.time) or Outcome("none")
        else:
            outcome = commands.continue_active() or Outcome("none")
        state.timeline.mark("tool_execution")
        return self._finish(state, R.outcome_receipt(outcome, state.lang), outcome.status, outcome, commands, req.memory)

    def _model_loop(
        self,
        state: TurnState,
        toolset: Toolset,
        messages: list[dict[str, Any]],
        patch: SlotPatch | None,
        stop: Callable[[], bool],
    ) -> Generator[TurnEvent, None, tuple[str, str, ReceiptValue]]:
        """Model requests until a reply: a chat answer, a terminal tool's receipt, or a cap
        (model calls, invalid calls, a stop, the model gone). Returns (reply, outcome, value)."""
        while True:
            if state.model_calls >= MAX_MODEL_CALLS:
                return R.gave_up_reply(state.lang), "tool_loop_cap", None
            if stop():
                return R.stopped_reply(state.lang), "stopped", None
            response: ModelResponse | None = None
            try:
                state.timeline.mark("model_request_sent")
                state.model_calls += 1
                streamed = False
                assert self.model is not None
                for event in self.model.stream(messages, toolset.schemas):
                    if event.kind == "token":
                        streamed = True
                        yield TurnEvent("token", event.text)
                    elif event.kind == "progress":  # loading / reading the prompt: for the UI
                        yield TurnEvent("progress", payload=event.progress)
                    elif event.kind == "done":
                        response = event.response
                    if stop():
                        break
            except ModelUnavailable as exc:
                return R.unavailable_reply(exc.text(state.lang), state.lang), "model_unavailable", None
            if response is None:
                return R.stopped_reply(state.lang), "stopped", None
            self._absorb(state, response)
            if not response.tool_calls:
                state.from_model = True
                return response.content.strip(), "chat", None
            if streamed:
                yield TurnEvent("reset")
            messages.append(_assistant_tool_message(response))
            terminal = yield from self._run_tools(state, toolset, response, patch, messages)
            if terminal is not None:
                receipt = self._receipt(state, toolset.registry, terminal)
                return receipt.text, receipt.outcome, receipt.value
            if state.retries > MAX_RETRIES:
                last_create = next((call for call in reversed(state.calls) if call.name == CREATE.name), None)
                title = str((last_create.data or {}).get("title", "")) if last_create is not None else ""
                return R.outcome_receipt(Outcome("invalid", title=title), state.lang), "invalid", None

    def _run_tools(
        self,
        state: TurnState,
        toolset: Toolset,
        response: ModelResponse,
        patch: SlotPatch | None,
        messages: list[dict[str, Any]],
    ) -> Generator[TurnEvent, None, ToolResult | None]:
        """The calls of one model response, in order, until a terminal one (returned); the
        others' results are appended to ``messages`` for the next request."""
        registry = toolset.registry
        toolset.deps.writes = [
            (tool, call.data or {})
            for call in (ParsedCall.parse(raw.id, raw.name, raw.arguments) for raw in response.tool_calls)
            if (tool := registry.get(call.name)) is not None and tool.writes == "events"
        ]
        for raw in response.tool_calls:
            call = ParsedCall.parse(raw.id, raw.name, raw.arguments)
            if patch is not None and call.name == CREATE.name:
                call = call.patched(_patch_values(patch))  # the clarification parser's slots win
            state.calls.append(call)
            yield TurnEvent("tool_call", name=call.name, payload=call.text)
            result = toolset.call(call)
            state.timeline.mark("tool_execution")
            state.tools.append(call.name)
            state.tool_log.append({"name": call.name, "arguments": call.text, "result": result.payload, "ok": result.ok})
            yield TurnEvent("tool_result", name=call.name, payload=result.payload)
            if result.terminal:
                return result
            if result.retry:
                state.retries += 1
            messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result.for_model()})
        return None

    def _council(
        self, state: TurnState, offer: dict[str, Any], commands: CommandService, memory: MemoryService
    ) -> Generator[TurnEvent, None, TurnResult]:
        state.council = True
        if self.model is None:
            reply = R.unavailable_reply(R.no_model_reason(state.lang), state.lang)
            result = self._finish(state, reply, "model_unavailable", None, commands, memory)
            yield TurnEvent("done", reply, payload=result)
            return result
        state.read = True
        events = QueryService(self.store, self.profile_id, state.ctx).between(
            datetime.fromisoformat(offer["start"]), datetime.fromisoformat(offer["end"])
        )
        state.timeline.mark("context_build")
        state.timeline.mark("model_request_sent")
        runner = run_council(self.model, str(offer.get("topic", "")), events, state.lang)
        try:
            while True:
                item = next(runner)
                if isinstance(item, ModelEvent):
                    if item.kind == "token":
                        yield TurnEvent("token", item.text)
                else:
                    state.model_calls += 1
                    self._absorb(state, item[1])
        except StopIteration as done:
            reply, outcome = str(done.value), "council"
            state.from_model = True  # advisors are a model too: their words pass the guard
        except ModelUnavailable as exc:
            reply, outcome = R.unavailable_reply(exc.text(state.lang), state.lang), "model_unavailable"
        result = self._finish(state, reply, outcome, None, commands, memory)
        yield TurnEvent("done", result.reply, payload=result)
        return result

    def _absorb(self, state: TurnState, response: ModelResponse) -> None:
        timings = response.timings
        for name in ("first_token", "generation_end"):
            if name in timings:
                state.timeline.mark(name, timings[name])
        state.tokens["prompt"] += response.usage.prompt_tokens
        state.tokens["completion"] += response.usage.completion_tokens
        state.tokens["cached"] += response.usage.cached_tokens

    def _receipt(self, state: TurnState, registry: Registry, result: ToolResult) -> Receipt:
        """The terminal tool's receipt, from its own writer (``Tool.receipt``)."""
        tool = registry.get(result.name)
        if tool is None or tool.receipt is None:
            raise UserFacingError("runtime.no_receipt", tool=result.name)
        receipt = tool.receipt(result, state.lang, state.ctx.today)
        state.read = state.read or receipt.read
        state.meta.update(receipt.meta)
        return receipt

    def _reply_time(self, state: TurnState) -> datetime:
        """When the reply was written: the clock now, or the turn's start plus the time the
        turn took; never before the user's message (stamped with the turn's start)."""
        if self._clock is not None:
            return max(self._clock(), state.ctx.now)
        return state.ctx.now + timedelta(seconds=max(0.0, time.monotonic() - state.timeline.started))

    def _finish(
        self,
        state: TurnState,
        reply: str,
        outcome: str,
        value: ReceiptValue,
        commands: CommandService,
        memory: MemoryService | None,
    ) -> TurnResult:
        guard = None
        if state.from_model:
            verdict = check_reply(reply, TurnFacts.of(commands.facts, memory, read=state.read), state.lang)
            reply, guard = verdict.reply, verdict.flag
            if guard:
                outcome = guard
            if guard == UNVERIFIED_QUERY:  # the question has one right answer: code reads it
                queries = QueryService(self.store, self.profile_id, state.ctx)
                answer = answer_claim(queries, state.ctx, verdict.claims, state.text, state.lang)
                if answer is not None:
                    reply, outcome, value = answer.reply, ANSWERED, answer.result
                    state.read = True  # code read the store to answer it
                    state.meta["guard_answer"] = {"start": answer.start, "end": answer.end}
        if not reply:
            reply = R.empty_reply(state.lang)
        # The second tier: the calendar's state comes from the turn's real results; a model
        # reply that stays and talks calendar (or promises) on a turn that did nothing gets
        # the code-written line. A replaced reply is code's own and says so already.
        calendar = calendar_state(commands.facts, read=state.read)
        own_words = state.from_model and guard is None
        note = status_line(reply, calendar, state.lang) if own_words else None
        # State claims meet facts: under that line, what the store holds for the day the user
        # named (or the next one code's search finds), read by code (``facts_card.py``).
        facts = facts_for(QueryService(self.store, self.profile_id, state.ctx), state.ctx, state.text) if note else None
        card = card_text(facts, state.lang) if facts is not None else None
        state.timeline.mark("finish")
        meta = dict(state.meta) | {"outcome": outcome, "guard": guard, "calendar": calendar, "calendar_note": note}
        if card is not None:
            meta["facts_card"] = card
        message = ArchiveService(self.store, self.profile_id, clock=self._reply_time(state)).append("assistant", reply, meta)
        intent = infer_intent(state.tools, self.tools, dispatched=state.dispatched, council=state.council)
        command_id = getattr(value, "command_id", None)
        candidates = [day.isoformat() for day in getattr(value, "candidates", [])] if isinstance(value, Outcome) else []
        result = TurnResult(
            reply=reply,
            outcome=outcome,
            tools=list(state.tools),
            intent=intent,
            model_calls=state.model_calls,
            guard=guard,
            command_id=command_id,
            candidates=candidates,
            timeline=state.timeline.to_json(),
            lang=state.lang,
            receipt=value,
            event_ids=list(commands.facts.event_ids),
            tool_log=state.tool_log,
            changes=commands.facts.changes,
            message_id=message.id,
            calendar=calendar,
            calendar_note=note,
            from_model=own_words,
            facts=facts,
            facts_card=card,
        )
        record(
            self.store,
            self.profile_id,
            user_text=state.text,
            intent=intent,
            outcome=outcome,
            guard=guard,
            model=getattr(self.model, "name", None),
            model_calls=state.model_calls,
            data={
                "tools": state.tool_log,
                "timeline": result.timeline,
                "tokens": state.tokens,
                "command_id": command_id,
                "event_ids": result.event_ids,
                "reply": reply,
                "guard_answer": state.meta.get("guard_answer"),
                "calendar": calendar,
                "calendar_note": note,
                "facts": facts.to_json() if facts is not None else None,
            },
            at=state.ctx.now,
        )
        return result


def _newer_edit(pending: EditStub | None, stub: Stub | None) -> EditStub | None:
    """The pending edit, when it is the latest question asked (one question at a time)."""
    if pending is None or (stub is not None and stub.id > pending.id):
        return None
    return pending


def _pending_options(pending: EditStub) -> list[dict[str, Any]]:
    slots = pending.slots
    return list(slots.get("options") or ([slots["target"]] if slots.get("target") else []))


def _pending_summary(pending: EditStub) -> str:
    slots = pending.slots
    options = _pending_options(pending)
    return json.dumps(
        {
            "status": pending.status,
            "op": slots.get("op"),
            "events": [{"title": o.get("title"), "start": o.get("start")} for o in options],
        },
        ensure_ascii=False,
    )


def _patch_values(patch: SlotPatch) -> dict[str, str]:
    """The create arguments a clarification reply fills (they win over the model's)."""
    values: dict[str, str] = {}
    if patch.date is not None:
        values["dateExpression"] = patch.date
    if patch.time is not None:
        values["time"] = patch.time
    return values


def _assistant_tool_message(response: ModelResponse) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": response.content or None,
        "tool_calls": [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in response.tool_calls
        ],
    }


def _drain(generator: Generator[TurnEvent, None, TurnResult]) -> TurnResult:
    while True:
        try:
            next(generator)
        except StopIteration as done:
            return done.value


__all__ = ["Assistant", "MAX_MODEL_CALLS", "MAX_RETRIES"]
