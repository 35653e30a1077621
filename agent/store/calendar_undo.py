"""Taking back the calendars of a journal entry: a deleted calendar comes back before its
events do, a created one goes after its events have.

Why in the journal and not beside it: a calendar deletion used to be the one change that
only the window could undo (its events went by cascade, outside the journal, and the
window kept a snapshot on its own stack). Now ``CalendarService.add``/``delete`` record
the calendar row (``journal_record.collect_calendar``) in the same entry as the events the
deletion took, so ``richeng undo``, the app's Ctrl+Z and a restart all see one history.

Exact or nothing, like event rows: a calendar to restore whose name is taken again, or a
calendar to remove that holds events this entry did not make (or is the last one, or is
mapped to a server calendar), refuses the whole revert (``JournalError``; the caller's transaction rolls back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent.errors import JournalError
from agent.store.journal_record import CalendarRow, collect_calendar

if TYPE_CHECKING:
    from agent.store.db import Store


def restore_deleted(store: Store, profile_id: int, change_id: int, calendars: list[CalendarRow]) -> dict[int, int]:
    """Put back the calendars the entry deleted (newest deletion first); returns old id → id
    now (the old id is reused when still free, so a sync mapping keyed by it holds again)."""
    conn = store.conn
    names = {str(r[0]).casefold() for r in conn.execute("SELECT name FROM calendars WHERE profile_id = ?", (profile_id,))}
    moved: dict[int, int] = {}
    for calendar in reversed([c for c in calendars if c.op == "deleted"]):
        if calendar.name.casefold() in names:
            raise JournalError("store.undo_calendar_exists", change_id=change_id, name=calendar.name)
        taken = conn.execute("SELECT 1 FROM calendars WHERE id = ?", (calendar.id,)).fetchone() is not None
        if calendar.is_default:
            conn.execute("UPDATE calendars SET is_default = 0 WHERE profile_id = ?", (profile_id,))
        cur = conn.execute(
            "INSERT INTO calendars(id, profile_id, name, color, is_default, visible, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (None if taken else calendar.id, profile_id, calendar.name, calendar.color, int(calendar.is_default),
             int(calendar.visible), calendar.created_at),
        )  # fmt: skip
        new_id = int(cur.lastrowid or 0)
        moved[calendar.id] = new_id
        names.add(calendar.name.casefold())
        collect_calendar(store, profile_id, "created", new_id)
    return moved


def remove_created(store: Store, profile_id: int, change_id: int, calendars: list[CalendarRow]) -> None:
    """Remove the calendars the entry created, once its events are gone; one that is gone
    already is skipped (nothing to take back)."""
    conn = store.conn
    for calendar in reversed([c for c in calendars if c.op == "created"]):
        row = conn.execute("SELECT * FROM calendars WHERE id = ? AND profile_id = ?", (calendar.id, profile_id)).fetchone()
        if row is None:
            continue
        held = conn.execute("SELECT 1 FROM events WHERE calendar_id = ? LIMIT 1", (calendar.id,)).fetchone()
        synced = conn.execute("SELECT 1 FROM sync_calendars WHERE calendar_id = ? LIMIT 1", (calendar.id,)).fetchone()
        count = conn.execute("SELECT COUNT(*) FROM calendars WHERE profile_id = ?", (profile_id,)).fetchone()[0]
        if held is not None or synced is not None or count <= 1:  # a sync mapping would go with it, and not come back
            raise JournalError("store.undo_calendar_in_use", change_id=change_id, name=row["name"])
        collect_calendar(store, profile_id, "deleted", calendar.id)
        conn.execute("DELETE FROM calendars WHERE id = ?", (calendar.id,))
        if row["is_default"]:
            conn.execute(
                "UPDATE calendars SET is_default = 1 WHERE id = (SELECT MIN(id) FROM calendars WHERE profile_id = ?)",
                (profile_id,),
            )


def described(calendars: list[CalendarRow]) -> list[dict[str, Any]]:
    """What the revert did to calendars, as ``richeng undo --json`` lists it."""
    return [{"action": "restored" if c.op == "deleted" else "removed", "name": c.name} for c in calendars]
