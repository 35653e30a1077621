"""The painted views expose their events to assistive technology (issue 32): a view's
accessible interface lists each event by title, time and calendar, and the selected one is
marked, following the keyboard."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY


def _names(iface: Any) -> list[str]:
    return [iface.child(index).text(QAccessible.Text.Name) for index in range(iface.childCount())]


def test_the_week_view_lists_its_events_for_a_screen_reader(area: Any, cal_ctx: Any, qtbot: Any) -> None:
    seed(cal_ctx.store, cal_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    seed(cal_ctx.store, cal_ctx.profile_id, "Dentist", at(MONDAY + timedelta(days=3), 9, 30), at(MONDAY + timedelta(days=3), 10))
    cal_ctx.ops.changed.emit(None)
    area.set_view("week")
    view = area.current_view()
    iface = QAccessible.queryAccessibleInterface(view)
    assert iface is not None and iface.role() == QAccessible.Role.List and iface.text(QAccessible.Text.Name)
    names = _names(iface)
    assert len(names) == 2
    meeting = next(name for name in names if name.startswith("周会"))
    assert "15:00" in meeting and cal_ctx.ops.calendars.default().name in meeting
    assert any(name.startswith("Dentist") and "09:30" in name for name in names)
    assert iface.focusChild() is None
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(view, Qt.Key.Key_Right)  # the keys choose Tuesday's (none), then on
    view.select(view.events[0].key)
    chosen = iface.focusChild()
    assert chosen is not None and chosen.state().selected and chosen.parent() is iface
    assert iface.indexOfChild(chosen) == 0


def test_the_month_and_agenda_views_list_theirs_too(area: Any, cal_ctx: Any) -> None:
    seed(cal_ctx.store, cal_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    cal_ctx.ops.changed.emit(None)
    for name in ("month", "agenda", "day"):
        area.set_view(name)
        iface = QAccessible.queryAccessibleInterface(area.current_view())
        assert any(text.startswith("周会") for text in _names(iface)), name
