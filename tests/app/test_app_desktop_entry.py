"""Opening .ics files (issue 32): a desktop entry registers Richeng for text/calendar, and
``richeng FILE.ics`` (what a file manager runs for it) opens the window and imports the file
instead of reaching the CLI as an unknown command."""

from __future__ import annotations

import configparser
import threading
from pathlib import Path
from typing import Any

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


def test_a_file_opened_while_the_app_runs_goes_to_the_running_window(qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """The second ``richeng FILE.ics`` hands the file to the window open on the same database
    and exits; with no window open it says so (False) and opens one itself."""
    from app.single_instance import FileReceiver, send_to_running

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    db = tmp_path / "r.sqlite3"
    invite = tmp_path / "invite.ics"
    invite.write_text("BEGIN:VCALENDAR\nEND:VCALENDAR\n", encoding="utf-8")
    assert not send_to_running(db, [str(invite)])  # nobody listens yet
    receiver = FileReceiver(db)
    got: list[list[str]] = []
    receiver.files_received.connect(got.append)
    sent: list[bool] = []
    thread = threading.Thread(target=lambda: sent.append(send_to_running(db, [str(invite)])))
    thread.start()
    qtbot.waitUntil(lambda: got != [], timeout=3000)
    thread.join(3)
    assert got == [[str(invite.resolve())]] and sent == [True]
    assert not send_to_running(tmp_path / "other.sqlite3", [str(invite)])  # another database: its own window
    receiver.close()
    assert not send_to_running(db, [str(invite)])


def test_a_socket_left_by_a_crashed_window_is_taken_over(qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    import socket

    from app.single_instance import FileReceiver, socket_path

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    db = tmp_path / "r.sqlite3"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(socket_path(db)))
    stale.close()  # the file stays, nobody listens
    receiver = FileReceiver(db)
    assert receiver.server is not None
    receiver.close()
