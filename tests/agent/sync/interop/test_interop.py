"""The interop set (issue 31, item 5): the same cases on every CalDAV server the tests can start.

A server's ``notes`` say why a case does not run there. Keys read here: ``share`` (no read-only
sharing: skip), ``schedule`` (no RFC 6638 scheduling: skip), and for a server bug no client can
mend, an expected failure that fails once the bug is gone (``_known``): ``schedule_quiet`` (the
server schedules despite SCHEDULE-AGENT=CLIENT), ``schedule_reply`` (an attendee's answer never
reaches the organizer's copy), ``attendee_upload`` (the server fails an attendee's upload of
their copy with a 500: DAViCal).

Each case drives Richeng's real sync engine (``Device``: its own store, ``SyncEngine``) against
a real server process (``conftest.SERVERS``): what one device writes, the other reads back
through the server, instant for instant and byte for byte where it matters. A case that
cannot apply on a server skips with the reason the server's ``notes`` give.
"""

from __future__ import annotations

import contextlib
import io
import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.ics.importer import import_bytes
from agent.store.components import parse_component
from agent.store.fields import read
from agent.store.read_only import ReadOnlyCalendarError
from tests.support.caldav_server import Device
from tests.support.interop_server import InteropServer

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")


def _calendar(*events: str) -> bytes:
    body = "".join(events)
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Richeng tests//interop//EN\r\n" + body + "END:VCALENDAR\r\n").encode()


def _event(uid: str, *lines: str) -> str:
    return (
        "BEGIN:VEVENT\r\n"
        + f"UID:{uid}\r\nDTSTAMP:20261201T000000Z\r\n"
        + "".join(f"{line}\r\n" for line in lines)
        + "END:VEVENT\r\n"
    )


def _uid(case: str) -> str:
    """Cyrus refuses one UID in two calendars of one user (RFC 4791 no-uid-conflict): every
    event of every case gets a UID of its own."""
    return f"{case}-{uuid.uuid4().hex[:12]}@richeng.test"


@pytest.fixture
def pair(interop: InteropServer) -> Iterator[tuple[Device, Device]]:
    """Two of alice's devices on one fresh calendar."""
    url = interop.new_calendar("alice", "Work")
    a, b = Device(interop.login("alice"), url), Device(interop.login("alice"), url)
    yield a, b
    a.close()
    b.close()


def _rows(device: Device) -> dict[tuple[str, str], dict[str, object]]:
    rows = device.store.conn.execute(
        "SELECT uid, recurrence_id, title, description, location, tzid, all_day, start_ts, end_ts, rrule, exdate, ics"
        " FROM events WHERE profile_id = ? AND calendar_id = ?",
        (device.profile_id, device.calendar_id),
    ).fetchall()
    return {(r["uid"], r["recurrence_id"]): dict(r) for r in rows}


def _import(device: Device, data: bytes) -> None:
    report = import_bytes(device.store, device.profile_id, data, "Work")
    assert not report.errors, report.errors  # type: ignore[attr-defined]


def _round_trip(a: Device, b: Device) -> None:
    first = a.sync()
    assert first.errors == [], first.to_json()  # type: ignore[attr-defined]
    second = b.sync()
    assert second.errors == [], second.to_json()  # type: ignore[attr-defined]


def _occurrences(device: Device, start: datetime, end: datetime) -> list[tuple[str, datetime | object]]:
    found = device.edit.repo.occurrences(start, end, SHANGHAI, calendar_ids=[device.calendar_id])
    return sorted((occ.title, occ.start) for occ in found)  # type: ignore[type-var]


# ---- (a) a weekly series with an EXDATE and one moved instance ---------------------------------


