"""Custom repeats (issue 23): every N days/weeks/months/years, chosen weekdays, monthly on
the Nth or last weekday or the last day, ends never / on a date / after N times; the
readable summary in the editor, the event card and the agenda; rules the editor cannot
show are kept verbatim. Since issue 28 the editor speaks the one recurrence model
(agent.timesym.recurrence) and its one summary (agent.timesym.recurrence_words)."""

from __future__ import annotations

import ast
import json
import os
import re
from datetime import date, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QDate, QPoint, Qt

from agent.store.components import parse_component
from agent.timesym.recurrence import Recurrence, Weekday, editor_kind, fits_start
from agent.timesym.recurrence_words import summary
from app.calendar.agenda_view import AgendaRow
from app.calendar.event_dialog import EventDialog
from app.calendar.repeat_editor import RepeatEditor
from app.calendar.week_view import GridItem
from app.i18n import ui_lang
from tests.support.app_fixtures import accept_with, at, seed
from tests.support.clock import MONDAY, SHANGHAI

TUESDAY_2ND = date(2026, 12, 8)  # the second Tuesday of December 2026
FRIDAY_LAST = date(2026, 12, 25)  # the fourth and last Friday
MONTH_LAST = date(2026, 12, 31)
TENTH = date(2026, 12, 10)
START = datetime(2026, 12, 8, 9, tzinfo=SHANGHAI)

# (stored rule, first day, the editor's form, the rule the editor writes back when changed)
FORMS = [
    ("FREQ=DAILY;INTERVAL=3;UNTIL=20261231T155959Z", TUESDAY_2ND, "daily", None),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10", TUESDAY_2ND, "weekly", None),
    ("FREQ=WEEKLY;BYDAY=MO,WE,FR", TUESDAY_2ND, "weekly", None),
    ("FREQ=WEEKLY", TUESDAY_2ND, "weekly", "FREQ=WEEKLY;BYDAY=TU"),
    ("FREQ=MONTHLY;BYDAY=2TU", TUESDAY_2ND, "monthly", None),
    ("FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;COUNT=6", FRIDAY_LAST, "monthly", None),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", MONTH_LAST, "monthly", None),
    ("FREQ=MONTHLY;INTERVAL=3", TUESDAY_2ND, "monthly", None),
    ("FREQ=MONTHLY;BYMONTHDAY=10", TENTH, "monthly", "FREQ=MONTHLY"),  # quick add's 每月10号 (issue 28)
    ("FREQ=YEARLY;INTERVAL=2;COUNT=5", TUESDAY_2ND, "yearly", None),
    ("FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=8", TUESDAY_2ND, "yearly", "FREQ=YEARLY"),  # the chat's YEARLY
]


@pytest.mark.parametrize(("rule", "first", "kind", "written"), FORMS)
def test_each_form_round_trips_through_the_editor(qtbot, rule: str, first: date, kind: str, written: str | None) -> None:  # type: ignore[no-untyped-def]
    editor = RepeatEditor()
    qtbot.addWidget(editor)
    editor.set_start(first)
    editor.set_rule(Recurrence.from_rrule(rule, SHANGHAI))
    assert editor.kind.currentData() == kind
    start = datetime.combine(first, START.timetz())
    shown = editor.rule()
    assert shown is not None and shown.to_rrule(start) == (written or rule)


