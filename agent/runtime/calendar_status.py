"""The second guard tier: what the calendar did this turn, and a line saying so.

The first tier (``guard.py``, ``claims.py``) is precise: it replaces a reply only when it
finds a claim, and a word-list detector always leaks on some unseen phrasing ("X set: …",
"locked in", a duration stated as a fact). This tier does not depend on catching the
wording. Its facts come from the turn's real tool results, never from model text:

* ``changed``: a write committed this turn (``CommandService.facts`` holds a change);
* ``read``: no write, but a read tool ran (query, free time, the council's reading);
* ``unchanged``: neither.

When the turn is ``unchanged`` and a *model-written* reply mentions a calendar object (a
date or time, an event, a reminder, a calendar verb in any tense or mood) or promises an
action, the reply keeps its text and gets a code-written status line ("日历没有变化").
Because the action is mild (a true sentence added), the detector is deliberately broad: its
recall must be total on calendar-ish replies, and its false alarms on harmless replies are
measured (``docs/evals.md``), not tuned away.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from agent.runtime.receipts import unchanged_line

CHANGED = "changed"
READ = "read"
UNCHANGED = "unchanged"
STATES = (UNCHANGED, READ, CHANGED)

# ---- the broad lexicon (zh and en); a hit anywhere in the reply counts --------------------

_ZH_TIME = (
    r"今天|明天|后天|昨天|前天|今早|明早|今晚|明晚|昨晚|今日|明日|当天|那天|这天|每天|隔天|改天|"
    r"早上|上午|中午|下午|傍晚|晚上|凌晨|夜里|半夜|早晨|清晨|白天|"
    r"周[一二三四五六日天末]|星期|礼拜|工作日|[本这上下][个]?[周月]|下下周|月[初底中]|年[初底]|明年|今年|去年|"
    r"\d+\s*(?:月|日|号|点|时|分|年|天|周)|[一二三四五六七八九十两半]+\s*(?:月|日|号|点|个?小时|分钟|天|周)|"
    r"小时|分钟|时间|时段|日期|几点|几号|"
    r"春节|元旦|国庆|中秋|端午|清明|除夕|劳动节|圣诞|生日|纪念日|假期|放假"
)
_ZH_OBJECT = (
    r"日程|日历|行程|安排|会议|开会|[周例组晨站班年晚聚]会|家长会|评审|约会|预约|面试|体检|复查|航班|"
    r"提醒|闹钟|待办|任务|截止|事项|计划|活动|课|聚餐|饭局|出差|牙医|医生|ddl"
)
_ZH_VERB = (
    r"加|添|增|建|记|录|登|排|约|定|订|改|挪|移|调|推|延|提前|取消|删|去掉|清空|设|标|完成|搞定|"
    r"保存|放进|放到|写进|写入|弄好|办好|好了|妥了|ok了|记住"
)
_EN_TIME = (
    r"today|tonight|tomorrow|yesterday|morning|afternoon|evening|noon|midnight|night|weekend|weekday|"
    r"week|month|year|day|days|hour|hours|minute|minutes|date|time|o'clock|"
    r"mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday|"
    r"jan|january|feb|february|mar|march|apr|april|june?|july?|aug|august|sept?|september|oct|october|"
    r"nov|november|dec|december|christmas|birthday|anniversary|holiday|"
    r"\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|\d{1,2}(?:st|nd|rd|th)"
)
_EN_OBJECT = (
    r"events?|meetings?|appointments?|appt|calendars?|schedules?|scheduled|agenda|reminders?|alarms?|"
    r"bookings?|reservations?|calls?|sync|standup|stand-up|1:1|one-on-one|deadlines?|due|plans?|tasks?|"
    r"to-?dos?|sessions?|class|classes|lessons?|dentist|doctor|flights?|interviews?|party|dinner|lunch|"
    r"breakfast|gym|trip|review|slots?|entry|entries|invites?|invitation"
)
_EN_VERB = (
    r"add\w*|creat\w*|put|puts|putting|book\w*|schedul\w*|reschedul\w*|set|sets|setting|mov\w*|shift\w*|"
    r"push\w*|postpon\w*|cancel\w*|delet\w*|remov\w*|drop\w*|clear\w*|updat\w*|chang\w*|edit\w*|renam\w*|"
    r"mark\w*|log|logged|logging|sav\w*|record\w*|noted?|notes|jot\w*|pencil\w*|block\w*|lock\w*|confirm\w*|"
    r"arrang\w*|remember\w*|remind\w*|complet\w*|called|named|done|sorted|all set|taken care of|good to go|wrapped up|"
    # presence shorthand ("It's in.", "You're good"): a claim with no other calendar word
    r"(?:it's|it is|that's|you're|you are) (?:in|on|off|good|set|down|booked)"
)
_MARKS = r"[✓✔☑✅❌✗✘🗓📅📆⏰]"  # check marks and calendar emoji read as a receipt
_ZH = re.compile(f"(?:{_ZH_TIME}|{_ZH_OBJECT}|{_ZH_VERB}|{_MARKS})", re.IGNORECASE)
_EN = re.compile(rf"\b(?:{_EN_TIME}|{_EN_OBJECT}|{_EN_VERB})\b|\bMay\b", re.IGNORECASE)

# A promise of an action that no tool call backs: "我这就帮你加上", "I'll add that now".
_PROMISE = re.compile(
    r"这就|马上|立刻|立即|现在就|稍等|正在(?:为|帮|给)?|我来|交给我|"
    r"\b(?:I'll|I will|I'm going to|I am going to|let me(?! know)|on it|right away|right now|doing (?:that|it|this) now|"
    r"one moment|just a (?:moment|sec|second)|give me a (?:moment|sec|second)|working on it|coming (?:right )?up)\b",
    re.IGNORECASE,
)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").replace("’", "'")


def mentions_calendar(text: str) -> bool:
    """Whether a reply mentions a date or time, an event or reminder, or a calendar verb."""
    folded = _fold(text)
    return bool(_ZH.search(folded) or _EN.search(folded))


def promises_action(text: str) -> bool:
    """Whether a reply promises to do something now ("我这就帮你加上", "I'll add that now")."""
    return bool(_PROMISE.search(_fold(text)))


def calendar_state(write_facts: Any, *, read: bool) -> str:
    """``changed`` / ``read`` / ``unchanged`` from ``CommandService.facts`` and the read flag
    of this turn: what the store's services recorded, never what the reply says."""
    changes = write_facts.changes
    wrote = bool(changes.created or changes.updated or changes.deleted or getattr(write_facts, "kinds", None))
    if wrote:
        return CHANGED
    return READ if read else UNCHANGED


def status_line(reply: str, state: str, lang: str) -> str | None:
    """The code-written line for a model-written reply that stays, or None.

    Only an ``unchanged`` turn gets one: a read or a write has its own receipt, and a reply
    that says nothing calendar-ish and promises nothing needs no correction."""
    if state != UNCHANGED:
        return None
    if mentions_calendar(reply) or promises_action(reply):
        return unchanged_line(lang)
    return None


__all__ = ["CHANGED", "READ", "STATES", "UNCHANGED", "calendar_state", "mentions_calendar", "promises_action",
           "status_line"]  # fmt: skip
