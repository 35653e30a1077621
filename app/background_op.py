"""One way to run work in the background: ``BackgroundOp(parent, work).success(cb).run_in_background()``.

The shape is Anki's ``CollectionOp``/``QueryOp`` (aqt/operations): the owner says what to
run and what to do with the outcome, and the op does the wiring every owner used to write
for itself (chat turns, sync runs, imports, the connection tests, the model download):

* ``work`` is a generator (what it yields goes to ``progress``, until ``quit``) or a plain
  function of a ``Channel`` (``Channel.report`` goes to ``progress``);
* the result, or the exception object, is **kept until the worker has finished** and only
  then handed over: ``ended`` callbacks first (the owner is idle again), then ``success``
  with the result or ``failure`` with the exception. So a dialog a result opens, or a
  "finished" signal an owner sends, never sees the owner still busy;
* without a ``failure`` callback an error is only logged (the worker logs its traceback;
  ``app.worker.describe`` gives the one line a user may read);
* the op keeps itself (and so its worker) alive until ``finished``, even when the owner drops
  its reference, and it lets go of the owner's callbacks when the owner is destroyed or
  ``drop()`` is called: a dialog closed mid-test is never called back.

Quit keeps the worker's documented meaning (``app.worker``): ``quit()`` stops ``progress``
but the work still runs to its end and ``success`` still gets its real result.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from functools import partial
from typing import Any, Generic, TypeVar, cast

from PySide6.QtCore import QObject, QThreadPool, QTimer, Slot

from app.worker import Channel, GeneratorWorker

Y = TypeVar("Y")
R = TypeVar("R")

_running: set[BackgroundOp[Any, Any]] = set()  # ops whose worker has not finished yet


class BackgroundOp(QObject, Generic[Y, R]):
    """Run ``work`` on a pool thread; the callbacks run on the UI thread, once, at the end."""

    def __init__(
        self,
        parent: QObject | None,
        work: Generator[Y, Any, R] | Callable[[Channel[Y]], R],
        name: str = "background op",
    ) -> None:
        super().__init__()  # no Qt parent: the op outlives a closed owner until its thread ends
        if isinstance(work, Generator):
            self.worker: GeneratorWorker[Y, R] = GeneratorWorker(work, name)
        elif callable(work):
            self.worker = GeneratorWorker.calling(work, name)
        else:
            raise TypeError(f"{name}: work must be a generator or a callable, not {type(work).__name__}")
        self.name = name
        self._progress: list[Callable[[Y], object]] = []
        self._success: list[Callable[[R], object]] = []
        self._failure: list[Callable[[Exception], object]] = []
        self._ended: list[Callable[[], object]] = []
        self._result: R | None = None
        self._error: Exception | None = None
        self._returned = False
        self.started = False
        signals = self.worker.signals
        signals.yielded.connect(self._on_yielded)
        signals.returned.connect(self._on_returned)
        signals.errored.connect(self._on_errored)
        signals.finished.connect(self._on_finished)
        if parent is not None:
            parent.destroyed.connect(self.drop)

    # ---- building -----------------------------------------------------------------------

    def progress(self, callback: Callable[[Y], object]) -> BackgroundOp[Y, R]:
        """Each yielded (or reported) value, as it comes, until ``quit``."""
        self._progress.append(callback)
        return self

    def success(self, callback: Callable[[R], object]) -> BackgroundOp[Y, R]:
        """The work's result, after the worker has finished."""
        self._success.append(callback)
        return self

    def failure(self, callback: Callable[[Exception], object]) -> BackgroundOp[Y, R]:
        """The exception the work raised (the object, not its text), after the worker finished."""
        self._failure.append(callback)
        return self

    def ended(self, callback: Callable[[], object]) -> BackgroundOp[Y, R]:
        """Either way, before ``success``/``failure``: the owner marks itself idle here."""
        self._ended.append(callback)
        return self

    def run_in_background(self, pool: QThreadPool | None = None) -> GeneratorWorker[Y, R]:
        """Start on ``pool`` (the global one by default); returns the worker."""
        if not self.started:
            self.started = True
            _running.add(self)
            (pool or QThreadPool.globalInstance()).start(self.worker)
        return self.worker

    # ---- while it runs ------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.worker.done

    def quit(self) -> None:
        """No more ``progress``; the work still runs to its end (see ``app.worker``)."""
        self.worker.quit()

    @Slot()
    def drop(self) -> None:
        """Forget every callback (the owner is gone or no longer wants the outcome)."""
        self._progress.clear()
        self._success.clear()
        self._failure.clear()
        self._ended.clear()

    @Slot(object)
    def _on_yielded(self, value: Y) -> None:
        for callback in list(self._progress):
            callback(value)

    @Slot(object)
    def _on_returned(self, result: R) -> None:
        self._result, self._returned = result, True

    @Slot(object)
    def _on_errored(self, error: Exception) -> None:
        self._error = error

    @Slot()
    def _on_finished(self) -> None:
        ended, success, failure = list(self._ended), list(self._success), list(self._failure)
        result, error, returned = self._result, self._error, self._returned
        self.drop()
        self._result = self._error = None
        # Let go of the op from a fresh event-loop turn, not from inside its own slot.
        QTimer.singleShot(0, partial(_running.discard, self))
        for end in ended:
            end()
        if error is not None:
            for fail in failure:
                fail(error)
        elif returned:
            for succeed in success:
                succeed(cast(R, result))  # set by _on_returned


def running_ops() -> int:
    """How many ops have not finished yet (tests check that none is left behind)."""
    return len(_running)
