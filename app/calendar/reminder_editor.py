"""The editor's reminders: several per event, from presets or a custom value.

Storage is unchanged: a reminder is a number of minutes before the event's start
(``EventDraft.alarm_minutes``, one ``VALARM`` with ``TRIGGER:-PT…`` each, written only by
``agent.store.components.set_alarms``), and the scheduler (``app/reminders.py`` through
``agent.services.reminders``) fires every alarm of every instance. What this adds is how
the numbers are chosen and shown:

* timed events: the presets, or a custom *N minutes / hours / days before*;
* all-day events: a day and a clock time: *on the day at 09:00*, *the day before at 09:00*,
  *N days before at HH:MM*. An all-day event starts at local midnight (the scheduler
  measures from there), so the day before at 09:00 is 900 minutes before, and on the day at
  09:00 is -540: a trigger after the start (``TRIGGER:PT9H``), which iCalendar allows and
  other calendars write for all-day events too.

The values stay when the all-day box is toggled; only their wording follows it (900 is
"15 hours before" for a timed event and "the day before at 09:00" for an all-day one), so
nothing the person set is dropped silently. The list is ordered by minutes before the
start, the one closest to the start first; a value already in the list is not added twice.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTime, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.calendar.typed_edits import TypedTimeEdit

if TYPE_CHECKING:
    import icalendar

DAY_MINUTES = 1440
REMINDER_PRESETS = (0, 5, 10, 15, 30, 60, 120, 1440)
ALL_DAY_PRESETS = (-540, 900, 2340)  # on the day / the day before / 2 days before, at 09:00
ALL_DAY_DAYS = (0, 1, 2, 3, 4, 5, 6, 7, 14)  # the custom row's "how many days before"
UNITS = (1, 60, DAY_MINUTES)
CUSTOM = "custom"  # the preset combo's data for "Custom…"


def reminder_minutes(component: icalendar.Event | None) -> tuple[int, ...]:
    """Minutes before the start of the component's alarms with a relative trigger (negative:
    after the start, as the all-day "on the day at 09:00"). Absolute triggers are not
    minutes of anything and are left out."""
    if component is None:
        return ()
    minutes = []
    for alarm in component.walk("VALARM"):
        trigger = alarm.decoded("TRIGGER") if alarm.get("TRIGGER") is not None else None
        if isinstance(trigger, timedelta):
            minutes.append(int(-trigger.total_seconds() // 60))
    return tuple(minutes)


def all_day_minutes(days_before: int, at: QTime) -> int:
    """Minutes before an all-day event's midnight start of ``days_before`` days at ``at``."""
    return days_before * DAY_MINUTES - (at.hour() * 60 + at.minute())


