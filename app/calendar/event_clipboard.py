"""Copy and paste of events (issue 32): Ctrl+C on a selected event, Ctrl+V onto the selected
day, as Thunderbird, Outlook and GNOME Calendar do.

What is copied is the event as a new single event (``event_menu.duplicate_draft``: title,
place, notes, reminders, tags, calendar, busy; an occurrence of a series pastes as one event,
not as a second series). The system clipboard gets its text too, for other programs. A paste
lands on the day the keys or a click chose (the area's anchor), at the copied time of day in
the copied event's own zone and with its length; an all-day event keeps its number of days.
Each paste is one create on the undo stack.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

from agent.services.editing import EventDraft


def pasted_draft(draft: EventDraft, day: date) -> EventDraft:
    """``draft`` moved to ``day``, keeping its time of day and its length."""
    start, end = draft.start, draft.end
    if isinstance(start, datetime) and isinstance(end, datetime):
        moved = datetime.combine(day, start.time(), tzinfo=start.tzinfo)
        return replace(draft, start=moved, end=moved + (end - start))
    assert not isinstance(start, datetime) and not isinstance(end, datetime)
    return replace(draft, start=day, end=day + max(end - start, timedelta(days=1)))
