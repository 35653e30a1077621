"""Invitations from the chat (issue 31, item 4): who may be invited, whether an answer was
said, and the receipt lines about both.

An attendee is grounded as a title is (``grounding.py``): code writes an address only when
it appears in the user's words this turn or in a memory a tool read this turn (the
``search_memory`` results, ``ToolDeps.memories``). An address the model made up, or one
that only an event's text or the chat history holds, is never written: the event is made
without that person and the receipt says who was not invited and why. A name with no
address ("邀请张三") is looked up in the memories read this turn (one memory naming the
person with exactly one address); with none, the event is still made and the receipt says
no address is known (docs/invitations.md, "In the chat").

An answer to an invitation must be said too: "接受" for accept, "拒绝"/"不去" for decline,
"暂定"/"可能" for tentative. A ``respond_to_invitation`` call whose answer the words do not
give asks first (the edit rules' confirmation), never writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.messages.catalogue import render
from agent.services.invitations import ANSWER_CODES
from agent.services.wording import fold
from agent.store.fields import Person

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
#: The tool's answer words -> PARTSTAT (RFC 5545), as ``richeng invitation respond`` spells them.
PARTSTATS = {"accept": "ACCEPTED", "tentative": "TENTATIVE", "decline": "DECLINED"}
#: Words that say each answer in a message (folded). "不" words come first: "不去" is no "去".
ANSWER_WORDS: dict[str, tuple[str, ...]] = {
    "DECLINED": (
        *("拒绝", "不去", "不参加", "去不了", "参加不了", "谢绝", "婉拒", "推掉", "没空", "没时间"),
        *("decline", "reject", "can't make", "cannot make", "can't go", "cannot go", "won't attend", "not attend"),
        *("not going", "say no"),
    ),
    "TENTATIVE": ("暂定", "待定", "可能去", "可能参加", "也许", "不确定", "tentative", "maybe", "might"),
    "ACCEPTED": ("接受", "同意", "参加", "答应", "去", "accept", "attend", "i'll be there", "going", "say yes"),
}


#: Someone else invited the user: "张三邀请我…", "李四约我…", "Zhang invited me …". Told
#: with no word that asks for anything, it is news ("张三邀请我明天吃饭，好开心"), not a request.
REPORTED = re.compile(r"(?:邀请|约|请)(?:了)?我|\b(?:invited|invites|asked) me\b")
#: Words that ask for a write after all ("张三约我明天吃饭，帮我记一下", "… add it").
REQUEST_WORDS = (
    *("帮我", "帮忙", "记一下", "记下", "记上", "加上", "加到", "添加", "安排", "提醒我", "建", "放到", "写上", "日历", "日程"),
    *("接受", "答应", "add", "put", "schedule", "remind", "note", "save", "calendar", "book", "accept", "please"),
)


def reported_reasons(user_text: str) -> list[str]:
    """Ask before a create when the message only reports an invitation the user received."""
    text = fold(user_text)
    found = REPORTED.search(text)
    if found is None or any(word in text for word in REQUEST_WORDS):
        return []
    return ["reported_invitation:" + found.group(0)]


@dataclass
class Invitees:
    """The people a create may invite: ``people`` grounded, ``refused`` each with its
    reason (``no_address`` for a name, ``not_said`` for an address nobody gave)."""

    people: list[Person] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"invited": [str(p) for p in self.people], "not_invited": [{"who": w, "why": r} for r, w in self.refused]}


def ground_people(items: Iterable[str], user_text: str, memories: Sequence[str]) -> Invitees:
    """Which of the model's ``invite`` items become attendees (module docstring)."""
    said = fold(user_text)
    remembered = [fold(text) for text in memories]
    found = Invitees()
    for item in items:
        item = item.strip()
        if not item:
            continue
        addresses = EMAIL.findall(item)
        if addresses:
            address = addresses[0]
            if fold(address) in said or any(fold(address) in text for text in remembered):
                name = _name(item, address, said, remembered)
                _add(found, Person(address, name))
            else:
                found.refused.append(("not_said", address))
            continue
        looked_up = _from_memory(item, memories)
        if looked_up is not None:
            _add(found, looked_up)
        else:
            found.refused.append(("no_address", item))
    return found


