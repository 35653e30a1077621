"""One chat turn: dispatch, council gate, one model request, tools, receipt, guard, record.

``Assistant.stream_turn`` is a generator (tokens and tool events, then ``done``) so the app
can run it in a worker and the CLI and evals can drain it: all three run this same code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from agent.errors import UserFacingError
from agent.models.base import ChatModel, ModelEvent, ModelResponse, ModelUnavailable, reading_view
from agent.runtime import receipts as R
from agent.runtime.edit_receipts import edit_receipt
from agent.runtime.fence import as_data
from agent.runtime.council import is_affirmative, pending_offer, run_council
from agent.runtime.grounding import Grounding
from agent.runtime.guard import ANSWERED, UNVERIFIED_QUERY, TurnFacts, check_reply
from agent.runtime.observe import Timeline, infer_intent, record
from agent.runtime.prompt import build_messages, context_block
from agent.runtime.state_answer import answer_state_claim
from agent.runtime.toolset import build_toolset
from agent.runtime.tools import ToolResult, tool_schemas
from agent.services.archive import ArchiveService
from agent.services.calendars import CalendarService
from agent.services.chat_edits import ChatEditService, EditOutcome, EditStub
from agent.services.commands import CommandService, Outcome
from agent.services.memory import MemoryService
from agent.services.queries import QueryService
from agent.services.settings import SettingsService
from agent.services.wording import confirmation_answer
from agent.store.db import Store
from agent.store.events import ChangeSet
from agent.timesym.clarify import SlotPatch, parse_slot_reply
from agent.timesym.context import TimeContext

MAX_MODEL_CALLS = 4  # hard cap on model requests (tool iterations) per turn
MAX_RETRIES = 2  # invalid tool calls sent back to the model before the user is asked


@dataclass(frozen=True)
class TurnEvent:
    kind: str  # token | progress | reset | tool_call | tool_result | done
    text: str = ""
    name: str = ""
    payload: Any = None


@dataclass
class TurnResult:
    reply: str
    outcome: str
    tools: list[str] = field(default_factory=list)
    intent: str = "general.chat"
    model_calls: int = 0
    guard: str | None = None
    command_id: int | None = None
    candidates: list[str] = field(default_factory=list)
    timeline: dict[str, float] = field(default_factory=dict)
    lang: str = "zh"
    receipt: dict[str, Any] | None = None  # the real result a receipt was written from
    event_ids: list[int] = field(default_factory=list)
    tool_log: list[dict[str, Any]] = field(default_factory=list)
    changes: ChangeSet = field(default_factory=ChangeSet)  # committed this turn; the app's undo uses it
    message_id: int | None = None  # the archived assistant message (the app marks it "undone")

    def to_json(self) -> dict[str, Any]:
        return {
            "reply": self.reply,
            "outcome": self.outcome,
            "tools": self.tools,
            "intent": self.intent,
            "model_calls": self.model_calls,
            "guard": self.guard,
            "command_id": self.command_id,
            "candidates": self.candidates,
            "timeline": self.timeline,
        }


@dataclass
class _Turn:
    """Mutable state of one turn while it runs."""

    text: str
    ctx: TimeContext
    lang: str
    timeline: Timeline = field(default_factory=Timeline)
    tools: list[str] = field(default_factory=list)
    tool_log: list[dict[str, Any]] = field(default_factory=list)
    model_calls: int = 0
    dispatched: bool = False
    council: bool = False
    from_model: bool = False
    read: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0, "cached": 0})


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
    ) -> None:
        self.store = store
        self.profile_id = profile_id
        self.model = model
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
        commands = CommandService(self.store, self.profile_id, ctx)
        stub = commands.active_stub()
        edits = ChatEditService(self.store, self.profile_id, ctx, commands.facts)
        pending = _newer_edit(edits.active(), stub)
        archive = ArchiveService(self.store, self.profile_id, clock=ctx.now)
        last_user = next((m.content for m in reversed(archive.recent(20)) if m.role == "user" and not m.meta.get("action")), "")
        lang = R.language_of(stub.title if stub and pending is None else last_user, self.settings.get("language"))
        state = _Turn(text=f"[{kind}{' ' + date if date else ''}]", ctx=ctx, lang=lang, dispatched=True)
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
            return self._finish(state, edit_receipt(edit, lang), _edit_outcome_name(edit), edit, commands, None)
        if kind in ("pick_target", "confirm_edit"):
            edit = EditOutcome("none", today=ctx.today)
            archive.append("user", state.text, {"action": kind})
            return self._finish(state, edit_receipt(edit, lang), "none", edit, commands, None)
        if kind == "cancel":
            outcome = commands.cancel_active()
        else:
            flags = {"allow_conflict": kind == "create_anyway", "allow_past": kind == "add_anyway"}
            outcome = commands.continue_active(date=date, **flags) or Outcome("none")
        archive.append("user", state.text, {"action": kind})
        return self._finish(state, R.outcome_receipt(outcome, lang), _outcome_name(outcome), outcome, commands, None)

    def next_request(self, text: str = "", ctx: TimeContext | None = None) -> dict[str, Any]:
        """The chat-completions request the next turn would send for ``text`` (``richeng
        prompt``): the same history, context block and tool list ``stream_turn`` builds, with
        tools as a backend sends them (private ``x-`` keys removed). Writes nothing but the
        expiry of a stale pending command, as any turn would."""
        ctx = ctx or self.context()
        commands = CommandService(self.store, self.profile_id, ctx)
        archive = ArchiveService(self.store, self.profile_id, clock=ctx.now)
        history, older = archive.segment(int(self.settings.get("session_gap_minutes")))
        stub = commands.active_stub()
        pending = _newer_edit(ChatEditService(self.store, self.profile_id, ctx, commands.facts).active(), stub)
        calendars = CalendarService(self.store, self.profile_id)
        names = calendars.names()
        context = context_block(ctx, names, calendars.default().name, stub, older)
        if pending is not None:
            context += "\nPending change (the user may answer it): " + as_data("pending_change", _pending_summary(pending))
        return {"messages": build_messages(history, context, text), "tools": reading_view(tool_schemas(names))}

    # ---- the turn ---------------------------------------------------------------------

    def stream_turn(
        self, text: str, ctx: TimeContext | None = None, should_stop: Callable[[], bool] | None = None
    ) -> Generator[TurnEvent, None, TurnResult]:
        ctx = ctx or self.context()
        stop = should_stop or (lambda: False)
        state = _Turn(text=text, ctx=ctx, lang=R.language_of(text, self.settings.get("language")))
        commands = CommandService(self.store, self.profile_id, ctx)
        memory = MemoryService(self.store, self.profile_id)
        archive = ArchiveService(self.store, self.profile_id, clock=ctx.now)
        history, older = archive.segment(int(self.settings.get("session_gap_minutes")))
        last = archive.last_assistant()
        archive.append("user", text)

        # 1. Dispatch: a pure slot reply to a pending command needs no model, and neither
        #    does a short yes/no to a write the grounding latch asked about.
        stub = commands.active_stub()
        edits = ChatEditService(self.store, self.profile_id, ctx, commands.facts)
        pending = _newer_edit(edits.active(), stub)
        if pending is not None:  # "第二个", "10点那个", 是 / 不用 to a pending edit: read by code
            edit = edits.answer(pending, text)
            if edit is not None:
                state.dispatched = True
                state.timeline.mark("tool_execution")
                result = self._finish(state, edit_receipt(edit, state.lang), _edit_outcome_name(edit), edit, commands, memory)
                yield TurnEvent("done", result.reply, payload=result)
                return result
        patch = parse_slot_reply(text, ctx)
        answer = confirmation_answer(text) if stub is not None and stub.status == "unconfirmed" else None
        if stub is not None and pending is None and (patch is not None or answer is not None):
            state.dispatched = True
            if answer is False:
                outcome = commands.cancel_active()
            elif patch is not None:
                outcome = commands.continue_active(date=patch.date, time=patch.time) or Outcome("none")
            else:
                outcome = commands.continue_active() or Outcome("none")
            state.timeline.mark("tool_execution")
            result = self._finish(state, R.outcome_receipt(outcome, state.lang), _outcome_name(outcome), outcome, commands, memory)
            yield TurnEvent("done", result.reply, payload=result)
            return result

        # 2. Council gate: only a recorded invitation, only a short yes, only within 30 min.
        offer = pending_offer(last, ctx.now)
        if offer is not None and is_affirmative(text):
            result = yield from self._council(state, offer, commands, memory)
            return result

        # 3. One model request (plus what intermediate tools need).
        if self.model is None:
            reply = R.unavailable_reply("no model configured" if state.lang == "en" else "尚未配置模型", state.lang)
            result = self._finish(state, reply, "model_unavailable", None, commands, memory)
            yield TurnEvent("done", reply, payload=result)
            return result
        calendars = CalendarService(self.store, self.profile_id)
        names = calendars.names()
        # The pending choice grounds too: "都不是，是后天那个" may name an event it listed.
        pending_words = " ".join(str(o.get("title", "")) for o in _pending_options(pending)) if pending is not None else ""
        grounding = Grounding(text, " ".join(part for part in (stub.title if stub is not None else "", pending_words) if part))
        toolset = build_toolset(self.store, self.profile_id, ctx, commands, memory, archive, names, grounding, edits)
        context = context_block(ctx, names, calendars.default().name, stub, older)
        if pending is not None:
            context += "\nPending change (the user may answer it): " + as_data("pending_change", _pending_summary(pending))
        messages = build_messages(history, context, text)
        state.timeline.mark("context_build")

        retries = 0
        reply: str | None = None
        outcome_name = "chat"
        value: Any = None
        while reply is None:
            if state.model_calls >= MAX_MODEL_CALLS:
                reply, outcome_name = R.gave_up_reply(state.lang), "tool_loop_cap"
                break
            if stop():
                reply, outcome_name = ("已停止。" if state.lang == "zh" else "Stopped."), "stopped"
                break
            response: ModelResponse | None = None
            try:
                state.timeline.mark("model_request_sent")
                state.model_calls += 1
                streamed = False
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
                reply, outcome_name = R.unavailable_reply(str(exc), state.lang), "model_unavailable"
                break
            if response is None:
                reply, outcome_name = ("已停止。" if state.lang == "zh" else "Stopped."), "stopped"
                break
            self._absorb(state, response)
            if not response.tool_calls:
                reply, outcome_name, state.from_model = response.content.strip(), "chat", True
                break
            if streamed:
                yield TurnEvent("reset")
            messages.append(_assistant_tool_message(response))
            terminal: ToolResult | None = None
            for call in response.tool_calls:
                arguments = _apply_patch(call.name, call.arguments, patch)
                yield TurnEvent("tool_call", name=call.name, payload=arguments)
                result = toolset.call(call.name, arguments)
                state.timeline.mark("tool_execution")
                state.tools.append(call.name)
                state.tool_log.append({"name": call.name, "arguments": arguments, "result": result.payload, "ok": result.ok})
                yield TurnEvent("tool_result", name=call.name, payload=result.payload)
                if result.terminal:
                    terminal = result
                    break
                if result.retry:
                    retries += 1
                messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result.for_model()})
            if terminal is not None:
                reply, outcome_name, value = self._receipt(state, terminal)
            elif retries > MAX_RETRIES:
                last_create = next((log for log in reversed(state.tool_log) if log["name"] == "prepare_or_create_schedule"), None)
                title = ""
                if last_create is not None:
                    title = str(_loads(last_create["arguments"]).get("title", ""))
                reply, outcome_name = R.outcome_receipt(Outcome("invalid", title=title), state.lang), "invalid"
        if pending is not None and state.tools and not {"update_schedule", "delete_schedule"} & set(state.tools):
            edits.supersede()  # the user moved on: a later 好的 must not answer this old question
        result = self._finish(state, reply, outcome_name, value, commands, memory)
        if result.guard:
            yield TurnEvent("reset")
        yield TurnEvent("done", result.reply, payload=result)
        return result

    def _council(
        self, state: _Turn, offer: dict[str, Any], commands: CommandService, memory: MemoryService
    ) -> Generator[TurnEvent, None, TurnResult]:
        state.council = True
        if self.model is None:
            reply = R.unavailable_reply("尚未配置模型" if state.lang == "zh" else "no model configured", state.lang)
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
            reply, outcome = R.unavailable_reply(str(exc), state.lang), "model_unavailable"
        result = self._finish(state, reply, outcome, None, commands, memory)
        yield TurnEvent("done", result.reply, payload=result)
        return result

    def _absorb(self, state: _Turn, response: ModelResponse) -> None:
        timings = response.timings
        for name in ("first_token", "generation_end"):
            if name in timings:
                state.timeline.mark(name, timings[name])
        state.tokens["prompt"] += response.usage.prompt_tokens
        state.tokens["completion"] += response.usage.completion_tokens
        state.tokens["cached"] += response.usage.cached_tokens

    def _receipt(self, state: _Turn, result: ToolResult) -> tuple[str, str, Any]:
        value = result.value
        lang = state.lang
        if result.name == "prepare_or_create_schedule":
            return R.outcome_receipt(value, lang), _outcome_name(value), value
        if result.name in ("update_schedule", "delete_schedule"):
            return edit_receipt(value, lang), _edit_outcome_name(value), value
        if result.name == "cancel_schedule_command":
            return R.outcome_receipt(value, lang), _outcome_name(value), value
        if result.name == "query_schedule_range":
            state.read = True
            return R.range_receipt(value, lang), "query", value
        if result.name == "suggest_free_time":
            state.read = True
            return R.free_receipt(value, lang, state.ctx.today), "free_time", value
        if result.name == "remember_fact":
            if value is None:  # the grounding latch refused words the user did not write
                return R.memory_unconfirmed_receipt(str(result.payload.get("fact", "")), lang), "memory_unconfirmed", None
            return R.memory_receipt(value, lang), "memory_saved", value
        if result.name == "offer_council":
            state.meta["council_offer"] = result.payload
            return R.council_offer_receipt(str(result.payload.get("topic", "")), lang), "council_offered", value
        raise UserFacingError(f"no receipt for tool {result.name}")

    def _reply_time(self, state: _Turn) -> datetime:
        """When the reply was written: the clock now, or the turn's start plus the time the
        turn took; never before the user's message (stamped with the turn's start)."""
        if self._clock is not None:
            return max(self._clock(), state.ctx.now)
        return state.ctx.now + timedelta(seconds=max(0.0, time.monotonic() - state.timeline.started))

    def _finish(
        self,
        state: _Turn,
        reply: str,
        outcome: str,
        value: Any,
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
                answer = answer_state_claim(queries, state.ctx, verdict.claims, state.text, state.lang)
                if answer is not None:
                    reply, outcome, value = answer.reply, ANSWERED, answer.result
                    state.meta["guard_answer"] = {"start": answer.start, "end": answer.end}
        if not reply:
            reply = "……" if state.lang == "zh" else "…"
        state.timeline.mark("finish")
        meta = dict(state.meta) | {"outcome": outcome, "guard": guard}
        message = ArchiveService(self.store, self.profile_id, clock=self._reply_time(state)).append("assistant", reply, meta)
        intent = infer_intent(state.tools, state.dispatched, state.council)
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
            receipt=R.to_payload(value) if value is not None else None,
            event_ids=list(commands.facts.event_ids),
            tool_log=state.tool_log,
            changes=commands.facts.changes,
            message_id=message.id,
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
            data={"tools": state.tool_log, "timeline": result.timeline, "tokens": state.tokens,
                  "command_id": command_id, "event_ids": result.event_ids, "reply": reply,
                  "guard_answer": state.meta.get("guard_answer")},
            at=state.ctx.now,
        )
        return result


def _outcome_name(outcome: Outcome) -> str:
    return outcome.status


EDIT_OUTCOMES = {"updated": "updated", "deleted": "deleted", "no_match": "edit_no_match", "choose": "edit_choice",
                 "confirm": "edit_confirm", "edit_conflict": "edit_conflict", "cancelled": "edit_cancelled",
                 "none": "none", "invalid": "edit_invalid"}  # fmt: skip


def _edit_outcome_name(outcome: EditOutcome) -> str:
    return EDIT_OUTCOMES.get(outcome.status, "edit_invalid")


def _newer_edit(pending: EditStub | None, stub: Any) -> EditStub | None:
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
    return json.dumps({"status": pending.status, "op": slots.get("op"),
                       "events": [{"title": o.get("title"), "start": o.get("start")} for o in options]}, ensure_ascii=False)


def _loads(arguments: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(arguments, dict):
        return arguments
    try:
        value = json.loads(arguments)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _apply_patch(name: str, arguments: str, patch: SlotPatch | None) -> str:
    """The clarification parser's slots win over the model's on the same fields."""
    if patch is None or name != "prepare_or_create_schedule":
        return arguments
    data = _loads(arguments)
    if not data:
        return arguments
    if patch.date is not None:
        data["dateExpression"] = patch.date
    if patch.time is not None:
        data["time"] = patch.time
    return json.dumps(data, ensure_ascii=False)


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


__all__ = ["Assistant", "TurnEvent", "TurnResult", "MAX_MODEL_CALLS", "MAX_RETRIES"]
