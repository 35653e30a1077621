"""The editor's tags field, the event card and the agenda (issue 28, the categories proof):
tags typed in the real editor are saved as CATEGORIES, read back when it opens again, kept
per occurrence, and shown on the card and under the event in the agenda."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from agent.store.components import parse_component
from agent.store.fields import read
from app.calendar.agenda_view import AgendaRow
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import accept_with, at, seed
from tests.support.clock import MONDAY


def stored_tags(store, uid: str) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    (ics,) = store.conn.execute("SELECT ics FROM events WHERE uid = ? AND recurrence_id = ''", (uid,)).fetchone()
    value = read(parse_component(ics), "categories")
    assert isinstance(value, tuple)
    return value


def events_on(area, day):  # type: ignore[no-untyped-def]
    return list(area.source.events(day, day + timedelta(days=1)))


def test_tags_typed_in_the_editor_are_saved_reopened_and_shown(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Flight", at(MONDAY, 11), at(MONDAY, 12), location="T2")
    area.refresh()
    (event,) = events_on(area, MONDAY)

    # Edit: the field is there, empty; type two tags with a full-width comma; save.
    area.exec_dialog = accept_with(lambda dialog: dialog.field_edits["categories"].setText("Work， 出差 , Work"))
    assert area.open_editor(event, None, None)
    assert stored_tags(cal_store, uid) == ("Work", "出差")

    # Reopen: the editor shows them; another save without touching them keeps them.
    shown: list[str] = []

    def retitle(dialog) -> None:  # type: ignore[no-untyped-def]
        shown.append(dialog.field_edits["categories"].text())
        dialog.title.setText("Flight NH920")

    area.exec_dialog = accept_with(retitle)
    area.refresh()
    (event,) = events_on(area, MONDAY)
    assert area.open_editor(event, None, None)
    assert shown == ["Work, 出差"]
    assert stored_tags(cal_store, uid) == ("Work", "出差")

    # The card.
    area.refresh()
    area.popover.delay_ms = 0
    view = area.current_view()
    item = next(i for i in view.visible_items() if isinstance(i, GridItem) and i.event.occ.uid == uid)
    center = item.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    card = area.popover.card
    qtbot.waitUntil(card.isVisible)
    assert card.title.text() == "Flight NH920" and not card.fields["categories"].isHidden()
    assert card.fields["categories"].text() in {"标签：Work, 出差", "Tags: Work, 出差"}

    # The agenda, with the place: "T2 · Work, 出差 · …".
    area.set_view("agenda")
    rows = [r for r in area.current_view().visible_items() if isinstance(r, AgendaRow) and r.event is not None]
    flight = next(r for r in rows if r.event is not None and r.event.occ.uid == uid)
    assert flight.details.startswith("T2 · Work, 出差")

    # Clearing the field removes them.
    area.exec_dialog = accept_with(lambda dialog: dialog.field_edits["categories"].setText(" "))
    (event,) = events_on(area, MONDAY)
    assert area.open_editor(event, None, None)
    assert stored_tags(cal_store, uid) == ()


def test_an_untagged_event_shows_no_tags_line(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Lunch", at(MONDAY, 13), at(MONDAY, 14))
    area.refresh()
    area.popover.delay_ms = 0
    view = area.current_view()
    item = next(i for i in view.visible_items() if isinstance(i, GridItem) and i.event.occ.title == "Lunch")
    center = item.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    qtbot.waitUntil(area.popover.card.isVisible)
    assert area.popover.card.fields["categories"].isHidden()


def test_the_tags_strings_have_chinese_translations() -> None:
    root = Path(__file__).resolve().parents[2]
    catalogue = json.loads((root / "resources/translations/zh_CN.json").read_text(encoding="utf-8"))
    assert catalogue["EventDialog"]["Tags"] == "标签"
    assert catalogue["EventCard"]["Tags: {0}"] == "标签：{0}"
    assert "Comma-separated, e.g. Work, Travel" in catalogue["EventDialog"]


def test_the_agenda_shows_a_series_tags_and_an_override_its_own(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    from agent.services.editing import EditService, EventDraft

    uid = seed(cal_store, profile, "Standup", at(MONDAY, 9), at(MONDAY, 10), rrule="FREQ=DAILY;COUNT=3", categories=("Team",))
    area.refresh()
    second = next(e.occ for e in events_on(area, MONDAY + timedelta(days=1)) if e.occ.uid == uid)
    draft = EventDraft("Standup", second.start, second.end, second.calendar_id, categories=("Team", "Demo"))
    EditService(cal_store, profile).edit_one(second, draft)
    area.refresh()
    area.set_view("agenda")
    rows = [r for r in area.current_view().visible_items() if isinstance(r, AgendaRow) and r.event is not None]
    tags = [r.details.split(" · ")[0] for r in rows if r.event is not None and r.event.occ.uid == uid]
    assert tags == ["Team", "Team, Demo", "Team"]


def test_a_duplicate_keeps_the_tags(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Flight", at(MONDAY, 11), at(MONDAY, 12), categories=("Travel",))
    area.refresh()
    (event,) = events_on(area, MONDAY)
    assert area.duplicate(event)
    copies = [row[0] for row in cal_store.conn.execute("SELECT uid FROM events WHERE uid != ?", (uid,))]
    assert len(copies) == 1 and stored_tags(cal_store, copies[0]) == ("Travel",)
