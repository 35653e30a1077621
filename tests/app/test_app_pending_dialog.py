"""The one pending-question dialog (``app/chat/pending_dialog.py``) in both of its modes.

The chat and the quick-add field open it (``test_app_chat_actions.py``,
``test_quick_add_field.py``); here each mode on its own: its wording and buttons (the same as
the two dialogs it replaced), which answer writes, and what Escape means.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from agent.services.command_types import Outcome
from agent.store.occurrence import Occurrence
from app import i18n
from app.chat.pending_dialog import ADD, CANCEL, CHANGE, CREATE, DROP, LATER, PendingDialog
from tests.support.chat_fixtures import save_shot
from tests.support.clock import NOW, SHANGHAI

TODAY = NOW.date()


def sh(*args: int) -> datetime:
    return datetime(*args, tzinfo=SHANGHAI)  # type: ignore[misc]


def occurrence(title: str, start: datetime, end: datetime) -> Occurrence:
    row = (1, 1, "u1", None, title, start, end, False, False, "Asia/Shanghai", "日程", 1, "", "", "", "OPAQUE", "CONFIRMED")
    return Occurrence(*row, False, "user")


def conflict_outcome() -> Outcome:
    return Outcome(
        "conflict",
        title="坐飞机回老家",
        start=sh(2026, 12, 1, 9),
        end=sh(2026, 12, 1, 10),
        today=TODAY,
        conflicts=[occurrence("周会", sh(2026, 12, 1, 9, 30), sh(2026, 12, 1, 10, 30))],
    )


def past_outcome() -> Outcome:
    return Outcome("past_time", title="晨会", start=sh(2026, 11, 30, 8), end=sh(2026, 11, 30, 9), today=TODAY)


def texts(dialog: PendingDialog) -> list[str]:
    return [button.text() for button in dialog.findChildren(QPushButton)]


def test_conflict_mode_lists_the_overlap_and_only_create_anyway_accepts(qtbot: Any) -> None:
    dialog = PendingDialog.conflict(conflict_outcome(), SHANGHAI)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Time conflict" and texts(dialog) == ["Change time", "Create anyway", "Cancel"]
    assert dialog.message.text().startswith("“坐飞机回老家” (") and dialog.message.text().endswith("overlaps:")
    assert dialog.message.font().bold() and dialog.change_button.isDefault()
    assert len(dialog.conflict_lines()) == 1 and "周会" in dialog.conflict_lines()[0]
    for button, choice, accepted in (
        (dialog.create_button, CREATE, True),
        (dialog.change_button, CHANGE, False),
        (dialog.cancel_button, CANCEL, False),
    ):
        dialog.open()
        with qtbot.waitSignal(dialog.chosen) as blocker:
            button.click()
        assert blocker.args == [choice] and (dialog.result() == dialog.DialogCode.Accepted) is accepted


def test_past_time_mode_asks_to_add_and_has_no_conflict_list(qtbot: Any) -> None:
    dialog = PendingDialog.past_time(past_outcome(), SHANGHAI)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Time already passed" and texts(dialog) == ["Add it anyway", "Don't add"]
    assert "“晨会”" in dialog.message.text() and "08:00" in dialog.message.text()
    assert dialog.conflicts is None and dialog.conflict_lines() == [] and dialog.drop_button.isDefault()
    assert not dialog.message.font().bold()
    for button, choice in ((dialog.add_button, ADD), (dialog.drop_button, DROP)):
        dialog.open()
        with qtbot.waitSignal(dialog.chosen) as blocker:
            button.click()
        assert blocker.args == [choice]


@pytest.mark.parametrize(("make", "dismissed"), [(PendingDialog.conflict, CHANGE), (PendingDialog.past_time, LATER)])
def test_escape_never_writes(qtbot: Any, make: Any, dismissed: str) -> None:
    dialog = make(conflict_outcome() if dismissed == CHANGE else past_outcome(), SHANGHAI)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    with qtbot.waitSignal(dialog.chosen) as blocker:
        QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert blocker.args == [dismissed] and dialog.result() == dialog.DialogCode.Rejected


def test_both_modes_speak_chinese_from_one_catalogue_context(qtbot: Any, qapp: Any) -> None:
    i18n.install(qapp, "zh_CN")
    try:
        conflict = PendingDialog.conflict(conflict_outcome(), SHANGHAI)
        past = PendingDialog.past_time(past_outcome(), SHANGHAI)
        for dialog in (conflict, past):
            qtbot.addWidget(dialog)
        assert conflict.windowTitle() == "时间冲突" and texts(conflict) == ["换个时间", "仍然创建", "不建了"]
        assert "冲突" in conflict.message.text()
        assert past.windowTitle() == "时间已过" and texts(past) == ["仍然补记", "不添加"]
        assert "要补记到日历里吗" in past.message.text()
        for dialog, name in ((conflict, "pending_dialog_conflict_zh"), (past, "pending_dialog_past_time_zh")):
            dialog.show()
            qtbot.waitExposed(dialog)
            save_shot(dialog, name)
    finally:
        i18n.uninstall(qapp)


def test_an_unknown_mode_is_refused(qtbot: Any) -> None:
    with pytest.raises(ValueError):
        PendingDialog("later", past_outcome(), SHANGHAI)
