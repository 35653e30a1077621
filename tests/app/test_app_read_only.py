"""Read-only calendars in the app (issue 29; subscriptions, issue 31 item 6): the sidebar
marks them with a lock and a subscription's last refresh; the editor shows their events but
changes nothing and says why; a drag, a resize or a delete is refused with the same line
before any scope is asked; no editor, menu or duplicate offers them as a target; a
subscription is added and refreshed in the background."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QDialog, QDialogButtonBox

from agent.sync.subscriptions import Fetched, SubscriptionService
from app.calendar import scope_prompt
from app.calendar.event_menu import EventMenu
from app.calendar.week_view import GridItem
from app.subscriptions import SubscriptionRefresher
from tests.support.app_fixtures import at, seed
from tests.support.clock import MONDAY

FEED = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nX-WR-CALNAME:联赛\r\n"
    "BEGIN:VEVENT\r\nUID:match-1\r\nDTSTAMP:20261130T000000Z\r\nDTSTART:20261130T070000Z\r\n"
    "DTEND:20261130T090000Z\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Match\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def stand_in(url: str, etag: str | None, last_modified: str | None) -> Fetched:
    return Fetched(200, FEED.encode(), '"v1"', None)


def subscribed(area, cal_ctx):  # type: ignore[no-untyped-def]
    subscription, _ = SubscriptionService(cal_ctx.store, cal_ctx.profile_id, fetcher=stand_in).subscribe(
        "webcal://feeds.invalid/league.ics"
    )
    cal_ctx.ops.external_change()
    area.refresh()
    return subscription


def match(area):  # type: ignore[no-untyped-def]
    return next(
        item.event
        for item in area.current_view().visible_items()
        if isinstance(item, GridItem) and item.event.occ.title == "Match"
    )


def rows(cal_ctx) -> list[tuple[object, ...]]:  # type: ignore[no-untyped-def]
    return [tuple(row) for row in cal_ctx.store.conn.execute("SELECT uid, calendar_id, ics FROM events ORDER BY uid")]


def test_the_sidebar_marks_it_with_its_last_refresh_and_its_menu(area, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    subscribed(area, cal_ctx)
    texts = [area.sidebar.list.item(i).text() for i in range(area.sidebar.list.count())]
    assert texts[0] == "日程"
    assert texts[1] == "联赛\nRead-only · refreshed 11-30 10:00"  # by the app's clock, in its zone
    assert not area.sidebar.list.item(1).icon().isNull()  # the padlock drawn on its colour
    assert "webcal" not in texts[1] and "http://feeds.invalid/league.ics" in area.sidebar.list.item(1).toolTip()
    menu = area.sidebar.context_menu(area.sidebar.list.item(1))
    actions = [action.text() for action in menu.actions() if action.text()]
    assert actions == ["Rename…", "Change colour…", "Refresh now", "Unsubscribe…", "Subscribe to calendar…"]
    plain = [action.text() for action in area.sidebar.context_menu(area.sidebar.list.item(0)).actions() if action.text()]
    assert "Use for new events" in plain and "Delete…" in plain and "Refresh now" not in plain


def test_the_editor_shows_its_event_read_only_and_refuses_save(area, cal_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    subscription = subscribed(area, cal_ctx)
    before = rows(cal_ctx)
    seen = []

    def run(dialog) -> int:  # type: ignore[no-untyped-def]
        seen.append(dialog)
        dialog.title.setText("Changed")
        dialog.accept()  # Enter on a read-only editor
        return dialog.result()

    area.exec_dialog = run
    assert area.open_editor(match(area), None, None) is False
    dialog = seen[0]
    assert dialog.refusal is not None and dialog.notice.isVisibleTo(dialog)
    assert "'联赛' is a subscription (read-only)" in dialog.notice.text() and dialog.error.isVisibleTo(dialog)
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Save).isEnabled()
    assert [b.text() for b in dialog.buttons.buttons()] == [
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).text(),
        "Close",
    ]
    assert dialog.title.isReadOnly() and not dialog.start_date.isEnabled()
    assert dialog.result() != QDialog.DialogCode.Accepted and rows(cal_ctx) == before
    new = area.editor_factory(cal_ctx, area, occurrence=None, start=at(MONDAY, 9), end=at(MONDAY, 10))
    offered = [new.calendar.itemData(i) for i in range(new.calendar.count())]
    assert subscription.calendar_id not in offered and offered == [cal_ctx.ops.calendars.default().id]


def test_drag_resize_and_delete_are_refused_before_a_scope_is_asked(area, cal_ctx, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    subscribed(area, cal_ctx)
    before = rows(cal_ctx)
    asked: list[str] = []
    monkeypatch.setattr(scope_prompt, "ask_scope", lambda parent, action, title: asked.append(action) or "all")
    messages: list[str] = []
    cal_ctx.ops.failed.connect(messages.append)
    event = match(area)
    assert area._move_requested(event, event.start.replace(hour=18), event.end.replace(hour=20)) is False  # drag
    assert area._move_requested(event, event.start, event.end.replace(hour=21)) is False  # resize
    assert area._delete_requested(event) is False
    assert asked == [] and rows(cal_ctx) == before
    assert len(messages) == 3 and all("'联赛' is a subscription (read-only)" in m for m in messages)


def test_no_menu_or_duplicate_targets_it(area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    subscription = subscribed(area, cal_ctx)
    seed(cal_store, profile, "Mine", at(MONDAY, 9), at(MONDAY, 10))
    area.refresh()
    mine = next(
        item.event
        for item in area.current_view().visible_items()
        if isinstance(item, GridItem) and item.event.occ.title == "Mine"
    )
    menu = EventMenu(mine, cal_ctx.ops.writable_calendars())
    assert subscription.calendar_id not in menu.calendar_actions
    assert area.duplicate(match(area)) is True  # a copy of a subscribed event is the user's own
    copies = cal_store.conn.execute("SELECT calendar_id FROM events WHERE title = 'Match' AND uid != 'match-1'").fetchall()
    assert [row[0] for row in copies] == [cal_ctx.ops.calendars.default().id]


def test_the_refresher_subscribes_and_refreshes_in_the_background(area, cal_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    calls: list[tuple[str, str | None]] = []

    def fetcher(url: str, etag: str | None, last_modified: str | None) -> Fetched:
        calls.append((url, etag))
        return stand_in(url, etag, last_modified) if etag is None else Fetched(304, b"", etag, None)

    refresher = SubscriptionRefresher(cal_ctx, start_delay_ms=None, fetcher=fetcher)
    assert refresher.refresh_now() is False  # nothing subscribed: no fetch at all
    with qtbot.waitSignal(refresher.subscribed, timeout=10_000):
        assert refresher.subscribe("webcals://feeds.invalid/league.ics")
    assert any(area.sidebar.list.item(i).text().startswith("联赛\nRead-only") for i in range(area.sidebar.list.count()))
    with qtbot.waitSignal(refresher.refreshed, timeout=10_000) as blocker:
        assert refresher.refresh_now()
    assert [result.to_json() for result in blocker.args[0]] == [
        {"name": "联赛", "added": 0, "updated": 0, "removed": 0, "error": None}
    ]
    assert calls == [("https://feeds.invalid/league.ics", None), ("https://feeds.invalid/league.ics", '"v1"')]
    qtbot.waitUntil(lambda: not refresher.busy)


def test_the_import_dialog_does_not_offer_it(area, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    from app.io.import_target import ImportTargetDialog

    subscription = subscribed(area, cal_ctx)
    dialog = ImportTargetDialog(cal_ctx, ["/tmp/league.ics"])
    offered = [dialog.existing.itemData(i) for i in range(dialog.existing.count())]
    assert subscription.calendar_id not in offered and offered == [cal_ctx.ops.calendars.default().id]
    dialog.deleteLater()


def test_a_calendar_shared_read_only_by_its_server_is_marked_too(area, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    import json

    from agent.store.db import utc_now_iso
    from agent.store.read_only import READ_ONLY_KEY

    shared = cal_ctx.ops.calendars.add("Team (shared)")
    with cal_ctx.store.transaction() as conn:
        account = conn.execute(
            "INSERT INTO sync_accounts(profile_id, name, url, username, created_at)"
            " VALUES (?, 'dav', 'https://d.invalid/', 'me', ?)",
            (cal_ctx.profile_id, utc_now_iso()),
        ).lastrowid
        conn.execute(
            "INSERT INTO sync_calendars(account_id, remote_url, calendar_id, created_at)"
            " VALUES (?, 'https://d.invalid/t/', ?, ?)",
            (account, shared.id, utc_now_iso()),
        )
        conn.execute(
            "INSERT INTO settings(profile_id, key, value) VALUES (?, ?, ?)",
            (cal_ctx.profile_id, READ_ONLY_KEY, json.dumps([shared.id])),
        )
    area.sidebar.refresh()
    item = area.sidebar.list.item(1)
    assert item.text() == "Team (shared)\nRead-only" and "read-only on its server" in item.toolTip()
    assert shared.id not in [c.id for c in cal_ctx.ops.writable_calendars()]


def test_a_failed_first_fetch_says_why_and_unsubscribe_asks_first(area, cal_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    from agent.sync.subscriptions import FeedError

    def html(url: str, etag: str | None, last_modified: str | None) -> Fetched:
        raise FeedError("sync.subscription_html")

    messages: list[str] = []
    cal_ctx.ops.failed.connect(messages.append)
    refresher = SubscriptionRefresher(cal_ctx, start_delay_ms=None, fetcher=html)
    assert refresher.subscribe("https://login.invalid/cal.ics")
    qtbot.waitUntil(lambda: bool(messages) and not refresher.busy, timeout=10_000)
    assert messages == ["the address answered with a web page (HTML), not a calendar; nothing was changed"]
    assert [c.name for c in cal_ctx.ops.calendars.list()] == ["日程"]
    empty = [action.text() for action in area.sidebar.context_menu(None).actions() if action.text()]
    assert empty == ["Subscribe to calendar…"]

    subscribed(area, cal_ctx)
    area.sidebar.confirm_unsubscribe = lambda text: False
    assert area.sidebar.unsubscribe("联赛") is False and len(cal_ctx.ops.calendars.list()) == 2
    area.sidebar.confirm_unsubscribe = lambda text: True
    assert area.sidebar.unsubscribe("联赛") is True
    assert [c.name for c in cal_ctx.ops.calendars.list()] == ["日程"] and area.sidebar.list.count() == 1


def test_a_refresh_timer_after_the_store_closed_does_nothing(cal_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Found by the full suite after the merge: a window closed before the start-up refresh
    fired, and the timer's refresh raised "store is closed" inside Qt's event loop."""
    refresher = SubscriptionRefresher(cal_ctx, start_delay_ms=None, fetcher=stand_in)
    cal_ctx.store.close()
    assert refresher.refresh_now() is False
    assert not refresher.timer.isActive()