def test_equivalent_spellings_read_as_the_same_form() -> None:
    second_tuesday = Recurrence("MONTHLY", weekdays=(Weekday("TU", 2),))
    for text in ("FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2", "FREQ=MONTHLY;BYDAY=+2TU", "FREQ=MONTHLY;BYDAY=2TU"):
        assert editor_kind(Recurrence.from_rrule(text), TUESDAY_2ND) == "monthly"
    assert Recurrence.from_rrule("FREQ=MONTHLY;BYDAY=+2TU") == second_tuesday
    assert Recurrence.from_rrule("freq=weekly;byday=th,tu;interval=1;wkst=mo").weekdays == (Weekday("TH"), Weekday("TU"))
    assert editor_kind(Recurrence.from_rrule("FREQ=WEEKLY;BYDAY=MO;WKST=SU"), TUESDAY_2ND) == "weekly"  # WKST changes nothing


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",  # the last working day
        "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "FREQ=MONTHLY;BYMONTHDAY=15",  # not the start's day
        "FREQ=MONTHLY;BYDAY=5FR",
        "FREQ=DAILY;BYHOUR=9,17",
        "FREQ=HOURLY;INTERVAL=4",
        "FREQ=WEEKLY;INTERVAL=0",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU",  # WKST changes which weeks count
        "FREQ=WEEKLY;COUNT=3;UNTIL=20261231",
    ],
)
def test_rules_the_editor_cannot_show_stay_custom(qtbot, rule: str) -> None:  # type: ignore[no-untyped-def]
    editor = RepeatEditor()
    qtbot.addWidget(editor)
    editor.set_start(TUESDAY_2ND)
    editor.set_rule(Recurrence.read(rule, SHANGHAI))
    assert editor.kind.currentData() == "custom"
    kept = editor.rule()
    assert kept is not None and kept.to_rrule(START) == rule


def test_a_monthly_weekday_rule_must_fit_its_start() -> None:
    second_tuesday = Recurrence("MONTHLY", weekdays=(Weekday("TU", 2),))
    assert fits_start(second_tuesday, TUESDAY_2ND) and not fits_start(second_tuesday, date(2026, 12, 15))
    last_friday = Recurrence("MONTHLY", weekdays=(Weekday("FR", -1),))
    assert fits_start(last_friday, FRIDAY_LAST) and not fits_start(last_friday, date(2026, 12, 18))
    last_day = Recurrence("MONTHLY", month_days=(-1,))
    assert fits_start(last_day, MONTH_LAST) and fits_start(last_day, date(2027, 2, 28))
    assert not fits_start(last_day, date(2026, 12, 30))
    tenth = Recurrence("MONTHLY", month_days=(10,))
    assert fits_start(tenth, TENTH) and not fits_start(tenth, TUESDAY_2ND)


def test_no_rrule_text_is_built_or_read_in_the_app() -> None:
    """Issue 28: the app says a repeat as a ``Recurrence``; RRULE text is the model's."""
    root = Path(__file__).resolve().parents[2] / "app"
    found = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            said = [word for word in ("FREQ=", "BYDAY", "BYMONTH", "UNTIL=", "COUNT=", "rrulestr", "vRecur") if word in line]
            if re.search(r"\.split\(\s*[\"'];", line) and re.search(r"rule|recur", line, re.IGNORECASE):
                said.append("a rule split on ';'")  # a holiday's names or a Qt platform list may be split
            found += [f"{path.relative_to(root.parent)}:{number}: {word}" for word in said]
    assert found == []
    assert not (root / "calendar" / "recurrence.py").exists()


# ---- the editor --------------------------------------------------------------------------


def dialog_at(qtbot, ctx, start: datetime) -> EventDialog:  # type: ignore[no-untyped-def]
    dialog = EventDialog(ctx, None, start=start, end=start + timedelta(hours=1))
    qtbot.addWidget(dialog)
    return dialog


def choose(combo, data: object) -> None:  # type: ignore[no-untyped-def]
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)


def every_two_weeks(repeat: RepeatEditor) -> None:
    choose(repeat.kind, "weekly")
    repeat.interval.setValue(2)
    repeat.weekday_buttons["TU"].setChecked(True)
    repeat.weekday_buttons["TH"].setChecked(True)
    choose(repeat.ends, "count")
    repeat.count.setValue(10)


