"""Quitting reaches the chat pane, and nothing of a deleted pane stays on the app's signal.

The pane used to connect the (non-Qt) session's ``cancel_warm_up`` straight to the
process-wide ``aboutToQuit``. Qt drops a QObject's connections when it is destroyed, not a
plain callable's: after the window went, the next app run in the same process quit into freed
memory (a segfault in CI, one run in three here). Counting receivers proves the connection
goes with the pane; no quit has to be risked to see it.
"""

from __future__ import annotations

import gc
from typing import Any

from PySide6.QtCore import SIGNAL, QCoreApplication, QEvent


def _flush_deletes() -> None:
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def _quit_receivers(app: Any) -> int:
    return int(app.receivers(SIGNAL("aboutToQuit()")))


def test_a_deleted_pane_leaves_no_receiver_on_about_to_quit(app_ctx: Any, qapp: Any) -> None:
    from app.chat.chat_pane import ChatPane

    _flush_deletes()  # panes of earlier tests still waiting for their deleteLater
    before = _quit_receivers(qapp)
    pane = ChatPane(app_ctx)
    assert _quit_receivers(qapp) > before, "the pane listens for quit"
    pane.shutdown()
    pane.deleteLater()
    _flush_deletes()
    assert _quit_receivers(qapp) == before


def test_quit_stops_the_turn_and_cancels_the_warm_up(app_ctx: Any, qapp: Any, monkeypatch: Any) -> None:
    from app.chat.chat_pane import ChatPane

    pane = ChatPane(app_ctx)
    calls: list[str] = []
    monkeypatch.setattr(app_ctx.session, "cancel_warm_up", lambda: calls.append("cancel"), raising=False)
    monkeypatch.setattr(pane, "stop", lambda: calls.append("stop"))
    try:
        pane._on_about_to_quit()
        assert calls == ["stop", "cancel"]
    finally:
        monkeypatch.undo()
        pane.shutdown()
        pane.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
