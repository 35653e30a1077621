"""Slot vocabulary for short clarification replies ("周日下午两点", "tomorrow 7pm").

This module is the single source of slot words.  The parser in ``clarify.py``
builds its patterns from these tables, and the tests and the design doc
enumerate them, so a new dialect form or filler is added here once and nowhere
else.  Nothing here matches text; keeping data apart from matching logic means
a vocabulary change can never silently alter how conflicts are resolved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

# --------------------------------------------------------------------------
# Numerals
# --------------------------------------------------------------------------

#: Chinese digit characters.  两 is only accepted as a whole numeral ("两点"),
#: never inside a compound ("二十两" is not Chinese); ``cn_to_int`` enforces it.
CN_DIGITS: Final[Mapping[str, int]] = MappingProxyType(
    {
        "零": 0,
        "〇": 0,
        "一": 1,
        "二": 2,
        "两": 2,
        "三": 3,
        "四": 4,
        "五": 5,
        "六": 6,
        "七": 7,
        "八": 8,
        "九": 9,
    }
)
CN_TEN: Final[str] = "十"
#: Characters that mark an explicitly written minute ("零五", "05"): a single
#: digit minute without one of these ("三点五") is ambiguous between 3:05 and
#: 3:30 (colloquial "3.5"), so the parser refuses it.
ZERO_CHARS: Final[str] = "零〇0"


def cn_to_int(text: str) -> int | None:
    """Read a 0..99 numeral written in ASCII digits or Chinese characters.

    Returns None rather than guessing for malformed numerals ("一二", "十十"),
    because a misread number in a calendar is worse than asking again.
    """
    if not text:
        return None
    if text.isascii():
        return int(text) if text.isdigit() and len(text) <= 2 else None
    if text == "两":
        return 2
    if "两" in text:
        return None
    if CN_TEN in text:
        head, _, tail = text.partition(CN_TEN)
        if CN_TEN in tail or len(head) > 1 or len(tail) > 1:
            return None
        tens = 1 if head == "" else CN_DIGITS.get(head)
        ones = 0 if tail == "" else CN_DIGITS.get(tail)
        if tens is None or ones is None or tens == 0 or (tail and ones == 0):
            return None
        return tens * 10 + ones
    if len(text) == 1:
        return CN_DIGITS.get(text)
    if len(text) == 2 and text[0] in "零〇":
        digit = CN_DIGITS.get(text[1])
        return digit if digit is not None and digit > 0 else None
    return None


# --------------------------------------------------------------------------
# Days
# --------------------------------------------------------------------------

#: Relative day words -> D offset.  Past days are kept because "昨天" is a
#: legitimate answer when logging something that already happened.
RELATIVE_DAYS: Final[Mapping[str, int]] = MappingProxyType(
    {
        "今天": 0,
        "今日": 0,
        "今儿": 0,
        "明天": 1,
        "明日": 1,
        "明儿": 1,
        "后天": 2,
        "大后天": 3,
        "昨天": -1,
        "前天": -2,
        "today": 0,
        "tomorrow": 1,
        "tmr": 1,
        "tmrw": 1,
        "day after tomorrow": 2,
        "yesterday": -1,
    }
)

#: Weekday word stems.  A weekday is PREFIX + SUFFIX ("周" + "日").
WEEKDAY_PREFIXES_ZH: Final[tuple[str, ...]] = ("星期", "礼拜", "周")
WEEKDAY_SUFFIXES_ZH: Final[Mapping[str, int]] = MappingProxyType(
    {
        "一": 1,
        "二": 2,
        "三": 3,
        "四": 4,
        "五": 5,
        "六": 6,
        "日": 7,
        "天": 7,
        "1": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
    }
)
WEEKDAYS_EN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "monday": 1,
        "mon": 1,
        "tuesday": 2,
        "tues": 2,
        "tue": 2,
        "wednesday": 3,
        "wed": 3,
        "thursday": 4,
        "thurs": 4,
        "thur": 4,
        "thu": 4,
        "friday": 5,
        "fri": 5,
        "saturday": 6,
        "sat": 6,
        "sunday": 7,
        "sun": 7,
    }
)

#: Week modifiers.  Chinese ones name a Monday-Sunday calendar week (so they
#: produce ``Wd+k``); every extra 下 adds one week ("下下周一" -> W1+2) and
#: every 上 removes one ("上周五" -> W5-1).
THIS_WEEK_ZH: Final[tuple[str, ...]] = ("这个", "这", "本")
NEXT_WEEK_ZH: Final[str] = "下"
LAST_WEEK_ZH: Final[str] = "上"
MEASURE_WORD_ZH: Final[str] = "个"
#: English "next X" mirrors 下周X (calendar week + 1).  English "this X" is
#: NOT a calendar-week reference: "this Monday" said on a Wednesday means the
#: coming Monday, so it maps to plain ``Wd`` (None here means "no offset").
WEEK_MODIFIERS_EN: Final[Mapping[str, int | None]] = MappingProxyType({"this": None, "next": 1})
WEEKEND_ZH: Final[str] = "周末"
WEEKEND_EN: Final[str] = "weekend"

#: Day-of-month markers (29号 / 29日) and Chinese date separators.
DAY_MARKERS_ZH: Final[tuple[str, ...]] = ("号", "日")
MONTH_MARKER_ZH: Final[str] = "月"
YEAR_MARKER_ZH: Final[str] = "年"
ORDINAL_SUFFIXES_EN: Final[tuple[str, ...]] = ("st", "nd", "rd", "th")

MONTHS_EN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "january": 1,
        "jan": 1,
        "february": 2,
        "feb": 2,
        "march": 3,
        "mar": 3,
        "april": 4,
        "apr": 4,
        "may": 5,
        "june": 6,
        "jun": 6,
        "july": 7,
        "jul": 7,
        "august": 8,
        "aug": 8,
        "september": 9,
        "sept": 9,
        "sep": 9,
        "october": 10,
        "oct": 10,
        "november": 11,
        "nov": 11,
        "december": 12,
        "dec": 12,
    }
)

# --------------------------------------------------------------------------
# Periods of the day
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """How a spoken hour is read under one period word.

    ``rules`` lists (spoken-hour range, hours to add).  Hours outside every
    range make the reply unparseable instead of being coerced: "早上9点" is
    clear, "早上15点" is a contradiction the user should be asked about.
    ``midnight_hours`` are spoken hours that mean the midnight that *ends*
    the period's day ("晚上12点"), which lands on the next calendar date.
    """

    name: str
    rules: tuple[tuple[range, int], ...]
    midnight_hours: frozenset[int] = field(default_factory=frozenset)

    def to_24h(self, hour: int) -> int | None:
        """Return the 24h hour, or None when the hour contradicts the period."""
        for hours, shift in self.rules:
            if hour in hours:
                return hour + shift
        return None

    def is_midnight(self, hour: int) -> bool:
        return hour in self.midnight_hours


#: 凌晨 0..6; "凌晨12点" is 00:00 of that same date (the start of the day).
EARLY: Final[Period] = Period("early", ((range(0, 7), 0), (range(12, 13), -12)))
#: 上午 runs up to noon, so "上午12点" is 12:00, not midnight.
MORNING: Final[Period] = Period("morning", ((range(1, 13), 0),))
#: 中午 straddles noon: 11/12 stay, 1/2 are 13:00/14:00.
NOON: Final[Period] = Period("noon", ((range(11, 13), 0), (range(1, 3), 12), (range(13, 15), 0)))
#: 下午/傍晚 accept people who write 24h hours after the word ("下午14点").
AFTERNOON: Final[Period] = Period("afternoon", ((range(1, 12), 12), (range(12, 24), 0)))
#: 晚上 1..4 is refused: "晚上1点" usually means 01:00 of the *next* date,
#: which a bare HH:MM on the same date cannot express honestly.
EVENING: Final[Period] = Period(
    "evening",
    ((range(5, 12), 12), (range(17, 24), 0)),
    midnight_hours=frozenset({0, 12, 24}),
)
#: English meridiem: 12am is midnight at the start of the date, 12pm is noon.
AM: Final[Period] = Period("am", ((range(1, 12), 0), (range(12, 13), -12)))
PM: Final[Period] = Period("pm", ((range(1, 12), 12), (range(12, 13), 0)))
#: No period word.  Calendar appointments cluster in waking hours, so a bare
#: 1..6 is afternoon (13-18), 7..11 morning, 12 noon; 0 and 13..23 are
#: unambiguous.  Zero-padded clock times ("03:15") bypass this rule.
BARE: Final[Period] = Period("bare", ((range(0, 1), 0), (range(1, 7), 12), (range(7, 24), 0)))

PERIOD_WORDS: Final[Mapping[str, Period]] = MappingProxyType(
    {
        "凌晨": EARLY,
        "早上": MORNING,
        "早晨": MORNING,
        "上午": MORNING,
        "中午": NOON,
        "下午": AFTERNOON,
        "午后": AFTERNOON,
        "傍晚": AFTERNOON,
        "晚上": EVENING,
        "夜里": EVENING,
        "morning": MORNING,
        "afternoon": AFTERNOON,
        "evening": EVENING,
        "night": EVENING,
    }
)

#: Words that carry both a day and a period ("今晚" = today + evening).
DATED_PERIOD_WORDS: Final[Mapping[str, tuple[int, Period]]] = MappingProxyType(
    {
        "今晚": (0, EVENING),
        "今夜": (0, EVENING),
        "今早": (0, MORNING),
        "明早": (1, MORNING),
        "明晚": (1, EVENING),
        "昨晚": (-1, EVENING),
        "tonight": (0, EVENING),
    }
)

MERIDIEM_EN: Final[Mapping[str, Period]] = MappingProxyType({"am": AM, "a.m.": AM, "a.m": AM, "pm": PM, "p.m.": PM, "p.m": PM})

# --------------------------------------------------------------------------
# Clock words
# --------------------------------------------------------------------------

#: Longest first so "点钟" wins over "点".
HOUR_MARKERS_ZH: Final[tuple[str, ...]] = ("点钟", "点", "时")
MINUTE_MARKERS_ZH: Final[tuple[str, ...]] = ("分钟", "分")
MINUTE_PAST_ZH: Final[str] = "过"
MINUTE_WORDS_ZH: Final[Mapping[str, int]] = MappingProxyType({"整": 0, "半": 30, "一刻": 15, "三刻": 45})
OCLOCK_EN: Final[tuple[str, ...]] = ("o'clock", "oclock")
NOON_EN: Final[tuple[str, ...]] = ("noon", "midday")
AT_EN: Final[str] = "at"

# --------------------------------------------------------------------------
# Fillers
# --------------------------------------------------------------------------

#: Words that may surround slots without changing them.  Deliberately short:
#: every filler added widens what the parser accepts without a model call, and
#: a reply with only fillers ("可以", "好的") is never a patch.
FILLERS_ZH: Final[tuple[str, ...]] = (
    "那就",
    "那",
    "就",
    "的",
    "吧",
    "呢",
    "啊",
    "呀",
    "啦",
    "嗯",
    "在",
    "改到",
    "改成",
    "改为",
    "换到",
    "换成",
    "还是",
    "定在",
    "约在",
    "可以",
)
FILLERS_EN: Final[tuple[str, ...]] = (
    "let's",
    "lets",
    "make it",
    "at",
    "on",
    "the",
    "in",
)

#: Replies longer than this are not slot answers; refusing early keeps the
#: scanner's cost bounded on pasted text.
MAX_REPLY_CHARS: Final[int] = 120
