"""The event's right-click menu: edit, duplicate, delete, move to calendar, copy as text.

``CalendarArea`` builds it for the event under the pointer (or the selected one, from the
Menu key / Shift+F10). Every write goes through ``ctx.ops`` like any other edit, so each
is one undo step and the Undo menu item names it; delete takes the same path as the Delete
key (the recurring-scope question, then the "Deleted — Undo" toast).

Duplicate copies one occurrence as a new single event at the same time (a copy of a whole
series is rarely wanted and easy to make by editing the copy's repeat); its title, place,
notes, busy state, calendar and reminders come along, and every field the field table
shows (``SHOWN``: the tags, the link …).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from PySide6.QtCore import QCoreApplication, QLocale, QTime
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from agent.services.calendars import Calendar
from agent.services.editing import EventDraft
from agent.store.fields import Person, shown
from app.calendar.event_source import ViewEvent
from app.calendar.reminder_editor import reminder_minutes
from app.i18n import format_day

if TYPE_CHECKING:
    import icalendar
else:  # on first use, not at the first paint (start-up, issue 14)
    from agent.lazy import lazy_module

    icalendar = lazy_module("icalendar", __name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("EventMenu", text)


def duplicate_draft(
    event: ViewEvent, component: icalendar.Event | None, attendees: tuple[Person, ...] | None = None
) -> EventDraft:
    """A new single event equal to this occurrence, in its own zone and calendar;
    ``attendees``: the people a copy of the user's own meeting invites again."""
    occ = event.occ
    start, end = occ.start, occ.end
    if isinstance(start, datetime) and isinstance(end, datetime) and start.tzinfo is not None and occ.tzid:
        start, end = start.astimezone(ZoneInfo(occ.tzid)), end.astimezone(ZoneInfo(occ.tzid))
    return EventDraft(
        occ.title,
        start,
        end,
        occ.calendar_id,
        description=occ.description,
        location=occ.location,
        transp=occ.transp,
        alarm_minutes=reminder_minutes(component),
        extra=shown(component),  # the tags, the link …: every field the editor shows
        attendees=attendees,
    )


def event_text(event: ViewEvent, locale: QLocale, chinese: bool) -> str:
    """The event as plain text for the clipboard (always with the year: it leaves the app)."""
    occ = event.occ
    lines = [occ.title, when_text(event, locale, chinese)]
    if occ.location:
        lines.append(occ.location)
    if occ.description:
        lines.append(occ.description)
    return "\n".join(lines)


def when_text(event: ViewEvent, locale: QLocale, chinese: bool) -> str:
    """The occurrence's day(s) and times, with the year (the clipboard text, the event card)."""
    occ = event.occ
    day_format = "yyyy年M月d日 dddd" if chinese else "dddd, MMMM d, yyyy"

    def day_text(day: date) -> str:
        return format_day(locale, day, day_format)

    def clock(value: datetime) -> str:
        return locale.toString(QTime(value.hour, value.minute), "HH:mm")

    if occ.all_day:
        last = event.end.date() - timedelta(days=1) if event.end.date() > event.start.date() else event.start.date()
        when = day_text(event.start.date())
        if last != event.start.date():
            when += " – " + day_text(last)
        when += "，" + _tr("all day") if chinese else ", " + _tr("all day")
    elif event.start.date() == event.end.date() or event.end == datetime.combine(
        event.start.date() + timedelta(days=1), datetime.min.time()
    ):
        when = f"{day_text(event.start.date())} {clock(event.start)}–{clock(event.end)}"
    else:
        when = f"{day_text(event.start.date())} {clock(event.start)} – {day_text(event.end.date())} {clock(event.end)}"
    return when


class EventMenu(QMenu):
    """The menu for one event; its actions are attributes so tests can trigger them."""

    def __init__(
        self, event: ViewEvent, calendars: list[Calendar], parent: QWidget | None = None, *, invites: bool = False
    ) -> None:
        """``invites``: the user's meeting on a calendar no server schedules, which offers its
        invitation file again (app/calendar/invitations_out.py)."""
        super().__init__(parent)
        self.view_event = event  # not "event": that would shadow QObject.event()
        self.edit_action = self.addAction(self.tr("Edit…"))
        self.duplicate_action = self.addAction(self.tr("Duplicate"))
        self.move_menu = self.addMenu(self.tr("Move to calendar"))
        self.calendar_actions: dict[int, QAction] = {}
        for calendar in calendars:
            action = self.move_menu.addAction(calendar.name)
            action.setCheckable(True)
            action.setChecked(calendar.id == event.occ.calendar_id)
            action.setEnabled(calendar.id != event.occ.calendar_id)
            action.setData(calendar.id)
            self.calendar_actions[calendar.id] = action
        self.move_menu.setEnabled(len(calendars) > 1)
        self.copy_action = self.addAction(self.tr("Copy as text"))
        self.invite_action = QAction(self.tr("Save invitation for your mail client…"), self)
        if invites:  # only then in the menu
            self.addAction(self.invite_action)
        self.addSeparator()
        self.delete_action = self.addAction(self.tr("Delete"))
