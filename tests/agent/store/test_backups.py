"""Automatic backups on real files: one a day (the last 7), one before every migration, one
before a big import; ``db backups`` lists them, ``db restore`` puts one back and keeps the
current file aside. Every decision reads an injected clock, never the wall clock."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.errors import StoreError
from agent.store import backups as backup_mod
from agent.store import file_check
from agent.store.backups import backup_before_import, backup_dir_for, count_vevents, list_backups, rotate
from agent.store.db import Store
from agent.store.file_check import inspect_file, read_version
from agent.store.migrations import known_version, run_sql
from tests.support.clock import SHANGHAI, SetClock
from tests.support.old_store import newer_release
from tests.support.store_files import make_store, overwrite_page, sha256

DAY1 = datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)


def events_in(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    finally:
        conn.close()


@pytest.fixture(autouse=True)
def _backups_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test files live in the temporary folder, where backups are off unless asked for."""
    monkeypatch.setenv("RICHENG_BACKUPS", "1")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_store(tmp_path / "richeng.sqlite3", events=30)


def test_daily_backup_once_a_day_and_the_last_seven_kept(db: Path) -> None:
    clock = SetClock(DAY1)
    for day in range(10):
        for hour in (0, 5):  # a second open the same day adds nothing
            clock.now = DAY1 + timedelta(days=day, hours=hour)
            Store(db, clock=clock).close()
    daily = [b for b in list_backups(db) if b.kind == "daily"]
    assert len(daily) == 7
    assert [b.created.astimezone(SHANGHAI).date() for b in daily] == [(DAY1 + timedelta(days=d)).date() for d in range(9, 2, -1)]
    assert all(events_in(b.path) == 30 and inspect_file(b.path).state == "ok" for b in daily)


def test_a_day_is_the_clock_zones_day(db: Path) -> None:
    late = datetime(2026, 12, 1, 23, 30, tzinfo=SHANGHAI)  # 15:30 UTC the same day
    Store(db, clock=SetClock(late)).close()
    Store(db, clock=SetClock(late + timedelta(minutes=45))).close()  # 00:15 the next local day
    assert len([b for b in list_backups(db) if b.kind == "daily"]) == 2


def test_backup_is_a_consistent_copy_taken_while_open(db: Path) -> None:
    store = Store(db, clock=SetClock(DAY1))
    store.conn.execute("BEGIN")  # a reader holding a snapshot does not stop the backup
    made = backup_mod.make_backup(store, "import", DAY1 + timedelta(minutes=1))
    store.conn.execute("COMMIT")
    store.close()
    assert events_in(made.path) == 30 and made.path.read_bytes()[18:20] == b"\x01\x01"  # rollback journal


def m900_extra_table(conn: sqlite3.Connection) -> None:
    run_sql(conn, "CREATE TABLE extra_one (x INTEGER);")


def test_pre_migration_backup_has_the_old_schema(db: Path) -> None:
    Store(db, backups=False).close()
    released = known_version()
    with newer_release(m900_extra_table), Store(db, clock=SetClock(DAY1)) as store:
        assert store.schema_version() == released + 1
    (before,) = [b for b in list_backups(db) if b.kind == "migration"]
    conn = sqlite3.connect(f"file:{before.path}?mode=ro", uri=True)
    assert read_version(conn) == released and events_in(before.path) == 30
    conn.close()


