"""The four views read the store: what each will draw, holidays, hidden calendars, speed."""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from agent.services.editing import EditService, EventDraft
from app.calendar.agenda_view import AgendaRow
from app.calendar.month_view import MonthCell, MonthItem
from app.calendar.week_header import BarItem, HeaderDay
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY


def grid_titles(view) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(item.event.occ.title for item in view.visible_items() if isinstance(item, GridItem))


def bar_titles(view) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(item.event.occ.title for item in view.visible_items() if isinstance(item, BarItem))


def seed_week(store, profile) -> None:  # type: ignore[no-untyped-def]
    seed(store, profile, "周会 Weekly sync", at(MONDAY, 9, 30), at(MONDAY, 10, 30), rrule="FREQ=WEEKLY;BYDAY=MO")
    seed(store, profile, "Dentist", at(MONDAY + timedelta(days=2), 8), at(MONDAY + timedelta(days=2), 8, 45), location="仁济医院")
    seed(store, profile, "妈妈生日", MONDAY + timedelta(days=1), MONDAY + timedelta(days=2))
    seed(store, profile, "上海出差", MONDAY + timedelta(days=2), MONDAY + timedelta(days=5))
    seed(store, profile, "Next week", at(MONDAY + timedelta(days=8), 9), at(MONDAY + timedelta(days=8), 10))


