"""Categories end to end through the field table (issue 28, "the categories proof"):
an ICS round trip, the editor's draft, search, and ``richeng events list --json``.
Sync is in tests/agent/sync/test_sync_categories.py (it needs the folder's Radicale)."""

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
from agent.store.fields import read
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext
from tests.support.clock import NOW, NOW_ARG, SHANGHAI

CALENDAR = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//test//categories//EN\r
BEGIN:VEVENT\r
UID:flight@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261202T080000\r
DTEND;TZID=Asia/Shanghai:20261202T110000\r
SUMMARY:Flight to Tokyo\r
CATEGORIES:Work,Travel\r
CATEGORIES:出差\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:plain@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261202T140000\r
DTEND;TZID=Asia/Shanghai:20261202T150000\r
SUMMARY:Travel desk call\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:other@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261203T140000\r
DTEND;TZID=Asia/Shanghai:20261203T150000\r
SUMMARY:Dentist\r
CATEGORIES:Health\r
END:VEVENT\r
END:VCALENDAR\r
"""
FLIGHT_TAGS = ("Work", "Travel", "出差")


def categories_of(store: Store, uid: str) -> tuple[str, ...]:
    (ics,) = store.conn.execute("SELECT ics FROM events WHERE uid = ?", (uid,)).fetchone()
    value = read(parse_component(ics), "categories")
    assert isinstance(value, tuple)
    return value


@pytest.fixture
def imported(store: Store) -> tuple[Store, int]:
    profile_id = ensure_profile(store)
    assert import_bytes(store, profile_id, CALENDAR.encode(), "日程").imported == 3
    return store, profile_id


def test_import_export_import_keeps_every_category_of_both_lines(imported: tuple[Store, int]) -> None:
    store, profile_id = imported
    assert categories_of(store, "flight@test") == FLIGHT_TAGS
    exported = export_calendar(store, profile_id)
    again = Store(":memory:")
    try:
        other = ensure_profile(again)
        assert import_bytes(again, other, exported, "日程").imported == 3
        assert categories_of(again, "flight@test") == FLIGHT_TAGS
        assert categories_of(again, "plain@test") == ()
    finally:
        again.close()


def test_search_finds_an_event_by_its_tag(imported: tuple[Store, int]) -> None:
    store, profile_id = imported
    search = SearchService(store, profile_id)
    found = search.search("travel", now=NOW, tz=SHANGHAI)
    # The tagged flight, and the call whose title says Travel; not the dentist.
    assert {hit.uid for hit in found} == {"flight@test", "plain@test"}
    assert [hit.uid for hit in search.search("出差", now=NOW, tz=SHANGHAI)] == ["flight@test"]
    assert [hit.uid for hit in search.search("health", now=NOW, tz=SHANGHAI)] == ["other@test"]
    # A word of the text that is no tag's (the property name, a UID) finds nothing by it.
    assert search.search("CATEGORIES", now=NOW, tz=SHANGHAI) == []


def test_the_editor_draft_writes_tags_and_a_replace_rewrites_them(store: Store) -> None:
    profile_id = ensure_profile(store)
    calendar_id = int(store.conn.execute("SELECT id FROM calendars").fetchone()[0])
    edits = EditService(store, profile_id)
    start = datetime(2026, 12, 2, 9, tzinfo=SHANGHAI)
    draft = EventDraft("Offsite", start, start.replace(hour=10), calendar_id, categories=("Work", "Travel"))
    uid = edits.create(draft).created[0].uid
    assert categories_of(store, uid) == ("Work", "Travel")
    edits.replace(uid, EventDraft("Offsite", start, start.replace(hour=11), calendar_id, categories=("Travel",)))
    assert categories_of(store, uid) == ("Travel",)
    edits.replace(uid, EventDraft("Offsite", start, start.replace(hour=11), calendar_id))
    assert categories_of(store, uid) == ()


def test_events_list_json_has_categories(imported: tuple[Store, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
    assert items["Flight to Tokyo"]["categories"] == list(FLIGHT_TAGS)
    assert items["Travel desk call"]["categories"] == []
    assert items["Dentist"]["categories"] == ["Health"]


def test_an_override_has_its_own_tags_and_a_series_lists_them_per_instance(store: Store) -> None:
    profile_id = ensure_profile(store)
    calendar_id = int(store.conn.execute("SELECT id FROM calendars").fetchone()[0])
    edits = EditService(store, profile_id)
    start = datetime(2026, 12, 1, 9, tzinfo=SHANGHAI)
    draft = EventDraft("Standup", start, start.replace(hour=10), calendar_id, rrule="FREQ=DAILY;COUNT=3", categories=("Team",))
    uid = edits.create(draft).created[0].uid
    day = QueryService(store, profile_id, TimeContext(now=NOW, tz=SHANGHAI)).between(start, start.replace(day=4))
    second = [occ for occ in day if occ.uid == uid][1]
    one = EventDraft("Standup", second.start, second.end, calendar_id, categories=("Team", "Demo"))
    edits.edit_one(second, one)
    rows = dict(store.conn.execute("SELECT recurrence_id, ics FROM events WHERE uid = ?", (uid,)).fetchall())
    assert read(parse_component(rows[""]), "categories") == ("Team",)
    assert read(parse_component(rows[second.recurrence_id]), "categories") == ("Team", "Demo")
