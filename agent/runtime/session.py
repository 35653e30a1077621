"""The app's entry point into the agent: one assistant per profile, one turn at a time.

The desktop app's worker calls ``ChatSession.send`` and forwards the events as signals; the
CLI and the evals call the same ``Assistant`` underneath, which is what ``richeng eval
drift`` checks. A turn already running makes the next ``send`` wait for it (the lock), so
two messages can never interleave their writes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from datetime import datetime

from agent.models.base import ChatModel
from agent.runtime.turn import Assistant, TurnEvent, TurnResult
from agent.store.db import Store
from agent.timesym.context import TimeContext


class ChatSession:
    def __init__(
        self,
        store: Store,
        profile_id: int,
        model: ChatModel | None,
        *,
        tz: str | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.assistant = Assistant(store, profile_id, model, tz=tz, clock=clock)
        self._turn_lock = threading.Lock()
        self._stop = threading.Event()

    @property
    def model(self) -> ChatModel | None:
        return self.assistant.model

    def set_model(self, model: ChatModel | None) -> None:
        with self._turn_lock:
            self.assistant.model = model

    def stop(self) -> None:
        """Ask the running turn to stop at its next check (between tokens and steps)."""
        self._stop.set()

    def send(self, text: str, ctx: TimeContext | None = None) -> Generator[TurnEvent, None, TurnResult]:
        with self._turn_lock:
            self._stop.clear()
            result = yield from self.assistant.stream_turn(text, ctx, should_stop=self._stop.is_set)
            return result

    def send_all(self, text: str, ctx: TimeContext | None = None) -> tuple[list[TurnEvent], TurnResult]:
        events: list[TurnEvent] = []
        generator = self.send(text, ctx)
        while True:
            try:
                events.append(next(generator))
            except StopIteration as done:
                return events, done.value

    def act(self, kind: str, *, date: str | None = None, ctx: TimeContext | None = None) -> TurnResult:
        with self._turn_lock:
            return self.assistant.action(kind, ctx, date=date)