def test_editor_builds_every_two_weeks_on_tue_and_thu_with_its_summary(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    dialog = dialog_at(qtbot, cal_ctx, START)
    every_two_weeks(dialog.repeat)
    assert dialog.editor_result().draft.rrule == "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10"
    rule = Recurrence.from_rrule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10")
    assert dialog.repeat.summary.text() == summary(rule, TUESDAY_2ND, ui_lang())
    assert not dialog.repeat.summary.isHidden()


def test_editor_every_three_days_until_a_date(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    dialog = dialog_at(qtbot, cal_ctx, START)
    choose(dialog.repeat.kind, "daily")
    dialog.repeat.interval.setValue(3)
    choose(dialog.repeat.ends, "until")
    dialog.repeat.until.setDate(QDate(2026, 12, 31))
    assert dialog.editor_result().draft.rrule == "FREQ=DAILY;INTERVAL=3;UNTIL=20261231T155959Z"
    assert dialog.repeat.interval.isVisibleTo(dialog) and not dialog.repeat.weekdays.isVisibleTo(dialog)


def test_editor_monthly_forms_follow_the_start(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    dialog = dialog_at(qtbot, cal_ctx, START)
    choose(dialog.repeat.kind, "monthly")
    assert dialog.repeat.monthly.findData("last") < 0 and dialog.repeat.monthly.findData("lastday") < 0
    choose(dialog.repeat.monthly, "nth")
    assert dialog.editor_result().draft.rrule == "FREQ=MONTHLY;BYDAY=2TU"
    dialog.start_date.setDate(QDate(2026, 12, 15))  # moving the start moves the rule with it
    assert dialog.editor_result().draft.rrule == "FREQ=MONTHLY;BYDAY=3TU"
    dialog.start_date.setDate(QDate(2026, 12, 25))
    choose(dialog.repeat.monthly, "last")
    assert dialog.editor_result().draft.rrule == "FREQ=MONTHLY;BYDAY=-1FR"
    dialog.start_date.setDate(QDate(2026, 12, 31))
    choose(dialog.repeat.monthly, "lastday")
    dialog.repeat.interval.setValue(2)
    assert dialog.editor_result().draft.rrule == "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1"
    assert dialog.repeat.summary.text() == summary(Recurrence("MONTHLY", 2, month_days=(-1,)), MONTH_LAST, ui_lang())
    dialog.start_date.setDate(QDate(2026, 12, 30))  # no longer the last day: the same day each month
    assert dialog.repeat.monthly.currentData() == "day"
    assert dialog.editor_result().draft.rrule == "FREQ=MONTHLY;INTERVAL=2"


def stored_rule(store) -> list[str]:  # type: ignore[no-untyped-def]
    """The master's RRULE parts (icalendar writes them in its own order)."""
    rows = [row[0] for row in store.conn.execute("SELECT ics FROM events WHERE recurrence_id = ''")]
    assert len(rows) == 1
    rule = parse_component(rows[0]).get("RRULE")
    return sorted(rule.to_ical().decode().split(";")) if rule is not None else []


def test_editor_saves_the_rule_and_reopens_it(area, cal_ctx, cal_store, qtbot) -> None:  # type: ignore[no-untyped-def]
    area.exec_dialog = accept_with(lambda dialog: every_two_weeks(dialog.repeat))
    area.open_editor(None, START.replace(tzinfo=None), START.replace(tzinfo=None, hour=10))
    assert stored_rule(cal_store) == sorted(["FREQ=WEEKLY", "INTERVAL=2", "BYDAY=TU,TH", "COUNT=10"])
    occ = next(event.occ for event in area.source.events(TUESDAY_2ND, TUESDAY_2ND + timedelta(days=1)))
    dialog = EventDialog(cal_ctx, area, occurrence=occ)
    qtbot.addWidget(dialog)
    repeat = dialog.repeat
    assert repeat.kind.currentData() == "weekly" and repeat.interval.value() == 2
    assert [code for code, button in repeat.weekday_buttons.items() if button.isChecked()] == ["TU", "TH"]
    assert repeat.ends.currentData() == "count" and repeat.count.value() == 10


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",  # shown as custom, kept
        "FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2",  # shown as the second Tuesday, kept as spelt
        "FREQ=MONTHLY;BYDAY=2MO",  # does not fit the Tuesday start: custom, kept
    ],
)
def test_opening_and_saving_an_imported_rule_keeps_it_verbatim(area, cal_ctx, cal_store, profile, qtbot, rule) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Imported", START, START + timedelta(hours=1), rrule=rule)
    area.refresh()
    before = stored_rule(cal_store)
    assert before == sorted(rule.split(";"))
    occ = next(event.occ for event in area.source.events(TUESDAY_2ND, TUESDAY_2ND + timedelta(days=1)))
    dialog = EventDialog(cal_ctx, area, occurrence=occ)
    qtbot.addWidget(dialog)
    expected = "custom" if rule != "FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2" else "monthly"
    assert dialog.repeat.kind.currentData() == expected
    assert not dialog.editor_result().recurrence_changed
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("Imported, renamed"))
    from app.calendar import scope_prompt

    scope_prompt.ask_scope, saved = (lambda *args: "all"), scope_prompt.ask_scope
    try:
        area.open_editor(next(iter(area.source.events(TUESDAY_2ND, TUESDAY_2ND + timedelta(days=1)))), None, None)
    finally:
        scope_prompt.ask_scope = saved
    assert stored_rule(cal_store) == before


