"""The one background runner (``app/background_op.py`` on ``app/worker.py``): what every owner relies on.

Chat turns, sync runs, imports, the connection tests and the model download all go through
``BackgroundOp``, so these rules are checked once here: the result (or the exception object)
is kept until the worker has finished and only then handed over, ``ended`` first; ``quit``
stops progress but not the work; a destroyed owner or ``drop()`` is never called back; no
traceback text reaches what a user reads. The work is gated on ``threading.Event``s the test
sets, never on time.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Generator
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QThreadPool

from agent.errors import UserFacingError
from app.background_op import BackgroundOp, running_ops
from app.worker import Channel, GeneratorWorker, describe

WAIT_MS = 5000


_POOL = QThreadPool()  # module-level: a pool dropped mid-test would wait for its work in its destructor


def _pool() -> QThreadPool:
    return _POOL


def test_success_comes_after_the_worker_finished_and_after_ended(qtbot: Any) -> None:
    seen: list[Any] = []
    op: BackgroundOp[int, str] | None = None

    def steps() -> Generator[int, None, str]:
        yield 1
        yield 2
        return "done"

    def on_success(result: str) -> None:
        assert op is not None
        seen.append(("success", result, op.worker.done))  # the worker has finished by now

    op = BackgroundOp(None, steps(), "steps")
    op.progress(lambda value: seen.append(("progress", value))).ended(lambda: seen.append("ended")).success(on_success)
    op.failure(lambda error: seen.append(("failure", error)))
    op.run_in_background(_pool())
    qtbot.waitUntil(lambda: len(seen) == 4, timeout=WAIT_MS)
    assert seen == [("progress", 1), ("progress", 2), "ended", ("success", "done", True)]
    qtbot.waitUntil(lambda: running_ops() == 0, timeout=WAIT_MS)  # the op let itself go


def test_the_result_is_kept_until_finished_not_handed_over_on_returned(qtbot: Any) -> None:
    """``returned`` arrives before ``finished``; the owner hears of the result only at the end,
    when it is idle again (the chat pane opens dialogs from there). The worker's signals are
    sent by hand here, on the UI thread, so the order is the test's, not a thread's."""
    order: list[str] = []
    op: BackgroundOp[None, int] = BackgroundOp(None, lambda _channel: 7, "seven")
    op.ended(lambda: order.append("ended")).success(lambda result: order.append(f"success {result}"))
    op.worker.signals.returned.emit(7)
    assert order == [], "the result is held while the worker has not finished"
    op.worker.signals.finished.emit()
    assert order == ["ended", "success 7"]
    error = RuntimeError("late")
    failed: list[Exception] = []
    other: BackgroundOp[None, int] = BackgroundOp(None, lambda _channel: 0, "late")
    other.failure(failed.append)
    other.worker.signals.errored.emit(error)
    assert failed == []
    other.worker.signals.finished.emit()
    assert failed == [error]


def test_failure_gets_the_exception_object_and_no_traceback_reaches_the_user(qtbot: Any, caplog: Any) -> None:
    class Broken(RuntimeError):
        pass

    raised = Broken("the backend fell over\nTraceback (most recent call last): ...")

    def work(_channel: Channel[None]) -> int:
        raise raised

    failures: list[Exception] = []
    successes: list[int] = []
    op: BackgroundOp[None, int] = BackgroundOp(None, work, "broken")
    op.failure(failures.append).success(successes.append)
    op.run_in_background(_pool())
    qtbot.waitUntil(lambda: bool(failures), timeout=WAIT_MS)
    assert failures == [raised] and failures[0] is raised and successes == []
    assert describe(failures[0]) == "Broken: the backend fell over"  # one line, never the traceback
    assert any(record.exc_info and record.exc_info[1] is raised for record in caplog.records), "the log has the traceback"
    assert describe(UserFacingError("请先选择日历")) == "请先选择日历"  # a sentence meant for the user stays itself


def test_quit_stops_progress_but_the_work_runs_to_its_end_with_its_real_result(qtbot: Any) -> None:
    """The chat's Stop: nothing more is forwarded, yet the turn records its reply and returns."""
    first_seen, go_on = threading.Event(), threading.Event()
    progress: list[int] = []
    results: list[str] = []
    finished_steps: list[int] = []

    def steps() -> Generator[int, None, str]:
        yield 1
        go_on.wait(WAIT_MS / 1000)
        for step in (2, 3, 4):
            finished_steps.append(step)
            yield step
        return "recorded"

    def on_progress(value: int) -> None:
        progress.append(value)
        first_seen.set()

    op = BackgroundOp(None, steps(), "turn")
    op.progress(on_progress).success(results.append)
    op.run_in_background(_pool())
    qtbot.waitUntil(first_seen.is_set, timeout=WAIT_MS)
    op.quit()
    go_on.set()
    qtbot.waitUntil(lambda: bool(results), timeout=WAIT_MS)
    assert progress == [1] and finished_steps == [2, 3, 4] and results == ["recorded"]
    assert op.worker.quit_requested


