"""Telling the user plainly when the assistant claimed something that did not happen.

The agent's exit guard (``agent/runtime/guard.py``) replaces a reply that says "已创建" when
nothing was written, or "you have nothing on" when nothing was read. The replacement is
already what the user reads; this banner says *why* the reply changed, so a streamed
sentence that vanished is explained rather than mysterious. It is a banner, not a modal
dialog: nothing is waiting for a decision, and a modal box would punish the user for the
model's mistake.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QStyle, QToolButton, QWidget

from agent.runtime.guard import (
    ANSWERED,
    UNVERIFIED_CREATE,
    UNVERIFIED_DELETE,
    UNVERIFIED_MEMORY,
    UNVERIFIED_QUERY,
    UNVERIFIED_UPDATE,
)


class GuardBanner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guard_banner")
        self.setStyleSheet(
            "QFrame#guard_banner { border: 1px solid #d4a017; border-radius: 6px; background: rgba(212, 160, 23, 0.16); }"
        )
        self.flag: str | None = None
        icon = QLabel(self)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(size, size))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        close = QToolButton(self)
        close.setText("×")
        close.setAutoRaise(True)
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 4, 6)
        layout.addWidget(icon)
        layout.addWidget(self.message, 1)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def text_for(self, flag: str, outcome: str = "") -> str:
        if outcome == ANSWERED:
            return self.tr(
                "The assistant described your schedule without looking at it. Its reply was "
                "replaced with what your calendar really shows for that day."
            )
        if flag == UNVERIFIED_CREATE:
            return self.tr(
                "The assistant said it had created or saved something, but nothing was written "
                "to your calendar. Its reply was replaced with what actually happened."
            )
        if flag == UNVERIFIED_UPDATE:
            return self.tr(
                "The assistant said it had changed an event, but nothing was changed. "
                "Its reply was replaced with what actually happened."
            )
        if flag == UNVERIFIED_DELETE:
            return self.tr(
                "The assistant said it had deleted something, but nothing was deleted. "
                "Its reply was replaced with what actually happened."
            )
        if flag == UNVERIFIED_MEMORY:
            return self.tr(
                "The assistant said it would remember something, but nothing was saved. "
                "Its reply was replaced with what actually happened."
            )
        if flag == UNVERIFIED_QUERY:
            return self.tr(
                "The assistant described your schedule without looking at it. Nothing was read "
                "or changed; its reply was replaced. Ask again to get a real answer."
            )
        return self.tr(
            "The assistant claimed something that did not happen. Nothing was written; "
            "its reply was replaced with what actually happened."
        )

    def show_guard(self, flag: str, outcome: str = "") -> None:
        """``outcome`` tells a state claim answered from the store (``guard_answered``)
        from one that was only withdrawn."""
        self.flag = flag
        self.message.setText(self.text_for(flag, outcome))
        self.show()

    @Slot()
    def dismiss(self) -> None:
        self.flag = None
        self.hide()
