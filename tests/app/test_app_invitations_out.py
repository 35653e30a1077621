"""Invitations out from the window (issue 31 item 3, app/calendar/invitations_out.py).

On a synced calendar (a server that may schedule) a drag, a delete, a paste and an import
of the user's meetings ask first with the editor's question, listing who; Cancel changes
nothing, Don't send saves quietly, Send records the go-ahead. Elsewhere the app offers the
REQUEST / CANCEL / REPLY file for the mail client, in the last folder used. The questions
are answered by stand-ins (``ask_to_send``, ``ask_to_save``, the save dialog): a real modal
would wait for a click.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import icalendar
import pytest

from agent.ics.itip import Flow, read_file, stored_reply
from agent.services.invitations import SEND_KEY
from agent.services.settings import SettingsService
from agent.store.fields import Person, read
from app.calendar import invitation_bar, invitations_out
from app.io import file_dialogs
from tests.app.test_app_invitations import DATA, GOOGLE_UID, THURSDAY, click_event, mark_synced, stored_master
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY

PEOPLE = (Person("bob@example.com", "Bob Li", "NEEDS-ACTION"), Person("carol@example.com", "", "NEEDS-ACTION"))


class Answers:
    """Stand-ins for the questions: what was asked, and the answers to give in turn."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, send: list[bool | None] | None = None) -> None:
        self.asked: list[list[str]] = []
        self.offered: list[tuple[str, list[str]]] = []
        self.suggested: list[str] = []
        self.send = list(send or [])
        self.target = tmp_path / "out"
        self.target.mkdir()

        def ask(parent, people):  # type: ignore[no-untyped-def]
            self.asked.append([str(person) for person in people])
            return self.send.pop(0)

        def offer(parent, method, people):  # type: ignore[no-untyped-def]
            self.offered.append((method, [str(person) for person in people]))
            return True

        def save_as(parent, title, suggested, name_filter):  # type: ignore[no-untyped-def]
            self.suggested.append(suggested)
            return str(self.target / Path(suggested).name)

        monkeypatch.setattr(invitation_bar, "ask_to_send", ask)
        monkeypatch.setattr(invitations_out, "ask_to_save", offer)
        monkeypatch.setattr(file_dialogs, "save_file_name", save_as)

    def written(self) -> icalendar.Calendar:
        (path,) = sorted(self.target.iterdir())
        text = path.read_bytes().decode("utf-8")
        path.unlink()
        return icalendar.Calendar.from_ical(text)


def _mine(store, profile) -> None:  # type: ignore[no-untyped-def]
    SettingsService(store, profile).set("my_addresses", ["me@example.com"])


def _event(area, uid: str, day=MONDAY):  # type: ignore[no-untyped-def]
    area.refresh()
    return next(e for e in area.source.events(day, day + timedelta(days=1)) if e.occ.uid == uid)


def _meeting(store, profile, synced: bool) -> str:  # type: ignore[no-untyped-def]
    _mine(store, profile)
    uid = seed(store, profile, "Planning", at(MONDAY, 15), at(MONDAY, 16), attendees=PEOPLE)
    if synced:
        calendar_id = store.conn.execute("SELECT calendar_id FROM events WHERE uid = ?", (uid,)).fetchone()[0]
        mark_synced(store, calendar_id)
    return uid


def _local(hour: int):  # type: ignore[no-untyped-def]
    """A view's time: local wall clock, as a drag gives it."""
    return at(MONDAY, hour).replace(tzinfo=None)


def _start(store, uid: str) -> object:  # type: ignore[no-untyped-def]
    return stored_master(store, uid).decoded("DTSTART")


