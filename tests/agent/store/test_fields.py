"""The field table (agent/store/fields.py): one row per field, and the reader of a field
that has no column from the stored ICS (issue 28 item 1)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import icalendar
import pytest

from agent.store.components import EventFields, build_event, event_columns, index_fields, parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import (
    BY_NAME,
    FIELDS,
    LISTED,
    SEARCHED_IN_TEXT,
    SHOWN,
    Event,
    labels,
    listed,
    prop,
    read,
    read_text,
    split_tags,
    write,
)
from agent.store.profiles import ensure_profile

TAGGED = (
    "BEGIN:VEVENT\r\nUID:tagged@test\r\nDTSTAMP:20261101T000000Z\r\n"
    "DTSTART:20261201T010000Z\r\nDTEND:20261201T020000Z\r\nSUMMARY:Flight\r\n"
    "CATEGORIES:Work,Travel\r\nCATEGORIES:家\r\nCATEGORIES:a\\,b\r\nEND:VEVENT\r\n"
)


def test_every_column_of_the_table_is_a_column_of_events() -> None:
    columns = {name for name, _ in event_columns()}
    named = [item.column for item in FIELDS if item.column is not None]
    assert len(named) == len(set(named))
    assert set(named) <= columns
    # The columns the table does not name are derived from others (the span and its zone).
    assert columns - set(named) == {"tzid", "all_day", "floating"}
    assert set(EventFields.__dataclass_fields__) - columns == {"alarms"}


def test_names_and_properties_are_unique_and_categories_has_no_column() -> None:
    assert len(BY_NAME) == len(FIELDS)
    props = [p for item in FIELDS for p in (item.prop, *item.also)]
    assert len(props) == len(set(props))
    categories = BY_NAME["categories"]
    assert (categories.prop, categories.column, categories.multiple, categories.kind) == ("CATEGORIES", None, True, "tags")
    assert categories.editable and categories.searchable
    assert categories in LISTED and categories in SEARCHED_IN_TEXT
    assert prop("title") == "SUMMARY" and prop("location") == "LOCATION"


def test_conflict_listing_names_come_from_the_table_in_reading_order() -> None:
    assert labels()["DURATION"] == "time" and labels()["X-RICHENG-RECUR"] == "repetition"
    order = list(dict.fromkeys(labels().values()))
    assert order[:8] == ["title", "time", "place", "description", "repetition", "alarm", "busy or free", "status"]
    assert labels()["CATEGORIES"] == "tags"


def test_read_gives_every_category_of_every_line_unescaped() -> None:
    component = parse_component(TAGGED)
    assert read(component, "categories") == ("Work", "Travel", "家", "a,b")
    assert read(component, "title") == "Flight"
    assert read(component, "location") is None
    assert read(component, "completed") is False
    assert read(component, "start") == datetime(2026, 12, 1, 1, tzinfo=UTC)
    assert read(icalendar.Event(), "categories") == ()


def test_write_replaces_a_list_with_one_line_and_removes_it_when_empty() -> None:
    component = parse_component(TAGGED)
    write(component, "categories", [" Work ", "", "Work", "出差"])
    text = component.to_ical().decode()
    assert text.count("CATEGORIES") == 1 and "CATEGORIES:Work,出差\r\n" in text
    write(component, "categories", ())
    assert "CATEGORIES" not in component.to_ical().decode()
    write(component, "completed", True)
    assert str(component["X-RICHENG-COMPLETED"]) == "TRUE"
    write(component, "completed", False)
    assert "X-RICHENG-COMPLETED" not in component
    write(component, "location", "")
    assert "LOCATION" not in component
    with pytest.raises(ValueError):
        write(component, "alarms", ())


def test_split_tags_reads_commas_of_both_widths() -> None:
    assert split_tags("Work, Travel，家、 Work ,") == ("Work", "Travel", "家")
    assert split_tags("  ") == ()


def test_read_text_parses_only_when_the_property_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    assert read_text(TAGGED, ["categories"]) == {"categories": ("Work", "Travel", "家", "a,b")}

    def refuse(*_: object) -> None:
        raise AssertionError("parsed")

    monkeypatch.setattr(icalendar.Event, "from_ical", refuse)
    plain = TAGGED.replace("CATEGORIES", "X-OTHER")
    assert read_text(plain, ["categories", "completed"]) == {"categories": (), "completed": False}


def test_build_event_writes_its_fields_under_the_table_properties() -> None:
    start = datetime(2026, 12, 1, 9, tzinfo=UTC)
    event = build_event("Trip", start, start, location="Gate 3", stamp=start, uid="x")
    assert (read(event, "title"), read(event, "location"), read(event, "transp")) == ("Trip", "Gate 3", "OPAQUE")
    assert index_fields(event).title == "Trip"
    assert "CATEGORIES" not in event.to_ical().decode()


@pytest.fixture
def saved(store: Store) -> tuple[Store, int]:
    profile_id = ensure_profile(store)
    calendar_id = int(store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile_id,)).fetchone()[0])
    with store.transaction():
        EventRepo(store, profile_id).save(parse_component(TAGGED), calendar_id, "import")
    return store, profile_id


def test_event_reads_columns_from_the_row_and_the_rest_from_its_text(saved: tuple[Store, int]) -> None:
    store, _ = saved
    row = store.conn.execute("SELECT * FROM events WHERE uid = 'tagged@test'").fetchone()
    event = Event(row)
    assert event["title"] == "Flight" and event["completed"] is False
    assert event["categories"] == ("Work", "Travel", "家", "a,b")
    assert event["location"] == ""  # the column's value, as stored
    only_text = Event({"ics": row["ics"]})
    assert only_text["title"] == "Flight" and only_text["location"] is None
    assert only_text["start"] == datetime(2026, 12, 1, 1, tzinfo=UTC)


def test_listed_gives_json_lists_by_event_id(saved: tuple[Store, int]) -> None:
    store, _ = saved
    (event_id,) = store.conn.execute("SELECT id FROM events").fetchone()
    expected = {"categories": ["Work", "Travel", "家", "a,b"], "url": None, "organizer": None, "attendees": []}
    assert listed(store.conn, [event_id, event_id]) == {event_id: expected}
    assert listed(store.conn, []) == {}
    assert isinstance(store.conn, sqlite3.Connection)


def test_the_other_shapes_of_an_event_use_the_table_names() -> None:
    """An occurrence carries every field with a column a view shows (it is built from rows,
    thousands per view) and none without one; the editor's draft carries every editable
    field: the ones with a column under their names (times and repeat as the editor gives
    them), every shown field without one in ``extra``, derived from the table."""
    import dataclasses

    from agent.services.editing import EventDraft
    from agent.store.occurrence import Occurrence

    in_occurrence = {name for name in Occurrence._fields if name in BY_NAME}
    viewed = {item.name for item in FIELDS if item.column is not None and item.kind not in ("meta", "repeat")}
    assert viewed | {"uid", "recurrence_id"} == in_occurrence
    assert all(BY_NAME[name].column is not None for name in in_occurrence)
    typed = {item.name for item in dataclasses.fields(EventDraft)}
    assert all(BY_NAME[name].editable for name in typed & set(BY_NAME))
    draft = EventDraft("x", datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 1, 1, tzinfo=UTC), 1)
    assert list(draft.extra) == [item.name for item, _ in SHOWN]
    # Given as a list or a tuple, by keyword or in ``extra``: the same draft, hashable as before.
    tagged = EventDraft("x", draft.start, draft.end, 1, categories=["Work", " Work"])
    assert tagged == EventDraft("x", draft.start, draft.end, 1, extra={"categories": ("Work",)})
    assert len({tagged, dataclasses.replace(tagged, title="x")}) == 1
    with pytest.raises(TypeError):
        EventDraft("x", draft.start, draft.end, 1, colour="red")
    # Every editable field is in the draft, except those set by their own calls (done,
    # the 农历 RDATE list, the exceptions a delete writes, the organizer the save takes from
    # the user's addresses when attendees are added); alarms are its reminders.
    carried = (typed & set(BY_NAME)) | set(draft.extra) | {"alarms"}
    editable = {item.name for item in FIELDS if item.editable}
    assert editable - carried == {"completed", "rdate", "exdate", "organizer"}
    assert all(item.column is None and item.editable for item, _ in SHOWN)


def test_read_text_reads_only_the_events_own_lines_folded_or_not() -> None:
    long_tag = "长" * 30  # folded: the line is over 75 octets
    text = (
        "BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261201T010000Z\r\nSUMMARY:a\u2028b\r\n"
        + parse_component("BEGIN:VEVENT\r\nUID:y\r\nCATEGORIES:" + long_tag + ",Work\r\nEND:VEVENT\r\n")
        .to_ical()
        .decode()
        .split("\r\n", 2)[2]
        .split("END:VEVENT")[0]
        + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nCATEGORIES:alarm-only\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    )
    assert "\r\n " in text  # the category line is folded
    assert read_text(text, ["categories", "title"]) == {"categories": (long_tag, "Work"), "title": "a\u2028b"}
    assert read_text(text, ["categories"]) == {"categories": read(parse_component(text), "categories")}


@pytest.mark.parametrize(
    "line",
    [
        "CATEGORIES:a\\,b,c\\;d",
        "CATEGORIES:x\\\\y,z",
        "CATEGORIES;LANGUAGE=zh:工作,出差",
        'CATEGORIES;X-NOTE="a:b":Work,Home',
        "CATEGORIES:line\\nbreak,,  spaced  ,Work,Work",
        "categories:lower",
    ],
)
def test_the_light_reader_agrees_with_icalendar(line: str) -> None:
    text = f"BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261201T010000Z\r\n{line}\r\nCATEGORIES:Extra\r\nEND:VEVENT\r\n"
    assert read_text(text.replace("categories:", "CATEGORIES:"), ["categories"])["categories"] == read(
        parse_component(text), "categories"
    )