def test_series_with_exdate_and_moved_instance_round_trips(pair: tuple[Device, Device]) -> None:
    a, b = pair
    uid = _uid("series")
    _import(
        a,
        _calendar(
            _event(uid, "SUMMARY:Weekly sync", "DTSTART;TZID=Asia/Shanghai:20261207T100000",
                   "DTEND;TZID=Asia/Shanghai:20261207T110000", "RRULE:FREQ=WEEKLY;COUNT=6",
                   "EXDATE;TZID=Asia/Shanghai:20261214T100000"),
            _event(uid, "SUMMARY:Weekly sync (moved)", "RECURRENCE-ID;TZID=Asia/Shanghai:20261221T100000",
                   "DTSTART;TZID=Asia/Shanghai:20261222T150000", "DTEND;TZID=Asia/Shanghai:20261222T160000"),
        ),
    )  # fmt: skip
    _round_trip(a, b)
    window = (datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2027, 2, 1, tzinfo=SHANGHAI))
    expected = [
        ("Weekly sync", datetime(2026, 12, 7, 10, tzinfo=SHANGHAI)),
        ("Weekly sync", datetime(2026, 12, 28, 10, tzinfo=SHANGHAI)),
        ("Weekly sync", datetime(2027, 1, 4, 10, tzinfo=SHANGHAI)),
        ("Weekly sync", datetime(2027, 1, 11, 10, tzinfo=SHANGHAI)),
        ("Weekly sync (moved)", datetime(2026, 12, 22, 15, tzinfo=SHANGHAI)),
    ]
    assert _occurrences(b, *window) == _occurrences(a, *window) == expected
    assert set(_rows(b)) == {(uid, ""), (uid, "20261221T020000Z")} or len(_rows(b)) == 2
    # Nothing moved on the way back: a second run on each side changes nothing.
    for device in (a, b):
        again = device.sync()
        assert (again.pulled, again.pushed, again.conflicts) == (0, 0, 0), again.to_json()  # type: ignore[attr-defined]


# ---- (b) zones and an all-day event ---------------------------------------------------------------


def test_zoned_and_all_day_events_keep_their_instants(pair: tuple[Device, Device]) -> None:
    a, b = pair
    ny, sh, day = _uid("new-york"), _uid("shanghai"), _uid("all-day")
    _import(
        a,
        _calendar(
            _event(ny, "SUMMARY:Call New York", "DTSTART;TZID=America/New_York:20261210T090000",
                   "DTEND;TZID=America/New_York:20261210T100000"),
            _event(sh, "SUMMARY:Lunch Shanghai", "DTSTART;TZID=Asia/Shanghai:20261210T120000",
                   "DTEND;TZID=Asia/Shanghai:20261210T130000"),
            _event(day, "SUMMARY:Holiday", "DTSTART;VALUE=DATE:20261225", "DTEND;VALUE=DATE:20261226"),
        ),
    )  # fmt: skip
    _round_trip(a, b)
    rows = _rows(b)
    instants = {uid: (rows[(uid, "")]["start_ts"], rows[(uid, "")]["end_ts"]) for uid in (ny, sh)}
    assert instants == {
        ny: (int(datetime(2026, 12, 10, 14, tzinfo=UTC).timestamp()), int(datetime(2026, 12, 10, 15, tzinfo=UTC).timestamp())),
        sh: (int(datetime(2026, 12, 10, 4, tzinfo=UTC).timestamp()), int(datetime(2026, 12, 10, 5, tzinfo=UTC).timestamp())),
    }
    assert (rows[(ny, "")]["tzid"], rows[(sh, "")]["tzid"]) == ("America/New_York", "Asia/Shanghai")
    holiday = parse_component(str(rows[(day, "")]["ics"]))
    assert rows[(day, "")]["all_day"] == 1
    assert (str(holiday["DTSTART"].to_ical(), "ascii"), str(holiday["DTEND"].to_ical(), "ascii")) == ("20261225", "20261226")
    mine = _rows(a)
    assert {k: (v["start_ts"], v["end_ts"], v["all_day"]) for k, v in mine.items()} == {
        k: (v["start_ts"], v["end_ts"], v["all_day"]) for k, v in rows.items()
    }


# ---- (c) CJK and emoji ------------------------------------------------------------------------------


def test_cjk_and_emoji_text_survives(pair: tuple[Device, Device]) -> None:
    a, b = pair
    uid = _uid("text")
    title, place = "周会 🎉 第三季度复盘", "北京市海淀区 🏢 会议室「长城」"
    description = "议程：\n1. 预算 💰\n2. 招聘 👩‍💻（日本語テスト、한국어）"
    _import(
        a,
        _calendar(
            _event(uid, f"SUMMARY:{title}", f"LOCATION:{place}", "DESCRIPTION:" + description.replace("\n", "\\n"),
                   "DTSTART;TZID=Asia/Shanghai:20261211T150000", "DTEND;TZID=Asia/Shanghai:20261211T160000"),
        ),
    )  # fmt: skip
    _round_trip(a, b)
    row = _rows(b)[(uid, "")]
    assert (row["title"], row["location"], row["description"]) == (title, place, description)