def test_week_day_month_and_agenda_show_the_stored_events(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    seed_week(cal_store, profile)
    area.refresh()
    week = area.current_view()
    assert area.view_name == "week" and week.date_range() == (MONDAY, MONDAY + timedelta(days=7))
    assert grid_titles(week) == ["Dentist", "周会 Weekly sync"]
    assert bar_titles(week) == ["上海出差", "妈妈生日"]
    trip = next(item for item in week.visible_items() if isinstance(item, BarItem) and item.event.occ.title == "上海出差")
    assert (trip.first, trip.end) == (2, 5)

    area.set_view("day")
    assert grid_titles(area.current_view()) == ["周会 Weekly sync"]
    assert bar_titles(area.current_view()) == []

    area.set_view("month")
    month = area.current_view()
    items = [item for item in month.visible_items() if isinstance(item, MonthItem) and item.event is not None]
    by_title = {item.event.occ.title: item for item in items}
    assert by_title["Dentist"].kind == "timed" and by_title["Dentist"].day == date(2026, 12, 2)
    assert by_title["上海出差"].kind == "bar" and (by_title["上海出差"].first, by_title["上海出差"].end) == (2, 5)
    weekly = [item.day for item in items if item.event.occ.title == "周会 Weekly sync"]
    assert weekly[:2] == [date(2026, 11, 2), date(2026, 11, 9)] or date(2026, 11, 30) in weekly

    area.set_view("agenda")
    rows = area.current_view().visible_items()
    assert rows[0].kind == "day" and rows[0].day == MONDAY
    events = [(row.day, row.event.occ.title) for row in rows if isinstance(row, AgendaRow) and row.event]
    assert (MONDAY, "周会 Weekly sync") in events
    assert (date(2026, 12, 3), "上海出差") in events  # a trip is listed on each of its days
    assert (date(2026, 12, 8), "Next week") in events


def test_three_overlapping_events_are_drawn_side_by_side(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    for title, (start, end) in {"A": ((9, 0), (10, 30)), "B": ((10, 0), (11, 0)), "C": ((10, 15), (10, 45))}.items():
        seed(cal_store, profile, title, at(MONDAY, *start), at(MONDAY, *end))
    area.refresh()
    items = sorted(
        (item for item in area.current_view().visible_items() if isinstance(item, GridItem)),
        key=lambda item: item.event.occ.title,
    )
    assert [item.column for item in items] == [0, 1, 2]
    assert all(item.columns == 3 for item in items)
    for left, right in zip(items, items[1:], strict=False):
        assert left.rect.right() <= right.rect.left()  # no overlap on screen
        assert left.rect.width() > 10


def test_hidden_calendars_are_hidden_in_every_view(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    work = cal_ctx.ops.calendars.add("工作", "#ef4444")
    seed(cal_store, profile, "Team lunch", at(MONDAY, 12), at(MONDAY, 13), work.id)
    seed(cal_store, profile, "Gym", at(MONDAY, 18), at(MONDAY, 19))
    area.refresh()
    assert grid_titles(area.current_view()) == ["Gym", "Team lunch"]
    area.sidebar.set_visible("工作", False)
    for name in ("week", "day", "month", "agenda"):
        area.set_view(name)
        shown = {
            getattr(item, "event", None).occ.title
            for item in area.current_view().visible_items()
            if getattr(item, "event", None) is not None
        }
        assert shown == {"Gym"}, name
    area.sidebar.set_visible("工作", True)
    assert "Team lunch" in {row.event.occ.title for row in area.current_view().visible_items() if row.event}


def test_holidays_adjusted_workdays_and_lunar_labels(area, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    area.set_anchor(date(2026, 10, 8))
    days = {item.day: item for item in area.current_view().visible_items() if isinstance(item, HeaderDay)}
    assert days[date(2026, 10, 5)].mark.off and days[date(2026, 10, 5)].mark.name == "国庆节"
    assert days[date(2026, 10, 10)].mark.workday  # 调休: a Saturday that is a working day (班)
    assert days[date(2026, 10, 8)].mark is None
    area.set_view("month")
    cells = {item.day: item for item in area.current_view().visible_items() if isinstance(item, MonthCell)}
    assert cells[date(2026, 10, 1)].mark.name == "国庆节"
    assert cells[date(2026, 10, 10)].lunar == "九月"  # 九月初一 shows its month, as printed calendars do
    assert cells[date(2026, 10, 10)].mark.workday and cells[date(2026, 10, 10)].in_month
    assert area.current_view().show_lunar

    cal_ctx.settings.set("language", "en")
    area.refresh()
    cells = {item.day: item for item in area.current_view().visible_items() if isinstance(item, MonthCell)}
    assert cells[date(2026, 10, 1)].mark.name == "National Day"
    assert cells[date(2026, 10, 10)].lunar == "" and not area.current_view().show_lunar


def test_current_time_line_uses_the_context_clock(area) -> None:  # type: ignore[no-untyped-def]
    week = area.current_view()
    assert week.now == datetime(2026, 11, 30, 10, 0)
    assert week.grid.y_of(10 * 60) == 10 * 48
    image = week.grid.grab().toImage()
    pixel = image.pixelColor(int(week.grid.column_x(0) + 30), int(week.grid.y_of(600)))
    assert pixel.red() > 180 and pixel.green() < 120  # the red now-line crosses today's column


def test_one_query_per_visible_range_until_the_store_changes(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "Standup", at(MONDAY, 9), at(MONDAY, 9, 15))
    area.refresh()
    area.set_view("month")
    before = area.source.queries
    for name in ("week", "day", "month", "week", "day"):
        area.set_view(name)  # the week and the day lie inside the month grid already fetched
    assert area.source.queries == before
    cal_ctx.ops.create(EventDraft("Coffee", at(MONDAY, 15), at(MONDAY, 15, 30), cal_ctx.ops.calendars.default().id))
    assert area.source.queries == before + 1
    assert "Coffee" in grid_titles(area.current_view())


def test_month_with_2000_events_paints_and_views_switch(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    edits = EditService(cal_store, profile)
    calendar = area.ctx.ops.calendars.default().id
    first = date(2026, 10, 26)  # the November grid: Oct 26 - Dec 6
    with cal_store.transaction():
        for index in range(2000):
            day = first + timedelta(days=index % 42)
            start = at(day, 7 + index % 12, (index * 7) % 60)
            edits.create(EventDraft(f"事件 Event {index}", start, start + timedelta(minutes=45), calendar))
    area.set_anchor(date(2026, 11, 15))
    area.set_view("month")
    month = area.current_view()
    assert sum(1 for item in month.visible_items() if isinstance(item, MonthItem)) > 42
    for _ in range(3):
        month.repaint()
    for name in ("week", "month", "day", "month"):
        area.set_view(name)
        assert area.current_view() is not None
    # How long paints and switches take is a benchmark figure (benchmarks/bench_app.py), not a test's.


def test_every_calendar_string_has_a_chinese_translation(qtbot) -> None:  # type: ignore[no-untyped-def]
    import ast
    import json
    from pathlib import Path

    from PySide6.QtWidgets import QApplication

    from app import i18n
    from app.calendar.nav_bar import NavBar

    catalogue = json.loads(i18n.catalogue_path("zh_CN").read_text(encoding="utf-8"))
    missing = []
    for path in (Path(__file__).resolve().parents[2] / "app" / "calendar").glob("*.py"):

        def visit(node: ast.AST, context: str | None, path: Path = path) -> None:
            for child in ast.iter_child_nodes(node):
                inner = child.name if isinstance(child, ast.ClassDef) else context
                if isinstance(child, ast.Call) and child.args and isinstance(child.args[0], ast.Constant):
                    func = child.func
                    is_self_tr = isinstance(func, ast.Attribute) and func.attr == "tr" and getattr(func.value, "id", "") == "self"
                    is_module_tr = isinstance(func, ast.Name) and func.id == "tr"
                    owner = context if is_self_tr else "ScopePrompt" if is_module_tr else None
                    if owner and child.args[0].value not in catalogue.get(owner, {}):
                        missing.append((path.name, owner, child.args[0].value))
                visit(child, inner)

        visit(ast.parse(path.read_text(encoding="utf-8")), None)
    assert missing == []
    app = QApplication.instance()
    translator = i18n.install(app, "zh_CN")
    try:
        nav = NavBar()
        qtbot.addWidget(nav)
        assert nav.today_button.text() == "今天" and nav.view_buttons["agenda"].text() == "列表"
    finally:
        app.removeTranslator(translator)
