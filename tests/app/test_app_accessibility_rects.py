"""Each event's accessible item reports its own rectangle on screen (issue 32, round 4).

Every item used to report its whole view's rectangle, so a screen reader's focus highlight
framed the whole week and a click made through accessibility landed in the middle of the
grid, on whatever was painted there. Now an item's ``rect()`` is the rectangle its event is
painted in (the time grid's block, the header's all-day bar, the month line, the agenda row),
mapped to the screen, and the view's ``childAt`` finds the event under a point."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QAccessible

from app.calendar.agenda_view import AgendaRow
from app.calendar.month_view import MonthItem
from app.calendar.week_header import BarItem
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY


def _painted(view: Any) -> dict[tuple[str, str], list[tuple[Any, QRect]]]:
    """Each event's parts as ``visible_items`` says they are drawn: (widget, rect there)."""
    widget_of = {GridItem: "grid", BarItem: "header", AgendaRow: "canvas"}
    parts: dict[tuple[str, str], list[tuple[Any, QRect]]] = {}
    for item in view.visible_items():
        if getattr(item, "event", None) is None:
            continue
        widget = view if isinstance(item, MonthItem) else getattr(view, widget_of[type(item)])
        parts.setdefault(item.event.key, []).append((widget, item.rect.toAlignedRect()))
    return parts


def _on_screen(widget: Any, rect: QRect) -> QRect | None:
    if not widget.visibleRegion().boundingRect().intersects(rect):
        return None
    return rect.translated(widget.mapToGlobal(QPoint(0, 0)))


@pytest.mark.parametrize("name", ["week", "day", "workweek", "month", "agenda"])
def test_an_event_item_reports_where_its_event_is_painted(area: Any, cal_ctx: Any, qtbot: Any, name: str) -> None:
    seed(cal_ctx.store, cal_ctx.profile_id, "周会", at(MONDAY, 11), at(MONDAY, 12))
    seed(cal_ctx.store, cal_ctx.profile_id, "Offsite", MONDAY, MONDAY + timedelta(days=1))  # all day: the header's bar
    cal_ctx.ops.changed.emit(None)
    area.set_view(name)
    view = area.current_view()
    qtbot.wait(20)
    iface = QAccessible.queryAccessibleInterface(view)
    whole = QRect(view.mapToGlobal(QPoint(0, 0)), view.size())
    painted = _painted(view)
    checked = 0
    for index in range(iface.childCount()):
        item = iface.child(index)
        shown = [rect for widget, rect in painted.get(item.key, []) if _on_screen(widget, rect) is not None]
        if not shown:
            continue
        widget, local = next((w, r) for w, r in painted[item.key] if _on_screen(w, r) is not None)
        expected = _on_screen(widget, local)
        assert item.rect() == expected, item.text(QAccessible.Text.Name)
        assert item.rect() != whole and whole.contains(item.rect().center())
        assert iface.childAt(item.rect().center().x(), item.rect().center().y()).key == item.key
        assert not item.state().offscreen
        checked += 1
    assert checked == 2  # both events, each where it is drawn (before: the whole view for each)


def test_a_point_on_no_event_has_no_child(area: Any, cal_ctx: Any) -> None:
    seed(cal_ctx.store, cal_ctx.profile_id, "周会", at(MONDAY, 11), at(MONDAY, 12))
    cal_ctx.ops.changed.emit(None)
    area.set_view("month")
    view = area.current_view()
    iface = QAccessible.queryAccessibleInterface(view)
    corner = view.mapToGlobal(QPoint(view.width() - 3, view.height() - 3))
    assert iface.childAt(corner.x(), corner.y()) is None
