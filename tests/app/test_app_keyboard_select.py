"""Choosing an event with the keyboard in the week and month views (issue 23, defect 2).

Found by hand: the arrows only moved the day and cleared the selection, so there was no way
to reach an event without the mouse, and Tab from the view went to the status bar's Sync
button. The keys (docs/app-calendar.md, "Keyboard selection"): ←/→ the previous/next day,
selecting its first event; ↑/↓ the previous/next event of the day (past the ends: an hour of
scrolling in week view, the week above/below in month view); Home/End the first/last event
of the week (month: of the month); Enter opens, Delete deletes through the toast's path.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from app.calendar.month_view import MonthItem
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import at, seed, titles
from tests.support.chat_fixtures import shown_window
from tests.support.clock import MONDAY

TUESDAY, WEDNESDAY = MONDAY + timedelta(days=1), MONDAY + timedelta(days=2)


@pytest.fixture
def week(area: Any, cal_store: Any, profile: int) -> Any:
    seed(cal_store, profile, "早会", at(MONDAY, 9), at(MONDAY, 9, 30))
    seed(cal_store, profile, "Lunch", at(MONDAY, 12), at(MONDAY, 13))
    seed(cal_store, profile, "Gym", at(MONDAY, 18), at(MONDAY, 19))
    seed(cal_store, profile, "Dentist", at(WEDNESDAY, 10), at(WEDNESDAY, 11))
    seed(cal_store, profile, "下周评审", at(MONDAY + timedelta(days=7), 15), at(MONDAY + timedelta(days=7), 16))
    area.refresh()
    area.set_view("week")
    view = area.current_view()
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    return area


def _selected(area: Any) -> str | None:
    event = area.current_view().selected_event()
    return event.occ.title if event is not None else None


def _press(qtbot: Any, area: Any, *keys: Qt.Key) -> list[str | None]:
    seen = []
    for key in keys:
        qtbot.keyClick(area.current_view(), key)
        seen.append(_selected(area))
    return seen


def test_up_and_down_walk_the_days_events_in_time_order(week: Any, qtbot: Any) -> None:
    assert _selected(week) is None
    assert _press(qtbot, week, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down) == ["早会", "Lunch", "Gym"]
    assert _press(qtbot, week, Qt.Key.Key_Up, Qt.Key.Key_Up) == ["Lunch", "早会"]
    assert week.anchor == MONDAY


def test_left_and_right_move_the_day_and_select_its_first_event(week: Any, qtbot: Any) -> None:
    assert _press(qtbot, week, Qt.Key.Key_Down, Qt.Key.Key_Right) == ["早会", None]  # Tuesday is empty
    assert week.anchor == TUESDAY
    assert _press(qtbot, week, Qt.Key.Key_Right) == ["Dentist"]
    assert week.anchor == WEDNESDAY
    # Past the week's end: the next week comes, and its Monday's event is chosen.
    for _ in range(5):  # Thursday … next Monday
        qtbot.keyClick(week.current_view(), Qt.Key.Key_Right)
    assert week.anchor == MONDAY + timedelta(days=7) and _selected(week) == "下周评审"
    assert _press(qtbot, week, Qt.Key.Key_Left) == [None]
    assert week.anchor == MONDAY + timedelta(days=6)


def test_home_and_end_choose_the_first_and_last_event_of_the_week(week: Any, qtbot: Any) -> None:
    assert _press(qtbot, week, Qt.Key.Key_End) == ["Dentist"]
    assert week.anchor == WEDNESDAY  # the day follows, so ←/→ go on from there
    assert _press(qtbot, week, Qt.Key.Key_Home, Qt.Key.Key_Down) == ["早会", "Lunch"]
    assert week.anchor == MONDAY


def test_the_walk_starts_from_an_event_chosen_with_the_mouse(week: Any, qtbot: Any) -> None:
    view = week.current_view()
    dentist = next(item for item in view.visible_items() if isinstance(item, GridItem) and item.event.occ.title == "Dentist")
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=view.grid.item_rect(dentist).center().toPoint())
    assert _selected(week) == "Dentist" and week.anchor == MONDAY
    assert _press(qtbot, week, Qt.Key.Key_Left) == [None]
    assert week.anchor == TUESDAY  # the day before the selected event, not before the anchor


def test_enter_opens_the_editor_for_the_keyboard_selected_event(week: Any, qtbot: Any) -> None:
    opened: list[str] = []
    week.exec_dialog = lambda dialog: opened.append(dialog.title.text()) or QDialog.DialogCode.Rejected
    _press(qtbot, week, Qt.Key.Key_Down, Qt.Key.Key_Down)
    qtbot.keyClick(week.current_view(), Qt.Key.Key_Return)
    assert opened == ["Lunch"]


@pytest.mark.parametrize("name", ["week", "month"])
def test_delete_deletes_with_the_toast_and_its_undo_brings_it_back(week: Any, cal_store: Any, qtbot: Any, name: str) -> None:
    week.set_view(name)
    qtbot.keyClick(week.current_view(), Qt.Key.Key_Right)
    qtbot.keyClick(week.current_view(), Qt.Key.Key_Right)
    assert _selected(week) == "Dentist"
    qtbot.keyClick(week.current_view(), Qt.Key.Key_Delete)
    assert "Dentist" not in titles(cal_store)
    toast = week.toast
    assert toast.isVisible() and "Dentist" in toast.label.text()
    qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert "Dentist" in titles(cal_store) and not toast.isVisible()
    assert week.ctx.ops.redo_text() == "Delete “Dentist”"  # the toast took back the one step the key made
    assert week.ctx.ops.undo_text() != "Delete “Dentist”"


def test_month_arrows_walk_a_cell_then_go_to_the_week_below(week: Any, qtbot: Any) -> None:
    week.set_view("month")
    month = week.current_view()
    month.setFocus(Qt.FocusReason.OtherFocusReason)
    assert _press(qtbot, week, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down) == ["早会", "Lunch", "Gym"]
    assert _press(qtbot, week, Qt.Key.Key_Down) == ["下周评审"]  # the cell below: next Monday
    assert week.anchor == MONDAY + timedelta(days=7)
    assert _press(qtbot, week, Qt.Key.Key_Up) == ["Gym"]  # back up: the last event of the cell above
    assert _press(qtbot, week, Qt.Key.Key_Right, Qt.Key.Key_Right) == [None, "Dentist"]
    opened: list[str] = []
    week.exec_dialog = lambda dialog: opened.append(dialog.title.text()) or QDialog.DialogCode.Rejected
    qtbot.keyClick(month, Qt.Key.Key_Enter)
    assert opened == ["Dentist"]
    # Home/End stay in the anchor's month (December here: the grid would page otherwise).
    assert _press(qtbot, week, Qt.Key.Key_End) == ["下周评审"]
    assert week.anchor == date(2026, 12, 7)


def test_the_selected_event_has_a_ring_in_the_text_colour(week: Any, qtbot: Any) -> None:
    """Selected: full colour and a 2 px ring on its edge in the palette's text colour, so the
    keyboard's choice reads even where the calendar's colour is the palette's highlight."""
    _press(qtbot, week, Qt.Key.Key_Down, Qt.Key.Key_Down)
    view = week.current_view()
    ring = view.palette().color(QPalette.ColorRole.Text)
    lunch, gym = (
        next(item for item in view.visible_items() if isinstance(item, GridItem) and item.event.occ.title == title)
        for title in ("Lunch", "Gym")
    )
    assert _pixel(view.grid, lunch.rect.center().x(), lunch.rect.top() + 1) == ring
    assert _pixel(view.grid, gym.rect.center().x(), gym.rect.top() + 1) != ring  # not selected

    week.set_view("month")
    month = week.current_view()
    line = next(item for item in month.visible_items() if isinstance(item, MonthItem) and item.event is not None)
    month.select(line.event.key)
    assert _pixel(month, line.rect.center().x() + 20, line.rect.top() + 1) == ring