def test_migration_is_refused_when_its_backup_fails(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Store(db, backups=False).close()

    def full_disk(*args: object, **kwargs: object) -> None:
        raise StoreError("could not back up: No space left on device")

    monkeypatch.setattr(backup_mod, "make_backup", full_disk)
    released = known_version()
    with newer_release(m900_extra_table), pytest.raises(StoreError) as info:
        Store(db, clock=SetClock(DAY1))
    assert "nothing was changed before upgrading" in str(info.value)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert read_version(conn) == released
    conn.close()


def test_rotation_keeps_each_kind_apart(tmp_path: Path) -> None:
    folder = tmp_path / "b"
    folder.mkdir()
    for day in range(9):
        for kind in ("daily", "import"):
            (folder / f"r-202612{day + 1:02d}T000000Z-{kind}.sqlite3").write_bytes(b"x")
    removed = rotate(folder, "daily", 7)
    assert len(removed) == 2 and all("daily" in p.name for p in removed)
    names = sorted(p.name for p in folder.iterdir())
    assert sum("import" in n for n in names) == 9 and sum("daily" in n for n in names) == 7
    assert "r-20261201T000000Z-daily.sqlite3" not in names


def test_backup_before_import_only_above_the_threshold(db: Path) -> None:
    threshold = 200  # the documented N (docs/backups.md)
    assert threshold == backup_mod.IMPORT_BACKUP_MIN_EVENTS
    with Store(db, clock=SetClock(DAY1)) as store:
        assert backup_before_import(store, threshold) is None
        made = backup_before_import(store, threshold + 1, DAY1 + timedelta(minutes=1))
    assert made is not None and made.kind == "import" and events_in(made.path) == 30


def test_backup_before_import_skips_an_empty_store(tmp_path: Path) -> None:
    with Store(tmp_path / "new.sqlite3", clock=SetClock(DAY1)) as store:
        assert backup_before_import(store, 10_000) is None


def test_cli_import_of_a_big_file_backs_up_first(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    count = backup_mod.IMPORT_BACKUP_MIN_EVENTS + 1
    body = "".join(
        f"BEGIN:VEVENT\r\nUID:big-{i}@t\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20270101T{i % 24:02d}0000Z\r\n"
        f"DURATION:PT30M\r\nSUMMARY:big {i}\r\nEND:VEVENT\r\n"
        for i in range(count)
    )
    ics = tmp_path / "big.ics"
    ics.write_text(f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n{body}END:VCALENDAR\r\n", "utf-8")
    assert count_vevents(ics, chunk=7) == count  # the seam between chunks counts once
    code = main(["--db", str(db), "--now", "2026-12-01T08:00+08:00", "--json", "import", str(ics)])
    _, err = capsys.readouterr()
    assert code == 0 and "backed up the database to" in err
    (made,) = [b for b in list_backups(db) if b.kind == "import"]
    assert events_in(made.path) == 30 and events_in(db) == 30 + count


def test_no_automatic_backups_of_scratch_files_in_the_temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RICHENG_BACKUPS")
    assert not backup_mod.wanted_for(tmp_path / "r.sqlite3")
    assert backup_mod.wanted_for(Path.home() / "calendars" / "r.sqlite3")
    assert backup_mod.wanted_for(file_check.default_db_path())
    path = make_store(tmp_path / "r.sqlite3", events=3)
    with Store(path, clock=SetClock(DAY1)) as store:
        assert backup_before_import(store, 10_000) is None
    assert list_backups(path) == []
    monkeypatch.setenv("RICHENG_BACKUPS", "0")
    assert not backup_mod.wanted_for(file_check.default_db_path())


def test_other_files_keep_their_own_backup_folder(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "richeng.sqlite3", tmp_path / "b" / "richeng.sqlite3"
    assert backup_dir_for(a) != backup_dir_for(b)
    assert backup_dir_for(file_check.default_db_path()).name == "backups"


# ---- the CLI: db backups, db restore ------------------------------------------------------


def cli(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), "--now", "2026-12-02T08:00+08:00", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_db_backups_lists_newest_first(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for day in range(3):
        Store(db, clock=SetClock(DAY1 + timedelta(days=day))).close()
    code, out, _ = cli(db, capsys, "--json", "db", "backups")
    listed = json.loads(out)
    assert code == 0 and [item["kind"] for item in listed] == ["daily"] * 3
    assert [item["created"] for item in listed] == sorted((item["created"] for item in listed), reverse=True)
    code, out, _ = cli(db, capsys, "db", "backups")
    assert code == 0 and len(out.splitlines()) == 3 and "daily" in out


def test_restore_puts_the_backup_back_and_keeps_the_current_file(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store(db, clock=SetClock(DAY1)).close()
    (backup,) = list_backups(db)
    code, _, err = cli(db, capsys, "events", "add", "--title", "after the backup", "--date", "D+1", "--time", "10:00")
    assert code == 0, err
    current = sha256(db)
    code, out, err = cli(db, capsys, "--json", "db", "restore", str(backup.path), "--yes")
    assert code == 0, err
    done = json.loads(out)
    aside = Path(done["previous_kept_as"])
    assert done["events"] == 30 and events_in(db) == 30
    assert sha256(aside) == current and events_in(aside) == 31
    code, out, _ = cli(db, capsys, "--json", "events", "list", "--start", "D+1", "--end", "D+1")
    assert code == 0 and "after the backup" not in out


def test_restore_asks_and_refuses_without_a_terminal(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(db, clock=SetClock(DAY1)).close()
    (backup,) = list_backups(db)
    before = sha256(db)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # not a tty
    code, _, err = cli(db, capsys, "db", "restore", str(backup.path))
    assert code == 2 and "--yes" in err and sha256(db) == before

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Tty("n\n"))
    code, _, err = cli(db, capsys, "db", "restore", str(backup.path))
    assert code == 2 and "cancelled" in err and sha256(db) == before
    monkeypatch.setattr("sys.stdin", Tty("y\n"))
    code, out, err = cli(db, capsys, "db", "restore", str(backup.path))
    assert code == 0 and "restored" in out


def test_restore_refuses_a_damaged_or_foreign_file(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = make_store(tmp_path / "bad.sqlite3", events=400)
    overwrite_page(bad, 4)
    before = sha256(db)
    code, _, err = cli(db, capsys, "db", "restore", str(bad), "--yes")
    assert code == 2 and "damaged" in err and sha256(db) == before
    code, _, err = cli(db, capsys, "db", "restore", str(tmp_path / "missing.sqlite3"), "--yes")
    assert code == 2 and "no such file" in err
    code, _, err = cli(db, capsys, "db", "restore", str(db), "--yes")
    assert code == 2 and "database itself" in err


def test_restore_replaces_a_damaged_database(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The point of it all: the damaged file is set aside whole, the backup takes its place."""
    Store(db, clock=SetClock(DAY1)).close()
    (backup,) = list_backups(db)
    overwrite_page(db, 4)
    damaged = sha256(db)
    code, _, err = cli(db, capsys, "calendars", "list")
    assert code == 2 and "damaged" in err
    code, out, err = cli(db, capsys, "--json", "db", "restore", str(backup.path), "--yes")
    assert code == 0, err
    assert sha256(Path(json.loads(out)["previous_kept_as"])) == damaged
    code, _, err = cli(db, capsys, "calendars", "list")
    assert code == 0, err
