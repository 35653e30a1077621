"""One undo mechanism: the store's journal (issue 12, seam 6; issue 28 item 4).

Deleting a calendar used to be undone only from the sidebar's banner, then from a step on
the window's own stack. Now the deletion is one journal entry like an edit or an import:
Ctrl+Z restores it, redo deletes it again, and the banner's Undo takes back that same entry
(never a second time). An import, however many events it wrote, is one step. What the
window did not make itself (the seeded events here) is on the same history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.services.editing import EventDraft
from app.io.import_export import import_paths
from tests.support.app_fixtures import at, seed, titles
from tests.support.clock import MONDAY

TWO_EVENTS = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
    "BEGIN:VEVENT\r\nUID:w-1@test\r\nDTSTAMP:20261101T000000Z\r\n"
    "DTSTART;TZID=Asia/Shanghai:20261202T140000\r\nDTEND;TZID=Asia/Shanghai:20261202T150000\r\n"
    "SUMMARY:牙医复诊\r\nEND:VEVENT\r\n"
    "BEGIN:VEVENT\r\nUID:w-2@test\r\nDTSTAMP:20261101T000000Z\r\n"
    "DTSTART;TZID=Asia/Shanghai:20261203T090000\r\nDTEND;TZID=Asia/Shanghai:20261203T100000\r\n"
    "SUMMARY:Team sync\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def calendar_names(cal_ctx: Any) -> list[str]:
    return sorted(calendar.name for calendar in cal_ctx.ops.calendars.list())


def family_with_events(area: Any, cal_ctx: Any, cal_store: Any, profile: int) -> None:
    family = area.sidebar.add_calendar("家庭", "#10b981")
    seed(cal_store, profile, "Piano lesson", at(MONDAY, 15), at(MONDAY, 16), family.id, rrule="FREQ=WEEKLY;COUNT=4")
    seed(cal_store, profile, "Dinner", at(MONDAY, 19), at(MONDAY, 20), family.id)
    area.sidebar.confirm = lambda text: True


def test_ctrl_z_restores_a_deleted_calendar_and_redo_deletes_it_again(
    area: Any, cal_ctx: Any, cal_store: Any, profile: int
) -> None:
    family_with_events(area, cal_ctx, cal_store, profile)
    ops = cal_ctx.ops
    ops.create(EventDraft("Report", at(MONDAY, 9), at(MONDAY, 10), ops.calendars.default().id))
    area.sidebar.delete_calendar("家庭")
    assert titles(cal_store) == ["Report"] and calendar_names(cal_ctx) == ["日程"]
    assert ops.can_undo() and ops.undo_text() == "Delete calendar “家庭”"  # what Edit ▸ Undo names
    ops.undo()  # what Ctrl+Z calls
    assert calendar_names(cal_ctx) == ["家庭", "日程"]
    assert titles(cal_store) == ["Dinner", "Piano lesson", "Report"]
    assert not area.sidebar.banner.isVisibleTo(area.sidebar), "the banner goes once its step is undone"
    assert ops.can_redo()
    ops.redo()  # Ctrl+Shift+Z: deleted again, and once more undoable
    assert calendar_names(cal_ctx) == ["日程"] and titles(cal_store) == ["Report"]
    ops.undo()
    assert calendar_names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson", "Report"]
    ops.undo()  # the next step back is the edit made before the deletion
    assert titles(cal_store) == ["Dinner", "Piano lesson"]
    assert ops.undo_text() == "Create “Dinner”", "then the journal's next entry, made outside the window"


def test_the_banner_undo_is_the_same_step_as_ctrl_z(area: Any, cal_ctx: Any, cal_store: Any, profile: int) -> None:
    family_with_events(area, cal_ctx, cal_store, profile)
    ops = cal_ctx.ops
    ops.create(EventDraft("Report", at(MONDAY, 9), at(MONDAY, 10), ops.calendars.default().id))
    area.sidebar.delete_calendar("家庭")
    area.sidebar.undo_button.click()
    assert calendar_names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson", "Report"]
    ops.undo()  # the deletion is not on the stack any more: Ctrl+Z takes back the edit before it
    assert calendar_names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson"]
    ops.redo()
    ops.redo()  # the banner's undo went on the redo stack like any undo
    assert calendar_names(cal_ctx) == ["日程"] and titles(cal_store) == ["Report"]


def test_a_refused_restore_keeps_the_step_for_after_a_rename(area: Any, cal_ctx: Any, cal_store: Any, profile: int) -> None:
    family_with_events(area, cal_ctx, cal_store, profile)
    ops = cal_ctx.ops
    deleted = area.sidebar.delete_calendar("家庭")
    area.sidebar.add_calendar("家庭")  # a new one under the same name blocks the restore
    messages: list[str] = []
    ops.failed.connect(messages.append)
    assert ops.undo_specific(deleted.events) is None and messages and "家庭" in messages[0]  # refused, whole
    assert calendar_names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == []
    area.sidebar.rename_calendar("家庭", "家庭（新）")
    ops.undo_specific(deleted.events)  # the same journal entry, taken back after the rename
    assert calendar_names(cal_ctx) == ["家庭", "家庭（新）", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson"]


def test_ctrl_z_takes_back_in_journal_order_a_new_calendar_first(area: Any, cal_ctx: Any, cal_store: Any, profile: int) -> None:
    family_with_events(area, cal_ctx, cal_store, profile)
    ops = cal_ctx.ops
    area.sidebar.delete_calendar("家庭")
    area.sidebar.add_calendar("家庭")
    assert ops.undo_text() == "Create calendar “家庭”"
    ops.undo()  # the newest change: the new, empty 家庭 goes
    assert calendar_names(cal_ctx) == ["日程"]
    ops.undo()  # then the deletion: the old 家庭 comes back with its events
    assert calendar_names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson"]


def test_an_import_is_one_step_on_the_same_stack_as_a_calendar_deletion(
    area: Any, cal_ctx: Any, cal_store: Any, profile: int, qtbot: Any, tmp_path: Path
) -> None:
    family_with_events(area, cal_ctx, cal_store, profile)
    ops = cal_ctx.ops
    path = tmp_path / "Work.ics"
    path.write_text(TWO_EVENTS, encoding="utf-8")
    job = import_paths(area, cal_ctx, [str(path)], "Work")
    assert job is not None
    with qtbot.waitSignal(job.done, timeout=10_000):
        pass
    qtbot.addWidget(job.report_dialog)
    assert titles(cal_store) == ["Dinner", "Piano lesson", "Team sync", "牙医复诊"]
    area.sidebar.delete_calendar("家庭")
    assert titles(cal_store) == ["Team sync", "牙医复诊"]
    ops.undo()  # first the calendar
    assert titles(cal_store) == ["Dinner", "Piano lesson", "Team sync", "牙医复诊"]
    ops.undo()  # then the whole import, in one step
    assert titles(cal_store) == ["Dinner", "Piano lesson"] and ops.undo_text() == "Create “Dinner”"
    ops.redo()
    assert titles(cal_store) == ["Dinner", "Piano lesson", "Team sync", "牙医复诊"]
    ops.redo()
    assert titles(cal_store) == ["Team sync", "牙医复诊"] and calendar_names(cal_ctx) == ["Work", "日程"]
