"""Holding a chat question back while an unrelated modal window is open.

A turn can end while the user is in the event editor (opened after sending). Opening the
conflict or past-time question then would put a second modal window over the editor and
take the keyboard mid-word, so the time being typed goes into the wrong window. Instead
the question waits: ``ModalWait`` polls (cheaply, a few times a second, only while
something waits) until no foreign modal window is open, then runs it. Meanwhile the
pending chip shows the command inline, so nothing is hidden. A new message or button press
drops the wait: its own result supersedes the old question.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication, QWidget

POLL_MS = 250


class ModalWait(QObject):
    def __init__(self, parent: QObject, ours: Callable[[QWidget], bool]) -> None:
        super().__init__(parent)
        self._ours = ours
        self._action: Callable[[], None] | None = None
        self._on_run: Callable[[], None] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def blocker(self) -> QWidget | None:
        """The open modal window that is not one of ours, if any."""
        modal = QApplication.activeModalWidget()
        return modal if modal is not None and not self._ours(modal) else None

    def run_or_wait(self, action: Callable[[], None], on_run: Callable[[], None] | None = None) -> bool:
        """Run ``action`` now (True) or once no foreign modal is open (False);
        ``on_run`` runs just before a waited action (to clear a "waiting" note)."""
        self.cancel()
        if self.blocker() is None:
            action()
            return True
        self._action, self._on_run = action, on_run
        self._timer.start()
        return False

    def waiting(self) -> bool:
        return self._action is not None

    def cancel(self) -> None:
        self._timer.stop()
        self._action = self._on_run = None

    @Slot()
    def _poll(self) -> None:
        if self.blocker() is not None:
            return
        action, on_run = self._action, self._on_run
        self.cancel()
        if on_run is not None:
            on_run()
        if action is not None:
            action()
