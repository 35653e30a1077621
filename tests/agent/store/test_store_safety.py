"""Files the store must not write into: damaged, foreign, newer, read-only. Every command is
run against each on a real file and the file's sha256 (and its folder) must not change; the
messages must say what is wrong and what to do. ``db recover`` must save what is readable."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.store.components import build_event
from agent.store.db import ReadOnlyStoreError, Store
from agent.store.events import EventRepo
from agent.store.file_check import DamagedStoreError, inspect_file
from agent.store.migrations import known_version, run_sql
from agent.store.profiles import ensure_profile
from tests.support.old_store import newer_release
from tests.support.store_files import (
    BASE,
    folder_listing,
    leaf_pages,
    make_foreign,
    make_newer,
    make_store,
    overwrite_page,
    read_only,
    sha256,
)

CLOCK = ["--tz", "Asia/Shanghai", "--now", "2026-12-01T08:00+08:00"]
READS = [
    ["events", "list", "--start", "D+0", "--end", "D+7"],
    ["calendars", "list"],
    ["memory", "list"],
    ["memory", "search", "fact"],
    ["export", "--start", "D+0", "--end", "D+7"],
    [],  # the agenda
]
WRITES = [
    ["events", "add", "--title", "新事件", "--date", "D+1", "--time", "10:00"],
    ["calendars", "add", "新日历"],
    ["memory", "add", "a new fact"],
    ["import", "ICS"],
]


@pytest.fixture(autouse=True)
def _backups_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test files live in the temporary folder, where backups are off unless asked for."""
    monkeypatch.setenv("RICHENG_BACKUPS", "1")


@pytest.fixture
def ics(tmp_path: Path) -> Path:
    path = tmp_path / "one.ics"
    path.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a@t\r\nDTSTAMP:20261201T000000Z\r\n"
        "DTSTART:20261203T020000Z\r\nDTEND:20261203T030000Z\r\nSUMMARY:imported\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "utf-8",
    )
    return path


