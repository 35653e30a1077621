"""A searchable time-zone picker: a search line over a short, filtered list of ~400 zones.

A plain combo box of every IANA zone is a 400-line scroll; people know a city, a region or
an offset, not where "Asia/Shanghai" sits in the alphabet. Each row matches on its IANA name
(underscores read as spaces, so "new york" finds America/New_York), its current UTC offset
("+08", "UTC-5"), and for the cities people here most often need, the Chinese name
(上海, 纽约). Every word typed must match; the list keeps the current choice selected while
it is visible, and Enter or a click picks a row; typing a search never does.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, available_timezones

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QLabel, QLineEdit, QListView, QSizePolicy, QVBoxLayout, QWidget

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1
VALUE_ROLE = Qt.ItemDataRole.UserRole + 2
VISIBLE_ROWS = 7

CHINESE_CITY_NAMES: dict[str, str] = {
    "Asia/Shanghai": "上海 北京 中国 china beijing",
    "Asia/Hong_Kong": "香港",
    "Asia/Macau": "澳门",
    "Asia/Taipei": "台北 台湾",
    "Asia/Tokyo": "东京 日本",
    "Asia/Seoul": "首尔 韩国",
    "Asia/Singapore": "新加坡",
    "Asia/Kolkata": "印度 india delhi mumbai",
    "Asia/Dubai": "迪拜",
    "Europe/London": "伦敦 英国",
    "Europe/Paris": "巴黎 法国",
    "Europe/Berlin": "柏林 德国",
    "Europe/Moscow": "莫斯科",
    "America/New_York": "纽约 美东",
    "America/Chicago": "芝加哥",
    "America/Los_Angeles": "洛杉矶 旧金山 美西 san francisco",
    "America/Toronto": "多伦多",
    "America/Vancouver": "温哥华",
    "Australia/Sydney": "悉尼",
    "Pacific/Auckland": "奥克兰 新西兰",
    "UTC": "协调世界时 gmt utc",
}


def zone_names() -> list[str]:
    """Every IANA region/city zone (no Etc/ or legacy aliases), then UTC."""
    skip = ("Etc/", "posix", "right", "SystemV")
    return sorted(zone for zone in available_timezones() if "/" in zone and not zone.startswith(skip)) + ["UTC"]


def utc_offset_text(name: str, at: datetime) -> str:
    offset = at.astimezone(ZoneInfo(name)).utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def search_text(name: str, offset: str) -> str:
    """What a row matches on, case-folded: name, name with spaces, offset, Chinese names."""
    short = offset.replace(":00", "")  # UTC+08 / UTC-05
    unpadded = short.replace("+0", "+").replace("-0", "-")  # UTC+8 / UTC-5
    parts = [name, name.replace("_", " ").replace("/", " "), offset, short, unpadded, CHINESE_CITY_NAMES.get(name, "")]
    return " ".join(parts).casefold()


class _ZoneFilter(QSortFilterProxyModel):
    """Rows whose search text holds every word of the query."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.words: list[str] = []

    def set_query(self, text: str) -> None:
        self.beginFilterChange()  # Qt 6.10+: the way to say "the filter changed"
        self.words = text.casefold().split()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self.words:
            return True
        text = str(self.sourceModel().index(row, 0, parent).data(SEARCH_ROLE) or "")
        return all(word in text for word in self.words)


class ZonePicker(QWidget):
    """``value()`` is the chosen IANA name, or None for "the system's zone"."""

    changed = Signal(object)

    def __init__(self, system_label: str, now: datetime | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        at = now or datetime.now(UTC)
        self.model = QStandardItemModel(self)
        system = QStandardItem(system_label)
        system.setData(None, VALUE_ROLE)
        system.setData(system_label.casefold() + " system 系统", SEARCH_ROLE)
        self.model.appendRow(system)
        for name in zone_names():
            offset = utc_offset_text(name, at)
            item = QStandardItem(f"{name.replace('_', ' ')}  ({offset})")
            item.setData(name, VALUE_ROLE)
            item.setData(search_text(name, offset), SEARCH_ROLE)
            item.setToolTip(name)
            self.model.appendRow(item)
        self.filter = _ZoneFilter(self)
        self.filter.setSourceModel(self.model)

        self.search = QLineEdit(self)
        self.search.setObjectName("zone_search")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(self.tr("Search: city, region or UTC offset (e.g. Shanghai, +08)"))
        self.list = QListView(self)
        self.list.setObjectName("zone_list")
        self.list.setModel(self.filter)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setUniformItemSizes(True)
        row_height = max(18, self.list.sizeHintForRow(0))
        self.list.setFixedHeight(row_height * VISIBLE_ROWS + 2 * self.list.frameWidth())
        self.empty = QLabel(self.tr("No time zone matches."), self)
        self.empty.setStyleSheet("color: palette(placeholder-text);")
        self.empty.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        layout.addWidget(self.empty)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)  # no gaps in a form

        self._value: str | None = None
        self._filtering = False  # rows come and go: the view moves its current row, the user chose nothing
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._take_first)
        self.list.selectionModel().currentChanged.connect(self._picked)
        self.set_value(None)

    # ---- API ---------------------------------------------------------------------------

    def value(self) -> str | None:
        return self._value

    def set_value(self, name: str | None) -> None:
        """Select ``name`` (an unknown name set from the CLI is added so it stays chosen)."""
        row = self._source_row(name)
        if row < 0 and name is not None:
            item = QStandardItem(name)
            item.setData(name, VALUE_ROLE)
            item.setData(name.casefold(), SEARCH_ROLE)
            self.model.appendRow(item)
            row = self.model.rowCount() - 1
        self._value = name if row >= 0 else None
        self._show_current()

    def visible_values(self) -> list[str | None]:
        return [self.filter.index(r, 0).data(VALUE_ROLE) for r in range(self.filter.rowCount())]

    # ---- internals ---------------------------------------------------------------------

    def _source_row(self, name: str | None) -> int:
        for row in range(self.model.rowCount()):
            if self.model.item(row).data(VALUE_ROLE) == name:
                return row
        return -1

    def _show_current(self) -> None:
        source = self.model.index(max(0, self._source_row(self._value)), 0)
        index = self.filter.mapFromSource(source)
        blocked = self.list.selectionModel().blockSignals(True)
        if index.isValid():
            self.list.setCurrentIndex(index)
            self.list.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        else:
            self.list.clearSelection()
        self.list.selectionModel().blockSignals(blocked)

    def _filter(self, text: str) -> None:
        self._filtering = True
        try:
            self.filter.set_query(text)
        finally:
            self._filtering = False
        self.empty.setVisible(self.filter.rowCount() == 0)
        self._show_current()

    def _take_first(self) -> None:
        if self.filter.rowCount():
            first = self.filter.index(0, 0)
            self.list.setCurrentIndex(first)
            self._choose(first)  # already current after the filter moved it there: no signal came

    def _picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """Only an explicit choice (a click, Enter, an arrow key) changes the zone: searching
        hides the chosen row and Qt moves the current row to another one (issue 32, defect 2)."""
        if current.isValid() and not self._filtering:
            self._choose(current)

    def _choose(self, index: QModelIndex) -> None:
        if index.data(VALUE_ROLE) != self._value:
            self._value = index.data(VALUE_ROLE)
            self.changed.emit(self._value)