def test_a_drag_of_a_meeting_on_a_synced_calendar_asks_once_who(area, cal_store, profile, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    uid = _meeting(cal_store, profile, synced=True)
    answers = Answers(monkeypatch, tmp_path, send=[None, False, True])
    settings = SettingsService(cal_store, profile)
    settings.set(SEND_KEY, [uid])  # said Send when it was made

    # Cancel: nothing was done, so there is nothing to undo.
    assert not area._move_requested(_event(area, uid), _local(17), _local(18))
    assert _start(cal_store, uid) == at(MONDAY, 15)
    assert answers.asked == [["Bob Li <bob@example.com>", "carol@example.com"]]
    assert settings.get(SEND_KEY) == [uid]
    # Don't send: moved, and the upload is quiet again (the earlier go-ahead taken back).
    assert area._move_requested(_event(area, uid), _local(17), _local(18))
    assert _start(cal_store, uid) == at(MONDAY, 17) and settings.get(SEND_KEY) == []
    # Send: moved, with the go-ahead.
    assert area._move_requested(_event(area, uid), _local(11), _local(12))
    assert _start(cal_store, uid) == at(MONDAY, 11) and settings.get(SEND_KEY) == [uid]
    assert len(answers.asked) == 3 and answers.offered == []  # the server tells them: no file offered


def test_a_delete_on_a_synced_calendar_asks_and_cancel_keeps_the_event(area, cal_store, profile, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    uid = _meeting(cal_store, profile, synced=True)
    answers = Answers(monkeypatch, tmp_path, send=[None, False])
    assert not area._delete_requested(_event(area, uid))
    assert stored_master(cal_store, uid) is not None
    assert area._delete_requested(_event(area, uid))
    assert cal_store.conn.execute("SELECT count(*) FROM events WHERE uid = ?", (uid,)).fetchone()[0] == 0
    assert len(answers.asked) == 2


def test_an_event_without_people_or_someone_elses_invitation_is_not_asked(
    area, cal_store, profile, monkeypatch, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    _mine(cal_store, profile)
    lunch = seed(cal_store, profile, "Lunch", at(MONDAY, 12), at(MONDAY, 13))
    Flow(cal_store, profile).apply(read_file(DATA / "google_request_en.ics"))
    calendar_id = cal_store.conn.execute("SELECT calendar_id FROM events WHERE uid = ?", (lunch,)).fetchone()[0]
    mark_synced(cal_store, calendar_id)
    answers = Answers(monkeypatch, tmp_path)
    assert area._move_requested(_event(area, lunch), _local(13), _local(14))
    invitation = _event(area, GOOGLE_UID, THURSDAY)
    assert area._move_requested(invitation, invitation.start + timedelta(hours=1), invitation.end + timedelta(hours=1))
    assert answers.asked == [] and answers.offered == []


def test_a_paste_of_a_meeting_on_a_synced_calendar_asks_first(area, cal_store, profile, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    uid = _meeting(cal_store, profile, synced=True)
    answers = Answers(monkeypatch, tmp_path, send=[None, True])
    area.refresh()
    area.current_view().select_uid(uid, at(MONDAY, 15).replace(tzinfo=None))
    assert area.copy_event()
    area.anchor = MONDAY + timedelta(days=1)
    assert not area.paste_event()  # Cancel: no copy made
    assert cal_store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    assert area.paste_event()
    (copy,) = [row[0] for row in cal_store.conn.execute("SELECT uid FROM events WHERE uid != ?", (uid,))]
    assert [p.email for p in read(stored_master(cal_store, copy), "attendees")] == ["bob@example.com", "carol@example.com"]
    assert copy in SettingsService(cal_store, profile).get(SEND_KEY)
    assert answers.asked == [["Bob Li <bob@example.com>", "carol@example.com"]] * 2


def test_a_move_and_a_delete_on_a_local_calendar_offer_the_files(area, cal_store, profile, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    uid = _meeting(cal_store, profile, synced=False)
    answers = Answers(monkeypatch, tmp_path)
    area.ctx.settings.set("last_folder", str(tmp_path))  # Export's last folder
    assert area._move_requested(_event(area, uid), _local(17), _local(18))
    assert answers.offered == [("REQUEST", ["Bob Li <bob@example.com>", "carol@example.com"])]
    assert answers.suggested[0].startswith(str(tmp_path))
    request = answers.written()
    (event,) = request.walk("VEVENT")
    assert str(request["METHOD"]) == "REQUEST" and event.decoded("DTSTART") == at(MONDAY, 17) and int(event["SEQUENCE"]) == 1
    assert area._delete_requested(_event(area, uid))
    cancel = answers.written()
    (event,) = cancel.walk("VEVENT")
    assert str(cancel["METHOD"]) == "CANCEL" and int(event["SEQUENCE"]) == 2 and str(event["UID"]) == uid
    assert answers.asked == []  # no server: nothing to ask before


def test_accepting_on_a_local_calendar_offers_the_reply(area, cal_store, profile, monkeypatch, tmp_path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    _mine(cal_store, profile)
    Flow(cal_store, profile).apply(read_file(DATA / "google_request_en.ics"))
    answers = Answers(monkeypatch, tmp_path)
    area.ctx.settings.set("last_folder", str(tmp_path))
    area.refresh()
    card = click_event(area, qtbot, GOOGLE_UID, THURSDAY)
    qtbot.mouseClick(card.invitation.buttons["ACCEPTED"], Qt.MouseButton.LeftButton)
    assert answers.offered == [("REPLY", ["Alice Chen <alice@gmail.example>"])]
    assert answers.suggested[0].startswith(str(tmp_path))
    (path,) = answers.target.iterdir()
    text = path.read_bytes().decode("utf-8")
    assert text == stored_reply(cal_store, profile, GOOGLE_UID, "", "me@example.com", area.ctx.now())  # the CLI's builder
    (event,) = icalendar.Calendar.from_ical(text).walk("VEVENT")
    assert str(event["ATTENDEE"]) == "mailto:me@example.com" and event["ATTENDEE"].params["PARTSTAT"] == "ACCEPTED"


def test_accepting_on_a_synced_calendar_lets_the_server_send_the_answer(
    area, cal_store, profile, monkeypatch, tmp_path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    _mine(cal_store, profile)
    Flow(cal_store, profile).apply(read_file(DATA / "google_request_en.ics"))
    calendar_id = cal_store.conn.execute("SELECT calendar_id FROM events WHERE uid = ?", (GOOGLE_UID,)).fetchone()[0]
    mark_synced(cal_store, calendar_id)
    answers = Answers(monkeypatch, tmp_path)
    area.refresh()
    card = click_event(area, qtbot, GOOGLE_UID, THURSDAY)
    qtbot.mouseClick(card.invitation.buttons["DECLINED"], Qt.MouseButton.LeftButton)
    assert answers.offered == [] and SettingsService(cal_store, profile).get(SEND_KEY) == [GOOGLE_UID]
    assert int(stored_master(cal_store, GOOGLE_UID)["SEQUENCE"]) == 0


def test_the_event_menu_saves_the_invitation_again_on_a_local_calendar(area, cal_store, profile, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """ "Not now" loses nothing: the menu of the user's meeting saves its invitation any time."""
    uid = _meeting(cal_store, profile, synced=False)
    lunch = seed(cal_store, profile, "Lunch", at(MONDAY, 12), at(MONDAY, 13))
    answers = Answers(monkeypatch, tmp_path)
    menus: list[object] = []

    def choose(menu, _pos):  # type: ignore[no-untyped-def]
        menus.append(menu)
        return menu.invite_action if menu.invite_action in menu.actions() else None

    area.exec_menu = choose
    assert area.event_menu(_event(area, lunch), area.mapToGlobal(area.rect().center())) is None  # no people: not offered
    assert area.event_menu(_event(area, uid), area.mapToGlobal(area.rect().center())) == "invite"
    assert answers.offered == []  # asked for: straight to the save dialog
    assert str(answers.written()["METHOD"]) == "REQUEST"
