"""The day or range a user's message names, as a window code can query (issue 30, item 4).

``state_answer.named_span`` reads every day word of a text (the clarification parser's
vocabulary, whole weeks and months) and spans them. Two readings it cannot make alone are
added here, both from ``timesym.words``, no new date grammar:

* **A range that shares one week word.** In 下周一到周三 / 这周四至周六 / "Monday through
  Wednesday next week" the second (or every) weekday belongs to the week the first names;
  read alone, 周三 is this week's. ``inherit_week`` writes the week word onto them.
* **A period of the day.** 周四下午, 今晚, 明早, "Thursday afternoon", "this morning",
  "Sunday morning": one named day and one period word narrow the window to that part of the
  day (``PERIOD_HOURS``). Several days, or several periods, keep the whole days.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from agent.errors import UserFacingError
from agent.runtime.state_answer import named_span
from agent.timesym import words as W
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve_range

#: The hours a period word covers, [from, to) on the named day. Morning starts at 05:00 so
#: an early run counts; evening runs to midnight.
PERIOD_HOURS: Final[dict[str, tuple[int, int]]] = {
    "early": (0, 6),
    "morning": (5, 12),
    "noon": (11, 14),
    "afternoon": (12, 18),
    "evening": (18, 24),
}

_WEEK_ZH: Final = r"下下周|下下个?星期|下周|下个?星期|下个?礼拜|这周|这个?星期|这个?礼拜|本周|本星期|上周|上个?星期|上个?礼拜"
_DAY_ZH: Final = "一二三四五六日天"
_RANGE_ZH: Final = re.compile(
    rf"(?P<week>{_WEEK_ZH})(?P<first>[{_DAY_ZH}])(?P<link>\s*(?:到|至|~|-|—|–|和|、|或)\s*)(?:周|星期|礼拜)?(?P<second>[{_DAY_ZH}])"
)
_WEEKDAYS_EN: Final = r"mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
_WEEK_EN: Final = re.compile(r"\b(?P<which>this|next)\s+week\b(?!end)")
_WEEKDAY_EN: Final = re.compile(rf"(?<!this )(?<!next )(?<!last )\b(?P<day>{_WEEKDAYS_EN})\b")
_PERIODS: Final = sorted(W.PERIOD_WORDS, key=len, reverse=True)
_THIS_PERIOD_EN: Final = re.compile(r"\bthis\s+(?P<period>morning|afternoon|evening)\b")


@dataclass(frozen=True)
class DayRange:
    """A window to query: ``[start, end)`` in the user's zone, and the symbols it came from."""

    start: datetime
    end: datetime
    first: str
    last: str
    period: str | None = None  # the period word's name when the window is part of one day


def inherit_week(text: str) -> str:
    """下周一到周三 → 下周一到下周三; "Monday through Wednesday next week" → "next monday
    through next wednesday". Also 日程 (schedule), which holds 日 but is no Sunday, and "my
    week" (this week). Other text comes back folded and unchanged."""
    s = unicodedata.normalize("NFKC", text or "").lower()
    s = s.replace("日程", "行程").replace("my week", "this week")  # 下周日程 is not 下周日
    s = _RANGE_ZH.sub(lambda m: f"{m['week']}{m['first']}{m['link']}{m['week']}{m['second']}", s)
    week = _WEEK_EN.search(s)
    if week is not None and _WEEKDAY_EN.search(s):
        which = week["which"]
        s = _WEEK_EN.sub(" ", s)
        s = _WEEKDAY_EN.sub(lambda m: f"{which} {m['day']}", s)
    return s


def spoken_range(text: str, ctx: TimeContext) -> DayRange | None:
    """The window ``text`` names, or None when it names no day code can resolve."""
    s = inherit_week(text)
    this_period = _THIS_PERIOD_EN.search(s)
    if this_period is not None:  # "this afternoon": today, that period
        s = _THIS_PERIOD_EN.sub(" today " + this_period["period"], s)
    span = named_span(s, ctx)
    if span is None:
        return None
    try:
        start, end = resolve_range(span[0], span[1], ctx)
    except (SymbolError, UserFacingError, ValueError, OverflowError):
        return None
    period = _period_of(s)
    if period is not None and end - start == timedelta(days=1):
        first, last = PERIOD_HOURS[period]
        start, end = start + timedelta(hours=first), start + timedelta(hours=last)
        return DayRange(start, end, span[0], span[1], period)
    return DayRange(start, end, span[0], span[1])


def _period_of(s: str) -> str | None:
    """The one period the text names (a dated word such as 今晚 included), else None."""
    names = {W.PERIOD_WORDS[word].name for word in _PERIODS if word in s}
    names |= {period.name for word, (_, period) in W.DATED_PERIOD_WORDS.items() if word in s}
    if len(names) != 1:
        return None
    name = names.pop()
    return name if name in PERIOD_HOURS else None


__all__ = ["DayRange", "PERIOD_HOURS", "inherit_week", "spoken_range"]
