"""Issue 23, defect 10: what a dark theme and a Chinese month cell hid.

* The time grid drew its hour lines in the palette's ``Mid``. In GTK's Adwaita-dark (what
  Qt's gtk3 theme hands over; its colours are copied below) ``Mid`` is #383838 on a #323232
  base, a contrast of 1.08: the lines were gone. They must now stand out from both the
  working-hours base and the off-hours shade by a contrast ratio of at least
  ``MIN_LINE_CONTRAST`` (WCAG's formula), in light palettes as before.
* In the Chinese month view the first of the month shows "10月 1", which left the holiday
  name of October 1st a few pixels: "国…". The name must be drawn whole.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from PySide6.QtGui import QColor, QFont, QPalette, QStaticText
from PySide6.QtWidgets import QApplication

from app.calendar.month_view import HEAD
from tests.support.chat_fixtures import save_shot

MIN_LINE_CONTRAST = 1.5

ADWAITA_DARK = {  # QApplication.palette() under QT_QPA_PLATFORMTHEME=gtk3 GTK_THEME=Adwaita:dark
    "Window": "#323232",
    "WindowText": "#ffffff",
    "Base": "#323232",
    "AlternateBase": "#2f2f2f",
    "Text": "#ffffff",
    "Button": "#323232",
    "ButtonText": "#ffffff",
    "Mid": "#383838",
    "Dark": "#2c2c2c",
    "Midlight": "#383838",
    "Light": "#3e3e3e",
    "Shadow": "#020202",
    "PlaceholderText": "#9b9b9b",
    "Highlight": "#15539e",
    "HighlightedText": "#ffffff",
}


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, color in ADWAITA_DARK.items():
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(color))
    return palette


def luminance(color: QColor) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.red()) + 0.7152 * channel(color.green()) + 0.0722 * channel(color.blue())


def contrast(a: QColor, b: QColor) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def hour_line_contrasts(view: Any) -> list[float]:
    """Line pixel against the pixel 10 px below it, at 03:00 (off hours) and 12:00 (working)."""
    image = view.grid.grab().toImage()
    x = int(view.grid.column_x(1) + view.grid.column_width() / 2)  # Tuesday: a working day
    found = []
    for hour in (3, 12):
        y = int(view.grid.y_of(hour * 60))
        found.append(contrast(image.pixelColor(x, y), image.pixelColor(x, y + 10)))
    return found


def test_hour_lines_stand_out_in_a_dark_palette(area: Any, qtbot: Any) -> None:
    view = area.current_view()
    assert view.name == "week"
    light = hour_line_contrasts(view)
    area.setPalette(dark_palette())
    QApplication.processEvents()
    assert view.grid.palette().color(QPalette.ColorRole.Base) == QColor("#323232")
    dark = hour_line_contrasts(view)
    assert min(dark) >= MIN_LINE_CONTRAST, dark
    assert min(light) >= MIN_LINE_CONTRAST, light  # the light theme keeps readable lines
    save_shot(view, "dark_hour_lines")


def test_month_grid_lines_stand_out_in_a_dark_palette(area: Any, qtbot: Any) -> None:
    area.set_view("month")
    area.setPalette(dark_palette())
    view = area.current_view()
    QApplication.processEvents()
    image = view.grab().toImage()
    width, height = view.cell_size()
    x = int(width * 1.5)  # mid-cell, away from the column lines
    y = HEAD + 4 * height  # the line between the fourth and fifth weeks (in-month days)
    best = max(contrast(image.pixelColor(x, row), image.pixelColor(x, row + 8)) for row in (int(y), int(y) + 1))
    assert best >= MIN_LINE_CONTRAST


def drawn_texts(view: Any) -> dict[str, set[str]]:
    """What the month view's cells drew, by the text asked for: every form it was drawn in."""
    seen: dict[str, set[str]] = {}
    original = view.texts.get

    def get(text: str, font: QFont, width: int = 100_000, font_key: str | None = None) -> QStaticText:
        shown = original(text, font, width, font_key)
        seen.setdefault(text, set()).add(shown.text())
        return shown

    view.texts.get = get
    view.texts._items.clear()
    view.repaint()
    view.texts.get = original
    return seen


def test_a_first_of_the_month_holiday_name_is_drawn_whole(area: Any, qtbot: Any) -> None:
    area.set_view("month")
    for width in (1000, 820):  # month cells ~108 and ~82 px wide (the 960-px window with the chat)
        area.resize(width, 820)
        QApplication.processEvents()
        for day, name in ((date(2026, 10, 1), "国庆节"), (date(2026, 5, 1), "劳动节"), (date(2026, 1, 1), "元旦")):
            area.set_anchor(day)
            view = area.current_view()
            cells = {cell.day: cell for cell in view.visible_items() if hasattr(cell, "lunar")}
            assert cells[day].mark.name == name
            shown = drawn_texts(view)
            assert shown.get(name) == {name}, (width, view.width(), shown.get(name))  # never elided, never left out
    area.resize(1000, 820)
    area.set_anchor(date(2026, 10, 1))
    save_shot(area.current_view(), "guoqing_month_zh")
