"""Issue 15, defect 3: an import asks which calendar, and is one undoable step.

The GUI import used to land every event in the default calendar and was not on the undo
stack, so Ctrl+Z right after an import undid an older, unrelated edit. Now the user picks
an existing calendar or a new one named after the file, and Ctrl+Z (``ops.undo``) takes
back exactly the import: new events go, events it updated get their old text back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.services.editing import EventDraft
from app.io import file_dialogs, import_export
from app.io.import_target import ImportTargetDialog
from tests.support.chat_fixtures import event_titles, save_shot
from tests.support.clock import NOW

TWO_EVENTS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:g-1@test
DTSTAMP:20261101T000000Z
DTSTART;TZID=Asia/Shanghai:20261202T140000
DTEND;TZID=Asia/Shanghai:20261202T150000
SUMMARY:牙医复诊
END:VEVENT
BEGIN:VEVENT
UID:g-2@test
DTSTAMP:20261101T000000Z
DTSTART;TZID=Asia/Shanghai:20261203T090000
DTEND;TZID=Asia/Shanghai:20261203T100000
SUMMARY:Team sync
END:VEVENT
END:VCALENDAR
"""


@pytest.fixture
def google_file(tmp_path: Path) -> Path:
    path = tmp_path / "Google Work.ics"
    path.write_text(TWO_EVENTS.replace("\n", "\r\n"), encoding="utf-8")
    return path


def calendar_of(app_ctx, title: str) -> str:  # type: ignore[no-untyped-def]
    row = app_ctx.store.conn.execute(
        "SELECT c.name FROM events e JOIN calendars c ON c.id = e.calendar_id WHERE e.title = ?", (title,)
    ).fetchone()
    return str(row[0])


def run_import(qtbot, app_ctx, monkeypatch, path: Path, answer) -> list[Any]:  # type: ignore[no-untyped-def]
    asked: list[list[str]] = []

    def ask(parent, ctx, paths):  # type: ignore[no-untyped-def]
        asked.append(list(paths))
        return answer(ctx, paths)

    monkeypatch.setattr(file_dialogs, "open_file_names", lambda *args, **kwargs: [str(path)])
    monkeypatch.setattr(import_export, "ask_calendar", ask)
    job = import_export.import_dialog(None, app_ctx)
    if job is not None:
        with qtbot.waitSignal(job.done, timeout=10_000):
            pass
        qtbot.addWidget(job.report_dialog)
    return asked


def test_import_asks_for_a_calendar_and_ctrl_z_undoes_the_import_not_an_older_edit(  # type: ignore[no-untyped-def]
    app_ctx, qtbot, monkeypatch, google_file
) -> None:
    ops = app_ctx.ops
    ops.create(EventDraft("Earlier edit", NOW, NOW.replace(hour=11), ops.calendars.default().id))
    asked = run_import(qtbot, app_ctx, monkeypatch, google_file, lambda ctx, paths: "Google Work")
    assert asked == [[str(google_file)]]
    assert event_titles(app_ctx.store) == ["Earlier edit", "牙医复诊", "Team sync"]
    assert calendar_of(app_ctx, "牙医复诊") == "Google Work" and calendar_of(app_ctx, "Earlier edit") != "Google Work"
    ops.undo()  # what Ctrl+Z calls
    assert event_titles(app_ctx.store) == ["Earlier edit"]
    ops.redo()
    assert sorted(event_titles(app_ctx.store)) == ["Earlier edit", "Team sync", "牙医复诊"]


def test_reimport_into_an_existing_calendar_undo_restores_what_it_updated(app_ctx, qtbot, monkeypatch, google_file) -> None:  # type: ignore[no-untyped-def]
    default = app_ctx.ops.calendars.default().name
    run_import(qtbot, app_ctx, monkeypatch, google_file, lambda ctx, paths: default)
    assert calendar_of(app_ctx, "牙医复诊") == default
    newer = TWO_EVENTS.replace("SUMMARY:牙医复诊", "SEQUENCE:2\r\nSUMMARY:牙医复诊（改期）")
    google_file.write_text(newer.replace("\n", "\r\n"), encoding="utf-8")
    run_import(qtbot, app_ctx, monkeypatch, google_file, lambda ctx, paths: default)
    assert "牙医复诊（改期）" in event_titles(app_ctx.store)
    app_ctx.ops.undo()
    assert sorted(event_titles(app_ctx.store)) == ["Team sync", "牙医复诊"]


def test_cancelling_the_calendar_choice_imports_nothing(app_ctx, qtbot, monkeypatch, google_file) -> None:  # type: ignore[no-untyped-def]
    run_import(qtbot, app_ctx, monkeypatch, google_file, lambda ctx, paths: None)
    assert event_titles(app_ctx.store) == [] and not app_ctx.ops.can_undo()


def test_the_choice_offers_a_new_calendar_named_after_the_file_or_an_existing_one(app_ctx, qtbot, google_file) -> None:  # type: ignore[no-untyped-def]
    dialog = ImportTargetDialog(app_ctx, [str(google_file)])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.new_button.isChecked() and dialog.new_name.text() == "Google Work"
    assert dialog.calendar_name() == "Google Work"
    default = app_ctx.ops.calendars.default().name
    assert [dialog.existing.itemText(i) for i in range(dialog.existing.count())] == app_ctx.ops.calendars.names()
    save_shot(dialog, "import_calendar_choice")
    dialog.existing_button.setChecked(True)
    assert dialog.calendar_name() == default
    dialog.new_button.setChecked(True)
    dialog.new_name.setText("   ")
    assert not dialog.import_button.isEnabled()  # an empty name cannot be imported into
    # A file named like an existing calendar preselects that calendar.
    same = google_file.with_name(f"{default}.ics")
    same.write_bytes(google_file.read_bytes())
    again = ImportTargetDialog(app_ctx, [str(same)])
    qtbot.addWidget(again)
    assert again.existing_button.isChecked() and again.calendar_name() == default
