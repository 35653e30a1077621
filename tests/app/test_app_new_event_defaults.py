"""Settings → General: what a new event starts with (issue 32, defect 14). The README said
"60 minutes unless changed in Settings" and there was no such setting, nor a default reminder."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest


@pytest.fixture
def saved_settings(app_ctx: Any, qtbot: Any, monkeypatch: Any) -> Any:
    import keyring

    from app.settings.settings_dialog import SettingsDialog

    monkeypatch.setattr(keyring, "get_password", lambda *a: None)
    dialog = SettingsDialog(app_ctx)
    qtbot.addWidget(dialog)
    extras = dialog.general.extras
    extras.length.setValue(45)
    extras.reminder.setCurrentIndex(extras.reminder.findData(15))
    dialog.accept()
    return app_ctx


def test_settings_save_the_default_length_and_reminder(saved_settings: Any) -> None:
    settings = saved_settings.settings
    assert settings.get("default_duration_minutes") == 45
    assert settings.get("default_reminder_minutes") == 15


def test_a_new_event_in_the_editor_takes_them(saved_settings: Any, qtbot: Any) -> None:
    from app.calendar.event_dialog import EventDialog

    editor = EventDialog(saved_settings, start=datetime(2026, 12, 1, 15))
    qtbot.addWidget(editor)
    assert editor.end_time.time().toString("HH:mm") == "15:45"
    assert list(editor.reminders.listed()) == [15]


def test_a_quick_add_without_a_reminder_takes_the_default(saved_settings: Any) -> None:
    from agent.services.commands import CommandService
    from agent.services.quick_add import QuickAdd

    ctx = saved_settings
    adder = QuickAdd(CommandService(ctx.store, ctx.profile_id, ctx.time_context(), origin="user"))
    result = adder.create(adder.read("明天下午三点和张三开会"))
    assert result.outcome is not None and result.outcome.status == "created"
    rows = ctx.store.conn.execute("SELECT trigger FROM alarms").fetchall()
    assert [row[0] for row in rows] == ["-PT15M"]
    assert result.end is not None and result.start is not None and (result.end - result.start).seconds == 45 * 60
