"""Typed dates and times are read (issue 23, defect 1).

The go-to-date box and the editor's start/end fields are Qt date/time edits; typing into
them went section by section (``2027-03-08`` after a click became 2026-03-08, ``2pm``
02:00). Each test types into the real widget the way a person does: a click into the
field (focus comes from another widget), the keys, then Enter or Tab.
"""

from __future__ import annotations

from datetime import date, datetime, time

import pytest
from PySide6.QtCore import QDate, QPoint, Qt, QTime
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QWidget

from app.calendar.typed_parse import parse_typed_date, parse_typed_time
from tests.support.clock import SHANGHAI


def click_into(qtbot, edit: QWidget) -> None:  # type: ignore[no-untyped-def]
    """Focus arrives with a click, from another widget (as a person moves to the field)."""
    line = edit.lineEdit()  # type: ignore[attr-defined]
    qtbot.mouseClick(line, Qt.MouseButton.LeftButton, pos=QPoint(6, line.height() // 2))
    qtbot.wait(5)  # the field selects its text after the click that focused it


def type_into(qtbot, edit: QWidget, text: str, end: Qt.Key = Qt.Key.Key_Return) -> None:  # type: ignore[no-untyped-def]
    click_into(qtbot, edit)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, end)


# ---- the go-to-date box ------------------------------------------------------------------


@pytest.fixture
def nav(qtbot):  # type: ignore[no-untyped-def]
    from app.calendar.nav_bar import NavBar

    bar = NavBar()
    qtbot.addWidget(bar)
    bar.resize(1000, 80)
    bar.set_state("week", date(2026, 11, 30), "Nov 30 – Dec 6, 2026")
    bar.show()
    qtbot.waitExposed(bar)
    bar.search.setFocus()
    picked: list[date] = []
    bar.date_picked.connect(picked.append)
    bar.picked = picked  # type: ignore[attr-defined]
    return bar


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2027-03-08", date(2027, 3, 8)),
        ("20270308", date(2027, 3, 8)),
        ("2027/3/8", date(2027, 3, 8)),
        ("0308", date(2027, 3, 8)),  # no year: the March 8 nearest the shown 2026-11-30
        ("3/8", date(2027, 3, 8)),
        ("12-25", date(2026, 12, 25)),
        ("15", date(2026, 11, 15)),  # a bare day: in the shown month
    ],
)
def test_go_to_date_box_takes_a_typed_date(nav, qtbot, typed: str, expected: date) -> None:  # type: ignore[no-untyped-def]
    type_into(qtbot, nav.date_edit, typed)
    assert nav.picked == [expected]
    assert nav.date_edit.date() == QDate(expected.year, expected.month, expected.day)
    assert nav.date_edit.text() == expected.isoformat()


def test_a_yearless_date_is_the_one_nearest_the_shown_date(nav, qtbot) -> None:  # type: ignore[no-untyped-def]
    nav.set_state("month", date(2026, 6, 15), "June 2026")
    type_into(qtbot, nav.date_edit, "0308")
    assert nav.picked == [date(2026, 3, 8)]  # in June, the March just gone


@pytest.mark.parametrize("typed", ["2027-02-30", "1308", "tomorrow-ish", "2027-03-08x"])
def test_go_to_date_box_refuses_a_bad_date_and_shows_the_old_one(nav, qtbot, typed: str) -> None:  # type: ignore[no-untyped-def]
    refused: list[str] = []
    nav.date_edit.refused.connect(refused.append)
    type_into(qtbot, nav.date_edit, typed)
    assert nav.picked == []
    assert nav.date_edit.date() == QDate(2026, 11, 30) and nav.date_edit.text() == "2026-11-30"
    assert refused == [typed]


def test_focus_out_reads_the_typed_date_too(nav, qtbot) -> None:  # type: ignore[no-untyped-def]
    click_into(qtbot, nav.date_edit)
    qtbot.keyClicks(nav.date_edit, "2027-03-08")
    nav.search.setFocus()
    assert nav.picked == [date(2027, 3, 8)]


# ---- the editor --------------------------------------------------------------------------


@pytest.fixture
def editor(qtbot, cal_ctx):  # type: ignore[no-untyped-def]
    from app.calendar.event_dialog import EventDialog

    dialog = EventDialog(cal_ctx, start=datetime(2026, 12, 2, 10), end=datetime(2026, 12, 2, 11))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.title.setFocus()
    return dialog


