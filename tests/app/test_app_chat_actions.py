"""Buttons on a pending command: candidate days, the conflict and past-time dialogs, the
chip's ×, and a receipt's link and Undo. Each button is a zero-model ``act`` call."""

from __future__ import annotations

import json
from datetime import date, datetime

from PySide6.QtCore import Qt

from agent.models.script_backend import ScriptedModel
from agent.services.queries import QueryService
from tests.support.chat_fixtures import add_event, call, event_titles, save_shot
from tests.support.clock import SHANGHAI


def send(pane, qtbot, text: str):
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message(text)
    return blocker.args[0]


def test_candidate_buttons_pick_a_day_with_zero_model_calls(make_pane, qtbot, app_ctx) -> None:
    model = ScriptedModel([call("prepare_or_create_schedule", title="修汽车轮毂", dateExpression="WE")])
    pane = make_pane(model)
    first = send(pane, qtbot, "这个周末去修汽车轮毂")
    assert first.outcome == "needs_date" and first.candidates == ["2026-12-05", "2026-12-06"]
    buttons = pane.candidate_bar.buttons
    assert [button.text() for button in buttons] == ["周六 12/5", "周日 12/6"]
    assert all(button.isVisible() for button in buttons)
    assert pane.candidate_bar.chip.isVisible() and "修汽车轮毂" in pane.candidate_bar.chip_label.text()
    save_shot(pane, "chat_candidates")
    calls = model.calls
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        qtbot.mouseClick(buttons[1], Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert result.outcome == "created" and result.model_calls == 0 and model.calls == calls == 1
    events = QueryService(app_ctx.store, app_ctx.profile_id, app_ctx.time_context()).range("2026-12-06", "2026-12-06").events
    assert [(event.title, event.start) for event in events] == [("修汽车轮毂", date(2026, 12, 6))]
    assert not pane.candidate_bar.isVisible() and pane.candidate_bar.buttons == []
    assert [bubble.role for bubble in pane.view.bubbles()][-2:] == ["action", "assistant"]
    assert pane.view.bubbles()[-2].text() == "周日 12/6"


def test_chip_cancel_drops_the_pending_command(make_pane, qtbot, app_ctx) -> None:
    model = ScriptedModel([call("prepare_or_create_schedule", title="修车", dateExpression="WE")])
    pane = make_pane(model)
    send(pane, qtbot, "这个周末修车")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.candidate_bar.cancel_button.click()
    assert blocker.args[0].outcome == "cancelled" and model.calls == 1
    assert not pane.candidate_bar.isVisible() and event_titles(app_ctx.store) == []


def test_pending_command_survives_a_restart_of_the_pane(make_pane, qtbot, app_ctx) -> None:
    pane = make_pane(ScriptedModel([call("prepare_or_create_schedule", title="修车", dateExpression="WE")]))
    send(pane, qtbot, "这个周末修车")
    again = make_pane(ScriptedModel([]))
    assert again.candidate_bar.isVisible() and [b.text() for b in again.candidate_bar.buttons] == ["周六 12/5", "周日 12/6"]


def vacation(app_ctx) -> None:
    add_event(app_ctx.store, app_ctx.profile_id, "休假", date(2026, 12, 1), date(2026, 12, 4))


def test_conflict_dialog_names_the_conflict_and_create_anyway_creates(make_pane, qtbot, app_ctx) -> None:
    vacation(app_ctx)
    model = ScriptedModel([call("prepare_or_create_schedule", title="坐飞机回老家", dateExpression="D+1", time="09:00")])
    pane = make_pane(model)
    result = send(pane, qtbot, "明天早上九点坐飞机回老家")
    assert result.outcome == "conflict" and event_titles(app_ctx.store) == ["休假"]
    dialog = pane.conflict_dialog
    assert dialog is not None and dialog.isVisible()
    lines = dialog.conflict_lines()
    assert len(lines) == 1 and "休假" in lines[0] and "all day" in lines[0]
    save_shot(dialog, "conflict_dialog")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        qtbot.mouseClick(dialog.create_button, Qt.MouseButton.LeftButton)
    created = blocker.args[0]
    assert created.outcome == "created" and created.model_calls == 0 and model.calls == 1
    assert event_titles(app_ctx.store) == ["休假", "坐飞机回老家"]
    assert pane.conflict_dialog is None and not pane.candidate_bar.isVisible()


def test_conflict_dialog_cancel_and_change_time(make_pane, qtbot, app_ctx) -> None:
    vacation(app_ctx)
    model = ScriptedModel([call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="09:00")] * 2)
    pane = make_pane(model)
    send(pane, qtbot, "明天九点开会")
    pane.conflict_dialog.change_button.click()  # keep it pending; the input gets focus
    assert pane.conflict_dialog is None and pane.candidate_bar.isVisible() and event_titles(app_ctx.store) == ["休假"]
    send(pane, qtbot, "明天九点开会")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.conflict_dialog.cancel_button.click()
    assert blocker.args[0].outcome == "cancelled" and event_titles(app_ctx.store) == ["休假"]
    assert not pane.candidate_bar.isVisible()


