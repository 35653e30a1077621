"""A small "Deleted — Undo" notice at the bottom of a widget.

A delete from the keyboard or the editor happens at once (no confirmation dialog in the
way of a quick cleanup), so the user must *see* that something went and get it back with
one click: the toast names what was deleted and offers Undo for a few seconds. The Undo
button reverts exactly that change set's journal rows (``Operations.undo_specific``), not
whatever is the journal's newest change by then.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

TOAST_MS = 8000


class Toast(QFrame):
    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setObjectName("toast")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.label = QLabel(self)
        self.undo_button = QPushButton(self.tr("Undo"), self)
        self.undo_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.undo_button.clicked.connect(self._undo)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.undo_button)
        self._action: Callable[[], object] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.hide)
        host.installEventFilter(self)
        self.hide()

    def show_message(self, text: str, undo: Callable[[], object] | None = None, ms: int = TOAST_MS) -> None:
        self.label.setText(text)
        self._action = undo
        self.undo_button.setVisible(undo is not None)
        self.adjustSize()
        self._place()
        self.show()
        self.raise_()
        self._timer.start(ms)

    def _undo(self) -> None:
        action, self._action = self._action, None
        self.hide()
        if action is not None:
            action()

    def _place(self) -> None:
        host = self.parentWidget()
        if host is None:
            return
        width = min(max(self.sizeHint().width(), 260), max(host.width() - 24, 120))
        self.resize(width, self.sizeHint().height())
        self.move((host.width() - width) // 2, host.height() - self.height() - 16)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # a Qt override keeps Qt's name
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize and self.isVisible():
            self._place()
        return False
