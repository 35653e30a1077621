"""Running a generator off the UI thread and forwarding what it yields as Qt signals.

The shape is superqt's ``GeneratorWorker``, written here so the app has no extra
dependency: a ``QRunnable`` drives the generator on a pool thread; a separate ``QObject``
carries the signals, because a ``QRunnable`` is not a ``QObject`` and the signals object must
live on the UI thread for queued delivery to work.

The chat pane runs ``ChatSession.send`` (and the zero-model ``act`` buttons) through it, the
import runs ``import_file`` through it, and the settings page runs its connection test.

Quitting is cooperative. ``quit()`` sets a flag that is checked between steps; from then on
nothing more is forwarded through ``yielded``, but the generator is still driven to its end.
That is deliberate: a chat turn records its reply and releases the session lock in its own
code, and ``ChatSession.stop()`` (which the pane calls alongside ``quit()``) makes that end
come at the next token. Closing the generator instead would leave a user message without a
reply in the archive. ``returned`` therefore always carries the generator's real result.
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal


log = logging.getLogger(__name__)


class WorkerSignals(QObject):
    yielded = Signal(object)  # each value the generator yields (until quit)
    returned = Signal(object)  # the generator's return value
    errored = Signal(str)  # one line; the traceback goes to the log
    finished = Signal()  # always last, after returned or errored


class GeneratorWorker(QRunnable):
    """Drive ``generator`` on a pool thread. Create on the UI thread, then ``pool.start()``."""

    def __init__(self, generator: Generator[Any, Any, Any], name: str = "worker") -> None:
        super().__init__()
        self.setAutoDelete(False)  # the owner keeps a reference until ``finished``
        self.signals = WorkerSignals()
        self.name = name
        self._generator = generator
        self._quit = False
        self.running = False
        self.done = False

    def quit(self) -> None:
        """Stop forwarding ``yielded`` values; the generator still runs to its end."""
        self._quit = True

    @property
    def quit_requested(self) -> bool:
        return self._quit

    def run(self) -> None:
        self.running = True
        try:
            result = self._drive()
        except Exception as exc:  # a bug or an unexpected backend error: say it, don't crash
            log.exception("%s failed", self.name)
            self.signals.errored.emit(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        else:
            self.signals.returned.emit(result)
        finally:
            self.running = False
            self.done = True
            self.signals.finished.emit()

    def _drive(self) -> Any:
        generator = self._generator
        while True:
            try:
                value = next(generator)
            except StopIteration as stop:
                return stop.value
            if not self._quit:
                self.signals.yielded.emit(value)
