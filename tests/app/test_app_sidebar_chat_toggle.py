"""Issue 23, defect 3: at 960 px with the chat open the sidebar was unreachable.

It stepped aside for lack of room, but View → Sidebar stayed checked and F9 did nothing;
the chat pane had no menu item at all. Now the two checks always say what is shown, F9
makes room for the sidebar (narrowing the chat pane, closing it when even its minimum is
too wide) and View → Chat pane (F10) brings the chat back, the sidebar stepping aside.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.app_fixtures import at, seed
from tests.support.chat_fixtures import save_shot, shown_window
from tests.support.clock import MONDAY


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    with shown_window(app_ctx, qtbot) as win:
        yield win


def _settle(qtbot: Any) -> None:
    qtbot.wait(30)


def _shown(win: Any) -> tuple[bool, bool]:
    """(sidebar, chat) as a person sees them: visible and wider than nothing."""
    sidebar = win.calendar.sidebar.isVisible() and win.calendar.sidebar.width() > 0
    chat = win.chat.isVisible() and win.splitter.sizes()[1] > 0
    return sidebar, chat


def _checks(win: Any) -> tuple[bool, bool]:
    return win.sidebar_action.isChecked(), win.chat_action.isChecked()


def _at_960(win: Any, qtbot: Any) -> None:
    win.resize(960, 640)
    qtbot.waitUntil(lambda: win.width() == 960 and win.height() == 640, timeout=2000)
    _settle(qtbot)


def test_menu_checks_match_what_is_shown_at_960(window: Any, qtbot: Any) -> None:
    win = window
    assert _shown(win) == (True, True) and _checks(win) == (True, True)
    _at_960(win, qtbot)
    # The sidebar steps aside for lack of room: its check says so.
    assert _shown(win) == (False, True)
    assert _checks(win) == _shown(win)
    # Wide again: it comes back by itself (it was never hidden on purpose), checked.
    win.resize(1360, 860)
    qtbot.waitUntil(lambda: win.width() == 1360, timeout=2000)
    _settle(qtbot)
    assert _shown(win) == (True, True) and _checks(win) == (True, True)


def test_f9_at_960_with_the_chat_open_shows_the_sidebar(window: Any, qtbot: Any) -> None:
    win = window
    _at_960(win, qtbot)
    assert _shown(win) == (False, True)
    win.calendar.current_view().setFocus(Qt.FocusReason.OtherFocusReason)
    QTest.keyClick(win, Qt.Key.Key_F9)
    _settle(qtbot)
    sidebar, _chat = _shown(win)
    assert sidebar, "F9 must show the sidebar"
    assert _checks(win) == _shown(win)
    assert "narrow" not in win.statusBar().currentMessage()  # it did fit: no complaint
    calendar = win.calendar
    assert calendar.sidebar_fits(calendar.width())  # the views keep their comfortable width
    save_shot(win, "sidebar_f9_960")
    # F9 again hides it on purpose, and it stays hidden when the window widens.
    QTest.keyClick(win, Qt.Key.Key_F9)
    _settle(qtbot)
    assert not _shown(win)[0] and _checks(win) == _shown(win)
    win.resize(1360, 860)
    qtbot.waitUntil(lambda: win.width() == 1360, timeout=2000)
    _settle(qtbot)
    assert not _shown(win)[0] and _checks(win) == _shown(win)


def test_view_chat_pane_toggles_the_chat_and_f10_does_too(window: Any, qtbot: Any) -> None:
    win = window
    view_menu = win.menuBar().actions()[2].menu()
    assert win.chat_action in view_menu.actions() and win.chat_action.isCheckable()
    win.chat_action.trigger()
    _settle(qtbot)
    assert _shown(win) == (True, False) and _checks(win) == _shown(win)
    win.chat_action.trigger()
    _settle(qtbot)
    assert _shown(win) == (True, True) and _checks(win) == _shown(win)
    from app.main_window import CHAT_MIN_WIDTH

    assert win.chat.width() >= CHAT_MIN_WIDTH
    win.calendar.current_view().setFocus(Qt.FocusReason.OtherFocusReason)
    QTest.keyClick(win, Qt.Key.Key_F10)
    _settle(qtbot)
    assert _shown(win) == (True, False) and _checks(win) == _shown(win)
    QTest.keyClick(win, Qt.Key.Key_F10)
    _settle(qtbot)
    assert _shown(win) == (True, True) and _checks(win) == _shown(win)


def test_at_960_the_latest_request_wins_and_the_checks_follow(window: Any, qtbot: Any) -> None:
    win = window
    _at_960(win, qtbot)
    QTest.keyClick(win, Qt.Key.Key_F9)  # sidebar asked for: room is made
    _settle(qtbot)
    assert _shown(win)[0] and _checks(win) == _shown(win)
    if not _shown(win)[1]:  # the chat had to close: F10 brings it back, the sidebar steps aside
        QTest.keyClick(win, Qt.Key.Key_F10)
        _settle(qtbot)
        assert _shown(win) == (False, True) and _checks(win) == _shown(win)


def test_dragging_the_chat_shut_unchecks_it(window: Any, qtbot: Any) -> None:
    win = window
    win.splitter.moveSplitter(win.splitter.width(), 1)  # dragged all the way: the chat collapses
    _settle(qtbot)
    assert not _shown(win)[1] and not win.chat_action.isChecked()
    win.chat_action.trigger()
    _settle(qtbot)
    from app.main_window import CHAT_MIN_WIDTH

    assert _shown(win)[1] and win.chat.width() >= CHAT_MIN_WIDTH and win.chat_action.isChecked()


def test_the_chat_pane_key_is_listed_and_clashes_with_nothing(window: Any) -> None:
    from app.shortcuts_dialog import ShortcutsDialog

    dialog = ShortcutsDialog(window.menuBar(), window)
    rows = dict(dialog.rows())
    assert rows.get("Chat pane") == "F10" and rows.get("Sidebar") == "F9"
    keys = [key.toString() for action in window.findChildren(type(window.chat_action)) for key in action.shortcuts()]
    assert keys.count("F10") == 1 and keys.count("F9") == 1
    dialog.deleteLater()


def test_f9_in_a_window_too_narrow_even_without_the_chat_says_so(window: Any, qtbot: Any) -> None:
    win = window
    win.show_chat(False)
    _settle(qtbot)  # the window's minimum drops by the chat's once the layout has run
    win.resize(700, 640)
    qtbot.waitUntil(lambda: win.width() == 700, timeout=2000)
    _settle(qtbot)
    assert _shown(win) == (False, False) and _checks(win) == _shown(win)
    QTest.keyClick(win, Qt.Key.Key_F9)
    _settle(qtbot)
    assert _shown(win) == (False, False) and _checks(win) == _shown(win)
    assert "narrow" in win.statusBar().currentMessage()


def test_every_main_window_string_has_a_chinese_translation() -> None:
    import ast
    import json
    from pathlib import Path

    from app import i18n

    catalogue = json.loads(i18n.catalogue_path("zh_CN").read_text(encoding="utf-8")).get("MainWindow", {})
    tree = ast.parse((Path(__file__).resolve().parents[2] / "app/main_window.py").read_text(encoding="utf-8"))
    strings = [
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "tr"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert "&Chat pane" in strings and [s for s in strings if s not in catalogue] == []
