"""ISO week numbers and the work week (issue 32's navigation features)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from PySide6.QtWidgets import QCalendarWidget

from tests.support.app_fixtures import at, seed
from tests.support.chat_fixtures import save_shot
from tests.support.clock import MONDAY


def test_week_numbers_show_in_the_title_and_the_mini_month_when_chosen(area: Any, cal_ctx: Any) -> None:
    formats = QCalendarWidget.VerticalHeaderFormat
    area.set_view("week")
    assert "49" not in area.nav.title.text()
    assert area.sidebar.mini_month.verticalHeaderFormat() == formats.NoVerticalHeader
    cal_ctx.settings.set("week_numbers", True)
    area.refresh()
    assert area.nav.title.text().endswith((" · W49", " · 第49周"))  # 2026-11-30 is in ISO week 49
    assert area.sidebar.mini_month.verticalHeaderFormat() == formats.ISOWeekNumbers
    area.set_anchor(date(2027, 1, 1))  # ISO: still week 53 of 2026
    assert area.nav.title.text().endswith((" · W53", " · 第53周"))
    save_shot(area, "week-numbers")


def test_the_work_week_shows_the_working_days(area: Any, cal_ctx: Any, qtbot: Any) -> None:
    seed(cal_ctx.store, cal_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    seed(cal_ctx.store, cal_ctx.profile_id, "周末", at(MONDAY + timedelta(days=5), 10), at(MONDAY + timedelta(days=5), 11))
    cal_ctx.ops.changed.emit(None)
    area.set_anchor(MONDAY + timedelta(days=2))
    area.set_view("workweek")
    view = area.current_view()
    assert view.date_range() == (MONDAY, MONDAY + timedelta(days=5))
    titles = {event.occ.title for event in view.events}
    assert titles == {"周会"}  # Saturday's is not in the work week
    assert view.step_anchor(1) == MONDAY + timedelta(days=9)
    save_shot(area, "work-week")
    cal_ctx.settings.set("working_days", [2, 3, 4, 5, 6])  # a shop: Tuesday to Saturday
    area.refresh()
    assert area.current_view().date_range() == (MONDAY + timedelta(days=1), MONDAY + timedelta(days=6))


def test_the_work_week_has_a_button_and_a_key(area: Any, qtbot: Any) -> None:
    area.nav.view_buttons["workweek"].click()
    assert area.view_name == "workweek"


def test_the_month_grid_numbers_its_weeks_when_chosen(area: Any, cal_ctx: Any, qtbot: Any) -> None:
    area.set_view("month")
    month = area.current_view()
    month.repaint()
    assert month.drawn_weeks == []
    cal_ctx.settings.set("week_numbers", True)
    area.refresh()
    month.repaint()
    assert [label.strip("W周") for label in month.drawn_weeks] == ["44", "45", "46", "47", "48", "49"]
    save_shot(area, "month-week-numbers")
