"""What a model's own reply claims happened: a write of some kind, or the calendar's contents.

This is a post-hoc check on the model's *words*, never intent classification: the turn is
over, nothing here decides what to do, and a claim only matters when the facts of the turn
(``guard.py``) do not back it. It works per clause:

1. Normalise (NFKC, lower case), blank out quoted text (a title or a quoted user phrase is
   not the assistant speaking), and split into clauses at sentence and clause punctuation.
2. Skip a clause that is not an assertion: a question or offer ("要我帮你加到日历吗？",
   "What time should I put it in for?"), a condition ("如果你愿意"), a capability or an
   instruction ("我可以帮你创建日程", "you can drag it"), hearsay or a concession
   ("听说…取消了", "取消了也好").
3. Write claims: a verb of one family (create, update, delete, remember) that is *completed*
   (已 / 成功 before it, 了 / 好 / 完成 after it, or a resultative like 建好 / 删掉), not
   negated (还没有 / haven't), not a promise (我会 / I'll — except for remembering, where the
   promise *is* the claim), and said by the assistant rather than about the user ("你已经把
   会议取消了" is the user's news). The 把-construction is handled by taking the last verb of
   the clause ("我把牙医预约改到下周三了" is a move, not a booking). English needs a subject
   "I", a passive ("has been moved"), a clause-initial participle ("Deleted."), or a presence
   phrase ("it's on your calendar").
4. State claims: what is on a day, free/busy, counts and listings ("明天你有空", "明天上午
   10点有个周会", "Tomorrow is completely free", "You have two meetings"). An attributive
   use ("没有安排的周末", "有空的时候") and an echo of the user's feelings ("听起来你这周
   很忙") are not claims.

Generic completions ("搞定", "Done!", "All set") take the kind of another claim in the
same reply, else they count as a create. The vocabulary is below; ``docs/guard.md`` has the
rules and the corpus figures (``evals/cases/offline/guard_*.jsonl``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

CREATE: Final = "create"
UPDATE: Final = "update"
DELETE: Final = "delete"
MEMORY: Final = "memory"
STATE: Final = "state"
WRITE_KINDS: Final = (CREATE, UPDATE, DELETE, MEMORY)
_GENERIC: Final = "generic"


@dataclass(frozen=True)
class Claim:
    """One asserted fact in a reply. ``presence`` marks "it is on your calendar": a create
    backs it, and so does a read (the event may have been there already)."""

    kind: str
    clause: str
    presence: bool = False


def _alt(words: str) -> str:
    """Alternation, longest first, so a prefix never shadows a longer word."""
    items = sorted({w for w in words.split("|") if w}, key=lambda w: (-len(w), w))
    return "|".join(items)


# ---- normalising and splitting ----------------------------------------------------------

_QUOTED: Final = re.compile(r"“[^”]{0,60}”|\"[^\"]{0,60}\"|「[^」]{0,60}」|『[^』]{0,60}』|《[^》]{0,60}》")
_SPLIT: Final = re.compile(r"[。.!?;\n~…—,]+|(?<![0-9]):|:(?![0-9])|\s-\s")
_SENTENCE: Final = re.compile(r"[^。!?\n]*[。!?\n]*")


def normalize(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text or "").lower()
    folded = folded.replace("\u2019", "'").replace("\u2018", "'")
    # an emoji or symbol ends a clause the way punctuation does ("加进日历啦🎉 记得带伞")
    folded = "".join("\n" if unicodedata.category(ch) == "So" else ch for ch in folded)
    folded = _QUOTED.sub(" x ", folded)
    return re.sub(r"[ \t]+", " ", folded)


def _clauses(sentence: str) -> list[tuple[str, bool]]:
    """Clauses of one sentence, each with whether it ends the sentence as a question."""
    question = sentence.rstrip().endswith("?")
    parts = [p.strip() for p in re.split(r"\.(?=\s|$)|" + _SPLIT.pattern, sentence)]
    parts = [p for p in parts if p]
    return [(part, question and i == len(parts) - 1) for i, part in enumerate(parts)]


# ---- markers that make a clause something other than an assertion -----------------------

_HEDGE_ZH: Final = re.compile(
    "吗|么$|呢\\?|"
    + _alt(
        "几点|哪天|哪一天|什么时候|多久|多长时间|哪个|哪些|是否|是不是|有没有|要不要|需不需要|想不想|能不能|"
        "可不可以|行不行|好不好|对吗|对不对|还是说|怎么样|如何|要我|需要我|让我|我来|要不|不如|建议|不妨|"
        "可以考虑|或许|也许|可能|如果|要是|假如|万一|的话|等你|一旦|只要|除非|可以|我能|我就能|我也能|"
        "我支持|支持|功能|请|别忘|不要忘|也好|也行|也不错|也没关系|听说|据说|随时|你想|你希望|确认|还能|也能|都能|就能|"
        "能帮|能够|或者|或是"
    )
    + "|吧$|(?<!会)(?<!会一直)(?<!会永远)记得"
)
_HEDGE_EN: Final = re.compile(
    r"\b(?:should i|shall i|do you want|would you like|want me to|would you prefer|do you need|can i|could i|may i|"
    r"i can|i could|i'd be happy|i am able|i'm able|let me|let's|if|whether|when you|whenever|once you|as soon as|"
    r"unless|you can|you could|you might|you may|maybe|perhaps|might|i hope|hope|enjoy|remember to|don't forget|"
    r"sounds like|it sounds|seems like you|did you|do you|are you|is that|which|what time|how long|"
    r"i'm not sure|not sure|to delete|to move|to add)\b"
)
_NEG_ZH: Final = re.compile(
    _alt("没有|没能|没法|没|未能|尚未|并未|还没|无法|不能|不会|不用|不必|不需要|不要|别|不再|还不|不可以") + "|未(?!来)"
)
_NEG_EN: Final = re.compile(
    r"\b(?:not|never|no longer|haven't|hasn't|hadn't|didn't|don't|doesn't|wasn't|weren't|isn't|aren't|won't|"
    r"can't|cannot|couldn't|unable|nothing|no)\b"
)
# A promise is not a completed write ("我这就帮你加上", "I'll add it").
_FUTURE_ZH: Final = re.compile(
    r"(?:(?<![把的个场次那这开周例聚约晚早班年社宴大舞])会|将|将会|这就|马上|立刻|稍后|待会儿?|一会儿|准备|打算|再|来)"
    r"(?:帮你|给你|为你|替你|帮您|给您|为您)?(?:把[^,]{0,14})?$"
)
_FUTURE_EN: Final = re.compile(r"\b(?:i'll|i will|i'm going to|i am going to|going to|let me|i'd)\b")
# Someone other than the assistant did it ("你已经把会议取消了", "你老板把会改到周五了").
_OTHER_SUBJECT_ZH: Final = re.compile(r"(?<![帮给为替和跟按照让叫请])(?:你们?|您|他们?|她们?|老板|同事|对方|客户)(?!的)")
# Echoing the user's own feeling about being busy or free.
_ECHO_ZH: Final = re.compile(_alt("确实|真的|一定|肯定|想必|听起来|听上去|听你说|难怪|难得|看来|感觉"))
_UNSURE: Final = re.compile(
    _alt("不确定|不知道|不清楚|没查|还没查|没看|还没看|还没有查") + r"|\bi (?:don't|do not|can't|cannot|"
    r"haven't|didn't) (?:know|say|see|tell|check|look)"
)

# ---- write verbs --------------------------------------------------------------------------

_VERBS_ZH: Final = {
    CREATE: "创建|新建|建立|建好|建了|建个|添加|添上|加上|加入|加到|加进|加在|加好|加了|放到|放进|放入|放在|放上|写进|写入|写到|"
    "写上|写在|"
    "记到|记进|记入|记在日|记上|录入|录进|存到日|存入日|排上|排进|排到|排好|排在|安排上|安排好|安排了|安排在|安排|预约好|预约了|预约|"
    "约好了|约在|订好|订上|定好|定在|设好|标记|生成|开好|就位|落到|设置好|设置了|设置|设为|设成|登记|标上|列入|纳入|同步到|保存|存好|挂上|占好|占上|留好|留出|"
    "进日历|进了日历|进日程|进了日程|入日历|入日程|记日历|记日程",
    UPDATE: "修改|改好|改成|改为|改到|改在|改了|改期|更改|更新|调整|调到|调成|挪到|挪了|挪至|挪好|移到|移至|移动到|换到|换成|"
    "换了|推迟|推后|延后|"
    "延期|顺延|提前到|提前了|提前至|延长|缩短|重新安排|改过|推了|推到|往后推|往前推|换好|挪好|调好",
    DELETE: "删除|删掉|删了|删去|删好|删光|删完|删干净|移除|去掉|拿掉|拿下来|清空|清除|清掉|清理掉|清理了|清理|取消|撤销|撤掉|"
    "撤回|作废|划掉|抹掉",
    # code-switched replies: "已经 add 到你的 calendar 了", "帮你 schedule 好了"
    "en_" + CREATE: "add|schedule|book|save|set up|put",
    "en_" + UPDATE: "move|update|reschedule|change",
    "en_" + DELETE: "delete|cancel|remove",
    MEMORY: "记住|记下|记好|记牢|牢记|记着|记录|记在心|记在|存下|存起来|存档|存入记忆|存进记忆|写入记忆|写进记忆|保存到记忆|"
    "保存在记忆|存到记忆|记得",
}
_VERB_KIND_ZH: Final = {verb: kind.removeprefix("en_") for kind, words in _VERBS_ZH.items() for verb in words.split("|")}
_EN_IN_ZH: Final = "|".join(w for k, v in _VERBS_ZH.items() if k.startswith("en_") for w in v.split("|"))
_VERB_ZH: Final = re.compile(
    _alt("|".join(v for k, v in _VERBS_ZH.items() if not k.startswith("en_")))
    + rf"|(?<![a-z])(?:{_EN_IN_ZH})(?:ed|d)?(?![a-z])"
    + "|(?<=已)加|(?<=已经)加|(?<![忘丢跑逃])[\u4e00-\u9fff]掉了"
    + "|[加建排订定约设改换挪调推删清撤记存标开](?=好[了啦])"  # any calendar action + 好了: 换好了, 开好了
)
_SINGLE_ZH: Final = {"加": CREATE, "建": CREATE, "排": CREATE, "订": CREATE, "定": CREATE, "约": CREATE,
                     "设": CREATE, "标": CREATE, "开": CREATE, "改": UPDATE, "换": UPDATE, "挪": UPDATE,
                     "调": UPDATE, "推": UPDATE, "删": DELETE, "清": DELETE, "撤": DELETE, "记": MEMORY,
                     "存": MEMORY}  # fmt: skip
_NOUN_BEFORE_ZH: Final = re.compile(r"(?:的|个|些|这|那|么|啥|有|没|无|项|种|新|其他|别的|任何|所有|不)$")
_INHERENT_ZH: Final = re.compile(r"[好了完掉妥着]|存档|进日|进了")
_DONE_BEFORE_ZH: Final = re.compile(r"已|成功|都已")
_DONE_AFTER_ZH: Final = re.compile(r"了|啦|完成|成功|完毕|妥当|^好|^上了|^进去|^下来|^完")
_AMBIGUOUS_ZH: Final = frozenset({"保存", "记录", "存好", "记在"})
_MEMORY_WORDS_ZH: Final = re.compile(_alt("记忆|偏好|习惯|喜好|号码|地址|生日|信息"))
_CALENDAR_WORDS_ZH: Final = re.compile(_alt("日历|日程|行程|会议|提醒|活动"))
_GENERIC_ZH: Final = re.compile(_alt("搞定|弄好了|整好了|办好了|妥了|都好了|安排妥当|ok了|好了好了"))
_PRESENCE_ZH: Final = re.compile(
    r"(?<!从)(?<!从你的)[入进上到在记](?:了)?\s*(?:你的|您的)?\s*(?:日历|日程表|日程|行程|"
    r"calendar)\s*(?:上|里|中)?(?:了|啦)|(?:已经|已|都)在(?:你的|您的)?(?:日历|日程|行程|日程表)(?:上|里|中|内)|在(?:你的|您的)?(?:日历|日程|行程|日程表)(?:上|里|中|内)了"
)

_P: Final = (
    r"(?:i've|i have|i|we've|we have|we)"
    r"(?:\s+(?:just|already|also|now|successfully|quickly|gone ahead and|went ahead and|have|had))*"
)
_VERBS_EN: Final = {
    CREATE: r"added|created|scheduled|booked|put|set up|penciled|pencilled|entered|logged|blocked(?: off| out)?|reserved|"
    r"inserted|placed|"
    r"synced|made an event|made an entry|slotted|got you down|written (?:it|that) (?:in|into)|put you down",
    UPDATE: r"moved|rescheduled|changed|updated|shifted|pushed|bumped|renamed|edited|modified|adjusted|postponed|brought forward|"
    r"swapped|extended|shortened|switched",
    DELETE: r"deleted|removed|cancell?ed|cleared|erased|dropped|wiped|scrapped|got rid of|(?:took|taken) (?:\S+\s+){0,4}?off",
    MEMORY: r"remembered|noted|stored|memorized|memorised|made a (?:\w+ )?note|committed (?:that|it|this) to memory|jotted "
    r"(?:that |it |this )?down",
}
_AMBIGUOUS_EN: Final = r"saved|recorded"
_ANY_VERB_EN: Final = "|".join(_VERBS_EN.values()) + "|" + _AMBIGUOUS_EN
_WRITE_EN: Final = re.compile(
    rf"(?P<subj>\b{_P}\s+)(?P<v>{_ANY_VERB_EN})\b"
    rf"|(?P<pass>\b(?:has|have|had)\s+been\s+(?:\w+\s+)?|\b(?:is|was|were|are|'s|'re|it's|that's)\s+(?:now\s+|already\s+|been\s+|successfully\s+|all\s+)*)(?P<pv>{_ANY_VERB_EN})\b"
    rf"|^(?P<head>(?:ok|okay|sure|great|alright|yes|got it|successfully|just|all)?\s*)(?P<hv>{_ANY_VERB_EN})\b"
    rf"|^(?:new\s+)?(?:event|meeting|appointment|entry|reminder|item)s?\s+(?P<nv>{_ANY_VERB_EN})\b"
    rf"|\bconsider it\s+(?P<cv>done|remembered|noted|booked|added|scheduled)\b"
    rf"|^(?:calendar|schedule|diary|agenda)\s+(?P<kv>updated|saved)\b"
)
_MEMORY_PROMISE_EN: Final = re.compile(
    r"\b(?:i'll|i will)\s+(?:always\s+|make sure to\s+|be sure to\s+)?remember\b|\bi won't "
    r"forget\b|\b(?:i'll|i will) keep (?:that|it|this) in mind\b|\bkeep (?:that|it|this) in "
    r"mind\b"
)
_MEMORY_WORDS_EN: Final = re.compile(
    r"\b(?:memory|memories|preference|preferences|in mind|note|that you|address|number|plate|"
    r"birthday)\b"
)
_CALENDAR_WORDS_EN: Final = re.compile(
    r"\b(?:calendar|event|schedule|meeting|appointment|today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"week|weekend|at \d|\d ?(?:am|pm))\b"
)
_GENERIC_EN: Final = re.compile(
    r"^(?:ok|okay|great|alright|sure)?\s*(?:done|all done|all set|you're all set|you are all set|"
    r"done and done|that's done)\b"
)
_PRESENCE_EN: Final = re.compile(
    r"\b(?:'s|is|are|'re)\s+(?:now\s+|already\s+|all\s+|safely\s+)?(?:on|in)\s+(?:your|the)\s+(?:\w+\s+)?(?:calendar|diary|agenda|schedule|planner)\b"
    r"|\b(?:it|that)'s\s+(?:now\s+)?in\s+there\b|\bcalendar now (?:has|includes|shows)\b|\byou(?:'re|"
    r"\s+are)\s+(?:now\s+)?(?:down|booked in|pencilled in|penciled in)\s+for\b"
)
_ABSENCE_EN: Final = re.compile(
    r"\b(?:off|gone from|removed from)\s+(?:your|the)\s+(?:calendar|schedule|diary|agenda)\b|\b(?:is|"
    r"are|'s)\s+(?:now\s+)?gone\b"
)
_NOW_AT_EN: Final = re.compile(r"\bis now (?:at|on|from)\b|\bnow (?:starts|ends|begins)\b|\binstead of\b")

# ---- calendar-state phrases ---------------------------------------------------------------

_DAY_REF_ZH: Final = re.compile(
    _alt(
        "今天|明天|后天|大后天|昨天|前天|今晚|明晚|明早|今早|今日|明日|本周|这周|下周|上周|周末|本月|这个月|下个月|下月|上午|下午|"
        "晚上|早上|中午|全天|整天|一整天|那天|当天|那个时间|这个时间|时间段|那时|日历|日程|行程|你|您"
    )
    + r"|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|"
    r"[0-9一二三四五六七八九十]+月[0-9一二三四五六七八九十]+[日号]|[0-9]+[日号]"
)
_EVENT_ZH: Final = _alt(
    "会议|会|安排|日程|活动|约会|预约|面试|课|聚餐|饭局|航班|体检|出差|行程|事|聚会|站会|周会|例会|培训|讲座|"
    "提醒|考试|比赛|手术|复查|航班|飞机"
)
_QTY_ZH: Final = r"(?:[0-9]+|[一二两三四五六七八九十几]+)?\s*(?:个|场|项|件|条|次|些)"
_STATE_ZH: Final = [
    # free / busy
    (
        "free",
        re.compile(
            _alt(
                "有空|没空|空闲|空着|空档|是空的|很空|挺空|比较空|都空|没事|没啥事|没什么事|很闲|挺闲|闲着|不忙|"
                "很忙|挺忙|比较忙|太忙|满了|"
                "排满|占满|很满|挺满|被占|没时间|空出来"
            )
        ),
    ),
    # nothing on
    (
        "none",
        re.compile(
            rf"(?:没有|没|无|并无)(?:任何|什么|啥|其他|别的|其它)?的?(?:{_EVENT_ZH}|冲突)|什么(?:安排|日程|"
            rf"事)?都没有?|不冲突"
        ),
    ),
    # something on: 有个周会, 有两个会, 还有4个会, 各有一个会, 有安排
    (
        "has",
        re.compile(
            rf"(?<![没沒无])有{_QTY_ZH}[^,.!?;]{{0,8}}?(?:{_EVENT_ZH})|(?<![没沒无])有(?:安排|日程|事|会议|活动|冲突)|"
            rf"剩(?:下)?{_QTY_ZH}[^,.!?;]{{0,6}}?(?:{_EVENT_ZH})"
        ),
    ),
    (
        "present",
        re.compile(
            r"(?:日历|日程|行程)(?:(?:上|里|中)(?:已经|已|还)?|(?:已经|已|还))(?:有|显示)|已经有(?:这个|"
            r"这条)?(?:安排|日程)|(?:会|会议|安排|日程|预约)(?:还在|仍在|依然在)"
        ),
    ),
    ("first", re.compile(r"(?:第一个|下一个|最后一个|下个|唯一)的?(?:会|会议|安排|日程)|的(?:安排|日程|行程)(?:是|有|包括)")),
    ("due", re.compile(r"你[^,.!?;]{0,8}?[0-9一二两三四五六七八九十]\s*(?:点|:[0-9]{2})[^,.!?;]{0,4}?要")),
    ("met", re.compile(r"(?:已经)?约了")),
    ("conflict", re.compile(r"(?:跟|和|与)[^,.!?;]{0,6}冲突|有冲突|冲突了")),
]
_LIST_ZH: Final = re.compile(
    r"(?:安排|日程|行程)(?:如下|是|有)?\s*:|"
    r"^\s*(?:today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s*:\s*\S|"
    r"\b(?:today's|tomorrow's|tonight's|this week's|your|\w+day's)\s+(?:schedule|agenda|plans?)\s*:|"
    r"以下是(?:你|您)的(?:安排|日程)|(?:共有|一共|总共)\s*(?:[0-9]+|[一二两三四五六七八九十]+)"
)
_ATTRIBUTIVE_ZH: Final = re.compile(r"^(?:的[\u4e00-\u9fff]|的时候|时间|时|的话|时候)")
_EVENT_EN: Final = (
    r"meetings?|events?|appointments?|calls?|plans?|things?|anything|nothing|flights?|1:1s?|one-on-ones?|dinners?|lunch(?:es)?|class(?:es)?|"
    r"sessions?|interviews?|standups?|dentist|reviews?|syncs?|part(?:y|ies)|something|items?|conflicts?|commitments?|reservations?|bookings?|"
    r"trips?|workouts?|gym|classes"
)
_STATE_EN: Final = [
    ("free", re.compile(r"\byou(?:'re|\s+are)\s+(?:\w+\s+)?(?:free|available|open|clear|busy|booked|swamped|slammed|packed)\b")),
    (
        "day",
        re.compile(
            r"\b(?:today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|calendar|schedule|day|week|weekend|"
            r"morning|afternoon|evening|night|slot|time)(?:\s+\w+)?(?:\s+(?:is|looks|seems)|'s)\s+(?:\w+\s+){0,2}?"
            r"(?:free|open|clear|empty|busy|packed|full|light|quiet|booked|taken|available)\b"
        ),
    ),
    (
        "have",
        re.compile(
            rf"\byou(?:'ve|\s+have|\s+got|'ve\s+got|\s+have\s+got|\s+already\s+have|\s+still\s+have|\s+only\s+have|\s+don't\s+have|\s+do\s+not\s+have)"
            rf"\s+(?:\S+\s+){{0,4}}?(?:{_EVENT_EN})\b"
        ),
    ),
    ("nothing", re.compile(r"(?<!with )\bnothing\s+(?:is\s+|'s\s+)?(?:on|scheduled|planned|booked)\b")),
    (
        "there",
        re.compile(
            rf"\bthere(?:'s|\s+is|\s+are)\s+(?:no|nothing|only|just|\d+|one|two|three|four|five|a few|several|a|"
            rf"an)\s+(?:[\w-]+\s+){{0,2}}?(?:{_EVENT_EN}|on)\b"
        ),
    ),
    (
        "none",
        re.compile(
            rf"\bno\s+(?:\w+\s+)?(?:{_EVENT_EN})\s+(?:found|scheduled|planned|on|for|today|tomorrow|this|next)\b|"
            rf"\bno conflicts?\b"
        ),
    ),
    (
        "list",
        re.compile(
            r"\bhere(?:'s|\s+is|\s+are)\s+(?:your|what's|what is|the)\s+(?:\w+\s+)?(?:schedule|calendar|agenda|"
            r"events|plan|day|week|on)\b"
        ),
    ),
    ("next", re.compile(r"\byour (?:next|first|last) (?:meeting|event|appointment|call) is\b")),
    ("conflict", re.compile(r"\b(?:conflicts|clashes|overlaps) with\b")),
]
_ECHO_EN: Final = re.compile(r"\b(?:sounds like|sounds|seems like|must be|i bet|i hear)\b")


# ---- the detector -------------------------------------------------------------------------


def find_claims(text: str) -> list[Claim]:
    """Every claim in ``text``, in order. Never raises; an empty list means "nothing claimed"."""
    if not isinstance(text, str) or not text.strip():
        return []
    norm = normalize(text)
    found: list[Claim] = []
    for sentence in _SENTENCE.findall(norm):
        if not sentence.strip():
            continue
        refs = bool(_DAY_REF_ZH.search(sentence))
        claims = [c for clause, question in _clauses(sentence) for c in _clause_claims(clause, question, refs)]
        if not claims and _LIST_ZH.search(sentence) and not _is_hedged(sentence.rstrip("。!?\n"), False):
            claims = [Claim(STATE, sentence.strip())]  # "今天的安排如下：…", "明天的行程：…"
        found += claims
    if all(c.kind != _GENERIC for c in found):
        return found
    if any(c.kind in WRITE_KINDS for c in found):  # "Done, I cancelled Friday's gym": the delete says what was done
        return [c for c in found if c.kind != _GENERIC]
    return [Claim(CREATE, c.clause) if c.kind == _GENERIC else c for c in found]


def _is_hedged(clause: str, question: bool) -> bool:
    return question or clause.endswith("?") or bool(_HEDGE_ZH.search(clause) or _HEDGE_EN.search(clause))


def _clause_claims(clause: str, question: bool, sentence_refs: bool) -> list[Claim]:
    if _is_hedged(clause, question):
        return []
    out: list[Claim] = []
    write = _write_zh(clause) or _write_en(clause)
    if write is not None:
        out.append(write)
    elif _state_zh(clause, sentence_refs) or _state_en(clause):
        out.append(Claim(STATE, clause))
    return out


def _write_zh(clause: str) -> Claim | None:
    presence = _PRESENCE_ZH.search(clause)
    if presence and not _NEG_ZH.search(clause[: presence.start()]):
        last = _last_verb_zh(clause)
        if last is None or last.kind == CREATE:
            return Claim(CREATE, clause, presence=True)
        return last
    last = _last_verb_zh(clause)
    if last is not None:
        return last
    if _GENERIC_ZH.search(clause):
        return Claim(_GENERIC, clause)
    return None


def _last_verb_zh(clause: str) -> Claim | None:
    """The clause's last completed write verb: in a 把-construction the verbs before it
    are part of the object ("把牙医预约改到下周三了")."""
    claim: Claim | None = None
    for m in _VERB_ZH.finditer(clause):
        verb = m.group(0)
        if verb.isascii() and not re.search(r"[\u4e00-\u9fff]", clause):
            continue  # English clauses are read by _write_en
        base = re.sub(r"e?d$", "", verb) if verb.isascii() and verb not in _VERB_KIND_ZH else verb
        kind = (
            _VERB_KIND_ZH.get(verb)
            or _VERB_KIND_ZH.get(base)
            or _VERB_KIND_ZH.get(base + "e")
            or _SINGLE_ZH.get(verb)
            or (DELETE if verb.endswith("掉了") else CREATE)
        )
        pre, post = clause[: m.start()], clause[m.end() :]
        if re.match(r"(?:之后|以后|后(?!天)|的话|完之后)", post):
            continue  # "取消之后下午就轻松多了": a time clause, not a report ("挪到后天了" is one)
        if verb.startswith(("安排", "预约", "设置", "记录", "保存")) and _NOUN_BEFORE_ZH.search(pre):
            continue
        if post.startswith("得"):
            continue
        if _NEG_ZH.search(pre) or pre.endswith("不"):
            continue  # 不 right before the verb declines it: "那就不加了" is no report of an add
        if "我" not in pre and _OTHER_SUBJECT_ZH.search(pre):
            continue
        if kind == MEMORY:
            promised = bool(re.search(r"(?:我|以后|今后|往后|以后都)(?:也|都|一定)?会(?:一直|永远)?$|会(?:一直|永远)$", pre))
            if verb == "记得" and not promised:
                continue
            if not (promised or _DONE_BEFORE_ZH.search(pre) or _DONE_AFTER_ZH.search(post) or _INHERENT_ZH.search(verb)):
                continue
        else:
            if _FUTURE_ZH.search(pre):
                continue
            relative = bool(re.match(r"的(?:日程|日历|安排|会议|提醒|活动)", post) and re.search(r"我|为你|帮你|给你|为您", pre))
            if not (_DONE_BEFORE_ZH.search(pre) or _DONE_AFTER_ZH.search(post) or re.search(r"[好了完掉妥]", verb) or relative):
                continue
        if verb in _AMBIGUOUS_ZH:
            kind = MEMORY if _MEMORY_WORDS_ZH.search(clause) or not _CALENDAR_WORDS_ZH.search(clause) else CREATE
        elif kind == MEMORY and _CALENDAR_WORDS_ZH.search(clause) and not _MEMORY_WORDS_ZH.search(clause):
            kind = CREATE
        elif kind == CREATE and re.search("记忆|偏好", clause):
            kind = MEMORY
        if kind == CREATE and re.search(r"从(?:你的|您的)?(?:日历|日程|行程)", pre):
            kind = DELETE  # 从日历上拿下来了
        claim = Claim(kind, clause)
    return claim


def _write_en(clause: str) -> Claim | None:
    if not re.search(r"[a-z]", clause):
        return None
    promise = _MEMORY_PROMISE_EN.search(clause)
    if promise and not _NEG_EN.search(clause[: promise.start()]):
        return Claim(MEMORY, clause)
    for m in _WRITE_EN.finditer(clause):
        if m.group("kv"):
            return Claim(CREATE, clause)  # "Calendar updated: team dinner on Saturday"
        verb = next(g for g in (m.group("v"), m.group("pv"), m.group("hv"), m.group("nv"), m.group("cv")) if g)
        pre = clause[: m.start()]
        if _NEG_EN.search(pre) or _FUTURE_EN.search(pre):
            continue
        if m.group("cv") == "done":
            return Claim(_GENERIC, clause)
        return Claim(_kind_en(verb, clause), clause)
    if _ABSENCE_EN.search(clause) and not _NEG_EN.search(clause):
        return Claim(DELETE, clause)
    presence = _PRESENCE_EN.search(clause)
    if presence and not _NEG_EN.search(clause[: presence.start()]):
        return Claim(CREATE, clause, presence=True)
    if _NOW_AT_EN.search(clause) and not _NEG_EN.search(clause):
        return Claim(UPDATE, clause)
    if _GENERIC_EN.search(clause):
        return Claim(_GENERIC, clause)
    return None


def _kind_en(verb: str, clause: str) -> str:
    if re.fullmatch(_AMBIGUOUS_EN, verb):
        if _MEMORY_WORDS_EN.search(clause) or not _CALENDAR_WORDS_EN.search(clause):
            return MEMORY
        return CREATE
    for kind, words in _VERBS_EN.items():
        if re.fullmatch(words, verb):
            return kind
    return CREATE  # pragma: no cover - every alternative belongs to a family


def _state_zh(clause: str, sentence_refs: bool) -> bool:
    if not re.search(r"[\u4e00-\u9fff]", clause) or _UNSURE.search(clause):
        return False
    if not (sentence_refs or _DAY_REF_ZH.search(clause)):
        return False
    for name, rx in _STATE_ZH:
        for m in rx.finditer(clause):
            if _ATTRIBUTIVE_ZH.search(clause[m.end() :]):
                continue
            if name in ("free", "none") and _ECHO_ZH.search(clause):
                continue
            if name == "met" and "你" not in clause:
                continue
            return True
    return False


def _state_en(clause: str) -> bool:
    if not re.search(r"[a-z]", clause) or _UNSURE.search(clause) or _ECHO_EN.search(clause):
        return False
    return any(rx.search(clause) for _, rx in _STATE_EN)


def claims_write(text: str) -> bool:
    """Any write claim (create, update, delete, remember)."""
    return any(c.kind in WRITE_KINDS for c in find_claims(text))


def claims_calendar_state(text: str) -> bool:
    """A claim about what is on the calendar (contents, free/busy, counts)."""
    return any(c.kind == STATE for c in find_claims(text))


__all__ = [
    "CREATE",
    "UPDATE",
    "DELETE",
    "MEMORY",
    "STATE",
    "WRITE_KINDS",
    "Claim",
    "find_claims",
    "claims_write",
    "claims_calendar_state",
    "normalize",
]
