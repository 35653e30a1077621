"""Invitations in the app (issue 31): an invitation is drawn tentative until answered, its
card lists who is invited with each answer and offers Accept / Tentative / Decline; the
editor lists attendees and adds or removes them by address. Screenshots of both go to
/work/shots/invite-*.png when that folder exists (offscreen here; Xvfb by hand)."""

from __future__ import annotations

import json
import os
from datetime import date, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from agent.ics.itip import Flow, read_file
from agent.services.settings import SettingsService
from agent.store.components import parse_component
from agent.store.fields import read
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import accept_with, at, seed
from tests.support.clock import MONDAY

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "itip"
GOOGLE_UID = "4s2f8k1ab3c9d0e7f6g5h4i3j2@google.com"
THURSDAY = MONDAY + timedelta(days=3)
SHOTS = Path(os.environ.get("RICHENG_SHOTS", "/work/shots"))


def _shot(widget, name: str) -> None:  # type: ignore[no-untyped-def]
    if SHOTS.is_dir():
        widget.grab().save(str(SHOTS / f"invite-{name}.png"))


def stored_master(store, uid: str):  # type: ignore[no-untyped-def]
    (ics,) = store.conn.execute("SELECT ics FROM events WHERE uid = ? AND recurrence_id = ''", (uid,)).fetchone()
    return parse_component(ics)


def _invited(cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    SettingsService(cal_store, profile).set("my_addresses", ["me@example.com"])
    Flow(cal_store, profile).apply(read_file(DATA / "google_request_en.ics"))


def click_event(area, qtbot, uid: str, day: date):  # type: ignore[no-untyped-def]
    area.popover.delay_ms = 0
    view = area.current_view()
    item = next(i for i in view.visible_items() if isinstance(i, GridItem) and i.event.occ.uid == uid)
    center = item.rect.center()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=QPoint(int(center.x()), int(center.y())))
    card = area.popover.card
    qtbot.waitUntil(card.isVisible)
    return card


