"""``richeng sync`` against a real Radicale: accounts, mapping, run, conflicts, resolve.

Two database files play two devices. The keyring is switched off (``RICHENG_CALDAV_KEYRING=0``)
so the test can never touch or prompt for a desktop wallet; the password comes from stdin
when the account is added and from ``RICHENG_CALDAV_PASSWORD`` when syncing.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.services.editing import EditService, EventDraft
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.caldav_server import CalDavServer, running_radicale
from tests.support.clock import SHANGHAI


@pytest.fixture(scope="module")
def server() -> Iterator[CalDavServer]:
    with running_radicale() as running:
        yield running


@pytest.fixture(autouse=True)
def _no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RICHENG_CALDAV_KEYRING", "0")
    monkeypatch.delenv("RICHENG_CALDAV_PASSWORD", raising=False)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def retitle(db: Path, calendar: str, title: str, new_title: str | None = None) -> str:
    """Create (or retitle) an event in ``db`` the way the editor does; returns its UID."""
    from datetime import datetime

    store = Store(db)
    try:
        pid = ensure_profile(store)
        edit = EditService(store, pid)
        cal_id = store.conn.execute("SELECT id FROM calendars WHERE name = ?", (calendar,)).fetchone()[0]
        start, end = datetime(2026, 12, 7, 9, tzinfo=SHANGHAI), datetime(2026, 12, 7, 10, tzinfo=SHANGHAI)
        row = store.conn.execute("SELECT uid FROM events WHERE title = ?", (title,)).fetchone()
        if row is None:
            return edit.create(EventDraft(title, start, end, cal_id)).created[0].uid
        edit.replace(row["uid"], EventDraft(new_title or title, start, end, cal_id))
        return str(row["uid"])
    finally:
        store.close()


def test_sync_commands_end_to_end(
    server: CalDavServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    remote = server.new_calendar("Team 团队")
    laptop, phone = str(tmp_path / "laptop.sqlite3"), str(tmp_path / "phone.sqlite3")

    # A wrong password is refused on one line and leaves no account behind.
    monkeypatch.setattr("sys.stdin", io.StringIO("wrong\n"))
    code, out, err = cli(capsys, "--db", laptop, "sync", "add-account", server.url, "--user", server.user, "--password-stdin")
    assert code == 2 and err.count("\n") == 1 and "password" in err
    assert json.loads(cli(capsys, "--db", laptop, "--json", "sync", "accounts")[1]) == []

    monkeypatch.setattr("sys.stdin", io.StringIO(server.password + "\n"))
    code, out, err = cli(
        capsys, "--db", laptop, "--json", "sync", "add-account", server.url, "--user", server.user,
        "--name", "home", "--password-stdin", "--map", "Team 团队=工作",
    )  # fmt: skip
    assert code == 0, err
    added = json.loads(out)
    assert added["password_stored"] is False  # keyring off: the user is told to use the env var
    assert {"name": "Team 团队", "mapped_to": "工作"}.items() <= next(c for c in added["calendars"] if c["url"] == remote).items()

    monkeypatch.setenv("RICHENG_CALDAV_PASSWORD", server.password)
    standup = retitle(Path(laptop), "工作", "Standup")
    code, out, _ = cli(capsys, "--db", laptop, "sync", "run", "--json")
    assert code == 0 and json.loads(out) == {"pulled": 0, "pushed": 1, "conflicts": 0, "new_conflicts": 0, "errors": []}

    monkeypatch.setattr("sys.stdin", io.StringIO(server.password + "\n"))
    code, out, _ = cli(
        capsys, "--db", phone, "sync", "add-account", server.url, "--user", server.user, "--password-stdin",
        "--map", remote,
    )  # fmt: skip
    assert code == 0 and "→ Team 团队" in out
    code, out, _ = cli(capsys, "--db", phone, "sync", "run")
    assert code == 0 and out.startswith("pulled 1, pushed 0, conflicts 0, errors 0")

    # Both devices change the same event: the second to sync gets a conflict to settle.
    retitle(Path(laptop), "工作", "Standup", "Standup (laptop)")
    retitle(Path(phone), "Team 团队", "Standup", "Standup (phone)")
    assert cli(capsys, "--db", laptop, "sync", "run")[0] == 0
    code, out, _ = cli(capsys, "--db", phone, "sync", "run", "--json")
    assert json.loads(out)["conflicts"] == 1
    code, out, _ = cli(capsys, "--db", phone, "sync", "conflicts")
    assert "here:   Standup (phone)" in out and "server: Standup (laptop)" in out and "--keep local|server" in out
    (listed,) = json.loads(cli(capsys, "--db", phone, "sync", "conflicts", "--json")[1])
    assert listed["uid"] == standup and listed["local"]["title"] == "Standup (phone)"
    code, out, _ = cli(capsys, "--db", phone, "sync", "resolve", str(listed["id"]), "--keep", "server")
    assert code == 0 and "kept the server version" in out
    assert cli(capsys, "--db", phone, "sync", "conflicts")[1].strip() == "(no sync conflicts)"
    code, out, _ = cli(capsys, "--db", phone, "--json", "sync", "run")
    assert json.loads(out)["conflicts"] == 0

    # A password the server refuses during a run: reported per account, exit 1.
    monkeypatch.setenv("RICHENG_CALDAV_PASSWORD", "not it")
    code, out, _ = cli(capsys, "--db", phone, "sync", "run")
    assert code == 1 and "error:" in out

    accounts = json.loads(cli(capsys, "--db", phone, "--json", "sync", "accounts")[1])
    assert accounts[0]["calendars"] == [{"remote": "Team 团队", "url": remote, "local": "Team 团队"}]
    assert cli(capsys, "--db", phone, "sync", "remove-account", accounts[0]["name"])[0] == 0
