"""Series made outside the editor, opened and saved in it (issue 28, "Must show").

A 农历 yearly series made by quick add ("每年农历八月十五 中秋聚餐") or by chat
(``repeat="LUNAR_YEARLY"``) used to read as "does not repeat" in the editor: only the
editor marked a lunar series, and changing the title then saving shrank it to one event
(4 → 1 occurrences through 2029). A monthly-on-the-10th series (``BYMONTHDAY=10``, quick
add's "每月10号 交房租" or an import) read as "Custom repeat". Both go through the real
event dialog and the calendar area here, as a user would."""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPoint, Qt

from agent.models.script_backend import ScriptedModel
from agent.runtime.turn import Assistant
from agent.services.commands import CommandService
from agent.services.quick_add import QuickAdd
from agent.store.components import parse_component
from agent.timesym.recurrence import LUNAR_MARK, MARK_PROPERTY
from app.calendar import scope_prompt
from app.calendar.agenda_view import AgendaRow
from app.calendar.event_dialog import EventDialog
from app.calendar.week_view import GridItem
from app.i18n import ui_lang
from tests.support.app_fixtures import accept_with, at, seed
from tests.support.clock import SHANGHAI, ctx_at

EARLY = datetime(2026, 9, 1, 10, tzinfo=SHANGHAI)  # before 中秋 2026, so the series starts in 2026
MID_AUTUMN = [date(2026, 9, 25), date(2027, 9, 15), date(2028, 10, 3), date(2029, 9, 22)]  # 八月十五, 2026–2029


def series_days(store, title: str) -> list[date]:  # type: ignore[no-untyped-def]
    """Every day the stored series holds (its DTSTART and RDATEs; an RRULE would fail the
    test), whatever the calendar has expanded yet."""
    rows = [parse_component(row[0]) for row in store.conn.execute("SELECT ics FROM events WHERE recurrence_id = ''")]
    master = next(component for component in rows if str(component.get("SUMMARY")) == title)
    assert master.get("RRULE") is None
    listed = master.get("RDATE")
    items = listed if isinstance(listed, list) else [listed] if listed is not None else []
    start = master.decoded("DTSTART")
    values = [start] + [value.dt for item in items for value in item.dts]
    return sorted(value.date() if isinstance(value, datetime) else value for value in values)


def by_quick_add(store, profile: int) -> str:  # type: ignore[no-untyped-def]
    quick = QuickAdd(CommandService(store, profile, ctx_at(EARLY)))
    parsed = quick.read("每年农历八月十五 中秋聚餐")
    assert parsed.problem is None and parsed.repeat == "LUNAR_YEARLY"
    result = quick.create(parsed)
    assert result.word == "created"
    return parsed.title


def by_chat(store, profile: int) -> str:  # type: ignore[no-untyped-def]
    script = [
        {
            "tool_calls": [
                {
                    "name": "prepare_or_create_schedule",
                    "arguments": {"title": "中秋聚餐", "dateExpression": "L:08-15", "repeat": "LUNAR_YEARLY"},
                }
            ]
        }
    ]
    result = Assistant(store, profile, ScriptedModel(script), clock=lambda: EARLY).turn("每年农历八月十五中秋聚餐", ctx_at(EARLY))
    assert result.outcome == "created"
    assert "每年农历八月十五" in result.reply  # the receipt says the rule, in the summary's words
    return "中秋聚餐"


@pytest.mark.parametrize("make", [by_quick_add, by_chat], ids=["quick_add", "chat"])
def test_a_lunar_series_made_elsewhere_keeps_every_occurrence_after_an_editor_save(
    make, area, cal_ctx, cal_store, profile, qtbot, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    title = make(cal_store, profile)
    master = parse_component(next(iter(cal_store.conn.execute("SELECT ics FROM events WHERE recurrence_id = ''")))[0])
    assert str(master.get(MARK_PROPERTY)) == LUNAR_MARK
    before = series_days(cal_store, title)
    assert [day for day in before if day.year <= 2029] == MID_AUTUMN
    area.refresh()
    occurrence = next(iter(area.source.events(date(2027, 9, 15), date(2027, 9, 16))))
    shown = EventDialog(cal_ctx, area, occurrence=occurrence.occ)
    qtbot.addWidget(shown)
    assert shown.repeat.kind.currentData() == "lunar"  # not "does not repeat"
    assert shown.repeat.summary.text().startswith("每年农历八月十五" if ui_lang() == "zh" else "Annually on lunar 八月十五")
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: "all")
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("中秋家宴"))
    area.open_editor(occurrence, None, None)
    after = series_days(cal_store, "中秋家宴")
    assert [day for day in after if day.year <= 2029] == MID_AUTUMN  # 4 through 2029, not 1
    assert after == before