@pytest.fixture(autouse=True)
def offered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The "Save … for your mail client" offers made (a real one is modal), each declined."""
    from app.calendar import invitations_out

    made: list[str] = []
    monkeypatch.setattr(invitations_out, "ask_to_save", lambda parent, method, people: made.append(method) and False)
    return made


def test_an_invitation_is_tentative_until_accepted_in_its_card(area, cal_store, profile, qtbot, offered) -> None:  # type: ignore[no-untyped-def]
    _invited(cal_store, profile)
    area.refresh()
    (event,) = [e for e in area.source.events(THURSDAY, THURSDAY + timedelta(days=1)) if e.occ.uid == GOOGLE_UID]
    assert event.occ.status == "TENTATIVE"  # drawn see-through and dashed
    card = click_event(area, qtbot, GOOGLE_UID, THURSDAY)
    bar = card.invitation
    assert not bar.isHidden() and [b.text() for b in bar.buttons.values()] in (
        ["Accept", "Tentative", "Decline"],
        ["接受", "暂定", "拒绝"],
    )
    assert "Alice Chen" in bar.label.text() and not any(b.isChecked() for b in bar.buttons.values())
    lines = card.people.text().splitlines()
    assert lines[0].endswith("Alice Chen <alice@gmail.example>")
    assert lines[1:] == ["✓ Alice Chen <alice@gmail.example>", "… me@example.com", lines[3]]  # CN=address: once
    assert lines[3].startswith("… Bob Li <bob@example.com>")
    _shot(card, "card-offscreen")

    qtbot.mouseClick(bar.buttons["ACCEPTED"], Qt.MouseButton.LeftButton)
    me = next(p for p in read(stored_master(cal_store, GOOGLE_UID), "attendees") if p.email == "me@example.com")
    assert me.partstat == "ACCEPTED"
    assert stored_master(cal_store, GOOGLE_UID)["SEQUENCE"] == 0  # the organizer's, so the next update is newer
    area.refresh()
    (event,) = [e for e in area.source.events(THURSDAY, THURSDAY + timedelta(days=1)) if e.occ.uid == GOOGLE_UID]
    assert event.occ.status == "CONFIRMED"
    card = click_event(area, qtbot, GOOGLE_UID, THURSDAY)
    assert card.invitation.buttons["ACCEPTED"].isChecked()
    assert "✓ me@example.com" in card.people.text()
    assert offered == ["REPLY"]  # a local calendar: the reply is offered for the mail client


def test_an_event_without_attendees_shows_no_list_and_no_bar(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Lunch", at(MONDAY, 13), at(MONDAY, 14))
    area.refresh()
    card = click_event(area, qtbot, uid, MONDAY)
    assert card.people.isHidden() and card.invitation.isHidden()


def test_the_editor_adds_and_removes_attendees_and_keeps_their_answers(area, cal_store, profile, qtbot, offered) -> None:  # type: ignore[no-untyped-def]
    SettingsService(cal_store, profile).set("my_addresses", ["me@example.com"])
    Flow(cal_store, profile).apply(read_file(DATA / "thunderbird_reply_zh.ics"))  # no such event: nothing
    uid = seed(cal_store, profile, "Design review", at(MONDAY, 15), at(MONDAY, 16))
    area.refresh()
    (event,) = [e for e in area.source.events(MONDAY, MONDAY + timedelta(days=1)) if e.occ.uid == uid]

    def invite(dialog) -> None:  # type: ignore[no-untyped-def]
        editor = dialog.attendees
        assert editor.people() == ()
        editor.address.setText("bob@example.com")
        editor.name.setText("Bob Li")
        editor.add_typed()
        editor.address.setText("mailto:王芳@example.cn")
        editor.role.setCurrentIndex(editor.role.findData("OPT-PARTICIPANT"))
        editor.add_typed()
        assert not editor.add("bob@example.com") and not editor.add("not an address")
        editor.add("carol@example.com")
        editor.list.setCurrentRow(2)
        editor.remove_selected()

    area.exec_dialog = accept_with(invite)
    assert area.open_editor(event, None, None)
    stored = stored_master(cal_store, uid)
    people = read(stored, "attendees")
    assert [(p.email, p.name, p.role, p.partstat) for p in people] == [
        ("bob@example.com", "Bob Li", "REQ-PARTICIPANT", "NEEDS-ACTION"),
        ("王芳@example.cn", "", "OPT-PARTICIPANT", "NEEDS-ACTION"),
    ]
    assert read(stored, "organizer").email == "me@example.com"

    # Bob answers; reopening shows his answer, and a save keeps it.
    Flow(cal_store, profile).apply(read_file(DATA / "google_reply_en.ics"))  # another UID: nothing
    from agent.services.invitations import answer

    answer(cal_store, profile, uid, "", "bob@example.com", "ACCEPTED")
    shown: list[str] = []

    def look(dialog) -> None:  # type: ignore[no-untyped-def]
        shown.extend(dialog.attendees.list.item(i).text() for i in range(dialog.attendees.list.count()))
        _shot(dialog, "editor-offscreen")

    area.refresh()
    (event,) = [e for e in area.source.events(MONDAY, MONDAY + timedelta(days=1)) if e.occ.uid == uid]
    area.exec_dialog = accept_with(look)
    assert area.open_editor(event, None, None)
    assert shown == ["✓ Bob Li <bob@example.com>", "… 王芳@example.cn"]
    # A local calendar: the save that invited them offered the invitation file; the one that
    # changed nothing for them did not.
    assert offered == ["REQUEST"]
    assert [p.partstat for p in read(stored_master(cal_store, uid), "attendees")] == ["ACCEPTED", "NEEDS-ACTION"]


def test_the_invitation_strings_have_chinese_translations() -> None:
    catalogue = json.loads((ROOT / "resources/translations/zh_CN.json").read_text(encoding="utf-8"))
    assert catalogue["InvitationBar"]["Accept"] == "接受" and catalogue["InvitationBar"]["Decline"] == "拒绝"
    assert catalogue["EventDialog"]["Attendees"] == "参与者"
    assert catalogue["AttendeeList"]["Organizer: {0}"] == "组织者：{0}"


def test_settings_keep_the_users_addresses(app_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.settings.general_page import GeneralPage

    page = GeneralPage(app_ctx)
    qtbot.addWidget(page)
    page.addresses.setText("me@example.com， wo@example.cn")
    assert page.validate() is None
    assert "my_addresses" in page.save()
    assert app_ctx.settings.get("my_addresses") == ["me@example.com", "wo@example.cn"]
    page.addresses.setText("me@example.com, not-an-address")
    assert page.validate() is not None
    again = GeneralPage(app_ctx)
    qtbot.addWidget(again)
    assert again.addresses.text() == "me@example.com, wo@example.cn"


def test_an_invitation_imported_in_the_app_is_one_undo_step(app_ctx, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The app's import goes to the invitation flow too (a REPLY never retitles), and its
    changes are the import's undo step."""
    from tests.agent.ics.test_itip_flows import DATA as FIXTURES
    from tests.app.test_app_import_undo import run_import
    from tests.support.chat_fixtures import event_titles

    default = app_ctx.ops.calendars.default().name
    run_import(qtbot, app_ctx, monkeypatch, FIXTURES / "own_event_en.ics", lambda ctx, paths: default)
    run_import(qtbot, app_ctx, monkeypatch, FIXTURES / "google_reply_en.ics", lambda ctx, paths: default)
    assert event_titles(app_ctx.store) == ["Design review"]
    bob = next(
        p for p in read(stored_master(app_ctx.store, "design-review-own@richeng"), "attendees") if p.email == "bob@example.com"
    )
    assert bob.partstat == "ACCEPTED"
    app_ctx.ops.undo()
    bob = next(
        p for p in read(stored_master(app_ctx.store, "design-review-own@richeng"), "attendees") if p.email == "bob@example.com"
    )
    assert bob.partstat == "NEEDS-ACTION" and event_titles(app_ctx.store) == ["Design review"]
    from app.calendar.invitation_view import InvitationView

    for view in [w for w in QApplication.topLevelWidgets() if isinstance(w, InvitationView)]:
        view.close()  # the REPLY file opened the invitation view (no parent: kept until closed)


