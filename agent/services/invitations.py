"""Who the user is among an event's people, their answer, and what that makes of the event.

An invitation is an event whose ORGANIZER is someone else and whose ATTENDEE list holds one
of the user's addresses (issue 31). Which addresses are the user's: the CalDAV accounts'
user names that are e-mail addresses (the account's principal, as far as Richeng knows it
without asking the server) plus the ``my_addresses`` setting. From the user's own PARTSTAT
follow the two keys ``events list --json`` adds to each item: ``status`` (an unanswered or
tentative invitation is drawn tentative) and ``busy`` (false for a declined or cancelled
event and for TRANSP:TRANSPARENT). The file side (iTIP methods, REPLY text) lives in
agent/ics/itip.py; this module only reads and writes the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent.errors import NotFoundError
from agent.services.settings import SettingsService
from agent.store.changes import ChangeSet
from agent.store.components import parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import Person, bare_address, read, read_text, write

if TYPE_CHECKING:
    import icalendar

    from agent.store.occurrence import Occurrence

ADDRESSES_KEY = "my_addresses"
SEND_KEY = "send_invitations"  # UIDs whose uploads may let the server mail attendees (agent/sync/scheduling.py)
# Each answer's word in the catalogue (agent/messages/invitations.py).
ANSWER_CODES = {
    "ACCEPTED": "invitations.answer_accepted",
    "TENTATIVE": "invitations.answer_tentative",
    "DECLINED": "invitations.answer_declined",
    "NEEDS-ACTION": "invitations.answer_needs_action",
}
ANSWERS = ("ACCEPTED", "TENTATIVE", "DECLINED")
UNANSWERED = "NEEDS-ACTION"


def my_addresses(store: Store, profile_id: int) -> tuple[str, ...]:
    """The user's addresses: the Settings list, then each sync account's user name that is
    an e-mail address; without ``mailto:``, each once (case-blind)."""
    found: list[str] = []
    stored = SettingsService(store, profile_id).get(ADDRESSES_KEY) or []
    rows = store.conn.execute("SELECT username FROM sync_accounts WHERE profile_id = ? ORDER BY id", (profile_id,)).fetchall()
    for value in [*stored, *(row[0] for row in rows)]:
        email = bare_address(str(value))
        if "@" in email and email.casefold() not in {known.casefold() for known in found}:
            found.append(email)
    return tuple(found)


def remember_address(store: Store, profile_id: int, email: str) -> None:
    """Add ``email`` to the Settings list when it is not known yet (an answer given ``--as``
    an address says that address is the user's)."""
    email = bare_address(email)
    if any(email.casefold() == known.casefold() for known in my_addresses(store, profile_id)):
        return
    settings = SettingsService(store, profile_id)
    settings.set(ADDRESSES_KEY, [*(settings.get(ADDRESSES_KEY) or []), email])


def allow_sending(store: Store, profile_id: int, uid: str) -> None:
    """The user said yes to "send invitations" for event ``uid``: its uploads may let a
    scheduling server mail the attendees."""
    settings = SettingsService(store, profile_id)
    sent = list(settings.get(SEND_KEY) or [])
    if uid not in sent:
        settings.set(SEND_KEY, [*sent, uid])


def synced(store: Store, calendar_id: int) -> bool:
    """Whether the calendar is kept in step with a server (whose uploads could mail people)."""
    return store.conn.execute("SELECT 1 FROM sync_calendars WHERE calendar_id = ?", (calendar_id,)).fetchone() is not None


def me_among(attendees: Sequence[Person], mine: Iterable[str]) -> Person | None:
    """The first attendee who is the user, or None."""
    wanted = [bare_address(address).casefold() for address in mine]
    return next((person for person in attendees if person.email.casefold() in wanted), None)


@dataclass(frozen=True)
class Standing:
    """The user's place in one event: ``me`` the attendee that is the user (None when the
    user is not invited), ``organizer`` whether the user organises it."""

    me: Person | None
    organizer: bool

    @property
    def invited(self) -> bool:
        """An invitation: someone else organises it and the user is among the attendees."""
        return self.me is not None and not self.organizer

    @property
    def answer(self) -> str | None:
        return self.me.partstat if self.invited and self.me is not None else None


def standing(organizer: Person | None, attendees: Sequence[Person], mine: Sequence[str]) -> Standing:
    own = organizer is not None and any(organizer.same(address) for address in mine)
    return Standing(me_among(attendees, mine), own)


def state(status: str, transp: str, place: Standing) -> tuple[str, bool]:
    """(``status``, ``busy``) of the listing: ``cancelled`` for STATUS:CANCELLED,
    ``tentative`` for STATUS:TENTATIVE or an invitation not accepted yet, else
    ``confirmed``; busy unless cancelled, declined or transparent."""
    status = status.upper()
    answer = place.answer
    if status == "CANCELLED":
        return "cancelled", False
    label = "tentative" if status == "TENTATIVE" or answer in (UNANSWERED, "TENTATIVE") else "confirmed"
    return label, transp.upper() != "TRANSPARENT" and answer != "DECLINED"


def event_standing(component: icalendar.Event, mine: Sequence[str]) -> Standing:
    return standing(read(component, "organizer"), read(component, "attendees"), mine)


def states(store: Store, profile_id: int, occurrences: Sequence[Occurrence]) -> dict[int, dict[str, Any]]:
    """``{"status", "busy"}`` of each occurrence's event, by event id: the keys ``events
    list --json`` adds. Only events with an ATTENDEE line are parsed."""
    mine = my_addresses(store, profile_id)
    ids = sorted({occ.event_id for occ in occurrences})
    people: dict[int, Standing] = {}
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        rows = store.conn.execute(
            f"SELECT id, ics FROM events WHERE id IN ({', '.join('?' for _ in part)}) AND ics LIKE '%ATTENDEE%'", part
        ).fetchall()
        for event_id, ics in rows:
            values = read_text(str(ics), ["organizer", "attendees"])
            people[int(event_id)] = standing(values["organizer"], values["attendees"], mine)
    out: dict[int, dict[str, Any]] = {}
    for occ in occurrences:
        status, busy = state(occ.status, occ.transp, people.get(occ.event_id, Standing(None, False)))
        out[occ.event_id] = {"status": status, "busy": busy}
    return out


def answer(store: Store, profile_id: int, uid: str, recurrence_id: str, email: str, partstat: str) -> ChangeSet:
    """The user's answer (``partstat`` as ``email``) stored on the event (uid,
    recurrence_id), else its series; SEQUENCE and DTSTAMP stay the organizer's, so the
    organizer's next update is still newer (docs/invitations.md). Answering is the user's
    go-ahead for the reply: on a scheduling server the next upload lets the server tell the
    organizer (agent/sync/scheduling.py); without it the answer never left this device."""
    repo = EventRepo(store, profile_id)
    row = repo.row(uid, recurrence_id) or repo.row(uid, "")
    if row is None:
        raise NotFoundError("services.no_event_uid", uid=uid)
    component = parse_component(row["ics"])
    people = [
        Person(p.email, p.name, partstat, p.role, tuple(x for x in p.extra if x[0] != "RSVP")) if p.same(email) else p
        for p in read(component, "attendees")
    ]
    write(component, "attendees", people)
    with store.transaction():
        changes = repo.save(component, int(row["calendar_id"]), str(row["origin"]))
    allow_sending(store, profile_id, uid)
    return changes


def drawn(store: Store, profile_id: int, occurrences: list[Occurrence]) -> list[Occurrence]:
    """The occurrences as the views draw them: an invitation not accepted yet (or accepted
    as tentative) carries STATUS TENTATIVE, which the painters draw see-through and dashed;
    nothing is written."""
    if not occurrences:
        return occurrences
    found = states(store, profile_id, occurrences)
    return [
        occ._replace(status="TENTATIVE") if found[occ.event_id]["status"] == "tentative" and occ.status != "TENTATIVE" else occ
        for occ in occurrences
    ]


def is_busy(store: Store, profile_id: int, occurrences: Sequence[Occurrence]) -> list[Occurrence]:
    """The occurrences that take their time: the listing's ``busy``."""
    found = states(store, profile_id, occurrences)
    return [occ for occ in occurrences if found[occ.event_id]["busy"]]


# ---- the chat's invitations (issue 31 item 4; agent/runtime/invite_grounding.py) ----------


def invite_people(
    store: Store, profile_id: int, component: icalendar.Event, people: Sequence[Person], calendar_id: int, send: bool
) -> dict[str, str]:
    """Write ``people`` (grounded by the chat) as the new event's attendees, each
    NEEDS-ACTION with RSVP, and the user's first address as its ORGANIZER (none when no
    address is known). ``send``: the user said yes to "this will email N people", the
    go-ahead, which counts only on a synced calendar (elsewhere no server mails anyone).
    Returns what the receipt says: ``organizer`` (the address written, or "") and ``mail``
    (``send``, ``quiet``: uploaded with SCHEDULE-AGENT=CLIENT, or ``unsynced``)."""
    asked = (("RSVP", "TRUE"),)
    write(component, "attendees", [Person(p.email, p.name, UNANSWERED, p.role or "REQ-PARTICIPANT", asked) for p in people])
    mine = my_addresses(store, profile_id)
    if people and mine and component.get("ORGANIZER") is None:
        write(component, "organizer", Person(mine[0], "", "", ""))
    on_server = synced(store, calendar_id)
    if people and send and on_server:
        allow_sending(store, profile_id, str(component["UID"]))
    mail = "unsynced" if not on_server else "send" if send else "quiet"
    return {"organizer": mine[0] if people and mine else "", "mail": mail}


def invitations_among(store: Store, profile_id: int, occurrences: Sequence[Occurrence]) -> list[Occurrence]:
    """The occurrences whose event is an invitation to the user (someone else organises it
    and one of the user's addresses is an attendee): what the chat may answer."""
    mine = my_addresses(store, profile_id)
    found: list[Occurrence] = []
    for occ in occurrences:
        row = EventRepo(store, profile_id).row(occ.uid, occ.recurrence_id or "") or EventRepo(store, profile_id).row(occ.uid, "")
        if row is not None and event_standing(parse_component(row["ics"]), mine).invited:
            found.append(occ)
    return found


def answer_invitation(store: Store, profile_id: int, occ: Occurrence, partstat: str) -> tuple[ChangeSet, dict[str, Any]]:
    """The chat's answer to the invitation ``occ`` comes from (its own row, else its
    series), stored as ``answer`` stores the card's, and what became of the REPLY: on a
    synced calendar the event gets the go-ahead, so the next upload lets a scheduling
    server send the answer to the organizer; elsewhere nothing is sent. Returns the change
    and ``{"organizer", "email", "partstat", "sent"}`` for the receipt."""
    repo = EventRepo(store, profile_id)
    row = repo.row(occ.uid, occ.recurrence_id or "") or repo.row(occ.uid, "")
    if row is None:
        raise NotFoundError("services.no_event_uid", uid=occ.uid)
    component = parse_component(row["ics"])
    place = event_standing(component, my_addresses(store, profile_id))
    if place.me is None:
        raise NotFoundError("services.no_event_uid", uid=occ.uid)
    organizer = read(component, "organizer")
    sent = synced(store, int(row["calendar_id"]))
    with store.transaction():
        changes = answer(store, profile_id, occ.uid, str(row["recurrence_id"]), place.me.email, partstat)
        if sent:
            allow_sending(store, profile_id, occ.uid)
    reply = {"organizer": str(organizer) if organizer is not None else "", "email": place.me.email, "partstat": partstat}
    return changes, reply | {"sent": sent}


# ---- invitations out (issue 31 item 3): whose copy, who would be mailed ------------------


def invited(store: Store, profile_id: int, component: icalendar.Event) -> bool:
    """Whether the user was invited to this event (an attendee; someone else organises it).
    Its SEQUENCE and DTSTAMP are the organizer's (RFC 5546 2.1.4): a local edit of the
    user's copy leaves them, or the organizer's next update would read as stale."""
    if component.get("ATTENDEE") is None:
        return False
    return event_standing(component, my_addresses(store, profile_id)).invited


def recipients(store: Store, profile_id: int, component: icalendar.Event | None) -> tuple[Person, ...]:
    """Who a create, move or cancel of this event would tell: the attendees other than the
    user, when the user organises it (or nobody does yet); () for someone else's invitation
    (their organizer tells them) and for an event without attendees."""
    if component is None or component.get("ATTENDEE") is None:
        return ()
    mine = my_addresses(store, profile_id)
    organizer = read(component, "organizer")
    if organizer is not None and not any(organizer.same(address) for address in mine):
        return ()
    return tuple(
        person
        for person in read(component, "attendees")
        if not any(person.same(address) for address in mine) and not (organizer is not None and person.same(organizer.email))
    )


def calendar_of(store: Store, profile_id: int, uid: str) -> int | None:
    """The calendar event ``uid`` is kept in (its series' row), None when it is not stored."""
    row = EventRepo(store, profile_id).row(uid, "")
    return int(row["calendar_id"]) if row is not None else None


def set_sending(store: Store, profile_id: int, uids: Iterable[str], send: bool) -> None:
    """The user's answer to "this will email N people" for these events: Send lets their
    uploads schedule (``allow_sending``), Don't send takes an earlier go-ahead back, so the
    next upload is quiet again (agent/sync/scheduling.py)."""
    uids = list(dict.fromkeys(uids))
    if send:
        for uid in uids:
            allow_sending(store, profile_id, uid)
        return
    settings = SettingsService(store, profile_id)
    sent = list(settings.get(SEND_KEY) or [])
    kept = [uid for uid in sent if uid not in uids]
    if kept != sent:
        settings.set(SEND_KEY, kept)


__all__ = [
    "ADDRESSES_KEY",
    "ANSWER_CODES",
    "SEND_KEY",
    "ANSWERS",
    "UNANSWERED",
    "Standing",
    "allow_sending",
    "answer",
    "calendar_of",
    "drawn",
    "event_standing",
    "invited",
    "is_busy",
    "me_among",
    "my_addresses",
    "recipients",
    "remember_address",
    "set_sending",
    "standing",
    "state",
    "states",
    "synced",
]