def _pixel(widget: QWidget, x: float, y: float) -> QColor:
    image = widget.grab().toImage()
    scale = image.width() / widget.width()
    return image.pixelColor(int(x * scale), int(y * scale))


@pytest.mark.parametrize("name", ["week", "month"])
@pytest.mark.parametrize("button", [Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton])
def test_a_click_in_the_view_gives_it_the_keyboard(week: Any, qtbot: Any, name: str, button: Qt.MouseButton) -> None:
    week.set_view(name)
    week.exec_menu = lambda menu, pos: None
    week.nav.search.setFocus(Qt.FocusReason.OtherFocusReason)
    view = week.current_view()
    surface = view.grid if name == "week" else view
    qtbot.mouseClick(surface, button, pos=QPoint(surface.width() // 2, surface.height() // 2))
    assert QApplication.focusWidget() is view


# ---- Tab order: the main window ------------------------------------------------------------


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    with shown_window(app_ctx, qtbot) as win:
        yield win


def _part(win: Any, widget: QWidget | None) -> str:
    calendar = win.calendar
    parts = (
        ("quick-add", calendar.quick_add),
        ("nav", calendar.nav),
        ("sidebar", calendar.sidebar),
        ("view", calendar.stack),
        ("chat", win.chat),
        ("status", win.statusBar()),
    )
    for name, part in parts:
        if widget is part or (widget is not None and part.isAncestorOf(widget)):
            return name
    return type(widget).__name__


def test_tab_goes_through_the_window_in_its_layouts_order(window: Any, qtbot: Any) -> None:
    win = window
    win.calendar.quick_add.field.setFocus(Qt.FocusReason.OtherFocusReason)
    visited = [_part(win, QApplication.focusWidget())]
    for _ in range(40):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        visited.append(_part(win, QApplication.focusWidget()))
    order = list(dict.fromkeys(visited))  # first visits, in order
    assert order[:6] == ["quick-add", "nav", "sidebar", "view", "chat", "status"]
    assert visited[visited.index("view") + 1] == "chat"  # not the Sync button
    # Shift+Tab walks back: from the view to the sidebar.
    win.calendar.current_view().setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(win.calendar.current_view(), Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert _part(win, QApplication.focusWidget()) == "sidebar"


def test_the_window_opens_with_the_keys_in_the_view(window: Any) -> None:
    """Before, nothing had the focus until the window was activated, and then Qt chose the
    first widget it found: the mini month's day grid took the arrows."""
    assert window.focusWidget() is window.calendar.current_view()
