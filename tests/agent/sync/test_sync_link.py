"""The link (ICS ``URL``) survives sync like the tags (issue 28, the second field added by
the table alone): pulled from another client, saved by the editor's draft with a new
title, pushed, and read by a second device. No sync code names it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from agent.services.editing import EventDraft
from agent.services.queries import QueryService
from agent.store.components import parse_component
from agent.store.fields import read
from agent.timesym.context import TimeContext
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import NOW, SHANGHAI

LINK = "https://meet.example/room?id=7,8"
LINKED = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other client//EN\r\n"
    "BEGIN:VEVENT\r\nUID:linked-1\r\nDTSTAMP:20261101T000000Z\r\n"
    f"DTSTART:20261202T010000Z\r\nDTEND:20261202T020000Z\r\nSUMMARY:Review\r\nURL:{LINK}\r\n"
    "END:VEVENT\r\nEND:VCALENDAR\r\n"
)


@pytest.fixture
def devices(server: CalDavServer) -> Iterator[tuple[Device, Device]]:
    url = server.new_calendar("Work")
    a, b = Device(server, url), Device(server, url)
    yield a, b
    a.close()
    b.close()


def link_on(device: Device, uid: str) -> object:
    row = device.edit.repo.row(uid, "")
    assert row is not None
    return read(parse_component(row["ics"]), "url")


def test_a_pulled_link_survives_an_editor_save_and_reaches_another_device(
    server: CalDavServer, devices: tuple[Device, Device]
) -> None:
    a, b = devices
    client = server.client()
    client.put(a.mapping.remote_url + "linked-1.ics", LINKED, {"Content-Type": "text/calendar"})  # type: ignore[attr-defined]
    assert a.sync().pulled == 1  # type: ignore[attr-defined]
    assert link_on(a, "linked-1") == LINK
    (occ,) = QueryService(a.store, a.profile_id, TimeContext(now=NOW, tz=SHANGHAI)).between(
        datetime(2026, 12, 2, tzinfo=SHANGHAI), datetime(2026, 12, 3, tzinfo=SHANGHAI)
    )
    a.edit.replace("linked-1", EventDraft("Review 2", occ.start, occ.end, a.calendar_id, url=link_on(a, "linked-1")))
    assert a.sync().pushed == 1  # type: ignore[attr-defined]
    assert b.sync().pulled == 1  # type: ignore[attr-defined]
    assert link_on(b, "linked-1") == LINK and b.titles() == {"Review 2"}
