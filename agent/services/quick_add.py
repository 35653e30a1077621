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
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from agent.messages.catalogue import render
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
    user_zone: str = "UTC"  # the profile's zone: "tz" when the sentence named none

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
            "repeat": self.repeat,
            "calendar": self.calendar,
            "spans": [span.to_json() for span in self.parsed.spans],
            "outcome": self.word,
            "rrule": self.rrule,
            "tz": self.parsed.zone or self.user_zone,
            "categories": list(self.parsed.categories),
        }

    @property
    def repeat(self) -> str | None:
        """DAILY, WEEKLY, MONTHLY, YEARLY, LUNAR_YEARLY or None (README)."""
        rule = self.parsed.rule
        if rule is not None and rule.lunar:
            return "LUNAR_YEARLY"
        return rule.freq if rule is not None else self.parsed.freq

    @property
    def rrule(self) -> str | None:
        """The RRULE value (no ``RRULE:``) the event is written with; None for none and for 农历."""
        rule, start = self.parsed.rule, self.start
        if rule is None or start is None:
            return None
        return rule.to_rrule(start)


def zone_line(parsed: QuickEvent, user_zone: tzinfo, lang: str = "en") -> str | None:
    """ "16:00 CET = 23:00 here" for an event pinned to a zone the sentence named (None when
    it named none or the event is all-day): the preview shows both clocks before Enter."""
    start = parsed.start
    if parsed.zone is None or not isinstance(start, datetime):
        return None
    here = start.astimezone(user_zone)
    day = "" if here.date() == start.date() else f" {here:%m-%d}"
    return render(
        "timesym.quick_zone", lang, there=f"{start:%H:%M}", label=parsed.zone_label or parsed.zone, here=f"{here:%H:%M}{day}"
    )


class QuickAdd:
    """Read and write quick-add sentences for one profile, through one command service."""

    def __init__(self, service: CommandService) -> None:
        self.service = service

    def read(self, text: str) -> QuickEvent:
        minutes = int(self.service.settings.get("default_duration_minutes"))
        return parse_quick(text, self.service.ctx, default_minutes=minutes)

    def _reminder(self, parsed: QuickEvent) -> int | None:
        """The sentence's reminder, else the default a new timed event starts with (Settings)."""
        if parsed.reminder_minutes is not None or not isinstance(parsed.start, datetime):
            return parsed.reminder_minutes
        default = self.service.settings.get("default_reminder_minutes")
        return None if default is None else int(default)

    def calendar_for(self, calendar_name: str | None) -> str:
        return self.service.calendars.choose(calendar_name).calendar.name

    @property
    def user_zone(self) -> str:
        return str(getattr(self.service.ctx.tz, "key", self.service.ctx.tz))

    def preview(self, parsed: QuickEvent, calendar_name: str | None = None) -> QuickResult:
        return QuickResult(parsed, self.calendar_for(calendar_name), user_zone=self.user_zone)

    def create(self, parsed: QuickEvent, calendar_name: str | None = None, *, allow_conflict: bool = False) -> QuickResult:
        """Write ``parsed`` (which must have no ``problem``); a conflict is answered, not
        written, unless ``allow_conflict`` says the user already chose to keep both."""
        if parsed.problem is not None or parsed.start is None or parsed.end is None:
            raise ValueError("a sentence with a problem is not an event")  # unread words included: nothing is guessed
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
        rule = parsed.rule
        if rule is not None and rule.lunar:
            kwargs["repeat"] = "LUNAR_YEARLY"
        elif rule is not None:
            # the rule without its end; the end goes as the command layer's own words
            kwargs["rrule"] = rule.ending().to_rrule(start)
            if rule.count is not None:
                kwargs["repeat_count"] = rule.count
            elif rule.until is not None:
                kwargs["repeat_until"] = rule.until.isoformat()
        else:
            kwargs["repeat"] = parsed.repeat
        outcome = self.service.prepare_or_create(
            parsed.title,
            day.isoformat(),
            calendar_name=calendar_name,
            zone=parsed.zone,
            reminder_minutes=self._reminder(parsed),
            location=parsed.location,
            fresh=True,
            fields={"categories": parsed.categories} if parsed.categories else None,
            **kwargs,
        )
        if outcome.status == "conflict" and allow_conflict:
            outcome = self.service.continue_active(allow_conflict=True) or outcome
        return QuickResult(parsed, outcome.calendar or self.calendar_for(calendar_name), outcome, self.user_zone)
