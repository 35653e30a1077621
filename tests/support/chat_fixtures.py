"""Shared fixtures for the app's chat, settings and import tests (imported, not a conftest).

Every test gets a real store file in ``tmp_path`` and the app context the window would
build, pinned to Monday 2026-11-30 10:00 Asia/Shanghai. Models are scripted; nothing here
can reach a network, a keyring or a download.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from agent.models.base import ModelEvent
from agent.models.script_backend import ScriptedModel
from agent.services.calendars import CalendarService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW

SHOTS = Path(os.environ.get("RICHENG_SHOTS_DIR", "/tmp/richeng-shots"))


class PacedScriptedModel(ScriptedModel):
    """A scripted model that sleeps between events, like a real one producing tokens."""

    def __init__(self, turns: list[dict[str, Any]], delay: float = 0.0) -> None:
        super().__init__(turns)
        self.delay = delay

    def _play(self, index: int) -> Iterator[ModelEvent]:
        for event in super()._play(index):
            if self.delay:
                time.sleep(self.delay)
            yield event


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def add_event(store: Store, profile_id: int, title: str, start: date | datetime, end: date | datetime) -> None:
    calendar = CalendarService(store, profile_id).default()
    with store.transaction():
        EventRepo(store, profile_id).save(build_event(title, start, end), calendar.id, "user")


def event_titles(store: Store) -> list[str]:
    return [row[0] for row in store.conn.execute("SELECT title FROM events ORDER BY id")]


def save_shot(widget: Any, name: str) -> Path | None:
    """Screenshots for people, only when RICHENG_SHOTS=1 (they are looked at, not asserted)."""
    if os.environ.get("RICHENG_SHOTS") != "1":
        return None
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    from PySide6.QtWidgets import QApplication

    for _ in range(5):  # pending layout requests first (each pass may post the parent's), as before a real paint
        QApplication.processEvents()
    widget.grab().save(str(path))
    return path


@pytest.fixture
def app_store(file_store: Store) -> Store:
    """The chat pane's store: the suite's one real temp file (``file_store``)."""
    return file_store


@pytest.fixture
def app_ctx(app_store: Store, qapp: Any) -> Any:
    from app.application import build_context

    profile_id = ensure_profile(app_store)
    return build_context(app_store, profile_id, tz="Asia/Shanghai", now=NOW)


@pytest.fixture
def make_pane(app_ctx: Any, qtbot: Any) -> Iterator[Callable[..., Any]]:
    """``make_pane(model)``: a shown ChatPane over ``app_ctx`` with ``model`` set first."""
    from app.chat.chat_pane import ChatPane

    panes: list[Any] = []

    def make(model: Any = None, width: int = 420, height: int = 640) -> Any:
        app_ctx.session.set_model(model)
        pane = ChatPane(app_ctx)
        qtbot.addWidget(pane)
        pane.resize(width, height)
        pane.show()
        panes.append(pane)
        qtbot.waitUntil(pane.warmed_up, timeout=10_000)
        return pane

    yield make
    for pane in panes:
        pane.shutdown()


@contextmanager
def shown_window(ctx: Any, qtbot: Any, width: int = 1360, height: int = 860) -> Iterator[Any]:
    """The main window over ``ctx`` with no model, shown at ``width`` x ``height`` and exposed;
    on leaving, its chat is shut down and the window deleted (its views', reminders' and
    chat's timers) before the store closes."""
    from app.main_window import MainWindow

    ctx.session.set_model(None)
    win = MainWindow(ctx)
    win.resize(width, height)
    win.show()
    qtbot.waitExposed(win)
    try:
        yield win
    finally:
        win.chat.shutdown()
        win.close()
        win.deleteLater()
        qtbot.wait(20)
