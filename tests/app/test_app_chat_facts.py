"""The facts card and the shared-target list in the chat pane (issue 30, items 2 and 4).

A model reply that talks about a day without reading it keeps its text and its status line,
and gets code's own reading of that day in a card under it; a target two events share is a
list of buttons, whatever day the model sent. Screenshots with RICHENG_SHOTS=1.
"""

from __future__ import annotations

from datetime import datetime

from agent.models.script_backend import ScriptedModel
from agent.services.archive import ArchiveService
from tests.support.chat_fixtures import add_event, call, event_titles, save_shot
from tests.support.clock import SHANGHAI


def send(pane, qtbot, text: str):
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message(text)
    return blocker.args[0]


def _at(day: int, hour: int) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=SHANGHAI)


def test_a_facts_card_under_a_model_reply_in_zh_and_en(make_pane, qtbot, app_ctx) -> None:
    add_event(app_ctx.store, app_ctx.profile_id, "周会", _at(3, 9), _at(3, 10))
    add_event(app_ctx.store, app_ctx.profile_id, "看牙", _at(3, 15), _at(3, 16))
    pane = make_pane(
        ScriptedModel([{"content": "周四就一件事：下午三点看牙。"}, {"content": "The 24th is wide open."}]), height=560
    )
    zh = send(pane, qtbot, "周四有啥事")
    assert zh.facts is not None and [e.title for e in zh.facts.events] == ["周会", "看牙"]
    bubble = [b for b in pane.view.bubbles() if b.role == "assistant"][-1]
    assert bubble.text() == "周四就一件事：下午三点看牙。" and bubble.calendar_note.text() == "日历没有变化"
    assert bubble.facts_card.isVisibleTo(bubble) and not bubble.is_card()  # facts, not a change
    assert bubble.facts_card.text() == "日历里查到的：12月3日（周四）：2 个安排 · 09:00 周会 · 15:00 看牙"
    save_shot(pane, "facts-card-zh")
    en = send(pane, qtbot, "anything on the 24th?")
    assert en.facts is not None and en.facts.events == ()
    bubble = [b for b in pane.view.bubbles() if b.role == "assistant"][-1]
    assert bubble.facts_card.text() == "From your calendar: Thu 24 Dec: nothing scheduled"
    save_shot(pane, "facts-card-en")

    pane.view.clear()  # the archive's meta keeps the card for a reloaded history
    pane.view.load_history(ArchiveService(app_ctx.store, app_ctx.profile_id).recent(), [])
    cards = [b.facts_card.text() for b in pane.view.bubbles() if b.role == "assistant"]
    assert cards == [bubble_text for bubble_text in cards if bubble_text] and len(cards) == 2


def test_no_card_under_a_reply_that_needs_none(make_pane, qtbot, app_ctx) -> None:
    pane = make_pane(ScriptedModel([{"content": "不客气～"}]))
    result = send(pane, qtbot, "谢谢你")
    bubble = [b for b in pane.view.bubbles() if b.role == "assistant"][-1]
    assert result.facts is None and not bubble.facts_card.isVisibleTo(bubble)


def test_a_target_two_events_share_is_a_list(make_pane, qtbot, app_ctx) -> None:
    add_event(app_ctx.store, app_ctx.profile_id, "网球课", _at(3, 18), _at(3, 19))
    add_event(app_ctx.store, app_ctx.profile_id, "网球课", _at(6, 9), _at(6, 10))
    pane = make_pane(ScriptedModel([call("update_schedule", targetTitle="网球课", targetDate="W4", newTime="20:00")]), height=640)
    result = send(pane, qtbot, "把网球课改到晚上八点")
    assert result.outcome == "edit_choice" and event_titles(app_ctx.store) == ["网球课", "网球课"]
    bar = pane.candidate_bar
    qtbot.waitUntil(lambda: bar.isVisible(), timeout=3000)
    assert len([b for b in bar.findChildren(type(bar.edit_yes_button)) if b.isVisible()]) >= 2
    save_shot(pane, "facts-shared-target-list")
