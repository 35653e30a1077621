"""Receipt cards and the status line in the chat pane (issue 20, the second guard tier).

A code-written receipt of a committed change is a card with its own mark; a model's reply
on a turn that changed nothing keeps its text and gets the code-written line under it.
Neither is decided from the reply's words: the pane reads ``TurnResult.calendar``.
"""

from __future__ import annotations

from agent.models.script_backend import ScriptedModel
from agent.services.archive import ArchiveService
from tests.support.chat_fixtures import call, save_shot


def test_a_receipt_is_a_card_and_a_promise_gets_the_line(make_pane, qtbot, app_ctx) -> None:
    app_ctx.settings.override("language", "zh")
    pane = make_pane(
        ScriptedModel(
            [
                call("prepare_or_create_schedule", title="和张三开会", dateExpression="D+1", time="15:00"),
                {"content": "我这就帮你把周五的健身加上。"},
                {"content": "✓ 日历已更改：周六上午修车"},
            ]
        )
    )
    for text in ("明天下午三点和张三开会", "周五健身", "周六上午修车"):
        with qtbot.waitSignal(pane.turn_finished, timeout=5000):
            pane.send_message(text)
    receipt, promise, forged = [b for b in pane.view.bubbles() if b.role == "assistant"]
    assert receipt.is_card() and receipt.card_mark.isVisibleTo(receipt) and not receipt.calendar_note.isVisibleTo(receipt)
    assert not promise.is_card() and promise.calendar_note.text() == "日历没有变化"
    assert promise.text() == "我这就帮你把周五的健身加上。"  # the reply keeps its text
    # A model that writes the card's words gets no card: the mark is code's widget, not text
    # (and the first tier replaces this claim whole).
    assert not forged.is_card() and not forged.card_mark.isVisibleTo(forged) and "日历没有变化" in forged.text()
    save_shot(pane, "chat-card-and-unchanged-line")

    pane.view.clear()  # reloaded history keeps both: the archive's meta carries the facts
    pane.view.load_history(ArchiveService(app_ctx.store, app_ctx.profile_id).recent(), [])
    reloaded = [b for b in pane.view.bubbles() if b.role == "assistant"]
    assert [b.is_card() for b in reloaded] == [True, False, False]
    assert [b.calendar_note.text() for b in reloaded] == ["", "日历没有变化", ""]


def test_the_first_run_tip_says_only_a_card_means_a_change(qapp) -> None:
    from PySide6.QtWidgets import QLabel

    from app.chat.no_model_panel import NoModelPanel

    panel = NoModelPanel()
    assert any("Only a card" in label.text() for label in panel.findChildren(QLabel))
