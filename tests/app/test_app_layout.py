"""Half a 1920-px screen works, nothing jumps on navigation, and the calendar's feel
(issue 15, "Layout and feel"): the 960×640 window in week view with the chat pane open,
a divider that stays where it is when the range title's length changes, a window that
never grows itself, a mini month whose Sunday column is never cut, a visible
keyboard-selected day, and an import report sized to what it says.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QTableView, QWidget

from tests.support.app_fixtures import at, seed
from tests.support.chat_fixtures import save_shot
from tests.support.clock import MONDAY


def open_window(app_ctx: Any, qtbot: Any, language: str) -> Any:
    from app.main_window import MainWindow

    app_ctx.settings.set("language", language)
    app_ctx.session.set_model(None)
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    win = MainWindow(app_ctx)
    win.resize(1360, 860)
    win.show()
    qtbot.waitExposed(win)
    win.calendar.set_view("week")
    return win


def close_window(win: Any, qtbot: Any) -> None:
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


@pytest.fixture(params=["en", "zh"])
def window(request: Any, app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    win = open_window(app_ctx, qtbot, request.param)
    yield win
    close_window(win, qtbot)


def _inside(child: QWidget, parent: QWidget) -> bool:
    """``child`` is shown whole inside ``parent`` (not clipped by it)."""
    top_left = child.mapTo(parent, QPoint(0, 0))
    return parent.rect().contains(QRect(top_left, child.size()))


def test_the_window_works_at_960_by_640_in_week_view_with_the_chat_open(window: Any, qtbot: Any) -> None:
    win = window
    splitter = win.splitter
    assert splitter.minimumSizeHint().width() <= 960 - 20
    assert win.minimumSizeHint().width() <= 960 and win.minimumSizeHint().height() <= 640
    win.resize(960, 640)
    qtbot.waitUntil(lambda: win.width() == 960 and win.height() == 640, timeout=2000)
    qtbot.wait(20)
    from app.main_window import CHAT_MIN_WIDTH

    assert win.chat.isVisible() and win.chat.width() >= CHAT_MIN_WIDTH
    calendar = win.calendar
    assert calendar.view_name == "week" and calendar.current_view().width() >= 7 * 60
    nav = calendar.nav
    for widget in (
        nav.today_button,
        nav.prev_button,
        nav.next_button,
        nav.title,
        nav.date_edit,
        nav.search,
        *(button for name, button in nav.view_buttons.items() if name != "workweek"),  # it steps aside when narrow
    ):
        assert widget.isVisible() and _inside(widget, nav), widget
        assert widget.width() >= min(widget.minimumSizeHint().width(), 72), widget
    # The divider dragged towards the chat stops at the chat's minimum (it does not squeeze it).
    win.splitter.moveSplitter(win.splitter.width() - 200, 1)
    qtbot.wait(20)
    assert win.chat.width() >= CHAT_MIN_WIDTH
    # A receipt in the chat pane shows its "Show in calendar" link and Undo whole.
    win.chat.stack.setCurrentWidget(win.chat.view)
    bubble = win.chat.view.add_bubble("assistant", "已创建“周会”")
    bubble.set_receipt("uid-1", at(MONDAY, 15), True)
    qtbot.wait(50)
    viewport = win.chat.view.viewport() if hasattr(win.chat.view, "viewport") else win.chat.view
    for widget in (bubble.link, bubble.undo_button):
        assert _inside(widget, bubble) and _inside(widget, viewport), widget
    save_shot(win, f"layout_960x640_week_{calendar.chinese and 'zh' or 'en'}")


@pytest.mark.parametrize("width", [1115, 960])
def test_the_divider_and_the_window_stay_put_on_navigation(window: Any, qtbot: Any, width: int) -> None:
    win = window
    win.resize(width, 640)
    qtbot.wait(20)
    calendar = win.calendar
    sizes, size = win.splitter.sizes(), win.size()
    titles = set()
    for view in ("month", "week", "month", "week", "day", "agenda", "week"):
        calendar.set_view(view)
        qtbot.wait(5)
        titles.add(calendar.nav.title.text())
        assert win.splitter.sizes() == sizes and win.size() == size, view
    # Week ranges whose titles differ a lot in length ("Dec 28, 2026 – Jan 3, 2027").
    calendar.set_anchor(date(2026, 12, 30))
    for step in (1, -1, -1, 1, 1, 1, 1, 1):
        calendar.step(step)
        qtbot.wait(5)
        titles.add(calendar.nav.title.text())
        assert win.splitter.sizes() == sizes and win.size() == size, calendar.nav.title.text()
    lengths = [calendar.nav.title.fontMetrics().horizontalAdvance(text) for text in titles]
    assert max(lengths) - min(lengths) > 30  # the titles really did change length


def test_a_long_title_is_elided_with_the_whole_title_in_its_tooltip(window: Any, qtbot: Any) -> None:
    win = window
    win.resize(960, 640)
    qtbot.wait(20)
    title = win.calendar.nav.title
    win.calendar.set_view("day")
    assert title.toolTip() == title.text()
    assert title.minimumSizeHint().width() < title.fontMetrics().horizontalAdvance(title.text())


def test_the_sidebar_folds_away_when_narrow_and_on_request(window: Any, qtbot: Any) -> None:
    win = window
    calendar = win.calendar
    assert calendar.sidebar.isVisible()
    win.resize(960, 640)
    qtbot.waitUntil(lambda: not calendar.sidebar.isVisible(), timeout=2000)
    win.resize(1360, 860)
    qtbot.waitUntil(calendar.sidebar.isVisible, timeout=2000)
    win.sidebar_action.trigger()  # View → Sidebar (F9)
    assert not calendar.sidebar.isVisible() and not win.sidebar_action.isChecked()
    win.sidebar_action.trigger()
    assert calendar.sidebar.isVisible()


def _dark(palette: QPalette) -> QPalette:
    dark = QPalette(palette)
    for role, color in (
        (QPalette.ColorRole.Window, "#2b2b2b"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.Text, "#eeeeee"),
        (QPalette.ColorRole.WindowText, "#eeeeee"),
        (QPalette.ColorRole.Button, "#353535"),
        (QPalette.ColorRole.ButtonText, "#eeeeee"),
        (QPalette.ColorRole.Highlight, "#3584e4"),
    ):
        dark.setColor(role, QColor(color))
    return dark


@pytest.mark.parametrize("points", [9.0, 11.0, 13.0])
def test_the_mini_months_sunday_column_is_whole_under_a_dark_theme(app_ctx: Any, qtbot: Any, points: float) -> None:
    app = QApplication.instance()
    saved_font, saved_palette = app.font(), app.palette()
    font = QFont(saved_font)
    font.setPointSizeF(points)  # GTK themes bring their own, often larger, font
    app.setFont(font)
    app.setPalette(_dark(saved_palette))
    try:
        win = open_window(app_ctx, qtbot, "en")
        try:
            for view in ("week", "month", "week"):
                win.calendar.set_view(view)
                qtbot.wait(20)
                mini = win.calendar.sidebar.mini_month
                table = mini.findChild(QTableView)
                right = table.columnViewportPosition(6) + table.columnWidth(6)
                assert right <= table.viewport().width(), (view, right, table.viewport().width())
                assert mini.width() >= mini.minimumSizeHint().width()
            save_shot(win.calendar.sidebar, f"mini_month_dark_{int(points)}pt")
        finally:
            close_window(win, qtbot)
    finally:
        app.setFont(saved_font)
        app.setPalette(saved_palette)


def test_the_keyboard_selected_day_is_highlighted_in_week_view(window: Any, qtbot: Any) -> None:
    win = window
    calendar = win.calendar
    view = calendar.current_view()
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    calendar.set_anchor(MONDAY + timedelta(days=2))  # Wednesday; today is Monday
    qtbot.keyClick(view, Qt.Key.Key_Right)  # → Thursday, by keyboard
    assert calendar.anchor == MONDAY + timedelta(days=3)
    qtbot.wait(20)

    def pixel(widget: QWidget, index: int, y: int) -> QColor:
        image = widget.grab().toImage()
        x = int(view.grid.column_x(index) + view.grid.column_width() / 2)
        return image.pixelColor(int(x * image.width() / widget.width()), int(y * image.height() / widget.height()))

    header_days = [item for item in view.header.visible_items() if hasattr(item, "selected")]
    assert [item.day for item in header_days if item.selected] == [MONDAY + timedelta(days=3)]
    grid_y = view.scroll_area.verticalScrollBar().value() + 20
    for widget, y in ((view.grid, grid_y), (view.header, 4)):
        thursday, wednesday, friday = pixel(widget, 3, y), pixel(widget, 2, y), pixel(widget, 4, y)
        assert wednesday == friday  # same kind of day, neither selected
        assert thursday != wednesday, widget


def test_the_import_report_is_sized_to_its_content(qtbot: Any) -> None:
    from types import SimpleNamespace

    from app.io.report_dialog import ImportOutcome, ImportReportDialog

    clean = SimpleNamespace(imported=12, updated=0, skipped=0, errors=[], warnings=[], todos=0)
    dialog = ImportReportDialog([ImportOutcome("/tmp/work.ics", clean)])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    content = dialog.layout().sizeHint().height()
    assert dialog.height() <= content + 10 and dialog.height() < 200
    problems = [{"line": 10 * n, "uid": f"uid-{n}", "message": "DTSTART is missing"} for n in range(3)]
    broken = SimpleNamespace(imported=3, updated=0, skipped=0, errors=problems, warnings=[], todos=0)
    dialog = ImportReportDialog([ImportOutcome("/tmp/broken.ics", broken)])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    table = dialog.table
    assert table.verticalScrollBar().maximum() == 0  # every row shows, no scrolling
    rows = sum(table.rowHeight(row) for row in range(table.rowCount()))
    assert table.height() <= rows + table.horizontalHeader().height() + 12  # no blank below the rows
    assert dialog.height() < 320
    save_shot(dialog, "import_report_fitted")


def test_a_narrow_bar_shows_the_title_without_the_year_before_it_elides(window: Any, qtbot: Any) -> None:
    win = window
    win.resize(960, 640)
    qtbot.wait(20)
    title = win.calendar.nav.title
    win.calendar.set_view("week")
    full = title.text()
    assert "2026" in full
    title.resize(title.fontMetrics().horizontalAdvance(full) + 8, title.height())
    assert title.shown_text() == full  # room: the whole title
    title.resize(title.fontMetrics().horizontalAdvance(full) - 20, title.height())
    shown = title.shown_text()
    assert "2026" not in shown and "…" not in shown and shown == title.short  # then the short form, whole
    assert title.toolTip() == full


def test_the_sidebar_refits_when_the_theme_font_grows_while_running(app_ctx: Any, qtbot: Any) -> None:
    app = QApplication.instance()
    saved_font = app.font()
    win = open_window(app_ctx, qtbot, "en")
    try:
        mini = win.calendar.sidebar.mini_month
        table = mini.findChild(QTableView)
        before = mini.minimumSizeHint().width()
        font = QFont(saved_font)
        font.setPointSizeF(14)
        app.setFont(font)
        qtbot.waitUntil(lambda: mini.minimumSizeHint().width() > before + 40, timeout=2000)  # the font has arrived
        qtbot.wait(50)
        assert table.columnViewportPosition(6) + table.columnWidth(6) <= table.viewport().width()
        assert mini.width() >= mini.minimumSizeHint().width()
    finally:
        app.setFont(saved_font)
        close_window(win, qtbot)


def test_at_960_px_with_the_chat_open_month_titles_keep_four_characters(app_ctx: Any, qtbot: Any) -> None:
    """Issue 32, defect 8: with the chat open at 960×640 a month cell was ~80 px and "15:00"
    left its title one or two characters; with no model the help pane still took 380 px. The
    no-model pane now opens at its minimum, and a line drops its time before its title."""
    from app.calendar.month_view import TITLE_KEEP
    from app.main_window import CHAT_MIN_WIDTH, MainWindow

    app_ctx.session.set_model(None)
    seed(app_ctx.store, app_ctx.profile_id, "周会例会", at(MONDAY, 15), at(MONDAY, 16))
    win = MainWindow(app_ctx)
    win.resize(960, 640)
    win.show()
    qtbot.waitExposed(win)
    win.calendar.set_view("month")
    qtbot.wait(20)
    assert win.chat_shown() and win.chat.width() <= CHAT_MIN_WIDTH + 10
    month = win.calendar.current_view()
    assert month.title_room() >= month.fontMetrics().horizontalAdvance(TITLE_KEEP) * 0.9
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def test_a_wide_month_cell_still_shows_the_start_time(area: Any, qtbot: Any) -> None:
    area.resize(1300, 800)
    area.set_view("month")
    assert area.current_view().time_shown()
