"""Subscribed calendars in the app: adding one (File ▸ Subscribe to calendar…, the sidebar's
menu) and refreshing them in the background, a few seconds after start and then hourly.

Every fetch runs on ``BackgroundOp`` (a feed may take up to its 30 s deadline); the result
comes back to the UI thread, where the views reload (``ops.external_change``) and a failed
first fetch shows its one line. The refresh itself, its bounds and what it changes are
``agent.sync.subscriptions``'s (docs/subscriptions.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QInputDialog, QWidget

from agent.errors import StoreError
from app.background_op import BackgroundOp
from app.context import AppContext
from app.i18n import error_text

if TYPE_CHECKING:
    from agent.sync.subscriptions import Fetcher, RefreshResult, Subscription

REFRESH_MS = 60 * 60 * 1000  # every hour, as calendar apps refresh published calendars
START_DELAY_MS = 5_000  # after start, once the window has painted


class SubscriptionRefresher(QObject):
    """Refreshes every subscription on a timer; ``refresh_now``/``subscribe`` on demand."""

    refreshed = Signal(object)  # list[RefreshResult]
    subscribed = Signal(object)  # Subscription
    busy_changed = Signal(bool)

    def __init__(
        self,
        ctx: AppContext,
        parent: QObject | None = None,
        *,
        interval_ms: int = REFRESH_MS,
        start_delay_ms: int | None = START_DELAY_MS,
        fetcher: Fetcher | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.fetcher = fetcher
        self.busy = False
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.refresh_now)
        self.timer.start()
        if start_delay_ms is not None:
            QTimer.singleShot(start_delay_ms, self, self.refresh_now)

    def _service(self) -> Any:
        from agent.sync.subscriptions import SubscriptionService

        return SubscriptionService(self.ctx.store, self.ctx.profile_id, fetcher=self.fetcher)

    def _run(self, work: Any, done: Any, name: str) -> bool:
        if self.busy:
            return False
        self.busy = True
        self.busy_changed.emit(True)
        op: BackgroundOp[None, Any] = BackgroundOp(self, lambda channel: work(), name)
        op.ended(self._ended).success(done).failure(self._failed).run_in_background()
        return True

    @Slot()
    def refresh_now(self, name: str | None = None) -> bool:
        """Refresh all (or the one named) in the background; False when one is running."""
        if not name and not self._has_any():
            return False
        return self._run(lambda: self._service().refresh(name or None), self._refreshed, "subscription refresh")

    def ask(self, parent: QWidget) -> str | None:
        """The address to subscribe to, from a small dialog; None when cancelled."""
        url, ok = QInputDialog.getText(
            parent,
            self.tr("Subscribe to calendar"),
            self.tr("Address of a published calendar (webcal:// or https://…ics):"),
        )
        return url.strip() if ok and url.strip() else None

    def ask_and_subscribe(self, parent: QWidget) -> bool:
        url = self.ask(parent)
        return self.subscribe(url) if url else False

    def subscribe(self, url: str, name: str | None = None) -> bool:
        return self._run(lambda: self._service().subscribe(url, name)[0], self._subscribed, "subscribe")

    def _has_any(self) -> bool:
        """Whether there is anything to refresh; False once the store is closed (the window
        went away before a timer fired: nothing to do, and nothing to report)."""
        try:
            return bool(self.ctx.store.conn.execute("SELECT 1 FROM subscriptions WHERE profile_id = ? LIMIT 1",
                                                    (self.ctx.profile_id,)).fetchone())  # fmt: skip
        except StoreError:
            self.timer.stop()
            return False

    def _ended(self) -> None:
        self.busy = False
        self.busy_changed.emit(False)

    def _refreshed(self, results: list[RefreshResult]) -> None:
        self.ctx.ops.external_change()  # the sidebar's "refreshed" line and the views
        self.refreshed.emit(results)

    def _subscribed(self, subscription: Subscription) -> None:
        self.ctx.ops.external_change()
        self.subscribed.emit(subscription)

    def _failed(self, exc: Exception) -> None:
        self.ctx.ops.external_change()
        self.ctx.ops.failed.emit(error_text(exc))
