"""What the app offers for a damaged database at start-up (issue 19, item 0): the newest
backup, or saving what can still be read (``db recover``) and opening that, or quitting with
the file untouched. Before, a file whose first page was overwritten gave "not an SQLite file
at all; it was left untouched" and the app exited, offering nothing."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from agent.store.db import Store
from agent.store.file_check import DamagedStoreError
from app.damaged_file import offer_repair
from tests.support.clock import SHANGHAI
from tests.support.store_files import make_store, overwrite_page, sha256

NOW = datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI)


@pytest.fixture(autouse=True)
def _backups_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")


def _refused(path: Path) -> DamagedStoreError:
    with pytest.raises(DamagedStoreError) as info:
        Store(path)
    return info.value


def _count(store: Store) -> int:
    return int(store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def test_the_newest_backup_is_offered_and_the_damaged_file_kept(tmp_path: Path) -> None:
    db = make_store(tmp_path / "richeng.sqlite3", events=30)
    Store(db, clock=lambda: NOW).close()  # the day's backup
    overwrite_page(db, 4)
    damaged = sha256(db)
    asked: list[tuple[str, list[str]]] = []
    assert offer_repair(_refused(db), lambda text, choices: asked.append((text, [k for k, _ in choices])) and None, NOW) is None
    assert sha256(db) == damaged and "damaged" in asked[0][0] and "已损坏" in asked[0][0]
    assert asked[0][1] == ["restore", "salvage", "quit"]
    store = offer_repair(_refused(db), lambda text, choices: "restore", NOW)
    assert store is not None
    with store:
        assert _count(store) == 30
    kept = [p for p in db.parent.iterdir() if ".before-restore-" in p.name]
    assert len(kept) == 1 and sha256(kept[0]) == damaged


def test_without_a_backup_the_salvage_is_offered_and_opened(tmp_path: Path) -> None:
    db = make_store(tmp_path / "r.sqlite3", events=400)
    overwrite_page(db, 4)
    damaged = sha256(db)
    told: list[str] = []
    error = _refused(db)
    choices_seen: list[str] = []

    def ask(text: str, choices: list[tuple[str, str]]) -> str:
        choices_seen.extend(key for key, _ in choices)
        return "salvage"

    store = offer_repair(error, ask, NOW, told.append)
    assert choices_seen == ["salvage", "quit"]
    assert store is not None
    with store:
        saved = _count(store)
    assert 0 < saved <= 400  # what the damaged pages held may be gone; the rest is back
    (aside,) = [p for p in db.parent.iterdir() if ".damaged-" in p.name]
    assert sha256(aside) == damaged and f"Saved {saved} events" in told[0]


def test_a_file_whose_first_page_was_overwritten_gets_the_same_offer(tmp_path: Path) -> None:
    """What the issue's user met: page 1 gone ("not an SQLite file at all")."""
    db = make_store(tmp_path / "r.sqlite3", events=40)
    overwrite_page(db, 1, length=100)
    error = _refused(db)
    assert "not an SQLite file at all" in str(error)
    assert offer_repair(error, lambda text, choices: "quit", NOW) is None
    assert [p.name for p in db.parent.iterdir()] == ["r.sqlite3"]  # quit touched nothing


def test_salvaging_twice_in_one_second_keeps_both_damaged_copies(tmp_path: Path) -> None:
    db = make_store(tmp_path / "r.sqlite3", events=60)
    for _ in range(2):
        overwrite_page(db, 4)
        store = offer_repair(_refused(db), lambda text, choices: "salvage", NOW)
        assert store is not None
        store.close()
    assert len([p for p in db.parent.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]) == 2
