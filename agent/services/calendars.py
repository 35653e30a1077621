"""Calendars of one profile: names, colours, visibility and the single default."""

from __future__ import annotations

import builtins  # the class's own ``list`` method shadows the builtin in later annotations
import re
from dataclasses import dataclass
from typing import Any

from agent.errors import NotFoundError, ValidationError
from agent.services.text import MAX_CALENDAR_NAME, check_text
from agent.store.changes import Change, ChangeSet
from agent.store.db import Store, utc_now_iso
from agent.store.journal_record import collect as journal_collect
from agent.store.journal_record import collect_calendar
from agent.store.profiles import DEFAULT_CALENDAR_NAME

PALETTE = ["#3b82f6", "#ef4444", "#10b981", "#f59e0b", "#8b5cf6", "#ec4899", "#14b8a6", "#64748b"]
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Calendar:
    id: int
    name: str
    color: str
    is_default: bool
    visible: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "color": self.color, "default": self.is_default, "visible": self.visible}


@dataclass(frozen=True)
class CalendarChoice:
    """The calendar a write will use, and whether the asked-for name was not found."""

    calendar: Calendar
    requested: str | None
    fell_back: bool


class CalendarService:
    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id

    def list(self) -> list[Calendar]:
        return list_calendars(self.store, self.profile_id)

    def names(self) -> builtins.list[str]:
        return [calendar.name for calendar in self.list()]

    def get(self, name: str) -> Calendar:
        row = self.store.conn.execute(
            "SELECT * FROM calendars WHERE profile_id = ? AND name = ?", (self.profile_id, name.strip())
        ).fetchone()
        if row is None:
            raise NotFoundError("services.no_calendar", name=name, calendars=", ".join(self.names()))
        return _calendar(row)

    def by_id(self, calendar_id: int) -> Calendar:
        row = self.store.conn.execute(
            "SELECT * FROM calendars WHERE profile_id = ? AND id = ?", (self.profile_id, calendar_id)
        ).fetchone()
        if row is None:
            raise NotFoundError("services.no_calendar_id", id=calendar_id)
        return _calendar(row)

    def default(self) -> Calendar:
        row = self.store.conn.execute(
            "SELECT * FROM calendars WHERE profile_id = ? ORDER BY is_default DESC, id LIMIT 1",
            (self.profile_id,),
        ).fetchone()
        if row is None:
            return self.add(DEFAULT_CALENDAR_NAME, default=True)
        return _calendar(row)

    def choose(self, name: str | None) -> CalendarChoice:
        """The user's calendar by name; an unknown name falls back to the default, and says so.

        Matching ignores case and surrounding spaces because the model copies names from
        the prompt and may change either.
        """
        if name and name.strip():
            wanted = name.strip().casefold()
            for calendar in self.list():
                if calendar.name.casefold() == wanted:
                    return CalendarChoice(calendar, name, False)
            return CalendarChoice(self.default(), name, True)
        return CalendarChoice(self.default(), None, False)

    def add(self, name: str, color: str | None = None, default: bool = False) -> Calendar:
        name = check_text(name, "calendar_name", MAX_CALENDAR_NAME)
        if not name:
            raise ValidationError("services.calendar_needs_name")
        if color is not None and not _COLOR.match(color):
            raise ValidationError("services.bad_colour", color=color)
        if any(existing.casefold() == name.casefold() for existing in self.names()):
            raise ValidationError("services.calendar_exists", name=name)
        with self.store.transaction() as conn:
            count = conn.execute("SELECT COUNT(*) FROM calendars WHERE profile_id = ?", (self.profile_id,)).fetchone()[0]
            make_default = default or count == 0
            if make_default:
                conn.execute("UPDATE calendars SET is_default = 0 WHERE profile_id = ?", (self.profile_id,))
            cur = conn.execute(
                "INSERT INTO calendars(profile_id, name, color, is_default, created_at) VALUES (?, ?, ?, ?, ?)",
                (self.profile_id, name, color or PALETTE[count % len(PALETTE)], int(make_default), utc_now_iso()),
            )
            collect_calendar(self.store, self.profile_id, "created", int(cur.lastrowid or 0))  # undoable
        return self.by_id(int(cur.lastrowid or 0))

    def update(
        self, name: str, *, new_name: str | None = None, color: str | None = None, visible: bool | None = None
    ) -> Calendar:
        calendar = self.get(name)
        if color is not None and not _COLOR.match(color):
            raise ValidationError("services.bad_colour", color=color)
        if new_name is not None:
            new_name = check_text(new_name, "calendar_name", MAX_CALENDAR_NAME)
            if not new_name:
                raise ValidationError("services.calendar_needs_name")
            if new_name.casefold() != calendar.name.casefold() and any(
                existing.casefold() == new_name.casefold() for existing in self.names()
            ):
                raise ValidationError("services.calendar_exists", name=new_name)
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE calendars SET name = COALESCE(?, name), color = COALESCE(?, color),"
                " visible = COALESCE(?, visible) WHERE id = ?",
                (new_name, color, None if visible is None else int(visible), calendar.id),
            )
        return self.by_id(calendar.id)

    def set_default(self, name: str) -> Calendar:
        calendar = self.get(name)
        with self.store.transaction() as conn:
            conn.execute("UPDATE calendars SET is_default = 0 WHERE profile_id = ?", (self.profile_id,))
            conn.execute("UPDATE calendars SET is_default = 1 WHERE id = ?", (calendar.id,))
        return self.by_id(calendar.id)

    def delete(self, name: str) -> ChangeSet:
        """Delete a calendar and its events; the last calendar cannot go. One journal entry
        holds the calendar row and its events' before-images, so undo (``richeng undo``, the
        app's Ctrl+Z) restores both; returns the events' change set."""
        calendar = self.get(name)
        if len(self.list()) == 1:
            raise ValidationError("services.last_calendar")
        with self.store.transaction() as conn:
            rows = conn.execute(
                "SELECT * FROM events WHERE profile_id = ? AND calendar_id = ? ORDER BY recurrence_id, id",
                (self.profile_id, calendar.id),
            ).fetchall()
            events = ChangeSet(
                deleted=[
                    Change(row["uid"], row["recurrence_id"], row["id"], row["ics"], row["calendar_id"], row["origin"],
                           row["source"])
                    for row in rows
                ]
            )  # fmt: skip
            collect_calendar(self.store, self.profile_id, "deleted", calendar.id)
            journal_collect(self.store, self.profile_id, events)
            conn.execute("DELETE FROM calendars WHERE id = ?", (calendar.id,))
            if calendar.is_default:
                conn.execute(
                    "UPDATE calendars SET is_default = 1 WHERE id = (SELECT MIN(id) FROM calendars WHERE profile_id = ?)",
                    (self.profile_id,),
                )
        return events


def list_calendars(store: Store, profile_id: int) -> list[Calendar]:
    """The profile's calendars, the default first: a read, for code that must not hold a
    writing service (the app's printing, whose writes all go through its op runner)."""
    rows = store.conn.execute(
        "SELECT * FROM calendars WHERE profile_id = ? ORDER BY is_default DESC, id", (profile_id,)
    ).fetchall()
    return [_calendar(row) for row in rows]


def _calendar(row: Any) -> Calendar:
    return Calendar(row["id"], row["name"], row["color"], bool(row["is_default"]), bool(row["visible"]))
