"""The edit latch's questions in the chat pane (issue 20, item 1): a bulk change is one
confirmation listing every event with a count, and a new time the words do not give is asked
about with code's own reading offered. Nothing changes until the person answers."""

from __future__ import annotations

from datetime import timedelta

from agent.models.script_backend import ScriptedModel
from tests.support.chat_fixtures import add_event, call, event_titles, save_shot
from tests.support.clock import NOW

TOMORROW = NOW.replace(hour=10, minute=0) + timedelta(days=1)


def _seed(app_ctx) -> None:  # type: ignore[no-untyped-def]
    add_event(app_ctx.store, app_ctx.profile_id, "Team sync", TOMORROW, TOMORROW + timedelta(hours=1))
    add_event(app_ctx.store, app_ctx.profile_id, "Dentist", TOMORROW.replace(hour=15), TOMORROW.replace(hour=16))


def _reply(pane) -> str:  # type: ignore[no-untyped-def]
    return [b for b in pane.view.bubbles() if b.role == "assistant"][-1].text()


def _bulk_delete_asked(make_pane, qtbot, app_ctx):  # type: ignore[no-untyped-def]
    """The pane after "delete everything tomorrow" with a delete call for each event."""
    app_ctx.settings.override("language", "en")
    _seed(app_ctx)
    pane = make_pane(ScriptedModel([{"tool_calls": [
        {"name": "delete_schedule", "arguments": {"targetTitle": "Team sync", "targetDate": "D+1"}},
        {"name": "delete_schedule", "arguments": {"targetTitle": "Dentist", "targetDate": "D+1"}},
    ]}]))  # fmt: skip
    with qtbot.waitSignal(pane.turn_finished, timeout=5000):
        pane.send_message("delete everything tomorrow")
    return pane


def test_a_bulk_delete_asks_with_the_list(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    pane = _bulk_delete_asked(make_pane, qtbot, app_ctx)
    text = _reply(pane)
    assert "Team sync" in text and "Dentist" in text and "2" in text
    assert sorted(event_titles(app_ctx.store)) == ["Dentist", "Team sync"]  # nothing deleted yet
    save_shot(pane, "chat-bulk-confirmation")


def test_a_shift_the_words_do_not_give_asks_with_codes_reading(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    app_ctx.settings.override("language", "en")
    _seed(app_ctx)
    pane = make_pane(ScriptedModel([
        call("update_schedule", targetTitle="Team sync", targetDate="D+1", newTime="23:00"),
    ]))  # fmt: skip
    with qtbot.waitSignal(pane.turn_finished, timeout=5000):
        pane.send_message("push tomorrow's team sync back an hour")
    text = _reply(pane)
    assert "11:00" in text and "23:00" not in text
    starts = [row[0] for row in app_ctx.store.conn.execute("SELECT start_ts FROM events WHERE title = 'Team sync'")]
    assert starts == [int(TOMORROW.timestamp())]  # unchanged until answered
    save_shot(pane, "chat-edit-question-code-reading")


def test_declining_a_bulk_change_names_all_it_kept(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    """The decline said "OK, “Team sync” stays as it was." for two events; now it counts them."""
    pane = _bulk_delete_asked(make_pane, qtbot, app_ctx)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000):
        pane.send_message("no")
    assert _reply(pane) == "OK, nothing changed: the 2 events stay as they were."
    assert sorted(event_titles(app_ctx.store)) == ["Dentist", "Team sync"]
