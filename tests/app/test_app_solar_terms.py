"""Issue 23, feature: the 24 solar terms (节气) beside the 农历 days in the Chinese views.

A day that is a term shows the term's name where its lunar day would be (大雪 on 2026-12-07,
冬至 on 2026-12-22: the solstice falls on the 22nd in Beijing time), in the month cell and
the week header; a holiday's name still wins that place. On by default; Settings → General
turns it off (``solar_terms``); the English UI has no lunar labels and no terms."""

from __future__ import annotations

from datetime import date
from typing import Any

from PySide6.QtWidgets import QApplication

from app.calendar.month_view import MonthCell
from app.calendar.week_header import HeaderDay
from app.settings.general_page import GeneralPage
from tests.app.test_app_dark_theme import drawn_texts
from tests.support.chat_fixtures import save_shot


def month_cells(area: Any) -> dict[date, MonthCell]:
    return {item.day: item for item in area.current_view().visible_items() if isinstance(item, MonthCell)}


def header_days(area: Any) -> dict[date, HeaderDay]:
    return {item.day: item for item in area.current_view().visible_items() if isinstance(item, HeaderDay)}


def test_solar_terms_show_in_the_zh_month_and_week_views(area: Any, cal_ctx: Any) -> None:
    area.set_view("month")
    area.set_anchor(date(2026, 12, 1))
    cells = month_cells(area)
    assert cells[date(2026, 12, 7)].lunar == "大雪" and cells[date(2026, 12, 22)].lunar == "冬至"
    assert cells[date(2026, 12, 21)].lunar == "十三"  # the lunar day where there is no term
    drawn = drawn_texts(area.current_view())
    assert drawn.get("冬至") == {"冬至"} and drawn.get("大雪") == {"大雪"}  # painted, whole
    save_shot(area.current_view(), "jieqi_month_zh")
    area.set_view("week")
    area.set_anchor(date(2026, 12, 22))
    assert header_days(area)[date(2026, 12, 22)].lunar == "冬至"
    assert header_days(area)[date(2026, 12, 21)].lunar == "十三"


def test_a_holiday_name_wins_over_a_term(area: Any) -> None:
    area.set_view("month")
    area.set_anchor(date(2026, 4, 5))  # 清明 is both a term and a holiday (清明节)
    cell = month_cells(area)[date(2026, 4, 5)]
    assert cell.lunar == "清明" and cell.mark is not None and cell.mark.name == "清明节"
    assert "清明节" in drawn_texts(area.current_view()) and "清明" not in drawn_texts(area.current_view())


def test_switched_off_in_settings_the_terms_are_gone(area: Any, cal_ctx: Any, qtbot: Any) -> None:
    assert cal_ctx.settings.get("solar_terms") is True  # on by default
    page = GeneralPage(cal_ctx)
    qtbot.addWidget(page)
    assert page.solar_terms.isChecked()
    page.solar_terms.setChecked(False)
    assert "solar_terms" in page.save()
    area.refresh()
    area.set_view("month")
    area.set_anchor(date(2026, 12, 1))
    cells = month_cells(area)
    assert cells[date(2026, 12, 22)].lunar == "十四" and cells[date(2026, 12, 7)].lunar == "廿九"
    assert "冬至" not in drawn_texts(area.current_view())
    area.set_view("week")
    area.set_anchor(date(2026, 12, 22))
    assert header_days(area)[date(2026, 12, 22)].lunar == "十四"


def test_the_english_ui_shows_no_terms(area: Any, cal_ctx: Any) -> None:
    cal_ctx.settings.set("language", "en")
    area.refresh()
    area.set_view("month")
    area.set_anchor(date(2026, 12, 1))
    assert month_cells(area)[date(2026, 12, 22)].lunar == ""
    QApplication.processEvents()
    assert "冬至" not in drawn_texts(area.current_view())
    area.set_view("week")
    area.set_anchor(date(2026, 12, 22))
    assert header_days(area)[date(2026, 12, 22)].lunar == ""


def test_the_lunar_days_switch_off_on_their_own_and_the_terms_stay(area: Any, cal_ctx: Any, qtbot: Any) -> None:
    """Settings → General → 农历 has two switches: the lunar days and the terms. With the days
    off a term still shows on its day and every other day's label is empty; with both off the
    cells carry no grey label at all."""
    assert cal_ctx.settings.get("lunar_days") is True  # on by default
    page = GeneralPage(cal_ctx)
    qtbot.addWidget(page)
    assert page.lunar_days.isChecked()
    page.lunar_days.setChecked(False)
    assert "lunar_days" in page.save()
    area.refresh()
    area.set_view("month")
    area.set_anchor(date(2026, 12, 1))
    cells = month_cells(area)
    assert cells[date(2026, 12, 22)].lunar == "冬至" and cells[date(2026, 12, 21)].lunar == ""
    assert "十三" not in drawn_texts(area.current_view())
    area.set_view("week")
    area.set_anchor(date(2026, 12, 22))
    assert header_days(area)[date(2026, 12, 22)].lunar == "冬至" and header_days(area)[date(2026, 12, 21)].lunar == ""
    page.solar_terms.setChecked(False)
    assert "solar_terms" in page.save()
    area.refresh()
    area.set_view("month")
    area.set_anchor(date(2026, 12, 1))
    assert {cell.lunar for cell in month_cells(area).values()} == {""}