def test_editor_takes_a_typed_start_date_then_tab_and_a_typed_time(editor, qtbot) -> None:  # type: ignore[no-untyped-def]
    type_into(qtbot, editor.start_date, "2027-03-08", Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is editor.start_time  # Tab went to the next field
    qtbot.keyClicks(editor.start_time, "1430")
    qtbot.keyClick(editor.start_time, Qt.Key.Key_Tab)
    assert editor.start_date.text().startswith("2027-03-08")
    result = editor.editor_result()
    assert result.draft.start == datetime(2027, 3, 8, 14, 30, tzinfo=SHANGHAI)
    assert result.draft.end == datetime(2027, 3, 8, 15, 30, tzinfo=SHANGHAI)  # the length is kept


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("14:30", QTime(14, 30)), ("1430", QTime(14, 30)), ("2pm", QTime(14, 0)), ("2:45 PM", QTime(14, 45)), ("930", QTime(9, 30))],
)
def test_editor_time_fields_take_typed_times(editor, qtbot, typed: str, expected: QTime) -> None:  # type: ignore[no-untyped-def]
    type_into(qtbot, editor.end_time, typed)
    assert editor.end_time.time() == expected
    assert editor.isVisible()  # the Enter that ended the typing did not press Save


def test_editor_time_takes_chinese_typed_through_an_input_method(editor, qtbot) -> None:  # type: ignore[no-untyped-def]
    click_into(qtbot, editor.start_time)
    event = QInputMethodEvent("", [])
    event.setCommitString("下午2点")
    QApplication.sendEvent(editor.start_time, event)
    qtbot.keyClick(editor.start_time, Qt.Key.Key_Tab)
    assert editor.start_time.time() == QTime(14, 0)


def test_editor_refuses_a_bad_time_and_a_bad_date_and_keeps_the_old_values(editor, qtbot) -> None:  # type: ignore[no-untyped-def]
    refused: list[str] = []
    editor.start_time.refused.connect(refused.append)
    editor.start_date.refused.connect(refused.append)
    type_into(qtbot, editor.start_time, "25:00")
    type_into(qtbot, editor.start_date, "2027-13-01", Qt.Key.Key_Tab)
    assert refused == ["25:00", "2027-13-01"]
    assert editor.start_time.time() == QTime(10, 0) and editor.start_time.text() == "10:00"
    assert editor.start_date.date() == QDate(2026, 12, 2)
    assert editor.editor_result().draft.start == datetime(2026, 12, 2, 10, tzinfo=SHANGHAI)


def test_escape_abandons_the_typing(editor, qtbot) -> None:  # type: ignore[no-untyped-def]
    click_into(qtbot, editor.end_date)
    qtbot.keyClicks(editor.end_date, "2030-01-01")
    qtbot.keyClick(editor.end_date, Qt.Key.Key_Escape)
    assert editor.end_date.date() == QDate(2026, 12, 2) and editor.isVisible()


# ---- the reading itself ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2027-03-08", date(2027, 3, 8)),
        ("2027.3.8", date(2027, 3, 8)),
        ("2027年3月8日", date(2027, 3, 8)),
        ("3月8日", date(2027, 3, 8)),
        ("8号", date(2026, 11, 8)),
        ("2026-11-30 Mon", date(2026, 11, 30)),  # the field's own text reads back
        ("2026-11-30 周一", date(2026, 11, 30)),
        ("2027-02-29", None),
        ("2027-3", None),
        ("", None),
        ("32", None),
        ("270308", None),  # no two-digit years: 2027? 1927? refused rather than guessed
    ],
)
def test_parse_typed_date(typed: str, expected: date | None) -> None:
    assert parse_typed_date(typed, date(2026, 11, 30)) == expected


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("14:30", time(14, 30)),
        ("9:05", time(9, 5)),
        ("2p", time(14)),
        ("12am", time(0)),
        ("12pm", time(12)),
        ("14点", time(14)),
        ("2点半", time(2, 30)),
        ("下午2点", time(14)),
        ("下午2:30", time(14, 30)),
        ("晚上8点15分", time(20, 15)),
        ("中午1点", time(13)),
        ("凌晨12点", time(0)),
        ("14pm", None),
        ("上午15点", None),
        ("24:00", None),
        ("10:60", None),
        ("2", time(2)),  # a bare hour is on the 24-hour clock
        ("noonish", None),
    ],
)
def test_parse_typed_time(typed: str, expected: time | None) -> None:
    assert parse_typed_time(typed) == expected
