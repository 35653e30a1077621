"""The quick-add field (issue 21, item 3): typing underlines what code read and previews the
event; Enter writes it through the command layer and the app's undo stack; a conflict asks;
Esc clears; it needs no model. The chat input shows the same underlines.

Every test runs at the suites' fixed instant (Monday 2026-11-30 10:00 Asia/Shanghai), so
"明天下午三点" is Tuesday 2026-12-01 15:00."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from agent.models.script_backend import ScriptedModel
from agent.services.commands import CommandService
from tests.support.app_fixtures import at, seed, titles
from tests.support.chat_fixtures import save_shot
from tests.support.clock import MONDAY, NOW, ctx_at

TUESDAY = MONDAY + timedelta(days=1)
SENTENCE = "明天下午三点和张三开会"


@pytest.fixture
def window(app_ctx: Any, qtbot: Any, request: Any) -> Iterator[Any]:
    """The main window with no model configured (a first run), in Chinese unless the test
    asks for ``en`` (``indirect`` parametrize)."""
    from app import i18n
    from app.main_window import MainWindow

    lang = getattr(request, "param", "zh_CN")
    app_ctx.session.set_model(None)
    app_ctx.settings.override("language", "zh" if lang == "zh_CN" else "en")  # what --lang sets
    i18n.install(QApplication.instance(), lang)
    win = MainWindow(app_ctx)
    win.resize(1360, 860)
    win.show()
    win.activateWindow()
    qtbot.waitExposed(win)
    yield win
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)
    i18n.uninstall(QApplication.instance())


def keyboard(widget: Any, text: str) -> None:
    """Type ``text`` as a person would: ASCII as key clicks, CJK through an input method
    (a pinyin preedit, then its commit), one character at a time. (QTest's key clicks take
    ASCII only.)"""
    for ch in text:
        if ch.isascii():
            QTest.keyClicks(widget, ch)
            continue
        QApplication.sendEvent(widget, QInputMethodEvent("pin", []))  # composing: no formats are sent
        QApplication.sendEvent(widget, _commit(ch))
    QApplication.processEvents()  # formats set during a commit are applied right after it


def _commit(text: str) -> QInputMethodEvent:
    event = QInputMethodEvent()
    event.setCommitString(text)
    return event


def bar(win: Any) -> Any:
    return win.calendar.quick_add


def type_into(win: Any, qtbot: Any, text: str) -> Any:
    QTest.keyClick(win, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    field = bar(win).field
    assert QApplication.focusWidget() is field
    keyboard(field, text)
    return field


def calendar_name(app_ctx: Any) -> str:
    return app_ctx.ops.calendars.default().name


def test_typing_underlines_each_role_and_previews_the_event(window: Any, qtbot: Any, app_ctx: Any) -> None:
    field = type_into(window, qtbot, SENTENCE)
    assert field.formats() == [(0, 2, "day"), (2, 4, "time")]  # 明天 | 下午三点; the title plain
    preview = bar(window).preview_plain
    assert preview == f"回车添加：周二 12月1日 15:00–16:00 · 和张三开会 · {calendar_name(app_ctx)}"
    save_shot(window, "quick-add-typing-zh")
    field.clear()
    keyboard(field, "每周一上午10点在会议室开周会 提前15分钟提醒")
    assert [role for _start, _length, role in field.formats()] == ["repeat", "time", "location", "reminder"]
    assert bar(window).preview_plain == (
        f"回车添加：周一 11月30日 10:00–11:00 · 开周会 · 地点：会议室 · 每周一 · 提前15分钟提醒 · {calendar_name(app_ctx)}"
    )
    assert titles(app_ctx.store) == []  # typing writes nothing


def test_every_keystroke_updates_the_underlines_and_the_problem_line(window: Any, qtbot: Any) -> None:
    field = type_into(window, qtbot, "明天")
    assert field.formats() == [(0, 2, "day")]
    assert bar(window).preview_plain == "只有时间，没有事件名称，例如“和张三开会”"
    keyboard(field, "和张三开会")
    assert field.formats() == [(0, 2, "day")] and "全天" in bar(window).preview_plain
    QTest.keyClick(field, Qt.Key.Key_Home)
    keyboard(field, "下午三点")  # at the front, before the cursor's old place
    assert field.text() == "下午三点明天和张三开会" and [r for *_x, r in field.formats()] == ["time", "day"]


@pytest.mark.parametrize("window", ["en"], indirect=True)
def test_english_preview_and_all_day(app_ctx: Any, window: Any, qtbot: Any) -> None:
    field = type_into(window, qtbot, "Lunch with Tom tomorrow at noon")
    assert {role for *_x, role in field.formats()} == {"day", "time"}
    assert bar(window).preview_plain.startswith("Enter: Tue Dec 1 12:00–13:00 · Lunch with Tom")
    save_shot(window, "quick-add-typing-en")
    field.clear()
    keyboard(field, "Dentist Friday")
    assert "Fri Dec 4 · all day · Dentist" in bar(window).preview_plain


def test_enter_creates_one_event_shows_it_and_ctrl_z_removes_it(window: Any, qtbot: Any, app_ctx: Any) -> None:
    field = type_into(window, qtbot, SENTENCE)
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert titles(app_ctx.store) == ["和张三开会"]
    events = CommandService(app_ctx.store, app_ctx.profile_id, ctx_at(NOW)).queries.between(
        at(TUESDAY, 0), at(TUESDAY + timedelta(days=1), 0)
    )
    assert [(e.title, e.start.astimezone(NOW.tzinfo).hour) for e in events] == [("和张三开会", 15)]
    assert field.text() == "" and "已添加" in bar(window).preview_plain or "Added" in bar(window).preview_plain
    view = window.calendar.current_view()
    assert view.selected_key is not None and view.selected_key[0] == events[0].uid  # shown and flashing
    assert window.calendar.anchor == TUESDAY
    save_shot(window, "quick-add-created")
    qtbot.waitUntil(lambda: window.calendar._flash is None, timeout=4000)
    assert view.selected_key is not None and view.selected_key[0] == events[0].uid  # ends selected
    assert window.undo_action.isEnabled()
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: titles(app_ctx.store) == [], timeout=3000)  # Ctrl+Z runs on the ops' pool


def test_ctrl_z_in_the_emptied_field_undoes_the_create(window: Any, qtbot: Any, app_ctx: Any) -> None:
    type_into(window, qtbot, SENTENCE)
    QTest.keyClick(bar(window).field, Qt.Key.Key_Return)
    field = type_into(window, qtbot, "")  # back in the field, empty: Ctrl+Z is the app's Undo
    QTest.keyClick(field, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: titles(app_ctx.store) == [], timeout=3000)  # Ctrl+Z runs on the ops' pool
    assert field.text() == ""


def test_a_conflict_opens_the_dialog_and_create_anyway_keeps_both(window: Any, qtbot: Any, app_ctx: Any) -> None:
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(TUESDAY, 15), at(TUESDAY, 16))
    app_ctx.ops.changed.emit(None)
    field = type_into(window, qtbot, SENTENCE)
    QTest.keyClick(field, Qt.Key.Key_Return)
    dialog = bar(window).conflict_dialog
    assert dialog is not None and dialog.isVisible() and titles(app_ctx.store) == ["周会"]
    assert any("周会" in line for line in dialog.conflict_lines())
    save_shot(dialog, "quick-add-conflict")
    dialog.create_button.click()
    assert bar(window).conflict_dialog is None and titles(app_ctx.store) == ["周会", "和张三开会"]
    assert field.text() == ""
    window.ctx.ops.undo()  # one undo step, like any create
    assert titles(app_ctx.store) == ["周会"]


def test_change_time_keeps_the_sentence_and_leaves_nothing_pending(window: Any, qtbot: Any, app_ctx: Any) -> None:
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(TUESDAY, 15), at(TUESDAY, 16))
    field = type_into(window, qtbot, SENTENCE)
    QTest.keyClick(field, Qt.Key.Key_Return)
    bar(window).conflict_dialog.change_button.click()
    assert titles(app_ctx.store) == ["周会"] and field.text() == SENTENCE
    assert CommandService(app_ctx.store, app_ctx.profile_id, ctx_at(NOW)).active_stub() is None  # chat sees no chip


def test_a_past_time_says_so_and_dont_add_writes_nothing(window: Any, qtbot: Any, app_ctx: Any) -> None:
    field = type_into(window, qtbot, "今天上午九点晨会")
    QTest.keyClick(field, Qt.Key.Key_Return)
    dialog = bar(window).past_time_dialog
    assert dialog is not None and dialog.isVisible() and "已经过去" in bar(window).preview_plain
    dialog.drop_button.click()
    assert titles(app_ctx.store) == [] and field.text() == "今天上午九点晨会"


def test_esc_clears_and_an_unreadable_sentence_writes_nothing(window: Any, qtbot: Any, app_ctx: Any) -> None:
    field = type_into(window, qtbot, "和张三开会")
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert titles(app_ctx.store) == [] and field.text() == "和张三开会"
    assert bar(window).preview_plain == "没有读到日期或时间，例如“明天”“下午三点”"
    QTest.keyClick(field, Qt.Key.Key_Escape)
    assert field.text() == "" and field.formats() == [] and bar(window).preview_plain == ""
    QTest.keyClick(field, Qt.Key.Key_Escape)  # empty: the calendar takes the keys back
    assert QApplication.focusWidget() is window.calendar.current_view()


def test_the_shortcut_is_listed_and_the_no_model_panel_points_to_the_field(window: Any, qtbot: Any) -> None:
    from app.shortcuts_dialog import ShortcutsDialog

    dialog = ShortcutsDialog(window.menuBar(), window)
    qtbot.addWidget(dialog)
    assert dict(dialog.rows())["快速添加"] == "Ctrl+L"
    panel = window.chat.no_model_panel
    assert window.chat.stack.currentWidget() is panel and panel.quick_button.isVisible()
    window.calendar.current_view().setFocus()
    panel.quick_button.click()
    assert QApplication.focusWidget() is bar(window).field
    save_shot(window, "quick-add-no-model-panel")


def test_the_chat_input_underlines_the_same_words(make_pane: Any, app_ctx: Any) -> None:
    pane = make_pane(ScriptedModel([]))
    pane.input.setText(SENTENCE)
    assert pane.input.formats() == [(0, 2, "day"), (2, 4, "time")]
    pane.input.setText("你好")
    assert pane.input.formats() == []
    assert date(2026, 12, 1) == TUESDAY


def test_a_long_preview_drops_whole_parts_and_keeps_the_full_line_in_the_tooltip(window: Any, qtbot: Any) -> None:
    field = type_into(window, qtbot, "每周一上午10点在会议室开周会 提前15分钟提醒")
    quick = bar(window)

    def overflows() -> bool:
        return quick.preview.width() < quick.preview.fontMetrics().horizontalAdvance(quick.preview_plain)

    # The line must be longer than the room beside the field; how long it is depends on the
    # fonts installed (without a CJK font its glyphs are narrow), so narrow the window until so.
    for width in range(1360, 700, -60):
        window.resize(width, 860)
        qtbot.wait(20)
        if overflows():
            break
    qtbot.waitUntil(overflows)
    shown = quick.preview.text()
    assert shown.endswith(" · …") and "周一 11月30日" in shown, shown
    assert quick.preview.toolTip() == quick.preview_plain and "提前15分钟提醒" in quick.preview_plain
    assert field.formats()  # the underlines stay


def test_the_preview_says_the_new_slots_and_refuses_words_it_could_not_read(window: Any, qtbot: Any, app_ctx: Any) -> None:
    """Issue 28: the repeat in the editor's words, the end a length sets, both clocks of a
    named zone, and the words nobody read (Enter then writes nothing)."""
    field = type_into(window, qtbot, "每两周周三下午三点一对一，共6次")
    assert (
        bar(window).preview_plain
        == f"回车添加：周三 12月2日 15:00–16:00 · 一对一 · 每两周的周三，共 6 次 · {calendar_name(app_ctx)}"
    )
    field.clear()
    keyboard(field, "明天下午三点开会45分钟")
    assert "15:00–15:45 · 开会" in bar(window).preview_plain
    field.clear()
    keyboard(field, "4pm CET call with Berlin team tomorrow")
    assert "16:00（CET）= 本地 23:00" in bar(window).preview_plain and "call with Berlin team" in bar(window).preview_plain
    field.clear()
    keyboard(field, "Meeting Feb 30 3pm")
    assert bar(window).preview_plain == "这些日期或时间词没有读懂：Feb 30（请改写后再添加）"
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert titles(app_ctx.store) == [] and "Feb 30" in bar(window).preview_plain


def test_tags_typed_in_the_field_are_previewed_and_written(window: Any, qtbot: Any, app_ctx: Any) -> None:
    from agent.store.components import parse_component
    from agent.store.fields import read

    field = type_into(window, qtbot, "明天下午三点 看牙 #健康")
    assert [role for *_x, role in field.formats()] == ["day", "time", "tags"]
    assert bar(window).preview_plain == f"回车添加：周二 12月1日 15:00–16:00 · 看牙 · #健康 · {calendar_name(app_ctx)}"
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert titles(app_ctx.store) == ["看牙"]
    (ics,) = app_ctx.store.conn.execute("SELECT ics FROM events").fetchone()
    assert read(parse_component(ics), "categories") == ("健康",)


def test_at_1280_px_the_field_is_wide_and_the_preview_shows_every_part(app_ctx: Any, qtbot: Any) -> None:
    """Issue 32, defect 7: on a 1280×800 screen (the first start's 1177×736 window, the chat
    open) the field was ~220 px and the preview beside it was cut after the title, hiding the
    place, the repeat and the reminder. The preview now takes its own line when the bar is
    narrow, and the field the bar's whole width."""
    from app import i18n
    from app.main_window import MainWindow

    app_ctx.session.set_model(None)
    app_ctx.settings.override("language", "zh")
    i18n.install(QApplication.instance(), "zh_CN")
    win = MainWindow(app_ctx)
    win.resize(1177, 736)
    win.show()
    qtbot.waitExposed(win)
    quick = bar(win)
    quick.field.setText("每周一上午10点在会议室开周会 提前15分钟提醒")
    qtbot.wait(20)
    assert quick.field.width() >= 400
    shown = quick.preview.text()
    assert "…" not in shown and "提前15分钟提醒" in shown and "会议室" in shown, shown
    save_shot(win, "quick-add-1280")
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def test_the_added_line_keeps_the_time_when_it_is_cut(window: Any, qtbot: Any) -> None:
    """Issue 32, defect 7: "Added “…” · <day time> (Ctrl+Z…)" cut at " · " kept only the title."""
    field = type_into(window, qtbot, SENTENCE)
    QTest.keyClick(field, Qt.Key.Key_Return)
    quick = bar(window)
    assert "15:00" in quick.preview_plain
    quick.preview.setFixedWidth(quick.preview.fontMetrics().horizontalAdvance(quick.preview_plain) * 2 // 3)
    quick._fit()
    assert "15:00" in quick.preview.text(), quick.preview.text()
