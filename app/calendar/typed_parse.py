"""Reading a date or a clock time typed into a field, as a person types it.

Qt's date and time edits read keys section by section: typing ``2027-03-08`` into a
``yyyy-MM-dd ddd`` edit ends as 2026-03-08 or 2027-11-03 depending on where the cursor
was, and ``2pm`` becomes 02:00. The fields in ``typed_edits.py`` instead take the whole
typed text when editing ends and hand it to these two functions, which either understand
all of it or return ``None`` (the field then refuses the entry and shows its old value):
a wrong date is never guessed from a part of the text.

Pure functions (no Qt), so every form is tested directly.
"""

from __future__ import annotations

import re
from datetime import date, time

from agent.timesym.words import AM, PERIOD_WORDS, PM

# Weekday words are decoration: the fields show "2026-11-30 Mon" / "2026-11-30 周一", and
# the date decides the weekday, so a weekday next to a date is dropped before reading.
_WEEKDAY = re.compile(
    r"(?:(?:周|星期|礼拜)[一二三四五六日天])"
    r"|\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?\b\.?",
    re.IGNORECASE,
)
_YMD = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?")
_MD = re.compile(r"(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?")
_DAY = re.compile(r"(\d{1,2})\s*[日号]?")

# The period words are the time symbols' own (``agent.timesym.words``): the same 上午/下午/晚上
# rules as quick add and the clarification parser (上午12点 is noon, 晚上1点 is refused).
_ZH_PERIODS = {word: period for word, period in PERIOD_WORDS.items() if not word.isascii()}
_ZH_PERIOD = "|".join(sorted(_ZH_PERIODS, key=len, reverse=True))
_CLOCK = re.compile(
    rf"(?P<pre>{_ZH_PERIOD})?\s*"
    r"(?:(?P<h>\d{1,2})\s*(?:[:：.]\s*(?P<m>\d{2})|[点時时]\s*(?:(?P<half>半)|(?P<zm>\d{1,2})\s*分?)?)"
    r"|(?P<hhmm>\d{3,4})|(?P<hour>\d{1,2}))"
    r"\s*(?P<post>a\.?m\.?|p\.?m\.?|a|p)?",
    re.IGNORECASE,
)


def _nearest(month: int, day: int, shown: date) -> date | None:
    """The month-day closest to ``shown`` (a year-less entry): in December "0308" is the
    coming March, in June the March just gone; a tie goes forward."""
    candidates = []
    for year in (shown.year - 1, shown.year, shown.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    if not candidates:
        return None
    return min(candidates, key=lambda day_: (abs((day_ - shown).days), day_ < shown))


def parse_typed_date(text: str, shown: date) -> date | None:
    """A date from typed text, or None when it is not one whole, real date.

    Understood: ``2027-03-08`` (``/`` ``.`` also), ``20270308``, ``2027年3月8日``; without a
    year ``03-08``, ``3/8``, ``0308``, ``3月8日`` (the one nearest ``shown``); a bare day
    ``8`` or ``8日`` (that day of ``shown``'s month). A weekday word may stand next to any of
    them and is ignored.
    """
    value = _WEEKDAY.sub(" ", text.strip()).strip(" ,，")
    if not value:
        return None
    try:
        if match := re.fullmatch(r"(\d{4})(\d{2})(\d{2})", value):
            return date(int(match[1]), int(match[2]), int(match[3]))
        if match := re.fullmatch(r"(\d{2})(\d{2})", value):
            return _nearest(int(match[1]), int(match[2]), shown)
        if match := _YMD.fullmatch(value):
            return date(int(match[1]), int(match[2]), int(match[3]))
        if match := _MD.fullmatch(value):
            return _nearest(int(match[1]), int(match[2]), shown)
        if match := _DAY.fullmatch(value):
            return shown.replace(day=int(match[1]))
    except ValueError:  # 2027-02-30, month 13, day 31 of a 30-day month ...
        return None
    return None


def parse_typed_time(text: str) -> time | None:
    """A clock time from typed text, or None when it is not one.

    Understood: ``14:30``, ``1430``, ``930``, ``14``, ``2pm``, ``2:30 pm``, ``12am``
    (midnight), ``14点``, ``2点半``, ``下午2点``, ``下午2:30``, ``晚上8点15分``, ``中午12点``.
    A bare hour is read on the 24-hour clock (``2`` is 02:00); am/pm or a Chinese period
    word moves it by the time symbols' rules, and a contradiction (``14pm``, ``上午15点``) is
    refused.
    """
    value = text.strip()
    match = _CLOCK.fullmatch(value)
    if match is None:
        return None
    if match["hhmm"]:
        digits = match["hhmm"]
        hour, minute = int(digits[:-2]), int(digits[-2:])
    else:
        hour = int(match["h"] or match["hour"])
        minute = 30 if match["half"] else int(match["m"] or match["zm"] or 0)
    pre, post = match["pre"], match["post"]
    if pre and post:
        return None
    period = _ZH_PERIODS[pre] if pre else ((AM if post[0].lower() == "a" else PM) if post else None)
    if period is not None:
        converted = period.to_24h(hour)
        if converted is None:  # the hour contradicts the word (14pm, 上午15点, 晚上12点)
            return None
        hour = converted
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)
