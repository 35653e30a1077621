"""Chat edits in the pane (issue 13): the choice as one button per event, the confirmation
as yes / keep it, and an edit receipt with Show in calendar and Undo. Each button is a
zero-model ``act`` call; screenshots are saved with RICHENG_SHOTS=1 and looked at."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt

from agent.models.script_backend import ScriptedModel
from agent.services.queries import QueryService
from tests.support.chat_fixtures import add_event, call, event_titles, save_shot
from tests.support.clock import SHANGHAI


def send(pane, qtbot, text: str):
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message(text)
    return blocker.args[0]


def click(pane, qtbot, button):
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    return blocker.args[0]


def two_meetings(app_ctx) -> None:
    add_event(
        app_ctx.store,
        app_ctx.profile_id,
        "项目周会",
        datetime(2026, 12, 1, 10, tzinfo=SHANGHAI),
        datetime(2026, 12, 1, 11, tzinfo=SHANGHAI),
    )
    add_event(
        app_ctx.store,
        app_ctx.profile_id,
        "评审会",
        datetime(2026, 12, 1, 15, tzinfo=SHANGHAI),
        datetime(2026, 12, 1, 16, tzinfo=SHANGHAI),
    )


def starts(app_ctx, title: str) -> list[object]:
    found = QueryService(app_ctx.store, app_ctx.profile_id, app_ctx.time_context()).range("D+0", "D+7").events
    return [occ.start for occ in found if occ.title == title]


def test_choice_buttons_pick_the_event_with_zero_model_calls(make_pane, qtbot, app_ctx) -> None:
    two_meetings(app_ctx)
    model = ScriptedModel([call("update_schedule", targetTitle="会", targetDate="D+1", newDate="D+2")])
    pane = make_pane(model, height=720)
    first = send(pane, qtbot, "把明天的会挪到后天")
    assert first.outcome == "edit_choice"
    bar = pane.candidate_bar
    assert [b.text() for b in bar.options] == ["1. 周二 12/1 10:00 项目周会（日程）", "2. 周二 12/1 15:00 评审会（日程）"]
    assert all(b.isVisible() for b in bar.options) and not bar.edit_yes_button.isVisible()
    qtbot.wait(100)  # let the reply bubble lay out before the picture
    save_shot(pane, "chat_edit_choice")
    result = click(pane, qtbot, bar.options[1])
    assert result.outcome == "updated" and result.model_calls == 0 and model.calls == 1
    assert starts(app_ctx, "评审会") == [datetime(2026, 12, 2, 15, tzinfo=SHANGHAI)]
    assert not bar.isVisible() and bar.options == []
    bubble = pane.view.bubbles()[-1]
    assert bubble.link.isVisible() and bubble.undo_button.isVisible()
    save_shot(pane, "chat_edit_receipt")
    bubble.undo_button.click()
    qtbot.waitUntil(lambda: not bubble.undo_button.isEnabled(), timeout=3000)
    assert starts(app_ctx, "评审会") == [datetime(2026, 12, 1, 15, tzinfo=SHANGHAI)]


def test_delete_series_asks_with_buttons_and_keep_it_changes_nothing(make_pane, qtbot, app_ctx) -> None:
    from agent.services.calendars import CalendarService
    from agent.store.components import build_event
    from agent.store.events import EventRepo

    cal = CalendarService(app_ctx.store, app_ctx.profile_id).default()
    gym = build_event(
        "健身",
        datetime(2026, 12, 4, 19, tzinfo=SHANGHAI),
        datetime(2026, 12, 4, 20, tzinfo=SHANGHAI),
        rrule="FREQ=WEEKLY;BYDAY=FR",
    )
    with app_ctx.store.transaction():
        EventRepo(app_ctx.store, app_ctx.profile_id).save(gym, cal.id, "user")
    model = ScriptedModel([call("delete_schedule", targetTitle="健身", scope="all")] * 2)
    pane = make_pane(model, height=720)
    asked = send(pane, qtbot, "把健身这个重复日程全部删掉")
    assert asked.outcome == "edit_confirm"
    bar = pane.candidate_bar
    assert bar.edit_yes_button.isVisible() and bar.edit_no_button.isVisible() and bar.edit_yes_button.text() == "Yes, delete"
    qtbot.wait(100)
    save_shot(pane, "chat_edit_confirm")
    kept = click(pane, qtbot, bar.edit_no_button)
    assert kept.outcome == "edit_cancelled" and event_titles(app_ctx.store) == ["健身"]
    asked = send(pane, qtbot, "把健身这个重复日程全部删掉")
    done = click(pane, qtbot, pane.candidate_bar.edit_yes_button)
    assert done.outcome == "deleted" and done.model_calls == 0 and event_titles(app_ctx.store) == []


def test_edit_buttons_speak_chinese_with_the_zh_catalogue(make_pane, qtbot, app_ctx, qapp) -> None:
    from app import i18n

    two_meetings(app_ctx)
    i18n.install(qapp, "zh_CN")
    try:
        model = ScriptedModel(
            [
                call("delete_schedule", targetTitle="周会", targetDate="D+1", scope="all"),
                call("delete_schedule", targetTitle="会", targetDate="D+1"),
            ]
        )
        pane = make_pane(model, height=720)
        send(pane, qtbot, "明天的周会可能要取消")  # a delete call on a hedge asks first (a question is answered: issue 20)
        bar = pane.candidate_bar
        assert (bar.edit_yes_button.text(), bar.edit_no_button.text()) == ("确认删除", "保持原样")
        assert "等你确认" in bar.chip_label.text()
        qtbot.wait(100)
        save_shot(pane, "chat_edit_confirm_zh")
        send(pane, qtbot, "取消明天的会")
        assert bar.choice_prompt.text() == "是哪一个？" and len(bar.options) == 2
        qtbot.wait(100)
        save_shot(pane, "chat_edit_choice_zh")
        assert event_titles(app_ctx.store) == ["项目周会", "评审会"]
    finally:
        i18n.uninstall(qapp)
