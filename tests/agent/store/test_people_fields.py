"""The field table's people rows (issue 31, item 1): ORGANIZER and ATTENDEE read as
``Person`` values with their parameters, written back without losing any, listed as the
contract's objects; and what the user's own answer makes of an event (busy, status)."""

from __future__ import annotations

from datetime import datetime, timedelta

import icalendar

from agent.services.invitations import answer, my_addresses, states
from agent.services.queries import QueryService
from agent.services.settings import SettingsService
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import BY_NAME, LISTED, Person, listed, read, read_text, write
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI, ctx_at

EVENT = (
    "BEGIN:VEVENT\r\nUID:people@test\r\nDTSTAMP:20261101T000000Z\r\n"
    "DTSTART:20261201T010000Z\r\nDTEND:20261201T020000Z\r\nSUMMARY:Review\r\n"
    'ORGANIZER;CN="Chen, Alice";SENT-BY="mailto:pa@example.com":mailto:alice@example.com\r\n'
    "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=OPT-PARTICIPANT;PARTSTAT=TENTATIVE;RSVP=TRUE;CN=李四;X-NUM-GUESTS=0:MAILTO:lisi@example.cn\r\n"
    "ATTENDEE:mailto:bob@example.com\r\n"
    "ATTENDEE;PARTSTAT=ACCEPTED:mailto:BOB@example.com\r\n"
    "END:VEVENT\r\n"
)


def test_people_rows_are_in_the_table_and_listed() -> None:
    assert (BY_NAME["organizer"].prop, BY_NAME["organizer"].multiple, BY_NAME["organizer"].kind) == ("ORGANIZER", False, "people")
    assert (BY_NAME["attendees"].prop, BY_NAME["attendees"].multiple, BY_NAME["attendees"].column) == ("ATTENDEE", True, None)
    assert BY_NAME["organizer"] in LISTED and BY_NAME["attendees"] in LISTED


def test_people_are_read_with_their_parameters_and_defaults() -> None:
    values = read_text(EVENT, ["organizer", "attendees"])
    organizer = values["organizer"]
    assert isinstance(organizer, Person) and organizer.to_json() == {"email": "alice@example.com", "name": "Chen, Alice"}
    lisi, bob = values["attendees"]  # the second Bob (other case) is the same person: the first kept
    assert lisi.to_json() == {"email": "lisi@example.cn", "name": "李四", "partstat": "TENTATIVE", "role": "OPT-PARTICIPANT"}
    assert bob.to_json() == {"email": "bob@example.com", "name": "", "partstat": "NEEDS-ACTION", "role": "REQ-PARTICIPANT"}
    assert str(lisi) == "李四 <lisi@example.cn>" and str(bob) == "bob@example.com"


def test_writing_people_back_keeps_every_parameter() -> None:
    component = icalendar.Event.from_ical(EVENT)
    people = read(component, "attendees")
    write(component, "attendees", [people[0], Person("new@example.com", "New")])
    write(component, "organizer", read(component, "organizer"))
    again = icalendar.Event.from_ical(component.to_ical())
    lisi, new = read(again, "attendees")
    assert lisi == people[0] and dict(lisi.extra) == {"CUTYPE": "INDIVIDUAL", "RSVP": "TRUE", "X-NUM-GUESTS": "0"}
    assert new.to_json()["partstat"] == "NEEDS-ACTION"
    organizer = again["ORGANIZER"]
    assert organizer.params["SENT-BY"] == "mailto:pa@example.com" and "PARTSTAT" not in organizer.params
    write(component, "attendees", ())
    assert component.get("ATTENDEE") is None


def _store(tmp_path) -> tuple[Store, int]:  # type: ignore[no-untyped-def]
    store = Store(tmp_path / "db.sqlite3")
    return store, ensure_profile(store, "default")


def test_a_declined_invitation_takes_no_busy_time_and_a_free_slot_opens(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store, profile = _store(tmp_path)
    calendar_id = store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile,)).fetchone()[0]
    start = datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)
    event = icalendar.Event()
    event.add("UID", "inv@test")
    event.add("SUMMARY", "Invited")
    event.add("DTSTART", start)
    event.add("DTEND", start + timedelta(hours=8))
    write(event, "organizer", Person("boss@example.com", "", "", ""))
    write(event, "attendees", [Person("me@example.com")])
    with store.transaction():
        EventRepo(store, profile).save(event, calendar_id, "import")
    SettingsService(store, profile).set("my_addresses", ["Me@Example.com"])
    assert my_addresses(store, profile) == ("Me@Example.com",)
    queries = QueryService(store, profile, ctx_at(NOW))
    day = (start.replace(hour=0), start.replace(hour=23))
    (occ,) = queries.between(*day)
    assert states(store, profile, [occ])[occ.event_id] == {"status": "tentative", "busy": True}
    assert queries.busy(*day) == [occ]
    answer(store, profile, "inv@test", "", "me@example.com", "DECLINED")
    (occ,) = queries.between(*day)  # kept, shown
    assert states(store, profile, [occ])[occ.event_id] == {"status": "confirmed", "busy": False}
    assert queries.busy(*day) == []
    assert listed(store.conn, [occ.event_id])[occ.event_id]["attendees"][0]["partstat"] == "DECLINED"
