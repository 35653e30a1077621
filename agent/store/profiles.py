"""Profiles: the unit of ownership. Every service is built bound to one profile id."""

from __future__ import annotations

from agent.store.db import Store, utc_now_iso

DEFAULT_PROFILE = "default"
DEFAULT_CALENDAR_NAME = "日程"


def ensure_profile(store: Store, name: str = DEFAULT_PROFILE, calendar_name: str = DEFAULT_CALENDAR_NAME) -> int:
    """The id of profile ``name``, creating it (with a default calendar) on first use.

    ``calendar_name`` names that first calendar; the app passes one in its UI language
    (an English first run gets "Calendar", not "日程"), the CLI keeps the default."""
    row = store.conn.execute("SELECT id FROM profiles WHERE name = ?", (name,)).fetchone()
    if row is not None:
        return int(row["id"])
    with store.transaction() as conn:
        cur = conn.execute("INSERT INTO profiles(name, created_at) VALUES (?, ?)", (name, utc_now_iso()))
        profile_id = int(cur.lastrowid or 0)
        conn.execute(
            "INSERT INTO calendars(profile_id, name, color, is_default, created_at) VALUES (?, ?, ?, 1, ?)",
            (profile_id, calendar_name.strip() or DEFAULT_CALENDAR_NAME, "#3b82f6", utc_now_iso()),
        )
    return profile_id
