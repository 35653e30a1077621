"""The interop set (issue 31, item 5): the same cases on every CalDAV server the tests can start.

Each case drives Richeng's real sync engine (``Device``: its own store, ``SyncEngine``) against
a real server process (``conftest.SERVERS``): what one device writes, the other reads back
through the server, instant for instant and byte for byte where it matters. A case that
cannot apply on a server skips with the reason the server's ``notes`` give.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from agent.ics.importer import import_bytes
from agent.store.components import parse_component
from agent.store.fields import read
from agent.sync.accounts import AccountService
from agent.sync.secrets import MemorySecrets, keyring_user
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


def test_well_known_discovery_from_the_bare_host_finds_the_calendars(interop: InteropServer) -> None:
    made = interop.new_calendar("alice", "Discovered 发现")
    device = Device(interop.login("alice"), made)
    try:
        secrets = MemorySecrets({keyring_user(interop.host_url, "alice"): interop.passwords["alice"]})
        accounts = AccountService(device.store, device.profile_id, secrets)
        account = accounts.add(interop.host_url, "alice", name="bare host")
        found = {info.url.rstrip("/"): info.name for info in accounts.discover(account)}
    finally:
        device.close()
    assert found.get(made.rstrip("/")) == "Discovered 发现", found
