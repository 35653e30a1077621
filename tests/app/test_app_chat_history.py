"""Issue 15, defect 6: reloaded chat history tells the truth.

A receipt whose Undo was pressed (or whose change Ctrl+Z took back) reads "Undone" after a
restart, not as if the event still existed; and the assistant's message carries the time
it was written, not the user message's time.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from PySide6.QtCore import Qt

from agent.models.base import ModelEvent
from agent.models.script_backend import ScriptedModel
from agent.services.archive import ArchiveService
from tests.support.chat_fixtures import call, event_titles, save_shot
from tests.support.clock import NOW


def send(pane, qtbot, text: str):  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message(text)
    return blocker.args[0]


class SlowClockModel(ScriptedModel):
    """A scripted model that 'thinks' for 40 s of the pinned clock (no real waiting)."""

    def __init__(self, turns: list[dict[str, Any]], clock: list[Any]) -> None:
        super().__init__(turns)
        self.clock = clock

    def _play(self, index: int) -> Iterator[ModelEvent]:
        self.clock[0] += timedelta(seconds=40)
        yield from super()._play(index)


def test_assistant_message_is_stamped_when_it_was_written(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    clock = [NOW]
    app_ctx.clock = lambda: clock[0]
    app_ctx.session.assistant._clock = lambda: clock[0]
    pane = make_pane(SlowClockModel([{"content": "你好！有什么要安排的吗？"}], clock))
    send(pane, qtbot, "你好")
    user, assistant = ArchiveService(app_ctx.store, app_ctx.profile_id).recent()[-2:]
    assert (user.role, assistant.role) == ("user", "assistant")
    assert user.created_at == NOW and assistant.created_at == NOW + timedelta(seconds=40)


def test_an_undone_receipt_reads_undone_after_a_restart(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    model = ScriptedModel(
        [
            call("prepare_or_create_schedule", title="和张三开会", dateExpression="D+1", time="15:00"),
            call("prepare_or_create_schedule", title="牙医", dateExpression="D+2", time="10:00"),
            call("prepare_or_create_schedule", title="健身", dateExpression="D+3", time="19:00"),
        ]
    )
    pane = make_pane(model)
    send(pane, qtbot, "明天下午三点和张三开会")
    qtbot.mouseClick(pane.last_reply.undo_button, Qt.MouseButton.LeftButton)  # the receipt's Undo
    send(pane, qtbot, "后天上午十点看牙医")
    app_ctx.ops.undo()  # Ctrl+Z takes the assistant's write back as well
    send(pane, qtbot, "大后天晚上七点健身")
    assert event_titles(app_ctx.store) == ["健身"]
    again = make_pane(ScriptedModel([]))  # a restart: history comes from the archive
    receipts = [bubble for bubble in again.view.bubbles() if bubble.role == "assistant"]
    assert len(receipts) == 3
    marks = [(bubble.undo_button.isVisible(), bubble.undo_button.text(), bubble.undo_button.isEnabled()) for bubble in receipts]
    assert marks[0] == (True, "Undone", False) and marks[1] == (True, "Undone", False)
    assert marks[2][0] is False  # still in the calendar: no mark
    save_shot(again, "history_undone_receipt")