# ---- (d) alarms --------------------------------------------------------------------------------------


def test_alarms_survive(pair: tuple[Device, Device]) -> None:
    a, b = pair
    uid = _uid("alarm")
    alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:提醒\r\nTRIGGER:-PT15M\r\nEND:VALARM"
    day_before = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Tomorrow\r\nTRIGGER:-P1D\r\nEND:VALARM"
    _import(
        a,
        _calendar(
            _event(uid, "SUMMARY:Dentist", "DTSTART;TZID=Asia/Shanghai:20261212T090000",
                   "DTEND;TZID=Asia/Shanghai:20261212T100000", alarm, day_before),
        ),
    )  # fmt: skip
    _round_trip(a, b)
    component = parse_component(str(_rows(b)[(uid, "")]["ics"]))
    assert sorted(read(component, "alarms")) == ["-P1D", "-PT15M"]  # type: ignore[arg-type]
    assert sorted(str(alarm["ACTION"]) for alarm in component.walk("VALARM")) == ["DISPLAY", "DISPLAY"]


# ---- (e) concurrent edits become a kept conflict ------------------------------------------------------


def test_concurrent_edits_become_a_conflict_with_both_versions_kept(pair: tuple[Device, Device]) -> None:
    a, b = pair
    uid = a.add("Planning", datetime(2026, 12, 14, 9, tzinfo=SHANGHAI), datetime(2026, 12, 14, 10, tzinfo=SHANGHAI))
    _round_trip(a, b)
    a.retitle(uid, "Planning (A)")
    b.retitle(uid, "Planning (B)")
    assert a.sync().pushed == 1  # type: ignore[attr-defined]
    report = b.sync()
    assert (report.new_conflicts, report.conflicts, report.pushed) == (1, 1, 0), report.to_json()  # type: ignore[attr-defined]
    assert b.titles() == {"Planning (B)"}
    (conflict,) = b.engine.conflicts()
    assert conflict.side("local")["title"] == "Planning (B)"  # type: ignore[index]
    assert conflict.side("server")["title"] == "Planning (A)"  # type: ignore[index]
    assert b.sync().pushed == 0 and a.sync().pulled == 0  # type: ignore[attr-defined]


# ---- (f) /.well-known/caldav from the bare host -------------------------------------------------------


