"""Narrative past: an account of what happened is not a request, even with a future word in it.

Issue 30, item 3. The tense rule of ``grounding.py`` asks before a create when the message
has a past marker and no future marker. Four forms of telling slip past it, because they
carry a future word by nature or a past verb it does not list:

- **plan, then done** (``plan_done``): 本来/原本/原计划/原定/说好 … and, in a later clause,
  已经/就/提前/早就 … 了/过/完 ("原本约在下周二的复诊，……昨天就看完了"); "was supposed to /
  was scheduled for / was going to / originally … already / yesterday / came / ended up";
- **a date heading, then an account** (``diary``): a short first line or a prefix before
  ：/:/】/—/". " that holds a date, followed by a diary word in the heading (日记, 记录,
  journal, log), a day in the heading 1 to 31 days before today, or an account in the
  body (了/过/完, an English past-tense verb);
- **held early** (``early``): 提前 … 了/过 with 已经/就/a past day ("上周末已经提前庆祝过了");
  "early" or "already" with a past-tense verb ("celebrated Mom's birthday early", "we already
  went out for it");
- **reported experience** (``reported``): a told event — "<an earlier day>的<event>" and
  what happened at it (周一的家长会老师点名表扬了儿子), or an English past-tense verb outside the
  tense rule's list ("the vet kept us waiting", "my manager announced").

The first three are *narrative markers*: a future word does not switch them off (the plan
names the day that did not happen). ``reported`` markers join the tense rule's own markers
and obey its future words. The other way (``slot_after``): a day and a clock time *after*
the last past marker ("之前推掉的面试重新约在周四上午十点", "rescheduled me for Monday at 9",
"Mom called earlier, dinner at hers on Sunday at 6") say the event asked for is ahead, so the
tense rule's markers do not ask; the narrative markers still do.

Each rule adds a question before a write (the ``unconfirmed`` receipt, "听起来这件事已经发生了");
none decides to write. Bounded word lists, Mandarin and English; every rule has a switch in
``NARRATIVE_RULES`` / ``SLOT_RULE`` that a test turns off (``tests/agent/runtime/
test_narrative.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from agent.services.wording import fold
from agent.timesym.clarify import date_mentions, time_mentions
from agent.timesym.context import TimeContext

_CLAUSE = re.compile(r"[，,。.;；!！?？:：\n、]+")

# ---- plan, then done ------------------------------------------------------------------------
PLAN_ZH = ("本来", "原本", "原计划", "原定", "原来", "说好", "按计划", "本该", "本应", "原先", "原打算")
DONE_CUE_ZH = ("已经", "早就", "提前", "就", "已")
COMPLETE_ZH = ("了", "过", "完", "好")
PLAN_EN = (
    "supposed to",
    "was scheduled",
    "were scheduled",
    "was planned",
    "were planned",
    "was set for",
    "were set for",
    "was booked for",
    "was going to",
    "were going to",
    "meant to",
    "originally",
    "had planned",
    "'d planned",
    "i planned",
    "we planned",
    "was due",
    "were due",
)
DONE_CUE_EN = (
    "already",
    "early",
    "yesterday",
    "last night",
    "last week",
    "last weekend",
    "this morning",
    "earlier",
    "done",
    "happened",
    "ended up",
    "showed up",
    "came",
    "came by",
    "did it",
    "went",
    "finished",
    "fit us in",
    "got it",
)

# ---- a date heading -----------------------------------------------------------------------
DIARY_WORDS = ("日记", "记录", "日志", "流水账", "journal", "diary", "log", "recap")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATE_TOKEN = re.compile(
    r"(?P<zm>\d{1,2})\s*月\s*(?P<zd>\d{1,2})\s*[日号]?"
    r"|(?<!\d)(?P<sm>\d{1,2})\s*[/.]\s*(?P<sd>\d{1,2})(?!\d)"
    r"|(?P<em>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<ed>\d{1,2})(?!\d)"
    r"|(?<!\d)(?P<od>\d{1,2})(?:st|nd|rd|th)\b"
    r"|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:mon|tue|wed|thu|fri|sat|sun)\b"
)
_HEADING_END = re.compile(r"\n|[：:】]|\s[—–-]\s|\.\s")
HEADING_MAX = 24

# ---- held early ---------------------------------------------------------------------------
EARLY_CUE_ZH = ("已经", "就", "过了", "上周", "上个", "昨天", "前天", "昨晚", "上礼拜", "上星期")
#: English past-tense verbs (beyond the tense rule's list) that tell what happened. Booking and
#: telling verbs are not here: "booked", "rescheduled", "told the team" report an arrangement
#: whose event is still ahead.
PAST_IRREGULAR_EN = (
    "kept",
    "made",
    "showed",
    "gave",
    "brought",
    "bought",
    "drove",
    "flew",
    "fell",
    "felt",
    "found",
    "lost",
    "sat",
    "stood",
    "slept",
    "swam",
    "wore",
    "won",
    "wrote",
    "broke",
    "forgot",
    "heard",
    "caught",
    "threw",
    "held",
    "rode",
    "sang",
    "spoke",
    "woke",
    "drank",
    "began",
    "became",
    "froze",
    "hid",
    "led",
    "sold",
    "took",
    "went",
    "had",
    "met",
    "did",
    "saw",
    "ate",
    "ran",
    "came",
    "spent",
    "left",
)
NOT_EXPERIENCE_ED = (
    "booked",
    "rebooked",
    "scheduled",
    "rescheduled",
    "registered",
    "enrolled",
    "confirmed",
    "invited",
    "moved",
    "postponed",
    "signed",
    "planned",
    "arranged",
    "added",
    "needed",
    "interested",
    "excited",
    "supposed",
    "used",
    "tired",
    "based",
    "related",
    "reserved",
    "requested",
    "asked",
    "wanted",
    "called",
    "shared",
    "limited",
    "cancelled",
    "canceled",
    "agreed",
    "promised",
    "mentioned",
    "texted",
    "emailed",
    "reminded",
    "detailed",
    "dated",
    "hundred",
    "sacred",
    "naked",
    "wicked",
    "married",
    "retired",
    "pushed",
    "delayed",
    "extended",
    "updated",
    "renamed",
    "missed",
)
_ED = re.compile(r"(?<![a-z'])([a-z]{2,}[^e\s]ed|[a-z]{3,}ied)(?![a-z])")

# ---- reported experience --------------------------------------------------------------------
REPORT_DAY_ZH = ("上午的", "早上的", "今早的", "今天早上的", "今天上午的", "中午的", "昨天的", "前天的", "刚才的", "上周的")
REPORT_CUE_ZH = ("一直", "居然", "竟然", "终于", "点名", "害得", "让我们", "让我", "被")
NOT_PERFECTIVE_ZH = ("忘了", "好了", "算了", "对了", "为了", "除了", "罢了", "得了", "了解", "不了", "定了", "约了", "订了")
_WEEKDAY_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5}


def _word_en(text: str, words: tuple[str, ...]) -> str | None:
    for word in words:
        if re.search(rf"(?<![a-z']){re.escape(word)}(?![a-z])", text):
            return word
    return None


def past_verbs_en(text: str) -> list[str]:
    """English past-tense verbs that tell what happened (irregular list, regular -ed forms
    that are not booking, telling or adjective words)."""
    found = [w for w in PAST_IRREGULAR_EN if re.search(rf"(?<![a-z']){w}(?![a-z])", text)]
    found += [m.group(1) for m in _ED.finditer(text) if m.group(1) not in NOT_EXPERIENCE_ED]
    return found


def plan_done(text: str, ctx: TimeContext) -> list[str]:
    clauses = [c for c in _CLAUSE.split(text) if c.strip()]
    for i, clause in enumerate(clauses):
        plan = next((w for w in PLAN_ZH if w in clause), None)
        if plan is None:
            continue
        for later in clauses[i + 1 :]:
            for cue in DONE_CUE_ZH:
                at = later.find(cue)
                if at >= 0 and any(c in later[at + len(cue) :] for c in COMPLETE_ZH):
                    return [f"{plan}…{cue}"]
        break
    plan_en = _word_en(text, PLAN_EN)
    if plan_en:
        rest = text[text.find(plan_en) + len(plan_en) :]
        if cue_en := _word_en(rest, DONE_CUE_EN):
            return [f"{plan_en} … {cue_en}"]
    return []


def _heading_day(heading: str, ctx: TimeContext) -> date | None:
    """The month and day a heading names, in the year that puts it at most a year back."""
    for m in _DATE_TOKEN.finditer(heading):
        month = m.group("zm") or m.group("sm")
        day = m.group("zd") or m.group("sd")
        if m.group("em"):
            month, day = str(_MONTHS.index(m.group("em")) + 1), m.group("ed")
        if month and day and 1 <= int(month) <= 12 and 1 <= int(day) <= 31:
            try:
                found = date(ctx.today.year, int(month), int(day))
            except ValueError:
                continue
            return found if found <= ctx.today else found.replace(year=found.year - 1)
    return None


def diary(text: str, ctx: TimeContext) -> list[str]:
    end = _HEADING_END.search(text)
    if end is None or end.start() > HEADING_MAX:
        return []
    heading, body = text[: end.start()], text[end.end() :]
    if not _DATE_TOKEN.search(heading) or time_mentions(heading, ctx):
        return []
    if any(w in heading for w in DIARY_WORDS):
        return [heading.strip()]
    day = _heading_day(heading, ctx)  # today's date alone may head a plan for today
    if day is not None and 0 < (ctx.today - day).days <= 31:
        return [heading.strip()]
    account = any(w in body for w in ("了", "过", "完")) or past_verbs_en(body)
    return [heading.strip()] if account else []


def early(text: str, ctx: TimeContext) -> list[str]:
    for clause in _CLAUSE.split(text):
        at = clause.find("提前")
        if at >= 0 and "了" in clause[at:] and any(cue in text for cue in EARLY_CUE_ZH):
            return [clause[at:]]
    for sentence in re.split(r"[.;!?\n]+", text):
        if (word := _word_en(sentence, ("early", "already"))) and (verbs := past_verbs_en(sentence)):
            return [f"{verbs[0]} … {word}"]
    return []


def reported(text: str, ctx: TimeContext) -> list[str]:
    """Markers of a told experience; they join the tense rule's markers (a future word or a
    slot after them switches them off, like any past marker)."""
    found: list[str] = []
    days = list(REPORT_DAY_ZH)
    days += [f"{p}{d}的" for p in ("周", "星期", "礼拜") for d, n in _WEEKDAY_ZH.items() if n < ctx.today.weekday()]
    for clause in _CLAUSE.split(text):
        head = next((d for d in days if clause.startswith(d)), None)
        if head is None:
            continue
        rest = clause[len(head) :]
        perfective = any(
            m for m in re.finditer("了", rest) if not any(w in rest[m.start() - 1 : m.start() + 2] for w in NOT_PERFECTIVE_ZH)
        )
        if perfective or any(cue in rest for cue in REPORT_CUE_ZH):
            found.append(head)
    found += past_verbs_en(text)
    return found


#: The narrative rules, by name: a future word does not switch them off. A test turns each off.
NARRATIVE_RULES: dict[str, Callable[[str, TimeContext], list[str]]] = {
    "plan_done": plan_done,
    "diary": diary,
    "early": early,
}
#: The reported-experience rule (markers that obey future words), and the slot release.
REPORTED_RULE = True
SLOT_RULE = True


def narrative_markers(text: str, ctx: TimeContext) -> list[str]:
    folded = fold(text).replace("’", "'")
    return [marker for rule in NARRATIVE_RULES.values() for marker in rule(folded, ctx)]


def reported_markers(text: str, ctx: TimeContext) -> list[str]:
    return reported(fold(text).replace("’", "'"), ctx) if REPORTED_RULE else []


_CLOCK = re.compile(r"\d|[一二三四五六七八九十两]+\s*点")


def slot_after(text: str, markers: list[str], ctx: TimeContext) -> bool:
    """A day and a clock time after the last past marker: the event asked for is ahead."""
    if not SLOT_RULE or not markers:
        return False
    folded = fold(text).replace("’", "'")
    ends = [folded.rfind(m) + len(m) for m in markers if folded.rfind(m) >= 0]
    if not ends:
        return False
    tail = folded[max(ends) :]
    return bool(_CLOCK.search(tail) and time_mentions(tail, ctx) and date_mentions(tail, ctx))
