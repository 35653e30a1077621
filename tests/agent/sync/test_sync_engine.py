"""CalDAV sync against a real Radicale on 127.0.0.1: two stores act as two devices.

Every test gets its own calendar on the folder's one server (``conftest.py``), so the
devices see only the events the test made. Nothing here mocks the protocol: ETags, sync tokens, 412s and the
server's own re-serialisation are Radicale's.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import caldav
import pytest

from agent.store.components import build_event
from agent.store.events import EventRepo
from agent.sync.engine import SyncEngine
from agent.sync.remote import Listing, RemoteCalendar
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import SHANGHAI
from tests.support.servers import free_port


@pytest.fixture
def devices(server: CalDavServer) -> Iterator[tuple[Device, Device]]:
    url = server.new_calendar("Work")
    a, b = Device(server, url), Device(server, url)
    yield a, b
    a.close()
    b.close()


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=SHANGHAI)


def server_uids(server: CalDavServer, url: str) -> dict[str, str]:
    """UID -> raw text of every resource on the server, read with the library directly."""
    calendar = caldav.Calendar(client=server.client(), url=url)
    out = {}
    for obj in calendar.get_objects_by_sync_token(None, load_objects=True):
        text = obj.data
        if text is None:  # a member removed since: listed as gone, without data
            continue
        uid = next(line[4:] for line in text.splitlines() if line.startswith("UID:"))
        out[uid.strip()] = text
    return out


def test_two_devices_converge_after_create_edit_delete_on_each_side(devices: tuple[Device, Device]) -> None:
    a, b = devices
    standup = a.add("Standup", at(1, 9), at(1, 9, 30))
    review = a.add("Review", at(2, 14), at(2, 15))
    assert a.sync().to_json() == {"pulled": 0, "pushed": 2, "conflicts": 0, "new_conflicts": 0, "errors": []}
    assert b.sync().pulled == 2
    assert b.events() == a.events()

    b.retitle(standup, "Standup (moved to B's room)")
    b.remove(review)
    lunch = b.add("Lunch 午饭", at(3, 12), at(3, 13))
    assert b.sync().pushed == 3
    report = a.sync()
    assert (report.pulled, report.pushed, report.errors) == (3, 0, [])
    assert a.titles() == {"Standup (moved to B's room)", "Lunch 午饭"}

    a.retitle(lunch, "Lunch with 王老师")
    a.remove(standup)
    assert a.sync().pushed == 2
    assert b.sync().pulled == 2
    assert a.events() == b.events()
    assert b.titles() == {"Lunch with 王老师"}

    # Nothing changed anywhere: a further round moves nothing and reports nothing.
    for device in (a, b):
        quiet = device.sync()
        assert (quiet.pulled, quiet.pushed, quiet.conflicts, quiet.errors) == (0, 0, 0, [])


def test_offline_edits_are_queued_and_pushed_on_the_next_sync(server: CalDavServer, devices: tuple[Device, Device]) -> None:
    a, b = devices
    keep = a.add("Dentist", at(4, 10), at(4, 11))
    drop = a.add("Gym", at(4, 18), at(4, 19))
    a.sync()
    b.sync()

    # The laptop goes offline: its traffic goes to a port where nothing listens.
    dead = free_port()
    offline = SyncEngine(
        a.store,
        a.profile_id,
        a.secrets,
        client_factory=lambda account: caldav.DAVClient(
            url=account.url, username=account.username, password="x", proxy=f"http://127.0.0.1:{dead}", timeout=5
        ),
    )
    a.retitle(keep, "Dentist (rescheduled)")
    a.remove(drop)
    new = a.add("Written on the train", at(5, 8), at(5, 9))
    failed = offline.run()
    assert failed.pushed == 0 and failed.errors, "an unreachable server is reported, not silent"
    assert b.sync().pulled == 0, "nothing reached the server while offline"

    back = a.sync()
    assert (back.pushed, back.errors) == (3, [])
    assert b.sync().pulled == 3
    assert b.titles() == {"Dentist (rescheduled)", "Written on the train"}
    assert new in server_uids(server, a.mapping.remote_url)


def test_both_sides_edit_gives_a_conflict_that_is_listed_and_resolved_without_loss(
    server: CalDavServer, devices: tuple[Device, Device]
) -> None:
    a, b = devices
    first = a.add("Planning", at(7, 9), at(7, 10))
    second = a.add("Retro", at(8, 16), at(8, 17))
    a.sync()
    b.sync()
    a.retitle(first, "Planning (A)")
    a.retitle(second, "Retro (A)")
    b.retitle(first, "Planning (B)")
    b.retitle(second, "Retro (B)")
    assert a.sync().pushed == 2
    report = b.sync()
    assert (report.new_conflicts, report.conflicts, report.pushed) == (2, 2, 0)
    # Both versions are visible: B's stays in the calendar, the server's waits in the conflict.
    assert b.titles() == {"Planning (B)", "Retro (B)"}
    listed = {c.uid: c for c in b.engine.conflicts()}
    assert listed[first].side("local")["title"] == "Planning (B)"  # type: ignore[index]
    assert listed[first].side("server")["title"] == "Planning (A)"  # type: ignore[index]
    # An open conflict is neither pushed nor pulled over by later runs.
    assert b.sync().pushed == 0 and a.sync().pulled == 0

    b.engine.resolve(listed[first].id, "local")
    b.engine.resolve(listed[second].id, "server")
    assert b.engine.conflicts() == []
    assert b.titles() == {"Planning (B)", "Retro (A)"}
    assert a.sync().pulled == 1
    assert a.titles() == {"Planning (B)", "Retro (A)"}
    assert b.sync().to_json()["conflicts"] == 0
    assert a.events() == b.events()
    # The losing versions are still on record.
    kept = {row["uid"]: row for row in b.store.conn.execute("SELECT uid, local_ics, server_ics, resolution FROM sync_conflicts")}
    assert "Retro (B)" in kept[second]["local_ics"] and "Planning (A)" in kept[first]["server_ics"]
    assert (kept[first]["resolution"], kept[second]["resolution"]) == ("local", "server")


def test_a_stale_write_is_refused_and_becomes_a_conflict(monkeypatch: pytest.MonkeyPatch, devices: tuple[Device, Device]) -> None:
    """A's write lands between B's listing and B's push: If-Match fails (412), B re-fetches."""
    a, b = devices
    uid = a.add("Budget", at(9, 9), at(9, 10))
    a.sync()
    b.sync()
    a.retitle(uid, "Budget v2 (A)")
    a.sync()
    b.retitle(uid, "Budget v2 (B)")
    monkeypatch.setattr(RemoteCalendar, "listing", lambda self, token, ctag=None: Listing(complete=False))
    report = b.sync()
    assert (report.pushed, report.new_conflicts) == (0, 1)
    (conflict,) = b.engine.conflicts()
    assert conflict.side("server")["title"] == "Budget v2 (A)"  # type: ignore[index]
    monkeypatch.undo()
    b.engine.resolve(conflict.id, "server")
    assert b.titles() == {"Budget v2 (A)"}


