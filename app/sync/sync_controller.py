"""Sync in the app: the toolbar button, the periodic timer and the status-bar line.

A run goes through ``app.background_op.BackgroundOp`` on a one-thread pool, because it spends its time on
the network and must never freeze the calendar; the engine shares the window's ``Store``,
whose lock keeps the two threads off the connection at the same time. One run at a time:
a click or a timer tick during a run is not queued (the next tick catches up anyway).
The op hands the outcome over only once its worker has finished, so the controller is
idle (``busy_changed(False)``) before ``finished``/``resolved`` go out.

Wiring (done by the main window): ``sync_now`` on the button, ``status_changed`` to the
status bar, ``events_changed`` to the views' refresh, ``conflicts_changed`` to offer
``SyncConflictDialog`` for each of ``conflicts()``, whose choice goes to ``resolve``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from datetime import datetime
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot

from agent.store.changes import ChangeSet
from agent.store.db import Store
from agent.sync.accounts import AccountService, set_sync_interval_minutes, sync_interval_minutes
from agent.sync.conflicts import Conflict
from agent.sync.engine import SyncEngine
from agent.sync.report import SyncReport
from agent.sync.secrets import Secrets
from app.background_op import BackgroundOp
from app.worker import Channel, describe

R = TypeVar("R")


class SyncController(QObject):
    status_changed = Signal(str)
    busy_changed = Signal(bool)
    finished = Signal(object)  # SyncReport of a run, or None when it failed as a whole
    resolved = Signal(int)  # a conflict id, once its choice is written
    conflicts_changed = Signal(int)  # open conflicts after a run or a resolution
    events_changed = Signal(object)  # ChangeSet of local events a pull or a resolution wrote

    def __init__(
        self,
        store: Store,
        profile_id: int,
        parent: QObject | None = None,
        *,
        secrets: Secrets | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.profile_id = profile_id
        self.secrets = secrets
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._op: BackgroundOp[Any, Any] | None = None
        self._status = ""
        self._timer = QTimer(self)
        self._timer.setObjectName("sync_timer")
        self._timer.timeout.connect(self.sync_now)
        self._apply_interval(sync_interval_minutes(store, profile_id))
        self._set_status(self._idle_text())

    # ---- state ---------------------------------------------------------------------------

    def engine(self) -> SyncEngine:
        return SyncEngine(self.store, self.profile_id, self.secrets)

    def status(self) -> str:
        return self._status

    def is_busy(self) -> bool:
        return self._op is not None

    def has_accounts(self) -> bool:
        return bool(AccountService(self.store, self.profile_id, self.secrets).list())

    def conflicts(self) -> list[Conflict]:
        return self.engine().conflicts()

    def interval_minutes(self) -> int:
        return sync_interval_minutes(self.store, self.profile_id)

    def timer_active(self) -> bool:
        return self._timer.isActive()

    # ---- actions -------------------------------------------------------------------------

    @Slot()
    def sync_now(self) -> None:
        if self._op is not None:
            return
        if not self.has_accounts():
            self._set_status(self.tr("Sync: no account set up"))
            return
        engine = self.engine()
        self._start(engine.steps(), self._run_done, self.tr("Syncing…"))

    @Slot(int, str)
    def resolve(self, conflict_id: int, keep: str) -> None:
        """Write the user's choice (``local`` or ``server``); keeping ours needs the server."""
        if self._op is not None:
            self._set_status(self.tr("Sync is busy; choose again when it has finished"))
            return
        engine = self.engine()
        self._start(
            lambda _channel: engine.resolve(conflict_id, keep),  # nothing to report along the way
            lambda changes: self._resolve_done(conflict_id, changes),
            self.tr("Saving your choice…"),
        )

    @Slot(int)
    def set_interval_minutes(self, minutes: int) -> None:
        """Save the periodic-sync setting (0 = off) and restart the timer with it."""
        set_sync_interval_minutes(self.store, self.profile_id, max(0, int(minutes)))
        self._apply_interval(max(0, int(minutes)))

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the timer and wait for a running sync (the window calls this on close)."""
        self._timer.stop()
        return self._pool.waitForDone(timeout_ms)

    # ---- internals -----------------------------------------------------------------------

    def _apply_interval(self, minutes: int) -> None:
        if minutes > 0:
            self._timer.start(minutes * 60_000)
        else:
            self._timer.stop()

    def _start(
        self, steps: Generator[Any, None, R] | Callable[[Channel[Any]], R], done: Callable[[R], object], text: str
    ) -> None:
        op = BackgroundOp(self, steps, "sync")
        op.progress(self._progress).ended(self._ended).success(done).failure(self._failed)
        self._op = op
        self.busy_changed.emit(True)
        self._set_status(text)
        op.run_in_background(self._pool)

    @Slot(object)
    def _progress(self, where: object) -> None:
        self._set_status(self.tr("Syncing {0}…").format(where))

    @Slot(object)
    def _run_done(self, report: SyncReport) -> None:
        self._set_status(self._report_text(report))
        if report.changes:
            self.events_changed.emit(report.changes)
        self.conflicts_changed.emit(report.conflicts)
        self.finished.emit(report)

    def _resolve_done(self, conflict_id: int, changes: ChangeSet) -> None:
        open_count = len(self.conflicts())
        if open_count:
            self._set_status(self.tr("Conflict settled; {0} left").format(open_count))
        else:
            self._set_status(self.tr("Conflict settled"))
        if changes:
            self.events_changed.emit(changes)
        self.conflicts_changed.emit(open_count)
        self.resolved.emit(conflict_id)

    def _failed(self, error: Exception) -> None:
        self._set_status(self.tr("Sync failed: {0}").format(describe(error)))
        self.finished.emit(None)

    def _ended(self) -> None:
        """The run's worker has finished: the controller is free before the outcome is told."""
        self._op = None
        self.busy_changed.emit(False)

    def _set_status(self, text: str) -> None:
        self._status = text
        self.status_changed.emit(text)

    def _idle_text(self) -> str:
        accounts = AccountService(self.store, self.profile_id, self.secrets).list()
        if not accounts:
            return self.tr("Sync: no account set up")
        stamps = [a.last_sync_at for a in accounts if a.last_sync_at]
        if not stamps:
            return self.tr("Not synced yet")
        when = datetime.fromisoformat(max(stamps)).astimezone().strftime("%H:%M")
        return self.tr("Last synced {0}").format(when)

    def _report_text(self, report: SyncReport) -> str:
        stamp = datetime.now().strftime("%H:%M")
        text = self.tr("Synced {0}: {1} in, {2} out").format(stamp, report.pulled, report.pushed)
        if report.conflicts:
            text += self.tr(" · {0} conflicts to resolve").format(report.conflicts)
        if report.errors:
            text += self.tr(" · {0} errors: {1}").format(len(report.errors), report.errors[0])
        return text
