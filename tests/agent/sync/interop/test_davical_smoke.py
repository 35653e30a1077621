"""Richeng's real sync against a real DAViCal (issue 31, item 5), beside the shared interop set.

- the quick check: two devices on one DAViCal calendar converge after create, edit and delete;
- DAViCal's quirks Richeng handles: discovery leaves out the inbox and outbox DAViCal lists as
  calendars; a copy DAViCal rewrote after a PUT (answered without ETag) is read back and taken;
  an attendee's answer its 500 refuses (``davical_server.NOTES``) is kept and said;
- on users whose inbox and outbox DAViCal made itself (carol, dave) scheduling works end to end:
  invite, accept (the organizer sees ACCEPTED), move, cancel;
- the harness itself: the server stops, PostgreSQL too; a machine without it is told what to install.

The tests on a running server share the package's DAViCal (``conftest.SERVERS``) and skip by name,
with the line that installs it, where DAViCal or PostgreSQL is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from tests.support.caldav_server import Device
from tests.support.clock import SHANGHAI
from tests.support.davical_server import running_davical
from tests.support.interop_server import InteropServer, ServerMissing


@pytest.fixture
def davical(interop: InteropServer) -> InteropServer:
    """The package's DAViCal (``conftest.SERVERS``), started once for these tests and the interop set."""
    return interop


on_davical = pytest.mark.parametrize("interop", ["davical"], indirect=True)


@pytest.fixture
def devices(davical: InteropServer) -> Iterator[tuple[Device, Device]]:
    url = davical.new_calendar("alice", "Work 工作")
    login = davical.login("alice")
    a, b = Device(login, url), Device(login, url)  # type: ignore[arg-type]  # Device reads url, user, password
    yield a, b
    a.close()
    b.close()


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=SHANGHAI)


@on_davical
def test_two_devices_on_one_davical_calendar_converge_after_create_edit_delete(devices: tuple[Device, Device]) -> None:
    a, b = devices
    standup = a.add("Standup", at(1, 9), at(1, 9, 30))
    review = a.add("Review 评审 🎯", at(2, 14), at(2, 15))
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

    for device in (a, b):  # nothing changed anywhere: a further round moves nothing
        quiet = device.sync()
        assert (quiet.pulled, quiet.pushed, quiet.conflicts, quiet.errors) == (0, 0, 0, [])


@on_davical
def test_discovery_leaves_out_the_inbox_and_outbox_davical_lists_as_calendars(davical: InteropServer) -> None:
    """DAViCal's admin page makes a user's schedule inbox (/.in/) and outbox (/.out/) as plain
    calendar collections, so they come back from calendar-home-set discovery as "Alice Inbox"
    and "Alice Outbox". Mapped, the inbox would show every invitation a second time."""
    from agent.sync.accounts import connect, discover_calendars

    made = davical.new_calendar("alice", "Found 找到")
    found = {info.url: info.name for info in discover_calendars(connect(davical.url, "alice", davical.passwords["alice"]))}
    assert found.get(made) == "Found 找到", found
    assert found.get(made.rsplit("/", 2)[0] + "/calendar/") == "Alice calendar", found
    assert not [url for url in found if url.rstrip("/").endswith(("/.in", "/.out"))], found


