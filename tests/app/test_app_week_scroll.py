"""Where the week view's time grid opens (issue 23, defect 4).

Found by hand: at 02:31 the week opened at 08:30 (the working day's start, less half an
hour) and both the current-time line and an 18:00 event were off-screen. Now a range that
holds today opens with the now-line in view; any other range with its first event in view.
The app's "now" is the context's (fixed here), never the machine's clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from app.calendar.week_view import GridItem, WeekView
from tests.support.app_fixtures import at, seed
from tests.support.clock import SHANGHAI

WEDNESDAY = date(2026, 12, 2)
NIGHT = datetime(2026, 12, 2, 2, 31, tzinfo=SHANGHAI)


@pytest.fixture
def night_area(qtbot: Any, cal_store: Any, profile: int) -> Iterator[Any]:
    """The calendar area at 02:31 on Wednesday with an 18:00 event that day."""
    from app.application import build_context
    from app.calendar.calendar_area import CalendarArea

    ctx = build_context(cal_store, profile, tz="Asia/Shanghai", now=NIGHT)
    seed(cal_store, profile, "晚饭 Dinner", at(WEDNESDAY, 18), at(WEDNESDAY, 19))
    seed(cal_store, profile, "Late review", at(WEDNESDAY + timedelta(days=7), 21, 30), at(WEDNESDAY + timedelta(days=7), 22, 30))
    widget = CalendarArea(ctx)
    qtbot.addWidget(widget)
    widget.resize(1280, 640)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.close()


def _shown_minutes(view: WeekView) -> tuple[float, float]:
    """The minutes of the day the grid's viewport shows, top and bottom."""
    top = view.scroll_area.verticalScrollBar().value()
    height = view.scroll_area.viewport().height()
    return top * 60 / 48, (top + height) * 60 / 48


def _settled(qtbot: Any, view: WeekView) -> tuple[float, float]:
    qtbot.wait(50)  # the scroll is applied once the viewport has its size
    return _shown_minutes(view)


def test_at_night_the_week_opens_with_the_now_line_in_view(night_area: Any, qtbot: Any) -> None:
    view = night_area.current_view()
    assert view.name == "week"
    top, bottom = _settled(qtbot, view)
    now_minute = 2 * 60 + 31
    assert top <= now_minute <= bottom, (top, bottom)


def test_a_week_without_today_opens_at_its_first_event(night_area: Any, qtbot: Any) -> None:
    night_area.step(1)
    view = night_area.current_view()
    top, bottom = _settled(qtbot, view)
    item = next(item for item in view.visible_items() if isinstance(item, GridItem))
    assert item.event.occ.title == "Late review"
    assert top <= item.start_minute and item.end_minute <= bottom, (top, bottom)


def test_the_day_view_of_today_also_shows_the_now_line(night_area: Any, qtbot: Any) -> None:
    night_area.set_view("day")
    top, bottom = _settled(qtbot, night_area.current_view())
    assert top <= 2 * 60 + 31 <= bottom
