"""Read-only calendars: the one notion every write path asks (issue 29, issue 31 item 6).

A calendar is read-only when its CalDAV server said so at the last sync (the calendar's
``current-user-privilege-set`` lacks write; sync keeps those ids in the settings row
``READ_ONLY_KEY``; only while the calendar is still synced) or when it is a subscription (a row of ``subscriptions``, fed by a
published .ics URL). Nothing the user does may write into one: ``EventRepo`` checks every
save, delete and restore against ``ReadOnlyCalendars.check`` unless it was made for the
two writers that keep such a calendar in step with its source (a sync pull, a subscription
refresh: ``EventRepo(..., feed=True)``). The check sits in the store's one write path, not
in the app or the chat, so a new path (a CLI command, the op runner) cannot miss it; the
app and the chat also ask it first, to say so before the user has typed anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Literal

from agent.errors import ValidationError
from agent.store.db import Store

READ_ONLY_KEY = "sync_read_only_calendars"  # settings: local calendar ids whose server calendar is read-only

Why = Literal["server", "subscription"]
_CODES: dict[Why, str] = {"server": "store.calendar_read_only", "subscription": "store.calendar_subscribed"}


class ReadOnlyCalendarError(ValidationError):
    """A write into a read-only calendar; nothing was written. ``calendar_id`` and ``why``
    let a caller (the chat's tool result, the app) say which and why."""

    def __init__(self, calendar_id: int, name: str, why: Why) -> None:
        super().__init__(_CODES[why], name=name)
        self.calendar_id = calendar_id
        self.why = why


class ReadOnlyCalendars:
    """Which of a profile's calendars are read-only, and why; read fresh on every call
    (a sync or a new subscription may change the answer between two writes)."""

    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id

    def kinds(self) -> dict[int, Why]:
        """Calendar id → why it is read-only, for every read-only calendar of the profile."""
        conn = self.store.conn
        found: dict[int, Why] = {}
        row = conn.execute(
            "SELECT value FROM settings WHERE profile_id = ? AND key = ?", (self.profile_id, READ_ONLY_KEY)
        ).fetchone()
        if row is not None:
            try:
                value = json.loads(row["value"])
            except ValueError:
                value = []
            mapped = {
                int(row[0])
                for row in conn.execute(
                    "SELECT sc.calendar_id FROM sync_calendars sc JOIN sync_accounts a ON a.id = sc.account_id"
                    " WHERE a.profile_id = ?",
                    (self.profile_id,),
                )
            }  # a calendar no longer synced (unmapped, its account removed) is the user's own again
            for item in value if isinstance(value, list) else []:
                if isinstance(item, int) and item in mapped:
                    found[item] = "server"
        for (calendar_id,) in conn.execute("SELECT calendar_id FROM subscriptions WHERE profile_id = ?", (self.profile_id,)):
            found[int(calendar_id)] = "subscription"
        return found

    def ids(self) -> set[int]:
        return set(self.kinds())

    def why(self, calendar_id: int) -> Why | None:
        return self.kinds().get(calendar_id)

    def check(self, calendar_ids: int | Iterable[int | None]) -> None:
        """Raise ``ReadOnlyCalendarError`` when any of ``calendar_ids`` is read-only."""
        wanted = {calendar_ids} if isinstance(calendar_ids, int) else {c for c in calendar_ids if c is not None}
        if not wanted:
            return
        kinds = self.kinds()
        for calendar_id in sorted(wanted):
            why = kinds.get(calendar_id)
            if why is not None:
                row = self.store.conn.execute("SELECT name FROM calendars WHERE id = ?", (calendar_id,)).fetchone()
                raise ReadOnlyCalendarError(calendar_id, str(row["name"]) if row is not None else str(calendar_id), why)

    def check_uid(self, uid: str, calendar_id: int | None = None, *, feed: int | None = None) -> None:
        """Raise when ``calendar_id`` or the calendar of any stored row of ``uid`` is read-only
        (moving an event out of a read-only calendar writes that calendar too). ``feed`` is
        the one calendar its own sync or refresh may write."""
        rows = self.store.conn.execute(
            "SELECT DISTINCT calendar_id FROM events WHERE profile_id = ? AND uid = ?", (self.profile_id, uid)
        ).fetchall()
        self.check(c for c in [calendar_id, *(int(row[0]) for row in rows)] if c != feed)
