"""The grounding latch: a write must come from what the user wrote this turn.

The model picks the tool and fills its slots; this module never decides *whether* the
user wants an event. Before a create is written it compares the model's slots with the
texts that may ground them — the user's message this turn, the pending command, and what a
search tool returned this turn — and reports reasons to *ask first*. A reason turns the
write into a pending confirmation that the user answers with a button or a short yes/no
(zero model calls). Nothing here can cause a write; an empty list only lets the normal
checks (past time, conflicts, duplicates) run. The rules are in ``docs/grounding.md``.

Two checks:

1. **Title**: the title's content units (each CJK character, each Latin word of two or
   more letters, stop words aside) must be at least half covered by the grounding texts,
   and at least one unit must come from the user's own words or the pending command (a
   title made only of stored text — an imported SUMMARY, a memory — is never grounded by
   itself; that is how store text stays data).
2. **Tense and date**: the message's own date and tense words must not contradict the day
   the model chose: a past marker (昨天, 刚才, 上周, "yesterday", "last week", "just got
   off", 今天上午 once it is afternoon, a perfective 了/过 on an event verb, an English
   past-tense event verb) with no future marker (明天, 下周, 要, "tomorrow", "will", …),
   or an exact day named in the message (明天 = D+1) that the chosen day is not. The clause
   rules (issue 20: a 了 anywhere after the event verb, 已经…完, 刚 alone, a past relative
   clause naming the event, an event judged with 得, English "back from" / "is over" …) are
   ``CLAUSE_RULES``; a same-day word (今晚) in a clause that says the event is done is not a
   future marker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from agent.runtime.conditionals import conditional_reasons
from agent.runtime.narrative import narrative_markers, reported_markers, slot_after
from agent.services.wording import fold, units
from agent.timesym.clarify import date_mentions, time_mentions
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve

# ---- vocabulary (data; the functions below only look words up) ---------------------------

#: Words that place the remark in the past, whatever the verb.
PAST_WORDS_ZH = (
    "昨天",
    "昨日",
    "昨晚",
    "昨儿",
    "前天",
    "大前天",
    "刚才",
    "刚刚",
    "方才",
    "上周",
    "上星期",
    "上礼拜",
    "上个星期",
    "上个礼拜",
    "上个月",
    "上次",
    "上回",
    "去年",
    "前几天",
    "当时",
)
#: 之前 / 以前 mean "before X" after a date or an event ("周五之前交报告") and "earlier" on
#: their own; only the clause-initial use is a past marker.
PAST_CLAUSE_START_ZH = ("之前", "以前", "早些时候", "那天", "那时")
#: Event verbs whose perfective 了 / experiential 过 says the event already happened.
EVENT_VERBS_ZH = (
    "开",
    "吃",
    "爬",
    "去",
    "见",
    "看",
    "约",
    "做",
    "打",
    "聊",
    "谈",
    "跑",
    "买",
    "喝",
    "玩",
    "逛",
    "办",
    "交",
    "参加",
    "面试",
    "体检",
    "上",
    "学",
    "练",
    "游",
    "拜访",
    "出差",
    "加班",
    "健身",
    "唱",
    "骑",
    "考",
    "拍",
    "剪",
    "修",
    "洗",
    "睡",
    "回",
    "到",
    "来",
    "散",
    "遛",
    "听",
    "讲",
    "签",
    "聚",
    "碰",
    "培训",
    "复诊",
    "复查",
    "通",
    "视频",
    "主持",
    "组织",
    "结束",
    "堵",
    "聊",
    # a commute or a school day that is over ("下班了", "孩子放学了", "终于下课了")
    "下班",
    "放学",
    "下课",
    "收工",
    "到家",
)
#: 刚 alone ("刚开完会", "刚到家") places the event just now; these words are something else
#: (刚好 "as it happens", 刚需 …), and 刚X的 modifies a noun ("刚上映的那部电影").
JUST_ZH = "刚"
NOT_JUST_ZH = ("刚好", "刚巧", "刚需", "刚性", "刚强", "金刚", "刚度", "刚毅", "刚柔", "刚正")
#: 已经 … 完 ("会议已经开完", "已经吃完午饭"): a resultative the message says is done.
ALREADY_ZH = ("已经", "已")
RESULT_ZH = ("完", "结束")
#: An event named by a past relative clause: verb + 的 + 那个/那场 … ("王总开的那个会").
RELATIVE_HEADS_ZH = ("那个", "那场", "那次", "那顿", "那家", "那部", "那趟", "那位", "那节", "那堂", "那回")
#: An event judged with 得 + a degree word ("上午的会开得很顺利", "聊得还不错").
JUDGED_ZH = (
    "很",
    "挺",
    "还",
    "不错",
    "太",
    "真",
    "非常",
    "特别",
    "蛮",
    "比较",
    "超",
    "一般",
    "不太",
    "不怎么",
    "顺利",
    "开心",
    "愉快",
    "累",
    "爽",
    "饱",
    "晚",
    "久",
    "好",
)
#: Same-day words that look forward (今晚 …) but not against a completion in their clause:
#: "今晚的聚餐已经吃完了" is a remark, whatever later time today the model picks.
SAME_DAY_ZH = ("今晚", "今天晚上")
#: A relative clause on an *object* describes a participant, not the event asked for:
#: "周五和上周见的那个客户吃饭", "去上次去的那个公园", "at the place we went last time". Its past
#: words are read as part of the noun (a relative clause at the head of the clause still
#: names the event: "王总开的那个会真无聊").
OBJECT_LEADS_ZH = ("和", "跟", "同", "去", "带", "找", "陪", "给", "把", "约", "见", "到")
_OBJECT_RELATIVE_EN = re.compile(
    r"\b(?:at|with|to|for|from|of) the (?:[a-z'-]+ ){1,2}(?:that |who |whom )?(?:we|i|you|they|he|she) [a-z]+"
    r"(?: (?:last [a-z]+|yesterday|before|once|[a-z]+ ago))?"
)
SAME_DAY_EN = ("tonight", "this afternoon", "this evening")
#: Words after 了 that are not the perfective of an event ("开了个会" is; "别忘了" is not).
NOT_PERFECTIVE_ZH = ("忘了", "好了", "算了", "对了", "为了", "除了", "罢了", "得了", "了解", "了不起", "不了", "极了", "死了")
PAST_WORDS_EN = (
    "yesterday",
    "last night",
    "last week",
    "last month",
    "last year",
    "last weekend",
    "earlier today",
    "this past",
    "ago",
    "just got off",
    "just got back",
    "just got home",
    "just finished",
    "just had",
    "just came back",
    "just left",
    "the other day",
    "previously",
)
#: English forms that say an event or a commute/school day is over ("Back from the gym",
#: "Done with work for today", "Class is over", "Lunch with the team just ended").
DONE_EN = (
    "back from",
    "home from",
    "off work",
    "done with",
    "done for the day",
    "school's out",
    "is over",
    "are over",
    "'s over",
    "is done",
    "are done",
    "ended",
    "wrapped",
    "just out of",
    "through with",
    "survived",
    "finally home",
    "back home",
    "already",
    "got out of",
)
PAST_VERBS_EN = (
    "had",
    "went",
    "was",
    "were",
    "met",
    "did",
    "attended",
    "finished",
    "visited",
    "saw",
    "ate",
    "grabbed",
    "played",
    "ran",
    "hiked",
    "called",
    "talked",
    "spent",
    "took",
    "came",
    "got",
    "left",
    "enjoyed",
    "wrapped up",
    "caught up",
    "hung out",
)
LAST_WEEKDAYS_EN = (
    "last monday",
    "last tuesday",
    "last wednesday",
    "last thursday",
    "last friday",
    "last saturday",
    "last sunday",
)
#: "the last Friday of every month" names a repeat's day, not a past Friday (issue 28).
_LAST_OF = re.compile(r"(?<![a-z])last (?:mon|tues|wednes|thurs|fri|satur|sun)day (?:of|in)(?![a-z])")
MORNING_WORDS = ("今天上午", "今早", "今天早上", "今天早晨", "this morning")
#: Words that look forward: with one of these, a past marker is about something else.
FUTURE_WORDS_ZH = (
    "明天",
    "明早",
    "明晚",
    "后天",
    "大后天",
    "下周",
    "下星期",
    "下礼拜",
    "下个",
    "下次",
    "下回",
    "下月",
    "明年",
    "待会",
    "等会",
    "等一下",
    "一会儿",
    "回头",
    "以后",
    "将来",
    "今晚",
    "今天晚上",
    "要",
    "想",
    "打算",
    "准备",
    "计划",
    "得去",
    "需要",
    "提醒",
    "记得",
    "安排",
    "预约",
    "预定",
    "预订",
    "约一下",
    "帮我",
    "加个",
    "加一个",
    "添加",
    "记一下",
    "放到",
    "加到",
    "定个",
    "订个",
    "别忘",
    "到时候",
    "将要",
    "会去",
    "再去",
)
FUTURE_WORDS_EN = (
    "tomorrow",
    "tonight",
    "next",
    "later",
    "upcoming",
    "will",
    "going to",
    "gonna",
    "need to",
    "have to",
    "plan to",
    "want to",
    "remind",
    "schedule",
    "book",
    "add",
    "put",
    "set up",
    "pencil",
    "don't forget",
    "coming",
    "this afternoon",
    "this evening",
)
_CLAUSE = re.compile(r"[，,。.!！?？;；\n]+")

TITLE_COVERAGE = 0.5


@dataclass(frozen=True)
class Grounding:
    """The texts that may ground a write in this turn."""

    user_text: str
    stub_title: str = ""
    found: tuple[str, ...] = ()  # what a search tool returned this turn

    def with_found(self, texts: Iterable[str]) -> Grounding:
        return Grounding(self.user_text, self.stub_title, self.found + tuple(t for t in texts if t))


@dataclass
class Verdict:
    reasons: list[str] = field(default_factory=list)

    @property
    def grounded(self) -> bool:
        return not self.reasons


def title_reasons(title: str, grounding: Grounding) -> list[str]:
    mine = units(title)
    if not mine:
        return []  # digits or punctuation only: nothing the user could have not written
    own = set(units(grounding.user_text) + units(grounding.stub_title))
    every = own | set(units(" ".join(grounding.found)))
    covered = sum(1 for unit in mine if unit in every)
    if not any(unit in own for unit in mine):
        return ["title_not_from_user"]
    if covered / len(mine) < TITLE_COVERAGE:
        return ["title_not_from_user"]
    return []


def _has_any(text: str, words: Iterable[str]) -> str | None:
    for word in words:
        if word in text:
            return word
    return None


def _has_word_en(text: str, words: Iterable[str]) -> str | None:
    """The first of ``words`` standing as a word in ``text``; one that starts with an apostrophe
    ("'s over") follows a word, so only its end is checked ("Meeting's over")."""
    for word in words:
        before = "" if word[:1] in "'’" else r"(?<![a-z])"
        if re.search(rf"{before}{re.escape(word)}(?![a-z])", text.replace("’", "'")):
            return word
    return None


def _clauses(folded: str) -> list[str]:
    return [clause.strip() for clause in _CLAUSE.split(folded) if clause.strip()]


def _verb_spans(clause: str) -> list[tuple[int, int]]:
    """(start, end) of every event verb in the clause."""
    return [(m.start(), m.end()) for verb in EVENT_VERBS_ZH for m in re.finditer(re.escape(verb), clause)]


def perfective_zh(clause: str) -> list[str]:
    """A perfective 了 anywhere after an event verb in the clause ("开了个会", "给爸爸打电话了"),
    or an experiential 过 right after it ("约过"); not 忘了 好了 算了 …"""
    found: list[str] = []
    for start, end in _verb_spans(clause):
        if clause[end : end + 1] == "过" and not any(w in clause[end - 1 : end + 3] for w in NOT_PERFECTIVE_ZH):
            found.append(clause[start : end + 1])
        for match in re.finditer("了", clause[end:]):
            at = end + match.start()
            if not any(word in clause[at - 1 : at + 2] for word in NOT_PERFECTIVE_ZH):
                found.append(clause[start : at + 1])
                break
    return found


def resultative_zh(clause: str) -> list[str]:
    """已经 … 完 / 结束 in one clause ("会议已经开完", "已经吃完午饭")."""
    for word in ALREADY_ZH:
        at = clause.find(word)
        if at >= 0 and any(result in clause[at:] for result in RESULT_ZH):
            return [clause[at:]]
    return []


def just_zh(clause: str) -> list[str]:
    """刚 alone ("刚到家"), not 刚好 …, not 刚X的 before a noun."""
    found: list[str] = []
    for match in re.finditer(JUST_ZH, clause):
        at = match.start()
        if any(clause[max(0, at - 1) : at + 2].find(word) >= 0 for word in NOT_JUST_ZH):
            continue
        if "的" in clause[at + 1 : at + 5]:
            continue
        found.append(clause[at : at + 3])
    return found


def relative_zh(clause: str) -> list[str]:
    """An event named by a past relative clause: "王总开的那个会", "上午去的那家餐厅"."""
    found: list[str] = []
    for _start, end in _verb_spans(clause):
        if clause[end : end + 1] == "的" and any(clause[end + 1 :].startswith(head) for head in RELATIVE_HEADS_ZH):
            found.append(clause[_start : end + 3])
    return found


def judged_zh(clause: str) -> list[str]:
    """An event judged with 得: "开得很顺利", "聊得还不错" (not 来得及 …)."""
    found: list[str] = []
    for start, end in _verb_spans(clause):
        if clause[end : end + 1] == "得" and any(clause[end + 1 :].startswith(w) for w in JUDGED_ZH):
            found.append(clause[start : end + 2])
    return found


def done_en(clause: str) -> list[str]:
    word = _has_word_en(clause, DONE_EN)
    return [word] if word else []


#: The clause rules, by name (a test switches each off and sees a case written). The first
#: five are completions: a same-day word in their clause does not make the remark a request.
CLAUSE_RULES = {
    "perfective": perfective_zh,
    "resultative": resultative_zh,
    "judged": judged_zh,
    "done_en": done_en,
    "just": just_zh,
    "relative": relative_zh,
}
COMPLETIONS = ("perfective", "resultative", "judged", "done_en")


def _completed(clause: str) -> bool:
    """A completion in the clause: a clause rule above, or an English past-tense event verb."""
    if _has_word_en(clause, PAST_VERBS_EN):
        return True
    return any(CLAUSE_RULES[name](clause) for name in COMPLETIONS if name in CLAUSE_RULES)


def strip_object_relatives(folded: str) -> str:
    """``folded`` without the relative clauses that describe an object (see OBJECT_LEADS_ZH)."""
    if not OBJECT_RELATIVE_RULE:
        return folded
    out: list[str] = []
    for clause in _CLAUSE.split(folded):
        for _start, end in sorted(_verb_spans(clause)):
            if clause[end : end + 1] != "的" or not any(clause[end + 1 :].startswith(h) for h in RELATIVE_HEADS_ZH):
                continue
            leads = [clause.find(w) + len(w) for w in OBJECT_LEADS_ZH if 0 <= clause.find(w) < _start]
            if leads:
                cut = min(leads)
                clause = clause[:cut] + "…" + clause[end + 1 :]
                break
        out.append(clause)
    return _OBJECT_RELATIVE_EN.sub(" ", "，".join(out))


def past_markers(text: str, ctx: TimeContext) -> list[str]:
    """The past markers code can read in ``text`` (empty when none)."""
    folded = strip_object_relatives(fold(text))
    found: list[str] = []
    if word := _has_any(folded, PAST_WORDS_ZH):
        found.append(word)
    for clause in _clauses(folded):
        if any(clause.startswith(word) for word in PAST_CLAUSE_START_ZH):
            found.append(clause[:2])
        for rule in CLAUSE_RULES.values():
            found += rule(clause)
    if word := _has_word_en(_LAST_OF.sub(" ", folded), PAST_WORDS_EN + LAST_WEEKDAYS_EN):
        found.append(word)
    if word := _has_word_en(folded, PAST_VERBS_EN):
        found.append(word)
    if ctx.local_now.hour >= 12 and (word := _has_any(folded, MORNING_WORDS)):
        found.append(word)
    return found


def future_markers(text: str, ctx: TimeContext | None = None) -> list[str]:
    """Words that look forward, and (with ``ctx``) an exact day after today named in the
    message ("12月8号去王医生开的那家诊所复诊"). A same-day word (今晚, "tonight") in a
    clause that says the event is done does not count."""
    found: list[str] = []
    for clause in _clauses(fold(text)):
        same_day_off = SAME_DAY_RULE and _completed(clause)
        found += [w for w in FUTURE_WORDS_ZH if w in clause and not (same_day_off and w in SAME_DAY_ZH)]
        found += [
            w
            for w in FUTURE_WORDS_EN
            if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", clause) and not (same_day_off and w in SAME_DAY_EN)
        ]
    if ctx is not None and FUTURE_DAY_RULE:
        later = [m for m in date_mentions(text, ctx) if m.exact and m.days and min(m.days) > ctx.today]
        found += [m.text for m in later]
    return found


#: Switches for the two rules that are not clause rules (the mutation tests turn them off).
SAME_DAY_RULE = True
FUTURE_DAY_RULE = True
OBJECT_RELATIVE_RULE = True


def date_reasons(
    day: date | None, start: time | None, grounding: Grounding, ctx: TimeContext, series_end: date | None = None
) -> list[str]:
    """Does the day the model chose contradict the message's own date and tense words?

    ``series_end`` is a repeat's last day: a date that names only it ("每周一练琴，到12月31日为止")
    is the end the message gives, not a day the start contradicts (``repeat_grounding.py``
    checks the end itself)."""
    text = grounding.user_text
    if not text:
        return []
    reasons: list[str] = []
    past = past_markers(text, ctx) + reported_markers(strip_object_relatives(fold(text)), ctx)
    # A start already gone is the past-time check's to ask about (it says so in its own words).
    now = ctx.local_now
    already_past = day is not None and (
        day < ctx.today or (day == ctx.today and start is not None and start < now.time().replace(tzinfo=None))
    )
    told = narrative_markers(text, ctx)  # issue 30: a plan then done, a diary, held early
    if past and not future_markers(text, ctx) and not already_past and not slot_after(text, past, ctx):
        reasons.append("past_tense:" + past[0])
    elif told and not already_past:
        reasons.append("past_tense:" + told[0])
    if day is not None:
        mentions = [m for m in date_mentions(text, ctx) if series_end is None or set(m.days) != {series_end}]
        exact = [m for m in mentions if m.exact]
        # Midnight and the small hours belong to the evening before ("明天晚上零点" is D+2 00:00).
        small_hours = start is not None and start < time(6)
        allowed = {d for m in mentions for d in m.days}
        if small_hours:
            allowed |= {d + timedelta(days=1) for d in allowed}
        if exact and day not in allowed:
            reasons.append("date_contradicts:" + exact[0].text)
    return reasons


def check_create(
    title: str,
    day: date | None,
    grounding: Grounding,
    ctx: TimeContext,
    start: time | None = None,
    *,
    series_end: date | None = None,
) -> Verdict:
    """Reasons to ask before writing ``title`` on ``day`` (at ``start``); none: go on."""
    clear = _has_any(fold(grounding.user_text), CLEAR_WORDS)
    dates = date_reasons(day, start, grounding, ctx, series_end)
    conditions = conditional_reasons(grounding.user_text)  # a create under a condition asks
    return Verdict(title_reasons(title, grounding) + dates + (["bulk_clear:" + clear] if clear else []) + conditions)


# ---- edits: the same latch for update_schedule / delete_schedule ---------------------------

#: Fields of an edit whose words must be the user's own this turn (rule 1 of grounding.py).
EDIT_WORD_FIELDS = ("targetTitle", "newTitle", "location", "notes")


#: Words that say "change" / "delete" in a message. Their absence does not decide anything:
#: it only makes code ask before the write ("明天的周会是几点？" with a delete call asks).
CHANGE_WORDS = (
    "改",
    "挪",
    "移",
    "换",
    "推",
    "提前",
    "延",
    "调",
    "放到",
    "放在",
    "标记",
    "完成",
    "做完",
    "搞定",
    "好了",
    "提醒",
    "叫",
    "地点",
    "备注",
    "加上",
    "设",
    "定在",
    "定到",
    "move",
    "change",
    "reschedul",
    "push",
    "shift",
    "rename",
    "mark",
    "done",
    "remind",
    "set",
    "put",
    "postpone",
    "delay",
    "bring",
    "make it",
    "switch",
    "update",
    "call",
    "finished",
    "complete",
    "打勾",
    "打个勾",
    "写完",
    "tick",
    # issue 30's fresh batch: a new value stated, not commanded ("is at 5 now", "should be at 3pm",
    # "at 12:30 instead")
    "instead",
    "should be",
    "now",
)
DELETE_WORDS = (
    "删",
    "取消",
    "去掉",
    "不去",
    "不要",
    "不用",
    "不参加",
    "不开",
    "撤",
    "清",
    "移除",
    "划掉",
    "拿掉",
    "算了",
    "不办",
    "不做",
    "不约",
    "cancel",
    "delet",
    "remov",
    "drop",
    "clear",
    "call off",
    "scrap",
    "skip",
    "not going",
    "won't",
    "get rid",
    "is off",  # issue 30: "the lunch with Chen on Thursday is off"
    "不吃",  # 这周四跟老陈的饭不吃了
)


#: The mood of the change verb (issue 20): a negated change, a question about the event, a
#: hedge or hearsay never writes. Negated changes and questions are answered from the store
#: with nothing pending (``ANSWER_KINDS``); a hedge or hearsay asks first.
NEGATORS_ZH = ("千万别", "千万不要", "不要", "不用", "不必", "不需要", "没必要", "无需", "不想", "先不", "别", "甭", "不", "没")
#: The change verbs a negator can stand on (不要取消, 别动, 先不删, 不用改了).
NEGATABLE_VERBS_ZH = (
    "删",
    "取消",
    "改",
    "挪",
    "移",
    "推迟",
    "推后",
    "延",
    "提前",
    "调",
    "换",
    "去掉",
    "撤",
    "清",
    "动",
    "标记",
    "碰",
)
#: Between the negator and the verb: 不要再改, 别给我删, 先不把它挪 …
NEGATION_FILLER_ZH = "再先帮我给把它都去"
NEGATORS_EN = ("don't", "dont", "do not", "never", "no need to", "not", "doesn't", "does not", "shouldn't", "stop")
NEGATABLE_VERBS_EN = (
    "cancel",
    "delete",
    "remove",
    "move",
    "change",
    "reschedule",
    "push",
    "shift",
    "touch",
    "drop",
    "clear",
    "rename",
    "mark",
    "edit",
    "postpone",
    "bring",
)
#: A question whatever else the sentence holds (取消了吗, 还在吗, 是不是).
QUESTION_MARKERS_ZH = (
    "了吗",
    "了么",
    "了没",
    "还在吗",
    "还有吗",
    "还开吗",
    "是不是",
    "有没有",
    "是否",
    "几点",
    "什么时候",
    "哪天",
    "啥时候",
    "多久",
    "有什么",
    "什么安排",
    "哪些",
    "还在不在",
)
#: A final 吗 after one of these is a polite request (能把周会挪到周三吗), not a question.
POLITE_FRAMES_ZH = ("能不能", "可不可以", "能否", "可以", "能帮", "能把", "帮我", "帮忙", "麻烦", "请", "你能")
QUESTION_START_EN = (
    "is",
    "was",
    "are",
    "were",
    "did",
    "does",
    "do",
    "has",
    "have",
    "had",
    "am",
    "when",
    "what",
    "where",
    "which",
    "how",
    "why",
    "who",
)
QUESTION_MARKERS_EN = ("still on", "still happening", "still scheduled", "still there")
POLITE_FRAMES_EN = (
    "can you",
    "could you",
    "would you",
    "will you",
    "can i",
    "could i",
    "please",
    "would it be",
    "is it possible",
)
HEDGES_ZH = ("可能", "也许", "好像", "大概", "或许", "说不定", "不确定", "不知道", "不一定", "要不要", "是不是该", "似乎")
HEDGES_EN = ("maybe", "perhaps", "not sure", "unsure", "might", "possibly", "probably", "i guess", "not certain")
HEARSAY_ZH = ("听说", "据说", "通知说", "说是", "有人说", "群里说")
#: X说 is hearsay unless the 说 is one of these words (说明, 比如说 …) or the speaker is 我.
NOT_HEARSAY_ZH = ("说明", "说一下", "说好", "说清楚", "比如说", "就是说", "再说", "所以说", "我说", "跟你说", "小说")
HEARSAY_EN = ("said", "says", "told me", "heard", "according to", "apparently", "supposedly")


def mood_reasons(text: str) -> list[str]:
    """Reasons the change verb of ``text`` is not a request: negated, a question, a hedge,
    hearsay (each ``kind:word``). Empty: nothing in the mood stops the change."""
    if not text:
        return []
    folded = fold(text)
    reasons: list[str] = []
    neg = re.search(
        f"({'|'.join(map(re.escape, NEGATORS_ZH))})[{NEGATION_FILLER_ZH}]{{0,3}}({'|'.join(map(re.escape, NEGATABLE_VERBS_ZH))})",
        folded,
    )
    if neg and not (neg.group(1) in ("不", "没") and neg.start() > 0 and folded[neg.start() - 1] in "要用必想先别"):
        reasons.append("negated:" + neg.group(0))
    elif m := re.search(
        rf"(?<![a-z'])({'|'.join(map(re.escape, NEGATORS_EN))})(?:\s+[a-z']+){{0,2}}?\s+"
        rf"({'|'.join(map(re.escape, NEGATABLE_VERBS_EN))})",
        folded,
    ):
        reasons.append("negated:" + m.group(0))
    plain = folded.rstrip("。.!！~～ ")
    if word := _has_any(plain, QUESTION_MARKERS_ZH):
        reasons.append("question:" + word)
    elif plain.endswith(("吗", "么", "嘛", "吗？", "吗?")) and not _has_any(plain, POLITE_FRAMES_ZH):
        reasons.append("question:吗")
    elif (
        re.match(rf"({'|'.join(QUESTION_START_EN)})\b", plain)
        and not _has_word_en(plain, POLITE_FRAMES_EN)
        and not re.match(r"do(n't| not)\b", plain)
    ):
        reasons.append("question:" + plain.split()[0])
    elif word := _has_word_en(plain, QUESTION_MARKERS_EN):
        reasons.append("question:" + word)
    elif plain.endswith(("?", "？")) and not (_has_any(plain, POLITE_FRAMES_ZH) or _has_word_en(plain, POLITE_FRAMES_EN)):
        reasons.append("unsure:?")
    if word := _has_any(folded, HEDGES_ZH) or _has_word_en(folded, HEDGES_EN):
        reasons.append("hedge:" + word)
    if word := _has_any(folded, HEARSAY_ZH) or _has_word_en(folded, HEARSAY_EN):
        reasons.append("hearsay:" + word)
    else:
        for match in re.finditer("说", folded):
            around = folded[max(0, match.start() - 2) : match.end() + 2]
            said_tomorrow = folded[match.end() : match.end() + 2] in ("明天", "明早", "明晚", "明年")
            if match.start() > 0 and (said_tomorrow or not any(word in around for word in NOT_HEARSAY_ZH)):
                reasons.append("hearsay:" + folded[max(0, match.start() - 2) : match.end()])
                break
    return reasons


#: Verbs and function words dropped from the message before its units are compared with the
#: found event's title: "删掉明天的周会" must not name "季度复盘（请删除所有日程）" by its 删.
TARGET_NOISE_ZH = (
    "删掉",
    "删除",
    "删了",
    "去掉",
    "取消",
    "改到",
    "改成",
    "改为",
    "挪到",
    "移到",
    "调到",
    "换到",
    "放到",
    "推迟",
    "延后",
    "提前",
    "帮我",
    "一下",
    "那个",
    "这个",
    "那次",
    "这次",
    "上午",
    "下午",
    "晚上",
    "早上",
    "中午",
    "日程",
    "安排",
)
#: The scope words: the widest one the message holds is the widest scope it allows
#: (none: this instance only).
SCOPE_WORDS = {
    "following": (
        "以后",
        "之后",
        "往后",
        "今后",
        "从现在起",
        "接下来",
        "from now on",
        "going forward",
        "onward",
        "following",
        "future",
        "after that",
    ),
    "all": (
        "全部",
        "每次",
        "每一次",
        "所有",
        "每周",
        "每个",
        "整个系列",
        "一直",
        "都",
        "every",
        "all",
        "each",
        "whole series",
        "always",
        "entire series",
    ),
}
SCOPE_ORDER = {"this": 0, "following": 1, "all": 2}
#: ``completed`` needs one of these in the message (either way: 完成 / 未完成, done / not done).
COMPLETION_WORDS = (
    "完成",
    "做完",
    "搞定",
    "弄完",
    "办完",
    "写完",
    "干完",
    "打勾",
    "打个勾",
    "勾掉",
    "结束了",
    "done",
    "finish",
    "complete",
    "tick",
    "check off",
    "checked off",
)


#: Bulk words: a message with one never writes directly; every event the calls would change
#: is listed in one confirmation (``ChatEditService.request_bulk``).
BULK_WORDS_ZH = ("都", "全部", "所有", "清空", "全都", "统统", "一律")
BULK_WORDS_EN = ("everything", "all my", "all the", "all of", "every event", "all events", "clear my calendar", "wipe")
#: Words that empty a calendar: a create in such a turn asks (清空日历 is no title).
CLEAR_WORDS = (
    "清空",
    "全部删",
    "都删",
    "删除所有",
    "删掉所有",
    "delete everything",
    "clear my calendar",
    "clear the calendar",
    "wipe",
)


def bulk_word(text: str) -> str | None:
    """The bulk word of the message, or None."""
    folded = fold(text)
    return _has_any(folded, BULK_WORDS_ZH) or _has_word_en(folded, BULK_WORDS_EN)


def completion_said(text: str) -> bool:
    """Does the message hold a completion word? ("finished", "completed": the English words
    match as word starts.)"""
    folded = fold(text)
    return bool(
        _has_any(folded, [w for w in COMPLETION_WORDS if not w.isascii()])
        or any(re.search(rf"(?<![a-z]){re.escape(w)}", folded) for w in COMPLETION_WORDS if w.isascii())
    )


#: A relative shift of the target (推迟一小时, 提前半小时, 往后推一天, push back an hour, 30 minutes
#: earlier): code computes the new value from the event, and a model value that differs asks,
#: offering code's reading.
SHIFT_LATER_ZH = ("推迟", "延后", "延迟", "往后推", "往后挪", "向后推", "推后", "顺延", "晚一", "晚半", "晚两", "晚十")
SHIFT_EARLIER_ZH = ("提前", "往前挪", "往前推", "向前推", "提早", "早一", "早半", "早两", "早十")
SHIFT_LATER_EN = ("back", "later", "delay", "postpone", "push")
SHIFT_EARLIER_EN = ("forward", "earlier", "sooner", "move up", "bring")
SAME_TIME_NEXT_WEEK = ("下周同一时间", "下周的同一时间", "下周同一天", "下周同一时段", "same time next week")
_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_SHIFT_ZH = re.compile(r"(\d+|[零一二两三四五六七八九十]+)?\s*(个)?\s*(半)?\s*(个)?\s*(分钟|分|小时|钟头|天)")
_SHIFT_EN = re.compile(r"(?<![a-z])(an?|one|two|three|four|five|six|half an?|\d+)\s*(hours?|hrs?|minutes?|mins?|days?)(?![a-z])")
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _cn_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_CN_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CN_DIGITS.get(ones, 0) if ones else 0)
    return _CN_DIGITS.get(text) if len(text) == 1 else None


def shift_of(text: str) -> timedelta | None:
    """The relative shift the message asks for, signed (None when it names none, or names
    both directions)."""
    folded = fold(text)
    if _has_any(folded, SAME_TIME_NEXT_WEEK):
        return timedelta(days=7)
    later = bool(_has_any(folded, SHIFT_LATER_ZH) or _has_word_en(folded, SHIFT_LATER_EN))
    earlier = bool(_has_any(folded, SHIFT_EARLIER_ZH) or _has_word_en(folded, SHIFT_EARLIER_EN))
    if later == earlier:
        return None
    amount: timedelta | None = None
    if m := _SHIFT_EN.search(folded):
        word, unit = m.group(1), m.group(2)
        minutes = {"h": 60, "m": 1, "d": 1440}[unit[0]]
        count = 0.5 if word.startswith("half") else float(_EN_NUMBERS.get(word, 0) or (int(word) if word.isdigit() else 0))
        amount = timedelta(minutes=count * minutes)
    else:
        for m in _SHIFT_ZH.finditer(folded):
            number, half, unit = m.group(1), m.group(3), m.group(5)
            count = float(_cn_number(number) or 0) if number else 0.0
            if half:
                count += 0.5
            elif not number:
                continue
            minutes = {"分钟": 1, "分": 1, "小时": 60, "钟头": 60, "天": 1440}[unit]
            amount = timedelta(minutes=count * minutes)
            break
    if not amount:
        return None
    return amount if later else -amount


def value_check(
    start: datetime | date, args: dict[str, Any], grounding: Grounding, ctx: TimeContext
) -> tuple[list[str], dict[str, Any]]:
    """Is the model's new time / day the one the words give? With a relative shift code
    computes it from the event; otherwise the time must be one the words allow. Returns the
    reasons to ask and, when code has its own reading, the plan values to offer instead."""
    text = grounding.user_text
    if not text or not (args.get("newTime") or args.get("newDate")) or not isinstance(start, datetime):
        return [], {}
    local = start.astimezone(ctx.tz)
    shift = shift_of(text)
    if shift is not None:
        moved = local + shift
        reading = {"new_time": moved.strftime("%H:%M"), "new_day": moved.date().isoformat()}
        model_day: date | None = None
        if args.get("newDate"):
            try:
                days = resolve(str(args["newDate"]), ctx).candidates
                model_day = days[0] if days else None
            except SymbolError:
                return [], {}
        model_time = str(args.get("newTime") or local.strftime("%H:%M"))
        if model_time != reading["new_time"] or (model_day or local.date()) != moved.date():
            return [f"value_differs:{reading['new_day']}T{reading['new_time']}"], reading
        return [], {}
    said = time_mentions(text, ctx)
    if args.get("newTime") and str(args["newTime"]) not in said:
        return ["not_from_user:newTime"], {}
    return [], {}


def scope_allowed(text: str) -> str:
    """The widest scope the message's own words name (``this`` when none)."""
    folded = fold(text)
    for scope in ("all", "following"):
        words = SCOPE_WORDS[scope]
        if _has_any(folded, [w for w in words if not w.isascii()]) or _has_word_en(folded, [w for w in words if w.isascii()]):
            return scope
    return "this"


