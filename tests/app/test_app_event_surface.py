"""The pointer plumbing the three painted surfaces share (``EventSurface`` in
``app/calendar/view_base.py``): the month grid, the week header's all-day row and the week's
time grid run the same code for a release, a right-click, a double-click and the drag
threshold, and each only says what is under the pointer and where a drag lands."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QDialog

from app.calendar.month_view import MonthItem, MonthView
from app.calendar.view_base import DRAG_START, CalendarView, EventSurface
from app.calendar.week_header import BAR_HEIGHT, LABEL_HEIGHT, BarItem, WeekHeader
from app.calendar.week_view import GridItem, TimeGrid
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY


def _record(signal: Any) -> list[tuple[Any, ...]]:
    seen: list[tuple[Any, ...]] = []
    signal.connect(lambda *args: seen.append(args))
    return seen


def _surface(area: Any, kind: str) -> tuple[CalendarView, Any, str, QPoint, QPoint]:
    """The view, the surface, the event's title, a point on the event and one on empty space."""
    if kind == "month":
        area.set_view("month")
        view = area.current_view()
        item = next(item for item in view.visible_items() if isinstance(item, MonthItem) and item.kind == "bar")
        on = QPoint(int(item.rect.left()) + 10, int(item.rect.center().y()))
        cell_w, cell_h = view.cell_size()
        return view, view, "上海出差", on, QPoint(int(on.x() + 4 * cell_w), int(on.y() + 3 * cell_h))
    area.set_view("week")
    view = area.current_view()
    if kind == "header":
        bar = next(item for item in view.header.visible_items() if isinstance(item, BarItem))
        on = QPoint(int(bar.rect.left()) + 10, int(bar.rect.center().y()))
        empty = QPoint(int(view.grid.column_x(6) + 20), LABEL_HEIGHT + BAR_HEIGHT // 2)
        return view, view.header, "上海出差", on, empty
    block = next(item for item in view.visible_items() if isinstance(item, GridItem))
    rect = view.grid.item_rect(block)
    return view, view.grid, "周会", rect.center().toPoint(), QPoint(int(view.grid.column_x(5) + 20), int(view.grid.y_of(3 * 60)))


@pytest.fixture
def seeded(area: Any, cal_store: Any, profile: int) -> Any:
    seed(cal_store, profile, "上海出差", date(2026, 12, 1), date(2026, 12, 3))  # Tue–Wed, all day
    seed(cal_store, profile, "周会", at(MONDAY, 10), at(MONDAY, 11))
    area.refresh()
    area.exec_dialog = lambda dialog: QDialog.DialogCode.Rejected  # an editor opens and is cancelled
    area.exec_menu = lambda menu, pos: None  # a menu opens and is dismissed
    return area


def test_the_three_surfaces_are_event_surfaces() -> None:
    for surface in (MonthView, WeekHeader, TimeGrid):
        assert issubclass(surface, EventSurface)
        for name in ("mouseMoveEvent", "mouseReleaseEvent", "contextMenuEvent", "mouseDoubleClickEvent"):
            assert name not in vars(surface), f"{surface.__name__}.{name}: the shared one is EventSurface's"


@pytest.mark.parametrize("kind", ["month", "header", "grid"])
def test_right_click_double_click_and_a_short_press_alike_on_every_surface(seeded: Any, qtbot: Any, kind: str) -> None:
    view, surface, title, on, empty = _surface(seeded, kind)
    menus, opened = _record(view.context_requested), _record(view.event_activated)
    moves, creates = _record(view.move_requested), _record(view.create_requested)

    def right_click(pos: QPoint) -> None:
        QApplication.sendEvent(surface, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, surface.mapToGlobal(pos)))

    right_click(on)  # on the event: selected, its menu asked for
    assert [event.occ.title for event, _ in menus] == [title] and view.selected_event().occ.title == title
    right_click(empty)  # on empty space: no menu
    assert len(menus) == 1
    keyboard = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, on, surface.mapToGlobal(on))
    QApplication.sendEvent(surface, keyboard)  # the keyboard's menu is the view's key press, not the surface's
    assert len(menus) == 1

    # A press that moves less than the threshold is a click: released, it asks for nothing.
    qtbot.mousePress(surface, Qt.MouseButton.LeftButton, pos=on)
    qtbot.mouseMove(surface, on + QPoint(DRAG_START - 1, 0))
    assert surface.drag is not None and not surface.drag.moved and surface.dragging_key() is None
    qtbot.mouseRelease(surface, Qt.MouseButton.LeftButton, pos=on + QPoint(DRAG_START - 1, 0))
    assert surface.drag is None and moves == [] and creates == []

    # A right-click mid-drag drops the drag: the release that follows asks for nothing.
    qtbot.mousePress(surface, Qt.MouseButton.LeftButton, pos=on)
    qtbot.mouseMove(surface, on + QPoint(40, 0))
    assert surface.drag.moved and surface.dragging_key() == view.selected_key
    right_click(on + QPoint(40, 0))
    assert surface.drag is None and surface.dragging_key() is None
    qtbot.mouseRelease(surface, Qt.MouseButton.LeftButton, pos=on + QPoint(40, 0))
    assert moves == [] and creates == []

    qtbot.mouseDClick(surface, Qt.MouseButton.LeftButton, pos=on)  # on the event: opened
    assert [event.occ.title for (event,) in opened] == [title]
    qtbot.mouseDClick(surface, Qt.MouseButton.LeftButton, pos=empty)  # on empty space: a new event there
    assert len(creates) == 1 and len(opened) == 1


@pytest.mark.parametrize("kind", ["month", "header", "grid"])
def test_a_drag_from_empty_space_creates_and_one_on_the_event_moves_it(seeded: Any, qtbot: Any, kind: str) -> None:
    view, surface, title, on, empty = _surface(seeded, kind)
    moves, creates = _record(view.move_requested), _record(view.create_requested)
    step = QPoint(int(view.grid.column_width()) if kind != "month" else int(view.cell_size()[0]), 0)

    def drag(start: QPoint, end: QPoint) -> None:
        qtbot.mousePress(surface, Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(surface, (start + end) / 2)
        qtbot.mouseMove(surface, end)
        qtbot.mouseRelease(surface, Qt.MouseButton.LeftButton, pos=end)

    assert surface.event_at(QPointF(on)).occ.title == title and surface.event_at(QPointF(empty)) is None
    drag(on, on + step)  # one day later, whatever the surface (the area writes it)
    [(event, start, end)] = moves
    assert event.occ.title == title and start == event.start + timedelta(days=1) and end == event.end + timedelta(days=1)
    drag(on, on)  # no movement: nothing
    start_point = empty - step
    drag(start_point, empty)
    assert len(creates) == 1 and len(moves) == 1
