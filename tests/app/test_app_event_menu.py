"""Events have a right-click menu (issue 15): edit, duplicate, delete, move to calendar,
copy as text. Every write goes through ``ctx.ops`` (one undo step each, named in the Undo
menu item), and delete shows the same "Deleted — Undo" toast as the Delete key.

The menu is opened by real right-clicks (``QContextMenuEvent`` from a mouse press) on the
week grid, the all-day row, the month and the agenda; ``area.exec_menu`` stands in for
the user's pick so no test waits on a popup.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from agent.services.calendars import CalendarService
from tests.support.app_fixtures import at, seed, titles
from tests.support.clock import MONDAY


def _pick(area: Any, name: str | None, seen: list[Any] | None = None) -> None:
    """Make the next menu choose the action called ``name`` (``move:<calendar>`` for a move)."""

    def choose(menu: Any, _pos: QPoint) -> Any:
        if seen is not None:
            seen.append(menu)
        if name is None:
            return None
        if name.startswith("move:"):
            wanted = name.split(":", 1)[1]
            return next(action for action in menu.move_menu.actions() if action.text() == wanted)
        return getattr(menu, f"{name}_action")

    area.exec_menu = choose


def _right_click(widget: Any, pos: QPoint) -> None:
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, event)


def _grid_point(view: Any, item: Any) -> QPoint:
    return view.grid.item_rect(item).center().toPoint()


def _week_item(area: Any, title: str) -> Any:
    view = area.current_view()
    return next(item for item in view.grid_items if item.event.occ.title == title)


def test_right_click_in_the_week_grid_selects_the_event_and_offers_the_menu(area, cal_store, profile, qtbot) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16))
    area.ctx.ops.changed.emit(None)
    seen: list[Any] = []
    _pick(area, None, seen)
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    assert len(seen) == 1
    menu = seen[0]
    assert view.selected_event() is not None and view.selected_event().occ.title == "周会"
    labels = [action.text() for action in menu.actions() if not action.isSeparator()]
    assert labels == ["Edit…", "Duplicate", "Move to calendar", "Copy as text", "Delete"]
    # Nothing happens on an empty spot, and nothing is written when the menu is dismissed.
    seen.clear()
    _right_click(view.grid, QPoint(int(view.grid.column_x(5)) + 10, 10))
    assert seen == [] and titles(cal_store) == ["周会"]


def test_duplicate_makes_a_second_event_at_the_same_time_and_undo_takes_it_back(area, cal_store, profile) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16), location="A 会议室", alarm_minutes=(10,))
    area.ctx.ops.changed.emit(None)
    _pick(area, "duplicate")
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    assert titles(cal_store) == ["周会", "周会"]
    copies = [item.event for item in view.grid_items]
    assert {(event.start, event.end, event.occ.location) for event in copies} == {(copies[0].start, copies[0].end, "A 会议室")}
    alarms = cal_store.conn.execute("SELECT ics FROM events").fetchall()
    assert all("TRIGGER:-PT10M" in row[0] for row in alarms)
    assert area.ctx.ops.undo_text() == "Create “周会”"
    area.ctx.ops.undo()
    assert titles(cal_store) == ["周会"]


def test_move_to_calendar_moves_the_event_in_one_undo_step(area, cal_store, profile) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16))
    work = CalendarService(cal_store, profile).add("Work")
    area.ctx.ops.calendars_changed.emit()
    area.ctx.ops.changed.emit(None)
    _pick(area, "move:Work")
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    (calendar_id,) = cal_store.conn.execute("SELECT calendar_id FROM events").fetchone()
    assert calendar_id == work.id
    assert area.ctx.ops.undo_text() == "Move “周会” to another calendar"
    area.ctx.ops.undo()
    (calendar_id,) = cal_store.conn.execute("SELECT calendar_id FROM events").fetchone()
    assert calendar_id != work.id


def test_delete_from_the_menu_shows_the_undo_toast(area, cal_store, profile, qtbot) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16))
    area.ctx.ops.changed.emit(None)
    _pick(area, "delete")
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    assert titles(cal_store) == []
    assert area.toast.isVisible() and "周会" in area.toast.label.text()
    area.toast.undo_button.click()
    assert titles(cal_store) == ["周会"]


def test_edit_opens_the_editor_for_that_event(area, cal_store, profile) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16))
    area.ctx.ops.changed.emit(None)
    opened: list[Any] = []

    def factory(ctx: Any, parent: Any, occurrence: Any = None, start: Any = None, end: Any = None) -> Any:
        opened.append(occurrence)
        from app.calendar.event_dialog import EventDialog

        return EventDialog(ctx, parent, occurrence=occurrence, start=start, end=end)

    area.editor_factory = factory
    area.exec_dialog = lambda dialog: 0  # Cancel
    _pick(area, "edit")
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    assert [occ.title for occ in opened] == ["周会"]
    assert titles(cal_store) == ["周会"]


def test_copy_as_text_puts_title_time_with_year_and_place_on_the_clipboard(area, cal_store, profile) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16, 30), location="A 会议室")
    area.ctx.ops.changed.emit(None)
    _pick(area, "copy")
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    text = QApplication.clipboard().text()
    assert text.splitlines() == ["周会", "2026年11月30日 星期一 15:00–16:30", "A 会议室"]
    assert titles(cal_store) == ["周会"]


@pytest.mark.parametrize("view_name", ["week-all-day", "month", "agenda"])
def test_the_menu_opens_from_every_view(area, cal_store, profile, view_name: str) -> None:
    if view_name == "week-all-day":
        seed(cal_store, profile, "年假", MONDAY + timedelta(days=1), MONDAY + timedelta(days=2))
    else:
        seed(cal_store, profile, "年假", at(MONDAY + timedelta(days=1), 9), at(MONDAY + timedelta(days=1), 10))
    area.ctx.ops.changed.emit(None)
    seen: list[Any] = []
    _pick(area, None, seen)
    area.set_view("week" if view_name == "week-all-day" else view_name)
    view = area.current_view()
    if view_name == "week-all-day":
        bar = next(item for item in view.header.visible_items() if getattr(item, "event", None) is not None)
        widget, pos = view.header, bar.rect.center().toPoint()
    elif view_name == "month":
        item = next(item for item in view.visible_items() if getattr(item, "event", None) is not None)
        widget, pos = view, item.rect.center().toPoint()
    else:
        row = next(row for row in view.visible_items() if row.event is not None)
        widget, pos = view.canvas, row.rect.center().toPoint()
    _right_click(widget, pos)
    assert [menu.view_event.occ.title for menu in seen] == ["年假"]


def test_the_menu_key_opens_the_selected_events_menu(area, cal_store, profile, qtbot) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16))
    area.ctx.ops.changed.emit(None)
    seen: list[Any] = []
    _pick(area, None, seen)
    view = area.current_view()
    view.select(view.events[0].key)
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(view, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Menu)
    assert [menu.view_event.occ.title for menu in seen] == ["周会", "周会"]


def test_all_day_copy_text_names_the_days(area, cal_store, profile) -> None:
    seed(cal_store, profile, "年假", date(2026, 12, 1), date(2026, 12, 3))
    area.ctx.ops.changed.emit(None)
    view = area.current_view()
    event = next(event for event in view.events if event.occ.title == "年假")
    from app import i18n

    app = QApplication.instance()
    translator = i18n.install(app, "zh_CN")
    try:
        assert area.copy_as_text(event).splitlines()[1] == "2026年12月1日 星期二 – 2026年12月2日 星期三，全天"
    finally:
        app.removeTranslator(translator)


def test_the_delete_toast_goes_when_the_delete_is_undone_another_way(area, cal_store, profile) -> None:
    """Ctrl+Z after a delete: the toast's Undo would now fail ("already undone"), so it goes."""
    seed(cal_store, profile, "周会", at(MONDAY, 15), at(MONDAY, 16))
    area.ctx.ops.changed.emit(None)
    _pick(area, "delete")
    view = area.current_view()
    _right_click(view.grid, _grid_point(view, _week_item(area, "周会")))
    assert area.toast.isVisible()
    area.ctx.ops.undo()
    assert titles(cal_store) == ["周会"] and not area.toast.isVisible()
