"""Showing what other processes wrote: ``richeng events add`` in a terminal, a sync or an
undo from the CLI while the app is open (issue 19, item 0).

Once a second the UI thread asks its own connection for SQLite's ``PRAGMA data_version``,
which changes only when another connection committed; no file is read while nothing changed.
A change reloads the calendars and the views through ``Operations.external_change``, the same
signals an in-app write sends. Commits of the app's own worker threads (chat, sync, import)
also move the counter; their views have already been told, so that reload is a cheap repeat.
"""

from __future__ import annotations

import logging
import sqlite3

from PySide6.QtCore import QObject, QTimer

from agent.errors import StoreError
from app.context import AppContext

POLL_MS = 1000
log = logging.getLogger(__name__)


class StoreWatcher(QObject):
    """Polls ``ctx.store.data_version()`` on a timer owned by ``parent``."""

    def __init__(self, ctx: AppContext, parent: QObject, interval_ms: int = POLL_MS) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._seen = self._version()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)
        self.timer.start()

    def _version(self) -> int | None:
        try:
            return self.ctx.store.data_version()
        except (StoreError, sqlite3.Error) as exc:  # closed at quit, or damaged: the next write says so
            log.debug("data_version: %s", exc)
            return None

    def poll(self) -> bool:
        """Reload the views when another connection committed since the last poll."""
        version = self._version()
        if version is None or version == self._seen:
            return False
        self._seen = version
        self.ctx.ops.external_change()
        return True
