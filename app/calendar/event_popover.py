"""The event card: a click on an event shows what it is, when, where and how it repeats.

A small frameless window beside the pointer (title, day and times, place, tags, calendar,
and the repeat summary of its series, ``repeat_summary``). It never takes focus or grabs the
pointer, so the view keeps its keys and the next press works as usual; any press, key or
wheel anywhere puts it away, as does a change in the store.

It watches the views from outside (an event filter on each painted surface), so no view
learns about it: a left press and release at one spot over an event, with no
double-click following within the platform's double-click interval, shows the card. A
drag (the press moved ``DRAG_START`` px) or a double-click (the editor) does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QLocale, QObject, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QMouseEvent
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from agent.store.fields import read
from agent.store.occurrence import Occurrence
from app.calendar.agenda_view import AgendaCanvas, AgendaView
from app.calendar.event_menu import when_text
from app.calendar.event_source import ViewEvent
from app.calendar.invitation_bar import AttendeeList, EventPeople, InvitationBar, answer_from_card
from app.calendar.repeat_summary import SeriesSummaries
from app.calendar.view_base import DRAG_START, CalendarView, EventSurface
from app.context import AppContext

if TYPE_CHECKING:
    import icalendar

CARD_WIDTH = 340
OFFSET = 14  # px between the pointer and the card
LocaleStyle = Callable[[], tuple[QLocale, bool]]  # () -> (the calendar's locale, Chinese?)


def event_under(widget: QObject, pos: QPointF) -> ViewEvent | None:
    """The event a surface draws at ``pos`` (None: empty space, or not a surface)."""
    if isinstance(widget, EventSurface):
        return widget.event_at(pos)
    if isinstance(widget, AgendaCanvas):
        row = widget.row_at(pos)
        return row.event if row is not None else None
    return None


class EventTags:
    """The tags of the events the calendar shows, as one line ("Work, Travel"): the field
    table's categories (agent/store/fields.py), read from an occurrence's stored VEVENT (its
    own row when it was moved or changed alone, else its series', read once per series)
    until the store changes (``clear``, with the card's ``reset``)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._own: dict[tuple[str, str], str] = {}
        self._series: dict[str, str] = {}

    def clear(self) -> None:
        self._own.clear()
        self._series.clear()

    def text(self, occ: Occurrence) -> str:
        edits = self.ctx.ops.edits
        if occ.recurrence_id is not None and occ.event_id != occ.series_id:  # an override: its own row
            key = (occ.uid, occ.recurrence_id)
            if key not in self._own:
                self._own[key] = _tags_line(edits.component(occ.uid, occ.recurrence_id))
            return self._own[key]
        if occ.uid not in self._series:
            self._series[occ.uid] = _tags_line(edits.component(occ.uid))
        return self._series[occ.uid]


def _tags_line(component: icalendar.Event | None) -> str:
    return ", ".join(read(component, "categories")) if component is not None else ""


class EventCard(QFrame):
    """The card itself; its labels are attributes so tests can read them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.ToolTip | Qt.WindowType.FramelessWindowHint)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.swatch = QLabel(self)
        self.swatch.setFixedSize(10, 10)
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        heading = QHBoxLayout()
        heading.addWidget(self.swatch, 0, Qt.AlignmentFlag.AlignVCenter)
        heading.addWidget(self.title, 1)
        self.when = QLabel(self)
        self.place = QLabel(self)
        self.calendar = QLabel(self)
        self.repeat = QLabel(self)
        self.tags = QLabel(self)
        self.people = AttendeeList(self)  # who is invited and what each said (issue 31)
        self.invitation = InvitationBar(self)
        for label in (self.when, self.place, self.calendar, self.repeat, self.tags):
            label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(4)
        layout.addLayout(heading)
        for label in (self.when, self.repeat, self.place, self.tags, self.people, self.calendar):
            layout.addWidget(label)
        layout.addWidget(self.invitation)
        self.setFixedWidth(CARD_WIDTH)

    def fill(self, event: ViewEvent, when: str, repeat: str, tags: str = "") -> None:
        occ = event.occ
        self.swatch.setStyleSheet(f"background: {QColor(occ.color or '#3b82f6').name()}; border-radius: 5px")
        self.title.setText(occ.title)
        self.when.setText(when)
        self.repeat.setText(repeat)
        self.repeat.setVisible(bool(repeat))
        self.place.setText(occ.location)
        self.place.setVisible(bool(occ.location))
        self.tags.setText(self.tr("Tags: {0}").format(tags) if tags else "")
        self.tags.setVisible(bool(tags))
        self.calendar.setText(self.tr("Calendar: {0}").format(occ.calendar) if occ.calendar else "")
        self.calendar.setVisible(bool(occ.calendar))
        self.adjustSize()


class EventPopover(QObject):
    """Shows the card for a clicked event; ``watch`` a view to cover its surfaces."""

    def __init__(self, parent: QWidget, summaries: SeriesSummaries, style: LocaleStyle) -> None:
        super().__init__(parent)
        self.area = parent
        self.summaries = summaries
        self.style = style
        self.card = EventCard(parent)
        self.tags = EventTags(summaries.ctx)  # the agenda reads them too (``watch``)
        self.people = EventPeople(summaries.ctx)
        self._shown: ViewEvent | None = None
        self.card.invitation.answered.connect(self._answer)
        self.delay_ms = QApplication.doubleClickInterval()  # a double-click opens the editor instead
        self._press: tuple[QObject, QPointF] | None = None
        self._pending: tuple[ViewEvent, QPoint] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._show_pending)

    def watch(self, view: CalendarView) -> None:
        """Cover ``view``'s surfaces; an agenda also reads its tags here, so the card and
        the agenda's rows say the same ones and forget them at the same ``reset``."""
        if isinstance(view, AgendaView):
            view.tags_text = self.tags.text
        for widget in (view, *view.findChildren(QWidget)):
            if isinstance(widget, EventSurface | AgendaCanvas):
                widget.installEventFilter(self)

    def hide(self) -> None:
        self._timer.stop()
        self._pending = None
        if self.card.isVisible():
            self.card.hide()
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)

    def reset(self) -> None:
        """The store changed: put the card away and forget the summaries read."""
        self.hide()
        self.summaries.clear()
        self.tags.clear()
        self.people.clear()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        inside = isinstance(watched, QWidget) and (watched is self.card or self.card.isAncestorOf(watched))
        if (
            self.card.isVisible()
            and not inside
            and kind
            in (
                QEvent.Type.MouseButtonPress,
                QEvent.Type.KeyPress,
                QEvent.Type.Wheel,
                QEvent.Type.ApplicationDeactivate,
            )
        ):
            self.hide()
        if watched is QApplication.instance() or not isinstance(event, QMouseEvent):
            return False
        left = event.button() == Qt.MouseButton.LeftButton
        if kind == QEvent.Type.MouseButtonPress:
            self._timer.stop()
            self._press = (watched, event.position()) if left else None
        elif kind == QEvent.Type.MouseButtonDblClick:
            self._timer.stop()
            self._press = None
        elif kind == QEvent.Type.MouseButtonRelease and left and self._press is not None:
            source, at = self._press
            self._press = None
            if source is watched and (event.position() - at).manhattanLength() < DRAG_START:
                found = event_under(watched, event.position())
                if found is not None:
                    self._pending = (found, event.globalPosition().toPoint())
                    self._timer.start(self.delay_ms)
        return False

    def show_for(self, event: ViewEvent, global_pos: QPoint) -> None:
        locale, chinese = self.style()
        self.card.fill(event, when_text(event, locale, chinese), self.summaries.text(event.occ), self.tags.text(event.occ))
        organizer, attendees = self.people.of(event.occ)
        self.card.people.set_people(organizer, attendees)
        self.card.invitation.show_for(self.people.standing(event.occ), organizer)
        self.card.adjustSize()
        self._shown = event
        screen = QGuiApplication.screenAt(global_pos) or QGuiApplication.primaryScreen()
        spot = global_pos + QPoint(OFFSET, OFFSET)
        if screen is not None:
            room = screen.availableGeometry()
            size = self.card.sizeHint()
            if spot.x() + size.width() > room.right():
                spot.setX(max(room.left(), global_pos.x() - OFFSET - size.width()))
            if spot.y() + size.height() > room.bottom():
                spot.setY(max(room.top(), global_pos.y() - OFFSET - size.height()))
        self.card.move(spot)
        self.card.show()
        self.card.raise_()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def _answer(self, partstat: str) -> None:
        """An answer from the card's bar: stored as one undo step; the store's change puts
        the card away."""
        shown = self._shown
        if shown is not None:
            answer_from_card(self.summaries.ctx, shown.occ, self.people.standing(shown.occ), partstat)

    def _show_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None and self.area.isVisible():
            self.show_for(*pending)
