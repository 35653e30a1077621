"""Nothing emails anyone silently (issue 31, item 3): an upload of an event with attendees
carries SCHEDULE-AGENT=CLIENT on its ORGANIZER and ATTENDEE unless the user chose to send
for that event, so a scheduling server (RFC 6638 7.1) mails no one. Radicale does not
schedule; what matters is the body every server is handed, read back here from the server.
The copy that comes back with the parameter is the same event: no change, no conflict."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from agent.ics.importer import import_file
from agent.services.editing import EventDraft
from agent.services.invitations import SEND_KEY
from agent.services.settings import SettingsService
from agent.store.fields import Person
from agent.sync.scheduling import quiet
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import SHANGHAI

DATA = Path(__file__).parents[2] / "data" / "itip"
GOOGLE_UID = "4s2f8k1ab3c9d0e7f6g5h4i3j2@google.com"


@pytest.fixture
def device(server: CalDavServer) -> Iterator[Device]:
    url = server.new_calendar("Work")
    one = Device(server, url)
    yield one
    one.close()


def _server_texts(server: CalDavServer, url: str) -> dict[str, str]:
    calendar = server.client().calendar(url=url)  # type: ignore[attr-defined]
    texts = [str(event.data) for event in calendar.events()]
    return {next(line[4:] for line in text.splitlines() if line.startswith("UID:")): text for text in texts}


def _people_lines(text: str) -> list[str]:
    unfolded = text.replace("\r\n ", "").replace("\n ", "")
    return [line for line in unfolded.splitlines() if line.upper().startswith(("ATTENDEE", "ORGANIZER"))]


def test_uploads_with_attendees_schedule_no_one_without_the_go_ahead(server: CalDavServer, device: Device) -> None:
    import_file(device.store, device.profile_id, DATA / "google_request_en.ics", "Work")  # an invitation, imported
    start = datetime(2026, 12, 4, 15, tzinfo=SHANGHAI)
    own = EventDraft("Design review", start, start.replace(hour=16), device.calendar_id,
                     attendees=(Person("bob@example.com", "Bob Li"), Person("王芳@example.cn")))  # fmt: skip
    device.edit.create(own)
    lone = device.add("Dentist", start.replace(hour=9), start.replace(hour=10))
    assert device.sync().pushed == 3  # type: ignore[attr-defined]
    texts = _server_texts(server, device.mapping.remote_url)
    own_uid = next(uid for uid in texts if uid not in (GOOGLE_UID, lone))
    for uid in (GOOGLE_UID, own_uid):
        people = _people_lines(texts[uid])
        assert people and all(";SCHEDULE-AGENT=CLIENT" in line.upper() for line in people), people
    assert "SCHEDULE-AGENT" not in texts[lone]

    # The copies that came back are the same events: the next run pulls and pushes nothing.
    report = device.sync()
    assert (report.pulled, report.pushed, report.conflicts) == (0, 0, 0)  # type: ignore[attr-defined]

    # The user chose to send for their own event: its next upload lets the server schedule.
    SettingsService(device.store, device.profile_id).set(SEND_KEY, [own_uid])
    (occ,) = [o for o in device.edit.repo.occurrences(start.replace(hour=0), start.replace(hour=23), SHANGHAI)
              if o.uid == own_uid]  # fmt: skip
    device.edit.move(occ, occ.start.replace(hour=17), occ.end.replace(hour=18))  # type: ignore[union-attr]
    assert device.sync().pushed == 1  # type: ignore[attr-defined]
    people = _people_lines(_server_texts(server, device.mapping.remote_url)[own_uid])
    assert people and not any("SCHEDULE-AGENT" in line.upper() for line in people)


def test_quiet_marks_each_person_once_and_keeps_folded_lines() -> None:
    body = (
        b"BEGIN:VEVENT\r\nUID:x\r\nORGANIZER;CN=A:mailto:a@example.com\r\n"
        b"ATTENDEE;CN=Long Name;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mailto:someone@exa\r\n mple.com\r\n"
        b"ATTENDEE;PARTSTAT=ACCEPTED;\r\n SCHEDULE-AGENT=SERVER:mailto:b@example.com\r\nEND:VEVENT\r\n"
    )
    out = quiet(body, send=False)
    assert out.count(b"SCHEDULE-AGENT=CLIENT") == 2 and b"SCHEDULE-AGENT=SERVER" in out
    assert b"ORGANIZER;SCHEDULE-AGENT=CLIENT;CN=A:" in out and b"someone@exa\r\n mple.com" in out
    assert quiet(body, send=True) == body and quiet(b"BEGIN:VEVENT\r\nEND:VEVENT\r\n", send=False).count(b"SCHEDULE") == 0
