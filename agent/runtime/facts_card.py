"""State claims meet facts: a code-written card of what the calendar holds (issue 30, item 4).

The second guard tier puts "日历没有变化" under a model reply that talks calendar on a turn
that read and wrote nothing. That line is true, but it does not contradict "明天下午你整块
都空" when tomorrow afternoon holds a meeting. When the user's message names a day or a
range code can resolve (``day_range.spoken_range``: 明天, 周四下午, 下周一到周三, this week,
the 24th, "Thursday afternoon"), code runs the query tool's own range query and shows the
result as a card under the reply; "我下次开会是什么时候" / "when is my next dentist" runs the
edit search's own title matching (``targets.find_targets``) over the days ahead.

The card is built from the query's rows only (``Facts.events``): its count is their count,
its items are their titles and times, and an empty result says "nothing scheduled". It never
replaces the model's words and decides nothing; it is not shown on a turn that read or wrote
(that turn has its own receipt) nor under a reply the first tier replaced.

Contract (machine-checked by the evals): ``richeng chat --json`` carries
``"facts": {"start", "end", "events": [{"title", "start", "end"}]}`` on exactly these turns.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from agent.errors import UserFacingError
from agent.messages.catalogue import render
from agent.runtime import receipts as R
from agent.runtime.claims import Claim
from agent.runtime.day_range import spoken_range
from agent.runtime.state_answer import StateAnswer, answer_state_claim
from agent.services.queries import QueryService, RangeResult
from agent.services.targets import find_targets
from agent.store.occurrence import Occurrence
from agent.timesym.context import TimeContext, day_start
from agent.timesym.grammar import SymbolError

#: Items a card lists before "… and N more".
MAX_ITEMS: Final = 6
#: How far ahead "the next one" is looked for, in days (the edit search's own horizon).
NEXT_DAYS: Final = 60

# "我下次开会是什么时候", "下一次看牙是哪天", "我最近一次聚餐定在哪天了": the words between the
# "next" word and the question are the search; a leading verb of doing (开/看/去 …) is not
# part of an event's name (开会 → 会, 看牙 → 牙).
_NEXT_ZH: Final = re.compile(
    r"(?:下一次|下次|下一回|下回|下一个|下一场|最近一次|最近的一次|最近的)(?P<w>[^，。？！?!,.\s]{1,12}?)"
    r"(?:是|在|定在|安排在|约在|排在|什么时候|啥时候|哪天|哪一天|几号|几点)"
)
_LEAD_ZH: Final = ("我的", "的", "我")
_VERB_ZH: Final = ("开", "看", "去", "做", "上", "见", "约", "有", "参加")
_NEXT_EN: Final = re.compile(
    r"\bnext\s+(?P<w>[a-z][a-z' -]{1,40}?)\s*(?:\?|$|\s(?:is|be|appointment|appt|on|at|scheduled|coming))"
    r"|\bwhen\s+(?:do|will|am)\s+i\s+(?:see|have|meet|going to see)\s+(?:the\s+|my\s+)?(?P<w2>[a-z][a-z' -]{1,40}?)\s+again\b"
)


@dataclass(frozen=True)
class Facts:
    """What a code query returned for the window it read; the card says only this."""

    start: datetime
    end: datetime
    events: tuple[Occurrence, ...]
    today: date
    search: str | None = None  # the words of a "next" search, None for a range

    def to_json(self) -> dict[str, Any]:
        """The machine-checked contract: exactly ``start``, ``end`` and ``events``."""
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "events": [{"title": occ.title, "start": occ.start.isoformat(), "end": occ.end.isoformat()} for occ in self.events],
        }


def facts_for(queries: QueryService, ctx: TimeContext, user_text: str) -> Facts | None:
    """The facts for the range (or else the "next" search) the user's message names, or None."""
    span = spoken_range(user_text, ctx)
    if span is None:
        words = next_search(user_text)
        return _next(queries, ctx, words) if words is not None else None
    try:
        events = queries.between(span.start, span.end)
    except (SymbolError, UserFacingError, ValueError, OverflowError):
        return None
    return Facts(span.start, span.end, tuple(events), ctx.today)


