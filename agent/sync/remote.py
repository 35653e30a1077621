"""One remote calendar collection, through the ``caldav`` library, in the engine's terms.

The engine asks five things: what changed since a token (or everything, with ETags), the
data of some resources, and create / update / delete with preconditions. Everything the
library raises is turned into three outcomes the engine decides on — ``Stale`` (412, the
library's ETag or Schedule-Tag mismatch: someone else wrote first), ``Gone`` (404) and
``RemoteError`` (anything else, reported per item) — so that one bad item never stops the rest.

Resources are keyed by their URL path, unquoted, because servers disagree about quoting
(``@`` vs ``%40``) and the same resource must have one key whatever spelling came back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urlsplit

from caldav.elements import dav
from caldav.elements.base import ValuedBaseElement
from caldav.lib import error as dav_error

if TYPE_CHECKING:
    from caldav.davclient import DAVClient

log = logging.getLogger(__name__)

MULTIGET_CHUNK = 200
ICS_HEADERS = {"Content-Type": "text/calendar; charset=utf-8"}


class GetCTag(ValuedBaseElement):
    """CalendarServer's collection tag: changes whenever anything in the calendar does."""

    tag = "{http://calendarserver.org/ns/}getctag"


class RemoteError(Exception):
    """The server refused or failed one request; the message is fit to report."""


class Stale(RemoteError):
    """Precondition failed: the server's copy is not the version we last saw."""


class Gone(RemoteError):
    """The resource is not on the server (any more)."""


class Exists(RemoteError):
    """A create found something already at that URL, or the UID taken under another name."""


@dataclass
class Listing:
    """Server state to compare with ours.

    ``complete`` listings name every resource, so ours that are missing were deleted there;
    a delta (from a sync token) names only changes and deletions since the token.
    """

    changed: dict[str, str | None] = field(default_factory=dict)  # key -> ETag
    deleted: set[str] = field(default_factory=set)
    token: str | None = None
    ctag: str | None = None
    complete: bool = True
    unchanged: bool = False  # the ctag says nothing moved: nothing was listed


@dataclass(frozen=True)
class Fetched:
    key: str
    etag: str | None
    text: str


def key_of(url: Any) -> str:
    return unquote(urlsplit(str(url)).path)


