"""The conversation: history from the archive, live bubbles, and session breaks.

History comes from ``ArchiveService.recent()``; a visible break goes where
``segment_breaks()`` says a new session started, because that is also where the model's
memory of the conversation starts (older talk is not in its context). Live receipts keep
their ``TurnResult`` so the Undo button can hand its exact ``ChangeSet`` to
``ctx.ops.undo_specific``; receipts reloaded from history have no change set and no Undo,
but one whose change was undone (meta ``undone``) reads "Undone".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from agent.services.archive import Message
from app.chat.bubble import STYLE, MessageBubble

BUBBLE_WIDTH = 0.84  # of the viewport; leaves the other side free so speakers read apart


class MessageView(QScrollArea):
    navigate = Signal(str, object)  # uid, start
    undo_requested = Signal(object)  # the MessageBubble whose receipt should be undone

    def __init__(self, tz: ZoneInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tz = tz
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setStyleSheet(STYLE)
        content = QWidget(self)
        content.setObjectName("chat_content")
        self._layout = QVBoxLayout(content)
        self._layout.setContentsMargins(8, 8, 8, 8)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.setWidget(content)
        self._bubbles: list[MessageBubble] = []
        self.dividers: list[QLabel] = []
        self.last_time: datetime | None = None
        self._follow = True
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._value_changed)

    # ---- building ---------------------------------------------------------------------------

    def bubbles(self) -> list[MessageBubble]:
        return list(self._bubbles)

    def clear(self) -> None:
        while self._layout.count() > 1:
            item = self._layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self._bubbles.clear()
        self.dividers.clear()
        self.last_time = None

    def load_history(self, messages: Sequence[Message], breaks: Sequence[int]) -> None:
        starts = set(breaks)
        for index, message in enumerate(messages):
            if index in starts:
                self.add_divider(message.created_at)
            action = message.meta.get("action") if message.role == "user" else None
            if action:
                self.add_bubble("action", self.action_text(str(action), _action_date(message.content)), message.created_at)
            elif message.role in ("user", "assistant"):
                bubble = self.add_bubble(message.role, message.content, message.created_at)
                if message.meta.get("guard"):
                    bubble.set_status(self.tr("Corrected: the assistant's own words claimed something that did not happen."))
                if message.role == "assistant" and message.meta.get("calendar") == "changed" and not message.meta.get("guard"):
                    bubble.set_card()
                if message.role == "assistant" and message.meta.get("calendar_note"):
                    bubble.set_calendar_note(str(message.meta["calendar_note"]))
                if message.role == "assistant" and message.meta.get("facts_card"):
                    bubble.set_facts_card(str(message.meta["facts_card"]))
                if message.role == "assistant" and message.meta.get("undone"):
                    bubble.show_undone()

    def add_divider(self, when: datetime) -> QLabel:
        local = when.astimezone(self.tz)
        label = QLabel(self.tr("New conversation · {0}").format(f"{local.month}/{local.day} {local:%H:%M}"))
        label.setObjectName("session_break")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setStyleSheet(
            "QLabel#session_break { color: palette(placeholder-text); border-top: 1px solid palette(mid);"
            " padding-top: 4px; margin-top: 8px; }"
        )
        self._layout.insertWidget(self._layout.count() - 1, label)
        self.dividers.append(label)
        return label

    def add_bubble(self, role: str, text: str, when: datetime | None = None) -> MessageBubble:
        stamp = f"{when.astimezone(self.tz):%H:%M}" if when is not None else ""
        bubble = MessageBubble(role, text, stamp)
        bubble.navigate_clicked.connect(self.navigate)
        bubble.undo_clicked.connect(self._undo_clicked)
        bubble.set_max_width(self._bubble_width())
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        if role == "user" or role == "action":
            row.addStretch(1)
            row.addWidget(bubble)
        else:
            row.addWidget(bubble)
            row.addStretch(1)
        holder = QWidget()
        holder.setLayout(row)
        self._layout.insertWidget(self._layout.count() - 1, holder)
        self._bubbles.append(bubble)
        if when is not None:
            self.last_time = when
        self._follow = True
        return bubble

    def action_text(self, kind: str, day: str | None = None) -> str:
        """How a button press reads in the history (the archive keeps ``[kind date]``)."""
        if kind == "pick_date" and day:
            parsed = date.fromisoformat(day)
            return self.tr("Picked {0}").format(f"{parsed.month}/{parsed.day}")
        return {
            "create_anyway": self.tr("Create anyway"),
            "add_anyway": self.tr("Add it anyway"),
            "confirm": self.tr("Add to calendar"),
            "cancel": self.tr("Cancel the pending event"),
            "confirm_edit": self.tr("Yes, go ahead"),
        }.get(kind, kind)

    # ---- scrolling ------------------------------------------------------------------------

    def _bubble_width(self) -> int:
        return max(160, int(self.viewport().width() * BUBBLE_WIDTH))

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt's name
        super().resizeEvent(event)
        width = self._bubble_width()
        for bubble in self._bubbles:
            bubble.set_max_width(width)

    @Slot(int, int)
    def _range_changed(self, _minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    @Slot(int)
    def _value_changed(self, value: int) -> None:
        # Reading older messages while a reply streams must not yank the view down.
        self._follow = value >= self.verticalScrollBar().maximum() - 4

    @Slot()
    def _undo_clicked(self) -> None:
        bubble = self.sender()
        if isinstance(bubble, MessageBubble):
            self.undo_requested.emit(bubble)


def _action_date(content: str) -> str | None:
    # "[pick_date 2026-12-06]" -> "2026-12-06"
    parts = content.strip("[]").split()
    return parts[1] if len(parts) > 1 else None
