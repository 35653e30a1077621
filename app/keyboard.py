"""Keyboard rules that keep typing from ever driving the calendar by accident.

Found by hand: with no model configured the chat input is disabled, a click on it left the
keyboard focus in the week view, and typing "Meeting at 3" switched views (M, T, A), opened
the editor (Enter) and deleted the selected event (Backspace). Two rules close that:

1. Single-letter shortcuts (T, D, W, M, A) belong to the calendar area: they are bound with
   ``WidgetWithChildrenShortcut`` on it, so they fire only while focus is inside it, and an
   enabled text field there (the search box) still takes its letters first.
2. A click on a text field that cannot take focus (disabled, or read-only by policy) takes
   the focus away from wherever it was: the user aimed at a text field, so keys must not go
   on reaching the view they were in before.

And one rule for where Tab goes: the window's parts in the order they are laid out (quick-add
field, navigation bar, sidebar, the view, chat pane, status bar; ``chain_tab_order``). Qt's
own order is the order widgets were made in, and the chat pane is made after the status
bar's Sync button (it loads later), so Tab from the view went to Sync (issue 23).
The window then walks that list itself (``next_tab_stop``, issue 32): Qt's walk asks a
widget that hands its focus to another (a focus proxy) in the holder's own place in the chain,
and the mini month's calendar, made first in the window, took every Tab after Sync and
jumped to its day grid, so the quick-add field and the navigation bar were never reached.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

_TEXT_TYPES = (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox, QComboBox)


def text_field_of(widget: QObject | None) -> QWidget | None:
    """The text-entry widget ``widget`` is (or is the viewport of), else None."""
    for candidate in (widget, widget.parent() if widget is not None else None):
        if isinstance(candidate, _TEXT_TYPES):
            return candidate
    return None


class TextFieldClickGuard(QObject):
    """Application-wide filter: a press on an unfocusable text field clears the focus."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress:
            field = text_field_of(watched)
            if field is not None and not field.isEnabled():
                focused = QApplication.focusWidget()
                if focused is not None and focused is not field:
                    focused.clearFocus()
        return False


_GUARD: list[TextFieldClickGuard] = []


def install_click_guard(app: QApplication) -> TextFieldClickGuard:
    """Install the guard once per application (Qt keeps no Python reference to it)."""
    if not _GUARD:
        guard = TextFieldClickGuard(app)
        app.installEventFilter(guard)
        _GUARD.append(guard)
    return _GUARD[0]


def tab_stops(part: QWidget) -> list[QWidget]:
    """``part`` (when Tab can reach it) and the widgets inside it that Tab can reach, in the
    window's focus chain's order; a widget standing in for another (a focus proxy, like a
    view's scroll area) is left to Qt, which skips it."""
    window = part.window()
    stops: list[QWidget] = []
    widget = window.nextInFocusChain()
    while widget is not None and widget is not window:  # the chain is a ring through the window
        inside = widget is part or part.isAncestorOf(widget)
        if inside and widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.focusProxy() is None:
            stops.append(widget)
        widget = widget.nextInFocusChain()
    return stops


def chain_tab_order(parts: Sequence[QWidget]) -> None:
    """Make Tab visit ``parts`` one after another, each in its own inner order."""
    stops = [stop for part in parts for stop in tab_stops(part)]
    for first, second in pairwise(stops):
        QWidget.setTabOrder(first, second)


def _tab_target(widget: QWidget) -> bool:
    return widget.isVisible() and widget.isEnabled() and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def next_tab_stop(parts: Sequence[QWidget], current: QWidget | None, forward: bool) -> QWidget | None:
    """The stop after (``forward``) or before ``current`` among ``parts``' shown, enabled Tab
    stops, round the ring; None when ``current`` is none of them nor inside one (a widget made
    later, a chat card's button: Qt's own walk goes on from there)."""
    stops = [stop for part in parts for stop in tab_stops(part) if _tab_target(stop)]
    widget = current
    while widget is not None and widget not in stops:
        widget = widget.parentWidget()
    if widget is None or not stops:
        return None
    return stops[(stops.index(widget) + (1 if forward else -1)) % len(stops)]
