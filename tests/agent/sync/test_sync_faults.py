"""Server failures during a sync, through a loopback proxy in front of a real Radicale.

Each test here is a defect found by hand (issue 19): the proxy breaks exactly the requests
that broke then, and the test checks that nothing local was lost, the failure was said, and
one clean sync afterwards brings the store back to what the server holds. The full matrix
of request kinds and faults is ``test_sync_fault_matrix.py``.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.agent.sync.remote_state import (
    BASE,
    ServerSide,
    device_behind,
    local_instances,
    local_uids,
    token_of,
)
from tests.support.caldav_server import CalDavServer, Device
from tests.support.fault_proxy import Fault, FaultProxy
from tests.support.servers import free_port


def test_a_502_on_every_fetch_of_a_pull_deletes_nothing_and_keeps_the_token(
    server: CalDavServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    """The issue's run: multiget and its GET fallbacks answer 502 while 12 changes come in."""
    side = ServerSide(server)
    uids = side.seed(12)
    device = device_behind(proxy, server, side, tmp_path / "a.sqlite3")
    assert device.engine.run().errors == []
    before, token = local_instances(device), token_of(device)
    for index, uid in enumerate(uids):
        side.put(uid, f"edited {index}", BASE + timedelta(days=index), weekly=index == 0)

    proxy.inject(Fault(frozenset({"multiget", "GET"}), "502"))
    report = device.engine.run()
    assert proxy.hits, "the fault was on the path the pull took"
    assert local_instances(device) == before, "a failed fetch is not a deletion"
    assert report.errors and all("502" in p.message for p in report.errors)
    assert token_of(device) == token, "the token does not move past what could not be fetched"

    proxy.inject(None)
    report = device.engine.run()
    assert (report.errors, report.pulled) == ([], 12)
    assert local_instances(device) == side.instances()
    device.close()


def test_one_edited_event_whose_fetch_fails_stays(server: CalDavServer, proxy: FaultProxy, tmp_path: Path) -> None:
    side = ServerSide(server)
    uids = side.seed(3)
    device = device_behind(proxy, server, side, tmp_path / "a.sqlite3")
    device.engine.run()
    side.put(uids[1], "moved to Friday", BASE + timedelta(days=4))
    for mode in ("500", "503", "garbage", "truncated"):
        proxy.inject(Fault(frozenset({"multiget", "GET"}), mode))
        report = device.engine.run()
        assert local_uids(device) == sorted(uids), mode
        assert report.errors, f"{mode} is reported"
    proxy.inject(None)
    assert device.engine.run().errors == []
    assert local_instances(device) == side.instances()
    assert "moved to Friday" in device.titles()
    device.close()


def test_a_server_that_dies_mid_push_is_one_error_per_calendar(server: CalDavServer, proxy: FaultProxy, tmp_path: Path) -> None:
    """197 lines of 'could not upload' for one dead server before: one per synced calendar now."""
    side = ServerSide(server)
    side.seed(0)
    device = device_behind(proxy, server, side, tmp_path / "a.sqlite3")
    for index in range(15):
        device.add(f"offline {index}", BASE + timedelta(days=index), BASE + timedelta(days=index, hours=1))
    proxy.inject(Fault(frozenset({"PUT", "DELETE", "GET", "multiget"}), "drop"))
    report = device.engine.run()
    assert len(report.errors) == 1, [str(p) for p in report.errors]
    (problem,) = report.errors
    assert (problem.uid, problem.calendar, report.pushed) == (None, "Work", 0)
    proxy.inject(None)
    assert device.engine.run().pushed == 15
    assert local_instances(device) == side.instances()
    device.close()


def test_a_server_that_is_down_is_one_line_per_calendar(server: CalDavServer, tmp_path: Path) -> None:
    side = ServerSide(server)
    side.seed(0)
    device = Device(server, side.url, tmp_path / "a.sqlite3")
    device.add("offline", BASE, BASE + timedelta(hours=1))
    dead = f"http://127.0.0.1:{free_port()}/"
    with device.store.transaction() as conn:
        conn.execute("UPDATE sync_accounts SET url = ?", (dead,))
        conn.execute("UPDATE sync_calendars SET remote_url = replace(remote_url, ?, ?)", (server.url, dead))
    device.secrets.put(dead, server.user, server.password)
    (problem,) = device.engine.run().errors
    assert problem.uid is None and problem.calendar == "Work" and "connection refused" in problem.message
    assert "\n" not in problem.message and len(problem.message) < 120, problem.message
    device.close()
