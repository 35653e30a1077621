"""The exit guard: a reply may not claim what the database did not do.

This is not intent classification: the turn is already over and nothing here decides what
to do. ``claims.py`` finds what the model's *own words* assert; each kind of claim needs
one fact that code knows for certain from the store's services this turn:

==========  ===================================================  ===========================
claim       backed by                                            flag when it is not
==========  ===================================================  ===========================
create      an event created (``CommandService.facts``)          ``unverified_create_claim``
"on your    an event created, or a read tool ran                 ``unverified_create_claim``
calendar"
update      an event updated                                     ``unverified_update_claim``
delete      an event deleted                                     ``unverified_delete_claim``
remember    a memory saved (``MemoryService.saved``), or an      ``unverified_memory_claim``
            event created ("记下了" is said of both)
state       a read tool ran (query, free time, the council)      ``unverified_query_claim``
==========  ===================================================  ===========================

An unbacked reply is replaced whole, never appended to. A write claim gets an honest
sentence of its kind. A state claim is answered from the store when the reply or the
message names a day (``state_answer.py``); otherwise the honest apology stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.messages.catalogue import render
from agent.runtime.claims import (
    CREATE,
    DELETE,
    MEMORY,
    STATE,
    UPDATE,
    Claim,
    find_claims,
)

UNVERIFIED_CREATE = "unverified_create_claim"
UNVERIFIED_UPDATE = "unverified_update_claim"
UNVERIFIED_DELETE = "unverified_delete_claim"
UNVERIFIED_MEMORY = "unverified_memory_claim"
UNVERIFIED_QUERY = "unverified_query_claim"
FLAGS = {CREATE: UNVERIFIED_CREATE, UPDATE: UNVERIFIED_UPDATE, DELETE: UNVERIFIED_DELETE,
         MEMORY: UNVERIFIED_MEMORY, STATE: UNVERIFIED_QUERY}  # fmt: skip
#: The turn outcome when a state claim was replaced by the real answer, read by code.
ANSWERED = "guard_answered"


@dataclass(frozen=True)
class TurnFacts:
    """What this turn really did, from the services' own records (never from the reply)."""

    created: bool = False
    updated: bool = False
    deleted: bool = False
    remembered: bool = False
    read: bool = False

    @classmethod
    def of(cls, write_facts: Any, memory: Any, *, read: bool) -> TurnFacts:
        """From ``CommandService.facts`` and a ``MemoryService`` (or None) of this turn."""
        changes = write_facts.changes
        # A chat edit names what it committed: deleting one instance of a series writes an
        # EXDATE (a row *updated*), and is still a delete.
        kinds: set[str] = getattr(write_facts, "kinds", set())
        return cls(
            created=bool(write_facts.event_ids) or (bool(changes.created) and not kinds),
            updated=bool(changes.updated) or "updated" in kinds,
            deleted=bool(changes.deleted) or "deleted" in kinds,
            remembered=bool(memory is not None and memory.saved),
            read=read,
        )

    def backs(self, claim: Claim) -> bool:
        if claim.kind == CREATE:
            return self.created or (claim.presence and self.read)
        if claim.kind == UPDATE:
            return self.updated
        if claim.kind == DELETE:
            return self.deleted
        if claim.kind == MEMORY:
            return self.remembered or self.created
        return self.read


@dataclass(frozen=True)
class GuardVerdict:
    reply: str
    flag: str | None
    claims: tuple[Claim, ...] = ()  # the unbacked claims, first one decided the flag


def check_reply(text: str, facts: TurnFacts, lang: str) -> GuardVerdict:
    """The reply that may leave, and the flag when it had to be replaced.

    A write claim outranks a state claim in the same reply: saying something was written
    when nothing was is the worse falsehood, and its honest sentence says so."""
    unbacked = [claim for claim in find_claims(text) if not facts.backs(claim)]
    if not unbacked:
        return GuardVerdict(text, None)
    writes = [claim for claim in unbacked if claim.kind != STATE]
    first = writes[0] if writes else unbacked[0]
    return GuardVerdict(honest_reply(first.kind, lang), FLAGS[first.kind], tuple(unbacked))


def honest_reply(kind: str, lang: str) -> str:
    """The honest sentence for an unbacked claim of ``kind`` (``runtime.honest.<kind>``)."""
    return render(f"runtime.honest.{kind}", lang)


__all__ = [
    "ANSWERED",
    "FLAGS",
    "GuardVerdict",
    "TurnFacts",
    "UNVERIFIED_CREATE",
    "UNVERIFIED_DELETE",
    "UNVERIFIED_MEMORY",
    "UNVERIFIED_QUERY",
    "UNVERIFIED_UPDATE",
    "check_reply",
    "honest_reply",
]
