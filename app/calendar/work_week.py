"""The work week (issue 32): the week view's time grid over the working days only.

The days are the span from the first to the last working day in Settings (Monday to Friday
by default; Tuesday to Saturday for a shop), in the week of the anchor counted from Monday,
whatever day the full week starts on. A gap inside the span (Mon, Wed, Fri) is shown, not
skipped: a grid's columns are consecutive days everywhere else in the app, and dragging an
event across a hidden day would move it by a day the user never saw. PageUp/PageDown and
‹/› step a week.
"""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtWidgets import QWidget

from app.calendar.week_view import WeekView


class WorkWeekView(WeekView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(5, parent)
        self.name = "workweek"

    def date_range(self) -> tuple[date, date]:
        days = self.work_days or (1, 2, 3, 4, 5)
        monday = self.anchor - timedelta(days=self.anchor.isoweekday() - 1)
        first = monday + timedelta(days=min(days) - 1)
        self.days = max(days) - min(days) + 1  # the grid's and header's column count
        return first, first + timedelta(days=self.days)

    def step_anchor(self, delta: int) -> date:
        return self.anchor + timedelta(days=7 * delta)
