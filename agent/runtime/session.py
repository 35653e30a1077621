"""The app's entry point into the agent: one assistant per profile, one turn at a time.

The desktop app's worker calls ``ChatSession.send`` and forwards the events as signals; the
CLI and the evals call the same ``Assistant`` underneath, which is what ``richeng eval
drift`` checks. A turn already running makes the next ``send`` wait for it (the lock), so
two messages can never interleave their writes.

Warm-up (``warm_up``): a local model reads the static prompt prefix (system prompt + tool
schemas, thousands of tokens) before it can answer. The session hands that prefix to the
model in a background thread as soon as the app or the CLI has a model, so the reading (or
the load of the saved state, see ``agent.models.prefix_cache``) overlaps the person typing.
Models without a ``warm`` method (hosted, scripted) are left alone.

Read-ahead: the app's warm-up also hands over the history the next turn will resend
(``Assistant.warm_messages``), at start and again after every turn, so a turn reads only its
own message; at quit that read-ahead is saved (``save_conversations``) and the next start
restores it when it resends the same conversation. docs/models.md has the figures.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Generator
from datetime import datetime
from typing import Any

from agent.models.base import ChatModel
from agent.runtime.toolkit import Registry
from agent.runtime.turn import Assistant
from agent.runtime.turn_types import TurnEvent, TurnResult
from agent.store.db import Store
from agent.timesym.context import TimeContext

log = logging.getLogger(__name__)


Prefix = tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]] | None]


def _prefix_for(calendar_names: list[str], conversation: list[dict[str, Any]] | None = None) -> Prefix:
    """The messages before the conversation, the tool schemas every turn sends, and (the app)
    those messages followed by the history the next turn resends."""
    from agent.runtime.prompt import build_messages
    from agent.runtime.tools import tool_schemas

    leading = build_messages([], "", "")[:-1]  # everything before the (last) user message
    return leading, tool_schemas(calendar_names), conversation


def warm_model(model: object, store: Store, profile_id: int) -> bool:
    """Hand the static prefix to a model that can pre-read it; False when it cannot.

    Blocks while a lazily configured model loads; the prefix evaluation itself runs in the
    model's own background thread (a turn waits for it, with progress, and can stop). The
    CLI calls this before its one turn (the turn follows at once, so there is no history
    worth reading ahead); the app calls ``start_warm_up``.
    """
    if not callable(getattr(model, "warm", None)):
        return False
    from agent.services.calendars import CalendarService

    return _warm(model, CalendarService(store, profile_id).names(), None)


def _warm(model: object, calendar_names: list[str], conversation: list[dict[str, Any]] | None) -> bool:
    warm_with = getattr(model, "warm_with", None)
    if callable(warm_with):  # a lazily loaded model: it builds the prefix once its load lock is held
        warm_with(lambda: _prefix_for(calendar_names, conversation))
        return True
    warm = getattr(model, "warm", None)
    if not callable(warm):
        return False
    messages, tools, _ = _prefix_for(calendar_names)
    warm(messages, tools, conversation=conversation)
    return True


def start_warm_up(
    model: object, store: Store, profile_id: int, conversation: list[dict[str, Any]] | None = None
) -> threading.Thread | None:
    """``warm_model`` on a daemon thread; a failure is logged (the first turn just reads more).

    The calendar names (the one per-user part of the tool schemas) and ``conversation`` (the
    resent history, ``Assistant.warm_messages``) are read on the caller's thread, so the
    warm-up thread never touches the store.
    """
    if not callable(getattr(model, "warm", None)):
        return None
    from agent.services.calendars import CalendarService

    names = CalendarService(store, profile_id).names()

    def run() -> None:
        try:
            _warm(model, names, conversation)
        except Exception as exc:  # a missing file, a bad spec: the turn will say so itself
            log.info("model warm-up skipped: %s", exc)

    thread = threading.Thread(target=run, name="model-warm-up", daemon=True)
    thread.start()
    return thread


class ChatSession:
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
        self.assistant = Assistant(store, profile_id, model, tz=tz, clock=clock, tools=tools)
        self._turn_lock = threading.Lock()
        self._stop = threading.Event()
        self._warm_wanted = False
        self.warm_thread: threading.Thread | None = None

    @property
    def model(self) -> ChatModel | None:
        return self.assistant.model

    @property
    def tools(self) -> Registry:
        """The tools this session's turns offer (the app's status labels come from them)."""
        return self.assistant.tools

    def set_model(self, model: ChatModel | None) -> None:
        with self._turn_lock:
            self.assistant.model = model
        if self._warm_wanted:
            self.warm_up()

    def cancel_warm_up(self) -> None:
        """The app quits: keep a finished read-ahead of the conversation for the next start
        (``save_conversations``), stop a warm-up still running; never loads llama.cpp for it."""
        import sys

        backend = sys.modules.get("agent.models.llama_backend")
        if backend is not None:
            backend.save_conversations()
            backend.cancel_warm_ups()

    def warm_up(self) -> None:
        """Start loading the model and reading the static prefix, then this session's
        history, now (app start, a model change, after each turn)."""
        self._warm_wanted = True
        assistant = self.assistant
        inner = getattr(assistant.model, "loaded", None) or assistant.model  # a LazyModel's loaded model
        if not callable(getattr(inner, "warm", None)):  # hosted, scripted: nothing to read ahead
            self.warm_thread = None
            return
        self.warm_thread = start_warm_up(assistant.model, assistant.store, assistant.profile_id, assistant.warm_messages())

    def stop(self) -> None:
        """Ask the running turn to stop at its next check (between tokens and steps)."""
        self._stop.set()

    def send(self, text: str, ctx: TimeContext | None = None) -> Generator[TurnEvent, None, TurnResult]:
        with self._turn_lock:
            self._stop.clear()
            result = yield from self.assistant.stream_turn(text, ctx, should_stop=self._stop.is_set)
            if self._warm_wanted:  # read this exchange ahead while the person reads the reply
                self.warm_up()
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
            result = self.assistant.action(kind, ctx, date=date)
            if self._warm_wanted:  # a button's exchange is resent next turn too
                self.warm_up()
            return result
