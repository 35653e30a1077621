"""The WebDAV documents sync sends, and a strict reading of the answers that come back.

Strict because a lenient reading loses data: an HTML error page a proxy sends with
``200 OK`` parses as XML with no ``<response>`` in it, which reads as "the calendar is
empty" — and an empty *complete* listing means "delete everything here". So an answer is
used only when it is what was asked for: a ``DAV:multistatus`` document, a sync answer that
carries its ``sync-token`` (RFC 6578 puts it last, so a cut answer lacks it), a calendar
resource from ``BEGIN:VCALENDAR`` to ``END:VCALENDAR``. Anything else is ``Unreadable``, which
the caller treats as a failed request, never as an empty one.

The documents are parsed once, by the ``caldav`` client (lxml, ``resolve_entities=False``,
no network); this module reads its tree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urlsplit
from xml.sax.saxutils import escape

DAV = "{DAV:}"
CALDAV = "{urn:ietf:params:xml:ns:caldav}"
CALSERVER = "{http://calendarserver.org/ns/}"
GETETAG = DAV + "getetag"
GETCTAG = CALSERVER + "getctag"
CALENDAR_DATA = CALDAV + "calendar-data"
RESOURCETYPE = DAV + "resourcetype"
SYNC_TOKEN = DAV + "sync-token"
VALID_SYNC_TOKEN = DAV + "valid-sync-token"
SUPPORTED_REPORT = DAV + "supported-report"
UID_CONFLICT = (CALDAV + "no-uid-conflict", CALDAV + "unique-uid")

_XML = '<?xml version="1.0" encoding="utf-8"?>\n'
ETAG_PROPFIND = _XML + '<D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:resourcetype/></D:prop></D:propfind>'
PRIVILEGE_PROPFIND = _XML + '<D:propfind xmlns:D="DAV:"><D:prop><D:current-user-privilege-set/></D:prop></D:propfind>'
CURRENT_PRIVILEGES = DAV + "current-user-privilege-set"
# Any of these lets us write resources into a collection (RFC 3744 3.1: ``all`` and ``write`` aggregate the others).
WRITE_PRIVILEGES = (DAV + "all", DAV + "write", DAV + "write-content", DAV + "bind")
CURRENT_USER_PRINCIPAL = DAV + "current-user-principal"
CALENDAR_USER_ADDRESS_SET = CALDAV + "calendar-user-address-set"
PRINCIPAL_PROPFIND = _XML + '<D:propfind xmlns:D="DAV:"><D:prop><D:current-user-principal/></D:prop></D:propfind>'
ADDRESS_PROPFIND = (
    _XML + '<D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    "<D:prop><C:calendar-user-address-set/></D:prop></D:propfind>"
)
SCHEDULE_INBOX_URL = CALDAV + "schedule-inbox-URL"
INBOX_PROPFIND = (
    _XML + '<D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    "<D:prop><C:schedule-inbox-URL/><C:calendar-user-address-set/></D:prop></D:propfind>"
)
CTAG_PROPFIND = (
    _XML + '<D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><D:prop><CS:getctag/></D:prop></D:propfind>'
)


class Unreadable(Exception):
    """The answer is not the document that was asked for (a web page, cut short, garbage)."""


def sync_collection(token: str | None) -> str:
    """RFC 6578 sync-collection REPORT: changes since ``token``, or everything without one."""
    tag = f"<D:sync-token>{escape(token)}</D:sync-token>" if token else "<D:sync-token/>"
    return (
        _XML + f'<D:sync-collection xmlns:D="DAV:">{tag}<D:sync-level>1</D:sync-level>'
        "<D:prop><D:getetag/></D:prop></D:sync-collection>"
    )


def multiget(paths: Iterable[str]) -> str:
    """RFC 4791 calendar-multiget REPORT for the resources at these (unquoted) paths."""
    hrefs = "".join(f"<D:href>{escape(quote(path, safe='/:@'))}</D:href>" for path in paths)
    return (
        _XML + '<C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
        f"<D:prop><D:getetag/><C:calendar-data/></D:prop>{hrefs}</C:calendar-multiget>"
    )


def key_of(url: Any) -> str:
    """A resource's key: its URL path, unquoted (servers disagree about quoting ``@``)."""
    return unquote(urlsplit(str(url)).path)


