"""Categories survive sync (issue 28, the categories proof): a resource another client
wrote with two CATEGORIES lines is pulled, a different field is edited here (by the
chat's edit path and by the editor's), pushed, and the server and a second device still
have every category. They need no sync code: the ICS is stored whole."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from agent.services.editing import EventDraft
from agent.services.queries import QueryService
from agent.store.components import parse_component
from agent.store.fields import read, write
from agent.timesym.context import TimeContext
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import NOW, SHANGHAI

TAGGED = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other client//EN\r\n"
    "BEGIN:VEVENT\r\nUID:tagged-1\r\nDTSTAMP:20261101T000000Z\r\n"
    "DTSTART:20261202T010000Z\r\nDTEND:20261202T020000Z\r\nSUMMARY:Flight\r\n"
    "CATEGORIES:Work,Travel\r\nCATEGORIES:出差\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)
TAGS = ("Work", "Travel", "出差")


@pytest.fixture
def devices(server: CalDavServer) -> Iterator[tuple[Device, Device]]:
    url = server.new_calendar("Work")
    a, b = Device(server, url), Device(server, url)
    yield a, b
    a.close()
    b.close()


def tags_on(device: Device, uid: str) -> tuple[str, ...]:
    row = device.edit.repo.row(uid, "")
    assert row is not None
    value = read(parse_component(row["ics"]), "categories")
    assert isinstance(value, tuple)
    return value


def test_pulled_categories_survive_a_local_edit_of_another_field(server: CalDavServer, devices: tuple[Device, Device]) -> None:
    a, b = devices
    client = server.client()
    client.put(a.mapping.remote_url + "tagged-1.ics", TAGGED, {"Content-Type": "text/calendar"})  # type: ignore[attr-defined]
    assert a.sync().pulled == 1  # type: ignore[attr-defined]
    assert tags_on(a, "tagged-1") == TAGS

    # The chat's way: an edit of the location only.
    (occ,) = QueryService(a.store, a.profile_id, TimeContext(now=NOW, tz=SHANGHAI)).between(
        datetime(2026, 12, 2, tzinfo=SHANGHAI), datetime(2026, 12, 3, tzinfo=SHANGHAI)
    )
    a.edit.update(occ, edit=lambda component: write(component, "location", "T2"))
    assert a.sync().pushed == 1  # type: ignore[attr-defined]
    assert b.sync().pulled == 1  # type: ignore[attr-defined]
    assert tags_on(b, "tagged-1") == TAGS
    row = b.edit.repo.row("tagged-1", "")
    assert row is not None and row["location"] == "T2"

    # The editor's way: the whole draft, tags as the editor read them, a new title.
    draft = EventDraft("Flight NH920", occ.start, occ.end, b.calendar_id, location="T2", categories=TAGS)
    b.edit.replace("tagged-1", draft)
    assert b.sync().pushed == 1  # type: ignore[attr-defined]
    assert a.sync().pulled == 1  # type: ignore[attr-defined]
    assert tags_on(a, "tagged-1") == TAGS and a.titles() == {"Flight NH920"}


def test_a_conflict_names_differing_tags_by_the_table_label_in_reading_order() -> None:
    from agent.sync.conflicts import Conflict

    here = TAGGED.replace("SUMMARY:Flight", "SUMMARY:Flight NH920").replace("CATEGORIES:出差\r\n", "")
    conflict = Conflict(1, 1, "home", "Work", "tagged-1", "tagged-1.ics", here, TAGGED, None, "", None, None)
    differences = conflict.differences()
    assert [d.field for d in differences] == ["title", "tags"]
    tags = differences[1]
    assert tags.local is not None and tags.server is not None
    assert "出差" in tags.server and "出差" not in tags.local