def describe_error(exc: BaseException) -> str:
    status = getattr(exc, "status", None)
    reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
    text = " ".join(str(reason).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"HTTP {status}: {text}" if status else text


def _strong(etag: str | None) -> str | None:
    return etag if etag and not etag.startswith("W/") else None


class RemoteCalendar:
    def __init__(self, client: DAVClient, url: str, *, use_tokens: bool = True) -> None:
        # Imported here, not at the top: ``caldav`` loads its client stack lazily (PEP 562) and
        # this module is imported before any sync runs.
        from caldav.collection import Calendar

        self.client = client
        # Any: caldav types its calls for both of its clients (``T | Coroutine[..., T]``); this
        # module uses the blocking one only, so each result is the plain ``T``.
        self.calendar: Any = Calendar(client=client, url=url)
        self.url = str(self.calendar.url)
        self.key = key_of(self.url)
        self.use_tokens = use_tokens

    def url_for(self, key: str) -> Any:
        return self.calendar.url.join(quote(key, safe="/:@"))

    def key_for_name(self, name: str) -> str:
        return key_of(self.calendar.url.join(quote(name, safe="")))

    # ---- reading ---------------------------------------------------------------------------

    def listing(self, token: str | None, ctag: str | None = None) -> Listing:
        """Changes since ``token``; without one (or once it expired) a complete listing.

        Servers without sync tokens get a PROPFIND of every ETag, skipped entirely when the
        collection's ctag is still the one we stored.
        """
        if self.use_tokens and token:
            try:
                result = self.calendar.get_objects_by_sync_token(token, load_objects=False, disable_fallback=True)
            except dav_error.DAVError as exc:
                if self.calendar._is_genuine_authorization_error(exc):
                    raise RemoteError(describe_error(exc)) from exc
                if dav.ValidSyncToken.tag not in exc.preconditions:
                    log.info("sync-collection failed (%s); listing ETags instead", exc)
                    self.use_tokens = False
            else:
                deleted = {key_of(url) for url in result.deleted_urls}
                changed = {
                    key_of(obj.url): obj.props.get(dav.GetEtag.tag)
                    for obj in result
                    if key_of(obj.url) not in deleted and key_of(obj.url) != self.key
                }
                return Listing(changed, deleted, str(result.sync_token) if result.sync_token else None, complete=False)
        if self.use_tokens:
            try:
                result = self.calendar.get_objects_by_sync_token(None, load_objects=False, disable_fallback=True)
            except dav_error.DAVError as exc:
                if self.calendar._is_genuine_authorization_error(exc):
                    raise RemoteError(describe_error(exc)) from exc
                log.info("the server has no sync tokens (%s); using ETags", exc)
                self.use_tokens = False
            else:
                if not result.truncated:
                    gone = {key_of(url) for url in result.deleted_urls}
                    changed = {
                        key_of(obj.url): obj.props.get(dav.GetEtag.tag)
                        for obj in result
                        if key_of(obj.url) not in gone and key_of(obj.url) != self.key
                    }
                    token_value = str(result.sync_token) if result.sync_token else None
                    return Listing(changed, set(), token_value, complete=True)
        return self._etag_listing(ctag)

    def _etag_listing(self, known_ctag: str | None) -> Listing:
        try:
            current = self.calendar.get_property(GetCTag())
        except dav_error.DAVError:
            current = None
        if current and known_ctag and current == known_ctag:
            return Listing(ctag=current, complete=False, unchanged=True)
        try:
            response = self.calendar.get_properties([dav.GetEtag()], depth=1, parse_response_xml=False)
            found = response.expand_simple_props([dav.GetEtag()])
        except dav_error.DAVError as exc:
            raise RemoteError(describe_error(exc)) from exc
        changed: dict[str, str | None] = {}
        for href, props in found.items():
            key = key_of(self.calendar.url.join(href))
            if key.rstrip("/") == self.key.rstrip("/") or key.endswith("/"):
                continue
            changed[key] = props.get(dav.GetEtag.tag)
        return Listing(changed, set(), None, ctag=current, complete=True)

    def fetch(self, keys: Iterable[str]) -> tuple[dict[str, Fetched], set[str], dict[str, str]]:
        """(data by key, keys the server no longer has, errors by key), in multiget batches.

        A batch the server refuses is retried one GET at a time, so one resource that
        breaks the REPORT costs only itself.
        """
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Fetched] = {}
        missing: set[str] = set()
        errors: dict[str, str] = {}
        for start in range(0, len(wanted), MULTIGET_CHUNK):
            chunk = wanted[start : start + MULTIGET_CHUNK]
            try:
                objects = self.calendar.multiget([self.url_for(key) for key in chunk])
            except Exception as exc:  # fall back to single GETs, which report per item
                log.info("multiget failed (%s); fetching one by one", exc)
                objects = None
            if objects is not None:
                for obj in objects:
                    raw = obj.raw_data
                    if raw is None:
                        continue
                    key = key_of(obj.url)
                    found[key] = Fetched(key, obj.props.get(dav.GetEtag.tag), raw.decode("utf-8", "replace"))
            for key in chunk:
                if key in found:
                    continue
                try:
                    got = self.get(key)
                except RemoteError as exc:
                    errors[key] = str(exc)
                    continue
                if got is None:
                    missing.add(key)
                else:
                    found[key] = got
        return found, missing, errors

    def get(self, key: str) -> Fetched | None:
        """The resource now, or None when the server has none at ``key``."""
        from caldav.calendarobjectresource import Event

        obj = Event(client=self.client, url=self.url_for(key), parent=self.calendar)
        try:
            obj.load()
        except dav_error.NotFoundError:
            return None
        except Exception as exc:  # DAV and transport errors alike are per item
            raise RemoteError(describe_error(exc)) from exc
        raw = obj.raw_data
        if raw is None:
            return None
        return Fetched(key, obj.etag, raw.decode("utf-8", "replace"))

    # ---- writing ---------------------------------------------------------------------------

    def create(self, key: str, body: bytes) -> str | None:
        """PUT with ``If-None-Match: *``: never overwrite what someone else created meanwhile."""
        try:
            # caldav annotates the body as str but passes it to the HTTP layer as it is: these are
            # the exact UTF-8 bytes the resource was written as.
            response = self.client.put(
                str(self.url_for(key)), body, {**ICS_HEADERS, "If-None-Match": "*"}  # type: ignore[arg-type]
            )
        except Exception as exc:
            raise RemoteError(describe_error(exc)) from exc
        status = int(getattr(response, "status", 0) or 0)
        if status in (200, 201, 204):
            return _strong((response.headers or {}).get("Etag"))
        preconditions = dav_error.parse_preconditions(getattr(response, "_raw", None))
        if status == 412 or dav_error.UID_CONFLICT_PRECONDITIONS.intersection(preconditions):
            raise Exists(f"HTTP {status}: the server already has this event")
        raise RemoteError(f"HTTP {status}: {getattr(response, 'reason', '') or 'the server refused the event'}")

    def update(self, key: str, body: bytes, etag: str) -> str | None:
        """PUT with ``If-Match`` on the ETag we last saw; ``Stale`` when that is not current."""
        from caldav.calendarobjectresource import Event

        obj = Event(client=self.client, url=self.url_for(key), parent=self.calendar, props={dav.GetEtag.tag: etag})
        try:
            obj.save(raw_data=body, precondition="etag", increase_seqno=False)
        except (dav_error.ETagMismatchError, dav_error.ScheduleTagMismatchError) as exc:
            raise Stale(describe_error(exc)) from exc
        except dav_error.NotFoundError as exc:
            raise Gone(describe_error(exc)) from exc
        except Exception as exc:
            if getattr(exc, "status", None) == 412:
                raise Stale(describe_error(exc)) from exc
            raise RemoteError(describe_error(exc)) from exc
        return _strong(obj.etag)

    def delete(self, key: str, etag: str) -> None:
        from caldav.calendarobjectresource import Event

        obj = Event(client=self.client, url=self.url_for(key), parent=self.calendar, props={dav.GetEtag.tag: etag})
        try:
            obj.delete(if_match=etag, precondition="etag")
        except (dav_error.ETagMismatchError, dav_error.ScheduleTagMismatchError) as exc:
            raise Stale(describe_error(exc)) from exc
        except dav_error.NotFoundError as exc:
            raise Gone(describe_error(exc)) from exc
        except Exception as exc:
            if getattr(exc, "status", None) == 412:
                raise Stale(describe_error(exc)) from exc
            raise RemoteError(describe_error(exc)) from exc
