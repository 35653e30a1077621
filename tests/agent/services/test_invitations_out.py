"""Invitations out (issue 31 item 3) and the organizer's SEQUENCE (RFC 5546), headless.

A local change of an event the user was invited to leaves SEQUENCE and DTSTAMP as the
organizer sent them (so the organizer's next update still reads as newer); the user's own
meetings still move SEQUENCE forward. The REQUEST, CANCEL and REPLY written for a mail
client are parsed back with icalendar. Real SQLite file, no Qt.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import icalendar
import pytest

from agent.ics.itip import Flow, InvitationError, outgoing, read_file, read_message, stored_reply
from agent.services.calendars import CalendarService
from agent.services.editing import EditService, EventDraft
from agent.services.invitations import SEND_KEY, answer, recipients, set_sending
from agent.services.settings import SettingsService
from agent.store.components import parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import Person
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI

DATA = Path(__file__).parents[2] / "data" / "itip"
GOOGLE_UID = "4s2f8k1ab3c9d0e7f6g5h4i3j2@google.com"
HOUR = timedelta(hours=1)
START = datetime(2026, 12, 4, 14, 0, tzinfo=SHANGHAI)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[EditService]:
    store = Store(tmp_path / "out.sqlite3")
    profile = ensure_profile(store)
    SettingsService(store, profile).set("my_addresses", ["me@example.com"])
    yield EditService(store, profile)
    store.close()


def _stored(service: EditService, uid: str, recurrence_id: str = "") -> icalendar.Event:
    row = EventRepo(service.store, service.profile_id).row(uid, recurrence_id)
    assert row is not None
    return parse_component(row["ics"])


def _occurrence(service: EditService, uid: str):  # type: ignore[no-untyped-def]
    start = START - timedelta(days=30)
    found = [
        o
        for o in EventRepo(service.store, service.profile_id).occurrences(start, start + timedelta(days=90), SHANGHAI)
        if o.uid == uid
    ]
    return found[0]


def _meeting(service: EditService, rrule: str | None = None) -> str:
    calendar = CalendarService(service.store, service.profile_id).default().id
    people = (Person("bob@example.com", "Bob Li", "NEEDS-ACTION"), Person("王芳@example.cn", "王芳", "NEEDS-ACTION"))
    draft = EventDraft("设计评审", START, START + HOUR, calendar, rrule=rrule, alarm_minutes=(10,), attendees=people)
    return service.create(draft).created[0].uid


def test_a_local_change_of_an_invitation_keeps_the_organizers_sequence(service: EditService) -> None:
    Flow(service.store, service.profile_id).apply(read_file(DATA / "google_request_en.ics"))
    before = _stored(service, GOOGLE_UID)
    occ = _occurrence(service, GOOGLE_UID)
    service.move(occ, occ.start + HOUR, occ.end + HOUR)
    after = _stored(service, GOOGLE_UID)
    assert int(after["SEQUENCE"]) == int(before["SEQUENCE"]) == 0
    assert after.decoded("DTSTAMP") == before.decoded("DTSTAMP")  # the organizer's, as received
    assert after.get("LAST-MODIFIED") is not None  # sync still sees a change
    # So the organizer's update with the same SEQUENCE and a later DTSTAMP is still an update.
    moved = (DATA / "google_request_en.ics").read_bytes().replace(b"DTSTAMP:20261130T010000Z", b"DTSTAMP:20261201T010000Z")
    assert Flow(service.store, service.profile_id).show(read_message(moved))["status"] == "update"


def test_the_users_own_meeting_still_moves_its_sequence(service: EditService) -> None:
    uid = _meeting(service)
    occ = _occurrence(service, uid)
    service.move(occ, occ.start + HOUR, occ.end + HOUR)
    assert int(_stored(service, uid)["SEQUENCE"]) == 1


def test_recipients_are_the_other_people_of_the_users_own_meeting(service: EditService) -> None:
    uid = _meeting(service)
    assert [p.email for p in recipients(service.store, service.profile_id, _stored(service, uid))] == [
        "bob@example.com",
        "王芳@example.cn",
    ]
    Flow(service.store, service.profile_id).apply(read_file(DATA / "google_request_en.ics"))
    assert recipients(service.store, service.profile_id, _stored(service, GOOGLE_UID)) == ()  # Alice's to tell


def test_the_request_for_a_mail_client_is_the_stored_meeting(service: EditService) -> None:
    uid = _meeting(service, rrule="FREQ=WEEKLY;COUNT=4")
    text = outgoing(service.store, service.profile_id, uid, "REQUEST", NOW)
    calendar = icalendar.Calendar.from_ical(text)
    assert str(calendar["METHOD"]) == "REQUEST"
    (event,) = calendar.walk("VEVENT")
    assert str(event["UID"]) == uid and str(event["SUMMARY"]) == "设计评审" and "RRULE" in event
    assert event.decoded("DTSTAMP") == NOW
    assert str(event["ORGANIZER"]) == "mailto:me@example.com"
    assert [str(a) for a in event["ATTENDEE"]] == ["mailto:bob@example.com", "mailto:王芳@example.cn"]
    assert not event.walk("VALARM")  # the organizer's reminder is the organizer's
    assert calendar.walk("VTIMEZONE")  # DTSTART;TZID=Asia/Shanghai travels with its zone
    # Read back as an invitation by the flow (what an attendee's Richeng would do).
    assert read_message(text.encode()).method == "REQUEST"


def test_the_cancel_bumps_sequence_and_names_one_occurrence(service: EditService) -> None:
    uid = _meeting(service, rrule="FREQ=WEEKLY;COUNT=4")
    whole = icalendar.Calendar.from_ical(outgoing(service.store, service.profile_id, uid, "CANCEL", NOW))
    assert str(whole["METHOD"]) == "CANCEL"
    (event,) = whole.walk("VEVENT")
    assert int(event["SEQUENCE"]) == 1 and str(event["STATUS"]) == "CANCELLED" and "RECURRENCE-ID" not in event
    assert len(event["ATTENDEE"]) == 2
    one = icalendar.Calendar.from_ical(outgoing(service.store, service.profile_id, uid, "CANCEL", NOW, "20261211T060000Z"))
    (event,) = one.walk("VEVENT")
    assert event.decoded("RECURRENCE-ID") == START + timedelta(days=7)
    assert event.decoded("DTSTART") == START + timedelta(days=7)


def test_no_request_for_someone_elses_invitation_or_an_event_without_people(service: EditService) -> None:
    Flow(service.store, service.profile_id).apply(read_file(DATA / "google_request_en.ics"))
    with pytest.raises(InvitationError, match="organised by Alice Chen"):
        outgoing(service.store, service.profile_id, GOOGLE_UID, "REQUEST", NOW)
    calendar = CalendarService(service.store, service.profile_id).default().id
    alone = service.create(EventDraft("Lunch", START, START + HOUR, calendar)).created[0].uid
    with pytest.raises(InvitationError, match="no attendees"):
        outgoing(service.store, service.profile_id, alone, "CANCEL", NOW)


def test_the_reply_of_an_answer_given_in_the_app_is_the_clis(service: EditService, tmp_path: Path) -> None:
    Flow(service.store, service.profile_id).apply(read_file(DATA / "google_request_en.ics"))
    answer(service.store, service.profile_id, GOOGLE_UID, "", "me@example.com", "TENTATIVE")
    text = stored_reply(service.store, service.profile_id, GOOGLE_UID, "", "me@example.com", NOW)
    cli_uid, cli_text = Flow(service.store, service.profile_id, now=NOW).respond(
        read_file(DATA / "google_request_en.ics"), "me@example.com", "TENTATIVE"
    )
    assert cli_uid == GOOGLE_UID and text == cli_text  # the same builder, the same file
    (event,) = icalendar.Calendar.from_ical(text).walk("VEVENT")
    assert str(event["ATTENDEE"]) == "mailto:me@example.com" and event["ATTENDEE"].params["PARTSTAT"] == "TENTATIVE"


def test_send_and_dont_send_grant_and_take_back_the_go_ahead(service: EditService) -> None:
    settings = SettingsService(service.store, service.profile_id)
    set_sending(service.store, service.profile_id, ["a", "b", "a"], True)
    assert settings.get(SEND_KEY) == ["a", "b"]
    set_sending(service.store, service.profile_id, ["a"], False)
    assert settings.get(SEND_KEY) == ["b"]
