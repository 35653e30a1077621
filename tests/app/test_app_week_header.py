"""The week view's header (day labels, all-day row) emits requests and never reaches into the
view: real mouse gestures on it arrive as the week view's own signals, and the header works
alone with nothing but a column geometry and the state it is given."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from PySide6.QtCore import QLocale, QPoint, Qt
from PySide6.QtWidgets import QDialog

from app.calendar.week_header import BAR_HEIGHT, GUTTER, LABEL_HEIGHT, BarItem, HeaderState, WeekHeader
from tests.support.app_fixtures import seed
from tests.support.clock import MONDAY


def _record(signal: Any) -> list[tuple[Any, ...]]:
    seen: list[tuple[Any, ...]] = []
    signal.connect(lambda *args: seen.append(args))
    return seen


def _drag(qtbot: Any, widget: Any, start: QPoint, end: QPoint) -> None:
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(widget, QPoint((start.x() + end.x()) // 2, start.y()))
    qtbot.mouseMove(widget, end)
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=end)


def test_gestures_on_the_header_arrive_as_the_week_views_requests(area, cal_store, profile, qtbot) -> None:
    seed(cal_store, profile, "年假", MONDAY + timedelta(days=1), MONDAY + timedelta(days=2))  # Tuesday, all day
    area.refresh()
    area.exec_dialog = lambda dialog: QDialog.DialogCode.Rejected  # the editor opens and is cancelled
    view = area.current_view()
    header = view.header
    moves, creates, opened = _record(view.move_requested), _record(view.create_requested), _record(view.day_opened)
    bar = next(item for item in header.visible_items() if isinstance(item, BarItem))
    assert bar.event.occ.title == "年假" and (bar.first, bar.end) == (1, 2)

    def row_point(day_index: int) -> QPoint:  # the all-day row of that day
        return QPoint(int(view.grid.column_x(day_index) + 20), LABEL_HEIGHT + BAR_HEIGHT // 2)

    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=row_point(1))  # press on the bar: selected
    assert view.selected_key == bar.event.key
    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=row_point(4))  # press on empty space: deselected
    assert view.selected_key is None

    _drag(qtbot, header, row_point(1), row_point(3))  # the bar two days later
    assert [(event.key, start, end) for event, start, end in moves] == [
        (bar.event.key, datetime(2026, 12, 3), datetime(2026, 12, 4))
    ]

    _drag(qtbot, header, row_point(4), row_point(6))  # across empty days: a new all-day event, Fri to Sun
    qtbot.mouseDClick(header, Qt.MouseButton.LeftButton, pos=row_point(5))  # one empty day: a one-day event
    assert creates == [(date(2026, 12, 4), date(2026, 12, 7)), (date(2026, 12, 5), date(2026, 12, 6))]

    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=QPoint(int(view.grid.column_x(2) + 20), 10))  # a label
    assert opened == [(MONDAY + timedelta(days=2),)]


class _Columns:
    """Fixed 100-pixel columns after the gutter: all the header needs to know of the grid."""

    def column_x(self, index: int) -> float:
        return GUTTER + index * 100.0

    def column_width(self) -> float:
        return 100.0


def test_the_header_works_alone_from_the_state_it_is_given(qtbot) -> None:
    header = WeekHeader(_Columns())
    qtbot.addWidget(header)
    header.resize(GUTTER + 700, 120)
    header.set_state(HeaderState(MONDAY, 7, {}, {MONDAY + timedelta(days=3): "初九"}, MONDAY, 2, None, QLocale()))
    header.relayout([])
    days = [item for item in header.visible_items() if not isinstance(item, BarItem)]
    assert [day.day for day in days] == [MONDAY + timedelta(days=n) for n in range(7)]
    assert [day.lunar for day in days][3] == "初九" and [day.selected for day in days].index(True) == 2
    opened, selected, creates = _record(header.day_opened), _record(header.select_requested), _record(header.create_requested)
    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=QPoint(GUTTER + 450, 10))  # Friday's label
    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=QPoint(GUTTER + 150, LABEL_HEIGHT + 5))  # empty row
    qtbot.mouseDClick(header, Qt.MouseButton.LeftButton, pos=QPoint(GUTTER + 150, LABEL_HEIGHT + 5))
    assert opened == [(MONDAY + timedelta(days=4),)]
    assert selected == [(None,)] and creates == [(MONDAY + timedelta(days=1), MONDAY + timedelta(days=2))]
