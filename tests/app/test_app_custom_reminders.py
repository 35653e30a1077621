"""Custom and several reminders per event (issue 23, reminders).

The editor offered eight presets in minutes before the start; an all-day event could only
be reminded "15 minutes before" (23:45 the evening before). Now: a custom N minutes, hours
or days before, and for all-day events a day (on the day, the day before, …) and a time.
Storage stays minutes before the start (``EventDraft.alarm_minutes`` → one VALARM each);
an all-day event starts at local midnight, so "the day before at 09:00" is 900 and "on the
day at 09:00" is -540 (``TRIGGER:PT9H``). The scheduler's clock is the context's, fixed.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSystemTrayIcon

from agent.store.components import parse_component
from agent.store.events import EventRepo
from app.calendar.event_dialog import EventDialog
from app.calendar.reminder_editor import CUSTOM, ReminderEditor, reminder_minutes
from tests.support.clock import SHANGHAI

DAY = date(2026, 12, 5)


def editor_for(qtbot, ctx, **kwargs) -> EventDialog:  # type: ignore[no-untyped-def]
    dialog = EventDialog(ctx, **kwargs)
    qtbot.addWidget(dialog)
    return dialog


def add_custom(qtbot, editor: ReminderEditor, **values: object) -> None:  # type: ignore[no-untyped-def]
    """Choose "Custom…", set the custom row's fields, press Add."""
    editor.preset.setCurrentIndex(editor.preset.findData(CUSTOM))
    assert not editor.custom.isHidden()
    if "amount" in values:
        editor.amount.setValue(int(values["amount"]))  # type: ignore[call-overload]
        editor.unit.setCurrentIndex(editor.unit.findData(values["unit"]))
    if "days" in values:
        editor.days.setCurrentIndex(editor.days.findData(values["days"]))
        at = values["at"]
        assert isinstance(at, time)
        editor.at.setTime(editor.at.time().fromString(f"{at:%H:%M}", "HH:mm"))
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)


def save(ctx, dialog: EventDialog) -> str:  # type: ignore[no-untyped-def]
    from agent.services.editing import EditService

    changes = EditService(ctx.store, ctx.profile_id).create(dialog.editor_result().draft)
    return changes.created[0].uid


def triggers(ctx, uid: str) -> list[str]:  # type: ignore[no-untyped-def]
    row = EventRepo(ctx.store, ctx.profile_id).row(uid)
    return sorted(alarm["TRIGGER"].to_ical().decode() for alarm in parse_component(row["ics"]).walk("VALARM"))


def reopen(qtbot, ctx, uid: str) -> EventDialog:  # type: ignore[no-untyped-def]
    window = datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2026, 12, 10, tzinfo=SHANGHAI)
    occ = next(o for o in EventRepo(ctx.store, ctx.profile_id).occurrences(*window, SHANGHAI) if o.uid == uid)
    return editor_for(qtbot, ctx, occurrence=occ)


