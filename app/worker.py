"""Running a generator off the UI thread and forwarding what it yields as Qt signals.

The shape is superqt's ``GeneratorWorker``, written here so the app has no extra
dependency: a ``QRunnable`` drives the generator on a pool thread; a separate ``QObject``
carries the signals, because a ``QRunnable`` is not a ``QObject`` and the signals object must
live on the UI thread for queued delivery to work. It is typed: a
``GeneratorWorker[Y, R]`` drives a ``Generator[Y, Any, R]``, so ``yielded`` carries ``Y`` and
``returned`` carries ``R``. Owners do not wire it themselves: ``app.background_op.BackgroundOp`` does
(chat turns, sync runs, imports, the model and CalDAV connection tests, the model download).

``errored`` carries the exception object itself, so an owner can tell a cancelled download
or a refused password from a bug by its type; the traceback goes to the log, never to a
user (``describe`` gives the one line a user may read).

Quitting is cooperative. ``quit()`` sets a flag that is checked between steps; from then on
nothing more is forwarded through ``yielded``, but the generator is still driven to its end.
That is deliberate: a chat turn records its reply and releases the session lock in its own
code, and ``ChatSession.stop()`` (which the pane calls alongside ``quit()``) makes that end
come at the next token. Closing the generator instead would leave a user message without a
reply in the archive. ``returned`` therefore always carries the generator's real result.
Work that has a way to stop early of its own (the download raises inside its progress
callback) reads ``quit_requested``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import QObject, QRunnable, Signal

from agent.errors import UserFacingError
from app.i18n import error_text

log = logging.getLogger(__name__)

Y = TypeVar("Y")
R = TypeVar("R")
Y_contra = TypeVar("Y_contra", contravariant=True)


class WorkerSignals(QObject):
    yielded = Signal(object)  # each value the generator yields (until quit)
    returned = Signal(object)  # the generator's return value
    errored = Signal(object)  # the exception object; its traceback went to the log
    finished = Signal()  # always last, after returned or errored


class Channel(Protocol[Y_contra]):
    """What plain (non-generator) work sees of its worker: report progress, ask about quit."""

    def report(self, value: Y_contra) -> None: ...

    @property
    def quit_requested(self) -> bool: ...


class GeneratorWorker(QRunnable, Generic[Y, R]):
    """Drive ``generator`` on a pool thread. Create on the UI thread, then ``pool.start()``."""

    def __init__(self, generator: Generator[Y, Any, R], name: str = "worker") -> None:
        super().__init__()
        self.setAutoDelete(False)  # the owner keeps a reference until ``finished``
        self.signals = WorkerSignals()
        self.name = name
        self._generator = generator
        self._quit = False
        self.running = False
        self.done = False

    @classmethod
    def calling(cls, work: Callable[[Channel[Y]], R], name: str = "worker") -> GeneratorWorker[Y, R]:
        """A worker for a plain function; it gets the worker as its ``Channel``, so a
        library callback deep inside it (a download's progress hook) can still report."""
        worker: GeneratorWorker[Y, R]

        def steps() -> Generator[Y, Any, R]:
            return work(worker)
            yield  # unreachable: only makes this a generator, which the worker drives

        worker = cls(steps(), name)
        return worker

    def quit(self) -> None:
        """Stop forwarding ``yielded`` values; the generator still runs to its end."""
        self._quit = True

    @property
    def quit_requested(self) -> bool:
        return self._quit

    def report(self, value: Y) -> None:
        """Forward ``value`` as ``yielded`` from code the generator calls (until quit)."""
        if not self._quit:
            self.signals.yielded.emit(value)

    def run(self) -> None:
        self.running = True
        try:
            result = self._drive()
        except Exception as exc:  # a bug or an unexpected backend error: say it, don't crash
            if isinstance(exc, UserFacingError):
                log.warning("%s: %s", self.name, exc)  # the user's situation, not a bug: no traceback
            else:
                log.exception("%s failed", self.name)
            self.signals.errored.emit(exc)
        else:
            self.signals.returned.emit(result)
        finally:
            self.running = False
            self.done = True
            self.signals.finished.emit()

    def _drive(self) -> R:
        generator = self._generator
        while True:
            try:
                value = next(generator)
            except StopIteration as stop:
                result: R = stop.value
                return result
            if not self._quit:
                self.signals.yielded.emit(value)


def describe(exc: BaseException) -> str:
    """The one line a user may read about ``exc`` (its type and message, no traceback)."""
    line = error_text(exc)
    text = line.splitlines()[0] if line.strip() else ""
    if isinstance(exc, UserFacingError):
        return text or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
