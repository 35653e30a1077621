"""New and edited events carry one zone name on a UTC system (issue 15).

A UTC machine reports its zone as ``Etc/UTC`` (``/etc/localtime``) while the editor offers
``UTC``: a new event used to be stored with ``Etc/UTC`` and the same event edited with
``UTC``. Both now read ``UTC``.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.services.calendars import CalendarService
from agent.services.editing import EditService, EventDraft
from agent.store.components import zone_name
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.timesym import context


@pytest.mark.parametrize("alias", ["Etc/UTC", "UTC", "Etc/Universal", "Zulu", "UCT"])
def test_every_utc_alias_is_stored_as_utc(alias: str) -> None:
    assert zone_name(datetime(2026, 12, 1, 9, tzinfo=ZoneInfo(alias))) == "UTC"
    assert context.load_zone(alias).key == "UTC"


def test_other_zones_keep_their_names() -> None:
    assert zone_name(datetime(2026, 12, 1, 9, tzinfo=ZoneInfo("Asia/Shanghai"))) == "Asia/Shanghai"
    assert zone_name(datetime(2026, 12, 1, 9, tzinfo=ZoneInfo("Europe/London"))) == "Europe/London"


def test_system_zone_etc_utc_reads_as_utc(monkeypatch: pytest.MonkeyPatch) -> None:
    import tzlocal

    monkeypatch.setattr(tzlocal, "get_localzone_name", lambda: "Etc/UTC")
    assert context.system_zone_name() == "UTC"


def test_created_then_edited_event_keep_one_zone_name(file_store: Store) -> None:
    profile_id = ensure_profile(file_store)
    calendar = CalendarService(file_store, profile_id).default().id
    edits = EditService(file_store, profile_id)
    system = ZoneInfo("Etc/UTC")  # what a new event got from a UTC system's zone
    created = edits.create(
        EventDraft("Standup", datetime(2026, 12, 1, 9, tzinfo=system), datetime(2026, 12, 1, 10, tzinfo=system), calendar)
    )
    uid = created.created[0].uid
    (tzid,) = file_store.conn.execute("SELECT tzid FROM events WHERE uid = ?", (uid,)).fetchone()
    assert tzid == "UTC"
    editor = ZoneInfo("UTC")  # what the editor's zone list hands back
    edits.replace(
        uid, EventDraft("Standup!", datetime(2026, 12, 1, 9, tzinfo=editor), datetime(2026, 12, 1, 10, tzinfo=editor), calendar)
    )
    (again,) = file_store.conn.execute("SELECT tzid FROM events WHERE uid = ?", (uid,)).fetchone()
    assert again == tzid == "UTC"
