"""A month line keeps four characters of its title (issue 32, defect 8, seen again at 960 px
with the chat open in Chinese: "15:00 和张…"). The line drops its start time before the title
falls under four characters; the check measured the room with other margins than the line
is painted with and left out the ellipsis, so at some cell widths the time stayed and the
title kept two characters."""

from __future__ import annotations

from typing import Any

import pytest

from tests.app.test_app_month_holiday_labels import RecordingCache
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY

TITLES = ("和张三开会讨论预算", "Team lunch with Tom")


@pytest.mark.parametrize("cell", range(70, 131, 3))
def test_a_cut_title_keeps_four_characters(area: Any, cal_ctx: Any, cell: int) -> None:
    for hour, title in enumerate(TITLES, start=9):
        seed(cal_ctx.store, cal_ctx.profile_id, title, at(MONDAY, hour), at(MONDAY, hour + 1))
    cal_ctx.ops.changed.emit(None)
    area.set_view("month")
    month = area.current_view()
    month.texts = RecordingCache()
    month.resize(7 * cell, 6 * 90 + 24)
    month.repaint()
    drawn = [text for text in month.texts.drawn if text.rstrip("…") and any(t.startswith(text.rstrip("…")) for t in TITLES)]
    assert len(drawn) >= len(TITLES)
    for text in drawn:
        if text.endswith("…") and len(text) - 1 < 4:  # a narrower cell has no room for four
            assert not month.time_shown(), (cell, text)  # but the time gave its room first
