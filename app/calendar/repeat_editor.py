"""The editor's repeat fields: how often, on which days, until when, and the rule in words.

One widget the event dialog embeds in its "Repeat" row. ``set_rule`` shows a
``Recurrence`` (agent/timesym/recurrence.py, the one model every part of Richeng says a
repeat in), ``rule()`` reads one back; ``set_start`` tells it the event's first day, from
which the monthly forms are offered ("on the 8th", "on the second Tuesday", "on the last
Friday" when it is one, "on the last day" when it is one: ``monthly_forms``). Offering only
forms that hold on the start keeps the first instance on the rule: a rule that skipped its
own DTSTART would show a stray first event. Moving the start moves a weekday rule with it
(the second Tuesday becomes the third), as in other calendars.

Which form shows a rule is the model's ``editor_kind``; a rule the editor cannot show is
"custom", kept as it came and only described. The summary line under the fields is the
model's ``summary`` in the interface language, the words the card, the agenda and the chat
say too. No RRULE text is built or read here.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, QLocale, Signal, Slot
from PySide6.QtWidgets import QComboBox, QDateEdit, QHBoxLayout, QLabel, QSpinBox, QToolButton, QVBoxLayout, QWidget

from agent.timesym.recurrence import (
    LUNAR_YEARLY,
    WEEKDAYS,
    Recurrence,
    Weekday,
    editor_kind,
    monthly_form,
    monthly_forms,
    monthly_rule,
)
from agent.timesym.recurrence_words import day_words, summary
from app.i18n import ui_lang

MAX_INTERVAL = 99
MAX_COUNT = 999
PERIODIC = ("daily", "weekly", "monthly", "yearly")
FREQ = {"daily": "DAILY", "weekly": "WEEKLY", "monthly": "MONTHLY", "yearly": "YEARLY"}


def _qdate(value: date) -> QDate:
    return QDate(value.year, value.month, value.day)


def _pydate(value: QDate) -> date:
    return date(value.year(), value.month(), value.day())


class RepeatEditor(QWidget):
    changed = Signal()  # any repeat field changed (the summary has been updated)

    def __init__(self, parent: QWidget | None = None, locale: QLocale | None = None) -> None:
        super().__init__(parent)
        if locale is not None:
            self.setLocale(locale)
        self._start = date(2000, 1, 1)  # until the dialog says (set_start)
        self._custom: Recurrence | None = None  # the rule shown as custom, written back as it came
        self._auto_day = ""  # the weekday checked for the start (it moves with the start)
        self._cap_note = ""
        self.kind = QComboBox(self)
        for kind, label in (
            ("none", self.tr("Does not repeat")),
            ("daily", self.tr("Daily")),
            ("weekly", self.tr("Weekly")),
            ("monthly", self.tr("Monthly")),
            ("yearly", self.tr("Yearly")),
            ("lunar", self.tr("Yearly by lunar date (农历)")),
        ):
            self.kind.addItem(label, kind)
        self.every_label = QLabel(self.tr("Every"), self)
        self.interval = QSpinBox(self)
        self.interval.setRange(1, MAX_INTERVAL)
        self.unit = QLabel(self)
        self.every = QWidget(self)
        every_row = QHBoxLayout(self.every)
        every_row.setContentsMargins(0, 0, 0, 0)
        every_row.addWidget(self.every_label)
        every_row.addWidget(self.interval)
        every_row.addWidget(self.unit)
        every_row.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.kind)
        top.addWidget(self.every)
        top.addStretch(1)

        self.weekday_buttons: dict[str, QToolButton] = {}
        self.weekdays = QWidget(self)
        weekday_row = QHBoxLayout(self.weekdays)
        weekday_row.setContentsMargins(0, 0, 0, 0)
        for index, code in enumerate(WEEKDAYS):
            button = QToolButton(self.weekdays)
            button.setText(self.locale().dayName(index + 1, QLocale.FormatType.ShortFormat))
            button.setCheckable(True)
            button.toggled.connect(self._changed)
            weekday_row.addWidget(button)
            self.weekday_buttons[code] = button
        weekday_row.addStretch(1)
        self.monthly = QComboBox(self)

        self.ends_label = QLabel(self.tr("Ends"), self)
        self.ends = QComboBox(self)
        self.ends.addItem(self.tr("Never"), "never")
        self.ends.addItem(self.tr("On"), "until")
        self.ends.addItem(self.tr("After"), "count")
        self.until = QDateEdit(self)
        self.until.setCalendarPopup(True)
        self.until.setDisplayFormat("yyyy-MM-dd")
        self.count = QSpinBox(self)
        self.count.setRange(1, MAX_COUNT)
        self.count.setValue(10)
        self.times = QLabel(self.tr("times"), self)
        ends_row = QHBoxLayout()
        for widget in (self.ends_label, self.ends, self.until, self.count, self.times):
            ends_row.addWidget(widget)
        ends_row.addStretch(1)

        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        self.note = QLabel(self)
        self.note.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.weekdays)
        layout.addWidget(self.monthly)
        layout.addLayout(ends_row)
        layout.addWidget(self.summary)
        layout.addWidget(self.note)

        self.kind.currentIndexChanged.connect(self._kind_chosen)
        self.interval.valueChanged.connect(self._changed)
        self.monthly.currentIndexChanged.connect(self._changed)
        self.ends.currentIndexChanged.connect(self._changed)
        self.until.dateChanged.connect(self._changed)
        self.count.valueChanged.connect(self._changed)
        self._fill_monthly("day")
        self._changed()

    # ---- what the dialog sets ------------------------------------------------------------

    def set_start(self, day: date) -> None:
        """The event's first day: the monthly forms are offered for it."""
        moved = self._auto_day and self._checked_days() == [self._auto_day]
        self._start = day
        if moved:
            self._check_start_day()
        self._fill_monthly(str(self.monthly.currentData() or "day"))
        self._changed()

    def set_until_default(self, day: date) -> None:
        self.until.setDate(_qdate(day))

    def set_cap_note(self, text: str) -> None:
        """Why the calendar shows fewer instances than the rule makes (bounded expansion)."""
        self._cap_note = text
        self._changed()

    def set_rule(self, rule: Recurrence | None, first: date | None = None) -> None:
        """Show ``rule`` (None: does not repeat); ``first`` is the series' first day when the
        editor is opened on a later occurrence (which form shows a rule is decided there)."""
        kind = editor_kind(rule, first or self._start)
        if kind == "custom" and self.kind.findData("custom") < 0:
            self.kind.addItem(self.tr("Custom (kept as imported)"), "custom")
        self._custom = rule if kind == "custom" else None
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(max(self.kind.findData(kind), 0))
        self.kind.blockSignals(False)
        self.interval.setValue(rule.interval if rule is not None and kind in PERIODIC else 1)
        days = {item.day for item in rule.weekdays} if rule is not None and kind == "weekly" else set()
        self._auto_day = ""
        for code, button in self.weekday_buttons.items():
            button.blockSignals(True)
            button.setChecked(code in days)
            button.blockSignals(False)
        if kind == "weekly" and not days:  # a weekly rule without days: the start's day
            self._check_start_day()
        self._fill_monthly((monthly_form(rule) if rule is not None and kind == "monthly" else None) or "day")
        if rule is not None and rule.count:
            self.ends.setCurrentIndex(self.ends.findData("count"))
            self.count.setValue(rule.count)
        elif rule is not None and rule.until is not None:
            self.ends.setCurrentIndex(self.ends.findData("until"))
            self.until.setDate(_qdate(rule.until))
        else:
            self.ends.setCurrentIndex(self.ends.findData("never"))
        self._changed()

    # ---- reading -------------------------------------------------------------------------

    def rule(self) -> Recurrence | None:
        """The rule the fields say (None: does not repeat)."""
        kind = str(self.kind.currentData())
        if kind == "custom":
            return self._custom
        if kind == "none":
            return None
        mode = self.ends.currentData()
        until = _pydate(self.until.date()) if mode == "until" else None
        count = self.count.value() if mode == "count" else None
        if kind == "lunar":
            return Recurrence(LUNAR_YEARLY, count=count, until=until)
        interval = self.interval.value()
        if kind == "weekly":
            days = self._checked_days() or [WEEKDAYS[self._start.weekday()]]  # no day chosen: the start's
            return Recurrence("WEEKLY", interval, weekdays=tuple(Weekday(code) for code in days), count=count, until=until)
        if kind == "monthly":
            return monthly_rule(str(self.monthly.currentData()), self._start, interval).ending(count, until)
        return Recurrence(FREQ[kind], interval, count=count, until=until)

    def _fill_monthly(self, wanted: str) -> None:
        """Offer the monthly forms that hold on the start; keep ``wanted`` if it still does."""
        modes = monthly_forms(self._start)
        if wanted not in modes:
            wanted = "nth" if wanted == "last" and "nth" in modes else "day"
        self.monthly.blockSignals(True)
        self.monthly.clear()
        for mode in modes:
            self.monthly.addItem(day_words(monthly_rule(mode, self._start), self._start, ui_lang()), mode)
        self.monthly.setCurrentIndex(modes.index(wanted))
        self.monthly.blockSignals(False)

    # ---- reactions -----------------------------------------------------------------------

    def _unit_text(self, kind: str, many: bool) -> str:
        units = {
            "daily": (self.tr("day"), self.tr("days")),
            "weekly": (self.tr("week"), self.tr("weeks")),
            "monthly": (self.tr("month"), self.tr("months")),
            "yearly": (self.tr("year"), self.tr("years")),
        }
        one, several = units.get(kind, ("", ""))
        return several if many else one

    @Slot()
    def _kind_chosen(self) -> None:
        """Weekly chosen with no day: the start's day is checked, the day the summary names
        (issue 32: "每周" with no day selected while the line said "每周四")."""
        if self.kind.currentData() == "weekly" and not self._checked_days():
            self._check_start_day()
        self._changed()

    def _checked_days(self) -> list[str]:
        return [code for code, button in self.weekday_buttons.items() if button.isChecked()]

    def _check_start_day(self) -> None:
        """Check only the start's weekday, as the day that follows the start."""
        self._auto_day = WEEKDAYS[self._start.weekday()]
        for code, button in self.weekday_buttons.items():
            button.blockSignals(True)
            button.setChecked(code == self._auto_day)
            button.blockSignals(False)

    @Slot()
    def _changed(self) -> None:
        kind = str(self.kind.currentData())
        periodic = kind in PERIODIC
        self.every.setVisible(periodic)
        self.unit.setText(self._unit_text(kind, self.interval.value() > 1))
        self.weekdays.setVisible(kind == "weekly")
        self.monthly.setVisible(kind == "monthly")
        ending = periodic or kind == "lunar"
        for widget in (self.ends_label, self.ends):
            widget.setVisible(ending)
        mode = self.ends.currentData()
        self.until.setVisible(ending and mode == "until")
        self.count.setVisible(ending and mode == "count")
        self.times.setVisible(ending and mode == "count")
        text = summary(self.rule(), self._start, ui_lang())
        self.summary.setText(text)
        self.summary.setVisible(bool(text))
        notes = []
        if kind == "lunar":
            notes.append(self.tr("Repeats on the same 农历 day each year; without an end it is stored for the next 30 years."))
        elif kind == "custom":
            notes.append(self.tr("This rule was made elsewhere and is kept unchanged."))
        if self._cap_note:
            notes.append(self._cap_note)
        self.note.setText("\n".join(notes))
        self.note.setVisible(bool(notes))
        self.changed.emit()
