"""Ctrl+Z, Ctrl+Shift+Z and the import toast's Undo run off the UI thread (``app/write_path.py``).

An import's undo is half a second of CPU; it runs on the ops' one-thread pool while the
window shows a busy cursor and a status line, and the result (the stack, the views, the
toast) is handled back on the UI thread. Each test holds the worker on an event, so what
the window shows *during* the undo is checked, not raced.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.io import import_export
from tests.support.chat_fixtures import event_titles, save_shot

EVENTS = 120


def ics(count: int) -> str:
    events = "".join(
        "BEGIN:VEVENT\r\n"
        f"UID:bulk-{n}@test\r\nDTSTAMP:20261101T000000Z\r\n"
        f"DTSTART;TZID=Asia/Shanghai:202612{1 + n % 28:02d}T{8 + n % 10:02d}0000\r\n"
        f"DTEND;TZID=Asia/Shanghai:202612{1 + n % 28:02d}T{9 + n % 10:02d}0000\r\n"
        f"SUMMARY:导入 {n}\r\nEND:VEVENT\r\n"
        for n in range(count)
    )
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n{events}END:VCALENDAR\r\n"


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    from app import i18n
    from app.main_window import MainWindow

    app_ctx.session.set_model(None)
    app_ctx.settings.override("language", "zh")
    i18n.install(QApplication.instance(), "zh_CN")
    win = MainWindow(app_ctx)
    win.resize(1360, 860)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()
    win.deleteLater()
    i18n.uninstall(QApplication.instance())


@pytest.fixture
def held(app_ctx: Any, monkeypatch: Any) -> Iterator[tuple[threading.Event, list[int]]]:
    """The journal revert waits for ``release`` and records the thread it ran on."""
    release, threads = threading.Event(), []
    revert = app_ctx.ops.collection.revert

    def held_revert(ids: Any) -> Any:
        threads.append(threading.get_ident())
        release.wait(10)
        return revert(ids)

    monkeypatch.setattr(app_ctx.ops.collection, "revert", held_revert)
    yield release, threads
    release.set()


def imported(window: Any, app_ctx: Any, qtbot: Any, tmp_path: Path) -> Any:
    path = tmp_path / "bulk.ics"
    path.write_text(ics(EVENTS), encoding="utf-8")
    job = import_export.import_paths(window, app_ctx, [str(path)], "批量")
    assert job is not None
    with qtbot.waitSignal(job.done, timeout=20_000):
        pass
    job.report_dialog.close()
    assert len(event_titles(app_ctx.store)) == EVENTS
    window.calendar.set_anchor(window.calendar.anchor.replace(month=12, day=2))
    return window.calendar.current_view()


def shown(view: Any) -> int:
    return sum(1 for event in view.events if event.occ.title.startswith("导入"))


def test_ctrl_z_of_an_import_runs_in_the_background_and_the_view_follows(
    window: Any, app_ctx: Any, qtbot: Any, tmp_path: Path, held: Any
) -> None:
    release, threads = held
    ops = app_ctx.ops
    view = imported(window, app_ctx, qtbot, tmp_path)
    assert shown(view) > 0 and window.undo_action.isEnabled()
    window.undo_action.trigger()  # what Ctrl+Z does
    qtbot.waitUntil(lambda: bool(threads), timeout=3000)
    # The worker holds: the window is busy and says so, the store and the view are unchanged.
    assert threads[0] != threading.get_ident()
    assert ops.busy and not window.undo_action.isEnabled() and not window.redo_action.isEnabled()
    assert QApplication.overrideCursor() is not None and QApplication.overrideCursor().shape() == Qt.CursorShape.BusyCursor
    assert window.statusBar().currentMessage() == "正在撤销/重做…"
    assert ops.undo(background=True) is None  # a second Ctrl+Z meanwhile is ignored
    save_shot(window, "undo_in_progress_zh")
    assert shown(window.calendar.current_view()) > 0
    with qtbot.waitSignal(ops.busy_changed, timeout=10_000) as blocker:
        release.set()
    assert blocker.args == [False]
    qtbot.waitUntil(lambda: event_titles(app_ctx.store) == [], timeout=3000)
    assert shown(window.calendar.current_view()) == 0  # the views reloaded from ``changed``
    assert QApplication.overrideCursor() is None and window.statusBar().currentMessage() == ""
    assert window.redo_action.isEnabled() and not ops.can_undo() and "导入" in window.redo_action.text()
    threads.clear()
    window.redo_action.trigger()  # Ctrl+Shift+Z: also in the background, the import comes back
    qtbot.waitUntil(lambda: len(event_titles(app_ctx.store)) == EVENTS and not ops.busy, timeout=10_000)
    assert threads and threads[0] != threading.get_ident()
    qtbot.waitUntil(lambda: shown(window.calendar.current_view()) > 0, timeout=3000)
    assert ops.can_undo() and not ops.can_redo()


def test_the_import_toasts_undo_runs_in_the_background(window: Any, app_ctx: Any, qtbot: Any, tmp_path: Path, held: Any) -> None:
    release, threads = held
    imported(window, app_ctx, qtbot, tmp_path)
    toast = window.calendar.toast
    assert toast.isVisible() and str(EVENTS) in toast.label.text()
    toast.undo_button.click()
    qtbot.waitUntil(lambda: bool(threads), timeout=3000)
    assert threads[0] != threading.get_ident() and app_ctx.ops.busy
    assert len(event_titles(app_ctx.store)) == EVENTS  # held: nothing reverted yet
    release.set()
    qtbot.waitUntil(lambda: event_titles(app_ctx.store) == [] and not app_ctx.ops.busy, timeout=10_000)
    qtbot.waitUntil(lambda: shown(window.calendar.current_view()) == 0, timeout=3000)
    assert app_ctx.ops.can_redo()


def test_without_background_the_same_undo_is_synchronous(app_ctx: Any, qtbot: Any, tmp_path: Path) -> None:
    """Tests, the chat receipt's Undo and single edits read the result at once."""
    from agent.services.editing import EventDraft
    from tests.support.clock import NOW

    ops = app_ctx.ops
    ops.create(EventDraft("周会", NOW, NOW.replace(hour=NOW.hour + 1), ops.calendars.default().id))
    busy = []
    ops.busy_changed.connect(busy.append)
    assert ops.undo() is not None and event_titles(app_ctx.store) == [] and busy == []
