"""Issue 29 against an honest Radicale: what sync lost or showed without any attack.

* An event moved here to an unsynced calendar and edited there, while the server's copy
  was edited too: the local version was overwritten by the server's and the conflict said
  "here: (deleted)" — the user's version was kept nowhere.
* Moving an event between two synced calendars of one account must delete before it
  creates, whichever calendar syncs first (Cyrus and iCloud refuse a UID twice in an account).
* An account URL with a password in it was stored and printed.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.sync.accounts import RemoteInfo, split_credentials
from tests.agent.sync.hostile import HostileServer
from tests.agent.sync.remote_state import BASE, ServerSide
from tests.support.caldav_server import CalDavServer, Device


def _calendar(device: Device, name: str) -> int:
    from agent.services.calendars import CalendarService

    return CalendarService(device.store, device.profile_id).add(name).id


def test_an_event_moved_to_an_unsynced_calendar_and_edited_keeps_the_local_version(server: CalDavServer, tmp_path: Path) -> None:
    side = ServerSide(server)
    uids = side.seed(2)
    device = Device(server, side.url, tmp_path / "a.sqlite3")
    assert device.engine.run().errors == []
    private = _calendar(device, "Private")
    uid = uids[1]
    device.edit.move_to_calendar(uid, private)
    device.retitle(uid, "my private version")
    side.put(uid, "the server's version", BASE + timedelta(days=1))

    report = device.engine.run()
    row = device.store.conn.execute("SELECT calendar_id, title FROM events WHERE uid = ?", (uid,)).fetchone()
    assert (row["calendar_id"], row["title"]) == (private, "my private version"), "the local version stays where the user put it"
    (conflict,) = device.engine.conflicts()
    assert conflict.uid == uid and conflict.local_ics is not None, "not 'here: (deleted)': the event exists here"
    assert "my private version" in conflict.local_ics and "the server's version" in (conflict.server_ics or "")
    assert report.new_conflicts == 1
    assert "the server's version" in str(side.resources()), "nothing was written over on the server either"
    device.close()


def test_moving_between_two_synced_calendars_deletes_before_it_creates(server: CalDavServer, tmp_path: Path) -> None:
    """The event moves from the calendar that syncs second to the one that syncs first."""
    work, home = ServerSide(server), ServerSide(server)
    work.seed(0)
    uids = home.seed(2, prefix="home")
    logger = HostileServer(server.url)  # no attack: it only records the order of requests
    try:
        via = dataclasses.replace(server, url=logger.url)
        device = Device(via, work.url.replace(server.url, logger.url), tmp_path / "a.sqlite3")
        account = device.engine.accounts.get("home")
        home_mapping = device.engine.accounts.map(
            account, RemoteInfo(home.url.replace(server.url, logger.url), "Home", ("VEVENT",)), "Home"
        )
        assert device.engine.run().errors == []
        device.edit.move_to_calendar(uids[1], device.calendar_id)
        logger.arm(None)
        report = device.engine.run()
        assert report.errors == []
        writes = [(r.method, r.path) for r in logger.log if r.method in ("PUT", "DELETE")]
        assert [method for method, _ in writes] == ["DELETE", "PUT"], writes
        assert home_mapping.remote_url.split("/", 3)[3] in writes[0][1]
        assert (work.uids(), home.uids()) == ([uids[1]], [uids[0]])
        assert device.engine.run().to_json()["errors"] == []
        device.close()
    finally:
        logger.close()


def test_a_password_in_the_account_url_is_never_stored_or_shown(
    server: CalDavServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RICHENG_CALDAV_KEYRING", "0")
    monkeypatch.delenv("RICHENG_CALDAV_PASSWORD", raising=False)
    db = tmp_path / "a.sqlite3"
    host = server.url.split("//", 1)[1]
    url = f"http://{server.user}:correct%20horse@{host}"
    assert split_credentials(url) == (server.url, server.user, server.password)

    code = main(["--db", str(db), "--json", "sync", "add-account", url, "--user", server.user])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["url"] == server.url, "the password in the URL was the password"
    assert main(["--db", str(db), "sync", "accounts"]) == 0
    listed = capsys.readouterr().out
    assert server.url in listed
    files = [path.read_bytes().decode("latin-1") for path in tmp_path.glob("a.sqlite3*")]
    for shown in (out.out, out.err, listed, *files):
        assert "correct" not in shown, "the password is nowhere to be read"
