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


_HONEST = {
    CREATE: ("抱歉，我刚才的回复不属实：这一轮没有创建任何日程，日历没有变化。请再告诉我一次要安排什么，或者直接在日历里添加。",
             "Sorry — my reply was not true: nothing was created this turn, and your calendar is unchanged. "
             "Tell me again what to add, or add it in the calendar directly."),
    UPDATE: ("抱歉，我刚才的回复不属实：这一轮没有修改任何日程，日历没有变化。要改时间，可以在日历里拖动或编辑它。",
             "Sorry — my reply was not true: nothing was changed this turn, and your calendar is unchanged. "
             "To move an event, drag or edit it in the calendar."),
    DELETE: ("抱歉，我刚才的回复不属实：这一轮没有删除或取消任何日程，日历没有变化。要删除日程，请在日历里选中它删除。",
             "Sorry — my reply was not true: nothing was deleted or cancelled this turn, and your calendar is unchanged. "
             "To delete an event, select it in the calendar and delete it."),
    MEMORY: ("抱歉，我刚才的回复不属实：这一轮没有保存任何记忆。想让我记住什么，请说“请记住……”。",
             "Sorry — my reply was not true: nothing was saved to memory this turn. "
             "To have me remember something, say “remember that …”."),
    STATE: ("抱歉，我还没有查看你的日历，不能说那段时间有什么安排。可以问我“明天有什么安排”这样的问题，我会去查。",
            "Sorry — I haven't looked at your calendar, so I can't say what is on it. Ask me something like "
            "“what's on tomorrow?” and I'll check."),
}  # fmt: skip


def honest_reply(kind: str, lang: str) -> str:
    zh, en = _HONEST[kind]
    return zh if lang == "zh" else en


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
