"""Shortcuts people can find (issue 15): Help → Keyboard shortcuts lists every key, opens
with the standard Help key (F1) or Ctrl+/; Settings has Ctrl+, on Linux; and the Undo
menu item says what it would undo ("Undo Delete “周会”")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from tests.support.app_fixtures import at, seed, titles
from tests.support.chat_fixtures import save_shot, shown_window
from tests.support.clock import MONDAY


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    app_ctx.ops.changed.emit(None)
    with shown_window(app_ctx, qtbot, 1200, 800) as win:
        yield win


def _keys(action: Any) -> list[str]:
    return [key.toString(QKeySequence.SequenceFormat.PortableText) for key in action.shortcuts()]


def test_help_has_a_keyboard_shortcuts_item_with_the_standard_keys(window: Any) -> None:
    keys = _keys(window.shortcuts_action)
    assert "Ctrl+/" in keys
    assert all(key.toString() in keys for key in QKeySequence.keyBindings(QKeySequence.StandardKey.HelpContents))
    assert window.shortcuts_action in window.menuBar().actions()[-1].menu().actions()


def test_settings_has_ctrl_comma_where_the_platform_defines_none(window: Any) -> None:
    standard = QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences)
    keys = _keys(window.settings_action)
    assert keys == ([key.toString() for key in standard] or ["Ctrl+,"])
    opened: list[bool] = []
    window.open_settings = lambda: opened.append(True)  # the slot is looked up when the key fires
    window.settings_action.triggered.disconnect()
    window.settings_action.triggered.connect(lambda: window.open_settings())
    window.calendar.current_view().setFocus(Qt.FocusReason.OtherFocusReason)
    from PySide6.QtTest import QTest

    QTest.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert opened == [True]


def test_the_shortcut_list_shows_every_menu_shortcut_and_the_view_keys(window: Any, qtbot: Any) -> None:
    from app.shortcuts_dialog import ShortcutsDialog, key_text, plain

    dialog = ShortcutsDialog(window.menuBar(), window)
    qtbot.addWidget(dialog)
    rows = dict(dialog.rows())
    for top in window.menuBar().actions():
        for action in top.menu().actions():
            if action.shortcuts():
                assert plain(action.text()) in rows, action.text()
                shown = rows[plain(action.text())]
                for key in action.shortcuts():
                    if key_text([key]):  # a dedicated Help/Copy key is not listed (issue 32)
                        assert key.toString(QKeySequence.SequenceFormat.NativeText) in shown
    assert rows["Settings"].startswith(
        QKeySequence("Ctrl+,").toString(QKeySequence.SequenceFormat.NativeText)
    ) or QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences)
    assert "Delete the selected event (Undo in the notice)" in rows
    assert "Menu of the selected event" in rows
    dialog.filter.setText("undo")
    found = {action for action, _ in dialog.rows()}
    assert "Delete the selected event (Undo in the notice)" in found
    assert any(action.startswith("Undo") for action in found)  # "Undo Create “周会”": the journal's next step
    assert "Find" not in dict(dialog.rows())
    dialog.filter.clear()
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.tree.verticalScrollBar().maximum() == 0 or dialog.height() >= 360  # not a tiny scrolling box
    save_shot(dialog, "shortcuts_dialog")


def test_f1_opens_the_shortcut_list(window: Any, qtbot: Any) -> None:
    from app.shortcuts_dialog import ShortcutsDialog

    found: list[Any] = []

    def close_it() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, ShortcutsDialog) and widget.isVisible():
                found.append(widget)
                widget.reject()

    QTimer.singleShot(100, close_it)
    window.calendar.current_view().setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(window, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    assert len(found) == 1


def test_the_undo_item_says_what_it_undoes(window: Any) -> None:
    ops = window.ctx.ops
    # The journal is the history: the seeded event is undoable from the start, as in `richeng undo`.
    assert window.undo_action.text() == "&Undo Create “周会”" and window.undo_action.isEnabled()
    view = window.calendar.current_view()
    event = next(event for event in view.events if event.occ.title == "周会")
    window.calendar._delete_requested(event)
    assert titles(window.ctx.store) == []
    assert window.undo_action.text() == "&Undo Delete “周会”" and window.undo_action.isEnabled()
    # The toast's Undo (undo_specific) leaves a Redo that still names the change.
    assert window.calendar.toast.isVisible()
    window.calendar.toast.undo_button.click()
    assert titles(window.ctx.store) == ["周会"]
    assert window.undo_action.text() == "&Undo Create “周会”" and window.redo_action.text() == "&Redo Delete “周会”"
    ops.redo()
    assert titles(window.ctx.store) == []
    assert window.undo_action.text() == "&Undo Delete “周会”" and window.redo_action.text() == "&Redo"
    ops.undo()
    assert window.undo_action.text() == "&Undo Create “周会”" and window.redo_action.text() == "&Redo Delete “周会”"


def test_the_undo_item_in_chinese(window: Any) -> None:
    from app import i18n

    app = QApplication.instance()
    translator = i18n.install(app, "zh_CN")
    try:
        view = window.calendar.current_view()
        event = next(event for event in view.events if event.occ.title == "周会")
        window.calendar._delete_requested(event)
        assert window.undo_action.text() == "撤销删除“周会”(&U)"
    finally:
        app.removeTranslator(translator)


@pytest.mark.parametrize(
    ("path", "context"),
    [
        ("app/shortcuts_dialog.py", "ShortcutsDialog"),
        ("app/calendar/event_menu.py", "EventMenu"),
        ("app/write_path.py", "Operations"),
    ],
)
def test_every_new_string_has_a_chinese_translation(path: str, context: str) -> None:
    """``self.tr`` in the class and the module's ``_tr`` helper both read ``context``."""
    import ast
    import json
    from pathlib import Path

    from app import i18n

    catalogue = json.loads(i18n.catalogue_path("zh_CN").read_text(encoding="utf-8")).get(context, {})
    tree = ast.parse((Path(__file__).resolve().parents[2] / path).read_text(encoding="utf-8"))
    strings = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr == "tr") or (isinstance(func, ast.Name) and func.id == "_tr"):
                strings.append(node.args[0].value)
    if context == "EventMenu":
        strings = [s for s in strings if s == "all day"]  # the class's self.tr: test_app_calendar_views
    assert strings and [s for s in strings if s not in catalogue] == []


