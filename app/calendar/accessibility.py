"""The painted views, as assistive technology sees them (issue 32).

The day, week, month and agenda views paint their events; to a screen reader a view was one
empty widget. ``install`` registers a ``QAccessible`` factory: a view's interface is a list
whose children are its events, each named "title, day and time, calendar" (the event card's
words, ``event_menu.when_text``), with the selected one marked selected and focused; a change
of selection (mouse or keys) is announced as the focus moving to that event, so a reader
follows the keyboard. Qt's AT-SPI bridge (Linux) reads these interfaces like any widget's.

Each event reports the rectangle it is painted in, on screen (``painted_rect``), not its view's:
a reader's focus highlight and a click made through accessibility (AT-SPI's ``grabFocus``,
a magnifier following focus, an on-screen keyboard's pointer) land on the event itself, and
``childAt`` finds the event under a point the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, QRect, QRectF
from PySide6.QtGui import QAccessible, QAccessibleEvent, QAccessibleInterface, QWindow
from PySide6.QtWidgets import QAccessibleWidget, QWidget

from app.calendar.event_menu import when_text

if TYPE_CHECKING:
    from app.calendar.event_source import ViewEvent
    from app.calendar.view_base import CalendarView

_INSTALLED: list[bool] = []


class EventAccessible(QAccessibleInterface):
    """One event of a view: a list item with its title, time and calendar."""

    def __init__(self, view_iface: ViewAccessible, key: tuple[str, str]) -> None:
        super().__init__()
        self.view_iface = view_iface
        self.key = key

    def event(self) -> ViewEvent | None:
        for event in self.view_iface.view.events:
            if event.key == self.key:
                return event
        return None

    def isValid(self) -> bool:  # Qt's names, as the interface declares them
        return self.event() is not None

    def object(self) -> QObject | None:  # type: ignore[override]
        return None

    def window(self) -> QWindow:
        return self.view_iface.window()

    def relations(
        self, match: QAccessible.RelationFlag = QAccessible.RelationFlag.AllRelations
    ) -> list[tuple[QAccessibleInterface, QAccessible.RelationFlag]]:
        return []

    def focusChild(self) -> QAccessibleInterface | None:  # type: ignore[override]
        return None

    def childAt(self, x: int, y: int) -> QAccessibleInterface | None:  # type: ignore[override]
        return None

    def parent(self) -> QAccessibleInterface:
        return self.view_iface

    def child(self, index: int) -> QAccessibleInterface | None:  # type: ignore[override]
        return None

    def childCount(self) -> int:
        return 0

    def indexOfChild(self, child: QAccessibleInterface) -> int:
        return -1

    def text(self, kind: QAccessible.Text) -> str:
        event = self.event()
        if event is None or kind not in (QAccessible.Text.Name, QAccessible.Text.Description):
            return ""
        view = self.view_iface.view
        chinese = view.qlocale.language() == view.qlocale.Language.Chinese
        if kind == QAccessible.Text.Description:
            return event.occ.location
        return ", ".join(part for part in (event.occ.title, when_text(event, view.qlocale, chinese), event.occ.calendar) if part)

    def setText(self, kind: QAccessible.Text, text: str) -> None:
        return None

    def rect(self) -> QRect:
        found = self.view_iface.painted_rect(self.key)
        return found[0] if found is not None else QRect()

    def role(self) -> QAccessible.Role:
        return QAccessible.Role.ListItem

    def state(self) -> QAccessible.State:
        state = QAccessible.State()
        state.selectable = True
        state.focusable = True
        found = self.view_iface.painted_rect(self.key)
        if found is None or not found[1]:
            state.offscreen = True  # scrolled out of view, or behind a "+N more"
        if found is None:
            state.invisible = True
        if self.view_iface.view.selected_key == self.key:
            state.selected = True
            state.focused = self.view_iface.view.hasFocus()
        return state


class ViewAccessible(QAccessibleWidget):
    """A view: a list of its events (the children are made once per event and kept)."""

    def __init__(self, view: CalendarView) -> None:
        super().__init__(view, QAccessible.Role.List, view.accessibleName())
        self.view = view
        self.items: dict[tuple[str, str], EventAccessible] = {}
        self._parts: dict[tuple[str, str], list[tuple[QWidget, QRectF]]] = {}
        self._parts_token: object = None

    def keys(self) -> list[tuple[str, str]]:
        return [event.key for event in self.view.events]

    def childCount(self) -> int:
        return len(self.view.events)

    def child(self, index: int) -> QAccessibleInterface | None:  # type: ignore[override]
        keys = self.keys()
        if not 0 <= index < len(keys):
            return None
        key = keys[index]
        if key not in self.items:
            self.items[key] = EventAccessible(self, key)
        return self.items[key]

    def indexOfChild(self, child: QAccessibleInterface) -> int:
        key = getattr(child, "key", None)
        keys = self.keys()
        return keys.index(key) if key in keys else -1

    def focusChild(self) -> QAccessibleInterface | None:  # type: ignore[override]
        keys = self.keys()
        return self.child(keys.index(self.view.selected_key)) if self.view.selected_key in keys else None

    def childAt(self, x: int, y: int) -> QAccessibleInterface | None:  # type: ignore[override]
        """The event painted under the global point (x, y), if any."""
        point = QPoint(x, y)
        for index, key in enumerate(self.keys()):
            found = self.painted_rect(key)
            if found is not None and found[1] and found[0].contains(point):
                return self.child(index)
        return None

    def painted_rect(self, key: tuple[str, str]) -> tuple[QRect, bool] | None:
        """Where the event ``key`` is painted, in global coordinates, and whether that is on
        screen. An event drawn in several parts (a day each, a month bar's week rows) reports
        the first part on screen, else its first; ``None`` when no part is drawn (a month
        cell's "+N more", a full all-day row)."""
        view = self.view
        # The parts' own rectangles change with the events, the range and the size; where they
        # are on screen (scrolling, the window moving) is worked out on each call. A reader
        # asks every child for its rectangle: one layout pass per change, not one per child.
        token = (id(view.events), len(view.events), view.date_range(), view.width(), view.height())
        if token != self._parts_token:
            self._parts = {}
            for part_key, widget, rect in painted_parts(view):
                self._parts.setdefault(part_key, []).append((widget, rect))
            self._parts_token = token
        first: QRect | None = None
        for widget, rect in self._parts.get(key, []):
            local = rect.toAlignedRect()
            on_screen = local.translated(widget.mapToGlobal(QPoint(0, 0)))
            if widget.isVisible() and widget.visibleRegion().boundingRect().intersects(local):
                return on_screen, True
            if first is None:
                first = on_screen
        return (first, False) if first is not None else None


def painted_parts(view: CalendarView) -> list[tuple[tuple[str, str], QWidget, QRectF]]:
    """Each drawn event part with the widget it is painted in and its rectangle there.

    ``visible_items()`` gives each part's rectangle in the widget that paints it: the week and
    day views' time grid (blocks) and header (all-day bars), the month grid itself, the
    agenda's canvas (one row per event and day)."""
    from app.calendar.agenda_view import AgendaRow, AgendaView
    from app.calendar.month_view import MonthItem
    from app.calendar.week_header import BarItem
    from app.calendar.week_view import GridItem, WeekView

    parts: list[tuple[tuple[str, str], QWidget, QRectF]] = []
    for item in view.visible_items():
        event = getattr(item, "event", None)
        if event is None:
            continue
        if isinstance(item, GridItem) and isinstance(view, WeekView):
            parts.append((event.key, view.grid, item.rect))
        elif isinstance(item, BarItem) and isinstance(view, WeekView):
            parts.append((event.key, view.header, item.rect))
        elif isinstance(item, MonthItem):
            parts.append((event.key, view, item.rect))
        elif isinstance(item, AgendaRow) and isinstance(view, AgendaView):
            parts.append((event.key, view.canvas, item.rect))
    return parts


def _factory(key: str, obj: QObject) -> QAccessibleInterface | None:
    from app.calendar.view_base import CalendarView

    if isinstance(obj, CalendarView):
        iface = getattr(obj, "accessible_iface", None)
        if iface is None:
            iface = ViewAccessible(obj)
            obj.accessible_iface = iface  # type: ignore[attr-defined]  # lives as long as its view
        return iface
    return None


def install() -> None:
    """Register the views' interfaces (once per process)."""
    if not _INSTALLED:
        QAccessible.installFactory(_factory)
        _INSTALLED.append(True)


def announce_selection(view: CalendarView) -> None:
    """The selection moved (keys or mouse): tell assistive technology which event has it."""
    if not QAccessible.isActive() or view.selected_key is None:
        return
    keys = [event.key for event in view.events]
    if view.selected_key not in keys:
        return
    index = keys.index(view.selected_key)
    for kind in (QAccessible.Event.Focus, QAccessible.Event.Selection):
        event = QAccessibleEvent(view, kind)
        event.setChild(index)
        QAccessible.updateAccessibility(event)
