"""The event's link (ICS ``URL``), added through the field table alone (issue 28 item 1,
the second proof after the categories): an ICS round trip, the editor's draft, search,
``richeng events list --json`` and a sync conflict's listing. The app's editor, card,
agenda and duplicate are in tests/app/test_app_link.py."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.services.editing import EditService, EventDraft
from agent.services.queries import QueryService
from agent.services.search import SearchService
from agent.store.components import parse_component
from agent.store.db import Store
from agent.store.fields import BY_NAME, LISTED, SEARCHED_IN_TEXT, SHOWN, read
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext
from tests.support.clock import NOW, NOW_ARG, SHANGHAI

ZOOM = "https://zoom.us/j/81234567890?pwd=abc,def"
CALENDAR = f"""BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//test//url//EN\r
BEGIN:VEVENT\r
UID:call@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261202T080000\r
DTEND;TZID=Asia/Shanghai:20261202T090000\r
SUMMARY:Design review\r
URL:{ZOOM}\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:plain@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261202T140000\r
DTEND;TZID=Asia/Shanghai:20261202T150000\r
SUMMARY:Zoom training\r
DESCRIPTION:Bring the URL list\r
END:VEVENT\r
END:VCALENDAR\r
"""


def url_of(store: Store, uid: str) -> str | None:
    (ics,) = store.conn.execute("SELECT ics FROM events WHERE uid = ? AND recurrence_id = ''", (uid,)).fetchone()
    value = read(parse_component(ics), "url")
    assert value is None or isinstance(value, str)
    return value


@pytest.fixture
def imported(store: Store) -> tuple[Store, int]:
    profile_id = ensure_profile(store)
    assert import_bytes(store, profile_id, CALENDAR.encode(), "日程").imported == 2
    return store, profile_id


def test_the_row_declares_a_shown_listed_searched_link_without_a_column() -> None:
    url = BY_NAME["url"]
    assert (url.prop, url.column, url.multiple, url.kind, url.label) == ("URL", None, False, "link", "link")
    assert url in LISTED and url in SEARCHED_IN_TEXT and url in [item for item, _ in SHOWN]


def test_import_export_import_keeps_the_link(imported: tuple[Store, int]) -> None:
    store, profile_id = imported
    assert url_of(store, "call@test") == ZOOM and url_of(store, "plain@test") is None
    exported = export_calendar(store, profile_id)
    assert b"URL:https://zoom.us/j/81234567890?pwd=abc,def" in exported
    again = Store(":memory:")
    try:
        other = ensure_profile(again)
        assert import_bytes(again, other, exported, "日程").imported == 2
        assert url_of(again, "call@test") == ZOOM
    finally:
        again.close()


def test_search_finds_an_event_by_its_link(imported: tuple[Store, int]) -> None:
    store, profile_id = imported
    search = SearchService(store, profile_id)
    assert [hit.uid for hit in search.search("81234567890", now=NOW, tz=SHANGHAI)] == ["call@test"]
    # "zoom": the link of one, the title of the other.
    assert {hit.uid for hit in search.search("ZOOM", now=NOW, tz=SHANGHAI)} == {"call@test", "plain@test"}
    # The property's name in the other's notes is words, not a link: only its notes match.
    assert [hit.uid for hit in search.search("url list", now=NOW, tz=SHANGHAI)] == ["plain@test"]


def test_the_draft_writes_the_link_and_a_replace_clears_it(store: Store) -> None:
    profile_id = ensure_profile(store)
    calendar_id = int(store.conn.execute("SELECT id FROM calendars").fetchone()[0])
    edits = EditService(store, profile_id)
    start = datetime(2026, 12, 2, 9, tzinfo=SHANGHAI)
    uid = edits.create(EventDraft("Call", start, start.replace(hour=10), calendar_id, url=f"  {ZOOM} ")).created[0].uid
    assert url_of(store, uid) == ZOOM
    edits.replace(uid, EventDraft("Call", start, start.replace(hour=11), calendar_id, url="https://meet.example/x"))
    assert url_of(store, uid) == "https://meet.example/x"
    edits.replace(uid, EventDraft("Call", start, start.replace(hour=11), calendar_id))
    assert url_of(store, uid) is None


def test_an_override_has_its_own_link(store: Store) -> None:
    profile_id = ensure_profile(store)
    calendar_id = int(store.conn.execute("SELECT id FROM calendars").fetchone()[0])
    edits = EditService(store, profile_id)
    start = datetime(2026, 12, 1, 9, tzinfo=SHANGHAI)
    draft = EventDraft("Standup", start, start.replace(hour=10), calendar_id, rrule="FREQ=DAILY;COUNT=3", url=ZOOM)
    uid = edits.create(draft).created[0].uid
    day = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI)).between(start, start.replace(day=4))
    second = [occ for occ in day if occ.uid == uid][1]
    edits.edit_one(second, EventDraft("Standup", second.start, second.end, calendar_id, url="https://meet.example/demo"))
    rows = dict(store.conn.execute("SELECT recurrence_id, ics FROM events WHERE uid = ?", (uid,)).fetchall())
    assert read(parse_component(rows[""]), "url") == ZOOM
    assert read(parse_component(rows[second.recurrence_id]), "url") == "https://meet.example/demo"


def test_events_list_json_has_the_link_or_null(
    imported: tuple[Store, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store, _ = imported
    db = tmp_path / "list.sqlite3"
    store.conn.execute("VACUUM INTO ?", (str(db),))
    argv = [
        "--db",
        str(db),
        "--now",
        NOW_ARG,
        "--tz",
        "Asia/Shanghai",
        "--json",
        "events",
        "list",
        "--start",
        "D+0",
        "--end",
        "D+6",
    ]
    assert main(argv) == 0
    items = {item["title"]: item for item in json.loads(capsys.readouterr().out)}
    assert items["Design review"]["url"] == ZOOM
    assert items["Zoom training"]["url"] is None
    assert items["Design review"]["categories"] == []


def test_a_conflict_names_a_differing_link() -> None:
    from agent.sync.conflicts import Conflict

    there = CALENDAR.split("BEGIN:VEVENT\r\nUID:plain@test")[0] + "END:VCALENDAR\r\n"  # one event
    here = there.replace(ZOOM, "https://meet.example/x")
    conflict = Conflict(1, 1, "home", "Work", "call@test", "call@test.ics", here, there, None, "", None, None)
    assert [(d.field, d.local, d.server) for d in conflict.differences()] == [
        ("link", "URL:https://meet.example/x", f"URL:{ZOOM}")
    ]
