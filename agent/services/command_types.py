"""The values of a create round and the pure helpers they share: no store, no clock.

``CommandService`` (``commands.py``) builds these, and the runtime, the receipts, the app
and the evals read them; apart from the service they read as the shapes they are, and
``commands.py`` holds only the rules that write. ``agent.services.commands`` re-exports
the public names, so importing them from there keeps working.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Protocol

from agent.services.text import clean_title
from agent.store.changes import ChangeSet
from agent.store.occurrence import Occurrence

ACTIVE = ("needs_date", "conflict", "past_time", "invalid", "unconfirmed")
IDEMPOTENCY_WINDOW = timedelta(minutes=10)
MAX_DURATION_MINUTES = 7 * 24 * 60


class GroundingCheck(Protocol):
    """Reasons to ask the user before writing ``title`` on ``day`` at ``start`` (empty: go on).

    The agent passes one (``agent/runtime/grounding.py``) so a create the user's words do not
    support becomes an ``unconfirmed`` stub instead of an event; the editor and the CLI pass
    none, because a person typed those slots themselves."""

    def __call__(self, title: str, day: date | None, start: time | None) -> list[str]: ...


@dataclass
class WriteFacts:
    """What this service really committed. Read by the exit guard after a turn."""

    changes: ChangeSet = field(default_factory=ChangeSet)
    event_ids: list[int] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)  # "updated" / "deleted": what a chat edit committed

    @property
    def event_written(self) -> bool:
        return bool(self.event_ids)


@dataclass(frozen=True)
class Stub:
    """A pending create (a ``commands`` row) that later replies and buttons patch."""

    id: int
    title: str
    slots: dict[str, Any]
    status: str
    candidates: list[str]
    expires_at: datetime
    event_id: int | None

    def days(self) -> list[date]:
        """The candidate days it offers, as dates (stored as ISO text; bad entries dropped)."""
        return stub_days(self.candidates)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "slots": self.slots,
            "status": self.status,
            "candidates": self.candidates,
            "expires_at": self.expires_at.isoformat(),
        }


@dataclass
class Outcome:
    """The result of one create round; the receipt is written from this, never by a model."""

    status: str  # created | needs_date | conflict | past_time | invalid | unconfirmed | cancelled | none
    title: str = ""
    command_id: int | None = None
    event: Occurrence | None = None
    candidates: list[date] = field(default_factory=list)
    conflicts: list[Occurrence] = field(default_factory=list)
    message: str | None = None
    calendar: str | None = None
    requested_calendar: str | None = None
    calendar_fell_back: bool = False
    deduplicated: bool = False
    start: datetime | date | None = None
    end: datetime | date | None = None
    reasons: list[str] = field(default_factory=list)  # why an ``unconfirmed`` write asks first
    rejected: list[date] = field(default_factory=list)  # days a reply named that the stub did not offer
    today: date | None = None  # the service's today: receipts show a year only when it differs
    series: dict[str, Any] | None = None  # a repeating create: what code built (``repeat.py``)
    extras: dict[str, Any] = field(default_factory=dict)  # reminder minutes, location, notes
    expires_at: datetime | None = None  # when the pending command this round left expires (its stub's)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "title": self.title,
            "command_id": self.command_id,
            "event": self.event.to_json() if self.event else None,
            "candidates": [day.isoformat() for day in self.candidates],
            "conflicts": [occ.to_json() for occ in self.conflicts],
            "message": self.message,
            "calendar": self.calendar,
            "requested_calendar": self.requested_calendar,
            "calendar_fell_back": self.calendar_fell_back,
            "deduplicated": self.deduplicated,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "rejected": [day.isoformat() for day in self.rejected],
            "today": self.today.isoformat() if self.today else None,
            "series": self.series,
            "extras": self.extras,
        }


@dataclass
class Round:
    """What every outcome of one create round carries (title, calendar, today, and once
    resolved the span and the extras), so each ``Outcome`` is built with typed fields."""

    title: str
    today: date
    calendar: str | None = None
    requested_calendar: str | None = None
    calendar_fell_back: bool = False
    start: datetime | date | None = None
    end: datetime | date | None = None
    series: dict[str, Any] | None = None
    extras: dict[str, Any] = field(default_factory=dict)

    def outcome(
        self,
        status: str,
        *,
        message: str | None = None,
        candidates: list[date] | None = None,
        conflicts: list[Occurrence] | None = None,
        reasons: list[str] | None = None,
        event: Occurrence | None = None,
        deduplicated: bool = False,
    ) -> Outcome:
        return Outcome(
            status,
            title=self.title,
            event=event,
            candidates=list(candidates or []),
            conflicts=list(conflicts or []),
            message=message,
            calendar=self.calendar,
            requested_calendar=self.requested_calendar,
            calendar_fell_back=self.calendar_fell_back,
            deduplicated=deduplicated,
            start=self.start,
            end=self.end,
            reasons=list(reasons or []),
            today=self.today,
            series=self.series,
            extras=dict(self.extras),
        )


def same_title(a: str, b: str) -> bool:
    """Whether a create continues the stub: its title again, whatever the case or spacing."""
    return clean_title(a).casefold() == clean_title(b).casefold()


def stub_days(values: list[str] | list[date]) -> list[date]:
    """A stub's stored ISO days as dates (bad entries are dropped, never raised)."""
    days: list[date] = []
    for value in values:
        if isinstance(value, date):
            days.append(value)
            continue
        try:
            days.append(date.fromisoformat(str(value)))
        except ValueError:
            continue
    return days


def stub_from_row(row: sqlite3.Row) -> Stub:
    """A ``commands`` row as a ``Stub`` (its JSON columns decoded)."""
    return Stub(
        id=int(row["id"]),
        title=row["title"],
        slots=json.loads(row["slots"]),
        status=row["status"],
        candidates=json.loads(row["candidates"]),
        expires_at=datetime.fromisoformat(row["expires_at"]),
        event_id=row["event_id"],
    )
