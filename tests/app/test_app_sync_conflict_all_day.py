"""The app's conflict dialog shows an all-day end as its last day, as ``events list`` and
``richeng sync conflicts`` do, not the exclusive DTEND (issue 19: the day after looked like
one more day of the event)."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from agent.sync.conflicts import Conflict
from app.sync.sync_conflict_dialog import SyncConflictDialog


def _ics(summary: str, end: str) -> str:
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:trip@t\r\n"
        f"DTSTAMP:20261201T000000Z\r\nDTSTART;VALUE=DATE:20261202\r\nDTEND;VALUE=DATE:{end}\r\n"
        f"SUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )


def test_an_all_day_end_is_the_last_day(qtbot: Any) -> None:
    conflict = Conflict(1, 1, "home", "Work", "trip@t", "/trip.ics", _ics("上海出差", "20261205"),
                        _ics("上海出差", "20261206"), None, "2026-12-01T00:00:00+00:00", None, None)  # fmt: skip
    dialog = SyncConflictDialog(conflict)
    qtbot.addWidget(dialog)
    local, server = dialog.texts(dialog.local_box), dialog.texts(dialog.server_box)
    assert "2026-12-04" in local and "2026-12-05" not in local
    assert "2026-12-05" in server and "2026-12-06" not in server
