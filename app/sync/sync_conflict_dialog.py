"""Which version of an event changed on both sides wins: this device's or the server's.

Both versions are shown side by side with what tells them apart (title, time, place,
repetition, notes); a side that deleted the event says so. The dialog only reports the
choice through ``chosen`` ("local", "server", or "" for later); the controller writes it.
Escape or closing the window means "decide later": nothing is lost, the conflict stays
listed and both versions stay stored.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent.sync.conflicts import Conflict
from app.i18n import ui_lang

LOCAL, SERVER, LATER = "local", "server", ""


class SyncConflictDialog(QDialog):
    chosen = Signal(str)  # local | server | "" (decide later)

    def __init__(self, conflict: Conflict, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.conflict = conflict
        self.choice = LATER
        self.setWindowTitle(self.tr("Changed in two places"))
        self.setMinimumWidth(560)

        heading = QLabel(
            self.tr("“{0}” in {1} was changed on this device and on the server. Which version should stay?").format(
                conflict.title, conflict.calendar
            ),
            self,
        )
        heading.setWordWrap(True)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)

        self.local_box = self._side_box(self.tr("On this device"), conflict.side("local"), "local_side")
        self.server_box = self._side_box(self.tr("On the server"), conflict.side("server"), "server_side")
        sides = QHBoxLayout()
        sides.addWidget(self.local_box)
        sides.addWidget(self.server_box)

        note = QLabel(self.tr("The other version is kept in the sync history, not thrown away."), self)
        note.setStyleSheet("color: palette(placeholder-text);")

        self.keep_local = QPushButton(self.tr("Keep mine"), self)
        self.keep_local.setObjectName("keep_local")
        self.keep_server = QPushButton(self.tr("Keep server"), self)
        self.keep_server.setObjectName("keep_server")
        self.later = QPushButton(self.tr("Decide later"), self)
        self.later.setObjectName("decide_later")
        self.keep_local.clicked.connect(self._keep_local)
        self.keep_server.clicked.connect(self._keep_server)
        self.later.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.later)
        buttons.addWidget(self.keep_server)
        buttons.addWidget(self.keep_local)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(sides)
        layout.addWidget(note)
        layout.addLayout(buttons)
        self.later.setFocus(Qt.FocusReason.OtherFocusReason)

    def _side_box(self, title: str, side: dict[str, Any] | None, name: str) -> QGroupBox:
        box = QGroupBox(title, self)
        box.setObjectName(name)
        form = QFormLayout(box)
        if side is None:
            deleted = QLabel(self.tr("Deleted"), box)
            deleted.setObjectName("deleted")
            form.addRow(deleted)
            return box
        rows = (
            (self.tr("Title"), str(side.get("title") or "")),
            (self.tr("Starts"), _when(side.get("start"))),
            (self.tr("Ends"), _last_day(side.get("end")) if side.get("all_day") else _when(side.get("end"))),
            (self.tr("Place"), str(side.get("location") or "")),
            (self.tr("Repeats"), str((side.get("repeat") or {}).get(ui_lang(), ""))),  # the one summary's words
            (self.tr("Notes"), str(side.get("description") or "")),
        )
        for label, value in rows:
            if not value:
                continue
            field = QLabel(value, box)
            field.setWordWrap(True)
            field.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(label, field)
        return box

    def texts(self, box: QGroupBox) -> list[str]:
        """The values one side shows (for tests and accessibility checks)."""
        return [label.text() for label in box.findChildren(QLabel)]

    @Slot()
    def _keep_local(self) -> None:
        self.choice = LOCAL
        self.accept()

    @Slot()
    def _keep_server(self) -> None:
        self.choice = SERVER
        self.accept()

    def done(self, result: int) -> None:
        super().done(result)
        self.chosen.emit(self.choice if int(result) == QDialog.DialogCode.Accepted.value else LATER)


def _last_day(value: Any) -> str:
    """An all-day end as a person reads it: the last day, not the exclusive DTEND after it."""
    try:
        return (date.fromisoformat(str(value)[:10]) - timedelta(days=1)).isoformat()
    except ValueError:
        return str(value or "")


def _when(value: Any) -> str:
    text = str(value or "")
    return text.replace("T", " ")[:16] if "T" in text else text