@on_davical
def test_an_answer_davical_refuses_with_its_500_is_kept_and_reported_and_nothing_else_changes(
    davical: InteropServer,
) -> None:
    """DAViCal 1.1.12 + AWL 0.64 answers 500 to an attendee's upload (``NOTES["attendee_upload"]``):
    bob's ACCEPTED stays in his store and is reported on every run, alice's copy and the server's
    copy of bob's stay as they were."""
    from agent.services.editing import EventDraft
    from agent.services.invitations import answer, remember_address
    from agent.store.components import parse_component
    from agent.store.fields import Person, read
    from tests.support.davical_server import email

    alice = Device(davical.login("alice"), davical.new_calendar("alice", "Meetings"))  # type: ignore[arg-type]
    remember_address(alice.store, alice.profile_id, email("alice"))
    draft = EventDraft(
        "Budget 预算", at(8, 15), at(8, 16), alice.calendar_id, attendees=(Person(email("bob"), "Bob"),), send_invitations=True
    )
    uid = alice.edit.create(draft).created[0].uid
    assert alice.sync().pushed == 1  # type: ignore[attr-defined]
    bob = Device(davical.login("bob"), davical.url + "bob/calendar/", calendar="Bob")  # type: ignore[arg-type]
    try:
        remember_address(bob.store, bob.profile_id, email("bob"))
        bob.sync()
        answer(bob.store, bob.profile_id, uid, "", email("bob"), "ACCEPTED")

        def partstat(device: Device) -> str:
            row = device.edit.repo.row(uid, "")
            assert row is not None
            people = read(parse_component(row["ics"]), "attendees")
            return next(p.partstat for p in people if p.email == email("bob"))  # type: ignore[union-attr]

        for _ in range(2):  # refused, kept, said again on the next run
            report = bob.sync()
            assert report.pushed == 0 and "HTTP 500" in str(report.to_json()), report.to_json()  # type: ignore[attr-defined]
            assert partstat(bob) == "ACCEPTED"
        assert alice.sync().pulled == 0  # type: ignore[attr-defined]
        assert partstat(alice) == "NEEDS-ACTION"
        fresh = Device(davical.login("bob"), davical.url + "bob/calendar/", calendar="Bob")  # type: ignore[arg-type]
        fresh.sync()
        assert partstat(fresh) == "NEEDS-ACTION"  # the server stored nothing of the refused upload
        fresh.close()
    finally:
        alice.close()
        bob.close()


@on_davical
def test_with_davicals_own_inbox_and_outbox_an_invitation_is_answered_moved_and_cancelled(
    davical: InteropServer,
) -> None:
    """The interop scheduling case on users whose inbox and outbox DAViCal made itself (its
    documented default_collections: ``davical_server.OWN_BOX_USERS``): carol invites dave, dave
    accepts in Richeng and carol's copy says ACCEPTED; carol's move reaches dave's copy; her
    delete cancels it. On alice and bob (inbox as a plain calendar) the answer gets a 500 and the
    delete would too, which is what ``NOTES`` says."""
    from agent.services.editing import EventDraft
    from agent.services.invitations import answer, remember_address
    from agent.store.components import parse_component
    from agent.store.fields import Person, read
    from tests.support.davical_server import email

    carol = Device(davical.login("carol"), davical.url + "carol/calendar/", calendar="Carol")  # type: ignore[arg-type]
    dave = Device(davical.login("dave"), davical.url + "dave/calendar/", calendar="Dave")  # type: ignore[arg-type]
    try:
        remember_address(carol.store, carol.profile_id, email("carol"))
        remember_address(dave.store, dave.profile_id, email("dave"))
        invitees = (Person(email("dave"), "Dave"),)
        draft = EventDraft("Review 评审", at(9, 10), at(9, 11), carol.calendar_id, attendees=invitees, send_invitations=True)
        uid = carol.edit.create(draft).created[0].uid
        assert carol.sync().pushed == 1  # type: ignore[attr-defined]
        assert dave.sync().pulled == 1  # type: ignore[attr-defined]  # the server put it in dave's calendar
        answer(dave.store, dave.profile_id, uid, "", email("dave"), "ACCEPTED")
        accepted = dave.sync()
        assert (accepted.pushed, accepted.errors) == (1, []), accepted.to_json()  # type: ignore[attr-defined]
        carol.sync()
        row = carol.edit.repo.row(uid, "")
        assert row is not None
        people = {p.email: p.partstat for p in read(parse_component(row["ics"]), "attendees")}  # type: ignore[union-attr]
        assert people[email("dave")] == "ACCEPTED"

        moved = EventDraft("Review 评审", at(10, 14), at(10, 15), carol.calendar_id, attendees=None, send_invitations=True)
        carol.edit.replace(uid, moved)
        assert carol.sync().pushed == 1  # type: ignore[attr-defined]
        dave.sync()
        assert dave.events()[(uid, "")][1:] == carol.events()[(uid, "")][1:]  # the new time, in dave's copy

        carol.remove(uid)
        cancelled = carol.sync()
        assert (cancelled.pushed, cancelled.errors) == (1, []), cancelled.to_json()  # type: ignore[attr-defined]
        dave.sync()
        assert (uid, "") not in dave.events()
    finally:
        carol.close()
        dave.close()


