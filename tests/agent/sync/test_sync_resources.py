"""Resources and hashes without a server: what counts as "the same event", what is refused."""

from __future__ import annotations

from datetime import datetime

import pytest

from agent.store.components import build_event
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.sync.resources import LocalRow, build_resource, canonical_hash, local_hash, parse_resource, resource_name
from agent.sync.secrets import MemorySecrets, keyring_user
from tests.support.clock import SHANGHAI

OUTLOOK = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r
BEGIN:VTIMEZONE\r
TZID:W. Europe Standard Time\r
BEGIN:STANDARD\r
DTSTART:16011028T030000\r
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r
TZOFFSETFROM:+0200\r
TZOFFSETTO:+0100\r
END:STANDARD\r
BEGIN:DAYLIGHT\r
DTSTART:16010325T020000\r
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r
TZOFFSETFROM:+0100\r
TZOFFSETTO:+0200\r
END:DAYLIGHT\r
END:VTIMEZONE\r
BEGIN:VEVENT\r
UID:outlook-1\r
DTSTAMP:20260101T000000Z\r
SUMMARY:Board meeting\r
DTSTART;TZID=W. Europe Standard Time:20261203T100000\r
DTEND;TZID=W. Europe Standard Time:20261203T110000\r
END:VEVENT\r
END:VCALENDAR\r
"""


def _row(title: str = "Standup") -> LocalRow:
    event = build_event(title, datetime(2026, 12, 1, 9, tzinfo=SHANGHAI), datetime(2026, 12, 1, 10, tzinfo=SHANGHAI), uid="u-1@x")
    return LocalRow("", event.to_ical().decode(), 0, 0)


def test_canonical_hash_ignores_dtstamp_folding_and_property_order_but_not_content() -> None:
    row = _row()
    lines = row.ics.replace("\r\n", "\n").strip().split("\n")
    shuffled = [lines[0], *reversed(lines[1:-1]), lines[-1]]
    restamped = "\r\n".join(line if not line.startswith("DTSTAMP") else "DTSTAMP:20300101T000000Z" for line in shuffled)
    other = LocalRow("", restamped + "\r\n")
    assert canonical_hash([row]) == canonical_hash([other])
    assert local_hash([row]) != local_hash([other]), "the strict hash sees any rewrite"
    assert canonical_hash([row]) != canonical_hash([_row("Standup!")])


def test_canonical_hash_ignores_parameter_order_even_with_quoted_separators() -> None:
    """A pulled single keeps the server's text, so its serialiser's parameter order must not
    read as an edit; a quoted ``;`` or ``:`` inside a parameter stays part of its value."""
    base = "BEGIN:VEVENT\r\nUID:p@x\r\n{start}\r\nSUMMARY:a\r\nEND:VEVENT\r\n"
    one = LocalRow("", base.format(start='DTSTART;TZID=Asia/Shanghai;X-NOTE="a;b:c":20261201T090000'))
    other = LocalRow("", base.format(start='DTSTART;X-NOTE="a;b:c";TZID=Asia/Shanghai:20261201T090000'))
    moved = LocalRow("", base.format(start='DTSTART;X-NOTE="a;b:c";TZID=Asia/Shanghai:20261201T100000'))
    assert canonical_hash([one]) == canonical_hash([other]) != canonical_hash([moved])


def test_a_resource_round_trips_to_the_same_canonical_hash() -> None:
    row = _row("会议 with a long title " + "x" * 90)
    body = build_resource([row])
    assert body.startswith(b"BEGIN:VCALENDAR\r\n") and b"BEGIN:VTIMEZONE\r\nTZID:Asia/Shanghai" in body
    parsed = parse_resource(body.decode())
    assert parsed.uid == "u-1@x" and parsed.problem is None
    assert parsed.canonical == canonical_hash([row])


def test_server_zones_are_normalised_like_an_import() -> None:
    parsed = parse_resource(OUTLOOK)
    assert parsed.problem is None
    assert "TZID=Europe/Berlin" in parsed.rows[0].ics


def test_a_resource_with_one_broken_event_is_refused_whole() -> None:
    body = build_resource([_row()]).decode()
    broken = body.replace(
        "END:VCALENDAR", "BEGIN:VEVENT\r\nUID:u-1@x\r\nRECURRENCE-ID:notadate\r\nDTSTART:nope\r\nEND:VEVENT\r\nEND:VCALENDAR"
    )
    parsed = parse_resource(broken)
    assert parsed.problem and not parsed.rows
    todo = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    assert parse_resource(todo).ignored


def test_resource_names_are_plain_and_distinct() -> None:
    assert resource_name("abc-123") == "abc-123.ics"
    odd = {resource_name(uid) for uid in ("a@b", "a/b", "a b", "a@b ")}
    assert len(odd) == 4 and all(name.replace(".ics", "").replace("-", "").isalnum() for name in odd)


def test_migration_two_makes_the_sync_tables() -> None:
    store = Store(":memory:")
    ensure_profile(store)
    tables = {row[0] for row in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"sync_accounts", "sync_calendars", "sync_items", "sync_conflicts"} <= tables
    store.close()


def test_memory_secrets_are_per_server_and_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RICHENG_CALDAV_PASSWORD", raising=False)
    secrets = MemorySecrets()
    secrets.put("https://dav.example/", "me", "s3cret")
    assert secrets.get("https://dav.example", "me") == "s3cret"
    assert secrets.get("https://dav.example", "you") is None
    assert keyring_user("https://dav.example/", "me") == "me@https://dav.example"