def answer_claim(
    queries: QueryService, ctx: TimeContext, claims: Iterable[Claim], user_text: str, lang: str
) -> StateAnswer | None:
    """The first tier's answer to an unbacked state claim, for the range the *user* named
    (read as the card reads it: 下周一到周三, this afternoon), else the one the claim's own
    words name (``state_answer.answer_state_claim``). The user asked about their range; a
    claim that also mentions last week ("比上周少") must not widen the answer."""
    span = spoken_range(user_text, ctx)
    if span is not None:
        try:
            events = queries.between(span.start, span.end)
        except (SymbolError, UserFacingError, ValueError, OverflowError):
            events = None
        if events is not None:
            result = RangeResult(span.start, span.end, events, ctx.today)
            return StateAnswer(R.range_receipt(result, lang), result, span.first, span.last)
    return answer_state_claim(queries, ctx, claims, "", lang)


def next_search(text: str) -> str | None:
    """The words of a "when is the next X" question, or None."""
    s = unicodedata.normalize("NFKC", text or "").lower().replace("’", "'")
    m = _NEXT_ZH.search(s)
    if m is not None:
        words = m["w"]
        for lead in _LEAD_ZH:
            words = words.removeprefix(lead)
        for verb in _VERB_ZH:
            if words.startswith(verb) and len(words) > len(verb):
                words = words[len(verb) :]
                break
        return words or None
    m = _NEXT_EN.search(s)
    if m is not None:
        words = (m["w"] or m["w2"] or "").strip()
        words = re.sub(r"^(?:the|my|a)\s+", "", words)
        return words or None
    return None


def _next(queries: QueryService, ctx: TimeContext, words: str) -> Facts | None:
    start = ctx.now
    end = day_start(ctx.today + timedelta(days=NEXT_DAYS + 1), ctx.tz)
    try:
        found = find_targets(queries, ctx, words, None, None).matches
    except (SymbolError, UserFacingError, ValueError):
        return None
    ahead = sorted((occ for occ in found if _starts_after(occ, start)), key=lambda occ: _moment(occ, ctx))
    return Facts(start, end, tuple(ahead[:1]), ctx.today, search=words)


def card_text(facts: Facts, lang: str) -> str:
    """The card's one line, headed as code's ("日历里查到的：…" / "From your calendar: …")."""
    return render("facts.line", lang, head=render("facts.head", lang), body=card_body(facts, lang))


def card_body(facts: Facts, lang: str) -> str:
    """What the query returned, said in the user's language and nothing more."""
    today = facts.today
    if facts.search is not None:
        if not facts.events:
            label = R.window_label(day_start(facts.today, facts.end.tzinfo), facts.end, lang, today)  # type: ignore[arg-type]
            return render("facts.next_none", lang, words=facts.search, label=label)
        occ = facts.events[0]
        return render("facts.next", lang, words=facts.search, when=R.span_label(occ.start, occ.end, lang, today), title=occ.title)
    label = R.window_label(facts.start, facts.end, lang, today)
    if not facts.events:
        return render("facts.range_empty", lang, label=label)
    one_day = facts.end - facts.start <= timedelta(days=1)
    items = [
        render("facts.item", lang, when=_when(occ, one_day, lang, today), title=occ.title) for occ in facts.events[:MAX_ITEMS]
    ]
    more = len(facts.events) - MAX_ITEMS
    if more > 0:
        items.append(render("facts.more", lang, more=more))
    sep = render("facts.item_sep", lang)
    return render("facts.range", lang, label=label, count=len(facts.events), items=sep.join(items))


def _when(occ: Occurrence, one_day: bool, lang: str, today: date) -> str:
    if not isinstance(occ.start, datetime):
        return render("facts.all_day", lang) if one_day else R.span_label(occ.start, occ.end, lang, today)
    return f"{occ.start:%H:%M}" if one_day else R.span_label(occ.start, occ.end, lang, today)


def _starts_after(occ: Occurrence, now: datetime) -> bool:
    start = occ.start
    if isinstance(start, datetime):
        return start >= (now if start.tzinfo else now.replace(tzinfo=None))
    return start >= now.date()


def _moment(occ: Occurrence, ctx: TimeContext) -> datetime:
    start = occ.start
    if isinstance(start, datetime):
        return start if start.tzinfo else start.replace(tzinfo=ctx.tz)
    return day_start(start, ctx.tz)


__all__ = ["Facts", "answer_claim", "MAX_ITEMS", "NEXT_DAYS", "card_body", "card_text", "facts_for", "next_search"]
