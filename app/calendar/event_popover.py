"""The event card: a click on an event shows what it is, when, where and how it repeats.

A small frameless window beside the pointer (title, day and times, place, the field
table's shown fields such as the tags and the link, calendar, and the repeat summary of
its series, ``repeat_summary``). It never takes focus or grabs the
pointer, so the view keeps its keys and the next press works as usual; any press (but one
on the card itself, which may be on its link), key or wheel anywhere puts it away, as does
a change in the store.

It watches the views from outside (an event filter on each painted surface), so no view
learns about it: a left press and release at one spot over an event, with no
double-click following within the platform's double-click interval, shows the card. A
drag (the press moved ``DRAG_START`` px) or a double-click (the editor) does not.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping

from PySide6.QtCore import QEvent, QLocale, QObject, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QGuiApplication, QMouseEvent
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from agent.store.fields import SHOWN, Value, as_text, shown
from agent.store.occurrence import Occurrence
from app.calendar.agenda_view import AgendaCanvas, AgendaView
from app.calendar.event_menu import when_text
from app.calendar.event_source import ViewEvent
from app.calendar.invitation_bar import AttendeeList, EventPeople, InvitationBar, answer_from_card
from app.calendar.invitations_out import tell_organizer_of
from app.calendar.repeat_summary import SeriesSummaries
from app.calendar.view_base import DRAG_START, CalendarView, EventSurface
from app.context import AppContext

CARD_WIDTH = 340
OFFSET = 14  # px between the pointer and the card
LocaleStyle = Callable[[], tuple[QLocale, bool]]  # () -> (the calendar's locale, Chinese?)
LINK_SCHEME = re.compile(r"(?:https?://|mailto:)\S+$", re.IGNORECASE)  # what the card makes clickable


def event_under(widget: QObject, pos: QPointF) -> ViewEvent | None:
    """The event a surface draws at ``pos`` (None: empty space, or not a surface)."""
    if isinstance(widget, EventSurface):
        return widget.event_at(pos)
    if isinstance(widget, AgendaCanvas):
        row = widget.row_at(pos)
        return row.event if row is not None else None
    return None


class ShownFields:
    """The field table's ``SHOWN`` fields (the tags, the link …) of the events the calendar
    shows, read from an occurrence's stored VEVENT (its own row when it was moved or
    changed alone, else its series', read once per series) until the store changes
    (``clear``, with the card's ``reset``). The card shows them all; the agenda's line
    those the table marks ``agenda``."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._own: dict[tuple[str, str], dict[str, Value]] = {}
        self._series: dict[str, dict[str, Value]] = {}

    def clear(self) -> None:
        self._own.clear()
        self._series.clear()

    def values(self, occ: Occurrence) -> dict[str, Value]:
        edits = self.ctx.ops.edits
        if occ.recurrence_id is not None and occ.event_id != occ.series_id:  # an override: its own row
            key = (occ.uid, occ.recurrence_id)
            if key not in self._own:
                self._own[key] = shown(edits.component(occ.uid, occ.recurrence_id))
            return self._own[key]
        if occ.uid not in self._series:
            self._series[occ.uid] = shown(edits.component(occ.uid))
        return self._series[occ.uid]

    def agenda_text(self, occ: Occurrence) -> str:
        """The agenda's words for ``occ``: its ``agenda`` fields' values, " · " between."""
        values = self.values(occ)
        return " · ".join(text for item, show in SHOWN if show.agenda and (text := as_text(item.name, values[item.name])))


def link_html(text: str) -> str:
    """``text`` as a clickable link when it is a web or mail address, else as plain words
    (an address from another client may be anything: only these open a browser)."""
    if LINK_SCHEME.match(text):
        return f'<a href="{html.escape(text, quote=True)}">{html.escape(text)}</a>'
    return html.escape(text)


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
        # A line per field the table shows (the tags, the link …), after the place.
        self.fields = {item.name: QLabel(self) for item, _ in SHOWN}
        self.people = AttendeeList(self)  # who is invited and what each said (issue 31)
        self.invitation = InvitationBar(self)
        for label in (self.when, self.place, self.calendar, self.repeat, *self.fields.values()):
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)  # a title or tag of "<b>" is words
        for item, _ in SHOWN:
            if item.kind == "link":  # escaped (link_html); EventPopover opens what is clicked
                self.fields[item.name].setTextFormat(Qt.TextFormat.RichText)
                self.fields[item.name].setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(4)
        layout.addLayout(heading)
        for label in (self.when, self.repeat, self.place, *self.fields.values(), self.people, self.calendar):
            layout.addWidget(label)
        layout.addWidget(self.invitation)
        self.setFixedWidth(CARD_WIDTH)

    def fill(self, event: ViewEvent, when: str, repeat: str, values: Mapping[str, Value] | None = None) -> None:
        occ = event.occ
        self.swatch.setStyleSheet(f"background: {QColor(occ.color or '#3b82f6').name()}; border-radius: 5px")
        self.title.setText(occ.title)
        self.when.setText(when)
        self.repeat.setText(repeat)
        self.repeat.setVisible(bool(repeat))
        self.place.setText(occ.location)
        self.place.setVisible(bool(occ.location))
        for item, show in SHOWN:
            label, text = self.fields[item.name], as_text(item.name, (values or {}).get(item.name))
            if item.kind == "link":
                label.setText(html.escape(self.tr(show.line)).format(link_html(text)) if text else "")
            else:
                label.setText(self.tr(show.line).format(text) if text else "")
            label.setVisible(bool(text))
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
        self.shown = ShownFields(summaries.ctx)  # the agenda reads them too (``watch``)
        for label in self.card.fields.values():
            label.linkActivated.connect(self.open_link)
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
        """Cover ``view``'s surfaces; an agenda also reads the table's shown fields here, so
        the card and the agenda's rows say the same and forget them at the same ``reset``."""
        if isinstance(view, AgendaView):
            view.shown_text = self.shown.agenda_text
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

    def open_link(self, address: str) -> None:
        """A link on the card was clicked: open it where the desktop opens such addresses,
        and put the card away."""
        QDesktopServices.openUrl(QUrl(address))
        self.hide()

    def reset(self) -> None:
        """The store changed: put the card away and forget the summaries read."""
        self.hide()
        self.summaries.clear()
        self.shown.clear()
        self.people.clear()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        on_card = isinstance(watched, QWidget) and (watched is self.card or self.card.isAncestorOf(watched))
        closing = kind in (QEvent.Type.KeyPress, QEvent.Type.Wheel, QEvent.Type.ApplicationDeactivate) or (
            kind == QEvent.Type.MouseButtonPress and not on_card  # a press on the card may be its link's
        )
        if self.card.isVisible() and closing:
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
        self.card.fill(event, when_text(event, locale, chinese), self.summaries.text(event.occ), self.shown.values(event.occ))
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
        if shown is None:
            return
        place = self.people.standing(shown.occ)
        if answer_from_card(self.summaries.ctx, shown.occ, place, partstat) and place.me is not None:
            tell_organizer_of(self.area, self.summaries.ctx, shown.occ, place.me.email)  # the REPLY: server or mail client

    def _show_pending(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None and self.area.isVisible():
            self.show_for(*pending)