def test_dedicated_help_and_copy_keys_are_not_listed_as_words() -> None:
    """Issue 32, defect 13: Help → Keyboard shortcuts showed "帮助" and "退出" (the dedicated
    Help and Exit keys of some keyboards, by name) as if they were keys to press."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeySequence

    from app.shortcuts_dialog import key_text

    assert key_text([QKeySequence("F1"), QKeySequence(Qt.Key.Key_Help)]) == "F1"
    assert key_text(QKeySequence.keyBindings(QKeySequence.StandardKey.Copy)).split(", ")[0] == "Ctrl+C"
    assert "Copy" not in key_text(QKeySequence.keyBindings(QKeySequence.StandardKey.Copy))
    assert key_text([QKeySequence(Qt.Key.Key_Exit)]) == ""


def test_the_about_box_is_as_wide_as_its_title(app_ctx: Any, qtbot: Any) -> None:
    """Issue 32, defect 13: "About Richeng — 日程 Richeng" was elided to "Abo…eng"."""
    from app.main_window import MainWindow
    from app.settings.holiday_choice import TITLE_BAR_CHROME

    app_ctx.session.set_model(None)
    win = MainWindow(app_ctx)
    box = win.about_box()
    box.show()
    qtbot.waitExposed(box)
    assert box.windowTitle() == "About"
    title = "About — " + (QApplication.applicationDisplayName() or "日程 Richeng")
    assert box.width() >= box.fontMetrics().horizontalAdvance(title) + TITLE_BAR_CHROME
    box.close()
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)
