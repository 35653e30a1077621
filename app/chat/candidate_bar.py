"""The pending command under the conversation: a chip with ×, and candidate-day buttons.

A pending *edit* (issue 13) is answered here too: a choice between matching events is one
button per event (``target_picked``, 1-based), and a confirmation or a conflict on a change
is a yes button (``edit_confirm_requested``) beside "Keep it" (``cancel_requested``).

When the assistant asks "which day", the days it offers are buttons; a click goes straight
to ``ChatSession.act("pick_date")``, which continues the pending command in code with zero
model calls. The buttons are labelled in the conversation's language (``TurnResult.lang``),
not the interface's, because they answer a question asked in that language ("周六还是周日？").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from agent.services.chat_edits import EditOption

ZH_WEEKDAYS = "一二三四五六日"
EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def day_button_label(day: date, lang: str, today: date | None = None) -> str:
    """周六 12/5 or Sat 12/5; 周六 2027/1/2 when the day is not in ``today``'s year."""
    weekday = f"周{ZH_WEEKDAYS[day.weekday()]}" if lang == "zh" else EN_WEEKDAYS[day.weekday()]
    if today is not None and day.year != today.year:
        return f"{weekday} {day.year}/{day.month}/{day.day}"
    return f"{weekday} {day.month}/{day.day}"


def option_label(option: EditOption, lang: str, today: date | None = None) -> str:
    """周二 12/1 10:00 项目周会（工作） for a choice button; all-day events show the day only."""
    start = option.start
    if start is None:
        return option.title
    day = start.date() if isinstance(start, datetime) else start
    when = day_button_label(day, lang, today)
    if isinstance(start, datetime) and not option.all_day:
        when += f" {start:%H:%M}"
    calendar = option.calendar
    tail = (f"（{calendar}）" if lang == "zh" else f" ({calendar})") if calendar else ""
    return f"{when} {option.title}{tail}"


