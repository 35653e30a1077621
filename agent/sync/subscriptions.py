"""Subscribed calendars: a published .ics URL kept as a read-only calendar (issue 31 item 6).

``webcal://`` is fetched as ``http://`` and ``webcals://`` as ``https://`` (as Apple and
Thunderbird read them). A fetch has the bounds of a sync request (``agent.sync.transport``:
the body cap of ``Limits.body_bytes`` and an overall deadline, 30 s here), and asks with
``If-None-Match``/``If-Modified-Since`` so an unchanged feed costs one short answer.

A refresh is all or nothing: the whole feed is read and checked first (an HTML page, a body
cut short, a failed or slow fetch changes nothing and is reported), then the calendar is
made equal to it in one transaction. An event whose text differs only in DTSTAMP (servers
stamp every GET) is no change. A feed's UID that already belongs to another of the user's
calendars is left out (never moved or overwritten), as a sync pull does. The writes are the
subscription's own (``EventRepo(feed=calendar)``); every other writer is refused by the
read-only rule (``agent.store.read_only``). Decisions: docs/subscriptions.md.
"""

from __future__ import annotations

import builtins  # the class's own ``list`` method shadows the builtin in later annotations
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from agent.errors import NotFoundError, UserFacingError, ValidationError
from agent.messages.catalogue import render
from agent.services.calendars import Calendar, CalendarService
from agent.services.text import MAX_CALENDAR_NAME
from agent.store import journal_record
from agent.store.components import parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.sync.transport import DEFAULT_LIMITS, BodyTooLarge, BoundedSession, DeadlinePassed, Limits

if TYPE_CHECKING:
    from agent.ics.prepare import Prepared

# A fetch: the sync body cap, and 30 s from asking to the last byte (issue 31's contract).
FETCH_LIMITS = replace(DEFAULT_LIMITS, request_s=30.0, read_s=30.0)
SCHEMES = {"webcal": "http", "webcals": "https", "http": "http", "https": "https"}
_DTSTAMP = re.compile(r"^DTSTAMP[;:][^\n]*\n(?:[ \t][^\n]*\n)*", re.MULTILINE)
_CUT_SHORT = ("ChunkedEncodingError", "IncompleteRead")  # how niquests/urllib3 name a body that stopped early
_HTML = re.compile(rb"^\s*(?:\xef\xbb\xbf)?\s*<(?:!doctype|html|head|body|\?xml)", re.IGNORECASE)


class FeedError(UserFacingError):
    """A fetch that brought no usable calendar; nothing was changed."""


def feed_url(url: str) -> str:
    """The URL to fetch for what the user gave: webcal(s) read as http(s); anything else, a
    URL with a password in it, or one without a host is refused in one line."""
    text = url.strip()
    parts = urlsplit(text)
    scheme = SCHEMES.get(parts.scheme.lower())
    if scheme is None or not parts.hostname:
        raise ValidationError("sync.subscription_bad_url", url=text[:200])
    if "@" in parts.netloc:  # a password would be stored and shown (issue 29, item 9)
        raise ValidationError("sync.subscription_credentials")
    return urlunsplit((scheme, parts.netloc, parts.path or "/", parts.query, ""))


@dataclass(frozen=True)
class Fetched:
    status: int  # 200, or 304 (not modified)
    body: bytes
    etag: str | None
    last_modified: str | None


Fetcher = Callable[[str, str | None, str | None], Fetched]


