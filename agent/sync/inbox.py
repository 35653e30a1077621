"""Attendees' answers a scheduling server leaves in the user's schedule inbox (RFC 6638 4).

When bob accepts alice's meeting, a scheduling server delivers his METHOD:REPLY to alice's
schedule inbox. Cyrus also writes the answer into alice's copy of the event, which sync
pulls; Xandikos leaves it in the inbox only, so alice never saw bob's answer. After an
account's calendars are synced, each REPLY in the inbox goes through the invitation flow
(``agent.ics.itip.Flow``): it changes only the answering attendee's PARTSTAT on an event
stored here, never a title, and an answer already applied is no change; the next sync
uploads the changed event. Nothing else is taken from the inbox (a REQUEST a scheduling
server delivers is in the user's calendar too), and nothing there is deleted: another of
the user's devices may still read it, and reading it again changes nothing.

The inbox is found from the principal (``schedule-inbox-URL``) of a calendar already synced,
on the same origin; a server that names none does not schedule, and the run goes on. The
inbox is read with the same requests, deadline and caps as a calendar.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from agent.errors import UserFacingError
from agent.store import journal_record
from agent.sync.remote import RemoteCalendar
from agent.sync.remote_errors import RemoteError, Unavailable

if TYPE_CHECKING:
    from agent.sync.engine import SyncEngine

log = logging.getLogger(__name__)

MAX_INBOX_ITEMS = 500  # answers read per run; an inbox nobody empties must not grow a run without end


def apply_replies(engine: SyncEngine, client: Any, calendar_url: str, account_name: str) -> int:
    """Apply the REPLYs in the inbox of ``calendar_url``'s principal; how many changed an event."""
    from agent.ics.itip import Flow, InvitationError, read_message

    remote = RemoteCalendar(client, calendar_url, use_tokens=False, max_entries=engine.limits.listing_entries)
    try:
        inbox_url = remote.schedule_inbox()
        if inbox_url is None:
            return 0
        inbox = RemoteCalendar(client, inbox_url, use_tokens=False, max_entries=engine.limits.listing_entries)
        keys = sorted(inbox.listing(None).changed)[:MAX_INBOX_ITEMS]
        fetched = inbox.fetch(keys).found.values() if keys else []
    except Unavailable:
        raise
    except RemoteError as exc:  # no inbox to read is no answer to apply
        log.info("schedule inbox of %s not read: %s", account_name, exc)
        return 0
    changed = 0
    flow = Flow(engine.store, engine.profile_id)
    for item in fetched:
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
    return changed


__all__ = ["MAX_INBOX_ITEMS", "apply_replies"]
