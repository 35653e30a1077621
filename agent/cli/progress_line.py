"""``richeng chat``'s progress on the terminal: one line on stderr that rewrites itself.

A local model can take seconds to minutes before its first word (loading the file, reading
the prompt), and a silent terminal then looks hung. While a turn runs, and only when stderr
is a terminal (a script's captured output stays exactly as it was), this line names the
phase as the app's progress strip does: loading the model, reading the prompt (N / M
tokens), calling a tool, with the seconds since the message was sent. It is wiped before
the reply is printed. Ctrl+C stops the turn in every phase (``agent.cli.main``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from agent.runtime.turn_types import TurnEvent

CLEAR = "\r\x1b[K"  # back to column 0, erase to the end of the line


class ProgressLine:
    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._clock = clock
        self._started = clock()
        self._shown = False

    def on_event(self, event: TurnEvent) -> None:
        """Follow one turn event; a token means the reply is coming, so the line goes."""
        text = self.text_for(event)
        if text is None:
            return
        if text == "":
            self.clear()
            return
        self._stream.write(f"{CLEAR}{text} · {int(self._clock() - self._started)} s")
        self._stream.flush()
        self._shown = True

    @staticmethod
    def text_for(event: TurnEvent) -> str | None:
        """The line for ``event``: words, "" to wipe it, None to leave it as it is."""
        if event.kind == "progress" and event.payload is not None:
            progress = event.payload
            if progress.phase == "loading":
                return "loading the model…"
            if progress.phase == "writing":
                return "writing the reply…"
            if progress.total:
                return f"reading the prompt: {progress.done:,} / {progress.total:,} tokens"
            return "reading the prompt…"
        if event.kind == "tool_call":
            return f"calling a tool: {event.name}…"
        if event.kind == "tool_result":
            return "waiting for the model…"
        if event.kind in ("token", "done"):
            return ""
        return None

    def clear(self) -> None:
        if self._shown:
            self._stream.write(CLEAR)
            self._stream.flush()
            self._shown = False