def fetch(url: str, etag: str | None, last_modified: str | None, limits: Limits = FETCH_LIMITS) -> Fetched:
    """GET ``url`` (already ``feed_url``'s) within ``limits``; a conditional GET when a
    validator is known. Raises ``FeedError`` for every way it can fail."""
    from caldav.lib.http_sync import requests

    holder = _Holder(requests.Session())
    holder.session.max_redirects = 5
    session = BoundedSession(holder, limits)
    headers = {"Accept": "text/calendar, */*;q=0.5", "User-Agent": "Richeng"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    try:
        response = session.request("GET", url, headers=headers, allow_redirects=True)
    except DeadlinePassed as exc:
        raise FeedError("sync.subscription_deadline", seconds=f"{exc.seconds:g}") from None
    except BodyTooLarge as exc:
        raise FeedError("sync.subscription_too_large", limit=exc.limit // (1024 * 1024)) from None
    except Exception as exc:  # refused, reset, TLS, DNS, a body cut short: the library's many kinds
        if type(exc).__name__ in _CUT_SHORT or "IncompleteRead" in str(exc):  # fewer bytes than Content-Length
            raise FeedError("sync.subscription_truncated") from None
        raise FeedError("sync.subscription_unreachable", error=type(exc).__name__, text=str(exc)[:200]) from None
    finally:
        session.inner.close()
    status = int(response.status_code or 0)
    if status == 304:
        return Fetched(304, b"", etag, last_modified)
    if status != 200:
        raise FeedError("sync.subscription_http", status=status)
    body = bytes(response.content or b"")
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) != len(body) and not response.headers.get("Content-Encoding"):
        raise FeedError("sync.subscription_truncated")
    return Fetched(200, body, response.headers.get("ETag"), response.headers.get("Last-Modified"))


@dataclass
class _Holder:
    """What ``BoundedSession`` wraps: an object with a ``session`` (a caldav client elsewhere)."""

    session: Any


@dataclass(frozen=True)
class Feed:
    """A fetched feed read through: its events by (UID, RECURRENCE-ID), the UIDs of events
    it holds that could not be read (kept as they are), and its own name."""

    items: dict[tuple[str, str], Prepared]
    unreadable: set[str]
    name: str | None


def read_feed(body: bytes, url: str) -> Feed:
    """The events of a fetched body. An HTML page, a body that is not a calendar or one cut
    short (no closing ``END:VCALENDAR``) raises ``FeedError``: nothing is applied.

    The reader loads here, not with the module: the app's sidebar lists subscriptions at
    its first paint and needs none of icalendar for that."""
    from agent.ics.importer import own_text, prepare_repaired
    from agent.ics.prepare import CalendarContext, ComponentError
    from agent.ics.reader import IcsReadError, scan, to_utf8

    if _HTML.match(body[:512]):
        raise FeedError("sync.subscription_html")
    if b"BEGIN:VCALENDAR" not in body[:4096].upper():
        raise FeedError("sync.subscription_not_calendar")
    if not body.rstrip().upper().endswith(b"END:VCALENDAR"):
        raise FeedError("sync.subscription_truncated")
    try:
        data, offset, _ = to_utf8(body, url)
        calendars = scan(data, url, offset)
    except (IcsReadError, UnicodeError, ValueError):
        raise FeedError("sync.subscription_not_calendar") from None
    items: dict[tuple[str, str], Prepared] = {}
    unreadable: set[str] = set()
    name: str | None = None
    position = 0
    for raw_calendar in calendars:
        name = name or raw_calendar.text_property("X-WR-CALNAME")
        context = CalendarContext(raw_calendar)
        for span in raw_calendar.spans:
            if span.name != "VEVENT":
                continue
            raw = span.component(data)
            try:
                item = prepare_repaired(raw, context, position)
            except ComponentError as exc:
                unreadable.add(exc.uid or own_text(raw.text, "UID"))
                continue
            position += 1
            items[(item.fields.uid, item.fields.recurrence_id)] = item
    return Feed(items, unreadable - {""}, name)


@dataclass(frozen=True)
class Subscription:
    id: int
    calendar_id: int
    name: str
    url: str
    etag: str | None
    last_modified: str | None
    refreshed_at: str | None
    error: dict[str, Any] | None  # the last failure as {"code", "params"}; None after a fetch that worked

    def error_text(self, lang: str = "en") -> str | None:
        return render(self.error["code"], lang, **self.error["params"]) if self.error else None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "url": self.url, "refreshed_at": self.refreshed_at, "error": self.error_text()}


@dataclass
class RefreshResult:
    """One subscription's refresh, as ``subscriptions refresh`` prints it."""

    name: str
    added: int = 0
    updated: int = 0
    removed: int = 0
    error: FeedError | None = None
    skipped: list[str] = field(default_factory=list)  # feed UIDs already in another calendar

    def to_json(self) -> dict[str, Any]:
        error = str(self.error) if self.error is not None else None
        return {"name": self.name, "added": self.added, "updated": self.updated, "removed": self.removed, "error": error}


