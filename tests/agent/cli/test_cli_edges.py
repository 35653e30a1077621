"""Issue 19's CLI defects, each as the user met it: a --now out of range, over-long file
names, files that are no files (/dev/zero, a FIFO, a folder), --db "", --allow-conflict that
did not write, a --now without an offset read as UTC, historical dates that could not be
listed, and a recovery that created folders or "saved 0 events" from /etc/passwd.

Every refusal is one line on stderr, exit 2, no traceback and no "internal error", and the
database is byte-identical afterwards."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from agent.cli.main import main
from tests.support.clock import NOW_ARG
from tests.support.store_files import make_store, sha256

LONG = "x" * 300
TZ = ["--tz", "Asia/Shanghai"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_store(tmp_path / "cli.sqlite3", events=5)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, err: str) -> str:
    assert code == 2, err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "internal error" not in err and "Traceback" not in err
    return err


# ---- item 3: --now out of range, and a journal that survives any stamp -------------------


@pytest.mark.parametrize("now", ["9999-12-31T23:59", "0001-01-01T00:00", "1899-12-31T23:59+08:00", "2200-01-01T00:00Z"])
@pytest.mark.parametrize(
    "command", [["undo"], ["undo", "--list"], ["prompt"], ["chat", "hi"], ["events", "list", "--start", "D+0", "--end", "D+1"]]
)
def test_a_now_outside_the_symbols_range_is_one_line(
    db: Path, capsys: pytest.CaptureFixture[str], now: str, command: list[str]
) -> None:
    before = sha256(db)
    err = refused(*cli(capsys, "--db", str(db), "--now", now, *command)[::2])
    assert "--now" in err and "1900-01-01" in err
    assert sha256(db) == before


def test_the_edges_of_the_now_range_work(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for now in ("1900-01-01T00:00", "2199-12-31T23:59"):
        for command in (
            ["prompt"],
            ["undo", "--list"],
            ["events", "add", "--title", "edge", "--date", "D+0", "--time", "23:59"],
            ["undo"],
            ["undo", "--list"],
            ["events", "list", "--start", "D+0", "--end", "D+1"],
        ):
            code, _, err = cli(capsys, "--db", str(db), "--now", now, *TZ, *command)
            assert code == 0, (now, command, err)


def test_one_odd_stamp_in_the_journal_does_not_poison_undo_list(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: one ``--now 9999-12-31T23:59 undo`` made every later ``undo --list`` an
    OverflowError. Rows written by any version (or by hand) are shown as stored."""
    code, _, err = cli(capsys, "--db", str(db), "--now", NOW_ARG, *TZ, "events", "add", "--title", "t", "--date", "D+1")
    assert code == 0, err
    conn = sqlite3.connect(db)
    with conn:
        for stamp in ("9999-12-31T23:59:00+00:00", "0001-01-01T00:00:00+00:00", "not a time", "2026-11-30T02:00:00"):
            conn.execute(
                "INSERT INTO change_journal(profile_id, created_at, origin, kind, label, created, updated, deleted, changes)"
                " SELECT profile_id, ?, 'cli', 'change', 'odd', 0, 0, 0, '{\"v\": 1, \"rows\": []}' FROM change_journal LIMIT 1",
                (stamp,),
            )
    conn.close()
    code, out, err = cli(capsys, "--db", str(db), "--now", NOW_ARG, *TZ, "undo", "--list")
    assert code == 0, err
    assert "9999-12-31T23:59:00+00:00" in out and "not a time" in out and "2026-11-30 10:00" in out
    code, out, err = cli(capsys, "--db", str(db), "--now", NOW_ARG, "--tz", "America/New_York", "--json", "undo", "--list")
    assert code == 0 and len(json.loads(out)) == 6, err  # make_store wrote one


# ---- item 4: names over the OS limit -----------------------------------------------------