@on_davical
def test_a_rewritten_copy_that_cannot_be_read_back_leaves_the_upload_done(davical: InteropServer) -> None:
    """DAViCal answers an organizer's move without an ETag; reading its copy back then fails
    (a 500 from a proxy in front): the move was still sent, so the run reports no error."""
    from agent.services.editing import EventDraft
    from agent.services.invitations import remember_address
    from agent.store.fields import Person
    from tests.support.davical_server import email
    from tests.support.fault_proxy import Fault, FaultProxy
    from tests.support.interop_server import Login

    proxy = FaultProxy(davical.host_url)
    calendar = davical.new_calendar("carol", "Proxied").replace(davical.host_url, proxy.url)
    carol = Device(Login(proxy.url + "caldav.php/", "carol", davical.passwords["carol"]), calendar)  # type: ignore[arg-type]
    try:
        remember_address(carol.store, carol.profile_id, email("carol"))
        invitees = (Person(email("dave"), "Dave"),)
        draft = EventDraft("Plan 计划", at(11, 10), at(11, 11), carol.calendar_id, attendees=invitees, send_invitations=True)
        uid = carol.edit.create(draft).created[0].uid
        assert carol.sync().pushed == 1  # type: ignore[attr-defined]
        moved = EventDraft("Plan 计划", at(12, 10), at(12, 11), carol.calendar_id, send_invitations=True)
        carol.edit.replace(uid, moved)
        proxy.inject(Fault(frozenset({"GET"}), "500"))
        report = carol.sync()
        assert (report.pushed, report.errors) == (1, []), report.to_json()  # type: ignore[attr-defined]
        assert proxy.hits == [("GET", "500")]  # the read-back was tried, and failed
        proxy.inject(None)
        quiet = carol.sync()
        assert (quiet.pushed, quiet.conflicts, quiet.errors) == (0, 0, []), quiet.to_json()  # type: ignore[attr-defined]
    finally:
        carol.close()
        proxy.close()


def test_the_server_is_stopped_and_its_database_removed_afterwards(tmp_path_factory: pytest.TempPathFactory) -> None:
    import urllib.error
    import urllib.request

    folder = tmp_path_factory.mktemp("davical-stop")
    try:
        with running_davical(folder) as server:
            url = server.host_url
            with pytest.raises(urllib.error.HTTPError) as refused:  # up: asks for a password
                urllib.request.urlopen(url + "caldav.php/", timeout=5)
            assert refused.value.code == 401
    except ServerMissing as missing:
        pytest.skip(f"DAViCal: {missing.install}")
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "caldav.php/", timeout=5)
    assert "database system is shut down" in (folder / "postgres.log").read_text()


def test_a_machine_without_davical_says_which_packages_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import tests.support.davical_server as davical_server

    monkeypatch.setattr(davical_server, "DAVICAL", tmp_path_factory.mktemp("no-davical"))
    with pytest.raises(ServerMissing) as missing, running_davical(tmp_path_factory.mktemp("unused")):
        pass
    assert (missing.value.name, missing.value.install) == ("DAViCal", "sudo apt-get install davical postgresql")


def test_discovery_leaves_out_the_boxes_the_principal_names_even_without_davical_here() -> None:
    """The same rule without a server: a listed collection that is the principal's
    schedule-inbox-URL or schedule-outbox-URL (relative, percent-encoded) is not offered."""
    from agent.sync.accounts import discover_calendars

    class Listed:
        def __init__(self, url: str, name: str) -> None:
            self.url, self.name = url, name

        def get_display_name(self) -> str:
            return self.name

        def get_supported_components(self) -> list[str]:
            return ["VEVENT"]

    class Principal:
        url = "http://dav.example/caldav.php/%E5%BC%A0/"

        def get_calendars(self) -> list[Listed]:
            return [
                Listed(self.url + "calendar/", "日历"),
                Listed(self.url + ".in/", "Inbox"),
                Listed(self.url + ".out", "Outbox"),
            ]

        def get_properties(self, props: list[object]) -> dict[str, str]:
            return {"inbox": "/caldav.php/%E5%BC%A0/.in/", "outbox": "/caldav.php/张/.out/"}

    class Client:
        url = "http://dav.example/caldav.php/"

        def principal(self) -> Principal:
            return Principal()

    assert [(info.url, info.name) for info in discover_calendars(Client())] == [
        ("http://dav.example/caldav.php/%E5%BC%A0/calendar/", "日历")
    ]