def mark_synced(store, calendar_id: int) -> None:  # type: ignore[no-untyped-def]
    with store.transaction() as conn:
        profile = conn.execute("SELECT profile_id FROM calendars WHERE id = ?", (calendar_id,)).fetchone()[0]
        conn.execute(
            "INSERT INTO sync_accounts(profile_id, name, url, username, created_at)"
            " VALUES (?, 'work', 'https://dav.example', 'me', '')",
            (profile,),
        )
        account = conn.execute("SELECT max(id) FROM sync_accounts").fetchone()[0]
        conn.execute(
            "INSERT INTO sync_calendars(account_id, remote_url, calendar_id, created_at)"
            " VALUES (?, 'https://dav.example/w/', ?, '')",
            (account, calendar_id),
        )


def test_saving_attendees_on_a_synced_calendar_asks_once_who_will_be_emailed(area, cal_store, profile, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agent.services.invitations import SEND_KEY
    from app.calendar import invitation_bar

    SettingsService(cal_store, profile).set("my_addresses", ["me@example.com"])
    uid = seed(cal_store, profile, "Planning", at(MONDAY, 15), at(MONDAY, 16))
    asked: list[list[str]] = []
    answers = [True]

    def ask(parent, people):  # type: ignore[no-untyped-def]
        asked.append([str(person) for person in people])
        return answers.pop(0)

    monkeypatch.setattr(invitation_bar, "ask_to_send", ask)

    def invite(dialog) -> None:  # type: ignore[no-untyped-def]
        dialog.attendees.add("bob@example.com", "Bob Li")
        dialog.attendees.add("carol@example.com")

    def event():  # type: ignore[no-untyped-def]
        area.refresh()
        return next(e for e in area.source.events(MONDAY, MONDAY + timedelta(days=1)) if e.occ.uid == uid)

    # Not synced: no server mails anyone, nothing to ask.
    area.exec_dialog = accept_with(invite)
    assert area.open_editor(event(), None, None) and asked == []
    calendar_id = cal_store.conn.execute("SELECT calendar_id FROM events WHERE uid = ?", (uid,)).fetchone()[0]
    mark_synced(cal_store, calendar_id)
    # Synced, a person added: asked once, listing who; yes lets this event's uploads schedule.
    area.exec_dialog = accept_with(lambda dialog: dialog.attendees.add("dan@example.com"))
    assert area.open_editor(event(), None, None)
    assert asked == [["Bob Li <bob@example.com>", "carol@example.com", "dan@example.com"]]
    assert SettingsService(cal_store, profile).get(SEND_KEY) == [uid]
    # Only the title changes: nobody is told anything new, nothing asked.
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("Planning (Q1)"))
    assert area.open_editor(event(), None, None) and len(asked) == 1