def _name(item: str, address: str, said: str, remembered: list[str]) -> str:
    """The name written beside an address, only when the words or a memory say it too."""
    name = item.replace(address, "").strip(" <>()（）,，:：")
    if name and (fold(name) in said or any(fold(name) in text for text in remembered)):
        return name
    return ""


def _from_memory(name: str, memories: Sequence[str]) -> Person | None:
    """The one address a memory read this turn gives for ``name`` ("张三的邮箱是 …")."""
    found = {fold(a): a for text in memories if fold(name) in fold(text) for a in EMAIL.findall(text)}
    return Person(next(iter(found.values())), name) if len(found) == 1 else None


def _add(found: Invitees, person: Person) -> None:
    if not any(known.same(person.email) for known in found.people):
        found.people.append(person)


def answer_reasons(partstat: str, user_text: str) -> list[str]:
    """Ask first unless the words say this answer (and not another one)."""
    text = fold(user_text)
    if not text:
        return []
    said = next((answer for answer, words in ANSWER_WORDS.items() if any(word in text for word in words)), None)
    return [] if said == partstat else ["answer_not_said:" + partstat]


def respond_reasons(edit: list[str], partstat: str, user_text: str) -> list[str]:
    """The edit latch's reasons for an answer, less the two an answer makes moot: no
    change verb (接受 is the verb) and, for a tentative answer, the hedge that says it
    ("maybe", "可能" is the answer, not doubt about it); plus ``answer_reasons``."""
    tentative = ANSWER_WORDS["TENTATIVE"]
    kept = [
        reason
        for reason in edit
        if reason != "not_from_user:action" and not (partstat == "TENTATIVE" and reason.partition(":")[2] in tentative)
    ]
    return kept + answer_reasons(partstat, user_text)


def people_text(people: Sequence[dict[str, Any]] | Sequence[Person], lang: str) -> str:
    listed = [str(p) if isinstance(p, Person) else str(Person(str(p["email"]), str(p.get("name") or ""))) for p in people]
    return render("recurrence.list_sep", lang).join(listed) if listed else ""


def invite_lines(extras: dict[str, Any], lang: str, *, created: bool) -> list[str]:
    """Who is (or will be) invited, the organizer, and whether anyone is emailed."""
    people = list(extras.get("people") or [])
    if not people:
        return []
    if not created:
        return [render("receipts.invite.will_invite", lang, people=people_text(people, lang))]
    invite = dict(extras.get("invite") or {})
    if not invite:  # this round wrote no event (the same create again): it invited no one
        return []
    lines = [render("receipts.invite.invited", lang, people=people_text(people, lang))]
    if invite.get("organizer"):
        lines.append(render("receipts.invite.organizer", lang, email=invite["organizer"]))
    else:
        lines.append(render("receipts.invite.no_organizer", lang))
    mail = invite.get("mail")
    if mail == "send":
        lines.append(render("receipts.invite.sending", lang, count=len(people)))
    elif mail == "quiet":
        lines.append(render("receipts.invite.quiet_synced", lang))
    elif mail == "unsynced":
        lines.append(render("receipts.invite.quiet_unsynced", lang))
    return lines


def refused_lines(refused: Iterable[dict[str, str]], lang: str) -> list[str]:
    """One line for each person the create could not invite."""
    lines = []
    for item in refused:
        if item.get("why") == "no_address":
            lines.append(render("receipts.invite.no_address", lang, name=item.get("who", "")))
        else:
            lines.append(render("receipts.invite.not_said", lang, address=item.get("who", "")))
    return lines


def answer_word(partstat: str, lang: str) -> str:
    return render(ANSWER_CODES.get(partstat, ANSWER_CODES["NEEDS-ACTION"]), lang)


def reply_line(reply: dict[str, Any], lang: str) -> str:
    """What became of the REPLY to the organizer (``services.invitations.answer_invitation``)."""
    organizer = str(reply.get("organizer") or "?")
    answer = answer_word(str(reply.get("partstat", "")), lang)
    code = "receipts.invite.reply_sent" if reply.get("sent") else "receipts.invite.reply_not_sent"
    return render(code, lang, answer=answer, organizer=organizer)


__all__ = [
    "ANSWER_WORDS",
    "EMAIL",
    "PARTSTATS",
    "Invitees",
    "answer_reasons",
    "answer_word",
    "ground_people",
    "invite_lines",
    "people_text",
    "refused_lines",
    "reply_line",
    "reported_reasons",
    "respond_reasons",
]
