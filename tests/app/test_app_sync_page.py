"""Settings → Sync against a real Radicale on 127.0.0.1: set up an account inside the app.

The page tests the connection on a pool thread (the UI stays live), words failures for
people, saves the account the way ``richeng sync add-account`` does (password to the
secrets store, not the database), maps the ticked remote calendars, and stores the
interval; a sync from the controller then pulls the server's events.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtWidgets import QApplication

from agent.services.calendars import CalendarService
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.sync.accounts import AccountService, sync_interval_minutes
from agent.sync.secrets import MemorySecrets, keyring_user
from app.settings.settings_dialog import SettingsDialog
from app.settings.sync_page import NEW_CALENDAR, SyncPage
from app.sync.sync_controller import SyncController
from tests.support.caldav_server import CalDavServer, Device, running_radicale
from tests.support.clock import SHANGHAI
from tests.support.servers import free_port

WAIT_MS = 30_000
SHOTS = Path("/tmp/shots")


@pytest.fixture(scope="module")
def server() -> Iterator[CalDavServer]:
    with running_radicale() as running:
        yield running


@pytest.fixture
def app(tmp_path: Path, qapp: QApplication):  # type: ignore[no-untyped-def]
    from app.application import build_context

    store = Store(tmp_path / "app.sqlite3")
    ctx = build_context(store, ensure_profile(store), tz="Asia/Shanghai", now=datetime(2026, 11, 30, 10, tzinfo=SHANGHAI))
    yield ctx, MemorySecrets()
    store.close()


def _page(qtbot: Any, ctx: Any, secrets: MemorySecrets) -> SyncPage:
    page = SyncPage(ctx, None, secrets)
    qtbot.addWidget(page)
    page.resize(600, 420)
    page.show()
    return page


def _fill(page: SyncPage, url: str, user: str, password: str) -> None:
    page.url.setText(url)
    page.user.setText(user)
    page.password.setText(password)


def test_wrong_password_is_said_in_plain_words_without_blocking(qtbot, app, server) -> None:  # type: ignore[no-untyped-def]
    ctx, secrets = app
    page = _page(qtbot, ctx, secrets)
    _fill(page, server.url, server.user, "wrong")
    with qtbot.waitSignal(page.tested, timeout=WAIT_MS) as done:
        page.test_connection()
        assert page.busy() and not page.test_button.isEnabled(), "the test runs off the UI thread"
        assert page.validate() == "Wait for the connection test to finish."
    assert done.args == [False]
    assert page.status.text() == "The server refused the user name or password."
    assert "Traceback" not in page.status.toolTip()
    assert page.test_button.isEnabled() and AccountService(ctx.store, ctx.profile_id, secrets).list() == []


def test_unreachable_server_and_a_bad_address(qtbot, app) -> None:  # type: ignore[no-untyped-def]
    ctx, secrets = app
    page = _page(qtbot, ctx, secrets)
    _fill(page, f"http://127.0.0.1:{free_port()}/", "alice", "pw")
    with qtbot.waitSignal(page.tested, timeout=WAIT_MS):
        page.test_connection()
    assert page.status.text().startswith("Cannot reach the server.")
    page.url.setText("cal.example.com")
    page.test_connection()
    assert "must start with https://" in page.status.text() and not page.busy()
    assert "must start with https://" in (page.validate() or "")


def test_set_up_an_account_map_a_calendar_and_sync(qtbot, app, server) -> None:  # type: ignore[no-untyped-def]
    ctx, secrets = app
    family = server.new_calendar("Family")
    phone = Device(server, family, calendar="Family")
    phone.add("Grandma's birthday", datetime(2026, 12, 6, 12, tzinfo=SHANGHAI), datetime(2026, 12, 6, 14, tzinfo=SHANGHAI))
    phone.sync()

    dialog = SettingsDialog(ctx, None, secrets)
    qtbot.addWidget(dialog)
    page = dialog.sync
    dialog.tabs.setCurrentWidget(page)
    dialog.resize(640, 560)
    dialog.show()
    _fill(page, server.url, server.user, server.password)
    with qtbot.waitSignal(page.tested, timeout=WAIT_MS) as done:
        page.test_button.click()
    assert done.args == [True] and page.status.text().startswith("Connected.")
    ((info, tick, target),) = [row for row in page.rows if row[0].url.rstrip("/") == family.rstrip("/")]
    assert not tick.isChecked() and target.currentData() == NEW_CALENDAR
    tick.setChecked(True)
    page.interval.setValue(30)
    if os.environ.get("RICHENG_SHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(SHOTS / "settings-sync.png"))
    dialog.save_button.click()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted, dialog.error.text()
    assert {"sync_account", "sync_calendars", "sync_interval_minutes"} <= set(dialog.changed_keys)

    (account,) = AccountService(ctx.store, ctx.profile_id, secrets).list()
    assert (account.url, account.username) == (server.url, server.user)
    assert secrets.passwords[keyring_user(server.url, server.user)] == server.password
    assert server.password not in str(list(ctx.store.conn.execute("SELECT * FROM sync_accounts").fetchall()[0]))
    (mapping,) = AccountService(ctx.store, ctx.profile_id, secrets).mappings(account)
    assert mapping.calendar_name == "Family" and "Family" in [c.name for c in CalendarService(ctx.store, ctx.profile_id).list()]
    assert sync_interval_minutes(ctx.store, ctx.profile_id) == 30

    controller = SyncController(ctx.store, ctx.profile_id, secrets=secrets)
    assert controller.timer_active()
    with qtbot.waitSignal(controller.finished, timeout=WAIT_MS) as synced:
        controller.sync_now()
    assert synced.args[0].pulled == 1
    titles = [row[0] for row in ctx.store.conn.execute("SELECT title FROM events")]
    assert titles == ["Grandma's birthday"]
    controller.shutdown()
    phone.close()

    again = _page(qtbot, ctx, secrets)  # reopened: the saved account and its calendar show
    assert again.url.text() == server.url and again.password.text() == ""
    assert again.password.placeholderText() == "Saved in the system keyring"
    assert [(info.name, tick.isChecked()) for info, tick, _t in again.rows] == [("Family", True)]
    assert again.save() == [], "saving an untouched page changes nothing"


def test_unticking_stops_syncing_and_keeps_local_events(qtbot, app, server) -> None:  # type: ignore[no-untyped-def]
    ctx, secrets = app
    work = server.new_calendar("Work")
    page = _page(qtbot, ctx, secrets)
    _fill(page, server.url, server.user, server.password)
    with qtbot.waitSignal(page.tested, timeout=WAIT_MS):
        page.test_connection()
    ((_info, tick, _target),) = [row for row in page.rows if row[0].url.rstrip("/") == work.rstrip("/")]
    tick.setChecked(True)
    page.save()
    accounts = AccountService(ctx.store, ctx.profile_id, secrets)
    assert len(accounts.mappings()) == 1
    page2 = _page(qtbot, ctx, secrets)
    with qtbot.waitSignal(page2.tested, timeout=WAIT_MS):
        page2.test_connection()  # the saved password is used when the field is empty
    ((_i, tick2, _t),) = [row for row in page2.rows if row[0].url.rstrip("/") == work.rstrip("/")]
    assert tick2.isChecked()
    tick2.setChecked(False)
    assert page2.save() == ["sync_calendars"] and accounts.mappings() == []
    assert "Work" in [c.name for c in CalendarService(ctx.store, ctx.profile_id).list()]
