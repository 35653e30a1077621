"""Settings → General → Appearance: light, dark or the system's palette (issue 32), applied at
once to the open window and at the next start."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from tests.support.chat_fixtures import save_shot


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    from app.main_window import MainWindow

    app_ctx.session.set_model(None)
    win = MainWindow(app_ctx)
    win.resize(1177, 736)
    win.show()
    qtbot.waitExposed(win)
    before = QPalette(QApplication.palette())
    yield win
    QApplication.setPalette(before)
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def _choose(win: Any, theme: str, monkeypatch: Any) -> None:
    from app.settings import settings_dialog

    def run(dialog: Any) -> int:
        extras = dialog.general.extras
        extras.theme.setCurrentIndex(extras.theme.findData(theme))
        dialog.accept()
        return int(dialog.result())

    monkeypatch.setattr(settings_dialog.SettingsDialog, "exec", run)
    win.open_settings()
    QApplication.processEvents()


def _window_lightness(win: Any) -> int:
    return int(win.calendar.current_view().palette().color(QPalette.ColorRole.Base).lightness())


def test_dark_then_light_then_system_repaints_the_open_window(window: Any, monkeypatch: Any) -> None:
    import keyring

    monkeypatch.setattr(keyring, "get_password", lambda *a: None)
    system = QPalette(QApplication.palette())
    _choose(window, "dark", monkeypatch)
    assert window.ctx.settings.get("theme") == "dark"
    assert _window_lightness(window) < 80
    save_shot(window, "theme-dark")
    _choose(window, "light", monkeypatch)
    assert _window_lightness(window) > 200
    save_shot(window, "theme-light")
    _choose(window, "system", monkeypatch)
    assert QApplication.palette().color(QPalette.ColorRole.Base) == system.color(QPalette.ColorRole.Base)
