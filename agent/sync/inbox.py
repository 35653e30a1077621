"""Attendees' answers a scheduling server leaves in the user's schedule inbox (RFC 6638 4).

When bob accepts alice's meeting, a scheduling server delivers his METHOD:REPLY to alice's
schedule inbox. Cyrus also writes the answer into alice's copy of the event, which sync
pulls; Xandikos leaves it in the inbox only, so alice never saw bob's answer. After an
account's calendars are synced, each REPLY in the inbox goes through the invitation flow
(``agent.ics.itip.Flow``): it changes only the answering attendee's PARTSTAT on an event
stored here, never a title, and an answer already applied is no change; the next sync
uploads the changed event. Nothing else is taken from the inbox (a REQUEST a scheduling
server delivers is in the user's calendar too), and nothing there is deleted: another of
the user's devices may still read it, and reading it again changes nothing; the engine
remembers what it read (``InboxState``), so an unchanged inbox costs one request a run.

The inbox is found from the principal (``schedule-inbox-URL``) of a calendar already synced,
on the same origin; a server that names none does not schedule, and the run goes on. The same
PROPFIND gives the principal's ``calendar-user-address-set``: the user's addresses (issue 31:
"the account's (CalDAV principal) plus those set in Settings"), added to the Settings list, so
an invitation the server delivers is seen as one even where the user name is no address
(Cyrus: user ``bob``, address bob@example.com). The
inbox is read with the same requests, deadline and caps as a calendar.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agent.errors import UserFacingError
from agent.services.invitations import remember_address
from agent.store import journal_record
from agent.sync.remote import RemoteCalendar
from agent.sync.remote_errors import RemoteError, Unavailable

if TYPE_CHECKING:
    from agent.sync.engine import SyncEngine

log = logging.getLogger(__name__)

MAX_INBOX_ITEMS = 500  # answers read per run; an inbox nobody empties must not grow a run without end


@dataclass
class InboxState:
    """What one engine knows of one account's inbox between runs: where it is ("" when the
    server names none, so it is not asked again), its ctag, and the items already read."""

    url: str | None = None
    ctag: str | None = None
    seen: dict[str, str | None] = field(default_factory=dict)  # key -> ETag when read


def apply_replies(engine: SyncEngine, client: Any, calendar_url: str, account_name: str, state: InboxState) -> int:
    """Apply the REPLYs new in the inbox of ``calendar_url``'s principal; how many changed an
    event. An inbox whose ctag has not moved costs one request; items read before, none."""
    from agent.ics.itip import Flow, InvitationError, read_message

    limit = engine.limits.listing_entries
    try:
        if state.url is None:
            url, addresses = RemoteCalendar(client, calendar_url, use_tokens=False, max_entries=limit).scheduling()
            state.url = url or ""
            for address in addresses:  # the principal's addresses are the user's (issue 31's rule)
                remember_address(engine.store, engine.profile_id, address)
        if not state.url:
            return 0
        inbox = RemoteCalendar(client, state.url, use_tokens=False, max_entries=limit)
        listing = inbox.listing(None, state.ctag)
        if listing.unchanged:
            return 0
        fresh = [key for key, etag in sorted(listing.changed.items()) if etag is None or state.seen.get(key) != etag]
        fetched = list(inbox.fetch(fresh[:MAX_INBOX_ITEMS]).found.values()) if fresh else []
    except Unavailable:
        raise
    except RemoteError as exc:  # no inbox to read is no answer to apply
        log.info("schedule inbox of %s not read: %s", account_name, exc)
        return 0
    changed = 0
    flow = Flow(engine.store, engine.profile_id)
    for item in fetched:
        state.seen[item.key] = item.etag
        if "METHOD:REPLY" not in item.text.upper():
            continue
        try:
            message = read_message(item.text.encode("utf-8"), item.key)
            if message.method != "REPLY":
                continue
            with journal_record.origin(engine.store, "sync", f"sync {account_name} · inbox"):
                results = flow.apply(message)
        except (InvitationError, UserFacingError) as exc:  # one unusable answer: the others still count
            log.info("schedule inbox item %s not applied: %s", item.key, exc)
            continue
        changed += sum(1 for result in results if result["changed"])
    state.seen = {key: etag for key, etag in state.seen.items() if key in listing.changed}
    if len(fresh) <= MAX_INBOX_ITEMS:  # all read: the next run may skip an unchanged inbox
        state.ctag = listing.ctag
    return changed


__all__ = ["MAX_INBOX_ITEMS", "InboxState", "apply_replies"]
