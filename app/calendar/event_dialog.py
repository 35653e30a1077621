"""The event editor: every field a person sets by hand, nothing written until Save.

It edits a copy: ``result()`` returns an ``EditorResult`` and ``CalendarArea`` performs
the write (after asking this/following/all for a recurring occurrence), so cancelling
never leaves anything behind. Times are shown in the event's own zone (the user's zone
for new events); all-day events show an inclusive last day, stored as the exclusive end.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from PySide6.QtCore import QDate, QLocale, QTime, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from agent.errors import ValidationError
from agent.services.editing import EventDraft
from agent.services.invitations import my_addresses, synced
from agent.services.repeat import series_rule
from agent.store.fields import SHOWN, Person, as_text, from_text, read, shown
from agent.store.occurrence import Occurrence
from agent.timesym.recurrence import Recurrence
from app.calendar import invitation_bar
from app.calendar.holidays import prefers_chinese
from app.calendar.invitation_bar import AttendeeEditor
from app.calendar.occurrence_edit import EditorResult, EventWrites
from app.calendar.reminder_editor import ReminderEditor, reminder_minutes
from app.calendar.repeat_editor import RepeatEditor
from app.calendar.search_panel import swatch
from app.calendar.typed_edits import TypedDateEdit, TypedTimeEdit
from app.calendar.zone_field import LocalTimeLabel, attach_zone_completer
from app.context import AppContext
from app.i18n import error_text

DELETE = 2  # dialog result code for the Delete button
FLOATING = ""  # time-zone combo data for "no zone"


def _qdate(value: date) -> QDate:
    return QDate(value.year, value.month, value.day)


def _pydate(value: QDate) -> date:
    return date(value.year(), value.month(), value.day())


def _pytime(value: QTime) -> time:
    """``QTime.toPython()``, typed (PySide6 declares it as returning object)."""
    return time(value.hour(), value.minute(), value.second(), value.msec() * 1000)


class EventDialog(QDialog):
    def __init__(
        self,
        ctx: AppContext,
        parent: QWidget | None = None,
        *,
        occurrence: Occurrence | None = None,
        start: date | datetime | None = None,
        end: date | datetime | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.occurrence = occurrence
        # An event of a subscription or a read-only shared calendar opens to be read, not
        # changed: every field is shown, none is editable, Save says why (agent/store/read_only.py).
        self.refusal = ctx.ops.read_only_refusal(occurrence.calendar_id) if occurrence is not None else None
        self.setWindowTitle(self.tr("Edit event") if occurrence else self.tr("New event"))
        self.setMinimumWidth(520)
        self._loaded_rule: Recurrence | None = None
        self._loaded_people: tuple[object, tuple[object, ...], tuple[object, object]] | None = None
        self.send_invitations = False  # the answer to "this will email N people" (issue 31)
        self._length = timedelta(hours=1)
        self._moving_end = False
        if prefers_chinese(ctx.settings.get("language")):
            self.setLocale(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
        self._build()
        if occurrence is not None:
            self._load(occurrence)
        else:
            self._defaults(start, end)
        self._all_day_toggled(self.all_day.isChecked())
        if self.refusal is not None:
            self._read_only()

    # ---- widgets -------------------------------------------------------------------------

    def _build(self) -> None:
        self.title = QLineEdit(self)
        self.title.setPlaceholderText(self.tr("Title"))
        self.calendar = QComboBox(self)
        shown = self.ctx.ops.writable_calendars()  # never offered as a target: read-only calendars
        if self.refusal is not None and self.occurrence is not None:
            shown = [c for c in self.ctx.ops.calendars.list() if c.id == self.occurrence.calendar_id]
        for calendar in shown:
            self.calendar.addItem(swatch(calendar.color), calendar.name, calendar.id)
        self.all_day = QCheckBox(self.tr("All day"), self)
        self.all_day.toggled.connect(self._all_day_toggled)
        # Typed entries ("2027-03-08", "0308", "1430", "2pm") are read whole (typed_edits.py).
        self.start_date, self.start_time = TypedDateEdit(self), TypedTimeEdit(self)
        self.end_date, self.end_time = TypedDateEdit(self), TypedTimeEdit(self)
        for edit in (self.start_date, self.end_date):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd ddd")
        for time_edit in (self.start_time, self.end_time):
            time_edit.setDisplayFormat("HH:mm")
        self.start_date.dateChanged.connect(self._start_moved)
        self.start_time.timeChanged.connect(self._start_moved)
        self.end_date.dateChanged.connect(self._end_moved)
        self.end_time.timeChanged.connect(self._end_moved)
        self.zone = QComboBox(self)
        self.zone.setEditable(True)
        self.zone.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for name in sorted(zoneinfo.available_timezones()):
            self.zone.addItem(name, name)
        attach_zone_completer(self.zone, self.ctx.now())  # 纽约, "new york", UTC-5 (app/calendar/zone_field.py)
        self.zone_local = LocalTimeLabel(self.ctx.tz, self._zoned_start, self)
        self.zone.currentTextChanged.connect(lambda _text: self.zone_local.refresh())
        self.start_date.dateChanged.connect(lambda _day: self.zone_local.refresh())
        self.start_time.timeChanged.connect(lambda _time: self.zone_local.refresh())

        self.repeat = RepeatEditor(self, self.locale())
        self.start_date.dateChanged.connect(lambda day: self.repeat.set_start(_pydate(day)))

        self.reminders = ReminderEditor(self)  # several; presets or a custom value

        self.busy = QComboBox(self)
        self.busy.addItem(self.tr("Busy"), "OPAQUE")
        self.busy.addItem(self.tr("Free"), "TRANSPARENT")
        self.location = QLineEdit(self)
        self.field_edits: dict[str, QLineEdit] = {}  # the field table's SHOWN fields (tags, link …)
        for item, show in SHOWN:
            line = self.field_edits[item.name] = QLineEdit(self)
            line.setPlaceholderText(self.tr(show.hint) if show.hint else "")
        self.attendees = AttendeeEditor(self)  # issue 31: add or remove by address
        self.notes = QPlainTextEdit(self)
        self.notes.setMinimumHeight(70)
        self.error = QLabel(self)
        self.error.setStyleSheet("color: #d93f3f")
        self.error.hide()
        self.notice = QLabel(self)  # why this event cannot be changed here
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("background: #fff4d6; color: #6b4e00; border-radius: 4px; padding: 6px")
        self.notice.hide()

        form = QFormLayout()
        form.addRow(self.tr("Title"), self.title)
        form.addRow(self.tr("Calendar"), self.calendar)
        form.addRow("", self.all_day)
        start_row, end_row = QHBoxLayout(), QHBoxLayout()
        start_row.addWidget(self.start_date, 1)
        start_row.addWidget(self.start_time)
        end_row.addWidget(self.end_date, 1)
        end_row.addWidget(self.end_time)
        form.addRow(self.tr("Starts"), start_row)
        form.addRow(self.tr("Ends"), end_row)
        zone_row = QHBoxLayout()
        zone_row.addWidget(self.zone, 1)
        zone_row.addWidget(self.zone_local)
        form.addRow(self.tr("Time zone"), zone_row)
        form.addRow(self.tr("Repeat"), self.repeat)
        form.addRow(self.tr("Reminders"), self.reminders)
        form.addRow(self.tr("Show as"), self.busy)
        form.addRow(self.tr("Location"), self.location)
        for item, show in SHOWN:
            form.addRow(self.tr(show.label), self.field_edits[item.name])
        form.addRow(self.tr("Attendees"), self.attendees)
        form.addRow(self.tr("Notes"), self.notes)
        self.form = form

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons = buttons
        buttons.button(QDialogButtonBox.StandardButton.Save).setText(self.tr("Save"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        if self.occurrence is not None and self.refusal is None:
            delete = buttons.addButton(self.tr("Delete"), QDialogButtonBox.ButtonRole.DestructiveRole)
            delete.clicked.connect(lambda: self.done(DELETE))
        layout = QVBoxLayout(self)
        layout.addWidget(self.notice)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    # ---- loading -------------------------------------------------------------------------

    def _defaults(self, start: date | datetime | None, end: date | datetime | None) -> None:
        now = self.ctx.now().replace(tzinfo=None)
        if start is None:
            start = datetime.combine(now.date(), time(now.hour)) + timedelta(hours=1)
        if end is None or end <= start:
            minutes = int(self.ctx.settings.get("default_duration_minutes") or 60)
            end = start + (timedelta(days=1) if not isinstance(start, datetime) else timedelta(minutes=minutes))
        self.title.setText("")
        self.calendar.setCurrentIndex(max(self.calendar.findData(self.ctx.ops.calendars.default().id), 0))
        self.set_zone(self.ctx.tz.key)
        self.set_times(start, end)
        reminder = self.ctx.settings.get("default_reminder_minutes")  # Settings → General (issue 32)
        if reminder is not None and isinstance(start, datetime):
            self.add_reminder(int(reminder))
        self.repeat.set_until_default((start if not isinstance(start, datetime) else start.date()) + timedelta(days=90))

    def _load(self, occ: Occurrence) -> None:
        writes = EventWrites(self.ctx)
        master = writes.component(occ.uid) or writes.component(occ.uid, occ.recurrence_id or "")
        instance = writes.component(occ.uid, occ.recurrence_id or "") if occ.recurrence_id else master
        self.title.setText(occ.title)
        self.calendar.setCurrentIndex(max(self.calendar.findData(occ.calendar_id), 0))
        zone_name = occ.tzid if occ.tzid else (FLOATING if occ.floating and not occ.all_day else self.ctx.tz.key)
        self.set_zone(zone_name)
        start, end = occ.start, occ.end
        if isinstance(start, datetime) and isinstance(end, datetime) and start.tzinfo is not None and occ.tzid:
            start, end = start.astimezone(ZoneInfo(occ.tzid)), end.astimezone(ZoneInfo(occ.tzid))
        self.set_times(start, end)
        self.location.setText(occ.location)
        self.notes.setPlainText(occ.description)
        self.busy.setCurrentIndex(1 if occ.transp == "TRANSPARENT" else 0)
        source = instance if instance is not None else master
        for minutes in reminder_minutes(source):
            self.reminders.add(minutes)
        for name, value in shown(source).items():  # this occurrence's own when changed alone
            self.field_edits[name].setText(as_text(name, value))
        if source is not None:  # who is invited to this occurrence (its own when changed alone)
            self.attendees.set_people(read(source, "attendees"))
            self._loaded_people = (read(source, "organizer"), self.attendees.people(), (occ.start, occ.end))
        first_day = start.date() if isinstance(start, datetime) else start
        self.repeat.set_until_default(first_day + timedelta(days=90))
        if master is not None:
            first = master.decoded("DTSTART") if master.get("DTSTART") is not None else first_day
            rule = series_rule(master, ZoneInfo(occ.tzid) if occ.tzid else None)
            self.repeat.set_rule(rule, first.date() if isinstance(first, datetime) else first)
            self._loaded_rule = self.repeat.rule()
            cap = writes.capped(occ.uid)  # bounded recurrence (docs/ics.md)
            if cap is not None:
                self.repeat.set_cap_note(
                    self.tr(
                        "This series repeats more often than Richeng expands: only its first {0} instances are "
                        "shown in the calendar. The event itself is kept whole."
                    ).format(cap.shown)
                )

    def set_zone(self, name: str) -> None:
        if name == FLOATING:
            if self.zone.findData(FLOATING) < 0:
                self.zone.insertItem(0, self.tr("Floating (same clock time everywhere)"), FLOATING)
            self.zone.setCurrentIndex(self.zone.findData(FLOATING))
            return
        index = self.zone.findData(name)
        self.zone.setCurrentIndex(index if index >= 0 else self.zone.findData("UTC"))

    def _zoned_start(self) -> datetime | None:
        """The start as typed, in the zone field's zone (None: floating, all-day or unknown)."""
        if self.all_day.isChecked():
            return None
        text = self.zone.currentText()
        name = self.zone.currentData() if text == self.zone.itemText(self.zone.currentIndex()) else text
        try:
            tz = ZoneInfo(str(name)) if name else None
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return None
        if tz is None:
            return None
        return datetime.combine(_pydate(self.start_date.date()), _pytime(self.start_time.time()), tzinfo=tz)

    def set_times(self, start: date | datetime, end: date | datetime) -> None:
        all_day = not isinstance(start, datetime)
        self.all_day.setChecked(all_day)
        self.start_date.blockSignals(True)
        self.start_time.blockSignals(True)
        if all_day:
            last = end - timedelta(days=1) if end > start else start
            self.start_date.setDate(_qdate(start))
            self.end_date.setDate(_qdate(last))
            self.start_time.setTime(QTime(9, 0))
            self.end_time.setTime(QTime(10, 0))
        else:
            assert isinstance(start, datetime) and isinstance(end, datetime)
            self.start_date.setDate(_qdate(start.date()))
            self.start_time.setTime(QTime(start.hour, start.minute))
            self.end_date.setDate(_qdate(end.date()))
            self.end_time.setTime(QTime(end.hour, end.minute))
        self.start_date.blockSignals(False)
        self.start_time.blockSignals(False)
        self._length = self._current_length()
        self.repeat.set_start(_pydate(self.start_date.date()))

    def add_reminder(self, minutes: int) -> None:
        self.reminders.add(minutes)

    # ---- reactions -----------------------------------------------------------------------

    @Slot(bool)
    def _all_day_toggled(self, checked: bool) -> None:
        self.start_time.setVisible(not checked)
        self.end_time.setVisible(not checked)
        self.zone.setEnabled(not checked)
        self.zone_local.refresh()
        self.reminders.set_all_day(checked)

    def _current_length(self) -> timedelta:
        start = datetime.combine(_pydate(self.start_date.date()), _pytime(self.start_time.time()))
        end = datetime.combine(_pydate(self.end_date.date()), _pytime(self.end_time.time()))
        return end - start

    @Slot()
    def _start_moved(self) -> None:
        """Moving the start keeps the length, as every calendar editor does."""
        start = datetime.combine(_pydate(self.start_date.date()), _pytime(self.start_time.time()))
        end = start + max(self._length, timedelta(0))
        self._moving_end = True
        self.end_date.setDate(_qdate(end.date()))
        self.end_time.setTime(QTime(end.hour, end.minute))
        self._moving_end = False

    @Slot()
    def _end_moved(self) -> None:
        if not self._moving_end:
            self._length = self._current_length()

    # ---- result --------------------------------------------------------------------------

    def editor_result(self) -> EditorResult:
        """The editor's fields as a result; ValidationError says what is wrong."""
        title = self.title.text().strip() or self.tr("New event")
        start_day, end_day = _pydate(self.start_date.date()), _pydate(self.end_date.date())
        if self.all_day.isChecked():
            if end_day < start_day:
                raise ValidationError(self.tr("The event ends before it starts."))
            start: date | datetime = start_day
            end: date | datetime = end_day + timedelta(days=1)
        else:
            zone_name = str(
                self.zone.currentData()
                if self.zone.currentText() == self.zone.itemText(self.zone.currentIndex())
                else self.zone.currentText()
            )
            try:
                tz = ZoneInfo(zone_name) if zone_name else None
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                raise ValidationError(self.tr("Unknown time zone “{0}”.").format(zone_name)) from None
            start = datetime.combine(start_day, _pytime(self.start_time.time()), tzinfo=tz)
            end = datetime.combine(end_day, _pytime(self.end_time.time()), tzinfo=tz)
            if end <= start:
                raise ValidationError(self.tr("The event must end after it starts."))
        rule = self.repeat.rule()
        draft = EventDraft(
            title=title,
            start=start,
            end=end,
            calendar_id=int(self.calendar.currentData()),
            description=self.notes.toPlainText().strip(),
            location=self.location.text().strip(),
            transp=str(self.busy.currentData()),
            rrule=rule.to_rrule(start) if rule is not None else None,  # None for 农历: RDATEs
            alarm_minutes=self.reminders.values(),
            extra={name: from_text(name, edit.text()) for name, edit in self.field_edits.items()},
            attendees=self.attendees.people(),
            send_invitations=self.send_invitations,
        )
        return EditorResult(draft, rule, rule != self._loaded_rule)

    def _read_only(self) -> None:
        """Show the event, change nothing: inputs off, the one refusal line on top, no Delete."""
        assert self.refusal is not None
        self.setWindowTitle(self.tr("Event (read-only)"))
        self.notice.setText(error_text(self.refusal))
        self.notice.show()
        for widget in (self.title, self.location, *self.field_edits.values()):
            widget.setReadOnly(True)
        self.attendees.setEnabled(False)
        self.notes.setReadOnly(True)
        for other in (self.calendar, self.all_day, self.start_date, self.start_time, self.end_date, self.end_time,
                      self.zone, self.repeat, self.reminders, self.busy):  # fmt: skip
            other.setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Close"))

    def accept(self) -> None:
        if self.refusal is not None:  # Save is off; a keyboard Enter meets the same line
            self.error.setText(error_text(self.refusal))
            self.error.show()
            return
        try:
            result = self.editor_result()
        except ValidationError as exc:
            self.error.setText(error_text(exc))
            self.error.show()
            return
        if self._would_mail(result.draft.start, result.draft.end):
            choice = invitation_bar.ask_to_send(self, self.attendees.people())
            if choice is None:  # Cancel: back to the editor, nothing saved
                return
            self.send_invitations = choice
        super().accept()

    def _would_mail(self, start: date | datetime, end: date | datetime) -> bool:
        """Whether saving would have a scheduling server mail the attendees: the user's own
        event with attendees, in a synced calendar, new or with other people or times."""
        return synced(self.ctx.store, int(self.calendar.currentData())) and self.tells_people(start, end)

    def tells_people(self, start: date | datetime, end: date | datetime) -> bool:
        """Whether the save is news for the attendees of the user's own event (new, other
        people or other times): what a server would mail, or what the app offers to save as
        an invitation for the mail client where none would (app/calendar/invitations_out.py)."""
        people = self.attendees.people()
        if not people:
            return False
        if self._loaded_people is None:
            return True
        organizer, loaded, (was_start, was_end) = self._loaded_people
        mine = my_addresses(self.ctx.store, self.ctx.profile_id)
        if isinstance(organizer, Person) and not any(organizer.same(address) for address in mine):
            return False  # someone else's invitation: their server, their mail
        return people != loaded or (start, end) != (was_start, was_end)
