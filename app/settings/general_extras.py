"""Settings → General, the rows issue 32 added: what a new event starts with (its length and a
reminder), ISO week numbers, and the theme.

The README promised "60 minutes unless changed in Settings" and there was no such setting; a
default reminder is what GNOME Calendar and Thunderbird offer next to it. Week numbers are ISO
8601 (the week with the year's first Thursday is week 1), whatever day the week starts on.
The theme is light, dark, or the system's (the palette ``app/theme.py`` applies).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QSpinBox, QWidget

from app.context import AppContext

REMINDER_CHOICES = (None, 0, 5, 10, 15, 30, 60, 120, 1440)
THEMES = ("system", "light", "dark")


class GeneralExtras(QWidget):
    """The new rows' widgets; ``GeneralPage`` lays them out and saves ``values()``."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        settings = ctx.settings
        self.length = QSpinBox(parent)
        self.length.setRange(5, 24 * 60)
        self.length.setSingleStep(5)
        self.length.setSuffix(self.tr(" min"))
        self.length.setValue(int(settings.get("default_duration_minutes") or 60))
        self.reminder = QComboBox(parent)
        for minutes in REMINDER_CHOICES:
            self.reminder.addItem(self.reminder_label(minutes), minutes)
        index = self.reminder.findData(settings.get("default_reminder_minutes"))
        if index < 0:  # a value set elsewhere (the CLI) stays selectable
            value = settings.get("default_reminder_minutes")
            self.reminder.addItem(self.reminder_label(int(value)), int(value))
            index = self.reminder.count() - 1
        self.reminder.setCurrentIndex(index)
        self.new_event_row = QHBoxLayout()
        self.new_event_row.addWidget(QLabel(self.tr("Length"), parent))
        self.new_event_row.addWidget(self.length)
        self.new_event_row.addSpacing(12)
        self.new_event_row.addWidget(QLabel(self.tr("Reminder"), parent))
        self.new_event_row.addWidget(self.reminder)
        self.new_event_row.addStretch(1)

        self.week_numbers = QCheckBox(self.tr("Show ISO week numbers"), parent)
        self.week_numbers.setChecked(bool(settings.get("week_numbers")))

        self.theme = QComboBox(parent)
        labels = {"system": self.tr("Follow the system"), "light": self.tr("Light"), "dark": self.tr("Dark")}
        for name in THEMES:
            self.theme.addItem(labels[name], name)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.get("theme") or "system")))
        self.hide()  # a holder: its widgets sit in the page's form

    def reminder_label(self, minutes: int | None) -> str:
        if minutes is None:
            return self.tr("None")
        if minutes == 0:
            return self.tr("At the start")
        if minutes % 1440 == 0:
            return self.tr("{0} day(s) before").format(minutes // 1440)
        if minutes % 60 == 0:
            return self.tr("{0} hour(s) before").format(minutes // 60)
        return self.tr("{0} minutes before").format(minutes)

    def values(self) -> dict[str, Any]:
        return {
            "default_duration_minutes": self.length.value(),
            "default_reminder_minutes": self.reminder.currentData(),
            "week_numbers": self.week_numbers.isChecked(),
            "theme": self.theme.currentData(),
        }
