"""The event's link (ICS ``URL``) in the app, declared only in the field table (issue 28
item 1): the editor's row, the card's clickable line, no words in the agenda, a duplicate
keeps it; and every field the table shows has its texts in the Chinese catalogue."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QDesktopServices

from agent.store.components import parse_component
from agent.store.fields import SHOWN, read
from app.calendar.agenda_view import AgendaRow
from app.calendar.event_popover import link_html
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import accept_with, at, seed
from tests.support.clock import MONDAY

ZOOM = "https://zoom.us/j/812?pwd=a&b=<c>"


def stored_url(store, uid: str) -> str | None:  # type: ignore[no-untyped-def]
    (ics,) = store.conn.execute("SELECT ics FROM events WHERE uid = ? AND recurrence_id = ''", (uid,)).fetchone()
    value = read(parse_component(ics), "url")
    assert value is None or isinstance(value, str)
    return value


def events_on(area, day):  # type: ignore[no-untyped-def]
    return list(area.source.events(day, day + timedelta(days=1)))


def show_card(area, qtbot, uid: str):  # type: ignore[no-untyped-def]
    area.refresh()
    area.popover.delay_ms = 0
    view = area.current_view()
    item = next(i for i in view.visible_items() if isinstance(i, GridItem) and i.event.occ.uid == uid)
    center = item.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    qtbot.waitUntil(area.popover.card.isVisible)
    return area.popover.card


def test_a_link_typed_in_the_editor_is_saved_reopened_and_opens_from_the_card(
    area, cal_store, profile, qtbot, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Design review", at(MONDAY, 11), at(MONDAY, 12), location="Room 4", categories=("Work",))
    area.refresh()
    (event,) = events_on(area, MONDAY)
    area.exec_dialog = accept_with(lambda dialog: dialog.field_edits["url"].setText(f"  {ZOOM} "))
    assert area.open_editor(event, None, None)
    assert stored_url(cal_store, uid) == ZOOM

    shown: list[str] = []

    def retitle(dialog) -> None:  # type: ignore[no-untyped-def]
        shown.append(dialog.field_edits["url"].text())
        dialog.title.setText("Design review 2")

    area.exec_dialog = accept_with(retitle)
    area.refresh()
    (event,) = events_on(area, MONDAY)
    assert area.open_editor(event, None, None)
    assert shown == [ZOOM] and stored_url(cal_store, uid) == ZOOM

    # The card: a link line, escaped, whose click opens the address and puts the card away.
    card = show_card(area, qtbot, uid)
    line = card.fields["url"]
    assert not line.isHidden() and line.textFormat() == Qt.TextFormat.RichText
    assert line.text().endswith(link_html(ZOOM)) and "&lt;c&gt;" in line.text()
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    qtbot.mousePress(line, Qt.MouseButton.LeftButton)  # a press on the card keeps it
    assert card.isVisible()
    line.linkActivated.emit(ZOOM)
    assert [url.toString() for url in opened] == [QUrl(ZOOM).toString()] and not card.isVisible()

    # The agenda's line keeps the place and the tags, not the address.
    area.set_view("agenda")
    rows = [r for r in area.current_view().visible_items() if isinstance(r, AgendaRow) and r.event is not None]
    review = next(r for r in rows if r.event is not None and r.event.occ.uid == uid)
    assert review.details.startswith("Room 4 · Work") and "zoom" not in review.details

    # Clearing the field removes it.
    area.exec_dialog = accept_with(lambda dialog: dialog.field_edits["url"].setText(""))
    (event,) = events_on(area, MONDAY)
    assert area.open_editor(event, None, None)
    assert stored_url(cal_store, uid) is None


def test_an_address_that_is_no_web_or_mail_link_is_shown_as_words(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Old", at(MONDAY, 13), at(MONDAY, 14), url="javascript:alert(1)")
    line = show_card(area, qtbot, uid).fields["url"]
    assert "<a " not in line.text() and "javascript:alert(1)" in line.text()
    assert link_html("mailto:li@example.com").startswith('<a href="mailto:')
    assert link_html('https://x.example/"onmouseover="x') == (
        '<a href="https://x.example/&quot;onmouseover=&quot;x">https://x.example/&quot;onmouseover=&quot;x</a>'
    )


def test_an_event_without_a_link_shows_no_link_line_and_tags_stay_plain_words(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Lunch", at(MONDAY, 13), at(MONDAY, 14), categories=("<b>Bold</b>",))
    card = show_card(area, qtbot, uid)
    assert card.fields["url"].isHidden()
    assert card.fields["categories"].textFormat() == Qt.TextFormat.PlainText
    assert "<b>Bold</b>" in card.fields["categories"].text()


def test_a_duplicate_keeps_the_link(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Call", at(MONDAY, 11), at(MONDAY, 12), url=ZOOM)
    area.refresh()
    (event,) = events_on(area, MONDAY)
    assert area.duplicate(event)
    copies = [row[0] for row in cal_store.conn.execute("SELECT uid FROM events WHERE uid != ?", (uid,))]
    assert len(copies) == 1 and stored_url(cal_store, copies[0]) == ZOOM


def test_every_shown_field_has_its_texts_in_the_chinese_catalogue() -> None:
    root = Path(__file__).resolve().parents[2]
    catalogue = json.loads((root / "resources/translations/zh_CN.json").read_text(encoding="utf-8"))
    for _, show in SHOWN:
        assert show.label in catalogue["EventDialog"], show.label
        assert show.line in catalogue["EventCard"], show.line
        assert "{0}" in show.line and "{0}" in catalogue["EventCard"][show.line]
        assert not show.hint or show.hint in catalogue["EventDialog"], show.hint
    assert catalogue["EventDialog"]["Link"] == "链接" and catalogue["EventCard"]["Link: {0}"] == "链接：{0}"
