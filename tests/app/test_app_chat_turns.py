"""The chat pane's turns through the worker: streaming, stalls, Stop, guard, history.

Real store file, the app's own context, scripted models; the event loop must keep ticking
while a turn runs, which is the point of running turns off the UI thread.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from itertools import pairwise

from PySide6.QtCore import QTimer

from agent.models.script_backend import ScriptedModel, pieces
from agent.services.archive import ArchiveService
from tests.support.chat_fixtures import PacedScriptedModel, call, event_titles, save_shot
from tests.support.clock import NOW, SHANGHAI

# Advice with no claim about the calendar (the exit guard would rightly replace "周三下午比较空").
REPLY = "好的，可以先把需要专注的事情列出来，再一件件排进日程，别忘了留出休息的时间。"


class HandshakeModel(PacedScriptedModel):
    """A model that, mid-turn, waits for the UI thread to answer a timer.

    If the turn ran on the UI thread, the timer could not fire while the model waits, so
    ``ui_answered`` stays False: the check proves the event loop kept running during the
    turn without measuring any duration (stall figures live in benchmarks/bench_chat_stall.py).
    """

    def __init__(self, turns: list[dict[str, object]], delay: float = 0.0) -> None:
        super().__init__(turns, delay)
        self.ui_answered = False
        self.model_thread: int | None = None
        self._answer = threading.Event()

    def answer(self) -> None:  # called on the UI thread by a QTimer
        self._answer.set()

    def _play(self, index: int):  # type: ignore[no-untyped-def]
        self.model_thread = threading.get_ident()
        self.ui_answered = self._answer.wait(timeout=10)
        yield from super()._play(index)


def _poke_from_ui(model: HandshakeModel) -> QTimer:
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(model.answer)
    timer.start()
    return timer


def test_turn_streams_tokens_through_the_worker_without_stalling(make_pane, qtbot) -> None:
    model = HandshakeModel([{"content": REPLY}], delay=0.01)
    pane = make_pane(model)
    worker = pane.prepare_send("这周怎么安排比较好？")
    seen: list[str] = []
    returned: list[object] = []
    worker.signals.yielded.connect(lambda _event: seen.append(pane.last_reply.text()))
    worker.signals.returned.connect(returned.append)
    tokens = len(pieces(REPLY))
    expected = [worker.signals.yielded] * (tokens + 1) + [worker.signals.returned, worker.signals.finished]
    timer = _poke_from_ui(model)
    with qtbot.waitSignals(expected, order="strict", timeout=20_000):
        pane.run_worker(worker)
    timer.stop()
    qtbot.waitUntil(lambda: not pane.is_busy())
    result = returned[0]
    assert result.outcome == "chat" and result.reply == REPLY
    # Token by token: the bubble grew through every prefix before the turn ended.
    assert len(set(seen)) == tokens and seen[0] and REPLY.startswith(seen[0]) and seen[-1] == REPLY
    assert all(later.startswith(earlier) for earlier, later in pairwise(seen))
    assert pane.last_reply.text() == REPLY
    # The model ran off the UI thread, and the UI thread answered while it was mid-turn.
    assert model.model_thread is not None and model.model_thread != threading.get_ident()
    assert model.ui_answered


def test_a_create_turn_with_a_write_does_not_stall_either(make_pane, qtbot, app_ctx) -> None:
    model = HandshakeModel([call("prepare_or_create_schedule", title="和张三开会", dateExpression="D+1", time="15:00")], 0.01)
    pane = make_pane(model)
    worker = pane.prepare_send("明天下午三点和张三开会")
    timer = _poke_from_ui(model)
    with qtbot.waitSignal(pane.turn_finished, timeout=20_000) as blocker:
        pane.run_worker(worker)
    timer.stop()
    assert blocker.args[0].outcome == "created"
    assert event_titles(app_ctx.store) == ["和张三开会"]
    assert model.model_thread != threading.get_ident() and model.ui_answered


def test_next_message_waits_for_the_running_turn(make_pane, qtbot) -> None:
    model = PacedScriptedModel([{"content": REPLY}, {"content": "第二条"}], delay=0.01)
    pane = make_pane(model)
    pane.input.setText("第一条")
    pane.input.returnPressed.emit()
    assert pane.is_busy() and pane.input.text() == "" and pane.send_button.text() == "Stop"
    pane.input.setText("第二条消息")
    pane.input.returnPressed.emit()  # ignored while busy: the text stays for later
    assert pane.input.text() == "第二条消息" and model.calls <= 1
    qtbot.waitUntil(lambda: not pane.is_busy(), timeout=10_000)
    with qtbot.waitSignal(pane.turn_finished, timeout=10_000):
        pane.input.returnPressed.emit()
    assert model.calls == 2 and pane.last_reply.text() == "第二条"


def test_stop_cancels_a_running_turn_cleanly(make_pane, qtbot, app_ctx) -> None:
    long_text = "，".join(["这是一段很长的回复"] * 60)
    turn = {"content": long_text} | call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="09:00")
    model = PacedScriptedModel([turn, {"content": "好的"}], delay=0.01)
    pane = make_pane(model)
    pane.send_message("明天九点开会，顺便说说注意事项")
    qtbot.waitUntil(lambda: len(pane.last_reply.text()) > 10, timeout=5000)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.stop()
    result = blocker.args[0]
    assert result.outcome == "stopped" and result.reply == "已停止。"
    assert pane.last_reply.text() == "已停止。" and not pane.is_busy() and pane.send_button.text() == "Send"
    assert event_titles(app_ctx.store) == []  # the tool call after the stop never ran
    archived = ArchiveService(app_ctx.store, app_ctx.profile_id).recent()
    assert [m.role for m in archived] == ["user", "assistant"] and archived[-1].content == "已停止。"
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as again:
        pane.send_message("谢谢")
    assert again.args[0].outcome == "chat" and model.calls == 2


def test_guard_banner_when_the_model_claims_a_write(make_pane, qtbot, app_ctx) -> None:
    pane = make_pane(ScriptedModel([{"content": "已创建日程：明天下午三点开会。"}]))
    assert not pane.guard_banner.isVisible()
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message("明天下午三点开会")
    result = blocker.args[0]
    assert result.guard == "unverified_create_claim"
    assert pane.guard_banner.isVisible() and "nothing was written" in pane.guard_banner.message.text()
    assert pane.last_reply.text() == result.reply and "已创建日程" not in pane.last_reply.text()
    archived = ArchiveService(app_ctx.store, app_ctx.profile_id).recent()
    assert archived[-1].content == result.reply
    assert all("已创建日程" not in message.content for message in archived)
    assert event_titles(app_ctx.store) == []
    save_shot(pane, "guard_banner")
    pane.guard_banner.dismiss()
    assert not pane.guard_banner.isVisible()


def test_state_claim_is_answered_from_the_calendar_and_the_banner_says_so(make_pane, qtbot, app_ctx) -> None:
    """'明天你有空' with a meeting tomorrow: the reply becomes the real answer for tomorrow,
    and the banner says it was replaced by what the calendar shows (not 'ask again')."""
    from tests.support.chat_fixtures import add_event

    add_event(app_ctx.store, app_ctx.profile_id, "评审", NOW + timedelta(days=1), NOW + timedelta(days=1, hours=1))
    pane = make_pane(ScriptedModel([{"content": "明天你有空，可以安排。"}]))
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message("明天有空吗")
    result = blocker.args[0]
    assert result.guard == "unverified_query_claim" and result.outcome == "guard_answered"
    assert "评审" in pane.last_reply.text() and "你有空" not in pane.last_reply.text()
    assert "really shows" in pane.guard_banner.message.text()
    save_shot(pane, "guard_answered")


def test_first_run_without_a_model_shows_how_to_connect_one(make_pane, qtbot, app_ctx, monkeypatch) -> None:
    pane = make_pane(None)
    assert pane.no_model_panel.isVisible() and not pane.view.isVisible()
    assert not pane.input.isEnabled() and not pane.send_button.isEnabled()
    opened = []
    from app.settings.settings_dialog import SettingsDialog

    monkeypatch.setattr(SettingsDialog, "exec", lambda self: opened.append(self) or 1)
    app_ctx.session.set_model(ScriptedModel([{"content": "你好"}]))  # what saving settings does
    pane.no_model_panel.open_button.click()
    assert len(opened) == 1
    assert pane.view.isVisible() and pane.input.isEnabled() and "script" in pane.model_label.text()
    save_shot(pane, "no_model_panel_after")


def test_history_loads_with_a_break_where_a_new_session_started(app_ctx, make_pane) -> None:
    early = ArchiveService(app_ctx.store, app_ctx.profile_id, clock=NOW - timedelta(hours=5))
    early.append("user", "下周一提醒我交报告")
    early.append("assistant", "好的。", {"outcome": "chat"})
    late = ArchiveService(app_ctx.store, app_ctx.profile_id, clock=NOW - timedelta(minutes=5))
    late.append("user", "[pick_date 2026-12-06]", {"action": "pick_date"})
    late.append("assistant", "已创建：12月6日（周日） 全天 修车", {"outcome": "created"})
    pane = make_pane(ScriptedModel([]))
    texts = [bubble.text() for bubble in pane.view.bubbles()]
    assert texts == ["下周一提醒我交报告", "好的。", "Picked 12/6", "已创建：12月6日（周日） 全天 修车"]
    assert [bubble.role for bubble in pane.view.bubbles()] == ["user", "assistant", "action", "assistant"]
    assert len(pane.view.dividers) == 1 and "New conversation" in pane.view.dividers[0].text()
    assert pane.view.last_time is not None and pane.view.last_time > datetime(2026, 11, 30, 1, 0, tzinfo=SHANGHAI)


def test_emits_do_not_wear_down_singletons() -> None:
    """PySide6 6.12.0 on CPython 3.11 dropped a reference to True per emit (and to None per
    void call) until the interpreter aborted; pyproject pins below 6.12. This fails if a
    release with that bug comes back."""
    import sys

    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        ping = Signal()

    emitter = Emitter()
    true_before, none_before = sys.getrefcount(True), sys.getrefcount(None)
    for _ in range(20_000):
        emitter.ping.emit()
    assert sys.getrefcount(True) > true_before - 1000
    assert sys.getrefcount(None) > none_before - 1000
