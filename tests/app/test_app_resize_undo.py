"""The Undo item names a resize "Resize", not "Move" (issue 23, defect 5).

Dragging a block's edge changes its length; the undo step said "Undo Move “Focus”", which
is not what was done. A drag that keeps the length is still a move.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from app.calendar.week_view import GridItem
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY


def _drag(qtbot: Any, widget: Any, start: QPoint, end: QPoint) -> None:
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(widget, QPoint(start.x(), (start.y() + end.y()) // 2))
    qtbot.mouseMove(widget, end)
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=end)


def _block(view: Any) -> GridItem:
    return next(item for item in view.visible_items() if isinstance(item, GridItem))


def test_an_edge_drag_is_undone_as_a_resize_and_a_move_as_a_move(
    area: Any, cal_ctx: Any, cal_store: Any, profile: int, qtbot: Any
) -> None:
    seed(cal_store, profile, "Focus", at(MONDAY, 9), at(MONDAY, 10))
    area.refresh()
    view = area.current_view()
    grid = view.grid
    item = _block(view)
    bottom = QPoint(int(item.rect.center().x()), int(item.rect.bottom()) - 2)
    _drag(qtbot, grid, bottom, QPoint(bottom.x(), int(grid.y_of(11 * 60))))
    assert cal_ctx.ops.undo_text() == "Resize “Focus”"
    item = _block(view)
    top = QPoint(int(item.rect.center().x()), int(item.rect.top()) + 2)
    _drag(qtbot, grid, top, QPoint(top.x(), int(grid.y_of(8 * 60))))
    assert cal_ctx.ops.undo_text() == "Resize “Focus”"
    item = _block(view)
    middle = item.rect.center().toPoint()
    _drag(qtbot, grid, middle, QPoint(middle.x(), middle.y() + int(grid.y_of(60))))
    assert cal_ctx.ops.undo_text() == "Move “Focus”"
    cal_ctx.ops.undo()
    assert cal_ctx.ops.undo_text() == "Resize “Focus”" and cal_ctx.ops.redo_text() == "Move “Focus”"


def test_the_resize_step_in_chinese(area: Any, cal_ctx: Any, cal_store: Any, profile: int, qtbot: Any) -> None:
    from app import i18n

    seed(cal_store, profile, "周会", at(MONDAY, 9), at(MONDAY, 10))
    area.refresh()
    item = _block(area.current_view())
    app = QApplication.instance()
    translator = i18n.install(app, "zh_CN")
    try:
        area.writes.move(item.event.occ, item.event.start, item.event.end.replace(hour=11), "all")
        assert cal_ctx.ops.undo_text() == "调整时长“周会”"
    finally:
        app.removeTranslator(translator)