@dataclass
class Entry:
    """One ``<response>`` of a multistatus: its path, its own status, its found properties."""

    key: str
    status: int | None
    props: dict[str, Any] = field(default_factory=dict)
    href: str = ""  # as the server wrote it: ``RemoteCalendar.inside`` checks its origin

    def text(self, tag: str) -> str | None:
        element = self.props.get(tag)
        if element is None:
            return None
        return "".join(element.itertext()).strip() or None

    @property
    def is_collection(self) -> bool:
        kind = self.props.get(RESOURCETYPE)
        return kind is not None and kind.find(DAV + "collection") is not None


@dataclass
class Multistatus:
    entries: list[Entry]
    sync_token: str | None
    truncated: bool  # RFC 6578 3.6: a 507 for the collection itself, continue from the token


def _status_code(text: str | None) -> int | None:
    parts = (text or "").split()
    if len(parts) >= 2 and parts[1].isdigit():
        return int(parts[1])
    return None


def read_multistatus(tree: Any, collection_key: str) -> Multistatus:
    """The entries of a multistatus ``tree`` (caldav's parsed answer); ``Unreadable`` if it is none."""
    if tree is None or getattr(tree, "tag", None) != DAV + "multistatus":
        found = getattr(tree, "tag", None)
        raise Unreadable(f"expected a WebDAV multistatus, got {'no XML' if found is None else found}")
    entries: list[Entry] = []
    truncated = False
    for response in tree.iterfind(DAV + "response"):
        hrefs = [el.text.strip() for el in response.iterfind(DAV + "href") if el.text and el.text.strip()]
        status = _status_code(response.findtext(DAV + "status"))
        if status == 507 and any(key_of(h).rstrip("/") == collection_key.rstrip("/") for h in hrefs):
            truncated = True
            continue
        props: dict[str, Any] = {}
        for propstat in response.iterfind(DAV + "propstat"):
            if _status_code(propstat.findtext(DAV + "status")) not in (None, 200):
                continue
            for prop in propstat.iterfind(DAV + "prop"):
                for child in prop:
                    props[child.tag] = child
        entries.extend(Entry(key_of(href), status, props, href) for href in hrefs)
    token_element = tree.find(SYNC_TOKEN)
    token = token_element.text.strip() if token_element is not None and token_element.text else None
    return Multistatus(entries, token, truncated)


def privileges(entry: Entry) -> set[str] | None:
    """The privilege names in ``entry``'s ``current-user-privilege-set``; None if it has none."""
    element = entry.props.get(CURRENT_PRIVILEGES)
    if element is None:
        return None
    return {str(child.tag) for privilege in element.iterfind(DAV + "privilege") for child in privilege}


def hrefs(entry: Entry, tag: str) -> list[str]:
    """The ``DAV:href`` texts inside ``entry``'s property ``tag`` (none when it has none)."""
    element = entry.props.get(tag)
    if element is None:
        return []
    return [href.text.strip() for href in element.iter(DAV + "href") if href.text and href.text.strip()]


def members(entries: Iterable[Entry], collection_key: str) -> Iterator[Entry]:
    """The entries that are calendar objects (not the collection, not a sub-collection)."""
    own = collection_key.rstrip("/")
    for entry in entries:
        if entry.key.rstrip("/") == own or entry.key.endswith("/") or entry.is_collection:
            continue
        yield entry


def calendar_text(text: str | None) -> str:
    """``text`` if it is one whole iCalendar object; ``Unreadable`` if empty, a page, or cut short.

    A resource cut between two VEVENTs would still parse — the master without its moved
    instances — and pushing that back later would delete them on the server; so the last
    line must close the calendar the first line opened.
    """
    if not text or text.isspace():
        raise Unreadable("the answer is empty")
    # Only the ends are looked at (a resource of 100,000 overrides is tens of MB: no copies).
    head, tail = text[:200].lstrip("\ufeff \t\r\n"), text[-200:].rstrip()
    if not head[:15].upper().startswith("BEGIN:VCALENDAR"):
        first = head.split("\n", 1)[0][:60]
        raise Unreadable(f"not an iCalendar resource (it starts with {first!r})")
    if not tail[-13:].upper().endswith("END:VCALENDAR"):
        raise Unreadable("the calendar data is cut short (no END:VCALENDAR)")
    return text


def is_web_page(headers: Any) -> bool:
    """A ``text/html`` answer is a proxy's or a portal's page, never a CalDAV server's reply."""
    content_type = str((headers or {}).get("Content-Type") or "")
    return content_type.split(";", 1)[0].strip().lower() in ("text/html", "application/xhtml+xml")
