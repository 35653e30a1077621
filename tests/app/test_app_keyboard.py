"""Typing never drives the calendar by accident (issue 15, defect 1).

With no model configured the chat input is disabled. Found by hand: a click on it left the
focus in the week view, so typing "Meeting at 3" switched views (M, T, A), Enter opened the
selected event's editor and Backspace deleted the selected event without a word. These tests
drive the real main window offscreen with real key and mouse events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.support.app_fixtures import at, seed, titles
from tests.support.clock import MONDAY


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    from app.main_window import MainWindow

    app_ctx.session.set_model(None)  # no model: the chat input is disabled
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    app_ctx.ops.changed.emit(None)
    win = MainWindow(app_ctx)
    win.resize(1360, 860)
    win.show()
    qtbot.waitExposed(win)
    win.calendar.set_view("week")
    yield win
    # Delete the window (its views', reminders' and chat's timers) before the store closes.
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def _select_first_event(win: Any) -> None:
    view = win.calendar.current_view()
    view.select(view.events[0].key)
    view.setFocus(Qt.FocusReason.MouseFocusReason)
    assert view.selected_event() is not None and QApplication.focusWidget() is view


def test_typing_after_a_click_on_the_disabled_chat_input_does_nothing(window: Any, qtbot: Any) -> None:
    win = window
    _select_first_event(win)
    assert not win.chat.input.isEnabled()
    qtbot.mouseClick(win.chat.input, Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is not win.calendar.current_view()
    opened: list[object] = []
    win.calendar.editor_factory = lambda *a, **k: opened.append(a) or (_ for _ in ()).throw(AssertionError("editor"))
    qtbot.keyClicks(QApplication.focusWidget() or win, "Meeting at 3")
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
        qtbot.keyClick(QApplication.focusWidget() or win, key)
    assert win.calendar.view_name == "week"  # M, T, A did not switch views
    assert opened == []  # Enter did not open the editor
    assert titles(win.ctx.store) == ["周会"]  # Backspace did not delete


def test_single_letter_shortcuts_still_work_in_the_calendar(window: Any, qtbot: Any) -> None:
    win = window
    win.calendar.current_view().setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClick(win.calendar.current_view(), Qt.Key.Key_M)
    assert win.calendar.view_name == "month"
    win.calendar.current_view().setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClick(win.calendar.current_view(), Qt.Key.Key_W)
    assert win.calendar.view_name == "week"


def test_letters_typed_in_the_search_box_are_text_not_shortcuts(window: Any, qtbot: Any) -> None:
    win = window
    search = win.calendar.nav.search
    search.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClicks(search, "Team")
    assert search.text() == "Team" and win.calendar.view_name == "week"


def test_letters_typed_in_the_enabled_chat_input_are_text(window: Any, qtbot: Any) -> None:
    from agent.models.script_backend import ScriptedModel

    win = window
    win.ctx.session.set_model(ScriptedModel([]))
    win.chat.model_changed()
    assert win.chat.input.isEnabled()
    qtbot.mouseClick(win.chat.input, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(win.chat.input, "Meeting at 3")
    assert win.chat.input.text() == "Meeting at 3" and win.calendar.view_name == "week"


def test_a_keyboard_delete_shows_an_undo_toast_that_restores_it(window: Any, qtbot: Any) -> None:
    win = window
    _select_first_event(win)
    qtbot.keyClick(win.calendar.current_view(), Qt.Key.Key_Delete)
    assert titles(win.ctx.store) == []
    toast = win.calendar.toast
    assert toast.isVisible() and "周会" in toast.label.text() and toast.undo_button.isVisible()
    qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert titles(win.ctx.store) == ["周会"] and not toast.isVisible()


def test_the_disabled_chat_input_says_why_and_a_click_shows_the_hint(window: Any, qtbot: Any) -> None:
    """Issue 32, defect 10: disabled, the input still said "Tell me what to schedule…" and a
    click swallowed the typing without a word."""
    from PySide6.QtWidgets import QToolTip

    chat = window.chat
    assert not chat.input.isEnabled()
    placeholder, hint = chat.input.placeholderText(), chat.input.toolTip()
    assert "Ctrl+L" in placeholder and "Tell me" not in placeholder
    assert chat.input.fontMetrics().horizontalAdvance(placeholder) < chat.input.width()  # not cut
    assert "Settings" in hint and "Ctrl+L" in hint
    qtbot.mouseClick(chat.input, Qt.MouseButton.LeftButton)
    assert QToolTip.text() == hint


def test_settings_model_page_does_not_say_the_pane_stays_closed(app_ctx: Any, qtbot: Any) -> None:
    from PySide6.QtWidgets import QLabel

    from app.settings.model_page import ModelPage

    page = ModelPage(app_ctx)
    qtbot.addWidget(page)
    texts = " ".join(label.text() for label in page.findChildren(QLabel))
    assert "stays off" not in texts and "quick add (Ctrl+L)" in texts
