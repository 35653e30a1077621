"""What the four views share: an anchor date, a selection, keys, and the requests they emit.

A view never writes. It emits ``create_requested`` / ``move_requested`` /
``delete_requested`` / ``event_activated`` and ``CalendarArea`` decides (scope prompts,
editor, ``ctx.ops``). That keeps the drag code free of recurrence rules and the write
path in one place.

The keys are here too, once for every view: the arrows, Home and End choose events (each
view only says the order of a day's events, ``day_order``, and what ↑/↓ do past a day's
ends, ``past_day_edge``), so the day, week and month views cannot drift apart
(docs/app-calendar.md, "Keyboard selection").

``EventSurface`` is the pointer plumbing of the painted surfaces (the month grid, the week
header's all-day row, the week's time grid): when a press becomes a drag, what a release,
a right-click and a double-click request, and which event to ghost while dragging. Each
surface only says what is under the pointer and where a drag lands.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Generic, Protocol, TypeVar, cast

from PySide6.QtCore import QLocale, QPoint, QPointF, Qt, Signal, SignalInstance
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QWidget

from app.calendar.event_source import ViewEvent
from app.calendar.holidays import DayMark

DRAG_START = 4  # pixels (Manhattan) the pointer moves before a press becomes a drag
Span = tuple[date, date]  # start, end: datetimes for timed events, dates for all-day ones


def week_first_day(day: date, week_start: int) -> date:
    """First day of the week containing ``day``; ``week_start`` is ISO (1 = Monday)."""
    return day - timedelta(days=(day.isoweekday() - week_start) % 7)


class CalendarView(QWidget):
    event_activated = Signal(object)  # ViewEvent: open the editor
    create_requested = Signal(object, object)  # start, end: datetimes, or dates for all-day
    move_requested = Signal(object, object, object)  # ViewEvent, new start, new end (local)
    delete_requested = Signal(object)  # ViewEvent
    anchor_moved = Signal(object)  # date: the keyboard moved the selected day
    day_opened = Signal(object)  # date: "show me this day" (a "+3 more" or a header click)
    selection_changed = Signal(object)  # ViewEvent | None
    context_requested = Signal(object, object)  # ViewEvent, QPoint (global): the event's menu

    name = ""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.anchor = date.today()
        self.week_start = 1
        self.events: list[ViewEvent] = []
        self.marks: dict[date, DayMark] = {}
        self.lunar: dict[date, str] = {}
        self.now = datetime.now()
        self.selected_key: tuple[str, str] | None = None
        self.qlocale = QLocale()  # day and month names; the area sets it from the language

    # ---- what the area sets --------------------------------------------------------------

    def set_anchor(self, day: date) -> None:
        self.anchor = day

    def date_range(self) -> tuple[date, date]:
        """The local days ``[first, end)`` this view shows for its anchor."""
        raise NotImplementedError

    def date_range_for(self, anchor: date, week_start: int) -> tuple[date, date]:
        """``date_range`` for another anchor, without changing this view."""
        saved = self.anchor, self.week_start
        self.anchor, self.week_start = anchor, week_start
        try:
            return self.date_range()
        finally:
            self.anchor, self.week_start = saved

    def step_anchor(self, delta: int) -> date:
        """The anchor ``delta`` pages away (previous/next)."""
        raise NotImplementedError

    def set_data(self, events: list[ViewEvent], marks: dict[date, DayMark], lunar: dict[date, str], now: datetime) -> None:
        self.events = events
        self.marks = marks
        self.lunar = lunar
        self.now = now
        self.relayout()

    def relayout(self) -> None:
        """Recompute what to draw after data or size changed (never inside paintEvent)."""
        self.repaint_all()

    def visible_items(self) -> Sequence[object]:
        """What the view will draw, for tests and accessibility: no pixels needed."""
        raise NotImplementedError

    # ---- selection -----------------------------------------------------------------------

    def select(self, key: tuple[str, str] | None) -> None:
        if key != self.selected_key:
            self.selected_key = key
            self.selection_changed.emit(self.selected_event())
            self.repaint_all()
            self.selection_moved()

    def repaint_all(self) -> None:
        """Schedule a paint of the view and its painted children."""
        self.update()

    def selection_moved(self) -> None:
        """Hook: scroll the selection into view."""

    def select_uid(self, uid: str, start: datetime | None) -> bool:
        """Select the instance of ``uid`` at (or nearest to) local ``start``; True if shown."""
        matches = [event for event in self.events if event.occ.uid == uid]
        if not matches:
            return False
        if start is not None:
            matches.sort(key=lambda event: abs((event.start - start).total_seconds()))
        self.select(matches[0].key)
        return True

    def selected_event(self) -> ViewEvent | None:
        if self.selected_key is None:
            return None
        for event in self.events:
            if event.key == self.selected_key:
                return event
        return None

    # ---- keys ----------------------------------------------------------------------------

    def arrow_days(self, key: Qt.Key) -> int | None:
        """Days an arrow key moves the selected day (←/→); None lets ``keyPressEvent`` go on."""
        return {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(key)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        selected = self.selected_event()
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and selected is not None:
            self.delete_requested.emit(selected)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and selected is not None:
            self.event_activated.emit(selected)
            return
        if selected is not None and (
            key == Qt.Key.Key_Menu or (key == Qt.Key.Key_F10 and event.modifiers() == Qt.KeyboardModifier.ShiftModifier)
        ):
            # The keyboard's way to the event menu (Menu key, Shift+F10), opened at the view.
            self.context_requested.emit(selected, self.mapToGlobal(QPoint(self.width() // 3, self.height() // 3)))
            return
        if key == Qt.Key.Key_Escape and selected is not None:
            self.select(None)
            return
        if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown) and not event.modifiers():
            # By the view's period, as Thunderbird's and GNOME Calendar's (issue 32).
            self.anchor_moved.emit(self.step_anchor(1 if key == Qt.Key.Key_PageDown else -1))
            return
        if key in (Qt.Key.Key_Home, Qt.Key.Key_End) and not event.modifiers():
            self.select_edge(last=key == Qt.Key.Key_End)
            return
        days = self.arrow_days(key)
        if days is not None:
            self.move_day(days)
            return
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.step_in_day(1 if key == Qt.Key.Key_Down else -1)
            return
        super().keyPressEvent(event)

    # ---- keyboard selection (docs/app-calendar.md, "Keyboard selection") ------------------

    def day_order(self, day: date) -> list[ViewEvent]:
        """The events of ``day`` in the order ↑/↓ walk them: day bars first, then by time."""
        return sorted(self.day_events(day), key=lambda event: (not event.is_bar, event.start, event.end, event.occ.title))

    def keyboard_days(self) -> tuple[date, date]:
        """The days Home/End choose from: what the view shows (the month view: its month)."""
        return self.date_range()

    def cursor_day(self) -> date:
        """The day the keys move from: the anchor, or the selected event's day when the
        mouse chose an event on another day."""
        selected = self.selected_event()
        if selected is None or selected.key in {event.key for event in self.day_order(self.anchor)}:
            return self.anchor
        first, end = self.date_range()
        return min(max(selected.first_day, first), end - timedelta(days=1))

    def move_day(self, days: int, *, last: bool = False) -> None:
        """←/→ (and a month's ↑/↓ past a cell): the day ``days`` away, then its first event
        (``last``: its last one), none when the day is empty."""
        day = self.cursor_day() + timedelta(days=days)
        self.select(None)
        self.anchor_moved.emit(day)  # the area pages the view when the day leaves its range
        order = self.day_order(day)
        if order:
            self.select((order[-1] if last else order[0]).key)

    def step_in_day(self, step: int) -> None:
        """↑/↓: the previous/next event of the cursor day; from none, the first (↓) or last (↑)."""
        day = self.cursor_day()
        keys = [event.key for event in self.day_order(day)]
        start = 0 if step > 0 else len(keys) - 1  # from no selection: the first (↓) or the last (↑)
        index = keys.index(self.selected_key) + step if self.selected_key in keys else start
        if 0 <= index < len(keys):
            self.follow(day)
            self.select(keys[index])
            return
        self.past_day_edge(step)

    def past_day_edge(self, step: int) -> None:
        """↑/↓ with no further event in the day: the view's own move (scroll, or a week)."""

    def select_edge(self, *, last: bool) -> None:
        """Home/End: the first/last event of ``keyboard_days``; the day follows it."""
        first, end = self.keyboard_days()
        days = [first + timedelta(days=offset) for offset in range((end - first).days)]
        for day in reversed(days) if last else days:
            order = self.day_order(day)
            if order:
                self.follow(day)
                self.select((order[-1] if last else order[0]).key)
                return

    def follow(self, day: date) -> None:
        """Move the anchor to ``day`` when that does not page the view (the week and the
        month stay; the agenda, which starts at its anchor, would move)."""
        if day != self.anchor and self.date_range_for(day, self.week_start) == self.date_range():
            self.anchor_moved.emit(day)

    def open_context_menu(self, event: ViewEvent | None, global_pos: QPoint) -> None:
        """A right-click on ``event`` (None: on empty space, no menu): select it, ask for its menu."""
        if event is None:
            return
        self.select(event.key)
        self.context_requested.emit(event, global_pos)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            return  # handled as a key press (keyPressEvent), where the selection is known
        super().contextMenuEvent(event)

    def day_events(self, day: date) -> list[ViewEvent]:
        lo = datetime.combine(day, datetime.min.time())
        hi = lo + timedelta(days=1)
        return [event for event in self.events if (event.start < hi and event.end > lo) or event.start == lo]


class Drag(Protocol):
    """A press in progress on a surface: on an event, or on empty space (``event`` None: creating)."""

    event: ViewEvent | None
    press: QPointF
    moved: bool


D = TypeVar("D", bound=Drag)


class EventRequests(Protocol):
    """Where a surface's requests go: its view (a ``CalendarView``), or the week header's own
    signals, which the week view forwards."""

    @property
    def create_requested(self) -> SignalInstance: ...

    @property
    def move_requested(self) -> SignalInstance: ...

    @property
    def event_activated(self) -> SignalInstance: ...

    def open_context_menu(self, event: ViewEvent | None, global_pos: QPoint) -> None: ...


class EventSurface(Generic[D]):
    """The pointer plumbing every painted surface shares; mixed in before its ``QWidget`` base.

    A surface keeps the press in ``drag`` (set in its ``mousePressEvent``) and says four
    things: ``requests`` (where requests go), ``event_at`` (the event under a point),
    ``drag_to`` (follow the pointer once the press is a drag) and ``drag_span`` (where the
    drag lands); ``create_span_at`` (a double-click on empty space) and ``hover`` (the cursor
    shape) are optional. The rest is here, once: a release on a drag from empty space asks to
    create, one on an event asks to move it if it moved; a right-click asks for the event's
    menu (the keyboard's is the view's ``keyPressEvent``); a double-click opens the event, or
    creates on empty space.
    """

    drag: D | None = None

    # ---- what a surface says -------------------------------------------------------------

    def requests(self) -> EventRequests:
        raise NotImplementedError

    def event_at(self, pos: QPointF) -> ViewEvent | None:
        raise NotImplementedError

    def drag_to(self, drag: D, pos: QPointF) -> None:
        """Follow the pointer at ``pos``; the press has become a drag."""
        raise NotImplementedError

    def drag_span(self, drag: D) -> Span | None:
        """Where a finished drag lands: the new event's span, or the moved event's (None: nothing)."""
        raise NotImplementedError

    def create_span_at(self, pos: QPointF) -> Span | None:
        """The span a double-click on empty space at ``pos`` creates (None: nothing)."""
        return None

    def hover(self, pos: QPointF) -> None:
        """The pointer moves with no button down (a cursor shape)."""

    # ---- shared --------------------------------------------------------------------------

    def dragging_key(self) -> tuple[str, str] | None:
        """The event being dragged, painted as a ghost in its old place."""
        drag = self.drag
        return drag.event.key if drag is not None and drag.event is not None and drag.moved else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        drag = self.drag
        if drag is None:
            self.hover(pos)
            return
        if not drag.moved and (pos - drag.press).manhattanLength() < DRAG_START:
            return
        drag.moved = True
        self.drag_to(drag, pos)
        cast(QWidget, self).update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag, self.drag = self.drag, None
        if drag is None or event.button() != Qt.MouseButton.LeftButton:
            return
        cast(QWidget, self).update()
        if not drag.moved:
            return
        span = self.drag_span(drag)
        if span is None:
            return
        if drag.event is None:
            self.requests().create_requested.emit(*span)
        elif span != (drag.event.start, drag.event.end):
            self.requests().move_requested.emit(drag.event, *span)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            return  # handled as a key press (CalendarView.keyPressEvent), where the selection is known
        self.drag = None
        self.requests().open_context_menu(self.event_at(QPointF(event.pos())), event.globalPos())

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self.drag = None
        pos = event.position()
        activated = self.event_at(pos)
        if activated is not None:
            self.requests().event_activated.emit(activated)
            return
        span = self.create_span_at(pos)
        if span is not None:
            self.requests().create_requested.emit(*span)
