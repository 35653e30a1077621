"""The ``richeng`` command line: JSON shapes, global options, and one-line errors (exit 2)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.store.db import Store
from agent.store.migrations import known_version
from tests.support.clock import NOW_ARG as NOW

RICHENG = Path(sys.executable).with_name("richeng")
RESOLVE_KEYS = {"symbol", "kind", "start", "end", "candidates", "message"}
EVENT_KEYS = {"uid", "title", "start", "end", "all_day", "calendar", "recurrence_id"}
LISTED_KEYS = EVENT_KEYS | {"categories", "url"}  # a listing adds the fields kept only in the ICS (issue 28)
LISTED_KEYS |= {"organizer", "attendees", "status", "busy"}  # and who is invited, and what that makes of it (issue 31)
OUTCOME_KEYS = {
    "status",
    "title",
    "command_id",
    "event",
    "candidates",
    "conflicts",
    "message",
    "calendar",
    "requested_calendar",
    "calendar_fell_back",
    "deduplicated",
    "start",
    "end",
    "rejected",
    "today",
    "extras",
    "series",  # issue 13: reminder/location/notes and the series a create built
}


@pytest.fixture
def run(db_file: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """richeng --db <tmp> --now <fixed> --tz Asia/Shanghai ARGS; returns (code, stdout, stderr)."""

    def _run(*args: str, base: bool = True) -> tuple[int, str, str]:
        argv = (["--db", str(db_file), "--now", NOW, "--tz", "Asia/Shanghai"] if base else []) + list(args)
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return _run


def run_json(run, *args: str):  # type: ignore[no-untyped-def]
    code, out, err = run("--json", *args)
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def assert_one_line_error(code: int, err: str) -> None:
    assert code == 2
    assert err.endswith("\n") and err.count("\n") == 1 and err.strip(), repr(err)
    assert "Traceback" not in err


# ---- time -------------------------------------------------------------------------------------


def test_time_resolve_shape(run) -> None:  # type: ignore[no-untyped-def]
    payload = run_json(run, "time", "resolve", "D+1", "WE", "M+1", "D+1T15:00", "14:00")
    assert [set(item) for item in payload] == [RESOLVE_KEYS] * 5
    d1, we, m1, instant, bare = payload
    assert d1 == {
        "symbol": "D+1",
        "kind": "day",
        "start": "2026-12-01T00:00:00+08:00",
        "end": "2026-12-02T00:00:00+08:00",
        "candidates": ["2026-12-01"],
        "message": None,
    }
    assert we["kind"] == "days" and we["candidates"] == ["2026-12-05", "2026-12-06"]
    assert (m1["kind"], m1["start"], m1["end"]) == ("month", "2026-12-01T00:00:00+08:00", "2027-01-01T00:00:00+08:00")
    assert (instant["kind"], instant["start"]) == ("instant", "2026-12-01T15:00:00+08:00")
    assert bare["kind"] == "time"


def test_time_resolve_unknown_symbol(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("--json", "time", "resolve", "D+1", "tomorrow")
    assert_one_line_error(code, err)
    ok, bad = json.loads(out)
    assert ok["kind"] == "day"
    assert set(bad) == RESOLVE_KEYS and bad["kind"] == "error" and "D+1" in bad["message"]


def test_time_resolve_uses_tz(run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        "--now", "2026-11-30T10:00:00+08:00", "--tz", "America/New_York", "--json", "time", "resolve", "D+0", base=False
    )
    assert code == 0
    assert json.loads(out)[0]["start"] == "2026-11-29T00:00:00-05:00"


def test_time_parse(run) -> None:  # type: ignore[no-untyped-def]
    assert run_json(run, "time", "parse", "周日下午两点") == {
        "date": "W7",
        "time": "14:00",
        "resolved_date": "2026-12-06",
    }
    assert run_json(run, "time", "parse", "帮我查一下账单然后发邮件给老板") is None


# ---- events -----------------------------------------------------------------------------------


def test_events_add_and_list(run) -> None:  # type: ignore[no-untyped-def]
    created = run_json(run, "events", "add", "--title", "看牙", "--date", "D+1", "--time", "15:00", "--end", "15:45")
    assert set(created) == OUTCOME_KEYS
    assert created["status"] == "created" and set(created["event"]) == EVENT_KEYS
    assert (created["event"]["start"], created["event"]["end"]) == ("2026-12-01T15:00:00+08:00", "2026-12-01T15:45:00+08:00")
    run_json(run, "events", "add", "--title", "交房租", "--date", "D+1")
    listed = run_json(run, "events", "list", "--start", "D+1", "--end", "D+1")
    assert [set(e) for e in listed] == [LISTED_KEYS, LISTED_KEYS]
    assert [e["categories"] for e in listed] == [[], []]
    assert [(e["title"], e["all_day"], e["start"]) for e in listed] == [
        ("交房租", True, "2026-12-01"),
        ("看牙", False, "2026-12-01T15:00:00+08:00"),
    ]
    assert listed[0]["calendar"] == "日程" and listed[0]["recurrence_id"] is None
    assert run_json(run, "events", "list", "--start", "D+2", "--end", "D+3") == []


def test_events_list_calendar_filter(run) -> None:  # type: ignore[no-untyped-def]
    run_json(run, "calendars", "add", "工作")
    run_json(run, "events", "add", "--title", "周报", "--date", "D+1", "--time", "09:00", "--calendar", "工作")
    run_json(run, "events", "add", "--title", "家务", "--date", "D+1", "--time", "19:00")
    listed = run_json(run, "events", "list", "--start", "D+0", "--end", "D+6", "--calendar", "工作")
    assert [(e["title"], e["calendar"]) for e in listed] == [("周报", "工作")]


def test_events_add_conflict_then_allow_conflict(run) -> None:  # type: ignore[no-untyped-def]
    run_json(run, "events", "add", "--title", "休假", "--date", "D+1")
    first = run_json(run, "events", "add", "--title", "开会", "--date", "D+1", "--time", "14:00")
    assert first["status"] == "conflict" and [c["title"] for c in first["conflicts"]] == ["休假"]
    assert set(first["conflicts"][0]) == EVENT_KEYS
    second = run_json(run, "events", "add", "--title", "开会", "--date", "D+1", "--time", "14:00", "--allow-conflict")
    assert second["status"] == "created" and second["command_id"] == first["command_id"]
    assert len(run_json(run, "events", "list", "--start", "D+1", "--end", "D+1")) == 2
    # issue 19: the flag given up front writes at once (it printed "repeat with --allow-conflict")
    third = run_json(run, "events", "add", "--title", "电话", "--date", "D+1", "--time", "15:00", "--allow-conflict")
    assert third["status"] == "created"
    assert len(run_json(run, "events", "list", "--start", "D+1", "--end", "D+1")) == 3


def test_events_add_needs_date_and_past_and_fallback(run) -> None:  # type: ignore[no-untyped-def]
    needs = run_json(run, "events", "add", "--title", "修车", "--date", "WE")
    assert needs["status"] == "needs_date" and needs["candidates"] == ["2026-12-05", "2026-12-06"]
    past = run_json(run, "events", "add", "--title", "早会", "--date", "D+0", "--time", "09:00")
    assert past["status"] == "past_time"
    fell = run_json(run, "events", "add", "--title", "x", "--date", "D+2", "--calendar", "没有")
    assert fell["calendar_fell_back"] is True and fell["requested_calendar"] == "没有" and fell["calendar"] == "日程"


def test_events_add_repeat_is_deduplicated(run, db_file: Path) -> None:  # type: ignore[no-untyped-def]
    run_json(run, "events", "add", "--title", "面试", "--date", "D+1", "--time", "10:00")
    again = run_json(run, "events", "add", "--title", "面试", "--date", "D+1", "--time", "10:00")
    assert again["status"] == "created" and again["deduplicated"] is True
    with Store(db_file) as s:
        assert s.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1


def test_events_add_invalid_is_exit_2(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("--json", "events", "add", "--title", "x", "--date", "D+1", "--time", "10:00", "--end", "09:00")
    assert_one_line_error(code, err)
    assert json.loads(out)["status"] == "invalid"


def test_human_output(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("events", "add", "--title", "看牙", "--date", "D+1", "--time", "15:00")
    assert code == 0 and err == "" and out.startswith("created: 2026-12-01 15:00") and "看牙" in out
    code, out, _ = run("events", "list", "--start", "D+1", "--end", "D+1")
    assert code == 0 and "看牙" in out and not out.lstrip().startswith("[")
    code, out, _ = run("events", "list", "--start", "D+2", "--end", "D+2")
    assert out.strip() == "(no events)"


def test_agenda_without_command(run) -> None:  # type: ignore[no-untyped-def]
    run_json(run, "events", "add", "--title", "看牙", "--date", "D+3")
    assert [e["title"] for e in run_json(run)] == ["看牙"]


# ---- calendars, memory --------------------------------------------------------------------------


def test_calendars(run) -> None:  # type: ignore[no-untyped-def]
    assert run_json(run, "calendars", "list") == [{"name": "日程", "color": "#3b82f6", "default": True, "visible": True}]
    added = run_json(run, "calendars", "add", "工作", "--color", "#112233", "--default")
    assert added == {"name": "工作", "color": "#112233", "default": True, "visible": True}
    assert [(c["name"], c["default"]) for c in run_json(run, "calendars", "list")] == [("工作", True), ("日程", False)]
    code, _, err = run("calendars", "add", "工作")
    assert_one_line_error(code, err)
    code, _, err = run("calendars", "add", "x", "--color", "red")
    assert_one_line_error(code, err)


def test_memory(run) -> None:  # type: ignore[no-untyped-def]
    added = run_json(run, "memory", "add", "咖啡不加糖")
    assert set(added) == {"id", "text", "created_at"} and added["text"] == "咖啡不加糖"
    run_json(run, "memory", "add", "住在杭州")
    assert [m["text"] for m in run_json(run, "memory", "list")] == ["住在杭州", "咖啡不加糖"]
    assert [m["text"] for m in run_json(run, "memory", "search", "咖啡")] == ["咖啡不加糖"]
    assert [m["text"] for m in run_json(run, "memory", "search", "不加糖")] == ["咖啡不加糖"]
    assert run_json(run, "memory", "search", '"AND*-') == []


# ---- global options ---------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["before", "after"])
def test_json_before_or_after_command(db_file: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    common = ["--db", str(db_file), "--now", NOW, "--tz", "Asia/Shanghai"]
    cmd = ["calendars", "list"]
    argv = ["--json", *common, *cmd] if where == "before" else [*cmd, *common, "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)[0]["name"] == "日程"


def test_global_options_after_the_command(db_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "events",
                "add",
                "--title",
                "x",
                "--date",
                "D+0",
                "--time",
                "09:30",
                "--db",
                str(db_file),
                "--now",
                "2026-11-30T09:00:00+08:00",
                "--tz",
                "Asia/Shanghai",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["status"] == "created"  # 09:30 not past at 09:00


def test_now_controls_past_time(run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("--json", "events", "add", "--title", "x", "--date", "D+0", "--time", "09:30")
    assert code == 0 and json.loads(out)["status"] == "past_time"  # 09:30 is past at 10:00


def test_default_db_in_user_data_dir(_isolated_user_dirs: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    default = _isolated_user_dirs / "data" / "richeng" / "richeng.sqlite3"
    assert main(["--now", NOW, "--tz", "Asia/Shanghai", "memory", "add", "默认位置"]) == 0
    assert default.is_file()
    other = tmp_path / "elsewhere.sqlite3"
    assert main(["--db", str(other), "memory", "add", "别处"]) == 0
    capsys.readouterr()
    assert main(["--json", "memory", "list"]) == 0
    assert [m["text"] for m in json.loads(capsys.readouterr().out)] == ["默认位置"]
    assert main(["--json", "--db", str(other), "memory", "list"]) == 0
    assert [m["text"] for m in json.loads(capsys.readouterr().out)] == ["别处"]


# ---- errors: one line, exit 2 --------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["events", "list", "--start", "XX", "--end", "D+1"],  # unknown symbol
        ["events", "list", "--start", "D+2", "--end", "D+1"],  # reversed range
        ["events", "list", "--start", "D+1"],  # missing option
        ["events", "list", "--start"],  # malformed option
        ["events", "add", "--title", "x", "--date", "D+1", "--bogus"],  # unknown option
        ["events", "add", "--title", "x", "--date", "D+1", "--time", "9:00"],  # malformed time
        ["events", "list", "--start", "D+1", "--end", "D+1", "--calendar", "nope"],
        ["import", "/nonexistent/file.ics"],  # missing file for import
        ["frobnicate"],  # unknown command
        ["events"],  # missing action
        ["events", "remove"],  # unknown action
        ["memory", "add", "   "],
    ],
)
def test_bad_input_is_one_line_exit_2(run, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(*args)
    assert_one_line_error(code, err)


def test_missing_import_file_message(run) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run("import", "/nonexistent/file.ics")
    assert_one_line_error(code, err)
    assert "no such file" in err and "internal error" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["--now", "garbage", "time", "resolve", "D+1"],
        ["--now", "2026-13-40T10:00", "events", "list", "--start", "D+0", "--end", "D+0"],
        ["--now", "yesterday", "memory", "list"],
        ["--tz", "Mars/Olympus", "time", "resolve", "D+1"],
        ["--tz", "Not A Zone", "calendars", "list"],
        ["calendars", "list", "--tz", "Mars/Olympus"],
    ],
)
def test_bad_now_and_tz(db_file: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code = main(["--db", str(db_file), *args])
    _, err = capsys.readouterr()
    assert_one_line_error(code, err)
    assert ("--now" in err) or ("time zone" in err)


def test_newer_schema_db_is_refused(db_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db_file):
        pass
    plain = sqlite3.connect(db_file)
    plain.execute("PRAGMA journal_mode = DELETE")
    plain.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, 'x')", (known_version() + 5,))
    plain.commit()
    plain.close()
    before = db_file.read_bytes()
    code = main(["--db", str(db_file), "calendars", "list"])
    _, err = capsys.readouterr()
    assert_one_line_error(code, err)
    assert "newer" in err
    assert db_file.read_bytes() == before


def test_corrupt_db_is_refused(db_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db_file.write_bytes(b"\x13\x37" * 3000)
    code = main(["--db", str(db_file), "memory", "list"])
    _, err = capsys.readouterr()
    assert_one_line_error(code, err)
    assert db_file.read_bytes() == b"\x13\x37" * 3000


def test_help_and_version_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("richeng ")


# ---- the installed console script ----------------------------------------------------------------


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(RICHENG), *args], capture_output=True, text=True, timeout=60, env=os.environ.copy())


@pytest.mark.skipif(not RICHENG.exists(), reason="console script not installed in this environment")
def test_console_script_events_round_trip(db_file: Path) -> None:
    common = ["--db", str(db_file), "--now", NOW, "--tz", "Asia/Shanghai"]
    added = _script(*common, "events", "add", "--title", "修汽车轮毂", "--date", "W7", "--time", "14:00", "--json")
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["status"] == "created"
    listed = _script("events", "list", "--start", "WE", "--end", "WE", "--json", *common)
    assert listed.returncode == 0 and listed.stderr == ""
    (event,) = json.loads(listed.stdout)
    assert set(event) == LISTED_KEYS
    assert (event["title"], event["start"]) == ("修汽车轮毂", "2026-12-06T14:00:00+08:00")


@pytest.mark.skipif(not RICHENG.exists(), reason="console script not installed in this environment")
@pytest.mark.parametrize(
    "args",
    [
        ["time", "resolve", "Q+1", "--json"],
        ["--tz", "Nowhere/City", "time", "resolve", "D+1"],
        ["no-such-command"],
    ],
)
def test_console_script_errors_are_one_line(db_file: Path, args: list[str]) -> None:
    done = _script("--db", str(db_file), *args)
    assert_one_line_error(done.returncode, done.stderr)
