"""The CLI against files and terminals that misbehave (issue 29): ``export -o`` aimed at the
database, a disk that fills under ``export``, ``import``, ``undo`` and ``events add``, a
stdout that is not UTF-8, a data dir that is a file, a read-only database, and ``--now``
jumping years both ways over the backups and the undo journal. Each error is one line on
stderr, exit 2, and nothing is lost."""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.store.backups import list_backups
from agent.store.file_check import inspect_file
from tests.support.clock import NOW_ARG
from tests.support.store_files import make_store, sha256, write_ics
from tests.support.tmpfs import fill, read_only, small_tmpfs

AT = ["--now", NOW_ARG, "--tz", "Asia/Shanghai"]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, err: str) -> str:
    assert code == 2, err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "internal error" not in err and "Traceback" not in err
    return err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_store(tmp_path / "cal.sqlite3", events=5)


# ---- item 1: export -o never writes over the database -------------------------------------


def test_export_never_writes_over_the_database_or_its_files(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")
    assert cli(capsys, "--db", str(db), *AT, "calendars", "list")[0] == 0  # a daily backup
    (backup,) = list_backups(db)
    copy = tmp_path / "kept.sqlite3"
    copy.write_bytes(db.read_bytes())
    hard = tmp_path / "hard-link"
    os.link(db, hard)
    soft = tmp_path / "soft-link.ics"
    soft.symlink_to(db)
    before = {path: sha256(path) for path in (db, backup.path, copy)}
    targets = [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal"), backup.path, hard, soft, copy]
    for target in targets:
        code, out, err = cli(capsys, "--db", str(db), "export", "-o", str(target))
        assert "nothing was written" in one_line(code, err).lower(), err
        assert out == ""
    assert {path: sha256(path) for path in before} == before
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-journal").exists()
    assert inspect_file(db).state == "ok"
    ok = tmp_path / "out.ics"
    assert cli(capsys, "--db", str(db), "export", "-o", str(ok))[0] == 0
    assert ok.read_bytes().count(b"BEGIN:VEVENT") == 5


# ---- item 5: export on a full disk keeps the previous file ----------------------------------


def test_export_on_a_full_disk_keeps_the_previous_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make_store(tmp_path / "big.sqlite3", events=400)
    with small_tmpfs(tmp_path, 256) as fs:
        target = fs / "calendar.ics"
        small = make_store(tmp_path / "small.sqlite3", events=2)
        assert cli(capsys, "--db", str(small), "export", "-o", str(target))[0] == 0
        before = target.read_bytes()
        fill(fs, leave=32 * 1024)  # less than the 400-event export needs
        code, _, err = cli(capsys, "--db", str(db), "export", "-o", str(target))
        assert "cannot write" in one_line(code, err)
        assert target.read_bytes() == before  # whole, not cut off mid-event
        assert sorted(p.name for p in fs.iterdir()) == ["calendar.ics", "filler"]


def test_a_new_export_is_private(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = os.umask(0o022)
    try:
        assert cli(capsys, "--db", str(db), "export", "-o", str(tmp_path / "new.ics"))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.ics").stat().st_mode) == 0o600
    assert cli(capsys, "--db", str(db), "export", "-o", os.devnull)[0] == 0  # a device is written, not replaced


# ---- item 14: a full disk is one line, never "internal error" ----------------------------------


@pytest.mark.parametrize("leave", [0, 64 * 1024], ids=["nothing-left", "room-to-open-not-to-write"])
def test_a_full_disk_is_one_line_for_import_undo_and_events_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], leave: int
) -> None:
    """With room to open but not to write, import and undo said ``internal error
    (OperationalError: database or disk is full)`` and events add printed two lines; with no
    room at all, every command said the file "cannot be read: disk I/O error"."""
    ics = write_ics(tmp_path / "big.ics", 300, __import__("datetime").datetime(2026, 12, 1, 1, 0))
    with small_tmpfs(tmp_path, 2048) as fs:
        db = make_store(fs / "cal.sqlite3", events=30)
        assert (
            cli(capsys, "--db", str(db), *AT, "events", "add", "--title", "undo me", "--date", "D+1", "--time", "10:00")[0] == 0
        )
        before = sha256(db)
        fill(fs, leave=leave)
        for args in (
            ["import", str(ics)],
            ["undo"],
            ["events", "add", "--title", "one more " + "z" * 150, "--date", "D+2", "--time", "11:00"],
        ):
            code, out, err = cli(capsys, "--db", str(db), *AT, *args)
            line = one_line(code, err)
            assert "disk holding" in line and "is full" in line and "cannot read" not in line, (args, err)
            assert out == "", (args, out)
        (fs / "filler").unlink()
        assert sha256(db) == before or inspect_file(db).state == "ok"
        code, out, _ = cli(capsys, "--db", str(db), *AT, "--json", "events", "list", "--start", "D+1", "--end", "D+2")
        assert code == 0 and "undo me" in out


# ---- item 14: a stdout that is not UTF-8 ---------------------------------------------------------


def test_a_stdout_that_is_not_utf8_never_ends_in_an_internal_error(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    err = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    with capsys.disabled():
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        code = main(["--db", str(db), "calendars", "add", "家庭"])
        code2 = main(["--db", str(db), "calendars", "list"])
        code3 = main(["--db", str(db), "calendars", "add", "家庭"])  # refused: the error line has Chinese too
        out.flush()
        err.flush()
        monkeypatch.undo()
    shown = out.buffer.getvalue().decode("ascii")  # type: ignore[attr-defined]
    errors = err.buffer.getvalue().decode("ascii")  # type: ignore[attr-defined]
    assert (code, code2) == (0, 0), errors
    assert "\\u5bb6\\u5ead" in shown  # 家庭, escaped rather than fatal
    assert code3 == 2 and "internal error" not in errors and errors.count("\n") == 1, errors


# ---- item 14: a data dir that is a file --------------------------------------------------------


def test_a_data_dir_that_is_a_file_warns_and_the_command_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    db = make_store(tmp_path / "cal.sqlite3", events=3)
    code, out, err = cli(
        capsys, "--db", str(db), *AT, "events", "add", "--title", "still", "--date", "D+1", "--time", "09:00", "--allow-conflict"
    )
    assert code == 0, err
    assert "created" in out
    assert ".partial" not in err and "internal error" not in err
    assert "could not back up" in err and err.count("\n") == 1
    assert not list(tmp_path.glob(".*"))


# ---- item 14: a read-only database still answers commands that only read -----------------------


def test_a_read_only_database_answers_sync_accounts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with small_tmpfs(tmp_path, 2048) as fs:
        db = make_store(fs / "cal.sqlite3", events=3)
        read_only(fs)
        for args in (["sync", "accounts"], ["calendars", "list"], ["undo", "--list"]):
            code, out, err = cli(capsys, "--db", str(db), *AT, *args)
            assert code == 0, (args, err)
        code, _, err = cli(capsys, "--db", str(db), *AT, "events", "add", "--title", "x", "--date", "D+1")
        assert "read-only" in one_line(code, err)


# ---- item 6 and the journal: --now years ahead, then back ---------------------------------------


def test_now_years_ahead_then_back_never_crashes_and_undo_goes_newest_first(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")
    days = [f"2031-0{month}-01T10:00+08:00" for month in range(1, 8)]  # seven daily backups, years on
    for day in days:
        code, _, err = cli(capsys, "--db", str(db), "--now", day, "calendars", "list")
        assert code == 0, err
    added = []
    for now, title in (("2031-08-01T10:00+08:00", "ahead"), (NOW_ARG, "today"), ("2024-01-01T10:00+08:00", "back")):
        code, _, err = cli(capsys, "--db", str(db), "--now", now, "--tz", "Asia/Shanghai", "events", "add",
                           "--title", title, "--date", "2032-01-01", "--time", "10:00", "--allow-conflict")  # fmt: skip
        assert code == 0 and "internal error" not in err, err
        added.append(title)
        years = [b.created.year for b in list_backups(db)]
        assert int(now[:4]) in years and len(years) <= 7  # the day's own copy is kept, whichever way the clock went
    undone = []
    for _ in added:
        code, out, err = cli(capsys, "--db", str(db), *AT, "--json", "undo")
        assert code == 0, err
        undone.append(__import__("json").loads(out)["events"][0]["title"])
    assert undone == ["back", "today", "ahead"]
    assert inspect_file(db).state == "ok"
