"""The editor's time-zone field: it finds a zone as Settings' picker does, and says what the
event's start is on the user's own clock (issue 32, defect 12).

The editor's zone is an editable combo of IANA names; its completer matched those names only,
so 纽约 or "new york" or "UTC-5" found nothing while Settings found all three. The completer
here matches each zone on the picker's own search text (``zone_picker.search_text``: the name,
its words, its current UTC offset, the Chinese city names) and still puts the IANA name in the
field. ``LocalTimeLabel`` says "= 04:00 12-02 here" beside the field when the event's zone is
not the user's, so a time typed for New York is checked against the local clock while editing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QCompleter, QLabel, QWidget

from app.settings.zone_picker import search_text, utc_offset_text

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1


class ZoneCompleter(QCompleter):
    """Matches a typed word anywhere in a zone's search text; completes to its IANA name."""

    def __init__(self, names: list[str], now: datetime, parent: QWidget) -> None:
        model = QStandardItemModel(parent)
        for name in names:
            item = QStandardItem(name)
            item.setData(search_text(name, utc_offset_text(name, now)), SEARCH_ROLE)
            model.appendRow(item)
        super().__init__(model, parent)
        self.setCompletionRole(SEARCH_ROLE)
        self.setFilterMode(Qt.MatchFlag.MatchContains)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # a Qt override keeps Qt's name
        return str(index.data(Qt.ItemDataRole.DisplayRole))

    def splitPath(self, path: str) -> list[str]:  # a Qt override keeps Qt's name
        return [path.casefold()]


def attach_zone_completer(combo: QComboBox, now: datetime) -> ZoneCompleter:
    """Give ``combo`` (its items' data are IANA names) the picker's search."""
    names = [str(combo.itemData(index)) for index in range(combo.count()) if combo.itemData(index)]
    completer = ZoneCompleter(names, now, combo)
    combo.setCompleter(completer)
    return completer


class LocalTimeLabel(QLabel):
    """The event's start on the user's clock, when the event's zone is another one."""

    def __init__(self, user_zone: tzinfo, start: Callable[[], datetime | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.user_zone = user_zone
        self.start = start
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet("color: palette(placeholder-text);")

    def refresh(self) -> None:
        start = self.start()
        if start is None or start.tzinfo is None or start.utcoffset() == start.astimezone(self.user_zone).utcoffset():
            self.setText("")
            return
        here = start.astimezone(self.user_zone)
        day = "" if here.date() == start.date() else f" {here:%m-%d}"
        self.setText(self.tr("= {0} here").format(f"{here:%H:%M}{day}"))
