"""Subscribed calendars (issue 31 item 6) against a loopback HTTP server written here.

The server serves a feed whose text the test changes, answers ``If-None-Match`` with 304,
and on other paths misbehaves: an HTML page, a body cut short (fewer bytes than its
Content-Length, or no closing ``END:VCALENDAR``), a body that trickles for ever, an endless
body. Each failure must change nothing and be reported; limits are made small
(``transport.Limits``) and tests assert on the error, never on how long it took.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from agent.cli.main import main
from agent.errors import ValidationError
from agent.services.calendars import CalendarService
from agent.services.editing import EditService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile
from agent.store.read_only import ReadOnlyCalendarError
from agent.sync.subscriptions import (
    FETCH_LIMITS,
    FeedError,
    Fetched,
    SubscriptionService,
    feed_url,
    fetch,
    read_feed,
)

SMALL = replace(FETCH_LIMITS, request_s=1.5, read_s=1.0, body_bytes=256 * 1024)
NOW = "2026-12-01T10:00:00+08:00"


def vevent(uid: str, summary: str, day: int, stamp: str = "20261201T000000Z") -> str:
    return (
        f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:{stamp}\r\nDTSTART:202612{day:02d}T020000Z\r\n"
        f"DTEND:202612{day:02d}T030000Z\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\n"
    )


def calendar(*events: str, name: str = "联赛 League") -> str:
    head = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//feed//EN\r\nX-WR-CALNAME:{name}\r\n"
    return head + "".join(events) + "END:VCALENDAR\r\n"


@dataclass
class Feed:
    body: str = ""
    requests: list[dict[str, str]] = field(default_factory=list)


class Handler(BaseHTTPRequestHandler):
    feed: Feed

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self.feed.requests.append({"path": self.path, **{k: v for k, v in self.headers.items()}})
        route = getattr(self, "_" + self.path.strip("/").split(".")[0], None)
        if route is None:
            self.send_error(404)
            return
        route()

    def _send(self, body: bytes, status: int = 200, kind: str = "text/calendar", length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def _feed(self) -> None:
        body = self.feed.body.encode()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar; charset=utf-8")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", "Tue, 01 Dec 2026 00:00:00 GMT")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _html(self) -> None:
        self._send(b"<!DOCTYPE html><html><body>Sign in</body></html>", kind="text/html")

    def _short(self) -> None:  # fewer bytes than promised, then the connection ends
        body = self.feed.body.encode()
        self._send(body[: len(body) // 2], length=len(body))
        self.close_connection = True

    def _cut(self) -> None:  # complete by its length, but the calendar never closes
        self._send(self.feed.body.encode()[:-40])

    def _refused(self) -> None:  # the connection ends before any answer
        self.close_connection = True
        self.connection.shutdown(2)

    def _missing(self) -> None:
        self._send(b"gone", status=500, kind="text/plain")

    def _slow(self) -> None:  # one byte at a time for as long as the client listens
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.end_headers()
        try:
            for byte in self.feed.body.encode():
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass

    def _huge(self) -> None:  # an endless body without a length
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.end_headers()
        chunk = b"X" * 65536
        try:
            for _ in range(10_000):
                self.wfile.write(chunk)
        except OSError:
            pass


@pytest.fixture
def server() -> Iterator[tuple[str, Feed]]:
    feed = Feed(calendar(vevent("a", "Match A", 5), vevent("b", "Match B", 6)))
    handler = type("H", (Handler,), {"feed": feed})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{httpd.server_address[1]}", feed
    httpd.shutdown()
    httpd.server_close()


def small_fetch(url: str, etag: str | None, last_modified: str | None) -> Fetched:
    return fetch(url, etag, last_modified, SMALL)


def service(store: Store) -> SubscriptionService:
    return SubscriptionService(store, ensure_profile(store), fetcher=small_fetch)


def titles(store: Store, calendar_id: int) -> list[str]:
    rows = store.conn.execute("SELECT title FROM events WHERE calendar_id = ? ORDER BY uid", (calendar_id,))
    return [row[0] for row in rows]


def test_webcal_addresses_are_fetched_over_http() -> None:
    assert feed_url("webcal://example.org/a.ics") == "http://example.org/a.ics"
    assert feed_url("webcals://example.org/a.ics?x=1") == "https://example.org/a.ics?x=1"
    assert feed_url(" https://example.org ") == "https://example.org/"
    for bad in ("ftp://example.org/a.ics", "file:///etc/passwd", "example.org/a.ics", "webcal://"):
        with pytest.raises(ValidationError):
            feed_url(bad)
    with pytest.raises(ValidationError) as caught:
        feed_url("https://me:secret@example.org/a.ics")
    assert "cannot hold a user name or password" in str(caught.value) and "secret" not in str(caught.value)
    with pytest.raises(FeedError) as not_ics:
        read_feed(b"hello, not a calendar", "https://example.org/a.ics")
    assert str(not_ics.value) == "the address did not answer with an iCalendar calendar; nothing was changed"


def test_subscribe_refresh_with_etag_dtstamp_only_and_real_changes(store: Store, server: tuple[str, Feed]) -> None:
    host, feed = server
    subs = service(store)
    subscription, first = subs.subscribe(f"webcal://{host}/feed.ics")
    assert subscription.name == "联赛 League" and subscription.url == f"http://{host}/feed.ics"
    assert (first.added, first.updated, first.removed, first.error) == (2, 0, 0, None)
    assert titles(store, subscription.calendar_id) == ["Match A", "Match B"]
    assert subs.list()[0].etag and subs.list()[0].refreshed_at

    [same] = subs.refresh()
    assert same.to_json() == {"name": "联赛 League", "added": 0, "updated": 0, "removed": 0, "error": None}
    assert feed.requests[-1]["If-None-Match"] == subs.list()[0].etag  # a conditional GET, answered 304
    assert feed.requests[-1]["If-Modified-Since"] == "Tue, 01 Dec 2026 00:00:00 GMT"

    feed.body = calendar(vevent("a", "Match A", 5, "20261202T111111Z"), vevent("b", "Match B", 6, "20261202T111111Z"))
    [stamped] = subs.refresh("联赛 league")
    assert (stamped.added, stamped.updated, stamped.removed) == (0, 0, 0)  # only DTSTAMP moved: no change

    feed.body = calendar(vevent("a", "Match A moved", 7), vevent("c", "Match C", 8))
    [changed] = subs.refresh()
    assert (changed.added, changed.updated, changed.removed, changed.error) == (1, 1, 1, None)
    assert titles(store, subscription.calendar_id) == ["Match A moved", "Match C"]
    assert store.conn.execute("SELECT origin FROM change_journal ORDER BY id DESC").fetchone()[0] == "sync"  # not undone


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("html.ics", "sync.subscription_html"),
        ("short.ics", "sync.subscription_truncated"),
        ("refused.ics", "sync.subscription_unreachable"),
        ("cut.ics", "sync.subscription_truncated"),
        ("missing.ics", "sync.subscription_http"),
        ("slow.ics", "sync.subscription_deadline"),
        ("huge.ics", "sync.subscription_too_large"),
    ],
)
def test_a_bad_fetch_changes_nothing_and_is_reported(store: Store, server: tuple[str, Feed], path: str, code: str) -> None:
    host, feed = server
    subs = service(store)
    subscription, _ = subs.subscribe(f"http://{host}/feed.ics")
    before = store.conn.execute("SELECT uid, ics FROM events ORDER BY uid").fetchall()
    with store.transaction() as conn:  # the same subscription, now pointing at a bad answer
        conn.execute("UPDATE subscriptions SET url = ?, etag = NULL WHERE id = ?", (f"http://{host}/{path}", subscription.id))
    feed.body = calendar(vevent("z", "Would replace everything", 9))
    [result] = subs.refresh()
    assert result.error is not None and result.error.code == code, result.to_json()
    assert result.to_json()["error"] == str(result.error) and (result.added, result.removed) == (0, 0)
    assert store.conn.execute("SELECT uid, ics FROM events ORDER BY uid").fetchall() == before
    listed = subs.list()[0]
    assert listed.error is not None and listed.error["code"] == code and listed.error_text("zh")
    with pytest.raises(FeedError):  # and a first fetch like it subscribes nothing
        subs.subscribe(f"http://{host}/{path}?again")
    assert len(subs.list()) == 1


def test_a_feed_uid_already_in_another_calendar_is_left_alone(store: Store, server: tuple[str, Feed]) -> None:
    host, _ = server
    profile_id = ensure_profile(store)
    mine = CalendarService(store, profile_id).default().id
    with store.transaction():
        EventRepo(store, profile_id).save(build_event("My own", date(2026, 12, 5), date(2026, 12, 6), uid="a"), mine, "user")
    subscription, result = service(store).subscribe(f"http://{host}/feed.ics", "Feed")
    assert result.added == 1 and result.skipped == ["a"]
    assert titles(store, mine) == ["My own"] and titles(store, subscription.calendar_id) == ["Match B"]


def cli(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, Any, str]:
    code = main(["--db", str(db), "--now", NOW, "--tz", "Asia/Shanghai", *argv])
    out = capsys.readouterr()
    text = out.out.strip()
    return code, json.loads(text) if text.startswith(("{", "[")) else text, out.err


def test_the_cli_contract_and_every_write_into_it_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: tuple[str, Feed]
) -> None:
    host, feed = server
    db = tmp_path / "r.sqlite3"
    code, made, _ = cli(capsys, db, "--json", "subscribe", f"webcal://{host}/feed.ics", "--name", "Team")
    assert code == 0 and made["name"] == "Team" and made["added"] == 2
    code, _, err = cli(capsys, db, "subscribe", f"http://{host}/feed.ics")  # the same feed again
    assert code == 2 and err.strip() == f"richeng: http://{host}/feed.ics is already subscribed (calendar 'Team')"
    requests = len(feed.requests)
    code, _, err = cli(capsys, db, "subscribe", f"http://{host}/feed.ics?again", "--name", "team")
    assert code == 2 and err.strip() == "richeng: a calendar named 'team' already exists"
    assert len(feed.requests) == requests  # refused before fetching
    code, _, err = cli(capsys, db, "subscribe", "ftp://example.org/x.ics")
    assert code == 2 and "must start with webcal://" in err
    code, listed, _ = cli(capsys, db, "--json", "subscriptions", "list")
    assert code == 0 and [item["name"] for item in listed] == ["Team"] and listed[0]["error"] is None
    assert listed[0]["refreshed_at"] == "2026-12-01T02:00:00+00:00"  # the --now clock, not the real one
    code, results, _ = cli(capsys, db, "--json", "subscriptions", "refresh")
    assert code == 0 and results == [{"name": "Team", "added": 0, "updated": 0, "removed": 0, "error": None}]
    assert [list(item) for item in results] == [["name", "added", "updated", "removed", "error"]]

    refusals = [
        ("events", "add", "--title", "Mine", "--date", "D+1", "--time", "15:00", "--calendar", "Team"),
        ("quick", "明天下午三点开会", "--calendar", "Team"),
    ]
    ics = tmp_path / "in.ics"
    ics.write_text(calendar(vevent("n", "New", 9)))
    refusals.append(("import", str(ics), "--calendar", "Team"))
    for argv in refusals:
        code, out, err = cli(capsys, db, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
        assert "'Team' is a subscription (read-only)" in err and "nothing was written" in err
    code, events, _ = cli(capsys, db, "--json", "events", "list", "--start", "D-1", "--end", "D+30")
    assert sorted(event["title"] for event in events) == ["Match A", "Match B"]

    with Store(db) as store:
        profile_id = ensure_profile(store)
        week = (datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 9, tzinfo=UTC))
        occ = EventRepo(store, profile_id).occurrences(*week, ZoneInfo("Asia/Shanghai"))[0]
        with pytest.raises(ReadOnlyCalendarError):  # edit and delete: the service the editor uses
            EditService(store, profile_id).delete(occ)

    feed.body = "<html>oops</html>"
    code, results, _ = cli(capsys, db, "--json", "subscriptions", "refresh", "Team")
    assert code == 1 and results[0]["error"] and "nothing was changed" in results[0]["error"]
    code, out, err = cli(capsys, db, "subscriptions", "refresh", "Nope")
    assert code == 2 and "no subscription called 'Nope'" in err
    code, removed, _ = cli(capsys, db, "--json", "subscriptions", "remove", "Team")
    assert code == 0 and removed == {"name": "Team", "removed": True}
    code, listed, _ = cli(capsys, db, "--json", "subscriptions", "list")
    assert listed == []


def test_an_event_the_store_refuses_is_skipped_and_the_rest_applied(store: Store) -> None:
    bad = vevent("bad", "Never advances", 9).replace("END:VEVENT", "RRULE:FREQ=DAILY;INTERVAL=0\r\nEND:VEVENT")
    body = calendar(vevent("a", "Match A", 5), bad).encode()
    subs = SubscriptionService(store, ensure_profile(store), fetcher=lambda url, etag, modified: Fetched(200, body, None, None))
    subscription, result = subs.subscribe("https://feeds.invalid/a.ics")
    assert (result.added, result.error) == (1, None)
    assert titles(store, subscription.calendar_id) == ["Match A"]