def all_day_parts(minutes: int) -> tuple[int, QTime]:
    """The other way: (days before, time of day) of an all-day reminder."""
    days = -(-minutes // DAY_MINUTES)
    of_day = days * DAY_MINUTES - minutes
    return days, QTime(of_day // 60, of_day % 60)


class ReminderEditor(QWidget):
    """The list of an event's reminders with Add (a preset or a custom value) and Remove."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.all_day = False
        self._custom_open = False  # "Custom…" chosen: its row counts even before Add
        self.list = QListWidget(self)
        self.list.setMaximumHeight(88)
        self.preset = QComboBox(self)
        self.preset.currentIndexChanged.connect(self._preset_changed)
        self.preset.activated.connect(self._preset_picked)  # the user's pick, never a programmatic one
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self._add_clicked)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self._remove_clicked)

        # The custom value: "[90] [minutes] before" or, all-day, "[the day before] at [09:00]".
        self.custom = QWidget(self)
        self.amount = QSpinBox(self.custom)
        self.amount.setRange(0, 999)
        self.amount.setValue(30)
        self.unit = QComboBox(self.custom)
        for factor, label in zip(UNITS, (self.tr("minutes"), self.tr("hours"), self.tr("days")), strict=True):
            self.unit.addItem(label, factor)
        self.before = QLabel(self.tr("before"), self.custom)
        self.days = QComboBox(self.custom)
        for days in ALL_DAY_DAYS:
            self.days.addItem(self._day_text(days), days)
        self.days.setCurrentIndex(1)
        self.at_label = QLabel(self.tr("at"), self.custom)
        self.at = TypedTimeEdit(self.custom)
        self.at.setDisplayFormat("HH:mm")
        self.at.setTime(QTime(9, 0))
        custom_row = QHBoxLayout(self.custom)
        custom_row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.amount, self.unit, self.before, self.days, self.at_label, self.at):
            custom_row.addWidget(widget)
        custom_row.addStretch(1)

        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.preset, 1)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addWidget(self.custom)
        self.set_all_day(False)

    # ---- wording -------------------------------------------------------------------------

    def _day_text(self, days: int) -> str:
        if days == 0:
            return self.tr("On the day")
        if days == 1:
            return self.tr("The day before")
        return self.tr("{0} days before").format(days)

    def label(self, minutes: int) -> str:
        """How a reminder reads, in the event's kind (timed or all-day)."""
        if self.all_day:
            days, at = all_day_parts(minutes)
            clock = at.toString("HH:mm")
            if days == 0:
                return self.tr("On the day at {0}").format(clock)
            if days == 1:
                return self.tr("The day before at {0}").format(clock)
            if days > 1:
                return self.tr("{0} days before at {1}").format(days, clock)
        if minutes == 0:
            return self.tr("At start")
        if minutes < 0:
            return self.tr("{0} minutes after the start").format(-minutes)
        if minutes == DAY_MINUTES:
            return self.tr("1 day before")
        if minutes % DAY_MINUTES == 0:
            return self.tr("{0} days before").format(minutes // DAY_MINUTES)
        if minutes == 60:
            return self.tr("1 hour before")
        if minutes % 60 == 0:
            return self.tr("{0} hours before").format(minutes // 60)
        return self.tr("{0} minutes before").format(minutes)

    # ---- state ---------------------------------------------------------------------------

    def set_all_day(self, all_day: bool) -> None:
        """Offer the presets and the custom row of the event's kind and reword the list."""
        self.all_day = all_day
        self.preset.blockSignals(True)
        self.preset.clear()
        for minutes in ALL_DAY_PRESETS if all_day else REMINDER_PRESETS:
            self.preset.addItem(self.label(minutes), minutes)
        self.preset.addItem(self.tr("Custom…"), CUSTOM)
        self.preset.setCurrentIndex(self.preset.findData(900 if all_day else 10))
        self.preset.blockSignals(False)
        timed: tuple[QWidget, ...] = (self.amount, self.unit, self.before)
        for widget in timed:
            widget.setVisible(not all_day)
        for widget in (self.days, self.at_label, self.at):
            widget.setVisible(all_day)
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setText(self.label(int(item.data(Qt.ItemDataRole.UserRole))))
        self._preset_changed()

    def values(self) -> tuple[int, ...]:
        """The event's reminders: the list, and a custom value that is shown but not added
        yet (a person who set "45 minutes" and pressed Save meant it; issue 32, defect 1)."""
        listed = self.listed()
        if not self._custom_open:
            return listed
        pending = self.custom_minutes()
        return listed if pending in listed else tuple(sorted((*listed, pending)))

    def listed(self) -> tuple[int, ...]:
        return tuple(int(self.list.item(row).data(Qt.ItemDataRole.UserRole)) for row in range(self.list.count()))

    def labels(self) -> list[str]:
        return [self.list.item(row).text() for row in range(self.list.count())]

    def add(self, minutes: int) -> bool:
        """Add one reminder in firing order; False when the event already has it."""
        values = self.listed()
        if minutes in values:
            return False
        item = QListWidgetItem(self.label(minutes))
        item.setData(Qt.ItemDataRole.UserRole, minutes)
        self.list.insertItem(sum(1 for value in values if value < minutes), item)
        self.list.setCurrentItem(item)
        self.changed.emit()
        return True

    def custom_minutes(self) -> int:
        if self.all_day:
            self.at.finish_typing()
            return all_day_minutes(int(self.days.currentData()), self.at.time())
        return self.amount.value() * int(self.unit.currentData())

    # ---- reactions -----------------------------------------------------------------------

    @Slot()
    def _preset_changed(self) -> None:
        self._custom_open = self.preset.currentData() == CUSTOM
        self.custom.setVisible(self._custom_open)

    @Slot(int)
    def _preset_picked(self, index: int) -> None:
        """Picking a preset sets it, as in GNOME Calendar and Thunderbird; Add stays for
        adding the same kind of value again after a removal."""
        choice = self.preset.itemData(index)
        if choice != CUSTOM:
            self.add(int(choice))

    @Slot()
    def _add_clicked(self) -> None:
        choice = self.preset.currentData()
        self.add(self.custom_minutes() if choice == CUSTOM else int(choice))
        if choice == CUSTOM:  # added: the row no longer counts twice, and shows a fresh value next
            self.preset.setCurrentIndex(self.preset.findData(900 if self.all_day else 10))

    @Slot()
    def _remove_clicked(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)
            self.changed.emit()