def test_past_time_dialog_adds_it_anyway(make_pane, qtbot, app_ctx) -> None:
    model = ScriptedModel([call("prepare_or_create_schedule", title="晨会", dateExpression="D+0", time="08:00")])
    pane = make_pane(model)
    result = send(pane, qtbot, "今天早上八点开了晨会，记一下")
    assert result.outcome == "past_time"
    dialog = pane.past_time_dialog
    assert dialog is not None and dialog.isVisible()
    assert "晨会" in dialog.message.text() and "08:00" in dialog.message.text()
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        dialog.add_button.click()
    assert blocker.args[0].outcome == "created" and model.calls == 1
    assert event_titles(app_ctx.store) == ["晨会"]


def test_receipt_link_navigates_and_undo_removes_the_event(make_pane, qtbot, app_ctx) -> None:
    model = ScriptedModel([call("prepare_or_create_schedule", title="和张三开会", dateExpression="D+1", time="15:00")])
    pane = make_pane(model)
    changes = []
    app_ctx.ops.changed.connect(changes.append)
    result = send(pane, qtbot, "明天下午三点和张三开会")
    bubble = pane.last_reply
    assert result.outcome == "created" and changes and changes[-1] is result.changes  # views refresh, Ctrl+Z works
    assert bubble.link.isVisible() and bubble.undo_button.isVisible()
    with qtbot.waitSignal(pane.navigate, timeout=1000) as nav:
        bubble.link.linkActivated.emit(f"event:{bubble.uid}")
    uid, start = nav.args
    assert uid == result.receipt.event.uid and start == datetime(2026, 12, 1, 15, 0, tzinfo=SHANGHAI)
    qtbot.mouseClick(bubble.undo_button, Qt.MouseButton.LeftButton)
    assert event_titles(app_ctx.store) == []
    assert not bubble.undo_button.isEnabled() and bubble.undo_button.text() == "Undone"
    assert not app_ctx.ops.can_undo() and app_ctx.ops.can_redo()


def test_unconfirmed_write_is_answered_with_inline_buttons(make_pane, qtbot, app_ctx) -> None:
    """The grounding latch's question (a past-tense remark turned into a create) shows
    "Add to calendar" / "Don't add" in the pane: no dialog, zero model calls to answer."""
    model = ScriptedModel(
        [
            call("prepare_or_create_schedule", title="和老板吃饭", dateExpression="D+0", time="12:00"),
            call("prepare_or_create_schedule", title="和老板吃饭", dateExpression="D+0", time="12:00"),
        ]
    )
    pane = make_pane(model)
    first = send(pane, qtbot, "刚才和老板吃了顿饭")
    assert first.outcome == "unconfirmed" and event_titles(app_ctx.store) == []
    bar = pane.candidate_bar
    assert bar.confirm_button.isVisible() and bar.decline_button.isVisible()
    save_shot(pane, "chat_unconfirmed")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        qtbot.mouseClick(bar.decline_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].outcome == "cancelled" and event_titles(app_ctx.store) == []
    assert not bar.isVisible()
    second = send(pane, qtbot, "刚才和老板吃了顿饭")
    assert second.outcome == "unconfirmed"
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        qtbot.mouseClick(bar.confirm_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert result.outcome == "created" and result.model_calls == 0 and model.calls == 2
    assert event_titles(app_ctx.store) == ["和老板吃饭"]


def test_new_conversation_clears_the_context_the_model_reads(make_pane, qtbot, app_ctx) -> None:
    """Issue 15: a "New conversation" control. The earlier talk stays in the archive (and
    in the view, above a divider) but the next request no longer carries it, and a pending
    request from the old conversation is dropped."""
    from agent.evals.runner import Recorder

    model = ScriptedModel([call("prepare_or_create_schedule", title="修车", dateExpression="WE")])
    pane = make_pane(model)
    send(pane, qtbot, "这个周末修车")
    assert pane.candidate_bar.isVisible()
    qtbot.mouseClick(pane.new_button, Qt.MouseButton.LeftButton)
    assert not pane.candidate_bar.isVisible() and pane.view.dividers
    recorder = Recorder(ScriptedModel([{"content": "你好！"}]))
    app_ctx.session.set_model(recorder)
    send(pane, qtbot, "你好")
    sent = json.dumps(recorder.requests[0]["messages"], ensure_ascii=False)
    assert "这个周末修车" not in sent and "Pending command: none." in sent


def test_open_settings_from_the_no_model_panel_opens_the_model_tab(make_pane, qtbot, monkeypatch) -> None:
    from app.settings.settings_dialog import SettingsDialog

    opened: list[object] = []
    monkeypatch.setattr(SettingsDialog, "exec", lambda self: opened.append(self.tabs.currentWidget() is self.model) or 0)
    pane = make_pane(None)
    qtbot.mouseClick(pane.no_model_panel.open_button, Qt.MouseButton.LeftButton)
    assert opened == [True]
