"""``richeng sync conflicts``: what a person needs to choose between two versions.

Two devices on a real Radicale change the same events differently; the CLI then lists the
conflicts on the second. Before, the text showed only title, time and place, so versions
that differed in their notes looked identical, and all-day ends were the exclusive DTEND
date where ``events list`` shows the last day.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.services.editing import EventDraft
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import SHANGHAI


def _conflicting(server: CalDavServer, tmp_path: Path) -> Path:
    """Two conflicts on device B: one differs in its notes only, one is all-day."""
    url = server.new_calendar("Work")
    a, b = Device(server, url, tmp_path / "a.sqlite3"), Device(server, url, tmp_path / "b.sqlite3")
    start, end = datetime(2026, 12, 7, 9, tzinfo=SHANGHAI), datetime(2026, 12, 7, 10, tzinfo=SHANGHAI)
    notes = a.add("Planning", start, end, description="Agenda: budget")
    trip = a.add("Trip", date(2026, 12, 10), date(2026, 12, 13))
    a.engine.run()
    b.engine.run()
    a.edit.replace(notes, EventDraft("Planning", start, end, a.calendar_id, description="Agenda: budget, hiring"))
    b.edit.replace(notes, EventDraft("Planning", start, end, b.calendar_id, description="Agenda: hiring only\nbring laptops"))
    a.edit.replace(trip, EventDraft("Trip", date(2026, 12, 10), date(2026, 12, 13), a.calendar_id, location="Hangzhou"))
    b.edit.replace(trip, EventDraft("Trip", date(2026, 12, 10), date(2026, 12, 14), b.calendar_id, location="Hangzhou"))
    assert a.engine.run().errors == []
    assert b.engine.run().new_conflicts == 2
    a.close()
    b.close()
    return tmp_path / "b.sqlite3"


def test_conflicts_show_what_differs_and_the_last_day_of_all_day_events(
    server: CalDavServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RICHENG_CALDAV_KEYRING", "0")
    db = _conflicting(server, tmp_path)
    assert main(["--db", str(db), "--tz", "Asia/Shanghai", "sync", "conflicts"]) == 0
    out = capsys.readouterr().out
    blocks = {block.split("“", 1)[1].split("”", 1)[0]: block for block in out.split("\n#")}
    planning, trip = blocks["Planning"], blocks["Trip"]
    assert "differs: description" in planning
    assert "description here:   Agenda: hiring only ⏎ bring laptops" in planning
    assert "description server: Agenda: budget, hiring" in planning
    assert "here:   Trip  2026-12-10 – 2026-12-13 (all day)  @ Hangzhou" in trip
    assert "server: Trip  2026-12-10 – 2026-12-12 (all day)  @ Hangzhou" in trip
    assert "differs: time" in trip and "2026-12-14" not in trip

    assert main(["--db", str(db), "--json", "sync", "conflicts"]) == 0
    listed = {item["title"]: item for item in json.loads(capsys.readouterr().out)}
    assert (listed["Planning"]["differs"], listed["Trip"]["differs"]) == (["description"], ["time"])
    assert listed["Trip"]["local"]["all_day"] is True and listed["Trip"]["local"]["end"] == "2026-12-14"  # DTEND as stored
