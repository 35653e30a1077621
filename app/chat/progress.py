"""What the assistant is doing while a turn runs, in words a person can read, with a Stop.

A local model on a laptop CPU can take minutes before its first word: loading the file,
then reading thousands of prompt tokens. "Thinking…" for all of that looks like a hang, so
the strip under the conversation names the phase, counts the prompt tokens read, shows the
seconds since the message was sent, and carries a Stop that works in every phase (the turn
checks for it between prompt chunks, waiting ticks, tokens and tool steps).

Phases, from the turn's events: ``waiting`` (sent, nothing heard yet), ``loading`` and
``reading`` (``progress`` events from the backend; a hosted server reports no counts),
``writing`` (the first token), ``tool`` (a tool call), ``stopping`` (Stop pressed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

PHASES = ("waiting", "loading", "reading", "writing", "tool", "stopping")


class TurnProgress(QWidget):
    """The phase line, a bar (determinate while prompt tokens are counted), seconds, Stop."""

    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent)
        self.setObjectName("turn_progress")
        self._clock = clock
        self._started = 0.0
        self.phase = "waiting"
        self.done = 0
        self.total = 0
        self.tool_text = ""

        self.label = QLabel(self)
        self.label.setObjectName("turn_progress_phase")
        self.bar = QProgressBar(self)
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(6)
        self.bar.setMinimumWidth(60)
        self.elapsed = QLabel(self)
        self.elapsed.setObjectName("turn_progress_elapsed")
        self.elapsed.setStyleSheet("color: palette(placeholder-text);")
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setToolTip(self.tr("Stop the assistant"))
        self.stop_button.clicked.connect(self._stop_clicked)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar)
        layout.addWidget(self.elapsed)
        layout.addWidget(self.stop_button)

        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        self._timer.timeout.connect(self._tick)
        self.hide()

    # ---- driven by the chat pane -------------------------------------------------------------

    def start(self) -> None:
        """A turn was sent: show the strip at "waiting" and start counting seconds."""
        self._started = self._clock()
        self.stop_button.setEnabled(True)
        self._set("waiting")
        self._timer.start()
        self._tick()
        self.show()

    def on_event(self, event: Any, tool_text: str = "") -> None:
        """Follow one ``TurnEvent``; events that say nothing about the phase are ignored."""
        if self.phase == "stopping":
            return
        if event.kind == "progress" and event.payload is not None:
            progress = event.payload
            if progress.phase == "loading":
                self._set("loading")
            else:
                self._set("reading", int(progress.done), int(progress.total))
        elif event.kind == "token" and self.phase != "writing":
            self._set("writing")
        elif event.kind == "tool_call":
            self.tool_text = tool_text
            self._set("tool")
        elif event.kind == "tool_result":  # the next model request starts: nothing heard yet
            self._set("waiting")

    def stopping(self) -> None:
        self.stop_button.setEnabled(False)
        self._set("stopping")

    def finish(self) -> None:
        self._timer.stop()
        self.hide()

    # ---- text --------------------------------------------------------------------------------

    def phase_text(self) -> str:
        if self.phase == "loading":
            return self.tr("Loading the model…")
        if self.phase == "reading":
            if self.total > 0:
                return self.tr("Reading the prompt: {0} / {1} tokens").format(f"{self.done:,}", f"{self.total:,}")
            return self.tr("Reading the prompt…")
        if self.phase == "writing":
            return self.tr("Writing the reply…")
        if self.phase == "tool":
            return self.tr("Calling a tool: {0}").format(self.tool_text) if self.tool_text else self.tr("Calling a tool…")
        if self.phase == "stopping":
            return self.tr("Stopping…")
        return self.tr("Waiting for the model…")

    def seconds(self) -> int:
        return max(0, int(self._clock() - self._started))

    # ---- internals ---------------------------------------------------------------------------

    def _set(self, phase: str, done: int = 0, total: int = 0) -> None:
        self.phase, self.done, self.total = phase, done, total
        self.bar.setVisible(phase not in ("writing", "stopping"))  # the text itself shows writing
        if phase == "reading" and total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
        else:
            self.bar.setRange(0, 0)  # busy: the duration of this phase cannot be known
        self.label.setText(self.phase_text())

    @Slot()
    def _tick(self) -> None:
        self.elapsed.setText(self.tr("{0} s").format(self.seconds()))

    @Slot()
    def _stop_clicked(self) -> None:
        self.stopping()
        self.stop_requested.emit()
