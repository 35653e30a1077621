"""The window fits the screen on the first start and remembers its size, maximised state
and view (issue 32, defect 4: 1360×860 on a 1280×800 screen cut off the chat input)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize

from app.main_window import DEFAULT_SIZE, MainWindow, first_size


def test_the_first_size_fits_a_small_screen() -> None:
    width, height = first_size(QSize(1280, 800))
    assert width <= 1280 * 0.95 and height <= 800 * 0.95
    assert first_size(QSize(2560, 1440)) == DEFAULT_SIZE
    assert first_size(None) == DEFAULT_SIZE


def _open(app_ctx: Any, qtbot: Any) -> MainWindow:
    app_ctx.session.set_model(None)
    win = MainWindow(app_ctx)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_size_and_view_come_back_at_the_next_start(app_ctx: Any, qtbot: Any) -> None:
    win = _open(app_ctx, qtbot)
    win.resize(760, 560)
    win.calendar.set_view("month")
    qtbot.waitUntil(lambda: win.width() == 760, timeout=2000)
    win.chat.shutdown()
    win.close()
    again = _open(app_ctx, qtbot)
    assert (again.width(), again.height()) == (760, 560)
    assert again.calendar.view_name == "month"
    again.chat.shutdown()
    again.close()
