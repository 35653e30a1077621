"""``recover`` refuses, before writing anything, what it cannot salvage (issue 19): a source
that is no Richeng database, a folder or device, a target folder that does not exist, a
target that exists. A damaged Richeng file is still recovered."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from agent.errors import StoreError
from agent.store.recover import default_output, recover
from tests.support.clock import NOW
from tests.support.store_files import make_store, overwrite_page, sha256


def _foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)")  # a name we use, not our table
    conn.execute("INSERT INTO events(what) VALUES ('theirs')")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("kind", ["text", "foreign", "empty", "folder", "device"])
def test_what_is_not_a_richeng_database_is_refused_before_any_file(tmp_path: Path, kind: str) -> None:
    source = {
        "text": tmp_path / "notes.txt",
        "foreign": tmp_path / "other.sqlite3",
        "empty": tmp_path / "empty.sqlite3",
        "folder": tmp_path,
        "device": Path("/dev/zero"),
    }[kind]
    if kind == "text":
        source.write_text("root:x:0:0:root:/root:/bin/bash\n" * 40)
    elif kind == "foreign":
        _foreign(source)
    elif kind == "empty":
        source.touch()
    target = tmp_path / "out.sqlite3"
    with pytest.raises(StoreError) as info:
        recover(source, target)
    assert "\n" not in str(info.value)
    assert not target.exists()


def test_a_damaged_richeng_file_is_still_recovered(tmp_path: Path) -> None:
    source = make_store(tmp_path / "richeng.sqlite3", events=400)
    overwrite_page(source, 4)
    before = sha256(source)
    report = recover(source, tmp_path / "saved.sqlite3")
    assert report.events == 400 and sha256(source) == before


def test_no_folder_is_created_and_no_file_replaced(tmp_path: Path) -> None:
    source = make_store(tmp_path / "richeng.sqlite3", events=3)
    with pytest.raises(StoreError, match="does not exist"):
        recover(source, tmp_path / "a" / "b" / "saved.sqlite3")
    assert not (tmp_path / "a").exists()
    taken = tmp_path / "saved.sqlite3"
    taken.write_bytes(b"mine")
    with pytest.raises(StoreError, match="already exists"):
        recover(source, taken)
    assert taken.read_bytes() == b"mine"


def test_default_output_skips_names_already_taken(tmp_path: Path) -> None:
    source = tmp_path / "richeng.sqlite3"
    first = default_output(source, NOW)
    assert first.name == "richeng-recovered-20261130T020000Z.sqlite3"
    first.touch()
    assert default_output(source, NOW).name == "richeng-recovered-20261130T020000Z-2.sqlite3"
