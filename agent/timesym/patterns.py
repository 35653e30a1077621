"""Pattern pieces and small day rules shared by the two readers of slot words.

``clarify.py`` reads a short reply ("周日下午两点") and ``sentence_scan.py`` a whole quick-add
sentence; both build their regular expressions from ``words.py`` with these pieces and read a
Chinese minute, a week prefix and "the next such day" with these rules, so the two can never
read 三点一刻 or 31号 differently.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from datetime import date
from typing import Final

from agent.timesym import words as W
from agent.timesym.context import add_months


def alt(items: Iterable[str]) -> str:
    """Alternation, longest first so a prefix never shadows a longer word."""
    ordered = sorted(set(items), key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


L: Final = r"(?<![a-z])"  # English words must not start mid-word ...
R: Final = r"(?![a-z])"  # ... nor end mid-word ("mon" in "month").
NUM_ZH: Final = "[" + "".join(W.CN_DIGITS) + W.CN_TEN + "]{1,3}"
NUM: Final = rf"(?:(?<![0-9])[0-9]{{1,2}}|{NUM_ZH})"
DAY_MARK: Final = "(?:" + alt(W.DAY_MARKERS_ZH) + ")"
ORD: Final = "(?:" + alt(W.ORDINAL_SUFFIXES_EN) + ")"
MONTHS: Final = alt(W.MONTHS_EN)
MERIDIEM: Final = alt(W.MERIDIEM_EN)
OCLOCK: Final = alt(W.OCLOCK_EN)
MINUTE_ZH: Final = (
    rf"(?P<m>{alt(W.MINUTE_WORDS_ZH)}"
    rf"|{W.MINUTE_PAST_ZH}?\s*{NUM}\s*(?:{alt(W.MINUTE_MARKERS_ZH)})?)"
)


def zh_minute(raw: str | None) -> int | None:
    """The minute after 点 (整, 半, 一刻, 十五, 过五分, 零五), or None when it cannot be read.

    A single unmarked digit ("三点五") is refused: 3:05 or a colloquial 3.5 = 3:30?
    """
    if raw is None:
        return 0
    if raw in W.MINUTE_WORDS_ZH:
        return W.MINUTE_WORDS_ZH[raw]
    text = raw.replace(" ", "")
    past = text.startswith(W.MINUTE_PAST_ZH)
    text = text.removeprefix(W.MINUTE_PAST_ZH)
    marked = text.endswith(W.MINUTE_MARKERS_ZH)
    for marker in W.MINUTE_MARKERS_ZH:
        if text.endswith(marker):
            text = text.removesuffix(marker)
            break
    value = W.cn_to_int(text)
    if value is None or value > 59:
        return None
    if value < 10 and not (past or marked or text[:1] in W.ZERO_CHARS):
        return None
    return value


def week_offset_zh(pre: str | None) -> int | None:
    """下周 → 1, 下下周 → 2, 上周 → -1, 这周/本周 → 0, no prefix → None."""
    if not pre:
        return None
    body = pre.replace(W.MEASURE_WORD_ZH, "").replace(" ", "")
    if body and set(body) == {W.NEXT_WEEK_ZH}:
        return len(body)
    if body and set(body) == {W.LAST_WEEK_ZH}:
        return -len(body)
    return 0


def next_day_of_month(day: int, today: date) -> date | None:
    """The next date with this day of the month, today included.

    Months without that day are skipped ("31号" in September means October 31st) because the
    user named a day number, not "the end of the month".
    """
    if not 1 <= day <= 31:
        return None
    for step in range(13):
        year, month = add_months(today.year, today.month, step)
        if not 1 <= year <= 9999:
            return None
        if day <= calendar.monthrange(year, month)[1]:
            candidate = date(year, month, day)
            if candidate >= today:
                return candidate
    return None


#: How far ahead a month-day is looked for: 02-29 waits for the next leap year (at most 8).
LEAP_SEARCH_YEARS: Final = 8


def next_month_day(month: int, day: int, today: date) -> date | None:
    """The next date with this month and day, today included, or None when there is none."""
    for year in range(today.year, min(today.year + LEAP_SEARCH_YEARS + 1, 10000)):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None
