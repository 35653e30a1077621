"""The two questions a pending create waits for: a time conflict, or a time already passed.

Both the chat (``pending_flow.py``) and the quick-add field (``app/calendar/quick_add_bar.py``)
open this one dialog, with ``PendingDialog.conflict`` or ``PendingDialog.past_time``; they
differ only in their text and buttons:

* **conflict**: the new event overlaps others. "Create anyway" (``CREATE``) is the only way a
  conflicting create gets written: it continues the pending command with ``allow_conflict``
  in code (the model's own ``allowConflict`` counts only after the user has seen the
  conflict, and this dialog is where they see it). "Change time" (``CHANGE``, the default)
  and "Cancel" (``CANCEL``) write nothing.
* **past time**: the agent never writes a past event on its own (people usually mean next
  week, not last week), but a note after the fact is legitimate: "Add it anyway" (``ADD``)
  or "Don't add" (``DROP``, the default).

The dialog is opened with ``open()`` (window-modal, no nested event loop) and reports the
choice through ``chosen``; Escape or closing the window is the mode's ``dismissed`` choice
(``CHANGE``: the event stays pending, the input gets focus; ``LATER``: the event stays
pending, so the chip's × or a clearer time can still settle it), never a silent write.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from agent.services.command_types import Outcome
from app.chat.spans import span_text

CONFLICT, PAST_TIME = "conflict", "past_time"
CHANGE, CREATE, CANCEL = "change", "create", "cancel"  # a conflict's answers
ADD, DROP, LATER = "add", "drop", "later"  # a past time's answers
WRITES = (CREATE, ADD)  # the answers that accept (continue the pending write)


class PendingDialog(QDialog):
    chosen = Signal(str)  # change | create | cancel, or add | drop | later

    def __init__(self, kind: str, outcome: Outcome, tz: ZoneInfo, parent: QWidget | None = None) -> None:
        """``outcome``: the ``conflict`` or ``past_time`` round the turn returned
        (``TurnResult.receipt``); ``kind`` says which (``CONFLICT`` / ``PAST_TIME``)."""
        super().__init__(parent)
        self.kind = kind
        self.dismissed = CHANGE if kind == CONFLICT else LATER
        self.choice = self.dismissed
        today = outcome.today  # dates outside this year show their year
        when = span_text(outcome.start, outcome.end, tz, today)
        self.conflicts: QListWidget | None = None
        layout = QVBoxLayout(self)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        buttons = QHBoxLayout()
        if kind == CONFLICT:
            self.setWindowTitle(self.tr("Time conflict"))
            self.setMinimumWidth(420)
            self.message.setText(self.tr("“{0}” ({1}) overlaps:").format(outcome.title, when))
            font = self.message.font()
            font.setBold(True)
            self.message.setFont(font)
            self.conflicts = self._conflict_list(outcome, tz)
            layout.addWidget(self.conflicts)
            note = QLabel(self.tr("Nothing has been written yet."), self)
            note.setStyleSheet("color: palette(placeholder-text);")
            layout.addWidget(note)
            self.change_button = self._button(self.tr("Change time"), CHANGE, default=True)
            self.create_button = self._button(self.tr("Create anyway"), CREATE)
            self.cancel_button = self._button(self.tr("Cancel"), CANCEL)
            row = [self.cancel_button, None, self.change_button, self.create_button]
        elif kind == PAST_TIME:
            self.setWindowTitle(self.tr("Time already passed"))
            self.setMinimumWidth(380)
            self.message.setText(
                self.tr(
                    "The time for “{0}” ({1}) has already passed, so nothing was written.\nAdd it to the calendar anyway?"
                ).format(outcome.title, when)
            )
            self.add_button = self._button(self.tr("Add it anyway"), ADD)
            self.drop_button = self._button(self.tr("Don't add"), DROP, default=True)
            row = [None, self.drop_button, self.add_button]
        else:
            raise ValueError(f"unknown pending question: {kind!r}")
        for button in row:
            if button is None:
                buttons.addStretch(1)
            else:
                buttons.addWidget(button)
        layout.addLayout(buttons)

    @classmethod
    def conflict(cls, outcome: Outcome, tz: ZoneInfo, parent: QWidget | None = None) -> PendingDialog:
        return cls(CONFLICT, outcome, tz, parent)

    @classmethod
    def past_time(cls, outcome: Outcome, tz: ZoneInfo, parent: QWidget | None = None) -> PendingDialog:
        return cls(PAST_TIME, outcome, tz, parent)

    def _conflict_list(self, outcome: Outcome, tz: ZoneInfo) -> QListWidget:
        conflicts = QListWidget(self)
        conflicts.setObjectName("conflict_list")
        conflicts.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        conflicts.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for item in outcome.conflicts:
            line = f"{item.title}  ·  {span_text(item.start, item.end, tz, outcome.today)}"
            if item.calendar:
                line += f"  ·  {item.calendar}"
            conflicts.addItem(line)
        rows = max(1, min(6, conflicts.count()))
        conflicts.setFixedHeight(rows * (conflicts.fontMetrics().height() + 8) + 6)
        return conflicts

    def _button(self, text: str, choice: str, *, default: bool = False) -> QPushButton:
        button = QPushButton(text, self)
        button.setDefault(default)
        button.clicked.connect(lambda: self._choose(choice))
        return button

    def conflict_lines(self) -> list[str]:
        if self.conflicts is None:
            return []
        return [self.conflicts.item(row).text() for row in range(self.conflicts.count())]

    def _choose(self, choice: str) -> None:
        self.choice = choice
        if choice in WRITES:
            self.accept()
        else:
            self.reject()

    @Slot(int)
    def done(self, result: int) -> None:
        super().done(result)
        self.chosen.emit(self.choice)