def cli(db: Path, capsys: pytest.CaptureFixture[str], args: list[str], ics: Path | None = None) -> tuple[int, str, str]:
    argv = [str(ics) if a == "ICS" else a for a in args]
    code = main(["--db", str(db), *CLOCK, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


def damaged_events_page(path: Path) -> tuple[int, int]:
    """Damage a leaf page of ``events`` in the middle; returns (page, its cells)."""
    leaves = leaf_pages(path, "events")
    page, cells = leaves[len(leaves) // 2]
    overwrite_page(path, page)
    return page, cells


def _damaged_page4(path: Path) -> Path:
    make_store(path)
    overwrite_page(path, 4)
    return path


def _damaged_events(path: Path) -> Path:
    make_store(path)
    damaged_events_page(path)
    return path


REFUSED: dict[str, tuple[Callable[[Path], Path], list[str]]] = {
    "damaged-page-4": (_damaged_page4, ["is damaged", "left untouched", "db recover"]),
    "damaged-events-page": (_damaged_events, ["is damaged", "left untouched", "db recover"]),
    "foreign": (make_foreign, ["another program", "left untouched"]),
    "newer": (make_newer, ["newer Richeng", "untouched"]),
}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_every_command_leaves_a_refused_file_byte_identical(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], ics: Path
) -> None:
    build, phrases = REFUSED[kind]
    path = build(_in_folder(tmp_path))
    before, listing = sha256(path), folder_listing(path)
    others = [
        ["db", "check"],
        ["chat", "你好", "--model", "script:/nonexistent.json"],
        ["sync", "accounts"],
        ["sync", "conflicts"],
        ["sync", "run"],
        ["time", "resolve", "D+1"],
    ]
    for args in READS + WRITES + others:
        code, _out, err = cli(path, capsys, args, ics)
        line = one_line(err)
        assert code == 2, (args, err)
        assert str(path) in line and all(phrase in line for phrase in phrases), (args, line)
        assert sha256(path) == before, args
        assert folder_listing(path) == listing, args  # no -wal/-shm/-journal left beside it
    code, out, _ = cli(path, capsys, ["db", "backups"])
    assert code == 0 and sha256(path) == before


def _in_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    folder.mkdir()
    return folder / "richeng.sqlite3"


def test_damaged_message_points_to_the_newest_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_store(_in_folder(tmp_path))
    code, _, _ = cli(path, capsys, ["calendars", "list"])  # the day's first open makes the daily backup
    assert code == 0
    overwrite_page(path, 4)
    code, _, err = cli(path, capsys, ["events", "list", "--start", "D+0", "--end", "D+1"])
    line = one_line(err)
    assert code == 2 and "newest backup is" in line and "db restore" in line and "db recover" in line
    backup = line.split("newest backup is ", 1)[1].split(" (", 1)[0]
    assert Path(backup).is_file() and inspect_file(Path(backup)).state == "ok"


def test_damage_found_without_a_backup_says_there_is_none(tmp_path: Path) -> None:
    path = _damaged_page4(_in_folder(tmp_path))
    with pytest.raises(DamagedStoreError) as info:
        Store(path)
    assert "There is no backup" in str(info.value) and info.value.path == path


def test_damage_after_a_clean_close_is_still_found(tmp_path: Path) -> None:
    """The stamp that lets a reopen skip quick_check must not hide a change made by anyone else."""
    path = make_store(_in_folder(tmp_path))
    Store(path).close()  # records the stamp
    Store(path).close()
    overwrite_page(path, 4)
    with pytest.raises(DamagedStoreError):
        Store(path)


def test_integrity_is_checked_before_any_pragma_that_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _damaged_events(_in_folder(tmp_path))
    header = path.read_bytes()[:100]
    with pytest.raises(DamagedStoreError):
        Store(path, reading=True)
    assert path.read_bytes()[:100] == header  # bytes 18, 19, 27, 95 would change with WAL


def test_zero_length_file_becomes_a_new_store(tmp_path: Path) -> None:
    path = _in_folder(tmp_path)
    path.write_bytes(b"")
    with Store(path) as store:
        assert ensure_profile(store) == 1
    assert inspect_file(path).state == "ok"


def test_not_a_database_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _in_folder(tmp_path)
    path.write_bytes(b"BEGIN:VCALENDAR\r\n" * 100)
    before = sha256(path)
    code, _, err = cli(path, capsys, ["calendars", "list"])
    assert code == 2 and "not a Richeng database" in one_line(err) and sha256(path) == before


# ---- read-only ------------------------------------------------------------------------------


def test_read_only_file_reads_work_and_writes_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], ics: Path) -> None:
    path = make_store(_in_folder(tmp_path), events=60)
    Store(path, backups=False).close()
    with read_only(path):
        before, listing = sha256(path), folder_listing(path)
        code, out, err = cli(path, capsys, ["--json", "events", "list", "--start", "D+0", "--end", "D+2"])
        assert code == 0, err
        assert [e["title"].split()[1] for e in json.loads(out)][:2] == ["0", "1"]
        for args in READS:
            code, out, err = cli(path, capsys, args)
            assert code == 0 and out, (args, err)
        for args in WRITES:
            code, _, err = cli(path, capsys, args, ics)
            line = one_line(err)
            assert code == 2 and "read-only" in line and "nothing was written" in line, (args, line)
        assert sha256(path) == before and folder_listing(path) == listing


def test_read_only_store_refuses_writers_at_open(tmp_path: Path) -> None:
    path = make_store(_in_folder(tmp_path), events=2)
    with read_only(path):
        with pytest.raises(ReadOnlyStoreError):
            Store(path)
        with Store(path, reading=True) as store:
            assert store.read_only
            assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2


# ---- db recover ----------------------------------------------------------------------------


def test_recover_saves_every_event_not_on_the_damaged_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_store(_in_folder(tmp_path))
    total = 400
    _page, lost = damaged_events_page(path)
    before = sha256(path)
    out_file = tmp_path / "saved.sqlite3"
    code, out, err = cli(path, capsys, ["--json", "db", "recover", "-o", str(out_file)])
    assert code == 0, err
    report = json.loads(out)
    assert report["events"] == total - lost and 0 < lost < total
    assert report["unreadable"].get("events", 0) >= 1
    assert sha256(path) == before  # never in place
    with Store(out_file) as store:  # a usable file: it passes the full open check
        assert inspect_file(out_file).state == "ok"
        assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == total - lost
    code, out, err = cli(out_file, capsys, ["--json", "events", "list", "--start", "D+0", "--end", "D+2"])
    assert code == 0 and len(json.loads(out)) > 0
    code, out, _ = cli(out_file, capsys, ["--json", "memory", "search", "fact number"])
    assert code == 0 and len(json.loads(out)) == 3  # full-text index rebuilt by the triggers


