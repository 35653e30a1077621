"""Asking what to do when a new event overlaps others: change time, create anyway, cancel.

"Create anyway" is the only way a conflicting create gets written: it runs
``ChatSession.act("create_anyway")``, which continues the pending command with
``allow_conflict`` in code. The model's own ``allowConflict`` argument counts only after the
user has seen the conflict, and this dialog is where they see it.

The dialog is opened with ``open()`` (window-modal, no nested event loop) and reports the
choice through ``chosen``; Escape or closing the window means "change time" (the pending
event stays, the input gets focus), never a silent create or cancel.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from agent.services.command_types import Outcome
from app.chat.spans import span_text

CHANGE, CREATE, CANCEL = "change", "create", "cancel"


class ConflictDialog(QDialog):
    chosen = Signal(str)  # change | create | cancel

    def __init__(self, outcome: Outcome, tz: ZoneInfo, parent: QWidget | None = None) -> None:
        """``outcome``: the ``conflict`` round the turn returned (``TurnResult.receipt``)."""
        super().__init__(parent)
        self.choice = CHANGE
        self.setWindowTitle(self.tr("Time conflict"))
        self.setMinimumWidth(420)
        title = outcome.title
        today = outcome.today  # dates outside this year show their year
        when = span_text(outcome.start, outcome.end, tz, today)

        heading = QLabel(self.tr("“{0}” ({1}) overlaps:").format(title, when), self)
        heading.setWordWrap(True)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)

        self.conflicts = QListWidget(self)
        self.conflicts.setObjectName("conflict_list")
        self.conflicts.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.conflicts.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for item in outcome.conflicts:
            calendar = item.calendar or ""
            line = f"{item.title}  ·  {span_text(item.start, item.end, tz, today)}"
            if calendar:
                line += f"  ·  {calendar}"
            self.conflicts.addItem(line)
        rows = max(1, min(6, self.conflicts.count()))
        self.conflicts.setFixedHeight(rows * (self.conflicts.fontMetrics().height() + 8) + 6)

        note = QLabel(self.tr("Nothing has been written yet."), self)
        note.setStyleSheet("color: palette(placeholder-text);")

        self.change_button = QPushButton(self.tr("Change time"), self)
        self.create_button = QPushButton(self.tr("Create anyway"), self)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.change_button.setDefault(True)
        self.change_button.clicked.connect(lambda: self._choose(CHANGE))
        self.create_button.clicked.connect(lambda: self._choose(CREATE))
        self.cancel_button.clicked.connect(lambda: self._choose(CANCEL))

        buttons = QHBoxLayout()
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.change_button)
        buttons.addWidget(self.create_button)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.conflicts)
        layout.addWidget(note)
        layout.addLayout(buttons)

    def conflict_lines(self) -> list[str]:
        return [self.conflicts.item(row).text() for row in range(self.conflicts.count())]

    def _choose(self, choice: str) -> None:
        self.choice = choice
        if choice == CREATE:
            self.accept()
        else:
            self.reject()

    @Slot(int)
    def done(self, result: int) -> None:
        super().done(result)
        self.chosen.emit(self.choice)
