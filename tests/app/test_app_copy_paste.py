"""Copy and paste of events (issue 32): Ctrl+C on the selected event, Ctrl+V onto the
selected day keeping the time of day; one undo step; text fields keep their own Ctrl+C/V."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from agent.services.commands import CommandService
from tests.support.app_fixtures import at, seed, titles
from tests.support.clock import MONDAY, NOW, SHANGHAI, ctx_at

WEDNESDAY = MONDAY + timedelta(days=2)


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    from app.main_window import MainWindow

    app_ctx.session.set_model(None)
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16, 30), location="会议室")
    win = MainWindow(app_ctx)
    win.resize(1177, 736)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    win.calendar.set_view("week")
    yield win
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def _events(ctx: Any, day: date) -> list[tuple[str, datetime, datetime, str]]:
    start = datetime.combine(day, datetime.min.time(), tzinfo=SHANGHAI)
    found = CommandService(ctx.store, ctx.profile_id, ctx_at(NOW)).queries.between(start, start + timedelta(days=1))
    return [(e.title, e.start.astimezone(SHANGHAI), e.end.astimezone(SHANGHAI), e.location) for e in found]  # type: ignore[union-attr]


def test_ctrl_c_then_ctrl_v_on_another_day_keeps_the_time_and_undo_takes_it_back(window: Any, qtbot: Any) -> None:
    view = window.calendar.current_view()
    view.select(view.events[0].key)
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert "周会" in QApplication.clipboard().text()
    window.calendar.set_anchor(WEDNESDAY)
    qtbot.keyClick(window.calendar.current_view(), Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert _events(window.ctx, WEDNESDAY) == [("周会", at(WEDNESDAY, 15), at(WEDNESDAY, 16, 30), "会议室")]
    assert len(_events(window.ctx, MONDAY)) == 1  # the original stays
    selected = window.calendar.current_view().selected_event()
    assert selected is not None and selected.start == datetime(2026, 12, 2, 15)
    window.ctx.ops.undo()
    assert titles(window.ctx.store) == ["周会"]


def test_ctrl_v_in_the_search_box_pastes_text_not_an_event(window: Any, qtbot: Any) -> None:
    view = window.calendar.current_view()
    view.select(view.events[0].key)
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    QApplication.clipboard().setText("会议")
    search = window.calendar.nav.search
    search.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(search, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert search.text() == "会议" and titles(window.ctx.store) == ["周会"]


def test_an_all_day_event_keeps_its_days(window: Any) -> None:
    from agent.services.editing import EventDraft
    from app.calendar.event_clipboard import pasted_draft

    draft = EventDraft("团建", date(2026, 12, 5), date(2026, 12, 7), 1)
    moved = pasted_draft(draft, date(2026, 12, 10))
    assert (moved.start, moved.end) == (date(2026, 12, 10), date(2026, 12, 12))
