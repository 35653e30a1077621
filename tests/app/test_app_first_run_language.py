"""First run in the UI language: the default calendar's name, and Qt's own button texts.

An English first run used to name its calendar "日程"; the app now passes the name in the
UI language to ``ensure_profile`` (agent/ stays Qt-free). In the zh UI Qt's standard
buttons (OK, Cancel, …) come from Qt's own ``qtbase_zh_CN.qm``, installed with our
catalogue.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from agent.services.calendars import CalendarService
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from app import i18n


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "first.sqlite3")
    yield store
    store.close()


@pytest.mark.parametrize(("language", "name"), [("en", "Calendar"), ("zh_CN", "日程")])
def test_first_calendar_is_named_in_the_ui_language(fresh: Store, language: str, name: str) -> None:
    profile = ensure_profile(fresh, calendar_name=i18n.default_calendar_name(language))
    assert CalendarService(fresh, profile).default().name == name


def test_an_existing_profile_keeps_its_calendar_name(fresh: Store) -> None:
    profile = ensure_profile(fresh, calendar_name="日程")
    assert ensure_profile(fresh, calendar_name="Calendar") == profile
    assert [c.name for c in CalendarService(fresh, profile).list()] == ["日程"]


def test_the_app_start_names_the_calendar_in_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app import application

    db = tmp_path / "app.sqlite3"
    monkeypatch.setattr("app.main_window.MainWindow.show", lambda self: None)
    assert application.run(["--db", str(db), "--lang", "en", "--offscreen", "--quit-after", "0"]) == 0
    store = Store(db)
    try:
        assert [c.name for c in CalendarService(store, ensure_profile(store)).list()] == ["Calendar"]
    finally:
        store.close()


def test_qt_standard_buttons_are_chinese_in_the_zh_ui(qapp: QApplication) -> None:
    try:
        assert i18n.install(qapp, "zh_CN") is not None
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        assert box.button(QDialogButtonBox.StandardButton.Ok).text() == "确定"
        assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"
        message = QMessageBox(QMessageBox.Icon.Question, "t", "t", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        assert message.button(QMessageBox.StandardButton.Yes).text().startswith("是")
    finally:
        i18n.uninstall(qapp)
    english = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
    assert english.button(QDialogButtonBox.StandardButton.Ok).text() == "OK"
