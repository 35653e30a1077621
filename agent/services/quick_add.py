"""Quick add: a sentence read by code (``agent/timesym/sentence.py``) written through the one
command layer.

The user says "add" by using the quick-add field or ``richeng quick``, so no model is asked
and no pattern decides intent: code reads the slots and hands them to
``CommandService.prepare_or_create`` like every other create, so conflicts, duplicates, the
past-time check, idempotency and the undo journal behave exactly as for a chat or ``events
add`` create. A preview (``--dry-run``, the field before Enter) reads the same sentence with
the same default length and picks the same calendar, and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from agent.services.command_types import Outcome
from agent.services.commands import CommandService
from agent.timesym.sentence import QuickEvent, parse_quick

#: The outcome words of ``richeng quick --json``: a preview, or the command layer's status
#: with a create that found the same event already there said as ``duplicate``.
PREVIEW = "preview"
DUPLICATE = "duplicate"


@dataclass(frozen=True)
class QuickResult:
    """A read sentence and, unless it was only previewed, what the command layer did."""

    parsed: QuickEvent
    calendar: str
    outcome: Outcome | None = None

    @property
    def word(self) -> str:
        if self.outcome is None:
            return PREVIEW
        if self.outcome.status == "created" and self.outcome.deduplicated:
            return DUPLICATE
        return self.outcome.status

    @property
    def start(self) -> date | datetime | None:
        """The written start: a series may begin on its pattern's first day, not the parsed one."""
        if self.outcome is not None and self.outcome.start is not None:
            return self.outcome.start
        return self.parsed.start

    @property
    def end(self) -> date | datetime | None:
        if self.outcome is not None and self.outcome.end is not None:
            return self.outcome.end
        return self.parsed.end

    def to_json(self) -> dict[str, Any]:
        """The machine-checked shape of ``richeng quick --json`` (README)."""
        start, end = self.start, self.end
        return {
            "title": self.parsed.title,
            "start": start.isoformat() if start is not None else None,
            "end": end.isoformat() if end is not None else None,
            "all_day": start is not None and not isinstance(start, datetime),
            "repeat": self.parsed.freq,
            "calendar": self.calendar,
            "spans": [span.to_json() for span in self.parsed.spans],
            "outcome": self.word,
        }


class QuickAdd:
    """Read and write quick-add sentences for one profile, through one command service."""

    def __init__(self, service: CommandService) -> None:
        self.service = service

    def read(self, text: str) -> QuickEvent:
        minutes = int(self.service.settings.get("default_duration_minutes"))
        return parse_quick(text, self.service.ctx, default_minutes=minutes)

    def calendar_for(self, calendar_name: str | None) -> str:
        return self.service.calendars.choose(calendar_name).calendar.name

    def preview(self, parsed: QuickEvent, calendar_name: str | None = None) -> QuickResult:
        return QuickResult(parsed, self.calendar_for(calendar_name))

    def create(self, parsed: QuickEvent, calendar_name: str | None = None, *, allow_conflict: bool = False) -> QuickResult:
        """Write ``parsed`` (which must have no ``problem``); a conflict is answered, not
        written, unless ``allow_conflict`` says the user already chose to keep both."""
        if parsed.problem is not None or parsed.start is None or parsed.end is None:
            raise ValueError("a sentence with a problem is not an event")
        start, end = parsed.start, parsed.end
        kwargs: dict[str, Any] = {}
        if isinstance(start, datetime):
            assert isinstance(end, datetime)
            kwargs["time"] = f"{start:%H:%M}"
            if end.date() == start.date():
                kwargs["end_time"] = f"{end:%H:%M}"
            else:
                kwargs["duration_minutes"] = int((end - start).total_seconds() // 60)
            day = start.date()
        else:
            day = start
            if end - start > timedelta(days=1):
                kwargs["last_day"] = end - timedelta(days=1)
        outcome = self.service.prepare_or_create(
            parsed.title,
            day.isoformat(),
            calendar_name=calendar_name,
            repeat=parsed.repeat,
            reminder_minutes=parsed.reminder_minutes,
            location=parsed.location,
            fresh=True,
            **kwargs,
        )
        if outcome.status == "conflict" and allow_conflict:
            outcome = self.service.continue_active(allow_conflict=True) or outcome
        return QuickResult(parsed, outcome.calendar or self.calendar_for(calendar_name), outcome)
