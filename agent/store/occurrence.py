"""One instance of an event as views, tools and reminders see it: a plain value.

Range queries (``EventRepo.occurrences``) build these; the app holds and passes them and
never needs the repository to read one (the import-linter contract in pyproject.toml keeps
``app`` off the store's internals: it may import this module, the change sets
(agent/store/changes.py) and ``Store`` itself).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, NamedTuple


class Occurrence(NamedTuple):
    """One instance as views and tools see it.

    A named tuple rather than a dataclass: a month view builds thousands of these per
    query, and tuple construction is several times cheaper than a frozen dataclass's."""

    event_id: int
    series_id: int
    uid: str
    recurrence_id: str | None
    title: str
    start: datetime | date
    end: datetime | date
    all_day: bool
    floating: bool
    tzid: str | None
    calendar: str
    calendar_id: int
    color: str
    location: str
    description: str
    transp: str
    status: str
    completed: bool
    origin: str

    def to_json(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "title": self.title,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "all_day": self.all_day,
            "calendar": self.calendar,
            "recurrence_id": self.recurrence_id,
        }
