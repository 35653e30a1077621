"""Read-only calendars (issue 29, issue 31 item 6): one rule, enforced where events are written.

A calendar is read-only when its server said so at the last sync (the settings row sync
keeps) or when it is a subscription. Every writer below the app and the chat is tried
here against both kinds: the editor's service (create, change, move, delete, move to
another calendar), undo, the chat's create round and edit request, the import. Each
refusal is the one catalogue line and writes nothing; a sync pull or a subscription
refresh (``EventRepo(feed=...)``) still writes its own calendar.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from agent.errors import UserFacingError
from agent.ics.importer import import_bytes
from agent.services.calendars import CalendarService
from agent.services.chat_edits import ChatEditService
from agent.services.command_types import WriteFacts
from agent.services.commands import CommandService
from agent.services.editing import EditService, EventDraft
from agent.store import journal
from agent.store.components import build_event
from agent.store.db import Store, utc_now_iso
from agent.store.events import EventRepo
from agent.store.occurrence import Occurrence
from agent.store.read_only import READ_ONLY_KEY, ReadOnlyCalendarError, ReadOnlyCalendars
from agent.timesym.context import TimeContext
from tests.support.clock import SHANGHAI

START = datetime(2026, 12, 2, 15, tzinfo=SHANGHAI)
KINDS = ["server", "subscription"]


def make_read_only(store: Store, profile_id: int, calendar_id: int, why: str) -> None:
    with store.transaction() as conn:
        if why == "server":  # synced with a calendar its server shares read-only
            account = conn.execute(
                "INSERT INTO sync_accounts(profile_id, name, url, username, created_at) VALUES (?, 'dav', ?, 'me', ?)",
                (profile_id, "https://dav.example.invalid/", utc_now_iso()),
            ).lastrowid
            conn.execute(
                "INSERT INTO sync_calendars(account_id, remote_url, calendar_id, created_at) VALUES (?, ?, ?, ?)",
                (account, "https://dav.example.invalid/shared/", calendar_id, utc_now_iso()),
            )
            conn.execute(
                "INSERT INTO settings(profile_id, key, value) VALUES (?, ?, ?)",
                (profile_id, READ_ONLY_KEY, json.dumps([calendar_id])),
            )
        else:
            conn.execute(
                "INSERT INTO subscriptions(profile_id, calendar_id, url, created_at) VALUES (?, ?, ?, ?)",
                (profile_id, calendar_id, "https://example.invalid/feed.ics", utc_now_iso()),
            )


def seeded(store: Store, profile_id: int, why: str) -> tuple[int, int]:
    """A writable default calendar and a read-only "Feed" holding one event (uid "held")."""
    calendars = CalendarService(store, profile_id)
    home = calendars.default().id
    feed = calendars.add("Feed").id
    with store.transaction():
        EventRepo(store, profile_id).save(build_event("Held", START, START + timedelta(hours=1), uid="held"), feed, "import")
    make_read_only(store, profile_id, feed, why)
    return home, feed


def snapshot(store: Store) -> list[tuple[object, ...]]:
    return [tuple(row) for row in store.conn.execute("SELECT uid, calendar_id, ics FROM events ORDER BY uid, recurrence_id")]


def held(store: Store, profile_id: int) -> Occurrence:
    return next(
        occ for occ in EventRepo(store, profile_id).occurrences(START - timedelta(days=1), START + timedelta(days=1), SHANGHAI)
    )


def draft(calendar_id: int, title: str = "Mine") -> EventDraft:
    return EventDraft(title, START, START + timedelta(hours=1), calendar_id)


@pytest.mark.parametrize("why", KINDS)
def test_the_notion_says_which_and_why(store: Store, profile_id: int, why: str) -> None:
    home, feed = seeded(store, profile_id, why)
    assert ReadOnlyCalendars(store, profile_id).kinds() == {feed: why}
    with pytest.raises(ReadOnlyCalendarError) as caught:
        ReadOnlyCalendars(store, profile_id).check(feed)
    assert caught.value.calendar_id == feed and caught.value.why == why
    assert "Feed" in str(caught.value) and "nothing was written" in str(caught.value)
    assert "只读" in caught.value.text("zh")
    ReadOnlyCalendars(store, profile_id).check(home)  # the other calendar stays writable


@pytest.mark.parametrize("why", KINDS)
def test_every_edit_service_write_into_or_out_of_it_is_refused(store: Store, profile_id: int, why: str) -> None:
    home, feed = seeded(store, profile_id, why)
    edits = EditService(store, profile_id)
    before = snapshot(store)
    attempts = [
        lambda: edits.create(draft(feed)),
        lambda: edits.replace("held", draft(feed, "Changed")),
        lambda: edits.replace("held", draft(home, "Moved out")),
        lambda: edits.set_completed("held", True),
        lambda: edits.move(held(store, profile_id), START + timedelta(hours=2), START + timedelta(hours=3)),
        lambda: edits.delete(held(store, profile_id)),
        lambda: edits.move_to_calendar("held", home),
    ]
    for attempt in attempts:
        with pytest.raises(ReadOnlyCalendarError):
            attempt()
        assert snapshot(store) == before
    edits.create(draft(home))  # the writable calendar is untouched by the rule
    assert len(snapshot(store)) == 2


@pytest.mark.parametrize("why", KINDS)
def test_moving_an_event_into_it_is_refused(store: Store, profile_id: int, why: str) -> None:
    home, feed = seeded(store, profile_id, why)
    edits = EditService(store, profile_id)
    edits.create(draft(home))
    uid = store.conn.execute("SELECT uid FROM events WHERE calendar_id = ?", (home,)).fetchone()[0]
    with pytest.raises(ReadOnlyCalendarError):
        edits.move_to_calendar(uid, feed)
    assert store.conn.execute("SELECT calendar_id FROM events WHERE uid = ?", (uid,)).fetchone()[0] == home


def test_undo_of_a_change_in_a_calendar_that_became_read_only_is_refused(store: Store, profile_id: int) -> None:
    calendars = CalendarService(store, profile_id)
    shared = calendars.add("Shared").id
    EditService(store, profile_id).create(draft(shared))
    before = snapshot(store)
    make_read_only(store, profile_id, shared, "server")  # the next sync found it read-only
    with pytest.raises(ReadOnlyCalendarError):
        journal.undo_last(store, profile_id)
    assert snapshot(store) == before


@pytest.mark.parametrize("why", KINDS)
def test_its_own_feed_still_writes_it_and_nothing_else(store: Store, profile_id: int, why: str) -> None:
    home, feed = seeded(store, profile_id, why)
    repo = EventRepo(store, profile_id, feed=feed)
    with store.transaction():
        repo.save(build_event("Held v2", START, START + timedelta(hours=1), uid="held"), feed, "import")
        repo.delete("held")
    other = EventRepo(store, profile_id, feed=home)  # a feed of another calendar gets no licence here
    with pytest.raises(ReadOnlyCalendarError), store.transaction():
        other.save(build_event("x", START, START + timedelta(hours=1), uid="x"), feed, "import")


@pytest.mark.parametrize("why", KINDS)
def test_the_chat_create_round_is_refused_before_any_write(store: Store, profile_id: int, ctx: TimeContext, why: str) -> None:
    seeded(store, profile_id, why)
    before = snapshot(store)
    commands = CommandService(store, profile_id, ctx)
    with pytest.raises(ReadOnlyCalendarError):
        commands.prepare_or_create("开会", "D+1", "15:00", calendar_name="Feed")
    assert snapshot(store) == before
    assert commands.prepare_or_create("开会", "D+1", "15:00").status == "created"  # the default still works


@pytest.mark.parametrize("why", KINDS)
def test_the_chat_edit_request_refuses_an_event_only_found_there(
    store: Store, profile_id: int, ctx: TimeContext, why: str
) -> None:
    seeded(store, profile_id, why)
    edits = ChatEditService(store, profile_id, ctx, WriteFacts())
    with pytest.raises(UserFacingError) as caught:
        edits.request("delete", {"targetTitle": "Held", "targetDate": "D+2"}, [])
    assert isinstance(caught.value, ReadOnlyCalendarError)
    with pytest.raises(ReadOnlyCalendarError):  # nor may an event move into it
        edits.request("update", {"targetTitle": "Held", "targetDate": "D+2", "calendarName": "Feed"}, [])
    assert len(snapshot(store)) == 1


@pytest.mark.parametrize("why", KINDS)
def test_an_import_into_it_is_refused_whole_and_its_uids_are_left_alone(store: Store, profile_id: int, why: str) -> None:
    seeded(store, profile_id, why)
    before = snapshot(store)
    text = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        b"BEGIN:VEVENT\r\nUID:held\r\nDTSTAMP:20261201T000000Z\r\nSEQUENCE:5\r\nDTSTART:20261202T080000Z\r\n"
        b"DTEND:20261202T090000Z\r\nSUMMARY:Overwritten\r\nEND:VEVENT\r\n"
        b"BEGIN:VEVENT\r\nUID:new-one\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20261203T080000Z\r\n"
        b"DTEND:20261203T090000Z\r\nSUMMARY:New\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    with pytest.raises(ReadOnlyCalendarError):
        import_bytes(store, profile_id, text, "Feed")
    assert snapshot(store) == before
    report = import_bytes(store, profile_id, text)  # into the default: the held UID is skipped, named
    assert report.imported == 1 and [(s.uid, s.reason) for s in report.skips] == [("held", "read_only")]
    assert [row for row in snapshot(store) if row[0] == "held"] == before


def test_the_chat_edit_request_only_offers_writable_matches(store: Store, profile_id: int, ctx: TimeContext) -> None:
    home, feed = seeded(store, profile_id, "subscription")
    EditService(store, profile_id).create(EventDraft("Held", START + timedelta(hours=3), START + timedelta(hours=4), home))
    edits = ChatEditService(store, profile_id, ctx, WriteFacts())
    outcome = edits.request("delete", {"targetTitle": "Held", "targetDate": "D+2"}, [])
    assert outcome.status == "deleted" and outcome.uid != "held"  # the one in "Feed" was not a candidate
    EditService(store, profile_id).create(EventDraft("Held", START + timedelta(hours=3), START + timedelta(hours=4), home))
    bulk = edits.request_bulk([("delete", {"targetTitle": "Held", "targetDate": "D+2"})] * 2, ["bulk:2"])
    assert [option["calendar"] for option in bulk.options] == [CalendarService(store, profile_id).by_id(home).name]


def test_a_calendar_no_longer_synced_is_writable_again(store: Store, profile_id: int) -> None:
    _, feed = seeded(store, profile_id, "server")
    with store.transaction() as conn:
        conn.execute("DELETE FROM sync_calendars")  # sync unmap, or the account removed
    assert ReadOnlyCalendars(store, profile_id).kinds() == {}
    EditService(store, profile_id).set_completed("held", True)
