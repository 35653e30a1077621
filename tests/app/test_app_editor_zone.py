"""The editor's zone field finds zones as Settings does and shows the local time (issue 32,
defect 12): its completer matched English IANA names only (纽约 found nothing while Settings'
picker found New York), and nothing said what a New York 15:00 is here while editing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest


@pytest.fixture
def dialog(cal_ctx: Any, qtbot: Any) -> Any:
    from app.calendar.event_dialog import EventDialog

    editor = EventDialog(cal_ctx, start=datetime(2026, 12, 1, 15), end=datetime(2026, 12, 1, 16))
    qtbot.addWidget(editor)
    editor.show()
    return editor


def _completions(dialog: Any, typed: str) -> list[str]:
    completer = dialog.zone.completer()
    completer.setCompletionPrefix(typed)
    model = completer.completionModel()
    return [completer.pathFromIndex(model.index(row, 0)) for row in range(model.rowCount())]


@pytest.mark.parametrize(
    ("typed", "zone"), [("纽约", "America/New_York"), ("new york", "America/New_York"), ("东京", "Asia/Tokyo")]
)
def test_the_zone_field_completes_chinese_city_names_and_words(dialog: Any, typed: str, zone: str) -> None:
    assert zone in _completions(dialog, typed)


def test_a_completion_puts_the_iana_name_in_the_field(dialog: Any) -> None:
    completer = dialog.zone.completer()
    completer.setCompletionPrefix("纽约")
    assert completer.currentCompletion() == "America/New_York"


def test_the_local_time_shows_beside_another_zone(dialog: Any, qtbot: Any) -> None:
    assert dialog.zone_local.text() == ""  # the user's own zone: nothing to convert
    dialog.set_zone("America/New_York")
    assert "04:00 12-02" in dialog.zone_local.text()  # 15:00 in New York is 04:00 the next day here
