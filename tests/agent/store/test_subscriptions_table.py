"""Migration m007_subscriptions: a file of the previous release opens with the table, its
events kept, and a subscription row goes with its calendar (CONTRIBUTING, "Adding a migration")."""

from __future__ import annotations

from pathlib import Path

from agent.store.db import Store, utc_now_iso
from agent.store.migrations import known_names
from agent.store.read_only import ReadOnlyCalendars
from tests.support.old_store import make_previous_store


def test_a_previous_file_gains_the_table_and_keeps_its_rows(tmp_path: Path) -> None:
    path = make_previous_store(tmp_path / "old.sqlite3")
    with Store(path) as store:
        assert known_names()[-1] == "m007_subscriptions"
        recorded = [row[0] for row in store.conn.execute("SELECT name FROM schema_migrations ORDER BY version")]
        assert recorded[-1] == "m007_subscriptions"
        assert sorted(row[0] for row in store.conn.execute("SELECT uid FROM events")) == ["call", "note", "trip", "weekly"]
        profile, calendar = store.conn.execute("SELECT profile_id, id FROM calendars").fetchone()
        with store.transaction() as conn:
            other = conn.execute(
                "INSERT INTO calendars(profile_id, name, color, is_default, created_at) VALUES (?, 'Feed', '#3b82f6', 0, ?)",
                (profile, utc_now_iso()),
            ).lastrowid
            conn.execute(
                "INSERT INTO subscriptions(profile_id, calendar_id, url, created_at) VALUES (?, ?, 'https://x.invalid/a.ics', ?)",
                (profile, other, utc_now_iso()),
            )
        assert ReadOnlyCalendars(store, profile).kinds() == {other: "subscription"}
        with store.transaction() as conn:
            conn.execute("DELETE FROM calendars WHERE id = ?", (other,))
        assert store.conn.execute("SELECT COUNT(*) FROM subscriptions").fetchone()[0] == 0
        assert ReadOnlyCalendars(store, profile).kinds() == {} and calendar
