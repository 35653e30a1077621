"""Every bad argument is one line on stderr and exit 2, never "internal error": undecodable
bytes, NUL, absurd lengths, a --tz longer than a file name, names and titles over their cap
(the message states the cap). Nothing is written for a refused argument."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.services.text import MAX_ARGUMENT, MAX_CALENDAR_NAME, MAX_TITLE, clean_title

BAD = "\udcff\udcfe"  # what Python makes of the bytes ff fe in argv (surrogateescape)
BASE = ["--tz", "Asia/Shanghai", "--now", "2026-12-01T08:00+08:00"]


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    db = tmp_path / "richeng.sqlite3"

    def _run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", str(db), *BASE, *args])
        out, err = capsys.readouterr()
        return code, out, err

    _run("calendars", "list")  # the store exists: a refused argument must not change it
    return _run


def one_line_exit_2(code: int, err: str) -> str:
    assert code == 2, err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "internal error" not in err and "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "add", BAD],
        ["calendars", "add", BAD],
        ["memory", "search", BAD],
        ["events", "add", "--title", "x", "--date", BAD],
        ["events", "add", "--title", "x", "--date", "D+1", "--time", BAD],
        ["events", "add", "--title", "x", "--date", "D+1", "--time", "10:00", "--end", BAD],
        ["events", "add", "--title", BAD, "--date", "D+1"],
        ["events", "list", "--start", "D+0", "--end", "D+1", "--calendar", BAD],
        ["events", "list", "--start", BAD, "--end", "D+1"],
        ["chat", BAD],
        ["import", BAD],
        ["time", "resolve", BAD],
        ["--tz", BAD, "calendars", "list"],
        ["--db", BAD, "calendars", "list"],
    ],
)
def test_undecodable_argument_is_one_line(run, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    err = one_line_exit_2(*run(*args)[::2])
    assert "not valid UTF-8" in err


@pytest.mark.parametrize(
    "args", [["memory", "add", "a\x00b"], ["calendars", "add", "x\x00"], ["events", "add", "--title", "t\x00", "--date", "D+1"]]
)
def test_nul_is_refused(run, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    assert "NUL" in one_line_exit_2(*run(*args)[::2])


def test_a_tz_longer_than_a_file_name(run) -> None:  # type: ignore[no-untyped-def]
    err = one_line_exit_2(*run("--tz", "A" * 300, "calendars", "list")[::2])
    assert "IANA" in err and len(err) < 300
    err = one_line_exit_2(*run("--tz", "Asia/" + "A" * 250, "calendars", "list")[::2])
    assert "time zone" in err


def test_a_huge_calendar_name_is_refused_with_the_limit(run) -> None:  # type: ignore[no-untyped-def]
    err = one_line_exit_2(*run("calendars", "add", "名" * (1 << 20))[::2])
    assert "too long" in err and str(MAX_ARGUMENT) in err and len(err) < 300
    err = one_line_exit_2(*run("calendars", "add", "名" * (MAX_CALENDAR_NAME + 1))[::2])
    assert f"at most {MAX_CALENDAR_NAME}" in err
    code, out, _ = run("--json", "calendars", "list")
    assert code == 0 and "名名" not in out
    code, _, err = run("calendars", "add", "名" * MAX_CALENDAR_NAME)
    assert code == 0, err


def test_an_over_long_title_is_refused_with_the_limit(run) -> None:  # type: ignore[no-untyped-def]
    err = one_line_exit_2(*run("events", "add", "--title", "t" * (MAX_TITLE + 1), "--date", "D+1", "--time", "10:00")[::2])
    assert f"at most {MAX_TITLE}" in err
    code, out, _ = run("--json", "events", "list", "--start", "D+0", "--end", "D+7")
    assert code == 0 and out.strip() == "[]"


def test_real_undecodable_bytes_through_the_console_script(tmp_path: Path) -> None:
    """End to end: bytes the OS hands over, decoded by the interpreter, not a test's string."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"), PYTHONUTF8="1")
    done = subprocess.run(
        [sys.executable, "-m", "agent.cli.main", "--db", os.fsencode(tmp_path / "r.sqlite3"), "memory", "add", b"\xff\xfe"],
        capture_output=True,
        env=env,
        cwd=Path(__file__).resolve().parents[3],
        timeout=120,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and "not valid UTF-8" in err and err.count("\n") == 1, err


def test_clean_title_mends_what_it_is_handed() -> None:
    assert clean_title("a\x00b\tc\n d") == "ab c d"
    cut = clean_title("x" * 500)
    assert len(cut) == MAX_TITLE and cut.endswith("…")
    assert clean_title("会议") == "会议"
    assert clean_title("\udcff ok") == "\ufffd ok"
    assert clean_title("gpj\u202e.exe 👨\u200d👩\u200d👧") == "gpj.exe 👨\u200d👩\u200d👧"  # bidi override out, joiners kept
