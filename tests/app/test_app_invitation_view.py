"""An invitation file opened in the window opens the invitation view, not a plain import
(issue 32 "Opening .ics files", issue 31 item 2; app/calendar/invitation_view.py), and an
import whose events invite people into a synced calendar asks first (issue 31 item 3).

Every way a file arrives (File → Import, a drop, ``richeng FILE.ics`` handed over by
app/single_instance.py, the command line) goes through ``import_with_choice``; the tests
call it with the file, as those do. Screenshots go to /work/shots/inviteapp-*.png when that
folder exists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from agent.services.invitations import SEND_KEY
from agent.services.settings import SettingsService
from agent.store.fields import read
from app.calendar import invitation_bar, invitations_out
from app.calendar.invitation_view import InvitationView
from app.io import file_dialogs, import_export
from tests.app.test_app_invitations import DATA, GOOGLE_UID, mark_synced, stored_master

SHOTS = Path(os.environ.get("RICHENG_SHOTS", "/work/shots"))


@pytest.fixture(autouse=True)
def _no_view_left() -> None:
    """A view another test opened without a parent (kept until closed) is closed first."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, InvitationView):
            widget.close()


@pytest.fixture
def no_plain_import(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The calendar question of a plain import: recorded, and cancelled."""
    asked: list[list[str]] = []
    monkeypatch.setattr(import_export, "ask_calendar", lambda parent, ctx, paths: asked.append(list(paths)))
    return asked


def _view() -> InvitationView:
    (view,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, InvitationView) and w.isVisible()]
    return view


def test_a_request_opens_the_invitation_view_and_accept_offers_the_reply(
    app_ctx, qtbot, monkeypatch, tmp_path, no_plain_import
) -> None:  # type: ignore[no-untyped-def]
    SettingsService(app_ctx.store, app_ctx.profile_id).set("my_addresses", ["me@example.com"])
    offered: list[str] = []
    monkeypatch.setattr(invitations_out, "ask_to_save", lambda parent, method, people: offered.append(method) or True)
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda parent, title, suggested, f: str(tmp_path / "reply.ics"))
    assert import_export.import_with_choice(None, app_ctx, [str(DATA / "google_request_en.ics")]) is None
    assert no_plain_import == []  # not a plain import: no calendar asked
    view = _view()
    qtbot.addWidget(view)
    assert view.title.text() == "Design review" and view.when.text() == "2026-12-03 10:00 – 11:00"
    assert not view.invitation.isHidden() and "Alice Chen" in view.invitation.label.text()
    assert "Bob Li <bob@example.com>" in view.people.text()
    me = next(p for p in read(stored_master(app_ctx.store, GOOGLE_UID), "attendees") if p.email == "me@example.com")
    assert me.partstat == "NEEDS-ACTION"  # stored, tentative until answered
    if SHOTS.is_dir():
        view.grab().save(str(SHOTS / "inviteapp-view-offscreen.png"))
    qtbot.mouseClick(view.invitation.buttons["ACCEPTED"], Qt.MouseButton.LeftButton)
    me = next(p for p in read(stored_master(app_ctx.store, GOOGLE_UID), "attendees") if p.email == "me@example.com")
    assert me.partstat == "ACCEPTED" and view.invitation.buttons["ACCEPTED"].isChecked()
    assert offered == ["REPLY"] and b"METHOD:REPLY" in (tmp_path / "reply.ics").read_bytes()
    app_ctx.ops.undo()  # the answer is one undo step
    me = next(p for p in read(stored_master(app_ctx.store, GOOGLE_UID), "attendees") if p.email == "me@example.com")
    assert me.partstat == "NEEDS-ACTION"


def test_without_a_known_address_the_view_asks_who_answers(app_ctx, qtbot, monkeypatch, no_plain_import) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(invitations_out, "ask_to_save", lambda parent, method, people: False)
    import_export.import_with_choice(None, app_ctx, [str(DATA / "google_request_en.ics")])
    view = _view()
    qtbot.addWidget(view)
    assert not view.as_box.isHidden()
    assert [view.as_box.itemText(i) for i in range(view.as_box.count())] == ["me@example.com", "Bob Li <bob@example.com>"]
    view.answer("TENTATIVE")
    assert SettingsService(app_ctx.store, app_ctx.profile_id).get("my_addresses") == ["me@example.com"]
    assert view.as_box.isHidden() and view.invitation.buttons["TENTATIVE"].isChecked()


def test_a_cancel_and_a_reply_show_what_they_changed(app_ctx, qtbot, monkeypatch, no_plain_import) -> None:  # type: ignore[no-untyped-def]
    SettingsService(app_ctx.store, app_ctx.profile_id).set("my_addresses", ["me@example.com"])
    import_export.import_with_choice(None, app_ctx, [str(DATA / "google_request_en.ics")])
    _view().close()
    import_export.import_with_choice(None, app_ctx, [str(DATA / "google_cancel_en.ics")])
    view = _view()
    qtbot.addWidget(view)
    assert str(stored_master(app_ctx.store, GOOGLE_UID)["STATUS"]) == "CANCELLED"
    assert view.invitation.isHidden() and view.show_button.isHidden()
    assert view.status.text() in (
        "The organizer cancelled it: taken out of your calendar (Ctrl+Z puts it back).",
        "组织者取消了它：已从你的日历中移除（Ctrl+Z 可恢复）。",
    )
    view.close()
    app_ctx.ops.undo()
    assert str(stored_master(app_ctx.store, GOOGLE_UID)["STATUS"]) == "CONFIRMED"
    import_export.import_with_choice(None, app_ctx, [str(DATA / "own_event_en.ics")])  # plain: the calendar question
    assert no_plain_import == [[str(DATA / "own_event_en.ics")]]


def test_an_import_with_attendees_into_a_synced_calendar_asks_first(app_ctx, qtbot, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    SettingsService(app_ctx.store, app_ctx.profile_id).set("my_addresses", ["me@example.com"])
    default = app_ctx.ops.calendars.default()
    mark_synced(app_ctx.store, default.id)
    asked: list[list[str]] = []
    answers = [None, False, True]
    started: list[list[str]] = []
    monkeypatch.setattr(import_export, "ask_calendar", lambda parent, ctx, paths: default.name)
    monkeypatch.setattr(import_export, "import_paths", lambda parent, ctx, paths, name: started.append(paths))

    def ask(parent, people):  # type: ignore[no-untyped-def]
        asked.append([str(person) for person in people])
        return answers.pop(0)

    monkeypatch.setattr(invitation_bar, "ask_to_send", ask)
    own = str(DATA / "own_event_en.ics")
    assert import_export.import_with_choice(None, app_ctx, [own]) is None and started == []  # Cancel: nothing imported
    assert asked == [["Bob Li <bob@example.com>", "王芳 <wangfang@example.cn>"]]
    import_export.import_with_choice(None, app_ctx, [own])  # Don't send: imported, quiet
    assert started == [[own]] and SettingsService(app_ctx.store, app_ctx.profile_id).get(SEND_KEY) == []
    import_export.import_with_choice(None, app_ctx, [own])  # Send: the go-ahead for its events
    assert SettingsService(app_ctx.store, app_ctx.profile_id).get(SEND_KEY) == ["design-review-own@richeng"]
    plain = tmp_path / "plain.ics"
    plain.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261201T010000Z\r\nSUMMARY:Alone\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    import_export.import_with_choice(None, app_ctx, [str(plain)])
    assert len(asked) == 3  # no attendees: nothing to ask


def test_an_invitation_without_a_uid_is_refused_in_one_line(app_ctx, qtbot, no_plain_import) -> None:  # type: ignore[no-untyped-def]
    said: list[str] = []
    app_ctx.ops.failed.connect(said.append)
    assert import_export.import_with_choice(None, app_ctx, [str(DATA / "request_no_uid_en.ics")]) is None
    assert [w for w in QApplication.topLevelWidgets() if isinstance(w, InvitationView) and w.isVisible()] == []
    assert len(said) == 1 and "UID" in said[0] and "\n" not in said[0]
    assert app_ctx.store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0
    assert no_plain_import == []
