"""Date and time edits that read what is typed into them as a whole.

A ``QDateTimeEdit`` takes keys section by section: a digit goes into the selected section
and may jump to the next one, separators jump, and a ``ddd`` (weekday) section takes no
digits at all. Typing ``2027-03-08`` into the editor's ``yyyy-MM-dd ddd`` start date after
a click left 2026-03-08 (the year section was never selected), after Tab 2027-11-03;
``1430`` after a click left 10:00, ``2pm`` became 02:00.

These subclasses keep everything else of the Qt edits (look, calendar popup, arrows and
wheel on a section, ``date()``/``dateChanged``), but the first typed character starts a
*typing session*: the text is a plain line edit for a while, Qt's section logic does not
see it (the inner line edit's signals are blocked, the validator lets any text through),
and when editing ends (Enter, Tab, focus out, an arrow key, a click on the arrows or the
popup) the whole text is read by ``typed_parse``. A text it understands becomes the value;
any other is refused: the field shows its previous value again, a tooltip says why, and
``refused`` is emitted. Esc abandons the typing. An Enter that ends a session is consumed,
so in a dialog it does not also press Save before the person has seen what was read.

The first key after the field gets focus replaces the whole text (the text is selected on
focus, so this is visible); after a click inside the focused field, typing edits in place.
Tab always moves to the next field (Qt's edits step through their sections with it; the
sections are still reached with a click or ←/→).
"""

from __future__ import annotations

from datetime import date, time
from typing import TYPE_CHECKING

from PySide6.QtCore import QDate, QEvent, QObject, QPoint, Qt, QTime, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QInputMethodEvent, QKeyEvent, QKeySequence, QMouseEvent, QValidator
from PySide6.QtWidgets import QDateEdit, QDateTimeEdit, QTimeEdit, QToolTip, QWidget

from app.calendar.typed_parse import parse_typed_date, parse_typed_time

_STEP_KEYS = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
_EDIT_KEYS = (Qt.Key.Key_Backspace, Qt.Key.Key_Delete)
_TEXT_MODIFIERS = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier

if TYPE_CHECKING:
    _Base = QDateTimeEdit
else:
    _Base = object


