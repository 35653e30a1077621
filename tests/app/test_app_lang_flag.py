"""``--lang`` decides the whole window's language for that run, day names included, and is
never written over the user's stored choice (found under Xvfb: the calendar kept English
weekday names with --lang zh_CN when the stored setting was en)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def test_lang_flag_wins_for_the_run_and_is_not_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: Any) -> None:
    from agent.services.settings import SettingsService
    from agent.store.db import Store
    from agent.store.profiles import ensure_profile
    from app import application
    from app.main_window import MainWindow
    from app.settings import holiday_choice

    db = tmp_path / "lang.sqlite3"
    store = Store(db)
    settings = SettingsService(store, ensure_profile(store))
    settings.set("language", "en")
    settings.set("holiday_country", "CN")
    store.close()
    seen: list[bool] = []
    monkeypatch.setattr(holiday_choice, "open_question", lambda *a, **k: None)
    monkeypatch.setattr(MainWindow, "show", lambda self: seen.append(self.calendar.chinese))
    assert application.run(["--db", str(db), "--lang", "zh_CN", "--offscreen", "--quit-after", "50"]) == 0
    assert seen == [True]
    store = Store(db)
    try:
        assert SettingsService(store, ensure_profile(store)).get("language") == "en"
    finally:
        store.close()
    from app import i18n

    for translator in list(i18n._INSTALLED):
        qapp.removeTranslator(translator)
