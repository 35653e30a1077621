"""Nothing of a deleted calendar area stays connected to the app's long-lived ``ops``.

Same rule as the chat pane's quit (tests/app/test_app_chat_quit.py): a long-lived signal is
connected to a slot of the widget, never to a plain Python object's bound method, which Qt
does not drop when the widget goes (the next emit would call into freed memory).
"""

from __future__ import annotations

import gc
from typing import Any

from PySide6.QtCore import SIGNAL, QCoreApplication, QEvent


def _flush() -> None:
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def test_a_deleted_calendar_area_leaves_no_receiver_on_ops(cal_ctx: Any, qtbot: Any) -> None:
    from app.calendar.calendar_area import CalendarArea

    ops = cal_ctx.ops
    signals = ("changed(PyObject)", "calendars_changed()", "reverted(PyObject)")
    _flush()
    before = {name: int(ops.receivers(SIGNAL(name))) for name in signals}
    area = CalendarArea(cal_ctx)
    assert int(ops.receivers(SIGNAL("calendars_changed()"))) > before["calendars_changed()"]
    area.close()
    area.deleteLater()
    _flush()
    assert {name: int(ops.receivers(SIGNAL(name))) for name in signals} == before
