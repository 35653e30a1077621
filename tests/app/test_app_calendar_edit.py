"""Writing from the views: drag-create, the editor, drag-move, resize, Delete, undo/redo,
recurring scopes, 农历 yearly series, and the assistant's writes arriving through ops."""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog

from agent.services.editing import EditService, EventDraft
from agent.services.queries import QueryService
from agent.store.components import parse_component
from agent.store.events import EventRepo
from agent.timesym.recurrence import LUNAR_YEARLY, Recurrence, Weekday
from app.calendar import scope_prompt
from app.calendar.event_dialog import EventDialog
from app.calendar.month_view import MonthItem
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import accept_with, at, seed, titles
from tests.support.clock import MONDAY, SHANGHAI


def stored(ctx, first: date = MONDAY, days: int = 7) -> list[tuple[str, datetime | date, datetime | date]]:  # type: ignore[no-untyped-def]
    """(title, start, end) of every occurrence in the days, local times, in order."""
    start = datetime.combine(first, datetime.min.time(), tzinfo=SHANGHAI)
    found = QueryService(ctx.store, ctx.profile_id, ctx.time_context()).between(start, start + timedelta(days=days))
    return [(occ.title, _local(occ.start), _local(occ.end)) for occ in found]


def _local(value: datetime | date) -> datetime | date:
    return value.astimezone(SHANGHAI).replace(tzinfo=None) if isinstance(value, datetime) and value.tzinfo else value


def block(view, title: str) -> GridItem:  # type: ignore[no-untyped-def]
    return next(item for item in view.visible_items() if isinstance(item, GridItem) and item.event.occ.title == title)


def point_at(view, day_index: int, minute: float) -> QPoint:  # type: ignore[no-untyped-def]
    return QPoint(int(view.grid.column_x(day_index) + 20), int(view.grid.y_of(minute)))


def drag(qtbot, widget, start: QPoint, end: QPoint) -> None:  # type: ignore[no-untyped-def]
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=start)
    middle = QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2)
    qtbot.mouseMove(widget, middle)
    qtbot.mouseMove(widget, end)
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=end)


