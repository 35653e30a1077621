"""Asking whether to add an event whose time has already passed.

The agent never writes a past event on its own (people usually mean next week, not last
week); a note after the fact is legitimate, so the user may add it anyway. "Add it anyway"
runs ``act("add_anyway")``, "Don't add" runs ``act("cancel")``; closing the window leaves
the event pending, so the chip's × or a clearer time can still settle it.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from agent.services.command_types import Outcome
from app.chat.spans import span_text

ADD, DROP, LATER = "add", "drop", "later"


class PastTimeDialog(QDialog):
    chosen = Signal(str)  # add | drop | later

    def __init__(self, outcome: Outcome, tz: ZoneInfo, parent: QWidget | None = None) -> None:
        """``outcome``: the ``past_time`` round the turn returned (``TurnResult.receipt``)."""
        super().__init__(parent)
        self.choice = LATER
        self.setWindowTitle(self.tr("Time already passed"))
        self.setMinimumWidth(380)
        title = outcome.title
        when = span_text(outcome.start, outcome.end, tz, outcome.today)
        self.message = message = QLabel(
            self.tr(
                "The time for “{0}” ({1}) has already passed, so nothing was written.\nAdd it to the calendar anyway?"
            ).format(title, when),
            self,
        )
        message.setWordWrap(True)
        self.add_button = QPushButton(self.tr("Add it anyway"), self)
        self.drop_button = QPushButton(self.tr("Don't add"), self)
        self.drop_button.setDefault(True)
        self.add_button.clicked.connect(lambda: self._choose(ADD))
        self.drop_button.clicked.connect(lambda: self._choose(DROP))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.drop_button)
        buttons.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.addWidget(message)
        layout.addLayout(buttons)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        if choice == ADD:
            self.accept()
        else:
            self.reject()

    @Slot(int)
    def done(self, result: int) -> None:
        super().done(result)
        self.chosen.emit(self.choice)
