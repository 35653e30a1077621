"""General preferences: time zone, holidays, language, week start, working hours.

Only settings that change what the calendar and the assistant *decide* live here; colours
do not, because light or dark follows the system (Qt's palette), and the page says so
rather than offering a switch that would fight the desktop.
"""

from __future__ import annotations

from datetime import time
from zoneinfo import available_timezones

from PySide6.QtCore import QTime
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QTimeEdit,
    QWidget,
)

from agent.timesym.context import system_zone_name
from app.context import AppContext

HOLIDAY_COUNTRIES = ("CN", "HK", "MO", "TW", "SG", "JP", "KR", "US", "GB", "DE", "FR", "CA", "AU")


class GeneralPage(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        settings = ctx.settings

        self.timezone = QComboBox(self)
        self.timezone.addItem(self.tr("System ({0})").format(system_zone_name()), None)
        for name in sorted(zone for zone in available_timezones() if "/" in zone and not zone.startswith(("Etc/", "posix", "right", "SystemV"))):
            self.timezone.addItem(name, name)
        self.timezone.addItem("UTC", "UTC")
        self._select(self.timezone, settings.get("timezone"))

        self.holidays = QComboBox(self)
        names = self._country_names()
        for code in HOLIDAY_COUNTRIES:
            self.holidays.addItem(f"{names.get(code, code)} ({code})", code)
        self._select(self.holidays, settings.get("holiday_country"))

        self.language = QComboBox(self)
        self.language.addItem(self.tr("Automatic (each message's language)"), None)
        self.language.addItem("中文", "zh")
        self.language.addItem("English", "en")
        self._select(self.language, settings.get("language"))

        self.week_start = QComboBox(self)
        self.week_start.addItem(self.tr("Monday"), 1)
        self.week_start.addItem(self.tr("Sunday"), 7)
        self.week_start.addItem(self.tr("Saturday"), 6)
        self._select(self.week_start, settings.get("week_start"))

        hours = settings.working_hours()
        self.work_start = QTimeEdit(QTime(hours.start.hour, hours.start.minute), self)
        self.work_end = QTimeEdit(QTime(hours.end.hour, hours.end.minute), self)
        for edit in (self.work_start, self.work_end):
            edit.setDisplayFormat("HH:mm")
        hours_row = QHBoxLayout()
        hours_row.addWidget(self.work_start)
        hours_row.addWidget(QLabel("–", self))
        hours_row.addWidget(self.work_end)
        hours_row.addStretch(1)

        day_names = (self.tr("Mon"), self.tr("Tue"), self.tr("Wed"), self.tr("Thu"), self.tr("Fri"), self.tr("Sat"), self.tr("Sun"))
        self.work_days: list[QCheckBox] = []
        days_row = QHBoxLayout()
        for number, name in enumerate(day_names, start=1):
            box = QCheckBox(name, self)
            box.setChecked(number in hours.days)
            self.work_days.append(box)
            days_row.addWidget(box)
        days_row.addStretch(1)

        note = QLabel(self.tr("The interface language changes after a restart; the assistant follows it at once.\n"
                              "Light or dark appearance follows your system setting."), self)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(placeholder-text);")
        self.error = QLabel(self)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()

        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Time zone:"), self.timezone)
        form.addRow(self.tr("Public holidays:"), self.holidays)
        form.addRow(self.tr("Language:"), self.language)
        form.addRow(self.tr("Week starts on:"), self.week_start)
        form.addRow(self.tr("Working hours:"), hours_row)
        form.addRow(self.tr("Working days:"), days_row)
        self.sync_interval = QSpinBox(self)
        self.sync_interval.setRange(0, 24 * 60)
        self.sync_interval.setSuffix(self.tr(" min"))
        self.sync_interval.setSpecialValueText(self.tr("Only when asked"))
        self.sync_interval.setValue(int(settings.get("sync_interval_minutes") or 0))
        form.addRow(self.tr("Sync every:"), self.sync_interval)
        form.addRow(note)
        form.addRow(self.error)

    def _country_names(self) -> dict[str, str]:
        return {
            "CN": self.tr("Mainland China"), "HK": self.tr("Hong Kong"), "MO": self.tr("Macau"),
            "TW": self.tr("Taiwan"), "SG": self.tr("Singapore"), "JP": self.tr("Japan"),
            "KR": self.tr("South Korea"), "US": self.tr("United States"), "GB": self.tr("United Kingdom"),
            "DE": self.tr("Germany"), "FR": self.tr("France"), "CA": self.tr("Canada"), "AU": self.tr("Australia"),
        }

    @staticmethod
    def _select(combo: QComboBox, value: object) -> None:
        index = combo.findData(value)
        if index < 0 and value is not None:
            combo.addItem(str(value), value)  # a value set elsewhere (CLI) stays selectable
            index = combo.count() - 1
        combo.setCurrentIndex(max(0, index))

    def validate(self) -> str | None:
        if self.work_end.time() <= self.work_start.time():
            return self.tr("Working hours must end after they start.")
        if not any(box.isChecked() for box in self.work_days):
            return self.tr("Choose at least one working day.")
        return None

    def save(self) -> list[str]:
        """Write what changed; returns the changed keys (the dialog refreshes on them)."""
        start, end = self.work_start.time(), self.work_end.time()
        values = {
            "timezone": self.timezone.currentData(),
            "holiday_country": self.holidays.currentData(),
            "language": self.language.currentData(),
            "week_start": self.week_start.currentData(),
            "working_hours": [_hhmm(start), _hhmm(end)],
            "working_days": [number for number, box in enumerate(self.work_days, start=1) if box.isChecked()],
            "sync_interval_minutes": self.sync_interval.value(),
        }
        changed = []
        for key, value in values.items():
            if self.ctx.settings.get(key) != value:
                self.ctx.settings.set(key, value)
                changed.append(key)
        return changed


def _hhmm(value: QTime) -> str:
    return time(value.hour(), value.minute()).strftime("%H:%M")