# ---- where the summary is read: the event card and the agenda ----------------------------


def test_event_card_shows_the_summary_on_a_click(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Standup", at(MONDAY, 11), at(MONDAY, 12), rrule="FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10")
    seed(cal_store, profile, "Lunch", at(MONDAY, 13), at(MONDAY, 14))
    area.refresh()
    area.popover.delay_ms = 0
    view = area.current_view()
    expected = summary(Recurrence.from_rrule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10"), MONDAY, ui_lang())
    assert expected in {"Every 2 weeks on Mon, Wed, 10 times", "每两周的周一、三，共 10 次"}
    standup = next(item for item in view.visible_items() if isinstance(item, GridItem) and item.event.occ.title == "Standup")
    center = standup.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    card = area.popover.card
    qtbot.waitUntil(card.isVisible)
    assert card.title.text() == "Standup" and card.repeat.text() == expected and not card.repeat.isHidden()
    qtbot.mousePress(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    assert not card.isVisible()  # any press puts it away
    lunch = next(item for item in view.visible_items() if isinstance(item, GridItem) and item.event.occ.title == "Lunch")
    spot = lunch.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(spot.x()), int(spot.y())))
    qtbot.waitUntil(card.isVisible)
    assert card.title.text() == "Lunch" and card.repeat.isHidden()  # a single event has no repeat line


def test_agenda_rows_show_the_summary(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "月度复盘", at(TUESDAY_2ND, 15), at(TUESDAY_2ND, 16), rrule="FREQ=MONTHLY;BYDAY=2TU")
    seed(cal_store, profile, "Lunch", at(MONDAY, 13), at(MONDAY, 14), location="食堂")
    area.refresh()
    area.set_view("agenda")
    rows = [row for row in area.current_view().visible_items() if isinstance(row, AgendaRow) and row.event is not None]
    review = next(row for row in rows if row.event is not None and row.event.occ.title == "月度复盘")
    said = summary(Recurrence.from_rrule("FREQ=MONTHLY;BYDAY=2TU"), TUESDAY_2ND, ui_lang())
    assert said in {"Monthly on the second Tuesday", "每月第二个周二"} and said in review.details
    lunch = next(row for row in rows if row.event is not None and row.event.occ.title == "Lunch")
    assert lunch.details.startswith("食堂") and said not in lunch.details


# ---- translations -----------------------------------------------------------------------


def test_every_repeat_editor_and_card_string_has_a_chinese_translation() -> None:
    root = Path(__file__).resolve().parents[2]
    catalogue = json.loads((root / "resources/translations/zh_CN.json").read_text(encoding="utf-8"))
    missing = []
    for name in ("repeat_editor.py", "event_popover.py"):
        tree = ast.parse((root / "app/calendar" / name).read_text(encoding="utf-8"))
        for cls in (node for node in tree.body if isinstance(node, ast.ClassDef)):
            for call in (node for node in ast.walk(cls) if isinstance(node, ast.Call)):
                func = call.func
                if isinstance(func, ast.Attribute) and func.attr == "tr" and call.args:
                    arg = call.args[0]
                    if isinstance(arg, ast.Constant) and not catalogue.get(cls.name, {}).get(arg.value):
                        missing.append(f"{cls.name}: {arg.value!r}")
    assert missing == []