def test_plain_work_reports_through_its_channel_and_reads_quit(qtbot: Any) -> None:
    """The download's shape: a library callback reports progress, Cancel is read as quit."""
    reported, release = threading.Event(), threading.Event()
    progress: list[tuple[int, int]] = []
    results: list[str | None] = []

    def download(channel: Channel[tuple[int, int]]) -> str | None:
        channel.report((1, 10))
        reported.set()
        release.wait(WAIT_MS / 1000)
        return None if channel.quit_requested else "model.gguf"

    op: BackgroundOp[tuple[int, int], str | None] = BackgroundOp(None, download, "download")
    op.progress(progress.append).success(results.append)
    op.run_in_background(_pool())
    qtbot.waitUntil(reported.is_set, timeout=WAIT_MS)
    op.quit()
    release.set()
    qtbot.waitUntil(lambda: bool(results), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: progress == [(1, 10)], timeout=WAIT_MS)
    assert results == [None], "the work saw the quit and stopped itself"


def test_an_op_nobody_holds_still_reports(qtbot: Any) -> None:
    """An import started from a drop keeps no reference to its op; the op holds itself."""
    release = threading.Event()
    results: list[str] = []

    def work(_channel: Channel[None]) -> str:
        release.wait(WAIT_MS / 1000)
        return "imported"

    worker = BackgroundOp(None, work, "unheld").success(results.append).run_in_background(_pool())
    gc.collect()
    with qtbot.waitSignal(worker.signals.finished, timeout=WAIT_MS):
        release.set()
    qtbot.waitUntil(lambda: results == ["imported"], timeout=WAIT_MS)


def test_a_destroyed_owner_is_not_called_back_and_the_op_outlives_it(qtbot: Any) -> None:
    release = threading.Event()
    called: list[str] = []
    owner = QObject()
    op: BackgroundOp[None, int] = BackgroundOp(owner, lambda _channel: int(release.wait(WAIT_MS / 1000)), "orphan")
    op.ended(lambda: called.append("ended")).success(lambda _r: called.append("success"))
    worker = op.run_in_background(_pool())
    del op  # the owner drops its reference too: the op keeps itself until its worker ends
    owner.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    with qtbot.waitSignal(worker.signals.finished, timeout=WAIT_MS):
        release.set()
    qtbot.waitUntil(lambda: running_ops() == 0, timeout=WAIT_MS)
    assert called == []


def test_drop_forgets_the_outcome(qtbot: Any) -> None:
    release = threading.Event()
    called: list[str] = []
    op: BackgroundOp[None, bool] = BackgroundOp(None, lambda _channel: release.wait(WAIT_MS / 1000), "dropped")
    op.success(lambda _r: called.append("success")).ended(lambda: called.append("ended"))
    worker = op.run_in_background(_pool())
    op.drop()  # a settings dialog closing mid-test
    with qtbot.waitSignal(worker.signals.finished, timeout=WAIT_MS):
        release.set()
    qtbot.waitUntil(lambda: op.done, timeout=WAIT_MS)
    QCoreApplication.processEvents()
    assert called == []


def test_the_worker_is_typed_and_errored_carries_the_object(qtbot: Any) -> None:
    """Without the op: ``errored`` is the exception itself, ``finished`` always comes last."""
    problem = ValueError("bad input")

    def steps() -> Generator[int, None, str]:
        yield 1
        raise problem

    worker: GeneratorWorker[int, str] = GeneratorWorker(steps(), "raw")
    signals = worker.signals
    errors: list[object] = []
    signals.errored.connect(errors.append)
    with qtbot.waitSignals([signals.yielded, signals.errored, signals.finished], order="strict", timeout=WAIT_MS):
        _pool().start(worker)
    assert errors == [problem] and errors[0] is problem
    assert worker.done and not worker.running
