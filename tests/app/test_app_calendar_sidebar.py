"""Calendars in the sidebar (add, rename, recolour, hide, default, delete + undo) and search."""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt

from agent.services.search import SearchService
from agent.store.profiles import ensure_profile
from app.calendar.week_view import GridItem
from tests.support.app_fixtures import at, seed, titles
from tests.support.clock import MONDAY, NOW, SHANGHAI


def sidebar_rows(area) -> list[tuple[str, bool, bool]]:  # type: ignore[no-untyped-def]
    rows = []
    for index in range(area.sidebar.list.count()):
        item = area.sidebar.list.item(index)
        rows.append((item.text(), item.checkState() == Qt.CheckState.Checked, item.font().bold()))
    return rows


def test_add_rename_recolour_hide_and_default(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    sidebar = area.sidebar
    work = sidebar.add_calendar("工作", "#ef4444")
    assert ("工作", True, False) in sidebar_rows(area)
    seed(cal_store, profile, "Sprint planning", at(MONDAY, 10), at(MONDAY, 11), work.id)
    area.refresh()
    sidebar.rename_calendar("工作", "Work 工作")
    assert [name for name, _, _ in sidebar_rows(area)] == ["日程", "Work 工作"]
    sidebar.recolour_calendar("Work 工作", "#8b5cf6")
    event = next(item.event for item in area.current_view().visible_items() if isinstance(item, GridItem))
    assert event.occ.color == "#8b5cf6" and event.occ.calendar == "Work 工作"  # views reloaded
    # Hiding through the checkbox, as a user does.
    sidebar.list.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert not cal_ctx.ops.calendars.get("Work 工作").visible
    assert [item for item in area.current_view().visible_items() if isinstance(item, GridItem)] == []
    sidebar.make_default("Work 工作")
    assert sidebar_rows(area)[0] == ("Work 工作", False, True)
    # A name clash is refused with a message, not an exception.
    messages: list[str] = []
    cal_ctx.ops.failed.connect(messages.append)
    assert sidebar.add_calendar("work 工作") is None and messages


def test_delete_calendar_asks_then_undo_restores_it_and_its_events(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    sidebar = area.sidebar
    family = sidebar.add_calendar("家庭", "#10b981")
    seed(cal_store, profile, "Piano lesson", at(MONDAY, 15), at(MONDAY, 16), family.id, rrule="FREQ=WEEKLY;COUNT=4")
    seed(cal_store, profile, "Dinner", at(MONDAY, 19), at(MONDAY, 20), family.id, location="家")
    seed(cal_store, profile, "Report", at(MONDAY, 9), at(MONDAY, 10))
    sidebar.make_default("家庭")
    area.refresh()
    sidebar.confirm = lambda text: False  # "Cancel" keeps everything
    assert sidebar.delete_calendar("家庭") is None and titles(cal_store) == ["Dinner", "Piano lesson", "Report"]
    asked: list[str] = []
    sidebar.confirm = lambda text: asked.append(text) or True
    snapshot = sidebar.delete_calendar("家庭")
    assert "家庭" in asked[0] and snapshot is not None
    assert titles(cal_store) == ["Report"] and [name for name, _, _ in sidebar_rows(area)] == ["日程"]
    assert sidebar.banner.isVisibleTo(sidebar)
    shown = {item.event.occ.title for item in area.current_view().visible_items() if isinstance(item, GridItem)}
    assert shown == {"Report"}
    restored = sidebar.undo_delete()
    assert restored is not None and restored.name == "家庭" and restored.is_default and restored.color == "#10b981"
    assert titles(cal_store) == ["Dinner", "Piano lesson", "Report"]
    assert not sidebar.banner.isVisibleTo(sidebar)
    start = datetime.combine(MONDAY, datetime.min.time(), tzinfo=SHANGHAI)
    pianos = [occ for occ in area.source.events(MONDAY, MONDAY + timedelta(days=28)) if occ.occ.title == "Piano lesson"]
    assert len(pianos) == 4 and all(occ.occ.calendar == "家庭" for occ in pianos)
    assert start  # the series came back whole, in its own calendar
    # The last calendar cannot go.
    sidebar.delete_calendar("家庭")
    messages: list[str] = []
    cal_ctx.ops.failed.connect(messages.append)
    assert sidebar.delete_calendar("日程") is None and messages


def test_search_finds_title_location_and_notes_and_jumps(area, cal_ctx, cal_store, profile, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed(cal_store, profile, "牙医复查", at(date(2026, 12, 16), 9), at(date(2026, 12, 16), 10), location="仁济医院")
    seed(
        cal_store,
        profile,
        "Quarterly review",
        at(date(2027, 1, 12), 14),
        at(date(2027, 1, 12), 15),
        description="bring the Q4 numbers",
    )
    seed(cal_store, profile, "Old review", at(date(2026, 10, 1), 14), at(date(2026, 10, 1), 15))
    seed(cal_store, profile, "Standup", at(MONDAY, 9), at(MONDAY, 9, 15), rrule="FREQ=DAILY;COUNT=30")
    area.refresh()
    panel = area.search_panel
    assert [hit.title for hit in panel.search_now("牙医")] == ["牙医复查"]
    assert [hit.title for hit in panel.search_now("仁济")] == ["牙医复查"]  # by location
    assert [hit.title for hit in panel.search_now("q4 NUMBERS")] == ["Quarterly review"]  # notes, any case
    # Upcoming first (the soonest), then past ones, most recent first.
    assert [hit.title for hit in panel.search_now("review")] == ["Quarterly review", "Old review"]
    standup = panel.search_now("standup")[0]
    assert standup.start == datetime(2026, 11, 30, 9, tzinfo=SHANGHAI) or standup.start.hour == 9
    # Typing in the box and pressing Enter jumps to the event and selects it.
    area.focus_search()
    area.nav.search.setText("复查")  # QTest cannot type CJK; the box sees the same textChanged
    qtbot.keyClick(area.nav.search, Qt.Key.Key_Return)
    assert area.anchor == date(2026, 12, 16)
    selected = area.current_view().selected_event()
    assert selected is not None and selected.occ.title == "牙医复查"
    # Hidden calendars stay out of the results.
    area.sidebar.set_visible("日程", False)
    assert area.search_panel.search_now("牙医") == []


def test_search_service_reads_one_profile_only(cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    other = ensure_profile(cal_store, "other")
    seed(cal_store, other, "Secret meeting", at(MONDAY, 9), at(MONDAY, 10))
    seed(cal_store, profile, "Open meeting", at(MONDAY, 9), at(MONDAY, 10))
    hits = SearchService(cal_store, profile).search("meeting", 10, now=NOW, tz=SHANGHAI)
    assert [hit.title for hit in hits] == ["Open meeting"]
    assert SearchService(cal_store, profile).search("", 10) == []
    found = SearchService(cal_store, profile).next_occurrence(hits[0].uid, now=NOW, tz=SHANGHAI)
    assert found is not None and found.start == datetime(2026, 11, 30, 9, tzinfo=SHANGHAI)


def test_show_event_navigates_and_highlights(area, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    uid = seed(cal_store, profile, "Flight CA1501", at(date(2026, 12, 23), 19), at(date(2026, 12, 23), 21))
    area.refresh()
    area.set_view("month")
    area.show_event(uid, datetime(2026, 12, 23, 11, tzinfo=SHANGHAI.__class__("UTC")))  # 19:00 in Shanghai
    assert area.anchor == date(2026, 12, 23)
    assert area.current_view().selected_event().occ.uid == uid
    area.set_view("week")
    assert area.current_view().selected_event().occ.uid == uid  # the highlight follows the view
    area.go_today()
    area.show_event(uid, None)  # no start: its next occurrence
    assert area.anchor == date(2026, 12, 23)