def test_edit_here_delete_there_and_delete_here_edit_there(devices: tuple[Device, Device]) -> None:
    a, b = devices
    kept_by_a = a.add("Offsite", at(10, 9), at(10, 17))
    deleted_by_a = a.add("Call", at(11, 9), at(11, 10))
    a.sync()
    b.sync()
    a.remove(kept_by_a)
    b.retitle(kept_by_a, "Offsite (agenda added)")
    a.retitle(deleted_by_a, "Call (moved)")
    b.remove(deleted_by_a)
    a.sync()
    report = b.sync()
    assert report.new_conflicts == 2
    conflicts = {c.uid: c for c in b.engine.conflicts()}
    assert conflicts[kept_by_a].side("server") is None
    assert conflicts[deleted_by_a].side("local") is None
    # The server's edit of what B deleted is back in B's calendar while B decides.
    assert "Call (moved)" in b.titles()

    b.engine.resolve(conflicts[kept_by_a].id, "local")  # re-creates it on the server
    b.engine.resolve(conflicts[deleted_by_a].id, "local")  # deletes it on the server too
    a.sync()
    assert a.titles() == b.titles() == {"Offsite (agenda added)"}


def test_recurring_event_with_an_overridden_instance_survives_the_round_trip(
    server: CalDavServer, devices: tuple[Device, Device]
) -> None:
    a, b = devices
    uid = a.add("Weekly sync", at(1, 15), at(1, 16), rrule="FREQ=WEEKLY;COUNT=8")
    occurrences = [o for o in a.edit.repo.occurrences(at(1, 0), at(31, 0), SHANGHAI) if o.uid == uid]
    third = occurrences[2]
    a.edit.move(third, third.start + timedelta(hours=2), third.end + timedelta(hours=2), scope="this")  # type: ignore[operator]
    a.retitle(uid, "Weekly sync (long)", third.recurrence_id or "")
    a.sync()

    text = server_uids(server, a.mapping.remote_url)[uid]
    assert text.count("BEGIN:VEVENT") == 2 and "RECURRENCE-ID" in text and "BEGIN:VTIMEZONE" in text

    b.sync()
    assert b.events() == a.events()
    span = (at(1, 0), datetime(2027, 2, 1, tzinfo=SHANGHAI))
    seen_a = [(o.start, o.end, o.title) for o in a.edit.repo.occurrences(*span, SHANGHAI)]
    seen_b = [(o.start, o.end, o.title) for o in b.edit.repo.occurrences(*span, SHANGHAI)]
    assert seen_a == seen_b and len(seen_b) == 8
    assert "Weekly sync (long)" in {title for _, _, title in seen_b}

    b.retitle(uid, "Weekly sync (renamed series)")
    b.sync()
    a.sync()
    titles = sorted(o.title for o in a.edit.repo.occurrences(*span, SHANGHAI))
    assert titles.count("Weekly sync (renamed series)") == 7 and "Weekly sync (long)" in titles
    assert a.events() == b.events()


