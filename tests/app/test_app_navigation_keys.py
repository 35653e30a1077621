"""Thunderbird-grade navigation from the keyboard (issue 32, defect 5).

Found under Xvfb: Tab from the view went to the chat, Sync, then the mini month, and never
reached the quick-add field, Today/‹/›, the date box, the view buttons or the search box
(Qt asks a focus proxy's holder, the mini month's calendar made first in the window, before
anything else). There was no Ctrl+G, PageUp/PageDown did nothing, and after a typed date and
Enter the keys stayed in the date box, so the next view key (W) was typed into it.
These tests drive the real main window offscreen with real key events.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    from app.main_window import MainWindow

    app_ctx.session.set_model(None)
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    win = MainWindow(app_ctx)
    win.resize(1177, 736)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    win.calendar.set_view("week")
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.calendar.current_view())
    yield win
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def _focus() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def _walk(qtbot: Any, key: Qt.Key, count: int) -> list[QWidget]:
    seen = []
    for _ in range(count):
        qtbot.keyClick(_focus(), key)
        seen.append(_focus())
    return seen


def test_tab_from_the_view_reaches_every_control_above_it_and_comes_back(window: Any, qtbot: Any) -> None:
    win = window
    nav = win.calendar.nav
    wanted = [
        win.calendar.quick_add.field,
        nav.today_button,
        nav.prev_button,
        nav.next_button,
        nav.date_edit,
        *(button for button in nav.view_buttons.values() if button.isVisible()),
        nav.search,
    ]
    seen = _walk(qtbot, Qt.Key.Key_Tab, 40)
    for widget in wanted:
        assert widget in seen, widget
    order = [seen.index(widget) for widget in wanted]
    assert order == sorted(order)  # in the order they are laid out
    assert win.calendar.current_view() in seen  # and round to the view again


def test_shift_tab_walks_the_same_ring_backwards(window: Any, qtbot: Any) -> None:
    win = window
    forward = _walk(qtbot, Qt.Key.Key_Tab, 40)
    ring = forward[: forward.index(win.calendar.current_view()) + 1]
    win.calendar.current_view().setFocus(Qt.FocusReason.OtherFocusReason)
    backward = _walk(qtbot, Qt.Key.Key_Backtab, len(ring))
    assert backward == list(reversed(ring[:-1])) + [win.calendar.current_view()]


def test_ctrl_g_goes_to_a_typed_date_and_enter_gives_the_keys_back_to_the_view(window: Any, qtbot: Any) -> None:
    win = window
    qtbot.keyClick(_focus(), Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    box = win.calendar.nav.date_edit
    assert _focus() is box or box.isAncestorOf(_focus())
    box.lineEdit().setText("2027-03-08")  # a typing session, as keys would start it
    box._start_typing()
    qtbot.keyClick(_focus(), Qt.Key.Key_Return)
    assert win.calendar.anchor == date(2027, 3, 8)
    assert _focus() is win.calendar.current_view()
    qtbot.keyClick(_focus(), Qt.Key.Key_M)  # the next view key is a view key, not text
    assert win.calendar.view_name == "month"


def test_esc_in_the_date_box_returns_to_the_view(window: Any, qtbot: Any) -> None:
    win = window
    qtbot.keyClick(_focus(), Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert win.calendar.nav.date_edit.isAncestorOf(_focus()) or _focus() is win.calendar.nav.date_edit
    qtbot.keyClick(_focus(), Qt.Key.Key_Escape)
    assert _focus() is win.calendar.current_view()


@pytest.mark.parametrize(
    ("view", "later", "earlier"),
    [
        ("week", date(2026, 12, 7), date(2026, 11, 23)),
        ("day", date(2026, 12, 1), date(2026, 11, 29)),
        ("month", date(2026, 12, 30), date(2026, 10, 30)),
    ],
)
def test_page_down_and_up_move_by_the_views_period(window: Any, qtbot: Any, view: str, later: date, earlier: date) -> None:
    win = window
    win.calendar.set_view(view)
    start = win.calendar.anchor
    qtbot.keyClick(_focus(), Qt.Key.Key_PageDown)
    assert win.calendar.anchor == later
    qtbot.keyClick(_focus(), Qt.Key.Key_PageUp)
    assert win.calendar.anchor == start
    qtbot.keyClick(_focus(), Qt.Key.Key_PageUp)
    assert win.calendar.anchor == earlier


def test_esc_in_the_view_closes_the_search_results_after_enter(window: Any, qtbot: Any) -> None:
    """Issue 32, defect 13: after Enter on a result, Esc, Esc left the results panel open."""
    win = window
    search = win.calendar.nav.search
    search.setFocus(Qt.FocusReason.OtherFocusReason)
    search.setText("周会")
    qtbot.waitUntil(lambda: win.calendar.search_panel.isVisible())
    qtbot.keyClick(search, Qt.Key.Key_Return)
    assert _focus() is win.calendar.current_view()
    qtbot.keyClick(_focus(), Qt.Key.Key_Escape)  # clears the selection
    qtbot.keyClick(_focus(), Qt.Key.Key_Escape)  # then closes the results
    assert not win.calendar.search_panel.isVisible() and search.text() == ""
