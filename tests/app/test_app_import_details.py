"""Issue 23, defect 9: what the import dialogs say about a file.

* The new calendar's suggested name is the file's own calendar name (``X-WR-CALNAME``, what
  Google and Apple export) before the file name ("basic.ics" says nothing).
* "3 unchanged or skipped" was a bare count: the report now lists each skipped event with
  the rule that skipped it, taken from the importer's own result (``ImportReport.skips``).
* A long repair note was cut off in its table cell; it is a word-wrapped label now, shown
  whole.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from PySide6.QtWidgets import QApplication, QLabel

from agent.ics.importer import import_file
from app.io.import_target import ImportTargetDialog
from app.io.report_dialog import ImportOutcome, ImportReportDialog
from tests.support.chat_fixtures import save_shot

HEAD = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n"


def event(uid: str, summary: str, day: int, *, sequence: int = 0) -> str:
    return (
        f"BEGIN:VEVENT\nUID:{uid}\nDTSTAMP:20261101T000000Z\nSEQUENCE:{sequence}\n"
        f"DTSTART;TZID=Asia/Shanghai:202612{day:02d}T090000\nDTEND;TZID=Asia/Shanghai:202612{day:02d}T100000\n"
        f"SUMMARY:{summary}\nEND:VEVENT\n"
    )


def write(path: Path, body: str) -> Path:
    path.write_text((HEAD + body + "END:VCALENDAR\n").replace("\n", "\r\n"), encoding="utf-8")
    return path


def test_the_files_own_calendar_name_is_suggested_before_the_file_name(app_ctx: Any, qtbot: Any, tmp_path: Path) -> None:
    named = write(tmp_path / "basic.ics", "X-WR-CALNAME:家庭\\, 周末\nX-WR-TIMEZONE:Asia/Shanghai\n" + event("a@t", "Dinner", 5))
    dialog = ImportTargetDialog(app_ctx, [str(named)])
    qtbot.addWidget(dialog)
    assert dialog.new_name.text() == "家庭, 周末" and dialog.new_button.isChecked()
    plain = write(tmp_path / "Google Work.ics", event("b@t", "Sync", 6))
    fallback = ImportTargetDialog(app_ctx, [str(plain)])
    qtbot.addWidget(fallback)
    assert fallback.new_name.text() == "Google Work"  # no X-WR-CALNAME: the file name, as before
    # A calendar of the file's name already there is preselected, so a re-import updates it.
    default = app_ctx.ops.calendars.default().name
    again = ImportTargetDialog(app_ctx, [str(write(tmp_path / "export.ics", f"X-WR-CALNAME:{default}\n"))])
    qtbot.addWidget(again)
    assert again.existing_button.isChecked() and again.calendar_name() == default


def test_the_report_names_each_skipped_event_and_why(app_ctx: Any, qtbot: Any, tmp_path: Path) -> None:
    first = write(tmp_path / "first.ics", event("same@t", "Same", 1) + event("newer@t", "Stored v2", 2, sequence=2))
    import_file(app_ctx.store, app_ctx.profile_id, first, "Work")
    second = write(
        tmp_path / "second.ics",
        event("same@t", "Same", 1)  # identical to what is stored
        + event("newer@t", "Old copy", 2, sequence=1)  # the store has SEQUENCE 2
        + event("twice@t", "First copy", 3)
        + event("twice@t", "Second copy", 3)  # same UID again: the later copy wins
        + "BEGIN:VTODO\nUID:todo@t\nSUMMARY:Buy milk\nEND:VTODO\n"
        + "BEGIN:VJOURNAL\nUID:note@t\nSUMMARY:Diary\nEND:VJOURNAL\n",
    )
    report = import_file(app_ctx.store, app_ctx.profile_id, second, "Work")
    assert report.skipped == 5 and len(report.skips) == 5
    dialog = ImportReportDialog([ImportOutcome(str(second), report)])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    rows = {(title, uid): reason for _name, _line, title, uid, reason in dialog.skipped_rows()}
    assert rows == {
        ("Same", "same@t"): "Unchanged: the same as the copy already in the calendar",
        ("Old copy", "newer@t"): "Older than the copy in the calendar (SEQUENCE / LAST-MODIFIED): that one was kept",
        ("First copy", "twice@t"): "The same event again in this file: the newer copy was imported",
        ("Buy milk", "todo@t"): "A task (VTODO): Richeng has no tasks yet",
        ("Diary", "note@t"): "A VJOURNAL, not an event",
    }
    lines = {line for _name, line, *_ in dialog.skipped_rows()}
    assert "" not in lines  # each row says where in the file it is
    table = dialog.skipped
    assert table.isVisible() and table.rowCount() == 5
    assert table.verticalScrollBar().maximum() == 0  # five rows show without scrolling
    save_shot(dialog, "import_report_skips")


LONG_NOTE = (
    "DTEND was before DTSTART (2026-12-05 10:00 before 09:00): the event was given the length of its "
    "DTSTART's day instead, because a calendar that shows nothing for a broken end hides the appointment; "
    "check the time in the program that exported the file, and edit it here if it is wrong"
)


def test_a_long_repair_note_wraps_and_shows_whole(qtbot: Any) -> None:
    warnings = [
        {"uid": "broken-end@t", "line": 12, "message": LONG_NOTE},
        {"uid": "alarm@t", "line": 40, "message": "VALARM with an unreadable TRIGGER dropped"},
    ]
    report = SimpleNamespace(imported=2, updated=0, skipped=0, errors=[], warnings=warnings, todos=0)
    dialog = ImportReportDialog([ImportOutcome("/tmp/export.ics", report)])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    for _ in range(3):
        QApplication.processEvents()
    label = next(label for label in dialog.repair_labels if label.text() == LONG_NOTE)
    assert isinstance(label, QLabel) and label.wordWrap()
    assert label.width() <= dialog.width()
    assert label.height() >= label.heightForWidth(label.width())  # every wrapped line has room
    assert label.visibleRegion().boundingRect() == label.rect()  # nothing scrolled or clipped away
    assert dialog.height() < 500
    save_shot(dialog, "import_report_long_note")


def test_the_reason_column_is_never_clipped(app_ctx: Any, qtbot: Any, tmp_path: Path) -> None:
    """Issue 32, defect 9: with a long file name and long UIDs (Outlook's, Google's) the
    reason column was cut at the dialog's edge."""
    from PySide6.QtCore import QRect, Qt

    long_uid = "040000008200E00074C5B7101A82E0080000000090F1B2C3D4E5F60100000000000000001000000@outlook.com"
    folder = tmp_path / "Downloads from the shared team drive" / "Calendar exports 2026"
    folder.mkdir(parents=True)
    first = write(folder / "Team calendar exported from Outlook.ics", event(long_uid, "Same", 1))
    import_file(app_ctx.store, app_ctx.profile_id, first, "Work")
    report = import_file(app_ctx.store, app_ctx.profile_id, first, "Work")
    dialog = ImportReportDialog([ImportOutcome(str(first), report)])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    for _ in range(3):
        QApplication.processEvents()
    table = dialog.skipped
    last = table.columnCount() - 1
    right = table.columnViewportPosition(last) + table.columnWidth(last)
    assert right <= table.viewport().width() + 1  # the column ends inside the table
    metrics = table.fontMetrics()
    for row in range(table.rowCount()):
        item = table.item(row, last)
        assert item is not None
        need = metrics.boundingRect(QRect(0, 0, table.columnWidth(last) - 8, 10_000), Qt.TextFlag.TextWordWrap, item.text())
        assert need.height() <= table.rowHeight(row), item.text()
    save_shot(dialog, "import_report_long_uid")
