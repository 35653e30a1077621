"""Issue 23, defect 8: ``--now`` without an offset meant two things.

The app read ``--now 2026-12-01T10:00`` as the machine's local time (on a UTC machine: UTC,
so with ``--tz Asia/Shanghai`` its now-line and undo stamps said 18:00), the CLI as wall
time in ``--tz``. Both now call ``agent.timesym.pretend_now.read_now``: an offset-less value is
wall time in the zone the program runs in (``--tz``, else the zone in Settings, which is
the machine's unless changed); a value with an offset (or ``Z``) is that instant.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from agent.timesym.pretend_now import NowError, read_now

SHANGHAI = ZoneInfo("Asia/Shanghai")
TEN_IN_SHANGHAI = datetime(2026, 12, 1, 10, 0, tzinfo=SHANGHAI)


def test_read_now_one_reading() -> None:
    assert read_now("2026-12-01T10:00", SHANGHAI) == TEN_IN_SHANGHAI
    assert read_now("2026-12-01T10:00", SHANGHAI).utcoffset() is not None
    assert read_now("2026-12-01T02:00Z", SHANGHAI) == TEN_IN_SHANGHAI  # an instant stays that instant
    assert read_now("2026-12-01T10:00+08:00", ZoneInfo("UTC")) == TEN_IN_SHANGHAI
    assert read_now(" 2026-12-01T10:00 ", SHANGHAI) == TEN_IN_SHANGHAI
    # The DST rule of the zone: 02:30 on the spring-forward day in New York is 03:30 EDT.
    spring = read_now("2026-03-08T02:30", ZoneInfo("America/New_York"))
    assert spring.astimezone(UTC) == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)


@pytest.mark.parametrize("value", ["next tuesday", "2026-13-40T10:00", "", "9999-12-31T00:00", "0001-01-01T00:00"])
def test_read_now_refuses_in_one_line(value: str) -> None:
    with pytest.raises(NowError) as caught:
        read_now(value, SHANGHAI)
    assert "--now" in str(caught.value) and "\n" not in str(caught.value)
    assert "--now" in caught.value.text("zh")


def _cli_session(db: Path, *extra: str) -> Any:
    from agent.cli.common import Session
    from agent.cli.main import build_parser

    args = build_parser().parse_args(["--db", str(db), *extra, "time", "resolve", "D+0"])
    return Session(args)


def _app_now(db: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[datetime, datetime]:
    """(the window's now, the store's clock) of ``richeng --offscreen --db db *extra``."""
    from app import application
    from app.main_window import MainWindow
    from app.settings import holiday_choice

    seen: list[tuple[datetime, datetime]] = []
    monkeypatch.setattr(holiday_choice, "open_question", lambda *a, **k: None)
    monkeypatch.setattr(MainWindow, "show", lambda self: seen.append((self.ctx.now(), self.ctx.store.clock())))
    assert application.run(["--db", str(db), "--offscreen", "--quit-after", "30", *extra]) == 0
    assert len(seen) == 1
    return seen[0]


def test_app_and_cli_read_the_same_instant_with_tz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: Any) -> None:
    db = tmp_path / "now.sqlite3"
    options = ("--now", "2026-12-01T10:00", "--tz", "Asia/Shanghai")
    session = _cli_session(db, *options)
    cli_now, cli_clock = session.ctx.now, session.store.clock()
    session.store.close()
    app_now, app_clock = _app_now(db, monkeypatch, *options)
    assert cli_now == cli_clock == app_now == app_clock == TEN_IN_SHANGHAI
    assert app_now.astimezone(SHANGHAI).hour == 10  # the now-line's hour, not 18


def test_without_tz_both_read_the_zone_in_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: Any) -> None:
    from agent.services.settings import SettingsService
    from agent.store.db import Store
    from agent.store.profiles import ensure_profile

    db = tmp_path / "zone.sqlite3"
    store = Store(db)
    settings = SettingsService(store, ensure_profile(store))
    settings.set("timezone", "Asia/Shanghai")
    settings.set("holiday_country", "CN")
    store.close()
    session = _cli_session(db, "--now", "2026-12-01T10:00")
    cli_now = session.ctx.now
    session.store.close()
    app_now, app_clock = _app_now(db, monkeypatch, "--now", "2026-12-01T10:00")
    assert cli_now == app_now == app_clock == TEN_IN_SHANGHAI


def test_the_app_refuses_a_bad_now_or_tz_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app import application

    assert application.run(["--offscreen", "--db", str(tmp_path / "x.sqlite3"), "--now", "9999-12-31T00:00"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--now" in err
    assert application.run(["--offscreen", "--db", str(tmp_path / "x.sqlite3"), "--tz", "Mars/Olympus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Mars/Olympus" in err
