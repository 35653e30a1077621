"""Named migrations (agent/store/migrations.py): the registry, the record by name, files of
releases that recorded numbers only, and files from a newer or another release.

Every test starts from a real file of an earlier release (``make_previous_store``) and
simulates the next release by registering one more migration (``newer_release``).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from agent.errors import NewerSchemaError
from agent.store.backups import list_backups
from agent.store.db import Store
from agent.store.migrations import MIGRATIONS, known_names, known_version, migration, recorded, run_sql
from tests.support.old_store import make_previous_store, newer_release


def m900_probe_column(conn: sqlite3.Connection) -> None:
    """The kind of migration a release adds: a column, filled for the rows already there
    (a name no real migration will take)."""
    run_sql(conn, "ALTER TABLE calendars ADD COLUMN m900_probe TEXT DEFAULT '';\nUPDATE calendars SET m900_probe = 'old';")


def _record(path: Path) -> list[tuple[int, str | None]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        named = any(row[1] == "name" for row in conn.execute("PRAGMA table_info(schema_migrations)"))
        sql = f"SELECT version, {'name' if named else 'NULL'} FROM schema_migrations ORDER BY version"
        return [(int(version), name) for version, name in conn.execute(sql)]
    finally:
        conn.close()


def _schema(path: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return sorted((str(name), str(sql)) for name, sql in conn.execute("SELECT name, sql FROM sqlite_master"))
    finally:
        conn.close()


def test_the_registry_is_named_in_order_and_the_version_is_its_length() -> None:
    names = known_names()
    assert [int(re.fullmatch(r"m(\d{3})_[a-z0-9_]+", name).group(1)) for name in names] == list(range(1, len(names) + 1))  # type: ignore[union-attr]
    assert known_version() == len(MIGRATIONS) == len(names) >= 6
    with pytest.raises(ValueError):
        migration(MIGRATIONS[0])  # a name is registered once


def test_a_new_file_records_every_migration_by_name_and_number(tmp_path: Path) -> None:
    Store(tmp_path / "new.sqlite3", backups=False).close()
    assert _record(tmp_path / "new.sqlite3") == list(enumerate(known_names(), 1))


def test_a_file_that_recorded_numbers_counts_as_having_run_those_migrations(tmp_path: Path) -> None:
    """A file of a release before names, at this release's schema: nothing to apply, so
    neither its schema nor its record changes (the record stays numbers only)."""
    path = make_previous_store(tmp_path / "numbered.sqlite3", migrations=known_version(), numbered=True)
    before = _schema(path)
    with Store(path, backups=False) as store:
        assert recorded(store.conn) == known_names() and store.schema_version() == known_version()
        assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 4
    assert _record(path) == [(number, None) for number in range(1, known_version() + 1)]
    assert _schema(path) == before


def test_the_previous_release_file_gains_the_last_migration_and_names_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RICHENG_BACKUPS", "1")
    path = make_previous_store(tmp_path / "previous.sqlite3")
    assert _record(path) == [(number, None) for number in range(1, known_version())]
    with Store(path) as store:
        assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 4
    assert _record(path) == list(enumerate(known_names(), 1))
    assert [b.kind for b in list_backups(path)].count("migration") == 1
    fresh = Store(tmp_path / "new.sqlite3", backups=False)
    fresh.close()
    assert _schema(path) == _schema(tmp_path / "new.sqlite3")  # upgraded and new files agree, record included


def test_the_next_release_runs_its_migration_on_a_file_of_this_one(tmp_path: Path) -> None:
    path = make_previous_store(tmp_path / "this.sqlite3", migrations=known_version(), numbered=False)
    released = known_version()
    with newer_release(m900_probe_column), Store(path, backups=False) as store:
        assert store.schema_version() == released + 1
        assert {row[0] for row in store.conn.execute("SELECT m900_probe FROM calendars")} == {"old"}
    assert _record(path)[-1] == (released + 1, "m900_probe_column")


def test_a_release_before_names_can_still_read_a_file_this_one_made(tmp_path: Path) -> None:
    """They read ``MAX(version)`` and insert ``(version, applied_at)``; both still work."""
    Store(tmp_path / "new.sqlite3", backups=False).close()
    conn = sqlite3.connect(tmp_path / "new.sqlite3")
    assert conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone() == (known_version(),)
    conn.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, 'x')", (known_version() + 1,))
    conn.rollback()
    conn.close()


@pytest.mark.parametrize("number", ["next", "same"])
def test_a_file_naming_a_migration_this_code_does_not_know_is_refused_untouched(tmp_path: Path, number: str) -> None:
    """From a newer release (one more), or from another line of releases that added a
    different migration at the same place: the name tells them apart, the count cannot."""

    def m900_elsewhere(conn: sqlite3.Connection) -> None:
        run_sql(conn, "CREATE TABLE elsewhere (x INTEGER);")

    def m900_ours(conn: sqlite3.Connection) -> None:
        run_sql(conn, "CREATE TABLE ours (x INTEGER);")

    path = tmp_path / "theirs.sqlite3"
    with newer_release(m900_elsewhere):
        make_previous_store(path, migrations=known_version())
    before = path.read_bytes()
    ours = (m900_ours,) if number == "same" else ()
    with newer_release(*ours), pytest.raises(NewerSchemaError) as info:
        Store(path)
    assert "m900_elsewhere" in str(info.value) and "untouched" in str(info.value)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()
