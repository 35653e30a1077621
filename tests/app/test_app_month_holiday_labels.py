"""Holiday names in narrow month cells (issue 32, defect 13's last item): at 1280 px and at
960 px with the chat pane open a month cell is 80–105 px, and beside the day number and its
off/休 badge "Chinese New Year" was cut to "Chine…". A cell now shows the longest of the
name's forms that fits whole ("Chinese New Year", "Lunar NY", "CNY"), lets the badge yield
when only that makes room, else shows no name; the tooltip has the name whole."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFont, QStaticText

from agent.timesym.holiday_forms import SHORTER, holiday_forms
from app.calendar.event_item import TextCache
from app.calendar.month_view import DAY_LINE, HEAD

SPRING_FESTIVAL = date(2026, 2, 17)
CELL_WIDTHS = [82, 90, 105]  # 960 px and 1177 px (the first start on a 1280×800 screen) with the chat, 1280 px


class RecordingCache(TextCache):
    """The view's text cache, noting every string it hands to the painter."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[str] = []

    def get(self, text: str, font: QFont, width: int = 100_000, font_key: str | None = None) -> QStaticText:
        found = super().get(text, font, width, font_key)
        self.drawn.append(found.text())
        return found


def _narrow_month(area: Any, cal_ctx: Any, language: str, cell: int) -> Any:
    cal_ctx.settings.set("language", language)
    area.refresh()
    area.set_view("month")
    area.set_anchor(SPRING_FESTIVAL)
    month = area.current_view()
    month.texts = RecordingCache()
    month.resize(7 * cell, 6 * 78 + 24)
    month.repaint()
    return month


@pytest.mark.parametrize("cell", CELL_WIDTHS)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_holiday_name_is_shown_whole_or_not_at_all(area: Any, cal_ctx: Any, language: str, cell: int) -> None:
    month = _narrow_month(area, cal_ctx, language, cell)
    assert not [text for text in month.texts.drawn if "…" in text]  # before: "Chine…", "国…"
    names = {day: mark.name for day, mark in month.marks.items() if mark.name}
    assert names[SPRING_FESTIVAL] == ("Chinese New Year" if language == "en" else "春节")
    for day, name in names.items():
        shown = month.drawn_labels.get(day, "")
        assert shown == "" or shown in holiday_forms(name), (day, shown)
    # The festival itself always reads: a short form fits a cell of the narrowest window.
    assert month.drawn_labels[SPRING_FESTIVAL] in holiday_forms(names[SPRING_FESTIVAL])


def test_the_widest_form_that_fits_is_chosen(area: Any, cal_ctx: Any) -> None:
    wide = _narrow_month(area, cal_ctx, "en", 220)
    assert wide.drawn_labels[SPRING_FESTIVAL] == "Chinese New Year"
    narrow = _narrow_month(area, cal_ctx, "en", 82)
    assert narrow.drawn_labels[SPRING_FESTIVAL] == "CNY"


def test_the_tooltip_over_the_number_line_names_the_holiday_whole(area: Any, cal_ctx: Any) -> None:
    month = _narrow_month(area, cal_ctx, "en", 82)
    width, height = month.cell_size()
    index = (SPRING_FESTIVAL - month.first_day).days
    left, top = (index % 7) * width, HEAD + (index // 7) * height
    assert month.tooltip_at(QPointF(left + width / 2, top + DAY_LINE / 2)) == "Chinese New Year"
    assert month.tooltip_at(QPointF(left + width / 2, top + DAY_LINE + 20)) == ""  # over the events: theirs


def test_every_shorter_form_is_shorter() -> None:
    for name, forms in SHORTER.items():
        lengths = [len(form) for form in (name, *forms)]
        assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths), name


@pytest.mark.parametrize("column", [72, 90, 200])
def test_the_week_header_shows_a_whole_form_too(area: Any, cal_ctx: Any, column: int) -> None:
    """The week and day views' header had the same cut ("Chine…" at 960 px)."""
    cal_ctx.settings.set("language", "en")
    area.refresh()
    area.set_view("week")
    area.set_anchor(SPRING_FESTIVAL)
    view = area.current_view()
    view.resize(7 * column + 60, 600)
    header = view.header
    header.repaint()
    width = view.grid.column_width()
    assert abs(width - column) < 20
    shown = header.drawn_labels[SPRING_FESTIVAL]
    assert shown in holiday_forms("Chinese New Year") and "…" not in shown
    if column >= 200:
        assert shown == "Chinese New Year"
    first, end = view.date_range()
    for day, text in header.drawn_labels.items():
        if not first <= day < end:
            continue  # an earlier range's paint
        mark = header.state.marks.get(day)
        assert text == "" or (mark is not None and text in holiday_forms(mark.name)), (day, text)
