"""What the assistant is doing while a turn runs, in words a person can read, with a Stop.

A local model on a laptop CPU can take minutes before its first word: loading the file,
then reading thousands of prompt tokens. "Thinking…" for all of that looks like a hang, so
the strip under the conversation names the phase, counts the prompt tokens read and shows
the seconds since the message was sent. Its Stop is the pane's send button, which is a Stop
while a turn runs and works in every phase: the turn checks for it between prompt chunks,
waiting ticks, tokens and tool steps.

Phases, from the turn's events: ``waiting`` (sent, nothing heard yet), ``loading`` and
``reading`` (``progress`` events from the backend; a hosted server reports no counts),
``writing`` (the first token), ``tool`` (a tool call), ``stopping`` (Stop pressed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

PHASES = ("waiting", "loading", "reading", "writing", "tool", "stopping")


class TurnProgress(QWidget):
    """The phase line and seconds, over a thin bar (determinate while prompt tokens are counted)."""

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
        self.bar.setFixedHeight(5)
        self.elapsed = QLabel(self)
        self.elapsed.setObjectName("turn_progress_elapsed")
        self.elapsed.setStyleSheet("color: palette(placeholder-text);")

        line = QHBoxLayout()
        line.addWidget(self.label, 1)
        line.addWidget(self.elapsed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 0)
        layout.setSpacing(2)
        layout.addLayout(line)
        layout.addWidget(self.bar)

        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        self._timer.timeout.connect(self._tick)
        self.hide()

    # ---- driven by the chat pane -------------------------------------------------------------

    def start(self) -> None:
        """A turn was sent: show the strip at "waiting" and start counting seconds."""
        self._started = self._clock()
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
            elif progress.phase == "writing":  # a tool call being written (its text is not shown)
                if self.phase != "writing":
                    self._set("writing")
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
        # the reply's own text shows the writing; keep the space, so the pane does not jump
        policy = self.bar.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.bar.setSizePolicy(policy)
        self.bar.setVisible(phase not in ("writing", "stopping"))
        if phase == "reading" and total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
        else:
            self.bar.setRange(0, 0)  # busy: the duration of this phase cannot be known
        self.label.setText(self.phase_text())

    @Slot()
    def _tick(self) -> None:
        self.elapsed.setText(self.tr("{0} s").format(self.seconds()))