def test_recover_page4_keeps_all_events_and_says_how_many(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _damaged_page4(_in_folder(tmp_path))
    out_file = tmp_path / "saved.sqlite3"
    code, out, err = cli(path, capsys, ["db", "recover", "-o", str(out_file)])
    assert code == 0, err
    assert out.splitlines()[0].startswith("saved 400 events into")
    code, _, err = cli(out_file, capsys, ["db", "check"])
    assert code == 0, err


def test_recover_default_output_is_a_new_file_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _damaged_page4(_in_folder(tmp_path))
    code, out, _ = cli(path, capsys, ["--json", "db", "recover"])
    target = Path(json.loads(out)["output"])
    assert code == 0 and target.parent == path.parent and target != path and target.is_file()
    code, _, err = cli(path, capsys, ["db", "recover", "-o", str(target)])
    assert code == 2 and "already exists" in one_line(err)


def test_recover_moves_orphaned_events_to_a_recovered_calendar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_store(_in_folder(tmp_path), events=20)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("DELETE FROM calendars")  # as if the calendars page were lost
    conn.commit()
    conn.close()
    out_file = tmp_path / "saved.sqlite3"
    code, out, _ = cli(path, capsys, ["--json", "db", "recover", "-o", str(out_file)])
    assert code == 0 and json.loads(out)["events"] == 20
    with Store(out_file) as store:
        names = [r[0] for r in store.conn.execute("SELECT c.name FROM events e JOIN calendars c ON c.id = e.calendar_id")]
    assert set(names) == {"已恢复 Recovered"}


def test_quick_check_is_what_finds_page_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard for the guard: the damaged-events file passes the header and schema reads, so only
    the integrity check stands between it and a WAL switch."""
    path = _damaged_events(_in_folder(tmp_path))
    assert inspect_file(path, integrity=False).state == "ok"
    assert inspect_file(path).state == "damaged"
    assert known_version() >= 1


def test_recover_rebuilds_instances_when_the_occurrences_table_is_damaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_store(_in_folder(tmp_path))
    with Store(path, backups=False) as store:  # a series whose instances span several pages
        repo = EventRepo(store, ensure_profile(store))
        with store.transaction():
            repo.save(build_event("daily", BASE, BASE + timedelta(hours=1), rrule="FREQ=DAILY;COUNT=300", stamp=BASE), 1, "user")
    healthy = tmp_path / "healthy.sqlite3"
    healthy.write_bytes(path.read_bytes())
    leaves = leaf_pages(path, "occurrences")
    overwrite_page(path, leaves[-2][0])  # inside the series: part of it survives elsewhere
    out_file = tmp_path / "saved.sqlite3"
    code, out, err = cli(path, capsys, ["--json", "db", "recover", "-o", str(out_file)])
    assert code == 0 and json.loads(out)["events"] == 401, err
    window = ["--json", "events", "list", "--start", "2026-12-01", "--end", "2027-10-01"]
    code, expected, _ = cli(healthy, capsys, window)
    code2, got, err = cli(out_file, capsys, window)
    assert code == code2 == 0 and json.loads(got) == json.loads(expected), err


def m900_probe_column(conn: sqlite3.Connection) -> None:
    run_sql(conn, "ALTER TABLE calendars ADD COLUMN m900_probe TEXT DEFAULT '';\nUPDATE calendars SET m900_probe = 'migrated';")


def test_recover_of_an_older_schema_runs_the_later_migrations_on_the_saved_rows(tmp_path: Path) -> None:
    from agent.store.recover import recover

    path = _damaged_page4(_in_folder(tmp_path))
    released = known_version()
    with newer_release(m900_probe_column):
        report = recover(path, tmp_path / "saved.sqlite3")
        assert report.events == 400
        with Store(tmp_path / "saved.sqlite3", backups=False) as store:
            assert store.schema_version() == released + 1
            assert {r[0] for r in store.conn.execute("SELECT m900_probe FROM calendars")} == {"migrated"}
