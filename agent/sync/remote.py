"""One remote calendar collection, over the ``caldav`` client's HTTP, in the engine's terms.

The engine asks five things: what changed since a token (or everything, with ETags), the
data of some resources, and create / update / delete with preconditions. The requests are
written here (``davxml``) and sent with ``DAVClient.request``, so every answer is checked for
what it must be before it means anything: only a 404 or 410 to a GET, or a resource missing
from a *successful* listing, means "the server has none". A 5xx, a web page, a cut body or
a dropped connection is a failure, never an empty answer — read as "none", it deleted local
events (issue 19). What the library or the network raises becomes one of the failures in
``remote_errors``.

Resources are keyed by their URL path, unquoted (``davxml.key_of``), because servers
disagree about quoting (``@`` vs ``%40``) and one resource must have one key.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin, urlsplit

from caldav.lib import error as dav_error

from agent.sync import davxml
from agent.sync.davxml import Unreadable, key_of
from agent.sync.remote_errors import (
    Exists,
    Gone,
    Outside,
    RateLimited,
    RemoteError,
    Unavailable,
    classify_failure,
    describe_failure,
    describe_transport,
)
from agent.sync.transport import BodyTooLarge, DeadlinePassed

if TYPE_CHECKING:
    from caldav.davclient import DAVClient

log = logging.getLogger(__name__)

MULTIGET_CHUNK = 200
MAX_SYNC_PAGES = 200  # a server that says "truncated" forever is a failure, not a loop
ICS_HEADERS = {"Content-Type": "text/calendar; charset=utf-8"}
XML_HEADERS = {"Content-Type": "application/xml; charset=utf-8"}
# Statuses that mean "this server has no sync-collection REPORT": list ETags instead.
_NO_SYNC_REPORT = {400, 403, 404, 405, 415, 422, 501}


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
    refused: list[str] = field(default_factory=list)  # hrefs outside the collection, as written


@dataclass(frozen=True)
class Fetched:
    key: str
    etag: str | None
    text: str


@dataclass
class Fetch:
    """What ``RemoteCalendar.fetch`` got: data, keys the server said it has not, failures.

    ``batch_errors``: multiget REPORTs that failed and were made up for one GET at a time.
    """

    found: dict[str, Fetched] = field(default_factory=dict)
    missing: set[str] = field(default_factory=set)
    errors: dict[str, str] = field(default_factory=dict)
    batch_errors: list[str] = field(default_factory=list)


def _strong(etag: str | None) -> str | None:
    return etag if etag and not etag.startswith("W/") else None


class RemoteCalendar:
    def __init__(self, client: DAVClient, url: str, *, use_tokens: bool = True, max_entries: int = 200_000) -> None:
        self.client = client
        self.url = url if url.endswith("/") else url + "/"
        self.key = key_of(self.url)
        self.use_tokens = use_tokens
        self.max_entries = max_entries

    def url_for(self, key: str) -> str:
        """The URL of the member ``key``; ``Outside`` unless it lies directly in the collection."""
        if not self.is_member(key):
            raise Outside("sync.href_outside", href=key[:200])
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}{quote(key, safe='/:@')}"

    def is_member(self, key: str) -> bool:
        """``key`` (an unquoted path) names a resource right inside this collection."""
        if not key.startswith(self.key) or len(key) == len(self.key):
            return False
        name = key[len(self.key) :]
        return "/" not in name and "\\" not in name and name not in (".", "..") and not any(ord(c) < 32 for c in name)

    def inside(self, href: str) -> bool:
        """``href`` as a server wrote it: same origin as the collection, and a member of it."""
        parts, own = urlsplit(href), urlsplit(self.url)
        if parts.scheme or parts.netloc:  # absolute, or ``//host/...``: only our own origin
            return _origin(parts, own.scheme) == _origin(own, own.scheme)
        return True

    def key_for_name(self, name: str) -> str:
        return key_of(urljoin(self.url, quote(name, safe="")))

    # ---- one request -----------------------------------------------------------------------

    def _request(self, method: str, url: str, body: str | bytes = "", headers: dict[str, str] | None = None) -> Any:
        """Send one request; the answer whatever its status, or the failure as ours."""
        try:
            # caldav annotates the body as str and sends bytes as they are (a resource's UTF-8).
            return self.client.request(url, method, body, headers or {})  # type: ignore[arg-type]
        except dav_error.AuthorizationError as exc:  # the library raises for 401 and 403
            if exc.status == 401 or (exc.status is None and not exc.preconditions):
                raise Unavailable("sync.auth_refused_401", status=401) from None
            code, params = describe_failure(exc)
            raise RemoteError(code, status=exc.status, preconditions=exc.preconditions, **params) from None
        except dav_error.RateLimitError as exc:  # 429, or 503 with Retry-After: stop, come back later
            seconds = exc.retry_after_seconds
            raise RateLimited(
                "sync.retry_after" if seconds is not None else "sync.rate_limited",
                status=429,
                seconds=round(seconds) if seconds is not None else None,
                host=urlsplit(url).netloc,
            ) from None
        except dav_error.DAVError as exc:
            code, params = describe_failure(exc)
            raise RemoteError(code, status=getattr(exc, "status", None), **params) from None
        except DeadlinePassed as exc:  # a server that answers too slowly to finish
            raise Unavailable("sync.deadline", host=urlsplit(url).netloc, seconds=round(exc.seconds, 1)) from None
        except BodyTooLarge as exc:
            raise RemoteError("sync.too_big", method=method, mb=round(exc.limit / 1048576, 1)) from None
        except OSError as exc:  # connection refused, reset, timed out, answer cut off
            code, params = describe_transport(exc, url, getattr(self.client, "timeout", "?"))
            raise Unavailable(code, **params) from None
        except Exception as exc:  # an answer that says it is XML and is not (cut short)
            raise RemoteError("sync.answer_unreadable", method=method, error=type(exc).__name__) from None

    @staticmethod
    def _failed(response: Any, what: str) -> RemoteError:
        raw = getattr(response, "_raw", None)
        reason = " ".join(str(getattr(response, "reason", "") or "").split())
        return RemoteError(
            "sync.http_failed_reason" if reason else "sync.http_failed",
            status=response.status,
            preconditions=dav_error.parse_preconditions(raw),
            what=what,
            http=response.status,
            reason=reason,
        )

    def _read(self, response: Any, what: str) -> davxml.Multistatus:
        """A multistatus answer, or the reason it is not one."""
        if response.status not in (200, 207):
            raise self._failed(response, what)
        try:
            return davxml.read_multistatus(response.tree, self.key)
        except Unreadable as exc:
            raise RemoteError("sync.answer_unusable", what=what, text=str(exc)) from None

    def _written(self, response: Any, what: str) -> None:
        """A write went through only on a 2xx that came from a CalDAV server; a 207 only
        when every status inside it is a 2xx (a multistatus can carry a refusal)."""
        if not 200 <= response.status < 300:
            raise self._failed(response, what)
        if davxml.is_web_page(response.headers):
            raise RemoteError("sync.web_page", what=what, http=response.status)
        if response.status == 207:
            try:
                page = davxml.read_multistatus(response.tree, self.key)
            except Unreadable as exc:
                raise RemoteError("sync.answer_unusable", what=what, text=str(exc)) from None
            for entry in page.entries:
                if entry.status is not None and not 200 <= entry.status < 300:
                    raise RemoteError("sync.failed_inside", status=entry.status, what=what, http=entry.status)

    # ---- reading ---------------------------------------------------------------------------

    def listing(self, token: str | None, ctag: str | None = None) -> Listing:
        """Changes since ``token``; without one (or once it expired) a complete listing.

        Servers without sync tokens get a PROPFIND of every ETag, skipped entirely when the
        collection's ctag is still the one we stored.
        """
        if self.use_tokens:
            found = self._sync_listing(token)
            if found is not None:
                return found
        return self._etag_listing(ctag)

    def _sync_listing(self, token: str | None) -> Listing | None:
        """RFC 6578; None when the server has no sync-collection REPORT (or cannot page it)."""
        complete = not token
        changed: dict[str, str | None] = {}
        deleted: set[str] = set()
        refused: list[str] = []
        for _ in range(MAX_SYNC_PAGES):
            try:
                response = self._request("REPORT", self.url, davxml.sync_collection(token), {"Depth": "1", **XML_HEADERS})
                if response.status not in (200, 207):
                    raise self._failed(response, "the sync REPORT")
            except Unavailable:
                raise
            except RemoteError as exc:
                if davxml.VALID_SYNC_TOKEN in exc.preconditions and token and not complete:
                    log.info("the server forgot our sync token; listing everything")
                    return self._sync_listing(None)
                if exc.status in _NO_SYNC_REPORT or davxml.SUPPORTED_REPORT in exc.preconditions:
                    log.info("no sync-collection REPORT (%s); listing ETags", exc)
                    self.use_tokens = False
                    return None
                raise
            page = self._read(response, "the sync REPORT")
            if not page.sync_token:
                raise RemoteError("sync.no_sync_token")
            for entry in self._members(page.entries, refused):
                if entry.status in (404, 410):
                    deleted.add(entry.key)
                    changed.pop(entry.key, None)
                else:
                    changed[entry.key] = entry.text(davxml.GETETAG)
                    deleted.discard(entry.key)
            self._check_size(len(changed) + len(deleted))
            if not page.truncated:
                # A listing with hrefs we refused is not taken as whole: were the collection
                # named another way than its hrefs, "missing" would delete every event here.
                whole = complete and not refused
                return Listing(changed, set() if complete else deleted, page.sync_token, complete=whole, refused=refused)
            if complete:  # some servers cannot page an initial sync: the ETags say it all
                log.info("initial sync-collection truncated; listing ETags")
                return None
            token = page.sync_token
        raise RemoteError("sync.still_truncated", pages=MAX_SYNC_PAGES)

    def _ctag(self) -> str | None:
        try:
            response = self._request("PROPFIND", self.url, davxml.CTAG_PROPFIND, {"Depth": "0", **XML_HEADERS})
            page = self._read(response, "PROPFIND getctag")
        except Unavailable:
            raise
        except RemoteError:  # no ctag: list every time
            return None
        return next((entry.text(davxml.GETCTAG) for entry in page.entries if entry.text(davxml.GETCTAG)), None)

    def _etag_listing(self, known_ctag: str | None) -> Listing:
        current = self._ctag()
        if current and known_ctag and current == known_ctag:
            return Listing(ctag=current, complete=False, unchanged=True)
        response = self._request("PROPFIND", self.url, davxml.ETAG_PROPFIND, {"Depth": "1", **XML_HEADERS})
        page = self._read(response, "the PROPFIND listing")
        refused: list[str] = []
        changed = {entry.key: entry.text(davxml.GETETAG) for entry in self._members(page.entries, refused)}
        self._check_size(len(changed))
        return Listing(changed, set(), None, ctag=current, complete=not refused, refused=refused)

    def _members(self, entries: list[davxml.Entry], refused: list[str]) -> Iterator[davxml.Entry]:
        """The listing's calendar objects inside this collection; the others' hrefs go to ``refused``."""
        for entry in davxml.members(entries, self.key):
            if self.inside(entry.href) and self.is_member(entry.key):
                yield entry
            elif len(refused) < 100:  # said, a hundred at most: a listing of a million is one failure
                refused.append(entry.href or entry.key)

    def _check_size(self, count: int) -> None:
        if count > self.max_entries:
            raise RemoteError("sync.listing_too_long", limit=self.max_entries)

    def read_only(self) -> bool | None:
        """Whether the server lets us write here (RFC 3744 ``current-user-privilege-set``);
        None when it does not say. Nextcloud answers a write to a read-only share with 404,
        which must never read as "already gone": a read-only calendar is never written."""
        try:
            response = self._request("PROPFIND", self.url, davxml.PRIVILEGE_PROPFIND, {"Depth": "0", **XML_HEADERS})
            page = self._read(response, "PROPFIND privileges")
        except Unavailable:
            raise
        except RemoteError:
            return None
        for entry in page.entries:
            found = davxml.privileges(entry)
            if found is not None:
                return not found.intersection(davxml.WRITE_PRIVILEGES)
        return None

    def user_addresses(self) -> tuple[str, ...]:
        """The user's calendar user addresses, without ``mailto:`` (RFC 6638: the
        ``calendar-user-address-set`` of the ``current-user-principal``); () when the server
        does not say. Two PROPFINDs on this server's origin only; sync asks once a run, and
        only when an upload names people (``scheduling.quiet`` must know the user's line)."""
        try:
            return _addresses(self._principal(davxml.ADDRESS_PROPFIND))
        except Unavailable:
            raise
        except RemoteError:
            return ()

    def scheduling(self) -> tuple[str | None, tuple[str, ...]]:
        """The principal's schedule inbox URL (RFC 6638 ``schedule-inbox-URL``, this server's
        origin only; None when it names none) and the user's addresses, in one PROPFIND of
        the principal; a failed request raises."""
        entries = self._principal(davxml.INBOX_PROPFIND)
        hrefs = [href for entry in entries for href in davxml.hrefs(entry, davxml.SCHEDULE_INBOX_URL)]
        inbox = urljoin(self.url, hrefs[0]) if hrefs and self.inside(hrefs[0]) else None
        return inbox, _addresses(entries)

    def _principal(self, body: str) -> list[davxml.Entry]:
        """The ``current-user-principal``'s answer to ``body`` (same origin only, else none)."""
        page = self._read(
            self._request("PROPFIND", self.url, davxml.PRINCIPAL_PROPFIND, {"Depth": "0", **XML_HEADERS}), "PROPFIND principal"
        )
        found = [href for entry in page.entries for href in davxml.hrefs(entry, davxml.CURRENT_USER_PRINCIPAL)]
        if not found or not self.inside(found[0]):
            return []
        response = self._request("PROPFIND", urljoin(self.url, found[0]), body, {"Depth": "0", **XML_HEADERS})
        return self._read(response, "PROPFIND principal").entries

    def fetch(self, keys: Iterable[str]) -> Fetch:
        """The resources at ``keys``, in multiget batches.

        A batch the server refuses is made up one GET at a time, so a resource that breaks
        the REPORT costs only itself; a GET that fails is that key's error. Only a GET
        answered 404 or 410 puts a key in ``missing``.
        """
        wanted = list(dict.fromkeys(keys))
        result = Fetch()
        for start in range(0, len(wanted), MULTIGET_CHUNK):
            chunk = wanted[start : start + MULTIGET_CHUNK]
            try:
                got = self._multiget(chunk)
            except Unavailable:
                raise
            except RemoteError as exc:
                log.info("multiget failed (%s); fetching one by one", exc)
                result.batch_errors.append(str(exc))
                got = {}
            result.found.update(got)
            for key in chunk:
                if key in got:
                    continue
                try:
                    one = self.get(key)
                except Unavailable:
                    raise
                except RemoteError as exc:
                    result.errors[key] = str(exc)
                    continue
                if one is None:
                    result.missing.add(key)
                else:
                    result.found[key] = one
        return result

    def fetch_batches(self, keys: Iterable[str]) -> Iterator[Fetch]:
        """``fetch`` one multiget batch at a time, so the caller stores each batch before the
        next arrives rather than holding every resource of a first pull at once.

        (Fetching the next batch on a thread while this one is stored was tried: with the
        GIL the two halves slowed each other down as much as they overlapped.)"""
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), MULTIGET_CHUNK):
            yield self.fetch(wanted[start : start + MULTIGET_CHUNK])

    def _multiget(self, keys: list[str]) -> dict[str, Fetched]:
        """One calendar-multiget; a member it lacks or sends unusable is left for a GET."""
        response = self._request("REPORT", self.url, davxml.multiget(keys), XML_HEADERS)  # no Depth: RFC 4791 7.9
        page = self._read(response, "calendar-multiget")
        wanted = set(keys)
        found: dict[str, Fetched] = {}
        for entry in page.entries:
            if entry.key not in wanted or entry.status not in (None, 200):
                continue
            try:
                text = davxml.calendar_text(entry.text(davxml.CALENDAR_DATA))
            except Unreadable:
                continue
            found[entry.key] = Fetched(entry.key, entry.text(davxml.GETETAG), text)
        return found

    def get(self, key: str) -> Fetched | None:
        """The resource now, or None when the server answers that it has none (404, 410)."""
        response = self._request("GET", self.url_for(key), "", {"Accept": "text/calendar"})
        if response.status in (404, 410):
            return None
        if response.status != 200:
            raise self._failed(response, f"GET {key}")
        try:
            text = davxml.calendar_text(response.raw)
        except Unreadable as exc:
            raise RemoteError("sync.get_unusable", key=key, text=str(exc)) from None
        except UnicodeDecodeError as exc:  # this resource only: the others still come
            raise RemoteError("sync.not_utf8", key=key, position=exc.start) from None
        return Fetched(key, (response.headers or {}).get("ETag"), text)

    # ---- writing ---------------------------------------------------------------------------

    def create(self, key: str, body: bytes) -> str | None:
        """PUT with ``If-None-Match: *``: never overwrite what someone else created meanwhile."""
        try:
            response = self._request("PUT", self.url_for(key), body, {**ICS_HEADERS, "If-None-Match": "*"})
            self._written(response, "PUT")
        except Unavailable:
            raise
        except RemoteError as exc:
            if exc.status == 412 or set(davxml.UID_CONFLICT).intersection(exc.preconditions):
                raise Exists("sync.already_there", status=exc.status, http=exc.status) from None
            raise
        return _strong((response.headers or {}).get("ETag"))

    def update(self, key: str, body: bytes, etag: str) -> str | None:
        """PUT with ``If-Match`` on the ETag we last saw; ``Stale`` when that is not current."""
        try:
            response = self._request("PUT", self.url_for(key), body, {**ICS_HEADERS, "If-Match": etag})
            self._written(response, "PUT")
        except Unavailable:
            raise
        except RemoteError as exc:
            raise self._refused(key, exc) from None
        return _strong((response.headers or {}).get("ETag"))

    def delete(self, key: str, etag: str) -> None:
        try:
            self._written(self._request("DELETE", self.url_for(key), "", {"If-Match": etag}), "DELETE")
        except Unavailable:
            raise
        except RemoteError as exc:
            raise self._refused(key, exc) from None

    def _refused(self, key: str, exc: RemoteError) -> RemoteError:
        """A refused write as the engine decides on it. A 404 or 410 is ``Gone`` only when a
        GET agrees: Nextcloud says 404 to a write on a read-only share that still holds it."""
        failure = classify_failure(exc)
        if isinstance(failure, Gone):
            try:
                still = self.get(key)
            except Unavailable:
                raise
            except RemoteError:
                return RemoteError("sync.write_refused", status=exc.status, http=exc.status)
            if still is not None:
                return RemoteError("sync.write_refused", status=exc.status, http=exc.status)
        return failure


def _addresses(entries: list[davxml.Entry]) -> tuple[str, ...]:
    hrefs = (href for entry in entries for href in davxml.hrefs(entry, davxml.CALENDAR_USER_ADDRESS_SET))
    return tuple(href[7:] for href in hrefs if href[:7].lower() == "mailto:")


def _origin(parts: Any, scheme: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) with the default port spelled out: ``http://h/`` is ``http://h:80/``."""
    use = (parts.scheme or scheme).lower()
    try:
        port = parts.port
    except ValueError:  # a port that is not a number: no origin of ours
        return (use, "", -1)
    return use, (parts.hostname or "").lower(), port or {"http": 80, "https": 443}.get(use)
