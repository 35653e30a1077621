"""Shared fixtures for the calendar area's tests (imported by them, not a conftest).

Each test gets a real store file in ``tmp_path`` and the context the window would build,
pinned to Monday 2026-11-30 10:00 Asia/Shanghai. Events are seeded through
``EditService`` (the editor's own write path), so the views read exactly what a user
would have saved.
"""

from __future__ import annotations

import os
from datetime import date, datetime, time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from agent.services.editing import EditService, EventDraft
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=SHANGHAI)


def seed(
    store: Store,
    profile_id: int,
    title: str,
    start: date | datetime,
    end: date | datetime,
    calendar_id: int | None = None,
    **fields: object,
) -> str:
    """Create an event the way the editor does; returns its UID."""
    from agent.services.calendars import CalendarService

    calendar = calendar_id if calendar_id is not None else CalendarService(store, profile_id).default().id
    changes = EditService(store, profile_id).create(EventDraft(title, start, end, calendar, **fields))  # type: ignore[arg-type]
    return changes.created[0].uid


def titles(store: Store) -> list[str]:
    return sorted(row[0] for row in store.conn.execute("SELECT title FROM events"))


def accept_with(fill):  # type: ignore[no-untyped-def]
    """An ``exec_dialog`` stand-in: fill the real dialog's fields, then press Save."""
    from app.calendar.event_dialog import EventDialog

    seen: list[EventDialog] = []

    def run(dialog: EventDialog) -> int:
        seen.append(dialog)
        fill(dialog)
        dialog.accept()
        return dialog.result()

    run.seen = seen  # type: ignore[attr-defined]
    return run


@pytest.fixture
def cal_store(file_store: Store) -> Store:
    """The calendar area's store: the suite's one real temp file (``file_store``)."""
    return file_store


@pytest.fixture
def profile(cal_store: Store) -> int:
    return ensure_profile(cal_store)


@pytest.fixture
def cal_ctx(cal_store: Store, profile: int):  # type: ignore[no-untyped-def]
    from app.application import build_context

    ctx = build_context(cal_store, profile, tz="Asia/Shanghai", now=NOW)
    ctx.settings.set("language", "zh")
    return ctx


@pytest.fixture
def area(qtbot, cal_ctx):  # type: ignore[no-untyped-def]
    from app.calendar.calendar_area import CalendarArea

    widget = CalendarArea(cal_ctx)
    qtbot.addWidget(widget)
    widget.resize(1280, 820)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.close()  # before the store closes: no timer may read a closed file
