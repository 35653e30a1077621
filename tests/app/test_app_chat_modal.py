"""Issue 15, defect 5: a chat result never opens a dialog over an unrelated modal editor.

The user sends a message, opens the event editor while the model works, and types a
time. The turn ends in a conflict (or a past time): its question used to pop up over the
editor and take the keyboard, so the digits being typed were lost. Now the question waits
until no foreign modal window is open (the pending chip shows it inline meanwhile) and
opens then.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt, QTime
from PySide6.QtWidgets import QApplication, QDialog, QTimeEdit, QVBoxLayout

from agent.models.script_backend import ScriptedModel
from tests.support.chat_fixtures import add_event, call, event_titles


def modal_editor(qtbot):  # type: ignore[no-untyped-def]
    """A stand-in for the event editor as ``exec()`` shows it: application-modal, focused."""
    editor = QDialog()
    editor.setWindowTitle("Edit event")
    editor.setWindowModality(Qt.WindowModality.ApplicationModal)
    time_edit = QTimeEdit(editor)
    time_edit.setDisplayFormat("HH:mm")
    QVBoxLayout(editor).addWidget(time_edit)
    qtbot.addWidget(editor)
    editor.show()
    editor.activateWindow()
    time_edit.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is time_edit, timeout=3000)
    return editor, time_edit


def test_conflict_question_waits_for_an_open_modal_editor(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    add_event(app_ctx.store, app_ctx.profile_id, "休假", date(2026, 12, 1), date(2026, 12, 4))
    model = ScriptedModel([call("prepare_or_create_schedule", title="坐飞机", dateExpression="D+1", time="09:00")])
    pane = make_pane(model)
    editor, time_edit = modal_editor(qtbot)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message("明天早上九点坐飞机")
    assert blocker.args[0].outcome == "conflict"
    qtbot.wait(50)
    # Nothing opened over the editor; the keyboard is still in its time field.
    assert pane.conflict_dialog is None or not pane.conflict_dialog.isVisible()
    assert QApplication.activeModalWidget() is editor and QApplication.focusWidget() is time_edit
    qtbot.keyClicks(time_edit, "1430")
    assert time_edit.time() == QTime(14, 30)
    # Inline meanwhile: the chip names the pending conflict, the reply says it will ask.
    assert pane.candidate_bar.isVisible() and "坐飞机" in pane.candidate_bar.chip_label.text()
    assert pane.last_reply.status.isVisible() and pane.last_reply.status.text()
    editor.accept()
    qtbot.waitUntil(lambda: pane.conflict_dialog is not None and pane.conflict_dialog.isVisible(), timeout=3000)
    assert not pane.last_reply.status.isVisible()
    pane.conflict_dialog.change_button.click()
    assert event_titles(app_ctx.store) == ["休假"]


def test_past_time_question_waits_too_and_a_new_message_drops_the_wait(make_pane, qtbot, app_ctx) -> None:  # type: ignore[no-untyped-def]
    model = ScriptedModel(
        [call("prepare_or_create_schedule", title="晨会", dateExpression="D+0", time="08:00"), {"content": "好的"}]
    )
    pane = make_pane(model)
    editor, time_edit = modal_editor(qtbot)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_message("今天早上八点开了晨会，记一下")
    assert blocker.args[0].outcome == "past_time"
    qtbot.wait(50)
    assert pane.past_time_dialog is None or not pane.past_time_dialog.isVisible()
    assert QApplication.focusWidget() is time_edit
    with qtbot.waitSignal(pane.turn_finished, timeout=5000):
        pane.send_message("算了")
    editor.accept()
    qtbot.wait(600)  # longer than the wait's poll: a stale question must not pop up now
    assert pane.past_time_dialog is None