def test_well_known_discovery_from_the_bare_host_finds_the_calendars(
    interop: InteropServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``richeng sync add-account http://host:port/ --user alice`` lists alice's calendars,
    and the mapped one syncs (RFC 6764: ``/.well-known/caldav`` names where CalDAV lives)."""
    from agent.cli.main import main

    made = interop.new_calendar("alice", "Discovered 发现")
    monkeypatch.setenv("RICHENG_CALDAV_KEYRING", "0")
    monkeypatch.setenv("RICHENG_CALDAV_PASSWORD", interop.passwords["alice"])
    monkeypatch.setattr("sys.stdin", io.StringIO(interop.passwords["alice"] + "\n"))
    db = str(tmp_path / "richeng.sqlite3")
    code = main(["--db", db, "--json", "sync", "add-account", interop.host_url, "--user", "alice",
                 "--name", "bare", "--password-stdin", "--map", "Discovered 发现=发现"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    found = {c["url"].rstrip("/"): c for c in json.loads(out)["calendars"]}
    assert found[made.rstrip("/")]["mapped_to"] == "发现", found
    assert main(["--db", db, "--json", "sync", "run"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["errors"] == []


# ---- (g) a calendar shared read-only ---------------------------------------------------------------


def _server_titles(interop: InteropServer, user: str, url: str) -> set[str]:
    import caldav

    client = caldav.DAVClient(url=interop.url, username=user, password=interop.passwords[user], timeout=30)
    texts = [str(event.data) for event in client.calendar(url=url).events()]
    return {line[8:] for text in texts for line in text.replace("\r\n ", "").splitlines() if line.startswith("SUMMARY:")}


def test_a_calendar_shared_read_only_is_read_only_for_the_reader_and_never_written(interop: InteropServer) -> None:
    if interop.share_read_only is None:
        pytest.skip(interop.notes.get("share", f"{interop.name} cannot share a calendar read-only"))
    url = interop.new_calendar("alice", "Team 团队")
    alice = Device(interop.login("alice"), url)
    bob = None
    try:
        alice.add("Offsite 团建", datetime(2026, 12, 15, 9, tzinfo=SHANGHAI), datetime(2026, 12, 15, 17, tzinfo=SHANGHAI))
        assert alice.sync().pushed == 1  # type: ignore[attr-defined]
        shared = interop.share_read_only("alice", url, "bob")
        bob = Device(interop.login("bob"), shared, calendar="Team")
        first = bob.sync()
        assert (first.pulled, first.errors) == (1, []), first.to_json()  # type: ignore[attr-defined]
        assert bob.engine.accounts.read_only_calendars() == {bob.calendar_id}
        (uid,) = {uid for uid, _ in bob.events()}
        # Read-only in the app: an edit or a new event there is refused before it is stored.
        with pytest.raises(ReadOnlyCalendarError):
            bob.retitle(uid, "Offsite (bob's edit)")
        with pytest.raises(ReadOnlyCalendarError):
            bob.add("Bob's own", datetime(2026, 12, 16, 9, tzinfo=SHANGHAI), datetime(2026, 12, 16, 10, tzinfo=SHANGHAI))
        again = bob.sync()
        assert (again.pushed, again.pulled, again.errors) == (0, 0, []), again.to_json()  # type: ignore[attr-defined]
        assert _server_titles(interop, "alice", url) == {"Offsite 团建"}
        assert alice.sync().pulled == 0  # type: ignore[attr-defined]
    finally:
        alice.close()
        if bob is not None:
            bob.close()


# ---- (h) scheduling between two users (RFC 6638) ---------------------------------------------------


def _address(interop: InteropServer, user: str) -> str:
    """The user's calendar user address, as the server says it (``calendar-user-address-set``)."""
    import caldav

    client = caldav.DAVClient(url=interop.url, username=user, password=interop.passwords[user], timeout=30)
    principal = client.principal()
    body = (
        '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
        "<D:prop><C:calendar-user-address-set/></D:prop></D:propfind>"
    )
    response = client.propfind(str(principal.url), body, depth=0)
    hrefs = [href.text or "" for href in response.tree.iter("{DAV:}href")]
    return next(h[7:] for h in hrefs if h.lower().startswith("mailto:"))


def _find_uid(interop: InteropServer, user: str, uid: str) -> list[str]:
    """The URLs of ``user``'s calendars (inbox included) that hold an event ``uid``."""
    import caldav

    client = caldav.DAVClient(url=interop.url, username=user, password=interop.passwords[user], timeout=30)
    principal = client.principal()
    places = [*principal.get_calendars()]
    with contextlib.suppress(Exception):  # no inbox: a server that does not schedule
        places.append(principal.schedule_inbox())
    found = []
    for calendar in places:
        texts = [str(event.data) for event in calendar.objects(load_objects=True)]
        if any(f"UID:{uid}" in text.replace("\r\n ", "") for text in texts):
            found.append(str(calendar.url))
    return found


def _known(interop: InteropServer, case: str, happened: bool) -> None:
    """A server bug the client cannot mend, named in ``notes[case]``: when it shows, the case
    is an expected failure with that reason; when a note names it but it no longer shows,
    the note is out of date and the case fails."""
    if case not in interop.notes:
        return
    assert happened, f"{interop.name} no longer shows {case!r}: remove the note ({interop.notes[case]})"
    pytest.xfail(interop.notes[case])


def _scheduling(interop: InteropServer) -> None:
    if not interop.schedules:
        pytest.skip(interop.notes.get("schedule", f"{interop.name} does not schedule (RFC 6638)"))


def _invite(alice: Device, bob_address: str, *, send: bool) -> str:
    from agent.services.editing import EventDraft
    from agent.store.fields import Person

    start = datetime(2026, 12, 17, 15, tzinfo=SHANGHAI)
    draft = EventDraft(
        "Design review 设计评审", start, start.replace(hour=16), alice.calendar_id,
        attendees=(Person(bob_address, "Bob"),), send_invitations=send,
    )  # fmt: skip
    return alice.edit.create(draft).created[0].uid


def test_scheduling_alice_invites_bob_bob_accepts_alice_sees_accepted(interop: InteropServer) -> None:
    from agent.services.invitations import answer, event_standing, my_addresses, remember_address

    _scheduling(interop)
    alice_address, bob_address = _address(interop, "alice"), _address(interop, "bob")
    alice = Device(interop.login("alice"), interop.new_calendar("alice", "Meetings"))
    bob = None
    try:
        remember_address(alice.store, alice.profile_id, alice_address)
        uid = _invite(alice, bob_address, send=True)  # the user said "send" to "this will email 1 person"
        assert alice.sync().pushed == 1  # type: ignore[attr-defined]
        delivered = [url for url in _find_uid(interop, "bob", uid) if "inbox" not in url.lower()]
        assert delivered, "the server put the invitation in bob's calendar"
        # Bob's Richeng is not told his address: the server's principal says it (sync keeps it).
        bob = Device(interop.login("bob"), delivered[0], calendar="Bob")
        bob.sync()  # bob's scheduling calendar is one for the whole server: it holds other cases' too
        assert (uid, "") in bob.events()
        assert bob_address.casefold() in {a.casefold() for a in my_addresses(bob.store, bob.profile_id)}
        row = bob.edit.repo.row(uid, "")
        assert row is not None and event_standing(parse_component(row["ics"]), my_addresses(bob.store, bob.profile_id)).invited
        answer(bob.store, bob.profile_id, uid, "", bob_address, "ACCEPTED")
        report = bob.sync()
        _known(interop, "attendee_upload", report.pushed == 0 and "HTTP 500" in str(report.to_json()))  # type: ignore[attr-defined]
        assert (report.pushed, report.errors) == (1, []), report.to_json()  # type: ignore[attr-defined]
        alice.sync()
        row = alice.edit.repo.row(uid, "")
        assert row is not None
        people = {p.email.casefold(): p.partstat for p in read(parse_component(row["ics"]), "attendees")}  # type: ignore[union-attr]
        _known(interop, "schedule_reply", people[bob_address.casefold()] != "ACCEPTED")
        assert people[bob_address.casefold()] == "ACCEPTED"
    finally:
        alice.close()
        if bob is not None:
            bob.close()


def test_without_the_go_ahead_an_upload_with_attendees_schedules_no_one(interop: InteropServer) -> None:
    _scheduling(interop)
    alice_address, bob_address = _address(interop, "alice"), _address(interop, "bob")
    alice = Device(interop.login("alice"), interop.new_calendar("alice", "Quiet"))
    try:
        from agent.services.invitations import remember_address

        remember_address(alice.store, alice.profile_id, alice_address)
        uid = _invite(alice, bob_address, send=False)
        assert alice.sync().pushed == 1  # type: ignore[attr-defined]
        _known(interop, "schedule_quiet", _find_uid(interop, "bob", uid) != [])
        assert _find_uid(interop, "bob", uid) == []
        assert _find_uid(interop, "alice", uid) != []  # it was uploaded: only no one was told
    finally:
        alice.close()


def _add_alarm(device: Device, uid: str) -> None:
    """A VALARM on the stored event, saved as the editor saves (SEQUENCE stays the organizer's)."""
    import icalendar

    row = device.edit.repo.row(uid, "")
    assert row is not None
    component = parse_component(row["ics"])
    alarm = icalendar.Alarm()
    alarm.add("ACTION", "DISPLAY")
    alarm.add("DESCRIPTION", "Reminder")
    alarm.add("TRIGGER", timedelta(minutes=-10))
    component.add_component(alarm)
    with device.store.transaction():
        device.edit.repo.save(component, row["calendar_id"], row["origin"])


def test_an_attendee_copy_uploaded_without_an_answer_tells_the_organizer_nothing(interop: InteropServer) -> None:
    """Bob changes his copy of alice's meeting (adds a reminder) without answering: the upload
    schedules nothing. Marking bob's own ATTENDEE line SCHEDULE-AGENT=CLIENT made Cyrus
    send alice a DECLINED reply (agent/sync/scheduling.py); which line is bob's, sync learns
    from the server's principal (``RemoteCalendar.user_addresses``)."""
    from agent.services.invitations import remember_address

    _scheduling(interop)
    alice_address, bob_address = _address(interop, "alice"), _address(interop, "bob")
    alice = Device(interop.login("alice"), interop.new_calendar("alice", "Meetings"))
    bob = None
    try:
        remember_address(alice.store, alice.profile_id, alice_address)
        uid = _invite(alice, bob_address, send=True)
        assert alice.sync().pushed == 1  # type: ignore[attr-defined]
        delivered = [url for url in _find_uid(interop, "bob", uid) if "inbox" not in url.lower()]
        # Bob's Richeng is not told his address: sync asks the server (calendar-user-address-set).
        bob = Device(interop.login("bob"), delivered[0], calendar="Bob")
        bob.sync()  # bob's scheduling calendar is one for the whole server: it holds other cases' too
        assert (uid, "") in bob.events()
        _add_alarm(bob, uid)  # his own reminder: a change an attendee may make (RFC 6638 3.2.2.1)
        pushed = bob.sync()
        _known(interop, "attendee_upload", pushed.pushed == 0 and "HTTP 500" in str(pushed.to_json()))  # type: ignore[attr-defined]
        assert (pushed.pushed, pushed.conflicts, pushed.errors) == (1, 0, []), pushed.to_json()  # type: ignore[attr-defined]
        assert _find_uid(interop, "alice", uid) == [alice.mapping.remote_url], "no reply in alice's inbox"
        assert alice.sync().pulled == 0  # type: ignore[attr-defined]
        row = alice.edit.repo.row(uid, "")
        assert row is not None
        people = {p.email.casefold(): p.partstat for p in read(parse_component(row["ics"]), "attendees")}  # type: ignore[union-attr]
        assert people[bob_address.casefold()] == "NEEDS-ACTION"
    finally:
        alice.close()
        if bob is not None:
            bob.close()


def test_an_imported_invitation_answered_in_richeng_uploads_without_a_conflict(interop: InteropServer) -> None:
    """Bob imports an emailed invitation into a synced calendar, then accepts it. The answer
    rewrites the other people's lines (ROLE written out, the quiet marker left off): Xandikos
    refuses that from an attendee (412 ``CALDAV:attendee-allowed``) and it became a conflict;
    sync now sends the others' lines back as the server has them (``scheduling.others_as``)."""
    from agent.services.invitations import answer, remember_address

    uid = _uid("emailed")
    invitation = _calendar(
        _event(uid, "SUMMARY:External review 外部评审", "DTSTART:20261218T070000Z", "DTEND:20261218T080000Z",
               "SEQUENCE:0", "ORGANIZER;CN=Zed:mailto:zed@example.org",
               "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.com",
               "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:yan@example.org"),
    ).replace(b"VERSION:2.0\r\n", b"VERSION:2.0\r\nMETHOD:REQUEST\r\n")  # fmt: skip
    bob = Device(interop.login("bob"), interop.new_calendar("bob", "Work"))
    try:
        remember_address(bob.store, bob.profile_id, "bob@example.com")
        _import(bob, invitation)
        assert bob.sync().pushed == 1  # type: ignore[attr-defined]
        answer(bob.store, bob.profile_id, uid, "", "bob@example.com", "ACCEPTED")
        report = bob.sync()
        assert (report.pushed, report.conflicts, report.errors) == (1, 0, []), report.to_json()  # type: ignore[attr-defined]
        again = bob.sync()
        assert (again.pulled, again.pushed, again.conflicts) == (0, 0, 0), again.to_json()  # type: ignore[attr-defined]
    finally:
        bob.close()


def test_a_conflict_kept_as_local_schedules_no_one_without_the_go_ahead(interop: InteropServer) -> None:
    """Keeping one's own side of a conflict uploads the event again: the quiet rule holds
    there too (it used to upload the bare event, and the server invited everyone)."""
    from agent.services.invitations import remember_address

    _scheduling(interop)
    alice_address, bob_address = _address(interop, "alice"), _address(interop, "bob")
    url = interop.new_calendar("alice", "Planning")
    a, b = Device(interop.login("alice"), url), Device(interop.login("alice"), url)
    try:
        for device in (a, b):
            remember_address(device.store, device.profile_id, alice_address)
        uid = _invite(a, bob_address, send=False)
        _round_trip(a, b)
        # ``a`` made the event: its stored copy has no marker of the server's, as a new one has not.
        a.retitle(uid, "Design review (A)")
        b.retitle(uid, "Design review (B)")
        assert b.sync().pushed == 1  # type: ignore[attr-defined]
        assert a.sync().new_conflicts == 1  # type: ignore[attr-defined]
        (conflict,) = a.engine.conflicts()
        a.engine.resolve(conflict.id, "local")
        assert _server_titles(interop, "alice", url) == {"Design review (A)"}
        _known(interop, "schedule_quiet", _find_uid(interop, "bob", uid) != [])
        assert _find_uid(interop, "bob", uid) == []
    finally:
        a.close()
        b.close()