class TypedEntry(_Base):
    """The typing session, shared by the date and the time edit (a mixin that goes before
    the Qt class; the subclass supplies ``read_typed`` and ``refusal``)."""

    _typing = False
    _fresh = False  # focus just arrived: the next key replaces the whole text
    _focus_click = False  # the click that gave focus is not a click "inside" the field

    def init_typing(self) -> None:
        self.lineEdit().installEventFilter(self)

    # ---- what the subclass says ----------------------------------------------------------

    def read_typed(self, text: str) -> bool:
        """Set the value from ``text``; False when it is not one."""
        raise NotImplementedError

    def refusal(self, text: str) -> str:
        raise NotImplementedError

    def emit_refused(self, text: str) -> None:
        raise NotImplementedError

    # ---- the session ---------------------------------------------------------------------

    def is_typing(self) -> bool:
        return self._typing

    def _start_typing(self) -> None:
        if self._typing:
            return
        self._typing = True
        line = self.lineEdit()
        line.blockSignals(True)  # Qt's section logic follows the cursor; keep it out
        if self._fresh:
            line.selectAll()
        self._fresh = False

    def finish_typing(self, *, revert: bool = False) -> bool:
        """End a typing session: take the text, or refuse it (and show the old value).
        Returns False when the text was refused; True otherwise (also when not typing)."""
        if not self._typing:
            return True
        line = self.lineEdit()
        text = line.text()
        self._typing = False
        line.blockSignals(False)
        accepted = not revert and self.read_typed(text)
        if not accepted:
            self.restore_text()
        if not accepted and not revert:
            QToolTip.showText(self.mapToGlobal(QPoint(0, self.height())), self.refusal(text), self)
            self.emit_refused(text)
        return accepted

    def restore_text(self) -> None:
        """Show the current value again (Qt's setters rewrite the text even when equal)."""
        raise NotImplementedError

    def _select_fresh(self) -> None:
        if self._fresh and not self._typing and self.hasFocus():
            self.lineEdit().selectAll()

    # ---- events --------------------------------------------------------------------------

    def validate(self, text: str, pos: int, /) -> tuple[QValidator.State, str, int]:
        if self._typing:  # anything may be typed; it is read as a whole at the end
            return QValidator.State.Intermediate, text, pos
        return super().validate(text, pos)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if self._typing:
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
                self.finish_typing(revert=key == Qt.Key.Key_Escape)
                self._fresh = True
                self.lineEdit().selectAll()
                event.accept()
                return
            if key in _STEP_KEYS:
                self.finish_typing()
                super().keyPressEvent(event)
                return
            self.lineEdit().event(event)  # editing the text: the line edit's own keys
            return
        if _is_typing_key(event):
            self._start_typing()
            self.lineEdit().event(event)
            return
        if key not in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
            self._fresh = False
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        """Chinese typed through an input method (下午2点) starts a session like a key does
        (the spin box hands input-method events to its line edit without asking)."""
        if event.type() == QEvent.Type.InputMethod and isinstance(event, QInputMethodEvent):
            if event.commitString() or event.preeditString():
                self._start_typing()
            if self._typing:
                return self.lineEdit().event(event)
        return super().event(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self._fresh = True
        self._focus_click = event.reason() == Qt.FocusReason.MouseFocusReason
        QTimer.singleShot(0, self._select_fresh)  # after the click that placed the cursor

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.finish_typing()
        self._fresh = False
        super().focusOutEvent(event)

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab leaves the field (Qt's edits use it to step through their sections)."""
        self.finish_typing()
        return QWidget.focusNextPrevChild(self, next)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """The arrows and the popup button act on the value: read what was typed first."""
        self.finish_typing()
        super().mousePressEvent(event)

    def stepBy(self, steps: int) -> None:
        self.finish_typing()
        super().stepBy(steps)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.lineEdit() and event.type() == QEvent.Type.MouseButtonPress:
            if self._focus_click:
                self._focus_click = False
            else:
                self._fresh = False  # a click inside: edit in place
        return super().eventFilter(watched, event)


def _is_typing_key(event: QKeyEvent) -> bool:
    if event.key() in _EDIT_KEYS or event.matches(QKeySequence.StandardKey.Paste):
        return True
    text = event.text()
    plain = not (event.modifiers() & ~_TEXT_MODIFIERS)
    return plain and bool(text) and text.isprintable()


class TypedDateEdit(TypedEntry, QDateEdit):
    """A ``QDateEdit`` that also takes a typed date (``typed_parse.parse_typed_date``; a
    date without a year is the one nearest the date shown)."""

    refused = Signal(str)  # the text that was not a date

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.init_typing()

    def read_typed(self, text: str) -> bool:
        shown = self.date()
        value = parse_typed_date(text, date(shown.year(), shown.month(), shown.day()))
        typed = QDate(value.year, value.month, value.day) if value is not None else QDate()
        if not typed.isValid() or not self.minimumDate() <= typed <= self.maximumDate():
            return False  # never clamped to a date that was not typed
        self.setDate(typed)
        return True

    def restore_text(self) -> None:
        self.setDate(self.date())

    def refusal(self, text: str) -> str:
        return self.tr("“{0}” is not a date. Try 2027-03-08, 0308 or 3/8.").format(text.strip())

    def emit_refused(self, text: str) -> None:
        self.refused.emit(text)


class TypedTimeEdit(TypedEntry, QTimeEdit):
    """A ``QTimeEdit`` that also takes a typed time (``typed_parse.parse_typed_time``)."""

    refused = Signal(str)  # the text that was not a time

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.init_typing()

    def read_typed(self, text: str) -> bool:
        value: time | None = parse_typed_time(text)
        if value is None:
            return False
        self.setTime(QTime(value.hour, value.minute))
        return True

    def restore_text(self) -> None:
        self.setTime(self.time())

    def refusal(self, text: str) -> str:
        return self.tr("“{0}” is not a time. Try 14:30, 1430 or 2pm.").format(text.strip())

    def emit_refused(self, text: str) -> None:
        self.refused.emit(text)