def test_custom_minutes_hours_and_days_before_several_per_event(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    start = datetime(2026, 12, 5, 14, 0)
    dialog = editor_for(qtbot, cal_ctx, start=start, end=start + timedelta(hours=1))
    reminders = dialog.reminders
    add_custom(qtbot, reminders, amount=90, unit=1)
    add_custom(qtbot, reminders, amount=3, unit=60)
    add_custom(qtbot, reminders, amount=2, unit=1440)
    reminders.preset.setCurrentIndex(reminders.preset.findData(10))  # and a preset
    assert reminders.custom.isHidden()
    qtbot.mouseClick(reminders.add_button, Qt.MouseButton.LeftButton)
    add_custom(qtbot, reminders, amount=180, unit=1)  # = 3 hours: already there, not twice
    assert reminders.values() == (10, 90, 180, 2880)
    assert reminders.labels() == ["10 minutes before", "90 minutes before", "3 hours before", "2 days before"]
    uid = save(cal_ctx, dialog)
    assert triggers(cal_ctx, uid) == ["-P2D", "-PT10M", "-PT1H30M", "-PT3H"]
    again = reopen(qtbot, cal_ctx, uid)
    assert again.reminders.values() == (10, 90, 180, 2880)
    # Remove takes the selected one out.
    again.reminders.list.setCurrentRow(1)
    qtbot.mouseClick(again.reminders.remove_button, Qt.MouseButton.LeftButton)
    assert again.reminders.values() == (10, 180, 2880)


def test_all_day_reminders_at_a_time_on_the_day_or_days_before(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    dialog = editor_for(qtbot, cal_ctx, start=DAY, end=DAY + timedelta(days=1))
    reminders = dialog.reminders
    assert dialog.all_day.isChecked()
    add_custom(qtbot, reminders, days=1, at=time(9, 0))
    add_custom(qtbot, reminders, days=0, at=time(8, 30))
    add_custom(qtbot, reminders, days=7, at=time(18, 0))
    assert reminders.values() == (-510, 900, 9000)
    assert reminders.labels() == ["On the day at 08:30", "The day before at 09:00", "7 days before at 18:00"]
    uid = save(cal_ctx, dialog)
    assert triggers(cal_ctx, uid) == ["-P6DT6H", "-PT15H", "PT8H30M"]
    again = reopen(qtbot, cal_ctx, uid)  # "on the day" is after the start: it loads back too
    assert again.reminders.values() == (-510, 900, 9000)
    assert again.reminders.labels() == ["On the day at 08:30", "The day before at 09:00", "7 days before at 18:00"]
    # The all-day presets are days and times, too.
    assert reminders.preset.itemText(reminders.preset.findData(900)) == "The day before at 09:00"


def test_the_reminder_rows_follow_the_all_day_box(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    start = datetime(2026, 12, 5, 14, 0)
    dialog = editor_for(qtbot, cal_ctx, start=start, end=start + timedelta(hours=1))
    dialog.add_reminder(900)
    assert dialog.reminders.labels() == ["15 hours before"]
    dialog.all_day.setChecked(True)
    assert dialog.reminders.labels() == ["The day before at 09:00"]
    assert dialog.reminders.preset.findData(-540) >= 0 and dialog.reminders.preset.findData(5) < 0


def test_duplicate_keeps_an_on_the_day_reminder(cal_ctx) -> None:  # type: ignore[no-untyped-def]
    from agent.services.editing import EditService, EventDraft

    calendar = cal_ctx.ops.calendars.default().id
    draft = EventDraft("交房租", DAY, DAY + timedelta(days=1), calendar, alarm_minutes=(-540, 900))
    uid = EditService(cal_ctx.store, cal_ctx.profile_id).create(draft).created[0].uid
    row = EventRepo(cal_ctx.store, cal_ctx.profile_id).row(uid)
    assert sorted(reminder_minutes(parse_component(row["ics"]))) == [-540, 900]


def test_the_scheduler_fires_each_custom_reminder_once(qtbot, cal_ctx, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from app.reminders import ReminderScheduler

    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: False))
    all_day = editor_for(qtbot, cal_ctx, start=DAY, end=DAY + timedelta(days=1))
    all_day.title.setText("交房租")
    add_custom(qtbot, all_day.reminders, days=1, at=time(9, 0))
    add_custom(qtbot, all_day.reminders, days=0, at=time(8, 30))
    save(cal_ctx, all_day)
    start = datetime(2026, 12, 5, 14, 0)
    timed = editor_for(qtbot, cal_ctx, start=start, end=start + timedelta(hours=1))
    timed.title.setText("牙医")
    add_custom(qtbot, timed.reminders, amount=90, unit=1)
    add_custom(qtbot, timed.reminders, amount=1, unit=1440)
    save(cal_ctx, timed)

    service = ReminderScheduler(cal_ctx, None, desktop=None)
    try:
        expected = [
            ("交房租", datetime(2026, 12, 4, 9, 0, tzinfo=SHANGHAI)),  # the day before at 09:00
            ("牙医", datetime(2026, 12, 4, 14, 0, tzinfo=SHANGHAI)),  # 1 day before
            ("交房租", datetime(2026, 12, 5, 8, 30, tzinfo=SHANGHAI)),  # on the day at 08:30
            ("牙医", datetime(2026, 12, 5, 12, 30, tzinfo=SHANGHAI)),  # 90 minutes before
        ]
        assert service.schedule(datetime(2026, 12, 4, 8, 0, tzinfo=SHANGHAI)) == expected[0][1]
        fired = []
        for _title, due in expected:  # the clock stops at each due instant, then a minute after
            fired += [(occ.title, fire) for occ, fire in service.check(due)]
            assert service.check(due + timedelta(minutes=1)) == []
        assert fired == expected
    finally:
        service.timer.stop()
        for popup in list(service.popups):
            popup.close()


def test_a_picked_reminder_is_kept_without_add(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    # issue 32, defect 1: 自定义… 45 分钟 (or a preset) chosen without 添加, then 保存 → no reminder
    start = datetime(2026, 12, 5, 14, 0)
    dialog = editor_for(qtbot, cal_ctx, start=start, end=start + timedelta(hours=1))
    reminders = dialog.reminders
    index = reminders.preset.findData(30)
    reminders.preset.setCurrentIndex(index)
    reminders.preset.activated.emit(index)  # what a click in the open list sends
    assert reminders.values() == (30,)
    custom = reminders.preset.findData(CUSTOM)
    reminders.preset.setCurrentIndex(custom)
    reminders.preset.activated.emit(custom)
    reminders.amount.setValue(45)
    reminders.unit.setCurrentIndex(reminders.unit.findData(1))
    uid = save(cal_ctx, dialog)
    assert triggers(cal_ctx, uid) == ["-PT30M", "-PT45M"]
    assert reopen(qtbot, cal_ctx, uid).reminders.values() == (30, 45)
