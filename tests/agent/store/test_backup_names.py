"""Safety copies are never overwritten (issue 19, item 2): every name a backup, a restore's
kept-aside copy or a recovery takes is claimed atomically, so a second copy in the same
second (or under a fixed ``--now``) takes the next number. And the readers of a user's file
stop at a cap: ``count_vevents`` on ``/dev/zero`` or a FIFO is one line, not an endless read."""

from __future__ import annotations

import errno
import os
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from agent.errors import StoreError
from agent.files import InputFileError
from agent.store import backups as backup_mod
from agent.store.backups import count_vevents, keep_aside, list_backups, make_backup, place_new, restore, utc_stamp
from agent.store.db import Store
from tests.support.clock import NOW
from tests.support.store_files import make_store, sha256


@pytest.fixture(autouse=True)
def _backups_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")


def test_place_new_takes_the_first_free_name_and_never_replaces(tmp_path: Path) -> None:
    taken = tmp_path / "a"
    taken.write_text("keep me")
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")  # a dangling link is a taken name too
    source = tmp_path / "src"
    source.write_text("new")
    got = place_new(source, [taken, tmp_path / "link", tmp_path / "b"])
    assert got == tmp_path / "b" and got.read_text() == "new" and not source.exists()
    assert taken.read_text() == "keep me"
    source.write_text("again")
    assert place_new(source, [tmp_path / "b", tmp_path / "c"], keep_source=True) == tmp_path / "c"
    assert source.read_text() == (tmp_path / "c").read_text() == "again"
    with pytest.raises(OSError) as info:
        place_new(source, [tmp_path / "a", tmp_path / "b"])
    assert info.value.errno == errno.EEXIST and source.exists()


def test_place_new_without_hard_links_claims_the_name_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system without hard links (FAT, some network mounts): an O_EXCL claim, then a rename onto it."""

    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    (tmp_path / "a").write_text("keep me")
    source = tmp_path / "src"
    source.write_text("new")
    assert place_new(source, [tmp_path / "a", tmp_path / "b"]) == tmp_path / "b"
    assert (tmp_path / "a").read_text() == "keep me" and (tmp_path / "b").read_text() == "new"


def test_keep_aside_in_the_same_second_numbers_and_moves_the_side_files(tmp_path: Path) -> None:
    db = tmp_path / "richeng.sqlite3"
    kept = []
    for round_ in range(3):
        fresh = tmp_path / "fresh"  # what restore does: a new file replaces the kept name
        fresh.write_text(f"database {round_}")
        os.replace(fresh, db)
        Path(f"{db}-wal").write_text(f"wal {round_}")
        kept.append(keep_aside(db, NOW))
        assert not Path(f"{db}-wal").exists()  # the old -wal must not meet the restored file
    assert [p.name for p in kept] == [
        "richeng.sqlite3.before-restore-20261130T020000Z",
        "richeng.sqlite3.before-restore-20261130T020000Z-2",
        "richeng.sqlite3.before-restore-20261130T020000Z-3",
    ]
    assert [p.read_text() for p in kept] == ["database 0", "database 1", "database 2"]
    assert [Path(f"{p}-wal").read_text() for p in kept] == ["wal 0", "wal 1", "wal 2"]


def test_keep_aside_skips_a_name_whose_side_file_is_left_over(tmp_path: Path) -> None:
    db = tmp_path / "richeng.sqlite3"
    db.write_text("database")
    stray = tmp_path / "richeng.sqlite3.before-restore-20261130T020000Z-journal"
    stray.write_text("someone's")
    assert keep_aside(db, NOW).name.endswith("020000Z-2")
    assert stray.read_text() == "someone's"


def test_restore_twice_with_one_clock_keeps_the_original(tmp_path: Path) -> None:
    db = make_store(tmp_path / "richeng.sqlite3", events=3)
    backup = make_store(tmp_path / "backup.sqlite3", events=1)
    original = sha256(db)
    first = restore(backup, db, NOW)
    second = restore(backup, db, NOW)
    assert first.aside != second.aside and first.aside is not None and second.aside is not None
    assert sha256(first.aside) == original
    assert sha256(second.aside) == sha256(db)


def test_restore_creates_no_folder(tmp_path: Path) -> None:
    backup = make_store(tmp_path / "backup.sqlite3", events=1)
    with pytest.raises(StoreError, match="does not exist"):
        restore(backup, tmp_path / "missing" / "richeng.sqlite3", NOW)
    assert not (tmp_path / "missing").exists()


def test_restore_refuses_a_folder_or_a_device(tmp_path: Path) -> None:
    db = make_store(tmp_path / "richeng.sqlite3", events=1)
    for source, word in ((tmp_path, "folder"), (Path("/dev/zero"), "device")):
        with pytest.raises(StoreError, match=word):
            restore(source, db, NOW)


def test_backups_in_the_same_second_never_replace_one_another(tmp_path: Path) -> None:
    db = make_store(tmp_path / "richeng.sqlite3", events=2)
    store = Store(db, clock=lambda: NOW)
    try:
        (daily,) = list_backups(db)
        folder = daily.path.parent
        squatter = folder / "richeng-20261130T020000Z-2-import.sqlite3"
        squatter.write_bytes(b"not ours")
        made = [make_backup(store, "import", NOW) for _ in range(3)]
    finally:
        store.close()
    assert [b.path.name for b in made] == [
        "richeng-20261130T020000Z-import.sqlite3",
        "richeng-20261130T020000Z-3-import.sqlite3",
        "richeng-20261130T020000Z-4-import.sqlite3",
    ]
    assert squatter.read_bytes() == b"not ours"
    assert not [p for p in folder.iterdir() if p.name.endswith(".partial")]


def test_a_stamp_for_any_instant() -> None:
    assert utc_stamp(NOW) == "20261130T020000Z"
    east = timezone(timedelta(hours=8))
    assert utc_stamp(datetime(1, 1, 1, 3, 0, tzinfo=east)) == "00010101T030000Z"  # UTC would be year 0
    assert utc_stamp(datetime(9999, 12, 31, 23, 0, tzinfo=UTC)) == "99991231T230000Z"


# ---- capped readers ----------------------------------------------------------------------


def test_count_vevents_refuses_what_is_no_file_and_stops_at_its_cap(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, word in ((Path("/dev/zero"), "device"), (fifo, "FIFO"), (tmp_path, "folder")):
        with pytest.raises(InputFileError, match=word):
            count_vevents(path)
    ics = tmp_path / "a.ics"
    ics.write_bytes(b"BEGIN:VEVENT\r\nEND:VEVENT\r\n" * 100)
    assert count_vevents(ics, chunk=7) == 100
    with pytest.raises(InputFileError, match="larger than"):
        count_vevents(ics, limit=1000)
    assert backup_mod.COUNT_LIMIT >= 1 << 30
