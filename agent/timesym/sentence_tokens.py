"""The tokens of a quick-add sentence: what the scanner (``sentence_scan.py``,
``sentence_repeat.py``) found, with its place, and what the parser (``sentence.py``) adds up.

A module of its own so the two scanner modules share them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Final

from agent.timesym import sentence_words as S
from agent.timesym import words as W

# --------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------

#: How firmly a day word pins its day, for sentences with two that disagree ("Sunday
#: brunch tomorrow"): the firmer one is the day, the other stays in the title.
RANK_EXACT: Final = 5  # 明天, 12月20日, 2027-03-08, 农历八月十五, 下个月5号
RANK_WEEK: Final = 4  # 下周三, next Friday
RANK_MONTH_DAY: Final = 3  # 25号, the 25th
RANK_WEEKDAY: Final = 2  # 周五, Friday, 周末
RANK_FESTIVAL: Final = 1  # 国庆, 圣诞节, Christmas


@dataclass(frozen=True, kw_only=True)
class Tok:
    start: int
    end: int


@dataclass(frozen=True, kw_only=True)
class DayTok(Tok):
    days: tuple[date, ...]
    rank: int
    #: A word that names "the next such day" (周五, 25号): it moves on by a week or a month
    #: when the time it is given has already passed today.
    rolls: str | None = None  # "week" | "month" | None
    weekday: int | None = None  # 1..7 for a plain weekday (a confirmation next to a date)
    weekend: bool = False
    month_day: int | None = None  # a bare 26日 after "12月24日到"
    lunar: bool = False


@dataclass(frozen=True, kw_only=True)
class ClockTok(Tok):
    hour: int
    minute: int
    padded: bool
    meridiem: W.Period | None = None


@dataclass(frozen=True, kw_only=True)
class PeriodTok(Tok):
    period: W.Period
    default_hour: int


@dataclass(frozen=True, kw_only=True)
class SepTok(Tok):
    pass


@dataclass(frozen=True, kw_only=True)
class RepeatTok(Tok):
    """A repeat. ``kind`` is the command layer's old word (DAILY, WEEKDAYS, WEEKLY, BIWEEKLY,
    MONTHLY, YEARLY), kept for its callers; the rest says the rule in full: ``freq`` (when
    the kind does not say it), an interval, weekdays (1..7) with an ordinal in the month
    (2 the second, -1 the last), and month days (-1 the last)."""

    kind: str
    weekday: int | None = None
    month_day: int | None = None
    freq: str | None = None
    interval: int = 1
    weekdays: tuple[int, ...] = ()
    ordinal: int = 0
    month_days: tuple[int, ...] = ()
    set_position: int = 0  # 每月最后一个工作日: the last of the month's weekdays (BYSETPOS=-1)
    bare: bool = False  # "Tues Thurs Sat": a weekday list that repeats only with "every week" beside it


@dataclass(frozen=True, kw_only=True)
class EndTok(Tok):
    """How a repeat ends: after ``count`` times, or after ``weeks``/``months``/``days``
    ("for 10 weeks", 为期三个月). A last day is a day word after 到/until (sentence.py)."""

    count: int | None = None
    span_days: int = 0
    span_months: int = 0
    bare: bool = False  # "3次" with no 共/一共: right after 每天 it is times a day, not an end


@dataclass(frozen=True, kw_only=True)
class DurationTok(Tok):
    """How long the event is ("for 30 minutes", 一个半小时): it sets the end."""

    minutes: int


@dataclass(frozen=True, kw_only=True)
class ZoneTok(Tok):
    """A time zone said in the sentence ("4pm CET", 纽约时间): the clock times are that
    zone's. ``bare`` is an abbreviation, read only right beside a clock time."""

    zone: str
    label: str
    bare: bool = False


@dataclass(frozen=True, kw_only=True)
class ReminderTok(Tok):
    minutes: int


@dataclass(frozen=True, kw_only=True)
class TitleTok(Tok):
    """A word that looks like a date or time but names the event (下午茶)."""


Token = DayTok | ClockTok | PeriodTok | SepTok | RepeatTok | ReminderTok | TitleTok | EndTok | DurationTok | ZoneTok


def number(text: str | None) -> int | None:
    """A small number written in digits, Chinese or English words (12, 十二, twelve)."""
    if text is None:
        return None
    text = text.strip()
    if text.isdigit():
        return int(text)
    if text in S.NUMBERS_EN:
        return S.NUMBERS_EN[text]
    return W.cn_to_int(text)
