"""Search results under the navigation bar; choosing one jumps to that occurrence.

The query runs in ``SearchService`` (SQL over this profile's events), debounced while
typing so a fast typist does not run a query per keystroke. Hits from hidden calendars
are left out: jumping to an event the views will not draw would look like a broken jump.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QSize, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from agent.services.search import SearchHit, SearchService
from app.context import AppContext

DEBOUNCE_MS = 150
LIMIT = 30
VISIBLE_ROWS = 7


def swatch(color: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(color))
    return QIcon(pixmap)


class SearchPanel(QWidget):
    activated = Signal(str, object)  # uid, start (date | datetime)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.hits: list[SearchHit] = []
        self.visible_ids: set[int] | None = None
        self.colors: dict[int, str] = {}
        self._pending = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(lambda: self.search_now(self._pending))
        self.status = QLabel(self)
        self.status.setContentsMargins(8, 2, 8, 2)
        self.list = QListWidget(self)
        self.list.setIconSize(QSize(12, 12))
        self.list.setUniformItemSizes(True)
        self.list.itemActivated.connect(self._item_activated)
        self.list.itemClicked.connect(self._item_activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 0, 8, 6)
        layout.setSpacing(2)
        layout.addWidget(self.status)
        layout.addWidget(self.list)
        self.hide()

    def set_query(self, text: str) -> None:
        """Debounced search while typing; an empty box hides the panel at once."""
        self._pending = text
        if not text.strip():
            self._timer.stop()
            self.clear()
            return
        self._timer.start()

    def clear(self) -> None:
        self.hits = []
        self.list.clear()
        self.hide()

    def search_now(self, text: str) -> list[SearchHit]:
        self._timer.stop()
        if not text.strip():
            self.clear()
            return []
        service = SearchService(self.ctx.store, self.ctx.profile_id)
        ids = sorted(self.visible_ids) if self.visible_ids is not None else None
        self.hits = service.search(text, LIMIT, now=self.ctx.now(), tz=self.ctx.tz, calendar_ids=ids)
        self.list.clear()
        for hit in self.hits:
            item = QListWidgetItem(swatch(self.colors.get(hit.calendar_id, "#3b82f6")), self._label(hit))
            item.setToolTip(hit.location or hit.calendar)
            self.list.addItem(item)
        if self.hits:
            self.list.setCurrentRow(0)
            self.status.setText(self.tr("{0} found — Enter opens, ↑↓ choose").format(len(self.hits)))
        else:
            self.status.setText(self.tr("Nothing found for “{0}”").format(text.strip()))
        self.list.setVisible(bool(self.hits))
        rows = min(len(self.hits), VISIBLE_ROWS)
        row_height = self.list.sizeHintForRow(0) if self.hits else 0
        self.list.setFixedHeight(rows * row_height + 2 * self.list.frameWidth() + 2)
        self.show()
        return self.hits

    def _label(self, hit: SearchHit) -> str:
        start = hit.start
        when = f"{start:%Y-%m-%d %H:%M}" if isinstance(start, datetime) else f"{start:%Y-%m-%d} " + self.tr("all-day")
        parts = [hit.title, when, hit.calendar]
        if hit.location:
            parts.insert(2, hit.location)
        return "  ·  ".join(parts)

    def move_selection(self, delta: int) -> None:
        if not self.hits:
            return
        row = max(0, min(self.list.currentRow() + delta, len(self.hits) - 1))
        self.list.setCurrentRow(row)

    def activate_current(self) -> bool:
        if self._timer.isActive():
            self.search_now(self._pending)
        row = self.list.currentRow()
        if not 0 <= row < len(self.hits):
            return False
        hit = self.hits[row]
        self.activated.emit(hit.uid, hit.start)
        return True

    @Slot(QListWidgetItem)
    def _item_activated(self, item: QListWidgetItem) -> None:
        row = self.list.row(item)
        if 0 <= row < len(self.hits):
            hit = self.hits[row]
            self.activated.emit(hit.uid, hit.start)
