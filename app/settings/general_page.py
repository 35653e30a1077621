"""General preferences: time zone, holidays, language, week start, working hours, 节气.

Only settings that change what the calendar and the assistant *decide* live here; colours
do not, because light or dark follows the system (Qt's palette), and the page says so
rather than offering a switch that would fight the desktop.
"""

from __future__ import annotations

from datetime import time

from PySide6.QtCore import QTime
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTimeEdit,
    QVBoxLayout,
    QWidget,
)

from agent.store.fields import split_tags
from agent.timesym.context import system_zone_name
from app.context import AppContext
from app.settings.general_extras import GeneralExtras
from app.settings.holiday_choice import fill_countries
from app.settings.zone_picker import ZonePicker


class GeneralPage(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        settings = ctx.settings

        # ~400 zones: a search line over a filtered list, not a 400-row combo (zone_picker.py)
        self.timezone = ZonePicker(self.tr("System ({0})").format(system_zone_name()), ctx.now(), self)
        self.timezone.set_value(settings.get("timezone"))

        self.holidays = QComboBox(self)
        fill_countries(self.holidays, settings.get("holiday_country"), self.tr("None"), self.tr)

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

        day_names = (
            self.tr("Mon"),
            self.tr("Tue"),
            self.tr("Wed"),
            self.tr("Thu"),
            self.tr("Fri"),
            self.tr("Sat"),
            self.tr("Sun"),
        )
        self.work_days: list[QCheckBox] = []
        days_row = QHBoxLayout()
        for number, name in enumerate(day_names, start=1):
            box = QCheckBox(name, self)
            box.setChecked(number in hours.days)
            self.work_days.append(box)
            days_row.addWidget(box)
        days_row.addStretch(1)

        # Two switches, each on by default: the lunar days (初一, 十五 …) and the solar terms,
        # which take their day's place; either can go without the other.
        self.lunar_days = QCheckBox(self.tr("Show the lunar day (农历) beside each date"), self)
        self.lunar_days.setChecked(bool(settings.get("lunar_days")))
        self.lunar_days.setToolTip(self.tr("Chinese interface only"))
        self.solar_terms = QCheckBox(self.tr("Show the 24 solar terms (节气) in place of the lunar day"), self)
        self.solar_terms.setChecked(bool(settings.get("solar_terms")))
        self.solar_terms.setToolTip(self.tr("Chinese interface only"))
        lunar_box = QVBoxLayout()
        lunar_box.setContentsMargins(0, 0, 0, 0)
        lunar_box.addWidget(self.lunar_days)
        lunar_box.addWidget(self.solar_terms)

        note = QLabel(
            self.tr("The interface language changes after a restart; the assistant follows it at once."),
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(placeholder-text);")
        # The user's addresses: which attendee of an invitation is the user (issue 31; the
        # sync accounts' e-mail user names count too, agent/services/invitations.py).
        self.addresses = QLineEdit(", ".join(settings.get("my_addresses") or []), self)
        self.addresses.setPlaceholderText(self.tr("me@example.com, me@work.example"))
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
        form.addRow(self.tr("Lunar calendar:"), lunar_box)
        form.addRow(self.tr("My e-mail addresses:"), self.addresses)
        self.extras = GeneralExtras(ctx, self)  # issue 32: new events, week numbers, theme
        form.addRow(self.tr("New events:"), self.extras.new_event_row)
        form.addRow(self.tr("Week numbers:"), self.extras.week_numbers)
        form.addRow(self.tr("Appearance:"), self.extras.theme)
        # the sync interval lives on the Sync page with the account it drives (sync_page.py)
        form.addRow(note)
        form.addRow(self.error)

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
        if any("@" not in address for address in self._addresses()):
            return self.tr("Each e-mail address needs an @.")
        return None

    def _addresses(self) -> list[str]:
        return list(split_tags(self.addresses.text()))

    def save(self) -> list[str]:
        """Write what changed; returns the changed keys (the dialog refreshes on them)."""
        start, end = self.work_start.time(), self.work_end.time()
        values = {
            "timezone": self.timezone.value(),
            "holiday_country": self.holidays.currentData(),
            "language": self.language.currentData(),
            "week_start": self.week_start.currentData(),
            "working_hours": [_hhmm(start), _hhmm(end)],
            "working_days": [number for number, box in enumerate(self.work_days, start=1) if box.isChecked()],
            "lunar_days": self.lunar_days.isChecked(),
            "solar_terms": self.solar_terms.isChecked(),
            "my_addresses": self._addresses(),
            **self.extras.values(),
        }
        changed = []
        for key, value in values.items():
            if self.ctx.settings.get(key) != value:
                self.ctx.settings.set(key, value)
                changed.append(key)
        return changed


def _hhmm(value: QTime) -> str:
    return time(value.hour(), value.minute()).strftime("%H:%M")