class CandidateBar(QWidget):
    date_picked = Signal(str, str)  # ISO date, the button's label
    cancel_requested = Signal()
    confirm_requested = Signal()  # "Add it" on a write the grounding latch asked about
    target_picked = Signal(int, str)  # 1-based option of a pending edit choice, the button's label
    edit_confirm_requested = Signal()  # "Yes" to a pending change (confirmation or conflict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = ""
        self.status = ""
        self.buttons: list[QPushButton] = []

        self.chip = QFrame(self)
        self.chip.setObjectName("pending_chip")
        self.chip.setStyleSheet(
            "QFrame#pending_chip { border: 1px solid palette(mid); border-radius: 11px; background: palette(alternate-base); }"
        )
        self.chip_label = QLabel(self.chip)
        self.cancel_button = QToolButton(self.chip)
        self.cancel_button.setText("×")
        self.cancel_button.setAutoRaise(True)
        self.cancel_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.cancel_button.setToolTip(self.tr("Drop this pending event"))
        self.cancel_button.clicked.connect(self.cancel_requested)
        chip_row = QHBoxLayout(self.chip)
        chip_row.setContentsMargins(8, 1, 2, 1)
        chip_row.setSpacing(2)
        chip_row.addWidget(self.chip_label)
        chip_row.addWidget(self.cancel_button)

        # The grounding latch's question is answered inline, never by a dialog over the editor.
        self.confirm_button = QPushButton(self.tr("Add to calendar"), self)
        self.confirm_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.confirm_button.clicked.connect(self.confirm_requested)
        self.decline_button = QPushButton(self.tr("Don't add"), self)
        self.decline_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.decline_button.clicked.connect(self.cancel_requested)
        confirm_line = QHBoxLayout()
        confirm_line.setContentsMargins(0, 0, 0, 0)
        confirm_line.setSpacing(6)
        confirm_line.addWidget(self.confirm_button)
        confirm_line.addWidget(self.decline_button)
        confirm_line.addStretch(1)

        # A pending edit: "Yes, delete" / "Yes, change it" / "Move anyway", and "Keep it".
        self.edit_yes_button = QPushButton(self)
        self.edit_yes_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.edit_yes_button.clicked.connect(self.edit_confirm_requested)
        self.edit_no_button = QPushButton(self.tr("Keep it as it is"), self)
        self.edit_no_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.edit_no_button.clicked.connect(self.cancel_requested)
        confirm_line.insertWidget(2, self.edit_yes_button)
        confirm_line.insertWidget(3, self.edit_no_button)
        self.options: list[QPushButton] = []
        self.choice_prompt = QLabel(self.tr("Which one?"), self)
        self._choices = QVBoxLayout()
        self._choices.setContentsMargins(0, 0, 0, 0)
        self._choices.setSpacing(3)
        self._choices.addWidget(self.choice_prompt)

        self.prompt = QLabel(self.tr("Pick a day:"), self)
        self._days = QHBoxLayout()
        self._days.setContentsMargins(0, 0, 0, 0)
        self._days.setSpacing(6)
        self._days.addWidget(self.prompt)
        self._days.addStretch(1)

        chip_line = QHBoxLayout()
        chip_line.setContentsMargins(0, 0, 0, 0)
        chip_line.addWidget(self.chip)
        chip_line.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(4)
        layout.addLayout(self._days)
        layout.addLayout(self._choices)
        layout.addLayout(confirm_line)
        layout.addLayout(chip_line)
        self.clear()

    def status_text(self, status: str) -> str:
        return {
            "needs_date": self.tr("waiting for a day"),
            "conflict": self.tr("overlaps other events"),
            "past_time": self.tr("time already passed"),
            "invalid": self.tr("needs a clearer time"),
            "unconfirmed": self.tr("waiting for your OK"),
            "edit_choice": self.tr("waiting for your choice"),
            "edit_confirm": self.tr("waiting for your OK"),
            "edit_conflict": self.tr("overlaps other events"),
        }.get(status, self.tr("pending"))

    def show_pending(self, title: str, status: str, candidates: Sequence[date], lang: str, today: date | None = None) -> None:
        """Show the chip for the pending command, and day buttons when it needs a day."""
        self.title, self.status = title, status
        self.chip_label.setText(self.tr("Pending: {0} · {1}").format(title, self.status_text(status)))
        self._set_days(candidates if status == "needs_date" else [], lang, today)
        self._set_confirm(status == "unconfirmed")
        self._set_options([], lang, today)
        self._set_edit_confirm(None, "")
        self.chip.show()
        self.show()

    def show_edit(
        self, title: str, status: str, op: str, options: Sequence[EditOption], lang: str, today: date | None = None
    ) -> None:
        """A pending edit: one button per matching event (a choice), or yes / keep it."""
        self.title, self.status = title, status
        self.chip_label.setText(self.tr("Pending: {0} · {1}").format(title, self.status_text(status)))
        self._set_days([], lang, today)
        self._set_confirm(False)
        self._set_options(options if status == "edit_choice" else [], lang, today)
        self._set_edit_confirm(status if status != "edit_choice" else None, op)
        self.chip.show()
        self.show()

    def clear(self) -> None:
        self.title = self.status = ""
        self._set_days([], "zh")
        self._set_confirm(False)
        self._set_options([], "zh")
        self._set_edit_confirm(None, "")
        self.chip.hide()
        self.hide()

    def _set_confirm(self, visible: bool) -> None:
        self.confirm_button.setVisible(visible)
        self.decline_button.setVisible(visible)

    def _set_days(self, candidates: Sequence[date], lang: str, today: date | None = None) -> None:
        for button in self.buttons:
            self._days.removeWidget(button)
            button.deleteLater()
        self.buttons = []
        for index, day in enumerate(candidates):
            button = QPushButton(day_button_label(day, lang, today), self)
            button.setProperty("iso", day.isoformat())  # what ``date_picked`` reports
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.clicked.connect(self._picked)
            self._days.insertWidget(1 + index, button)
            self.buttons.append(button)
        self.prompt.setVisible(bool(self.buttons))

    def _set_edit_confirm(self, status: str | None, op: str) -> None:
        if status == "edit_conflict":
            self.edit_yes_button.setText(self.tr("Move anyway"))
        elif op == "delete":
            self.edit_yes_button.setText(self.tr("Yes, delete"))
        else:
            self.edit_yes_button.setText(self.tr("Yes, change it"))
        self.edit_yes_button.setVisible(status is not None)
        self.edit_no_button.setVisible(status is not None)

    def _set_options(self, options: Sequence[EditOption], lang: str, today: date | None = None) -> None:
        for button in self.options:
            self._choices.removeWidget(button)
            button.deleteLater()
        self.options = []
        for index, option in enumerate(options, 1):
            button = QPushButton(f"{index}. {option_label(option, lang, today)}", self)
            button.setProperty("index", index)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setStyleSheet("text-align: left; padding: 3px 8px;")
            button.clicked.connect(self._option_picked)
            self._choices.addWidget(button)
            self.options.append(button)
        self.choice_prompt.setVisible(bool(self.options))

    @Slot()
    def _option_picked(self) -> None:
        button = self.sender()
        if isinstance(button, QPushButton):
            self.target_picked.emit(int(button.property("index")), button.text())

    @Slot()
    def _picked(self) -> None:
        button = self.sender()
        if isinstance(button, QPushButton):
            self.date_picked.emit(str(button.property("iso")), button.text())
