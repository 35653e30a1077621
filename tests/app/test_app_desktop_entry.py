"""Opening .ics files (issue 32): a desktop entry registers Richeng for text/calendar, and
``richeng FILE.ics`` (what a file manager runs for it) opens the window and imports the file
instead of reaching the CLI as an unknown command."""

from __future__ import annotations

import configparser
from pathlib import Path

from app.application import parse_args
from app.launcher import wants_cli
from app.paths import resource_path


def test_the_desktop_entry_registers_text_calendar_and_passes_files() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    entry.read(Path(resource_path("richeng.desktop")), encoding="utf-8")
    section = entry["Desktop Entry"]
    assert "text/calendar" in section["MimeType"].split(";")
    assert section["Exec"].split()[-1] in ("%F", "%U", "%f")
    assert section["Type"] == "Application" and "Calendar" in section["Categories"].split(";")


def test_an_ics_file_opens_the_window_and_is_handed_to_it(tmp_path: Path) -> None:
    invite = tmp_path / "Invitation.ICS"
    invite.write_text("BEGIN:VCALENDAR\nEND:VCALENDAR\n", encoding="utf-8")
    assert not wants_cli([str(invite)])
    assert not wants_cli(["--db", str(tmp_path / "r.sqlite3"), str(invite)])
    assert parse_args(["--lang", "en", str(invite)]).files == [str(invite)]
    assert wants_cli([str(tmp_path / "missing.ics")])  # not a file: the CLI's one-line error
    assert wants_cli(["events", "list"])
