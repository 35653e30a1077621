"""The values of one chat turn: what it yields and returns, and its state while it runs.

``Assistant.stream_turn`` (``turn.py``) yields ``TurnEvent`` and returns ``TurnResult``; the
app, the CLI and the evals read them (``agent.runtime.turn`` re-exports both, so importing
them from there keeps working). ``TurnState`` and ``TurnRequest`` are the engine's working
state, kept here so ``turn.py`` reads as the steps of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from agent.runtime import receipts as R
from agent.runtime.facts_card import Facts
from agent.runtime.observe import Timeline
from agent.runtime.toolkit import ParsedCall
from agent.services.archive import ArchiveService
from agent.services.chat_edits import ChatEditService, EditOutcome, EditStub
from agent.services.command_types import Outcome, Stub
from agent.services.commands import CommandService
from agent.services.memory import Memory, MemoryService
from agent.services.queries import FreeSlot, RangeResult
from agent.store.changes import ChangeSet
from agent.timesym.clarify import SlotPatch
from agent.timesym.context import TimeContext

#: What a receipt was written from: a create round, an edit round, what a query or a
#: free-time search read, a saved memory, a council invitation (topic, start, end).
ReceiptValue: TypeAlias = Outcome | EditOutcome | RangeResult | list[FreeSlot] | Memory | dict[str, str] | None


@dataclass(frozen=True)
class TurnEvent:
    """One thing a running turn yields: a token to show, a tool step, or ``done``."""

    kind: str  # token | progress | reset | tool_call | tool_result | done
    text: str = ""
    name: str = ""
    payload: Any = None


@dataclass
class TurnResult:
    """What a turn ended with, typed; JSON only at the CLI and eval boundary (``to_json``)."""

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
    receipt: ReceiptValue = None  # the real result the receipt was written from (typed)
    event_ids: list[int] = field(default_factory=list)
    tool_log: list[dict[str, Any]] = field(default_factory=list)
    changes: ChangeSet = field(default_factory=ChangeSet)  # committed this turn; the app's undo uses it
    message_id: int | None = None  # the archived assistant message (the app marks it "undone")
    #: What the calendar did this turn, from the services' records: unchanged | read | changed.
    calendar: str = "unchanged"
    #: The code-written status line under a model reply that stays ("日历没有变化"), or None.
    calendar_note: str | None = None
    #: Whether the reply is a model's own words (plain chat or the council) rather than code's.
    from_model: bool = False
    #: What code's own query read for the day the user named, under a model reply that talked
    #: calendar on a turn that read nothing (``facts_card.py``), and the card's text; else None.
    facts: Facts | None = None
    facts_card: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "reply": self.reply,
            "outcome": self.outcome,
            "tools": self.tools,
            "intent": self.intent,
            "model_calls": self.model_calls,
            "guard": self.guard,
            "command_id": self.command_id,
            "candidates": self.candidates,
            "timeline": self.timeline,
            "calendar": self.calendar,
        }
        if self.facts is not None:  # on exactly the turns with a facts card (the contract)
            data["facts"] = self.facts.to_json()
        return data

    def text_output(self) -> str:
        """What ``richeng chat`` prints: the reply, then the status line and the facts card
        when there are."""
        return "\n".join(line for line in (self.reply, self.calendar_note, self.facts_card) if line)

    def receipt_payload(self) -> Any:
        """``receipt`` as JSON-ready data, for the CLI and the evals (the app reads ``receipt``)."""
        return R.to_payload(self.receipt)


@dataclass
class TurnState:
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
    retries: int = 0  # invalid tool calls sent back to the model so far
    calls: list[ParsedCall] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0, "cached": 0})


@dataclass
class TurnRequest:
    """The services of one turn and what was pending when it began."""

    commands: CommandService
    memory: MemoryService
    archive: ArchiveService
    edits: ChatEditService
    stub: Stub | None
    pending: EditStub | None
    patch: SlotPatch | None = None  # the slots the message fills for the pending command