def test_drag_on_empty_time_opens_the_editor_prefilled_and_saves(area, cal_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    view = area.current_view()
    area.exec_dialog = lambda dialog: QDialog.DialogCode.Rejected  # first: cancel writes nothing
    drag(qtbot, view.grid, point_at(view, 0, 14 * 60 + 2), point_at(view, 0, 15 * 60 + 28))
    assert stored(cal_ctx) == []
    runner = accept_with(lambda dialog: dialog.title.setText("设计评审 Design review"))
    area.exec_dialog = runner
    drag(qtbot, view.grid, point_at(view, 0, 14 * 60 + 2), point_at(view, 0, 15 * 60 + 28))
    dialog = runner.seen[0]
    assert dialog.start_time.time().toString("HH:mm") == "14:00" and dialog.end_time.time().toString("HH:mm") == "15:30"
    assert dialog.zone.currentText() == "Asia/Shanghai"
    assert stored(cal_ctx) == [("设计评审 Design review", datetime(2026, 11, 30, 14), datetime(2026, 11, 30, 15, 30))]
    assert block(view, "设计评审 Design review").event.key == view.selected_key  # the new event is selected
    cal_ctx.ops.undo()
    assert stored(cal_ctx) == []


def test_editor_fields_go_through_replace_and_undo_restores(area, cal_ctx, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Lunch", at(MONDAY, 12), at(MONDAY, 13))
    family = cal_ctx.ops.calendars.add("家庭", "#10b981")
    area.refresh()
    view = area.current_view()

    def fill(dialog: EventDialog) -> None:
        assert dialog.title.text() == "Lunch"
        dialog.title.setText("和王总午餐")
        dialog.location.setText("鼎泰丰")
        dialog.notes.setPlainText("带合同")
        dialog.calendar.setCurrentIndex(dialog.calendar.findData(family.id))
        dialog.busy.setCurrentIndex(dialog.busy.findData("TRANSPARENT"))
        dialog.add_reminder(30)
        dialog.add_reminder(1440)

    area.exec_dialog = accept_with(fill)
    qtbot.mouseDClick(view.grid, Qt.MouseButton.LeftButton, pos=point_at(view, 0, 12 * 60 + 30))
    row = EventRepo(cal_store, profile).row(uid)
    assert (row["title"], row["location"], row["description"], row["transp"]) == ("和王总午餐", "鼎泰丰", "带合同", "TRANSPARENT")
    assert row["calendar_id"] == family.id
    triggers = sorted(str(alarm.decoded("TRIGGER")) for alarm in parse_component(row["ics"]).walk("VALARM"))
    assert triggers == ["-1 day, 0:00:00", "-1 day, 23:30:00"]
    cal_ctx.ops.undo()
    assert EventRepo(cal_store, profile).row(uid)["title"] == "Lunch"
    cal_ctx.ops.redo()
    assert EventRepo(cal_store, profile).row(uid)["title"] == "和王总午餐"
    assert "和王总午餐" in {item.event.occ.title for item in view.visible_items() if isinstance(item, GridItem)}


def test_drag_moves_with_15_minute_snapping_and_edge_drag_resizes(area, cal_ctx, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Focus", at(MONDAY, 9), at(MONDAY, 10))
    area.refresh()
    view = area.current_view()
    # Grab the middle, move one day right and 67 minutes down: 10:07 snaps to 10:00.
    start = point_at(view, 0, 9 * 60 + 30)
    end = QPoint(start.x() + int(view.grid.column_width()), int(view.grid.y_of(9 * 60 + 30 + 67)))
    drag(qtbot, view.grid, start, end)
    assert stored(cal_ctx) == [("Focus", datetime(2026, 12, 1, 10), datetime(2026, 12, 1, 11))]
    # Drag the bottom edge to 12:20: the end snaps to 12:15, the start stays.
    item = block(view, "Focus")
    bottom = QPoint(int(item.rect.center().x()), int(item.rect.bottom()) - 2)
    drag(qtbot, view.grid, bottom, QPoint(bottom.x(), int(view.grid.y_of(12 * 60 + 20))))
    assert stored(cal_ctx) == [("Focus", datetime(2026, 12, 1, 10), datetime(2026, 12, 1, 12, 15))]
    # And the top edge up to 9:35 -> 9:30.
    item = block(view, "Focus")
    top = QPoint(int(item.rect.center().x()), int(item.rect.top()) + 2)
    drag(qtbot, view.grid, top, QPoint(top.x(), int(view.grid.y_of(9 * 60 + 35))))
    assert stored(cal_ctx) == [("Focus", datetime(2026, 12, 1, 9, 30), datetime(2026, 12, 1, 12, 15))]
    for _ in range(3):
        cal_ctx.ops.undo()
    assert stored(cal_ctx) == [("Focus", datetime(2026, 11, 30, 9), datetime(2026, 11, 30, 10))]


def test_delete_key_deletes_the_selected_event_and_undo_redo_restore(area, cal_ctx, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Dentist", at(MONDAY, 8), at(MONDAY, 8, 45))
    seed(cal_store, profile, "Gym", at(MONDAY, 18), at(MONDAY, 19))
    area.refresh()
    view = area.current_view()
    qtbot.mouseClick(view.grid, Qt.MouseButton.LeftButton, pos=point_at(view, 0, 8 * 60 + 20))
    assert view.selected_event().occ.title == "Dentist"
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert titles(cal_store) == ["Gym"]
    cal_ctx.ops.undo()
    assert titles(cal_store) == ["Dentist", "Gym"]
    cal_ctx.ops.redo()
    assert titles(cal_store) == ["Gym"]
    assert [item.event.occ.title for item in view.visible_items() if isinstance(item, GridItem)] == ["Gym"]


def test_all_day_bars_drag_by_days_in_month_view(area, cal_ctx, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "上海出差", date(2026, 12, 2), date(2026, 12, 4))
    area.refresh()
    area.set_view("month")
    month = area.current_view()
    bar = next(item for item in month.visible_items() if isinstance(item, MonthItem) and item.kind == "bar")
    start = QPoint(int(bar.rect.left()) + 10, int(bar.rect.center().y()))
    end = QPoint(start.x() + int(month.cell_size()[0] * 2), start.y())
    drag(qtbot, month, start, end)
    assert stored(cal_ctx) == [("上海出差", date(2026, 12, 4), date(2026, 12, 6))]


def test_recurring_scope_prompt_this_following_all_and_cancel(area, cal_ctx, cal_store, profile, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Standup", at(MONDAY, 9), at(MONDAY, 9, 15), rrule="FREQ=DAILY;COUNT=5")
    area.refresh()
    view = area.current_view()
    answers: list[str | None] = []
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: answers.pop(0))

    def starts() -> list[datetime]:
        return [start for _, start, _ in stored(cal_ctx)]

    def instance(day: int):  # type: ignore[no-untyped-def]
        return next(
            item.event
            for item in view.visible_items()
            if isinstance(item, GridItem) and item.event.start.date() == MONDAY + timedelta(days=day)
        )

    answers.append(None)  # cancel: nothing happens
    view.delete_requested.emit(instance(2))
    assert len(starts()) == 5
    answers.append("this")
    view.delete_requested.emit(instance(2))
    assert [s.day for s in starts()] == [30, 1, 3, 4]
    answers.append("following")
    event = instance(3)
    view.move_requested.emit(event, event.start + timedelta(hours=2), event.end + timedelta(hours=2))
    assert [(s.day, s.hour) for s in starts()] == [(30, 9), (1, 9), (3, 11), (4, 11)]
    answers.append("all")
    event = instance(1)
    view.move_requested.emit(event, event.start + timedelta(minutes=30), event.end + timedelta(minutes=30))
    assert [(s.day, s.hour, s.minute) for s in starts()][:2] == [(30, 9, 30), (1, 9, 30)]
    # Editing one occurrence's title in the editor ("this") leaves the others alone.
    answers.append("this")
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("Standup (remote)"))
    area.open_editor(instance(0), None, None)
    assert [title for title, _, _ in stored(cal_ctx)][:2] == ["Standup (remote)", "Standup"]
    assert cal_ctx.ops.undo_text() == "Edit “Standup (remote)”", "the user's edit, not the assistant's"
    # Every step was one undo entry: four undos bring the original series back.
    for _ in range(4):
        cal_ctx.ops.undo()
    assert [(s.day, s.hour) for s in starts()] == [(30, 9), (1, 9), (2, 9), (3, 9), (4, 9)]


def test_edit_this_and_following_in_the_editor_splits_the_series(area, cal_ctx, cal_store, profile, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Standup", at(MONDAY, 9), at(MONDAY, 9, 15), rrule="FREQ=DAILY;COUNT=5")
    area.refresh()
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: "following")
    wednesday = next(
        item.event
        for item in area.current_view().visible_items()
        if isinstance(item, GridItem) and item.event.start.date() == date(2026, 12, 2)
    )
    area.exec_dialog = accept_with(lambda dialog: dialog.title.setText("Standup v2"))
    area.open_editor(wednesday, None, None)
    assert [(title, start.day) for title, start, _ in stored(cal_ctx)] == [
        ("Standup", 30),
        ("Standup", 1),
        ("Standup v2", 2),
        ("Standup v2", 3),
        ("Standup v2", 4),
    ]
    assert cal_ctx.ops.undo_text() == "Edit “Standup v2”"
    cal_ctx.ops.undo()
    assert {title for title, _, _ in stored(cal_ctx)} == {"Standup"} and len(stored(cal_ctx)) == 5


def test_lunar_yearly_series_is_an_rdate_list_and_one_undo(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    def fill(dialog: EventDialog) -> None:
        dialog.title.setText("妈妈生日（农历八月十五）")
        dialog.repeat.kind.setCurrentIndex(dialog.repeat.kind.findData("lunar"))
        dialog.repeat.ends.setCurrentIndex(dialog.repeat.ends.findData("count"))
        dialog.repeat.count.setValue(4)

    area.exec_dialog = accept_with(fill)
    area.open_editor(None, date(2026, 9, 25), date(2026, 9, 26))
    master = parse_component(next(iter(cal_store.conn.execute("SELECT ics FROM events")))[0])
    assert str(master.get("X-RICHENG-RECUR")) == "LUNAR-YEARLY" and master.get("RRULE") is None
    rdates = [value.dt for value in master.get("RDATE").dts]
    assert rdates == [date(2027, 9, 15), date(2028, 10, 3), date(2029, 9, 22)]  # 中秋 of each lunar year
    # The store materialises series two years ahead of today (agent/store/events.py HORIZON)
    # and treats an RDATE-only series as finite, so 2029 is stored but not yet expanded.
    found = stored(cal_ctx, date(2026, 9, 1), 3 * 366)
    assert [start for _, start, _ in found][:3] == [date(2026, 9, 25), date(2027, 9, 15), date(2028, 10, 3)]
    # Reopening shows "lunar yearly, 4 times"; switching to "does not repeat" clears the RDATEs.
    occ = next(event for event in area.source.events(date(2027, 9, 1), date(2027, 10, 1)))
    dialog = EventDialog(cal_ctx, area, occurrence=occ.occ)
    assert dialog.repeat.kind.currentData() == "lunar" and dialog.repeat.count.value() == 4
    cal_ctx.ops.undo()
    assert stored(cal_ctx, date(2026, 9, 1), 4 * 366) == []


def test_assistant_writes_arrive_through_ops_and_are_undoable(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    agent = EditService(cal_store, profile, origin="agent")
    changes = agent.create(EventDraft("AI booked: 牙医", at(MONDAY, 16), at(MONDAY, 17), cal_ctx.ops.calendars.default().id))
    cal_ctx.ops.record_assistant_change(changes)
    view = area.current_view()
    assert [item.event.occ.title for item in view.visible_items() if isinstance(item, GridItem)] == ["AI booked: 牙医"]
    cal_ctx.ops.undo()
    assert [item for item in view.visible_items() if isinstance(item, GridItem)] == []


def test_keyboard_arrows_move_the_day_and_enter_opens_the_editor(area, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Review", at(MONDAY, 11), at(MONDAY, 12))
    area.refresh()
    area.set_view("month")
    month = area.current_view()
    qtbot.keyClick(month, Qt.Key.Key_Right)
    assert area.anchor == date(2026, 12, 1)
    qtbot.keyClick(month, Qt.Key.Key_Down)
    assert area.anchor == date(2026, 12, 8)
    area.set_view("week")
    assert area.current_view().date_range()[0] == date(2026, 12, 7)
    area.go_today()
    view = area.current_view()
    opened = []
    area.exec_dialog = lambda dialog: opened.append(dialog.title.text()) or QDialog.DialogCode.Rejected
    view.select(block(view, "Review").event.key)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert opened == ["Review"]
    area.step(1)
    assert area.anchor == date(2026, 12, 7)


def test_merge_changes_keeps_first_before_image_and_drops_created_then_deleted() -> None:
    from agent.store.changes import Change, ChangeSet

    def change(uid: str, rid: str = "", ics: str | None = "old") -> Change:
        return Change(uid, rid, 1, ics, 1, "user")

    first = ChangeSet(created=[change("new", ics=None)], updated=[change("a", ics="a0")])
    second = ChangeSet(
        updated=[change("a", ics="a1"), change("new", ics="n1"), change("b", ics="b0")], deleted=[change("gone", ics="g0")]
    )
    merged = first.merge(second)  # ChangeSet.merge (agent/store/changes.py)
    assert [c.uid for c in merged.created] == ["new"]
    assert [(c.uid, c.before_ics) for c in merged.updated] == [("a", "a0"), ("b", "b0")]
    assert [c.uid for c in merged.deleted] == ["gone"]
    assert not ChangeSet(created=[change("x", ics=None)]).merge(ChangeSet(deleted=[change("x")]))


def test_recurrence_presets_round_trip() -> None:
    start = datetime(2026, 11, 30, 9, tzinfo=SHANGHAI)
    weekly = Recurrence("WEEKLY", weekdays=(Weekday("WE"), Weekday("MO")), until=date(2026, 12, 31))
    rule = weekly.to_rrule(start)
    assert rule == "FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T155959Z"
    assert Recurrence.from_rrule(rule, SHANGHAI) == Recurrence(
        "WEEKLY", weekdays=(Weekday("MO"), Weekday("WE")), until=date(2026, 12, 31)
    )
    assert Recurrence("MONTHLY", count=6).to_rrule(date(2026, 11, 30)) == "FREQ=MONTHLY;COUNT=6"
    assert Recurrence.read("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,17").verbatim is not None  # kept verbatim
    lunar = Recurrence(LUNAR_YEARLY, count=3).lunar_dates(date(2026, 9, 25))
    assert lunar == [date(2026, 9, 25), date(2027, 9, 15), date(2028, 10, 3)]
    assert len(Recurrence(LUNAR_YEARLY).lunar_dates(date(2026, 9, 25))) == 30  # the first included
