"""The app's sync controller and conflict dialog, against a real Radicale on 127.0.0.1.

The controller runs the engine on a worker thread; the test waits on its signals the way
the window's status bar would, and checks the server and the other device for the result.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from agent.sync.accounts import sync_interval_minutes
from app.sync.sync_conflict_dialog import SyncConflictDialog
from app.sync.sync_controller import SyncController
from tests.support.caldav_server import CalDavServer, Device, running_radicale
from tests.support.clock import SHANGHAI

WAIT_MS = 30_000


@pytest.fixture(scope="module")
def server() -> Iterator[CalDavServer]:
    with running_radicale() as running:
        yield running


@pytest.fixture
def pair(server: CalDavServer, tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    url = server.new_calendar("Home")
    a = Device(server, url, tmp_path / "app.sqlite3", calendar="Home")
    b = Device(server, url, calendar="Home")
    yield a, b
    a.close()
    b.close()


def test_sync_button_runs_off_the_ui_thread_and_reports_in_the_status_bar(qtbot, pair) -> None:  # type: ignore[no-untyped-def]
    app_device, other = pair
    controller = SyncController(app_device.store, app_device.profile_id, secrets=app_device.secrets)
    assert controller.status() == "Not synced yet"
    statuses: list[str] = []
    controller.status_changed.connect(statuses.append)
    app_device.add("体检 check-up", datetime(2026, 12, 9, 8, tzinfo=SHANGHAI), datetime(2026, 12, 9, 9, tzinfo=SHANGHAI))
    other.add("From the phone", datetime(2026, 12, 10, 8, tzinfo=SHANGHAI), datetime(2026, 12, 10, 9, tzinfo=SHANGHAI))
    other.sync()

    changed = []
    controller.events_changed.connect(changed.append)
    with qtbot.waitSignal(controller.finished, timeout=WAIT_MS) as done:
        controller.sync_now()
        assert controller.is_busy()
        controller.sync_now()  # a second click while running is not queued
    report = done.args[0]
    assert (report.pulled, report.pushed, report.errors) == (1, 1, [])
    assert any(text.startswith("Syncing") for text in statuses)
    assert len(changed) == 1 and changed[0].created, "views are told what the pull wrote"
    assert "1 in, 1 out" in controller.status()
    assert not controller.is_busy()
    assert other.sync().pulled == 1 and "体检 check-up" in other.titles()
    assert controller.shutdown()


def test_periodic_sync_setting_drives_the_timer(qtbot, pair) -> None:  # type: ignore[no-untyped-def]
    device, _ = pair
    controller = SyncController(device.store, device.profile_id, secrets=device.secrets)
    assert not controller.timer_active()
    controller.set_interval_minutes(15)
    assert controller.timer_active() and controller.interval_minutes() == 15
    assert sync_interval_minutes(device.store, device.profile_id) == 15
    again = SyncController(device.store, device.profile_id, secrets=device.secrets)
    assert again.timer_active(), "the setting outlives the controller"
    with qtbot.waitSignal(again.finished, timeout=WAIT_MS):
        again._timer.timeout.emit()  # a tick of the periodic timer runs a sync
    controller.set_interval_minutes(0)
    assert not controller.timer_active()
    again.shutdown()


def test_conflict_dialog_shows_both_versions_and_the_choice_is_written(qtbot, pair) -> None:  # type: ignore[no-untyped-def]
    app_device, other = pair
    start = datetime(2026, 12, 12, 16, tzinfo=SHANGHAI)
    uid = app_device.add("Piano lesson", start, start.replace(hour=17))
    app_device.sync()
    other.sync()
    app_device.retitle(uid, "Piano lesson (room 2)")
    other.retitle(uid, "Piano lesson (cancelled?)")
    other.sync()

    controller = SyncController(app_device.store, app_device.profile_id, secrets=app_device.secrets)
    counts: list[int] = []
    controller.conflicts_changed.connect(counts.append)
    with qtbot.waitSignal(controller.finished, timeout=WAIT_MS):
        controller.sync_now()
    assert counts == [1]
    assert "1 conflicts to resolve" in controller.status()
    (conflict,) = controller.conflicts()

    dialog = SyncConflictDialog(conflict)
    qtbot.addWidget(dialog)
    assert "Piano lesson (room 2)" in dialog.texts(dialog.local_box)
    assert "Piano lesson (cancelled?)" in dialog.texts(dialog.server_box)
    with qtbot.waitSignal(dialog.chosen) as picked:
        dialog.keep_local.click()
    assert picked.args == ["local"]

    with qtbot.waitSignal(controller.resolved, timeout=WAIT_MS) as settled:
        controller.resolve(conflict.id, picked.args[0])
    assert settled.args == [conflict.id] and counts == [1, 0]
    assert other.sync().pulled == 1 and other.titles() == {"Piano lesson (room 2)"}
    controller.shutdown()

    later = SyncConflictDialog(conflict)
    qtbot.addWidget(later)
    with qtbot.waitSignal(later.chosen) as closed:
        later.reject()
    assert closed.args == [""]
