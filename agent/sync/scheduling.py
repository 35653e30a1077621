"""Nothing emails anyone silently (issue 31, item 3, the upload rule).

A scheduling server (RFC 6638: Nextcloud/sabre, Fastmail/Cyrus, iCloud, SOGo, DAViCal) mails
every attendee when an event with attendees is created, moved or cancelled on it. Richeng
uploads events with attendees for many reasons the user never meant as "send invitations":
an imported .ics, a drag, a chat edit, a first sync of an old calendar. So every upload
marks its ORGANIZER and ATTENDEE properties ``SCHEDULE-AGENT=CLIENT`` (RFC 6638 7.1: the
server does no scheduling for them; the client takes care of it) unless the user has said
to send for that event: its UID is in the ``send_invitations`` setting. A property that
already names a SCHEDULE-AGENT is left as it is.

The user's own ATTENDEE line is never marked (``mine``): a user does not schedule
themselves, and Cyrus IMAP (Fastmail) reads ``SCHEDULE-AGENT=CLIENT`` on the user's own
attendee, in their copy of someone else's meeting, as "this attendee left": it sends the
organizer a REPLY with PARTSTAT=DECLINED, the very mail the marker was meant to prevent
(found by tests/agent/sync/interop). In such a copy the ORGANIZER's marker is what keeps the
server from replying (RFC 6638 7.1), and it stays unless the user answered (the answer is
the go-ahead for the reply, ``invitations.answer``).

Radicale and Xandikos do not schedule and ignore the parameter; the server's copy that
comes back with it (and with the SCHEDULE-STATUS a scheduling server adds) reads as the same
event (``resources._canonical_lines`` leaves both out), so it is never a change or a conflict.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from agent.services.invitations import SEND_KEY, my_addresses
from agent.services.settings import SettingsService
from agent.store.db import Store
from agent.store.fields import bare_address

_PEOPLE_LINE = re.compile(rb"^(ORGANIZER|ATTENDEE)([;:])", re.IGNORECASE | re.MULTILINE)
_FOLD = re.compile(rb"\r?\n[ \t]")


def go_ahead(store: Store, profile_id: int) -> frozenset[str]:
    """The UIDs the user chose to send invitations for."""
    return frozenset(str(uid) for uid in SettingsService(store, profile_id).get(SEND_KEY) or [])


def for_upload(store: Store, profile_id: int, uid: str, body: bytes, server_addresses: Callable[[], Iterable[str]]) -> bytes:
    """``body`` as one upload outside a sync run sends it (a conflict kept as "local"): the
    same rule as every sync upload (``calendar_run``), the user's addresses asked of the
    server only when the body names attendees."""
    send = uid in go_ahead(store, profile_id)
    if send or b"ATTENDEE" not in body.upper():
        return quiet(body, send)
    return quiet(body, False, (*my_addresses(store, profile_id), *server_addresses()))


def quiet(body: bytes, send: bool, mine: Iterable[str] = ()) -> bytes:
    """``body`` with ``SCHEDULE-AGENT=CLIENT`` on each ORGANIZER and ATTENDEE that names no
    SCHEDULE-AGENT, unless ``send``; an ATTENDEE whose address is one of ``mine`` (the
    user's) is left as it is. The parameter goes right after the property name, on the
    first physical line, so folded lines need no refolding."""
    if send or (b"ATTENDEE" not in body.upper() and b"ORGANIZER" not in body.upper()):
        return body
    own = {bare_address(address).casefold() for address in mine}
    out: list[bytes] = []
    position = 0
    for match in _PEOPLE_LINE.finditer(body):
        logical = _FOLD.sub(b"", body[match.start() : _line_end(body, match.start())])
        head, value = _split(logical)
        if b"SCHEDULE-AGENT=" in head.upper():
            continue
        if match.group(1).upper() == b"ATTENDEE" and _address(value) in own:
            continue
        out.append(body[position : match.end(1)])
        out.append(b";SCHEDULE-AGENT=CLIENT")
        position = match.end(1)
    out.append(body[position:])
    return b"".join(out)


def _line_end(body: bytes, start: int) -> int:
    """Where the logical line that starts at ``start`` ends (before the newline that no
    folded line follows), or the end of ``body``."""
    end = body.find(b"\n", start)
    while end != -1 and body[end + 1 : end + 2] in (b" ", b"\t"):
        end = body.find(b"\n", end + 1)
    return len(body) if end == -1 else end


def others_as(body: bytes, server_text: str, mine: Iterable[str]) -> bytes | None:
    """``body`` with the ORGANIZER and every ATTENDEE but the user's own written as the
    server's copy writes them; None when that changes nothing or the server's copy does
    not name each of them once.

    For a server that refuses an attendee's upload in which anything but their own ATTENDEE
    line differs from its copy (Xandikos 0.4.10: 412 ``CALDAV:attendee-allowed``, "attendees
    may only modify their own ATTENDEE entry"): our SCHEDULE-AGENT marker, added or left out,
    and the parameters Richeng writes out (ROLE) are such differences. Such a server does not
    honour the marker anyway (it schedules regardless), so its own lines back change nothing
    in what it does with the upload."""
    own = {bare_address(address).casefold() for address in mine}
    theirs: dict[tuple[bytes, str], set[bytes]] = {}
    unfolded = _FOLD.sub(b"", server_text.encode("utf-8"))
    for line in unfolded.split(b"\n"):
        name = line.split(b";", 1)[0].split(b":", 1)[0].upper()
        if name in (b"ORGANIZER", b"ATTENDEE"):
            theirs.setdefault(_key(name, line.rstrip(b"\r")), set()).add(line.rstrip(b"\r"))
    out: list[bytes] = []
    position = 0
    for match in _PEOPLE_LINE.finditer(body):
        stop = _line_end(body, match.start())
        if body[stop - 1 : stop] == b"\r":
            stop -= 1
        name = match.group(1).upper()
        key = _key(name, _FOLD.sub(b"", body[match.start() : stop]))
        if name == b"ATTENDEE" and key[1] in own:
            continue
        found = theirs.get(key, set())
        if len(found) != 1:
            return None
        out += [body[position : match.start()], _fold(next(iter(found)))]
        position = stop
    out.append(body[position:])
    changed = b"".join(out)
    return changed if changed != body else None


def _key(name: bytes, logical: bytes) -> tuple[bytes, str]:
    return name, "" if name == b"ORGANIZER" else _address(_split(logical)[1])


def _fold(line: bytes) -> bytes:
    """One content line folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 character."""
    text = line.decode("utf-8", "replace")
    parts: list[bytes] = []
    current = b""
    for char in text:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > (75 if not parts else 74):
            parts.append(current)
            current = b""
        current += encoded
    parts.append(current)
    return b"\r\n ".join(parts)


def _split(logical: bytes) -> tuple[bytes, bytes]:
    """A content line's name and parameters, and its value: the first colon outside a
    quoted parameter value (``SENT-BY="mailto:..."`` holds one) ends the parameters."""
    quoted = False
    for index, byte in enumerate(logical):
        if byte == 0x22:  # "
            quoted = not quoted
        elif byte == 0x3A and not quoted:  # :
            return logical[:index], logical[index + 1 :]
    return logical, b""


def _address(value: bytes) -> str:
    return bare_address(value.decode("utf-8", "replace")).casefold()


__all__ = ["for_upload", "go_ahead", "others_as", "quiet"]