class SubscriptionService:
    """Subscribe, list, refresh and remove one profile's subscriptions. ``fetcher`` is the
    network (tests hand a loopback server's URL to the real one, or a stand-in)."""

    _refreshing = threading.Lock()  # the app's timer and a menu click never refresh at once

    def __init__(self, store: Store, profile_id: int, fetcher: Fetcher | None = None) -> None:
        self.store = store
        self.profile_id = profile_id
        self.fetcher: Fetcher = fetcher or fetch
        self.calendars = CalendarService(store, profile_id)

    # ---- reading ----------------------------------------------------------------------

    def list(self) -> list[Subscription]:
        rows = self.store.conn.execute(
            "SELECT s.*, c.name AS name FROM subscriptions s JOIN calendars c ON c.id = s.calendar_id"
            " WHERE s.profile_id = ? ORDER BY c.name",
            (self.profile_id,),
        ).fetchall()
        return [_subscription(row) for row in rows]

    def get(self, name: str) -> Subscription:
        wanted = name.strip().casefold()
        for subscription in self.list():
            if subscription.name.casefold() == wanted:
                return subscription
        names = ", ".join(s.name for s in self.list())
        raise NotFoundError("sync.no_subscription", name=name, names=names or "-")

    def by_calendar(self) -> dict[int, Subscription]:
        """Subscriptions by their calendar's id (the app's sidebar)."""
        return {subscription.calendar_id: subscription for subscription in self.list()}

    # ---- changing ---------------------------------------------------------------------

    def subscribe(self, url: str, name: str | None = None) -> tuple[Subscription, RefreshResult]:
        """Fetch ``url`` and keep it as a new read-only calendar. A first fetch that fails
        makes nothing (one line says why); a name taken by a calendar is refused."""
        target = feed_url(url)
        for existing in self.list():
            if existing.url == target:
                raise ValidationError("sync.subscription_exists", url=target, name=existing.name)
        if name and any(existing.casefold() == name.strip().casefold() for existing in self.calendars.names()):
            raise ValidationError("services.calendar_exists", name=name.strip())  # before any fetch
        fetched = self.fetcher(target, None, None)
        if fetched.status != 200:
            raise FeedError("sync.subscription_not_calendar")
        feed = read_feed(fetched.body, target)
        chosen = (name or feed.name or urlsplit(target).hostname or "subscription").strip()[:MAX_CALENDAR_NAME]
        with self.store.transaction() as conn:
            calendar = self.calendars.add(chosen)
            cur = conn.execute(
                "INSERT INTO subscriptions(profile_id, calendar_id, url, created_at) VALUES (?, ?, ?, ?)",
                (self.profile_id, calendar.id, target, self._stamp()),
            )
            subscription = self._by_id(int(cur.lastrowid or 0))
            result = self._apply(subscription, calendar, fetched, feed)
        return self._by_id(subscription.id), result

    def remove(self, name: str) -> Subscription:
        """Stop the subscription and take its calendar and events away (a refresh would only
        bring them back; the feed still has them)."""
        subscription = self.get(name)
        if len(self.calendars.list()) == 1:
            raise ValidationError("services.last_calendar")
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM subscriptions WHERE id = ?", (subscription.id,))
            self.calendars.delete(subscription.name)
        return subscription

    def refresh(self, name: str | None = None) -> builtins.list[RefreshResult]:
        """Refresh one subscription (by its calendar's name) or all; a failure of one is its
        result's ``error`` and the others go on."""
        chosen = [self.get(name)] if name is not None else self.list()
        with self._refreshing:
            return [self.refresh_one(subscription) for subscription in chosen]

    def refresh_one(self, subscription: Subscription) -> RefreshResult:
        try:
            fetched = self.fetcher(subscription.url, subscription.etag, subscription.last_modified)
            feed = read_feed(fetched.body, subscription.url) if fetched.status == 200 else None
        except FeedError as exc:
            self._failed(subscription, exc)
            return RefreshResult(subscription.name, error=exc)
        with self.store.transaction():
            calendar = self.calendars.by_id(subscription.calendar_id)
            return self._apply(subscription, calendar, fetched, feed)

    # ---- internals --------------------------------------------------------------------

    def _apply(self, subscription: Subscription, calendar: Calendar, fetched: Fetched, feed: Feed | None) -> RefreshResult:
        """Make the calendar equal to ``feed`` (None: not modified) in the open transaction."""
        result = RefreshResult(calendar.name)
        if feed is not None:
            with journal_record.origin(self.store, "sync", label=f"subscription {calendar.name}"):
                self._write(calendar.id, feed, result)
        self.store.conn.execute(
            "UPDATE subscriptions SET etag = ?, last_modified = ?, refreshed_at = ?, last_error = NULL WHERE id = ?",
            (fetched.etag, fetched.last_modified, self._stamp(), subscription.id),
        )
        return result

    def _write(self, calendar_id: int, feed: Feed, result: RefreshResult) -> None:
        conn = self.store.conn
        repo = EventRepo(self.store, self.profile_id, feed=calendar_id)
        held = {
            (row["uid"], row["recurrence_id"]): row
            for row in conn.execute(
                "SELECT uid, recurrence_id, ics FROM events WHERE profile_id = ? AND calendar_id = ?",
                (self.profile_id, calendar_id),
            )
        }
        elsewhere = _uids_elsewhere(conn, self.profile_id, calendar_id, {uid for uid, _ in feed.items})
        touched: set[str] = set()
        for key, item in feed.items.items():
            uid = key[0]
            if uid in elsewhere:
                result.skipped.append(uid)
                continue
            old = held.get(key)
            if old is not None and _without_stamp(old["ics"]) == _without_stamp(item.ics):
                continue
            component = item.component
            if component is None and (item.fields.rrule or item.fields.rdate):  # a series is checked parsed
                component = parse_component(item.ics)
            try:  # a plain event goes as the reader read it (its text and columns), never parsed
                repo.save(component, calendar_id, "import", ics=item.ics, fields=item.fields, source=item.source,
                          materialize=False)  # fmt: skip
            except ValidationError:  # a series the store refuses (docs/ics.md): skipped, its stored copy kept
                feed.unreadable.add(uid)
                continue
            touched.add(uid)
            if old is None:
                result.added += 1
            else:
                result.updated += 1
        gone = [key for key in held if key not in feed.items and key[0] not in feed.unreadable]
        for uid, recurrence_id in sorted(gone, key=lambda key: (key[0], key[1] == "")):
            if repo.row(uid, recurrence_id) is None:  # went with its master
                continue
            repo.delete(uid, recurrence_id or None)
            touched.add(uid)
            result.removed += 1
        for uid in sorted(touched):
            repo.expander.materialize(uid)

    def _stamp(self) -> str:
        """Now by the store's clock (``--now`` moves it), as UTC ISO text."""
        return self.store.clock().astimezone(UTC).isoformat(timespec="seconds")

    def _failed(self, subscription: Subscription, exc: FeedError) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE subscriptions SET last_error = ? WHERE id = ?",
                (json.dumps({"code": exc.code, "params": exc.params}, ensure_ascii=False), subscription.id),
            )

    def _by_id(self, subscription_id: int) -> Subscription:
        row = self.store.conn.execute(
            "SELECT s.*, c.name AS name FROM subscriptions s JOIN calendars c ON c.id = s.calendar_id WHERE s.id = ?",
            (subscription_id,),
        ).fetchone()
        return _subscription(row)


def _uids_elsewhere(conn: Any, profile_id: int, calendar_id: int, uids: set[str]) -> set[str]:
    found: set[str] = set()
    listed = sorted(uids)
    for start in range(0, len(listed), 500):
        chunk = listed[start : start + 500]
        marks = ",".join("?" * len(chunk))
        found |= {
            row[0]
            for row in conn.execute(
                f"SELECT DISTINCT uid FROM events WHERE profile_id = ? AND calendar_id != ? AND uid IN ({marks})",
                (profile_id, calendar_id, *chunk),
            )
        }
    return found


def _without_stamp(ics: str) -> str:
    """The event's text without DTSTAMP: a feed stamps every answer anew."""
    return _DTSTAMP.sub("", ics.replace("\r\n", "\n"))


def _subscription(row: Any) -> Subscription:
    error = None
    if row["last_error"]:
        try:
            error = json.loads(row["last_error"])
        except ValueError:
            error = None
    return Subscription(
        int(row["id"]), int(row["calendar_id"]), str(row["name"]), str(row["url"]), row["etag"],
        row["last_modified"], row["refreshed_at"], error,
    )  # fmt: skip