def test_file_names_over_the_os_limit(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sha256(db)
    for args in (
        ["--db", str(db), "db", "restore", LONG, "--yes"],
        ["--db", str(db), "db", "recover", "-o", LONG],
        ["--db", LONG, "db", "recover"],
        ["--db", str(tmp_path / LONG), "calendars", "list"],
        ["--db", str(db), "import", LONG],
        ["--db", str(db), "export", "-o", LONG],
        ["--db", str(db), "chat", "hi", "--model", f"script:{LONG}"],
        ["--db", str(tmp_path / ("a/" * 2100)), "calendars", "list"],
    ):
        err = refused(*cli(capsys, "--now", NOW_ARG, *args)[::2])
        assert "too long" in err, (args, err)
    assert sha256(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli.sqlite3"]


def test_a_recovered_name_that_grows_past_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The database's own name fits; ``<stem>-recovered-<stamp>.sqlite3`` beside it does not."""
    db = make_store(tmp_path / ("r" * 235 + ".sqlite3"), events=2)  # its -journal still fits
    err = refused(*cli(capsys, "--db", str(db), "--now", NOW_ARG, "db", "recover")[::2])
    assert "recovered" in err or "too long" in err
    assert [p.name for p in tmp_path.iterdir()] == [db.name]


# ---- item 5 and --db: files that are no files --------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_script_model_that_is_a_device_a_fifo_or_a_folder(
    db: Path, fifo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--model script:/dev/zero`` read without end (60 s, then MemoryError)."""
    before = sha256(db)
    for target, word in (("/dev/zero", "device"), (str(fifo), "FIFO"), (str(tmp_path), "folder")):
        err = refused(*cli(capsys, "--db", str(db), "--now", NOW_ARG, "chat", "hi", "--model", f"script:{target}")[::2])
        assert word in err and "model script" in err
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(17 << 20)  # sparse: over the 16 MiB cap without writing it
    err = refused(*cli(capsys, "--db", str(db), "--now", NOW_ARG, "chat", "hi", "--model", f"script:{big}")[::2])
    assert "larger than 16 MiB" in err
    assert sha256(db) == before


def test_import_of_a_device_a_fifo_or_a_folder(db: Path, fifo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sha256(db)
    for target in ("/dev/zero", str(fifo), str(tmp_path)):
        refused(*cli(capsys, "--db", str(db), "--now", NOW_ARG, "import", target)[::2])
    assert sha256(db) == before


def test_db_that_is_empty_a_device_a_fifo_or_a_folder(
    fifo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], _isolated_user_dirs: Path
) -> None:
    """``--db ""`` fell back to the default database; a FIFO would hang SQLite."""
    err = refused(*cli(capsys, "--db", "", "calendars", "list")[::2])
    assert "--db" in err and "empty" in err
    assert not (_isolated_user_dirs / "data" / "richeng").exists()  # the default file was not made
    for target in ("/dev/zero", str(fifo), str(tmp_path)):
        for command in (["calendars", "list"], ["db", "recover", "-o", str(tmp_path / "out.sqlite3")], ["db", "check"]):
            refused(*cli(capsys, "--db", target, *command)[::2])
    assert not (tmp_path / "out.sqlite3").exists()


# ---- --tz and the store's clock ----------------------------------------------------------


def test_a_now_without_offset_is_local_time_in_tz_for_the_journal_and_kept_aside_names(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """10:00 in Shanghai is 02:00 UTC; both stamps said 10:00 UTC."""
    monkeypatch.setenv("RICHENG_BACKUPS", "1")
    base = ["--db", str(db), "--now", "2026-11-30T10:00", "--tz", "Asia/Shanghai"]
    code, _, err = cli(capsys, *base, "events", "add", "--title", "t", "--date", "2026-12-20", "--time", "21:00")
    assert code == 0, err
    code, out, err = cli(capsys, *base, "--json", "undo", "--list")
    assert code == 0 and json.loads(out)[0]["created_at"] == "2026-11-30T02:00:00+00:00", err
    code, out, _ = cli(capsys, *base, "--json", "db", "backups")
    backups = json.loads(out)
    assert backups and {item["created"] for item in backups} == {"2026-11-30T02:00:00+00:00"}
    backup = backups[0]
    code, out, err = cli(capsys, *base, "--json", "db", "restore", backup["path"], "--yes")
    assert code == 0, err
    assert json.loads(out)["previous_kept_as"].endswith(".before-restore-20261130T020000Z")
    code, out, err = cli(capsys, *base, "--json", "db", "recover")
    assert code == 0 and Path(json.loads(out)["output"]).name == "cli-recovered-20261130T020000Z.sqlite3", err


# ---- item 2: two restores in one second --------------------------------------------------


def test_two_restores_in_the_same_second_keep_both_files(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a fixed --now every restore used the same kept-aside name, and the second
    restore overwrote the only copy of the original file."""
    monkeypatch.setenv("RICHENG_BACKUPS", "1")
    base = ["--db", str(db), "--now", NOW_ARG, *TZ]
    code, out, err = cli(capsys, *base, "--json", "db", "backups")
    code, _, err = cli(capsys, *base, "calendars", "list")  # the day's backup
    code, out, _ = cli(capsys, *base, "--json", "db", "backups")
    backup = json.loads(out)[0]["path"]
    code, _, err = cli(capsys, *base, "events", "add", "--title", "only in the original", "--date", "2026-12-20")
    assert code == 0, err
    original = sha256(db)
    kept = []
    for _ in range(3):
        code, out, err = cli(capsys, *base, "--json", "db", "restore", backup, "--yes")
        assert code == 0, err
        kept.append(Path(json.loads(out)["previous_kept_as"]))
    assert len(set(kept)) == 3 and all(path.exists() for path in kept)
    assert sha256(kept[0]) == original  # the first copy still holds the original
    assert sha256(kept[1]) == sha256(kept[2]) == sha256(db)


# ---- smaller defects ---------------------------------------------------------------------


def test_allow_conflict_writes_at_once(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--db", str(db), "--now", NOW_ARG, *TZ, "--json"]
    code, out, err = cli(capsys, *base, "events", "add", "--title", "first", "--date", "2026-12-20", "--time", "10:00")
    assert code == 0 and json.loads(out)["status"] == "created", err
    code, out, err = cli(
        capsys, *base, "events", "add", "--title", "second", "--date", "2026-12-20", "--time", "10:30", "--allow-conflict"
    )
    assert code == 0 and json.loads(out)["status"] == "created", err
    code, out, _ = cli(capsys, *base, "events", "list", "--start", "2026-12-20", "--end", "2026-12-20")
    assert sorted(item["title"] for item in json.loads(out)) == ["first", "second"]
    code, out, _ = cli(capsys, *base, "events", "add", "--title", "third", "--date", "2026-12-20", "--time", "10:15")
    assert json.loads(out)["status"] == "conflict"  # without the flag it still asks


def test_recover_creates_no_folders(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "deeper" / "saved.sqlite3"
    err = refused(*cli(capsys, "--db", str(db), "db", "recover", "-o", str(target))[::2])
    assert "does not exist" in err
    assert not (tmp_path / "missing").exists()


def test_recover_refuses_what_is_not_a_richeng_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """/etc/passwd and another program's SQLite file gave exit 0 and "saved 0 events"."""
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n" * 50)
    foreign = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes(body) VALUES ('hello')")
    conn.commit()
    conn.close()
    empty_sqlite = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty_sqlite).execute("PRAGMA user_version = 1").connection.close()
    for source in (text, foreign, empty_sqlite, Path("/etc/passwd")):
        before = sha256(source)
        out_file = tmp_path / "out.sqlite3"
        err = refused(*cli(capsys, "--db", str(source), "db", "recover", "-o", str(out_file))[::2])
        assert "not a Richeng database" in err, err
        assert not out_file.exists() and sha256(source) == before


def test_recover_twice_under_a_fixed_now_takes_a_new_name(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = []
    for _ in range(2):
        code, out, err = cli(capsys, "--db", str(db), "--now", NOW_ARG, "--json", "db", "recover")
        assert code == 0, err
        names.append(Path(json.loads(out)["output"]).name)
    assert names == ["cli-recovered-20261130T020000Z.sqlite3", "cli-recovered-20261130T020000Z-2.sqlite3"]


HISTORICAL = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//historical//EN
BEGIN:VEVENT
UID:lincoln-1864@test
DTSTAMP:20260101T000000Z
DTSTART;VALUE=DATE:18641108
DTEND;VALUE=DATE:18641109
SUMMARY:1864 election
END:VEVENT
BEGIN:VEVENT
UID:far-9999@test
DTSTAMP:20260101T000000Z
DTSTART:99991230T100000Z
DTEND:99991230T110000Z
SUMMARY:far future
END:VEVENT
END:VCALENDAR
"""


def test_events_from_a_historical_calendar_can_be_listed_and_exported(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``events list`` refused ranges before 1900 ("outside the dates Richeng accepts")."""
    ics = tmp_path / "history.ics"
    ics.write_text(HISTORICAL)
    base = ["--db", str(db), "--now", NOW_ARG, *TZ]
    code, _, err = cli(capsys, *base, "import", str(ics))
    assert code == 0, err
    code, out, err = cli(capsys, *base, "--json", "events", "list", "--start", "1864-11-01", "--end", "1864-11-30")
    assert code == 0, err
    assert [item["title"] for item in json.loads(out)] == ["1864 election"]
    code, out, err = cli(capsys, *base, "--json", "events", "list", "--start", "9999-12-01", "--end", "9999-12-30")
    assert code == 0 and [item["title"] for item in json.loads(out)] == ["far future"], err
    code, out, err = cli(capsys, *base, "export", "--start", "1864-01-01", "--end", "1864-12-31")
    assert code == 0 and "lincoln-1864@test" in out and "far-9999" not in out, err
    code, out, err = cli(capsys, *base, "events", "list", "--start", "0001-01-01", "--end", "0001-01-31")
    refused(code, err)  # before year 1 in UTC: a clear line, not a crash
    code, _, err = cli(capsys, *base, "events", "add", "--title", "typo", "--date", "1864-11-08")
    assert "outside the dates Richeng accepts" in refused(code, err)  # writing keeps the bound


def test_db_backups_on_a_temporary_database_says_backups_are_off(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, defect 13: on a database in the temporary folder "no backups yet" read as if
    one would come; backups are off there, and the line says so and how to turn them on."""
    import tempfile

    monkeypatch.delenv("RICHENG_BACKUPS", raising=False)
    db = Path(tempfile.mkdtemp(dir=tempfile.gettempdir())) / "scratch.sqlite3"
    code, out, _ = cli(capsys, "--db", str(db), "db", "backups")
    assert code == 0 and "off" in out and "RICHENG_BACKUPS=1" in out and "yet" not in out