def test_a_monthly_series_on_the_10th_shows_as_monthly_with_its_summary(
    area, cal_ctx, cal_store, profile, qtbot, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    tenth = date(2026, 12, 10)
    seed(cal_store, profile, "交房租", at(tenth, 9), at(tenth, 10), rrule="FREQ=MONTHLY;BYMONTHDAY=10")
    area.set_anchor(tenth)
    area.refresh()
    event = next(iter(area.source.events(tenth, tenth + timedelta(days=1))))
    dialog = EventDialog(cal_ctx, area, occurrence=event.occ)
    qtbot.addWidget(dialog)
    repeat = dialog.repeat
    assert repeat.kind.currentData() == "monthly" and repeat.monthly.currentData() == "day"
    assert repeat.summary.text() in {"每月10日", "Monthly on the 10th"}
    expected = repeat.summary.text()
    # The event card, on a click, and the agenda say the same words.
    area.popover.delay_ms = 0
    view = area.current_view()
    item = next(item for item in view.visible_items() if isinstance(item, GridItem) and item.event.occ.title == "交房租")
    center = item.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    qtbot.waitUntil(area.popover.card.isVisible)
    assert area.popover.card.repeat.text() == expected
    area.set_view("agenda")
    rows = [row for row in area.current_view().visible_items() if isinstance(row, AgendaRow) and row.event is not None]
    assert any(expected in row.details for row in rows if row.event is not None and row.event.occ.title == "交房租")
    # Saving a title change keeps the rule as it was written.
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: "all")
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("交房租（上海）"))
    area.open_editor(event, None, None)
    rule = parse_component(next(iter(cal_store.conn.execute("SELECT ics FROM events WHERE recurrence_id = ''")))[0])["RRULE"]
    assert sorted(rule.to_ical().decode().split(";")) == ["BYMONTHDAY=10", "FREQ=MONTHLY"]


def test_an_imported_list_of_dates_is_kept_when_the_editor_saves(area, cal_ctx, cal_store, profile, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A series given only as RDATEs (another app's, no 农历 mark) is a repeat the editor
    cannot show: custom, kept. It used to read as "does not repeat", and a title edit
    dropped every date but the first."""
    from agent.services.editing import EditService
    from agent.store.events import EventRepo

    first = date(2026, 12, 3)
    uid = seed(cal_store, profile, "体检", at(first, 9), at(first, 10))
    repo = EventRepo(cal_store, profile)
    row = repo.row(uid, "")
    component = parse_component(row["ics"])
    component.add("RDATE", [at(date(2026, 12, 17), 9), at(date(2027, 1, 7), 9)])
    with cal_store.transaction():
        repo.save(component, row["calendar_id"], "import")
    area.refresh()
    event = next(iter(area.source.events(first, first + timedelta(days=1))))
    dialog = EventDialog(cal_ctx, area, occurrence=event.occ)
    qtbot.addWidget(dialog)
    assert dialog.repeat.kind.currentData() == "custom"
    assert dialog.repeat.summary.text() in {"自定义重复", "Custom repeat"}
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: "all")
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("年度体检"))
    area.open_editor(event, None, None)
    master = EditService(cal_store, profile).component(uid)
    assert master is not None and str(master["SUMMARY"]) == "年度体检"
    assert [value.dt.date() for value in master["RDATE"].dts] == [date(2026, 12, 17), date(2027, 1, 7)]