def test_etag_comparison_when_sync_tokens_are_not_used(server: CalDavServer) -> None:
    url = server.new_calendar("No tokens")
    a = Device(server, url, calendar="No tokens", use_tokens=False)
    b = Device(server, url, calendar="No tokens", use_tokens=False)
    one = a.add("One", at(14, 9), at(14, 10))
    two = a.add("Two", at(15, 9), at(15, 10))
    a.sync()
    assert b.sync().pulled == 2
    b.retitle(one, "One (B)")
    b.remove(two)
    b.sync()
    report = a.sync()
    assert (report.pulled, report.errors) == (2, [])
    assert a.events() == b.events()
    row = a.store.conn.execute("SELECT sync_token, ctag FROM sync_calendars").fetchone()
    assert row["sync_token"] is None and row["ctag"]
    assert a.sync().pulled == 0  # unchanged ctag: nothing is listed at all
    a.close()
    b.close()


def test_one_item_the_server_refuses_does_not_stop_the_rest(server: CalDavServer, devices: tuple[Device, Device]) -> None:
    a, b = devices
    a.add("Small one", at(16, 9), at(16, 10))
    big = a.add("Huge notes", at(16, 11), at(16, 12), description="长" * (server.max_resource_size // 2))
    a.add("Small two", at(16, 13), at(16, 14))
    report = a.sync()
    assert report.pushed == 2
    (problem,) = report.errors
    assert problem.uid == big and "413" in problem.message
    assert b.sync().pulled == 2
    # Still queued: once it fits, the next sync pushes it.
    from agent.services.editing import EventDraft

    a.edit.replace(big, EventDraft("Huge notes", at(16, 11), at(16, 12), a.calendar_id, description="short now"))
    assert a.sync().to_json()["pushed"] == 1
    assert b.sync().pulled == 1 and "Huge notes" in b.titles()


def test_agent_created_events_sync_like_any_other(devices: tuple[Device, Device]) -> None:
    a, b = devices
    component = build_event("Agent: call mum", at(20, 19), at(20, 20))
    with a.store.transaction():
        EventRepo(a.store, a.profile_id).save(component, a.calendar_id, "agent")
    assert a.sync().pushed == 1
    assert b.sync().pulled == 1 and b.titles() == {"Agent: call mum"}
    b.retitle(str(component["UID"]), "Agent: call mum (8pm)")
    b.sync()
    a.sync()
    row = a.edit.repo.row(str(component["UID"]))
    assert row is not None and row["title"] == "Agent: call mum (8pm)" and row["origin"] == "agent"


def test_tasks_on_the_server_are_left_alone_and_clashing_uids_are_reported(
    server: CalDavServer, devices: tuple[Device, Device]
) -> None:
    a, b = devices
    client = server.client()
    todo = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n"
        "BEGIN:VTODO\r\nUID:task-1\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )
    client.put(a.mapping.remote_url + "task-1.ics", todo, {"Content-Type": "text/calendar"})  # type: ignore[attr-defined]
    report = a.sync()
    assert (report.pulled, report.errors) == (0, [])
    a.sync()
    assert "task-1" in server_uids(server, a.mapping.remote_url), "a task we do not show is never deleted"

    # An event the server has whose UID this device keeps in another, unsynced calendar.
    uid = b.add("Shared", at(21, 9), at(21, 10))
    b.sync()
    other = a.engine.accounts  # same profile: make a local calendar holding that UID
    from agent.services.calendars import CalendarService

    private = CalendarService(a.store, a.profile_id).add("Private")
    with a.store.transaction():
        EventRepo(a.store, a.profile_id).save(build_event("Shared", at(21, 9), at(21, 10), uid=uid), private.id, "user")
    token_before = other.mappings()[0].sync_token
    clash = a.sync()
    assert [p.uid for p in clash.errors] == [uid] and "Private" in clash.errors[0].message
    assert other.mappings()[0].sync_token == token_before, "the token waits until the clash is settled"
    assert a.sync().errors, "reported again on every run until the user settles it"


def test_a_sync_token_the_server_no_longer_knows_falls_back_to_a_full_listing(devices: tuple[Device, Device]) -> None:
    a, b = devices
    a.add("Keep me", at(22, 9), at(22, 10))
    a.sync()
    b.sync()
    for device in (a, b):
        with device.store.transaction() as conn:
            conn.execute("UPDATE sync_calendars SET sync_token = 'http://radicale.org/ns/sync/forgotten'")
    report = a.sync()
    assert (report.pulled, report.pushed, report.errors) == (0, 0, [])
    b.retitle(next(uid for uid, _ in b.events()), "Keep me (B)")
    b.sync()
    assert a.sync().pulled == 1 and a.titles() == {"Keep me (B)"}
    token = a.store.conn.execute("SELECT sync_token FROM sync_calendars").fetchone()[0]
    assert token and not token.endswith("forgotten")
