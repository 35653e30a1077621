"""Running one case: its turns through an entry point, with what each turn did to the store.

There is no simulator here. A turn goes through ``Assistant.stream_turn`` (the eval entry)
or ``ChatSession.send`` (the app's entry) — the same runtime — with only the model swapped:
a ``ScriptedModel`` per turn offline, a real backend live. ``richeng eval drift`` runs cases
through both entries and compares what they did.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from agent.evals.cases import Case, parse_when
from agent.evals.fixtures import (
    World,
    build_world,
    event_dicts,
    events_snapshot,
    exported_events,
    memories_snapshot,
    stub_snapshot,
)
from agent.models.base import ChatModel, ModelEvent, ModelResponse, ToolChoice
from agent.models.script_backend import ScriptedModel
from agent.runtime.session import ChatSession
from agent.runtime.turn import Assistant
from agent.runtime.turn_types import TurnEvent, TurnResult

RECEIPT_BY_OUTCOME = {
    "created": "outcome", "needs_date": "outcome", "conflict": "outcome", "past_time": "outcome",
    "cancelled": "outcome", "none": "outcome", "invalid": "outcome", "query": "range",
    "free_time": "free_time", "memory_saved": "memory", "council_offered": "council_offer",
    "council": "council", "chat": "model", "unverified_create_claim": "guard",
    "unverified_query_claim": "guard", "unverified_update_claim": "guard", "unverified_delete_claim": "guard",
    "unverified_memory_claim": "guard", "guard_answered": "range", "model_unavailable": "unavailable", "tool_loop_cap": "gave_up",
    "stopped": "stopped", "updated": "edit", "deleted": "edit", "edit_no_match": "edit", "edit_choice": "edit",
    "edit_confirm": "edit", "edit_conflict": "edit", "edit_cancelled": "edit", "edit_invalid": "edit",
}  # fmt: skip


def receipt_kind(outcome: str) -> str:
    """Which writer produced the reply: code receipts, the guard, or the model itself."""
    return RECEIPT_BY_OUTCOME.get(outcome, "unknown")


class Recorder:
    """Wraps any model: records each request (for prompt expectations) and caps max_tokens.

    The cap is configuration (a short answer budget for slow CI models), not behaviour: the
    runtime's requests are otherwise passed through untouched."""

    def __init__(self, model: ChatModel, max_tokens: int | None = None) -> None:
        self.model = model
        self.name = model.name
        self.max_tokens = max_tokens
        self.requests: list[dict[str, Any]] = []

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Iterator[ModelEvent]:
        self.requests.append({"messages": json.loads(json.dumps(messages, default=str)), "tools": tools})
        if self.max_tokens is not None:
            max_tokens = min(max_tokens, self.max_tokens)
        return self.model.stream(messages, tools, tool_choice=tool_choice, max_tokens=max_tokens, temperature=temperature)

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> ModelResponse:
        from agent.models.base import drain

        return drain(self.stream(messages, tools, **kwargs))


class Entry(Protocol):
    def set_model(self, model: ChatModel | None) -> None: ...
    def send(self, text: str) -> tuple[list[TurnEvent], TurnResult]: ...
    def act(self, kind: str, date: str | None) -> TurnResult: ...


class EvalEntry:
    """The eval entry point: the assistant's turn generator, drained here."""

    name = "eval"

    def __init__(self, world: World, model: ChatModel | None) -> None:
        self.assistant = Assistant(world.store, world.profile_id, model, tz=world.zone.key, clock=world.clock)

    def set_model(self, model: ChatModel | None) -> None:
        self.assistant.model = model

    def send(self, text: str) -> tuple[list[TurnEvent], TurnResult]:
        events: list[TurnEvent] = []
        generator = self.assistant.stream_turn(text)
        while True:
            try:
                events.append(next(generator))
            except StopIteration as done:
                return events, done.value

    def act(self, kind: str, date: str | None) -> TurnResult:
        return self.assistant.action(kind, date=date)


class AppEntry:
    """The app's entry point: ``ChatSession``, exactly as the desktop worker calls it."""

    name = "app"

    def __init__(self, world: World, model: ChatModel | None) -> None:
        self.session = ChatSession(world.store, world.profile_id, model, tz=world.zone.key, clock=world.clock)

    def set_model(self, model: ChatModel | None) -> None:
        self.session.set_model(model)

    def send(self, text: str) -> tuple[list[TurnEvent], TurnResult]:
        return self.session.send_all(text)

    def act(self, kind: str, date: str | None) -> TurnResult:
        return self.session.act(kind, date=date)


ENTRIES: dict[str, Callable[[World, ChatModel | None], Entry]] = {"eval": EvalEntry, "app": AppEntry}