def target_reasons(
    title: str,
    start: datetime | date,
    recurring: bool,
    scope: str,
    args: dict[str, Any],
    grounding: Grounding,
    ctx: TimeContext,
) -> list[str]:
    """Reasons to ask about the one event found: its title shares nothing with the user's
    words and it is not the only event at a day and time the words name; the model's
    ``targetTime`` is not a time the words allow; a series scope wider than the words."""
    text = grounding.user_text
    if not text:
        return []
    reasons: list[str] = []
    said = time_mentions(text, ctx)
    if args.get("targetTime") and str(args["targetTime"]) not in said:
        reasons.append("not_from_user:targetTime")
    residual = fold(text)
    for mention in date_mentions(text, ctx):
        residual = residual.replace(fold(mention.text), " ")
    for word in TARGET_NOISE_ZH + CHANGE_WORDS + DELETE_WORDS:
        residual = residual.replace(word, " ")
    own = set(units(residual) + units(grounding.stub_title))
    if not any(unit in own for unit in units(title)):
        at = start.astimezone(ctx.tz).strftime("%H:%M") if isinstance(start, datetime) else None
        if not (at in said and date_mentions(text, ctx) and args.get("targetTime") == at):
            reasons.append("target_not_named")
    if recurring and SCOPE_ORDER.get(scope, 0) > SCOPE_ORDER[scope_allowed(text)]:
        reasons.append("scope_wider:" + scope)
    return reasons