def test_the_send_question_lists_who(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from agent.store.fields import Person
    from app.calendar.invitation_bar import SendQuestion, ask_to_send

    seen: list[str] = []

    def answer_no() -> None:
        # Found by role, not by its words (the suite may run in either language), and looked
        # for again until shown: a missed box would wait for a click for ever.
        boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, SendQuestion) and w.isVisible()]
        if not boxes:
            QTimer.singleShot(20, answer_no)
            return
        box = boxes[0]
        seen.extend([box.text(), box.informativeText()])
        _shot(box, "send-question-offscreen")
        box.quiet.click()

    QTimer.singleShot(50, answer_no)
    people = (Person("bob@example.com", "Bob Li"), Person("王芳@example.cn"), Person("carol@example.com"))
    assert ask_to_send(None, people) is False
    assert "3" in seen[0] and seen[1].splitlines() == ["Bob Li <bob@example.com>", "王芳@example.cn", "carol@example.com"]


def test_enter_in_the_address_adds_the_person_and_does_not_save(cal_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Found by hand under Xvfb: Enter added the person and also pressed Save."""
    from app.calendar.event_dialog import EventDialog

    dialog = EventDialog(cal_ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.attendees.address.setFocus()
    qtbot.keyClicks(dialog.attendees.address, "bob@example.com")
    qtbot.keyClick(dialog.attendees.address, Qt.Key.Key_Return)
    assert [p.email for p in dialog.attendees.people()] == ["bob@example.com"]
    assert dialog.isVisible() and dialog.result() == 0


def test_cancel_on_the_send_question_keeps_the_editor_and_saves_nothing(area, cal_store, profile, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.calendar import invitation_bar

    SettingsService(cal_store, profile).set("my_addresses", ["me@example.com"])
    uid = seed(cal_store, profile, "Planning", at(MONDAY, 15), at(MONDAY, 16))
    calendar_id = cal_store.conn.execute("SELECT calendar_id FROM events WHERE uid = ?", (uid,)).fetchone()[0]
    mark_synced(cal_store, calendar_id)
    monkeypatch.setattr(invitation_bar, "ask_to_send", lambda parent, people: None)
    area.refresh()
    event = next(e for e in area.source.events(MONDAY, MONDAY + timedelta(days=1)) if e.occ.uid == uid)
    run = accept_with(lambda dialog: dialog.attendees.add("dan@example.com"))
    area.exec_dialog = run
    assert not area.open_editor(event, None, None)
    assert run.seen[0].result() == 0  # still open: the user goes on editing or closes it
    assert read(stored_master(cal_store, uid), "attendees") == ()