@dataclass
class TurnRecord:
    index: int
    user: str
    at: str
    reply: str = ""
    outcome: str = ""
    receipt: str = ""
    tools: list[str] = field(default_factory=list)
    intent: str = ""
    model_calls: int = 0
    guard: str | None = None
    command_id: int | None = None
    candidates: list[str] = field(default_factory=list)
    timeline: dict[str, float] = field(default_factory=dict)
    tool_log: list[dict[str, Any]] = field(default_factory=list)
    receipt_payload: Any = None
    stream: list[str] = field(default_factory=list)  # event kinds, tokens collapsed
    added: list[dict[str, str]] = field(default_factory=list)
    removed: list[dict[str, str]] = field(default_factory=list)
    memories_added: list[str] = field(default_factory=list)
    stub: dict[str, Any] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    script_left: int = 0
    seconds: float = 0.0
    error: str | None = None
    calendar: str = ""  # unchanged | read | changed, as the turn reported it
    calendar_note: str | None = None  # the second guard tier's status line, when shown
    facts: dict[str, Any] | None = None  # the facts card's query (``--json``'s "facts"), when shown
    facts_card: str | None = None
    exported: list[dict[str, Any]] = field(default_factory=list)  # the ICS export, when the case checks it

    def to_json(self, *, with_requests: bool = False) -> dict[str, Any]:
        data = asdict(self)
        if not with_requests:
            data.pop("requests")
        return data


@dataclass
class CaseRun:
    case: Case
    entry: str
    turns: list[TurnRecord] = field(default_factory=list)
    added: list[dict[str, str]] = field(default_factory=list)
    removed: list[dict[str, str]] = field(default_factory=list)
    memories_added: list[str] = field(default_factory=list)
    stub: dict[str, Any] | None = None
    seconds: float = 0.0
    error: str | None = None


def _collapse(events: list[TurnEvent]) -> list[str]:
    kinds: list[str] = []
    for event in events:
        if event.kind == "progress":  # UI-only, and how many depends on what the KV cache held
            continue
        label = event.kind if event.kind not in ("tool_call", "tool_result") else f"{event.kind}:{event.name}"
        if not (label == "token" and kinds and kinds[-1] == "token"):
            kinds.append(label)
    return kinds


def run_case(
    case: Case,
    *,
    model: ChatModel | None = None,
    entry: str = "eval",
    max_tokens: int | None = None,
) -> CaseRun:
    """Run every turn of ``case``. Offline cases (no ``model``) replay each turn's script."""
    started = time.perf_counter()
    run = CaseRun(case=case, entry=entry)
    try:
        world = build_world(case)
    except Exception as exc:  # a broken fixture is this case's failure, not the suite's crash
        run.error = f"fixture: {type(exc).__name__}: {exc}"
        run.seconds = time.perf_counter() - started
        return run
    first_events = events_snapshot(world.store, world.profile_id, world.zone)
    first_memories = memories_snapshot(world.store, world.profile_id)
    runner = ENTRIES[entry](world, None)
    for index, turn in enumerate(case.turns):
        if turn.at is not None:
            world.clock.now = parse_when(turn.at, case.now, world.zone)
        before_events = events_snapshot(world.store, world.profile_id, world.zone)
        before_memories = memories_snapshot(world.store, world.profile_id)
        scripted = ScriptedModel(turn.script, name=f"script:{case.id}#{index + 1}") if turn.script is not None else None
        chosen = scripted or model
        recorder = Recorder(chosen, max_tokens) if chosen is not None else None
        runner.set_model(recorder)
        text = turn.user if turn.user is not None else f"[{turn.action['kind'] if turn.action else ''}]"
        record = TurnRecord(index=index + 1, user=text, at=world.clock.now.isoformat())
        turn_started = time.perf_counter()
        try:
            if turn.action is not None:
                events: list[TurnEvent] = []
                result = runner.act(str(turn.action["kind"]), turn.action.get("date"))
            else:
                events, result = runner.send(str(turn.user))
            _fill(record, result, events)
        except Exception as exc:
            record.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        record.seconds = time.perf_counter() - turn_started
        if recorder is not None:
            record.requests = recorder.requests
        if scripted is not None:
            record.script_left = scripted.remaining
        after_events = events_snapshot(world.store, world.profile_id, world.zone)
        after_memories = memories_snapshot(world.store, world.profile_id)
        record.added = event_dicts(after_events - before_events)
        record.removed = event_dicts(before_events - after_events)
        record.memories_added = sorted((after_memories - before_memories).elements())
        record.stub = stub_snapshot(world)
        if "exported" in turn.expect:  # exporting is slower than a snapshot: only when asked
            record.exported = exported_events(world.store, world.profile_id)
        run.turns.append(record)
    last_events = events_snapshot(world.store, world.profile_id, world.zone)
    run.added = event_dicts(last_events - first_events)
    run.removed = event_dicts(first_events - last_events)
    run.memories_added = sorted((memories_snapshot(world.store, world.profile_id) - first_memories).elements())
    run.stub = stub_snapshot(world)
    run.seconds = time.perf_counter() - started
    world.store.close()
    return run


def _fill(record: TurnRecord, result: TurnResult, events: list[TurnEvent]) -> None:
    record.reply = result.reply
    record.outcome = result.outcome
    record.receipt = receipt_kind(result.outcome)
    record.tools = list(result.tools)
    record.intent = result.intent
    record.model_calls = result.model_calls
    record.guard = result.guard
    record.command_id = result.command_id
    record.candidates = list(result.candidates)
    record.timeline = dict(result.timeline)
    record.tool_log = [dict(item) for item in result.tool_log]
    record.receipt_payload = result.receipt_payload()
    record.stream = _collapse(events)
    record.calendar = result.calendar
    record.calendar_note = result.calendar_note
    record.facts = result.to_json().get("facts")
    record.facts_card = result.facts_card