def edit_reasons(op: str, args: dict[str, Any], grounding: Grounding, ctx: TimeContext) -> list[str]:
    """Reasons to ask before an edit: a message with no word for the change at all, a target
    or new value the user did not write this turn (the title-units rule of ``grounding.py``,
    against the message and the pending command), or a day that contradicts the exact days
    the message names. The latch adds a question; it never decides to write."""
    reasons: list[str] = []
    folded = grounding.user_text.casefold()
    words = DELETE_WORDS if op == "delete" else CHANGE_WORDS
    if grounding.user_text and not any(word in folded for word in words):
        reasons.append("not_from_user:action")
    reasons += mood_reasons(grounding.user_text)
    reasons += conditional_reasons(grounding.user_text)  # answered: nothing pending (issue 30)
    if grounding.user_text and args.get("completed") is not None and not completion_said(grounding.user_text):
        reasons.append("not_from_user:completed")
    own = Grounding(grounding.user_text, grounding.stub_title)
    for key in EDIT_WORD_FIELDS:
        value = args.get(key)
        if isinstance(value, str) and value.strip() and title_reasons(value, own):
            reasons.append(f"not_from_user:{key}")
    mentions = date_mentions(grounding.user_text, ctx)
    allowed = {day for mention in mentions for day in mention.days}
    exact = [mention for mention in mentions if mention.exact]
    for key in ("targetDate", "newDate"):
        symbol = args.get(key)
        if not symbol:
            continue
        try:
            days = set(resolve(str(symbol), ctx).candidates)
        except SymbolError:
            continue  # the service reports the bad symbol to the model
        if exact and days and not days & allowed:
            reasons.append(f"date_contradicts:{exact[0].text}")
        elif key == "newDate" and not mentions and shift_of(grounding.user_text) is None:
            reasons.append("not_from_user:newDate")
    return reasons
