"""The exit guard: a reply may not claim what the database did not do.

This is not intent classification: the turn is already over and nothing here decides what
to do. It only checks the model's *own words* against two facts code knows for certain —
did this turn commit a write, and did a read tool run — and, when the words overstate,
replaces the whole reply (never appends to it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNVERIFIED_CREATE = "unverified_create_claim"
UNVERIFIED_QUERY = "unverified_query_claim"

_VERBS_ZH = "创建|新建|建立|添加|加上|加入|加到|安排|预约|预订|预定|保存|记下|记住|记录|设置|设好|定好|排好|录入"
_CREATE_ZH = re.compile(
    rf"已经?\s*(帮你|为你|给你|替你)?\s*(成功)?\s*({_VERBS_ZH})"
    rf"|(帮你|为你|给你|替你)\s*({_VERBS_ZH})\s*(好了|了|成功)"
    r"|(创建|添加|保存|安排|设置|预约)(好了|成功|完成|完毕)"
    r"|(记下|记住|安排上|加上|订好|约好)了"
)
_CREATE_EN = re.compile(
    r"\b(i\s*(?:'ve|have)|i\s+just|has\s+been|have\s+been|was|is\s+now|are\s+now|successfully|all\s+set)\b[^.!?\n]{0,40}?"
    r"\b(created|scheduled|added|saved|booked|set\s+up|put|remembered|noted|stored|recorded)\b",
    re.IGNORECASE,
)
_CREATE_EN_SHORT = re.compile(r"^\s*(done|created|scheduled|added|saved|booked)\b", re.IGNORECASE)

_QUERY_ZH = re.compile(
    r"(没有|无|没)(任何)?(其他)?(安排|日程|事件|会议|活动|计划)"
    r"|(有|共)\s*([0-9一二两三四五六七八九十几]+\s*(个|项|件|场)|以下|这些|如下)\s*(安排|日程|事件|会议|活动)?"
    r"|(安排|日程)(如下|是|有)"
    r"|(日程|日历)(很|比较|挺|是)?(空|满|忙)"
    r"|(是|很)?空闲的?"
)
_QUERY_EN = re.compile(
    r"\byou\s+(have|'ve\s+got|are)\s+(no|nothing|[0-9]+|one|two|three|a\s+few|several|free|busy)\b"
    r"|\byour\s+(calendar|schedule|day|week)\s+(is|looks|shows)\b"
    r"|\bnothing\s+(is\s+)?(scheduled|planned|on\s+your)\b"
    r"|\bno\s+(events|meetings|plans|appointments)\b"
    r"|\b(there\s+(is|are))\s+(no|[0-9]+)\s+(events|meetings|appointments|plans)\b",
    re.IGNORECASE,
)


def claims_write(text: str) -> bool:
    return bool(_CREATE_ZH.search(text) or _CREATE_EN.search(text) or _CREATE_EN_SHORT.search(text))


def claims_calendar_state(text: str) -> bool:
    return bool(_QUERY_ZH.search(text) or _QUERY_EN.search(text))


@dataclass(frozen=True)
class GuardVerdict:
    reply: str
    flag: str | None


def check_reply(text: str, *, wrote: bool, read: bool, lang: str) -> GuardVerdict:
    """The reply that may leave, and the flag when it had to be replaced."""
    if not wrote and claims_write(text):
        return GuardVerdict(_honest_create(lang), UNVERIFIED_CREATE)
    if not read and claims_calendar_state(text):
        return GuardVerdict(_honest_query(lang), UNVERIFIED_QUERY)
    return GuardVerdict(text, None)


def _honest_create(lang: str) -> str:
    if lang == "zh":
        return "抱歉，我刚才的回复不属实：这一轮没有创建或保存任何内容，日历没有变化。请再告诉我一次要安排什么，或者直接在日历里添加。"
    return (
        "Sorry — my reply was not true: nothing was created or saved this turn, and your calendar is "
        "unchanged. Tell me again what to add, or add it in the calendar directly."
    )


def _honest_query(lang: str) -> str:
    if lang == "zh":
        return "抱歉，我还没有查看你的日历，不能说那段时间有什么安排。可以问我“明天有什么安排”这样的问题，我会去查。"
    return (
        "Sorry — I haven't looked at your calendar, so I can't say what is on it. Ask me something like "
        "“what's on tomorrow?” and I'll check."
    )
