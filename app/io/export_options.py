"""What to export: every calendar or one, optionally only a date range.

A range exports each series that has an instance in it *whole* (see docs/ics.md), which
is what another calendar app needs to show the recurrence correctly; the dialog says so.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext


class ExportOptionsDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Export .ics"))
        self.calendar = QComboBox(self)
        self.calendar.addItem(self.tr("All calendars"), None)
        for name in ctx.ops.calendars.names():
            self.calendar.addItem(name, name)

        today = ctx.now().date()
        self.limit = QCheckBox(self.tr("Only events between"), self)
        self.start = QDateEdit(QDate(today.year, today.month, 1), self)
        self.end = QDateEdit(QDate(today.year, today.month, 1).addMonths(1).addDays(-1), self)
        for edit in (self.start, self.end):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setEnabled(False)
        self.limit.toggled.connect(self.start.setEnabled)
        self.limit.toggled.connect(self.end.setEnabled)
        range_row = QHBoxLayout()
        range_row.addWidget(self.limit)
        range_row.addWidget(self.start)
        range_row.addWidget(QLabel(self.tr("and"), self))
        range_row.addWidget(self.end)
        range_row.addStretch(1)
        note = QLabel(self.tr("A repeating event with any instance in the range is exported whole."), self)
        note.setStyleSheet("color: palette(placeholder-text);")

        buttons = QDialogButtonBox(self)
        ok = buttons.addButton(self.tr("Export…"), QDialogButtonBox.ButtonRole.AcceptRole)
        ok.setDefault(True)
        buttons.addButton(self.tr("Cancel"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow(self.tr("Calendar:"), self.calendar)
        form.addRow(range_row)
        form.addRow(note)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def calendar_name(self) -> str | None:
        return self.calendar.currentData()

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """[start, end) in the calendar's zone; the end date is included."""
        if not self.limit.isChecked():
            return None, None
        first, last = _py_date(self.start.date()), _py_date(self.end.date())
        if last < first:
            first, last = last, first
        tz = self.ctx.tz
        return datetime.combine(first, time(0), tz), datetime.combine(last + timedelta(days=1), time(0), tz)


def _py_date(value: QDate) -> date:
    return date(value.year(), value.month(), value.day())
