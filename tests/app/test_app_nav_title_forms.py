"""The range title gives up the week number before it elides (issue 32, round 4): with week
numbers on, the Work week button in the bar's first row and the first start's 1177 px
window, the English title read "Nov 30 – Dec 4 · …", an ellipsis where "W49" was, though
"Nov 30 – Dec 4" fitted whole; the week number is in the mini month's margin too."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from app.calendar.nav_bar import NavBar

FULL = "Nov 30 – Dec 4, 2026 · W49"
SHORT = "Nov 30 – Dec 4 · W49"


@pytest.mark.parametrize(("room", "shown"), [(FULL, FULL), (SHORT, SHORT), ("Nov 30 – Dec 4", "Nov 30 – Dec 4")])
def test_the_title_shows_its_longest_whole_form(qtbot: Any, room: str, shown: str) -> None:
    bar = NavBar()
    qtbot.addWidget(bar)
    bar.set_state("workweek", date(2026, 12, 1), FULL, SHORT)
    bar.title.resize(bar.title.fontMetrics().horizontalAdvance(room) + 2, 30)
    assert bar.title.shown_text() == shown


def test_a_title_too_long_for_every_form_is_elided(qtbot: Any) -> None:
    bar = NavBar()
    qtbot.addWidget(bar)
    bar.set_state("workweek", date(2026, 12, 1), FULL, SHORT)
    bar.title.resize(bar.title.fontMetrics().horizontalAdvance("Nov 30"), 30)
    assert bar.title.shown_text().endswith("…") and bar.title.shown_text().startswith("Nov")
