"""Issue 15, defect 2: an "all occurrences" save after a "this and following" split.

The split ends the old series one second before the split instance. Reopening the old
series and changing only its title must not rebuild its rule from the editor's "Until"
day (which used to be written back as the *end* of the split day, bringing the split
instance back as a duplicate next to the new series' first instance).
"""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from agent.services.queries import QueryService
from agent.store.components import parse_component
from app.calendar import scope_prompt
from app.calendar.event_dialog import EventDialog
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import accept_with, at, seed
from tests.support.clock import MONDAY, SHANGHAI


def day_starts(ctx, first: date, days: int = 1) -> list[tuple[str, datetime]]:  # type: ignore[no-untyped-def]
    start = datetime.combine(first, datetime.min.time(), tzinfo=SHANGHAI)
    found = QueryService(ctx.store, ctx.profile_id, ctx.time_context()).between(start, start + timedelta(days=days))
    return [(occ.title, occ.start.astimezone(SHANGHAI).replace(tzinfo=None)) for occ in found]  # type: ignore[union-attr]


def rule_of(store, uid: str) -> str:  # type: ignore[no-untyped-def]
    row = store.conn.execute("SELECT ics FROM events WHERE uid = ? AND recurrence_id = ''", (uid,)).fetchone()
    return parse_component(row[0])["RRULE"].to_ical().decode()


def occurrence(area, day: date):  # type: ignore[no-untyped-def]
    area.set_anchor(day)
    return next(
        item.event
        for item in area.current_view().visible_items()
        if isinstance(item, GridItem) and item.event.start.date() == day
    )


def save_with(area, fill, scope: str, monkeypatch, event) -> EventDialog:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: scope)
    area.exec_dialog = run = accept_with(fill)
    area.open_editor(event, None, None)
    return run.seen[0]


def test_all_occurrences_after_a_following_split_keeps_the_split_day_single(  # type: ignore[no-untyped-def]
    area, cal_ctx, cal_store, profile, monkeypatch
) -> None:
    seed(cal_store, profile, "周会", at(MONDAY, 9), at(MONDAY, 10), rrule="FREQ=WEEKLY;BYDAY=MO")
    area.refresh()
    dec7, dec14 = date(2026, 12, 7), date(2026, 12, 14)
    # Dec 7 moves to 10:00, only this one.
    save_with(
        area, lambda d: d.start_time.setTime(d.start_time.time().addSecs(3600)), "this", monkeypatch, occurrence(area, dec7)
    )
    # Dec 14 and everything after it moves to 11:00.
    save_with(
        area, lambda d: d.start_time.setTime(d.start_time.time().addSecs(7200)), "following", monkeypatch, occurrence(area, dec14)
    )
    assert day_starts(cal_ctx, dec14) == [("周会", datetime(2026, 12, 14, 11))]
    old_uid = occurrence(area, MONDAY).occ.uid
    rule_before = rule_of(cal_store, old_uid)
    # The old series now ends with Dec 7: the editor says so (not "until Dec 14").
    dialog = save_with(area, lambda d: d.title.setText("周会（改名）"), "all", monkeypatch, occurrence(area, MONDAY))
    assert dialog.repeat.ends.currentData() == "until" and dialog.repeat.until.date().toString("yyyy-MM-dd") == "2026-12-07"
    assert rule_of(cal_store, old_uid) == rule_before  # recurrence untouched: the rule is kept verbatim
    # Only the title changed: Dec 14 is still one meeting, at 11:00, from the new series.
    assert day_starts(cal_ctx, dec14) == [("周会", datetime(2026, 12, 14, 11))]
    # The old series keeps its two instances (the Dec 7 override keeps its own fields).
    assert [start for _, start in day_starts(cal_ctx, MONDAY, 14)] == [datetime(2026, 11, 30, 9), datetime(2026, 12, 7, 10)]
    assert day_starts(cal_ctx, MONDAY)[0][0] == "周会（改名）"
    assert day_starts(cal_ctx, date(2026, 12, 21)) == [("周会", datetime(2026, 12, 21, 11))]


def test_changing_the_rule_of_the_old_series_still_ends_before_the_split(area, cal_ctx, cal_store, profile, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Even when the recurrence *is* touched, the Until day shown is the last real one."""
    seed(cal_store, profile, "周会", at(MONDAY, 9), at(MONDAY, 10), rrule="FREQ=WEEKLY;BYDAY=MO")
    area.refresh()
    dec14 = date(2026, 12, 14)
    save_with(
        area, lambda d: d.start_time.setTime(d.start_time.time().addSecs(7200)), "following", monkeypatch, occurrence(area, dec14)
    )

    def add_friday(dialog: EventDialog) -> None:
        dialog.repeat.weekday_buttons["FR"].setChecked(True)

    save_with(area, add_friday, "all", monkeypatch, occurrence(area, MONDAY))
    assert day_starts(cal_ctx, dec14) == [("周会", datetime(2026, 12, 14, 11))]
    # "Until 2026-12-07" as shown: the added Fridays stop there too.
    assert [start.day for _, start in day_starts(cal_ctx, MONDAY, 14)] == [30, 4, 7]
