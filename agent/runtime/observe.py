"""Observation records: what each turn did, for reports and evals. Never read by decisions."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from agent.runtime.toolkit import Registry
from agent.store.db import Store

SEGMENTS = ("context_build", "model_request_sent", "first_token", "generation_end", "tool_execution", "finish")


@dataclass
class Timeline:
    """Milliseconds from the start of the turn to each mark (first time it is reached)."""

    started: float = field(default_factory=time.monotonic)
    marks: dict[str, float] = field(default_factory=dict)

    def mark(self, name: str, at: float | None = None) -> None:
        if name not in self.marks:
            self.marks[name] = round(((at if at is not None else time.monotonic()) - self.started) * 1000, 3)

    def to_json(self) -> dict[str, float]:
        return dict(self.marks)


def infer_intent(tools: list[str], registry: Registry, *, dispatched: bool, council: bool) -> str:
    """Post-hoc intent from what actually ran: the first terminal tool's (``Tool.intent``),
    else the first intermediate one's (a search feeding a chat answer)."""
    if council:
        return "council"
    if dispatched:
        return "clarification_reply"
    ran = sorted(registry.ran(tools), key=lambda tool: not tool.terminal)  # stable: first of each kind
    intents = [tool.intent for tool in ran if tool.intent is not None]
    return intents[0] if intents else "general.chat"


def record(
    store: Store,
    profile_id: int,
    *,
    user_text: str,
    intent: str,
    outcome: str,
    guard: str | None,
    model: str | None,
    model_calls: int,
    data: dict[str, Any],
    at: datetime,
) -> int:
    """Stamp the observation with the turn's own clock (``at``), the same clock the archive
    messages of that turn carry, so a report or an exported case lines the two up whatever the
    wall clock says. ``max_event_id`` marks what the store held when the turn ended."""
    with store.transaction() as conn:
        top = conn.execute("SELECT COALESCE(MAX(id), 0) FROM events WHERE profile_id = ?", (profile_id,)).fetchone()[0]
        data = dict(data) | {"max_event_id": int(top)}
        cur = conn.execute(
            "INSERT INTO observations(profile_id, created_at, user_text, intent, outcome, guard, model, model_calls, data)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                profile_id,
                at.astimezone(UTC).isoformat(),
                user_text,
                intent,
                outcome,
                guard,
                model,
                model_calls,
                json.dumps(data, ensure_ascii=False, default=str),
            ),
        )
    return int(cur.lastrowid or 0)
