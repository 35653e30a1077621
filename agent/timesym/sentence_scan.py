"""Find the day, time, repeat and reminder words of a quick-add sentence, with their places.

``sentence.py`` decides what the words add up to; this module only finds them. It scans the
folded sentence left to right and at each position keeps the longest word any rule reads
(rule order breaks ties), so "十一点" is a time before "十一" could be anything else and
"下午茶" is a title word before "下午" is a period. What no rule reads is left for the
title. Folding keeps one character per character, so every token's offsets are offsets
into the text the user typed, which is what the quick-add field underlines.

Days are resolved here, through the canonical symbols of ``resolve.py`` (``D+1``, ``W3+1``,
``H:国庆``, ``L:08-15``), so 调休 data and 农历 stay the single source of truth.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from datetime import date, timedelta
from functools import lru_cache
from typing import Final

from agent.timesym import pattern_cache, sentence_repeat
from agent.timesym import sentence_words as S
from agent.timesym import words as W
from agent.timesym.context import TimeContext, add_months
from agent.timesym.grammar import SymbolError
from agent.timesym.patterns import (
    DAY_MARK,
    MERIDIEM,
    MINUTE_ZH,
    MONTHS,
    NUM_ZH,
    ORD,
    L,
    R,
    alt,
    next_day_of_month,
    next_month_day,
    week_offset_zh,
    zh_minute,
)
from agent.timesym.resolve import resolve_date
from agent.timesym.sentence_tokens import (
    RANK_EXACT,
    RANK_FESTIVAL,
    RANK_MONTH_DAY,
    RANK_WEEK,
    RANK_WEEKDAY,
    ClockTok,
    DayTok,
    PeriodTok,
    ReminderTok,
    RepeatTok,
    SepTok,
    TitleTok,
    Token,
    number,
)

_Handler = Callable[[re.Match[str], TimeContext], list[Token] | None]

# --------------------------------------------------------------------------
# Folding
# --------------------------------------------------------------------------


def fold(text: str) -> str:
    """Width and case folded, one character for one, so offsets survive ("１５：３０" → "15:30")."""
    out: list[str] = []
    for ch in text:
        folded = unicodedata.normalize("NFKC", ch).replace("\u2019", "'").replace("\u2018", "'").lower()
        folded = S.TRADITIONAL.get(folded, folded)
        out.append(folded if len(folded) == 1 else ch)
    return "".join(out)


# --------------------------------------------------------------------------
# Day resolution (cached: the field re-reads the sentence on every keystroke)
# --------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _symbol_days(symbol: str, today: date, ctx: TimeContext) -> tuple[date, ...] | None:
    try:
        res = resolve_date(symbol, ctx)
    except (SymbolError, ValueError, OverflowError):
        return None
    if res.candidates:
        return tuple(res.candidates)
    if res.start is None:
        return None
    return (res.start.astimezone(ctx.tz).date(),)


def symbol_days(symbol: str, ctx: TimeContext) -> tuple[date, ...] | None:
    """The days a date symbol covers for ``ctx``, or None when it does not resolve."""
    day_ctx = ctx.with_now(ctx.local_now.replace(hour=12, minute=0, second=0, microsecond=0))
    return _symbol_days(symbol, ctx.today, day_ctx)


# --------------------------------------------------------------------------
# Pattern pieces
# --------------------------------------------------------------------------


_NUM: Final = rf"(?:(?<![0-9])[0-9]{{1,2}}(?![0-9])|{NUM_ZH})"
_WD_ZH: Final = alt(W.WEEKDAY_SUFFIXES_ZH)
_WEEK_ZH: Final = alt(W.WEEKDAY_PREFIXES_ZH)
_WD_EN: Final = alt(W.WEEKDAYS_EN)
_NUM_EN: Final = rf"(?:[0-9]{{1,3}}|{alt(S.NUMBERS_EN)})"
_NOT_CLOCK_AFTER: Final = r"(?!\s*(?:[0-9:]|" + MERIDIEM + r"|点|时))"
#: "Dec 20 8am": a month-name date may stand before a time; "Dec 3pm" and "Dec 3:30" are not dates.
_NOT_CLOCK_RIGHT_AFTER: Final = r"(?!\s*(?::|" + MERIDIEM + r"|点|时))"


def _day_tok(m: re.Match[str], days: tuple[date, ...] | None, rank: int, **extra: object) -> list[Token] | None:
    if not days:
        return None
    return [DayTok(start=m.start(), end=m.end(), days=days, rank=rank, **extra)]  # type: ignore[arg-type]


def _symbol_tok(m: re.Match[str], ctx: TimeContext, symbol: str, rank: int, **extra: object) -> list[Token] | None:
    return _day_tok(m, symbol_days(symbol, ctx), rank, **extra)


# --------------------------------------------------------------------------
# Handlers: days
# --------------------------------------------------------------------------


def _ymd(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    mo, d = number(m["m"]), number(m["d"])
    if mo is None or d is None:
        return None
    try:
        day = date(int(m["y"]), mo, d)
    except ValueError:
        return None
    return _day_tok(m, (day,), RANK_EXACT)


def _md(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    mo = number(m["m"]) if m["m"] is not None else W.MONTHS_EN.get(re.sub(r"\s+", " ", m["mon"]))
    d = number(m["d"])
    if mo is None or d is None or not 1 <= mo <= 12:
        return None
    found = next_month_day(mo, d, ctx.today)
    return _day_tok(m, (found,) if found else None, RANK_EXACT)


def _lunar(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    month = S.LUNAR_MONTHS.get(m["lm"]) if m["lm"] else 1
    text = m["ld"]
    day: int | None
    if text[0] in S.LUNAR_DAY_PREFIXES:
        rest = W.cn_to_int(text[1:])
        day = None if rest is None or not 1 <= rest <= 10 else S.LUNAR_DAY_PREFIXES[text[0]] + rest
    else:
        day = number(text.rstrip("日号"))
    if month is None or day is None or not 1 <= day <= 30:
        return None
    return _symbol_tok(m, ctx, f"L:{month:02d}-{day:02d}", RANK_EXACT, lunar=True)


def _next_month(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    d = number(m["d"])
    year, month = add_months(ctx.today.year, ctx.today.month, 1)
    if d is None or not 1 <= d <= calendar.monthrange(year, month)[1]:
        return None
    return _day_tok(m, (date(year, month, d),), RANK_EXACT)


def _dom(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    d = number(m["d"])
    found = next_day_of_month(d, ctx.today) if d is not None else None
    return _day_tok(m, (found,) if found else None, RANK_MONTH_DAY, rolls="month", month_day=d)


def _weekday_zh(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    d = W.WEEKDAY_SUFFIXES_ZH[m["d"]]
    k = week_offset_zh(m["pre"])
    if k is None:
        return _symbol_tok(m, ctx, f"W{d}", RANK_WEEKDAY, rolls="week", weekday=d)
    return _symbol_tok(m, ctx, f"W{d}{k:+d}", RANK_WEEK)


def _weekend_zh(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    k = week_offset_zh(m["pre"])
    return _symbol_tok(m, ctx, "WE" if not k else f"WE{k:+d}", RANK_WEEKDAY, weekend=True)


def _weekday_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    d = W.WEEKDAYS_EN[m["d"]]
    groups = m.groupdict()
    nxt = bool(groups.get("next") or groups.get("after"))
    if groups.get("last"):
        return _symbol_tok(m, ctx, f"W{d}-1", RANK_WEEK)
    if nxt:
        return _symbol_tok(m, ctx, f"W{d}+1", RANK_WEEK)
    if groups.get("thisweek"):
        return _symbol_tok(m, ctx, f"W{d}+0", RANK_WEEK)
    rank = RANK_MONTH_DAY if groups.get("this") else RANK_WEEKDAY  # "this Sunday" is said as a date
    return _symbol_tok(m, ctx, f"W{d}", rank, rolls="week", weekday=d)


def _weekend_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    return _symbol_tok(m, ctx, "WE+1" if m["next"] else "WE", RANK_WEEKDAY, weekend=True)


def _rel(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    word = re.sub(r"\s+", " ", m["w"])
    n = S.MORE_RELATIVE_DAYS.get(word, W.RELATIVE_DAYS.get(word.removeprefix("the ")))
    if n is None:
        return None
    return _day_tok(m, (ctx.today + timedelta(days=n),), RANK_EXACT)


def _in_days(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    n = number(m["n"])
    if n is None or n > 366:
        return None
    unit = 7 if m["u"] in ("周", "个星期", "星期", "个礼拜", "礼拜", "week", "weeks") else 1
    sign = -1 if m.groupdict().get("ago") else 1
    return _day_tok(m, (ctx.today + timedelta(days=sign * n * unit),), RANK_EXACT)


def _in_minutes(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "in 15 minutes", "半小时后": a day and a clock time from now, to the minute."""
    groups = m.groupdict()
    if groups.get("half"):
        minutes = 30
    elif groups.get("quarter"):
        minutes = 15
    else:
        n = number(groups.get("n"))
        per = S.UNIT_MINUTES_ZH.get(groups.get("u") or "") or S.UNIT_MINUTES_EN.get(groups.get("u") or "")
        if n is None or per is None or per > 60 or n * per > 24 * 60:
            return None
        minutes = n * per
    at = (ctx.local_now + timedelta(minutes=minutes)).replace(second=0, microsecond=0)
    return [
        DayTok(start=m.start(), end=m.end(), days=(at.date(),), rank=RANK_EXACT),
        ClockTok(start=m.start(), end=m.end(), hour=at.hour, minute=at.minute, padded=True),
    ]


def _now(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    at = ctx.local_now
    return [
        DayTok(start=m.start(), end=m.end(), days=(at.date(),), rank=RANK_EXACT),
        ClockTok(start=m.start(), end=m.end(), hour=at.hour, minute=at.minute, padded=True),
    ]


def _month_rel_dom(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """上个月23号, 本月9日, 这个月20号: that day of the named month, past or not."""
    d = number(m["d"])
    step = {"上": -1, "下": 1}.get(m["w"], 0)
    year, month = add_months(ctx.today.year, ctx.today.month, step)
    if d is None or not 1 <= d <= calendar.monthrange(year, month)[1]:
        return None
    return _day_tok(m, (date(year, month, d),), RANK_EXACT)


def _year(text: str) -> int | None:
    digits = "".join(str(W.CN_DIGITS[ch]) if ch in W.CN_DIGITS else ch for ch in text)
    if not digits.isdigit():
        return None
    if len(digits) == 2:
        return 2000 + int(digits)
    return int(digits) if len(digits) == 4 else None


def _ymd_any(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """Dates with their year written any way: 二零一五年三月三号, 15年3月2日, March 3rd 2015, 3/3/2015."""
    groups = m.groupdict()
    year = _year(groups["y"])
    mo = number(groups["m"]) if groups.get("m") else W.MONTHS_EN.get(re.sub(r"\s+", " ", groups.get("mon") or ""))
    d = number(groups["d"])
    if year is None or mo is None or d is None:
        return None
    try:
        return _day_tok(m, (date(year, mo, d),), RANK_EXACT)
    except ValueError:
        return None


def _minutes_phrase(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "half past 3 pm", "a quarter to noon", "20 minutes to 2pm"."""
    groups = m.groupdict()
    said = 12 if groups.get("noon") else S.HOURS_EN.get(groups["h"]) or int(groups["h"])
    hour = said
    mins = 30 if groups.get("half") else 15 if groups.get("quarter") else number(groups.get("n"))
    if mins is None or not 0 < mins < 60 or hour > 12:
        return None
    ap = W.PM if groups.get("noon") else (W.MERIDIEM_EN[groups["ap"]] if groups.get("ap") else None)
    if ap is None and groups["dir"] in ("to", "before", "till") and (W.BARE.to_24h(said) or 12) < 12:
        ap = W.AM  # the hour said decides, as for a bare hour: "quarter to seven" is 06:45, "to five" 16:45
    if groups["dir"] in ("to", "before", "till"):
        hour, mins = (hour - 1) % 24, 60 - mins
        if ap is not None and groups.get("noon"):
            ap = W.AM
        elif ap is not None and hour == 11 and int(groups.get("h") or 12) == 12:
            ap = W.AM if ap is W.PM else W.PM
    if hour == 0 and ap is None:
        hour = 12
    return [ClockTok(start=m.start(), end=m.end(), hour=hour, minute=mins, padded=groups.get("noon") is not None, meridiem=ap)]


def _dated_period(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    word = m["w"]
    if word in W.DATED_PERIOD_WORDS:
        n, period = W.DATED_PERIOD_WORDS[word]
    elif word in S.MORE_DATED_PERIODS:
        n, name = S.MORE_DATED_PERIODS[word]
        period = W.PERIOD_WORDS[name]
    else:  # "this morning", "this afternoon", "this evening", "last night"
        n, period = (-1 if word.startswith("last") else 0), W.PERIOD_WORDS[word.split()[-1]]
    day = DayTok(start=m.start(), end=m.end(), days=(ctx.today + timedelta(days=n),), rank=RANK_WEEK)
    hour = S.PERIOD_DEFAULT_HOUR[period.name]
    return [day, PeriodTok(start=m.start(), end=m.end(), period=period, default_hour=hour)]


def _holiday(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    name = re.sub(r"\s+", " ", m["w"])
    if name in S.NATIONAL_DAY_ELEVEN:
        name = "国庆"
    fixed = S.FIXED_FESTIVALS.get(name) or S.HOLIDAY_DAYS_ZH.get(name)
    if fixed is not None:
        found = next_month_day(fixed[0], fixed[1], ctx.today)
        return _day_tok(m, (found,) if found else None, RANK_FESTIVAL)
    if name in S.LUNAR_FESTIVALS:
        month, day = S.LUNAR_FESTIVALS[name]
        return _symbol_tok(m, ctx, f"L:{month:02d}-{day:02d}", RANK_FESTIVAL, lunar=True)
    if name in S.LUNAR_NEW_YEARS_EVE:
        new_year = symbol_days("L:01-01", ctx.with_now(ctx.now + timedelta(days=1)))
        return _day_tok(m, (new_year[0] - timedelta(days=1),) if new_year else None, RANK_FESTIVAL, lunar=True)
    days = symbol_days(f"H:{name}", ctx)
    return _day_tok(m, days[:1] if days else None, RANK_FESTIVAL)


# --------------------------------------------------------------------------
# Handlers: times
# --------------------------------------------------------------------------


def _period(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    word = m["w"]
    period = W.PERIOD_WORDS[word]
    hour = S.PERIOD_WORD_DEFAULT_HOUR.get(word, S.PERIOD_DEFAULT_HOUR[period.name])
    return [PeriodTok(start=m.start(), end=m.end(), period=period, default_hour=hour)]


def _time_zh(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    hour = number(m["h"])
    if hour is None or hour > 24:
        return None
    minute = zh_minute(m["m"])
    end = m.end()
    if minute is None:  # 三点五 (3:05 or 3:30?), 七点五月天, 三点一对一: only the hour is read
        minute, end = 0, m.end("hm")
    padded = len(m["h"]) == 2 and m["h"].startswith("0")
    return [ClockTok(start=m.start(), end=end, hour=hour, minute=minute, padded=padded)]


def _clock(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    groups = m.groupdict()
    hour = int(groups["h"])
    minute = int(groups["m"]) if groups.get("m") else 0
    if hour > 24 or minute > 59:
        return None
    ap = groups.get("ap")
    meridiem = W.MERIDIEM_EN[ap] if ap else None
    start = m.start("h") if groups.get("at") else m.start()
    padded = len(groups["h"]) == 2 and groups["h"].startswith("0")
    return [ClockTok(start=start, end=m.end(), hour=hour, minute=minute, padded=padded, meridiem=meridiem)]


def _clock_range(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "2-4pm", "10:30-11am", "9 to 11 am": two clocks; the end's am/pm is applied later."""
    h1, h2 = number(m["h1"]), number(m["h2"])
    m1, m2 = int(m["m1"] or 0), int(m["m2"] or 0)
    if h1 is None or h2 is None or max(h1, h2) > 24 or max(m1, m2) > 59:
        return None
    ap1 = W.MERIDIEM_EN[m["ap1"]] if m["ap1"] else None
    ap2 = W.MERIDIEM_EN[m["ap2"]] if m["ap2"] else None
    return [
        ClockTok(start=m.start("h1"), end=m.end("first"), hour=h1, minute=m1, padded=m["h1"].startswith("0"), meridiem=ap1),
        SepTok(start=m.start("sep"), end=m.end("sep")),
        ClockTok(start=m.start("h2"), end=m.end(), hour=h2, minute=m2, padded=m["h2"].startswith("0"), meridiem=ap2),
    ]


def _noon(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    return [ClockTok(start=m.start(), end=m.end(), hour=12, minute=0, padded=True, meridiem=W.PM)]


def _midnight(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    return [ClockTok(start=m.start(), end=m.end(), hour=24, minute=0, padded=True)]


def _sep(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    return [SepTok(start=m.start(), end=m.end())]


# --------------------------------------------------------------------------
# Handlers: repeats, reminders, title words
# --------------------------------------------------------------------------


def _repeat(kind: str) -> _Handler:
    def handler(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
        groups = m.groupdict()
        weekday = None
        if groups.get("d"):
            weekday = W.WEEKDAY_SUFFIXES_ZH.get(groups["d"]) or W.WEEKDAYS_EN.get(groups["d"])
        if groups.get("we"):
            weekday = 6
        month_day = number(groups.get("md")) if groups.get("md") else None
        if month_day is not None and not 1 <= month_day <= 31:
            return None
        return [RepeatTok(start=m.start(), end=m.end(), kind=kind, weekday=weekday, month_day=month_day)]

    return handler


def _first_letter(s: str) -> int:
    stripped = s.lstrip()
    return len(s) - len(stripped)


def _adjective_repeat(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "daily"/"monthly" opening the sentence and running into a word is part of its name."""
    if m.start() == _first_letter(m.string) and re.match(r"\s+[a-z]", m.string[m.end() :]):
        return None
    return [RepeatTok(start=m.start(), end=m.end(), kind=S.ADJECTIVE_REPEATS_EN[m["w"]])]


def _reminder(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    groups = m.groupdict()
    if groups.get("half"):
        minutes = 30
    elif groups.get("daybefore"):
        minutes = 1440
    else:
        n = number(groups.get("n"))
        unit = groups.get("u") or ""
        per = S.UNIT_MINUTES_ZH.get(unit) or S.UNIT_MINUTES_EN.get(unit)
        if n is None or per is None:
            return None
        minutes = n * per
    if not 0 <= minutes <= S.MAX_REMINDER_MINUTES:
        return None
    return [ReminderTok(start=m.start(), end=m.end(), minutes=minutes)]


def _title_word(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    return [TitleTok(start=m.start(), end=m.end())]


# --------------------------------------------------------------------------
# The rule table
# --------------------------------------------------------------------------


def _rule(pattern: str, handler: _Handler) -> tuple[re.Pattern[str], _Handler]:
    return pattern_cache.compile(pattern), handler


_REL_ALL = [*W.RELATIVE_DAYS, *S.MORE_RELATIVE_DAYS]
_REL_ZH = [w for w in _REL_ALL if not w.isascii()]
_REL_EN = [w for w in _REL_ALL if w.isascii()]
_PER_ZH = [w for w in W.PERIOD_WORDS if not w.isascii()]
_PER_EN = [w for w in W.PERIOD_WORDS if w.isascii()]
_DP_ZH = [w for w in W.DATED_PERIOD_WORDS if not w.isascii()]
_UNIT_ZH = alt(S.UNIT_MINUTES_ZH)
_UNIT_EN = alt(S.UNIT_MINUTES_EN)
_LUNAR_MONTH = alt(S.LUNAR_MONTHS)
_LUNAR_DAY = rf"(?:[初廿][一二三四五六七八九十]|三十|{_NUM}(?:\s*{DAY_MARK})?)"
_EVERY_ZH = alt(S.EVERY_ZH)
_WEEKWORD_ZH = alt(S.WEEK_WORDS_ZH)
_HOLIDAY_NAMES = [
    *S.HOLIDAY_WORDS_ZH,
    *S.NATIONAL_DAY_ELEVEN,
    *S.HOLIDAY_WORDS_EN,
    *S.FIXED_FESTIVALS,
    *S.HOLIDAY_DAYS_ZH,
    *S.LUNAR_FESTIVALS,
    *S.LUNAR_NEW_YEARS_EVE,
]
_WD_EN_PLURAL = alt(w + "s" for w in W.WEEKDAYS_EN if len(w) > 3)

RULES: Final[tuple[tuple[re.Pattern[str], _Handler], ...]] = (
    # title words first: longest match wins, so they only shadow what they contain
    _rule(alt(S.TITLE_WORDS_ZH), _title_word),
    # days
    _rule(rf"(?<![0-9])(?P<y>[0-9]{{4}})\s*年\s*(?P<m>{_NUM})\s*月\s*(?P<d>{_NUM})(?:\s*{DAY_MARK})?", _ymd),
    _rule(r"(?<![0-9])(?P<y>[0-9]{4})(?P<sep>[-/.])(?P<m>[0-9]{1,2})(?P=sep)(?P<d>[0-9]{1,2})(?![0-9])", _ymd),
    _rule(
        rf"(?P<y>[零〇一二三四五六七八九]{{4}}|[零〇一二三四五六七八九]{{2}}|(?<![0-9])[0-9]{{2}})\s*年\s*(?P<m>{_NUM})\s*月"
        rf"\s*(?P<d>{_NUM})(?:\s*{DAY_MARK})?",
        _ymd_any,
    ),
    _rule(
        rf"{L}(?P<mon>{MONTHS})\.?\s*(?P<d>[0-9]{{1,2}}){ORD}?,?\s+(?P<y>(?:19|20)[0-9]{{2}})(?![0-9])",
        _ymd_any,
    ),
    _rule(
        rf"(?<![0-9])(?:the\s+)?(?P<d>[0-9]{{1,2}}){ORD}?\s*(?:of\s+)?(?P<mon>{MONTHS}),?\s+(?P<y>(?:19|20)[0-9]{{2}})(?![0-9])",
        _ymd_any,
    ),
    _rule(r"(?<![0-9.:/])(?P<m>[0-9]{1,2})/(?P<d>[0-9]{1,2})/(?P<y>(?:19|20)[0-9]{2})(?![0-9])", _ymd_any),
    _rule(r"(?<![0-9:/.-])(?P<m>[01][0-9])-(?P<d>[0-3][0-9])(?![0-9:-])(?P<mon>)", _md),
    _rule(rf"(?P<w>[上下这本今])\s*个?\s*月\s*(?P<d>{_NUM})\s*{DAY_MARK}", _month_rel_dom),
    _rule(rf"{S.LUNAR_NEW_YEAR_DAYS}(?P<ld>[一二三四五六七八九十])(?P<lm>)", lambda m, ctx: _lunar_new_year_day(m, ctx)),
    _rule(rf"(?:{alt(S.LUNAR_PREFIXES)})\s*(?P<lm>{_LUNAR_MONTH})\s*月\s*(?P<ld>{_LUNAR_DAY})", _lunar),
    _rule(rf"(?:{alt(S.LUNAR_PREFIXES)})?\s*(?P<lm>{alt(S.LUNAR_ONLY_MONTHS)})\s*月\s*(?P<ld>{_LUNAR_DAY})", _lunar),
    _rule(rf"(?P<m>{_NUM})\s*月\s*(?P<d>{_NUM})(?:\s*{DAY_MARK})?(?P<mon>)", _md),
    _rule(r"(?<![0-9.:/])(?P<m>[0-9]{1,2})\s*/\s*(?P<d>[0-9]{1,2})(?![0-9/])(?P<mon>)", _md),
    # 12.11 下午4点: a dotted month.day only before Chinese ("Python 3.11 upgrade" is a version)
    _rule(r"(?<![0-9a-z.:/])(?P<m>1[0-2]|0?[1-9])\.(?P<d>[0-3]?[0-9])(?![0-9.%])(?=\s*[\u4e00-\u9fff])(?P<mon>)", _md),
    _rule(
        rf"{L}lunar\s+(?:(?P<mon>{MONTHS})\.?\s*(?P<d>[0-9]{{1,2}}){ORD}?|(?P<m>[0-9]{{1,2}})\s*/\s*(?P<d2>[0-9]{{1,2}})){R}",
        lambda m, ctx: _lunar_en(m, ctx),
    ),
    _rule(
        rf"{L}(?P<mon>{MONTHS})\.?\s*(?P<d>[0-9]{{1,2}}){ORD}?(?![0-9a-z]){_NOT_CLOCK_RIGHT_AFTER}(?P<m>)",
        lambda m, ctx: _md_named(m, ctx),
    ),
    _rule(
        rf"(?<![0-9])(?:the\s+)?(?P<d>[0-9]{{1,2}}){ORD}?\s*(?:of\s+)?(?P<mon>{MONTHS}){R}(?P<m>)",
        lambda m, ctx: _md_named(m, ctx),
    ),
    _rule(
        rf"{L}(?P<mon>{MONTHS})\.?\s*(?P<d>[0-9]{{1,2}}){ORD}?\s*(?P<sep>-|–|~|to|through|thru|until)\s*"
        rf"(?P<d2>[0-9]{{1,2}}){ORD}?(?![0-9a-z:]){_NOT_CLOCK_AFTER}",
        lambda m, ctx: _md_range(m, ctx),
    ),
    _rule(
        rf"(?P<m>{_NUM})\s*月\s*(?P<d>{_NUM})\s*{DAY_MARK}?\s*(?P<sep>-|–|~|到|至)\s*(?P<d2>{_NUM})\s*{DAY_MARK}",
        lambda m, ctx: _md_range(m, ctx),
    ),
    _rule(rf"下\s*个?\s*月\s*(?P<d>{_NUM})\s*{DAY_MARK}", _next_month),
    _rule(rf"{L}(?:the\s+)?(?P<d>[0-9]{{1,2}}){ORD}?\s+of\s+next\s+month{R}", _next_month),
    _rule(rf"{L}next\s+month\s+(?:on\s+)?(?:the\s+)?(?P<d>[0-9]{{1,2}}){ORD}?{R}", _next_month),
    _rule(rf"{L}(?:on\s+)?the\s+(?P<d>[0-9]{{1,2}}){ORD}\s+of\s+next\s+month{R}", _next_month),
    _rule(rf"(?P<d>{_NUM})\s*{DAY_MARK}(?!本|{alt(S.NOT_DAY_AFTER_HAO)})", _dom),
    _rule(rf"(?<![0-9])(?:the\s+)?(?P<d>[0-9]{{1,2}}){ORD}{R}(?!\s+(?:{alt(S.NOT_DAY_AFTER_ORDINAL)}){R})", _dom),
    _rule(
        rf"(?P<pre>(?:下\s*)+个?|(?:上\s*)+个?|{alt(W.THIS_WEEK_ZH)})?\s*(?:(?:{_WEEK_ZH})\s*(?=(?:{_WEEK_ZH})))?"
        rf"(?:{_WEEK_ZH})\s*(?P<d>{_WD_ZH})",
        _weekday_zh,
    ),
    _rule(rf"(?P<pre>(?:下\s*)+个?|(?:上\s*)+个?|{alt(W.THIS_WEEK_ZH)})?\s*{W.WEEKEND_ZH}", _weekend_zh),
    _rule(rf"{L}(?P<d>{_WD_EN})\s+(?:of\s+)?(?:(?P<after>next)|(?P<thisweek>this))\s+week{R}", _weekday_en),
    _rule(rf"{L}(?P<last>last)\s+(?P<d>{_WD_EN}){R}", _weekday_en),
    _rule(rf"{L}next\s+week\s+(?:on\s+)?(?P<d>{_WD_EN})(?P<next>){R}", _weekday_en),
    _rule(rf"{L}(?:(?P<next>next)\s+|(?P<this>this\s+(?:coming\s+)?|coming\s+))?(?P<d>{_WD_EN})\.?{R}", _weekday_en),
    _rule(rf"{L}(?:(?P<next>next)\s+|this\s+|the\s+)?(?:{W.WEEKEND_EN}|week-end){R}", _weekend_en),
    _rule(rf"(?P<w>{alt(_REL_ZH)})", _rel),
    _rule(rf"{L}(?P<w>{alt(_REL_EN)}){R}", _rel),
    _rule(rf"(?P<n>{_NUM}|[0-9]{{1,3}})\s*(?P<u>天|周|个星期|星期|个礼拜|礼拜)\s*(?:之)?后", _in_days),
    _rule(rf"{L}in\s+(?P<n>{_NUM_EN})\s+(?P<u>days?|weeks?){R}", _in_days),
    _rule(rf"{L}(?P<n>{_NUM_EN})\s+(?P<u>days?|weeks?)\s+(?P<ago>ago){R}", _in_days),
    _rule(rf"(?P<n>{_NUM}|[0-9]{{1,3}})\s*(?P<u>天|周|个星期|个礼拜)\s*(?P<ago>前|以前|之前)(?!\s*提醒)", _in_days),
    _rule(
        rf"{L}in\s+(?:(?P<n>{_NUM_EN})\s*(?P<u>minutes?|mins?|hours?|hrs?)|(?P<half>half\s+an\s+hour)|(?P<quarter>a\s+quarter\s+of\s+an\s+hour)){R}",
        _in_minutes,
    ),
    _rule(
        rf"(?:(?P<n>{_NUM}|[0-9]{{1,3}})\s*(?P<u>分钟|个小时|小时|个钟头|钟头)|(?P<half>{alt(S.HALF_HOUR_ZH)})|(?P<quarter>一刻钟))\s*(?:之|以)?后",
        _in_minutes,
    ),
    _rule(rf"(?:{alt(w for w in S.NOW_WORDS if not w.isascii())})|{L}(?<!from\s)(?:right\s+)?now{R}", _now),
    _rule(rf"(?P<w>{alt([*_DP_ZH, *S.MORE_DATED_PERIODS])})", _dated_period),
    _rule(rf"{L}(?P<w>tonight|last\s+night|this\s+morning|this\s+afternoon|this\s+evening){R}", _dated_period),
    _rule(rf"(?P<w>{alt(w for w in _HOLIDAY_NAMES if not w.isascii())})", _holiday),
    _rule(rf"{L}(?P<w>{alt(w for w in _HOLIDAY_NAMES if w.isascii())}){R}", _holiday),
    # periods
    _rule(rf"(?P<w>{alt(_PER_ZH)})", _period),
    _rule(rf"{L}(?:in\s+the\s+|at\s+)?(?P<w>{alt(_PER_EN)}){R}", _period),
    # clock times
    _rule(rf"(?P<hm>(?P<h>{_NUM})\s*(?:{alt(W.HOUR_MARKERS_ZH)}))(?:\s*{MINUTE_ZH})?", _time_zh),
    _rule(
        rf"(?<![0-9.:/])(?P<first>(?P<h1>[0-9]{{1,2}})(?::(?P<m1>[0-9]{{2}}))?(?:\s*(?P<ap1>{MERIDIEM}))?)"
        rf"\s*(?P<sep>-|–|~|to|until|till)\s*"
        rf"(?P<h2>[0-9]{{1,2}})(?::(?P<m2>[0-9]{{2}}))?\s*(?P<ap2>{MERIDIEM})(?![a-z])",
        _clock_range,
    ),
    _rule(
        r"(?<![0-9.:/])(?P<first>(?P<h1>[0-9]{1,2}):(?P<m1>[0-9]{2})(?P<ap1>))\s*(?P<sep>-|–|~|to|until|till)\s*"
        r"(?P<h2>[0-9]{1,2}):(?P<m2>[0-9]{2})(?P<ap2>)(?![0-9])",
        _clock_range,
    ),
    _rule(
        rf"{L}(?:from|between)\s+(?P<first>(?P<h1>[0-9]{{1,2}})(?::(?P<m1>[0-9]{{2}}))?(?:\s*(?P<ap1>{MERIDIEM}))?)"
        rf"\s*(?P<sep>-|–|~|to|until|till|and)\s*"
        rf"(?P<h2>[0-9]{{1,2}})(?::(?P<m2>[0-9]{{2}}))?(?:\s*(?P<ap2>{MERIDIEM}))?(?![0-9a-z])",
        _clock_range,
    ),
    _rule(
        r"(?<![0-9.:/])(?P<first>(?P<h1>[0-9]{1,2})(?::(?P<m1>[0-9]{2}))?(?P<ap1>))\s*(?P<sep>-|–|~|to)\s*"
        r"(?P<h2>[0-9]{1,2}):(?P<m2>[0-9]{2})(?P<ap2>)(?![0-9])",
        _clock_range,
    ),
    _rule(
        rf"(?P<first>(?P<h1>{_NUM})(?P<m1>)(?P<ap1>))\s*(?P<sep>-|~|–|到|至)\s*(?P<h2>{_NUM})\s*(?:点钟|点|时)(?P<m2>)(?P<ap2>)",
        _clock_range,
    ),
    _rule(rf"(?<![0-9.:/])(?P<h>[0-9]{{1,2}})\s*[:：]\s*(?P<m>[0-9]{{2}})(?:\s*(?P<ap>{MERIDIEM}))?(?![0-9a-z])", _clock),
    _rule(rf"(?<![0-9.:/])(?P<h>[0-9]{{1,2}})\s*(?P<ap>{MERIDIEM})(?![a-z])", _clock),
    _rule(rf"(?<![0-9.:/])(?P<h>[0-9]{{1,2}})\s*(?:{alt(W.OCLOCK_EN)}){R}", _clock),
    _rule(
        rf"{L}(?P<at>at|@)\s*(?P<h>[0-9]{{1,2}})(?:\s*:\s*(?P<m>[0-9]{{2}}))?(?:\s*(?P<ap>{MERIDIEM})(?![a-z]))?(?![0-9a-z:/.])",
        _clock,
    ),
    _rule(
        rf"{L}(?:(?P<half>half)|(?P<quarter>(?:a\s+)?quarter)|(?P<n>[0-9]{{1,2}}|five|ten|twenty|twenty-five|twenty\s+five)\s*(?:minutes?|mins?)?)"
        rf"\s+(?P<dir>past|after|to|before|till)\s+"
        rf"(?:(?P<noon>noon|midday)|(?P<h>[0-9]{{1,2}}|{alt(S.HOURS_EN)}{R})(?:\s*(?P<ap>{MERIDIEM})(?![a-z]))?)(?![0-9:])",
        _minutes_phrase,
    ),
    _rule(
        rf"(?<![0-9.:/])(?P<h>[0-9]{{1,2}})(?::(?P<m>[0-9]{{2}}))?(?=\s+(?:tonight|this\s+(?:morning|afternoon|evening)"
        rf"|in\s+the\s+(?:morning|afternoon|evening)|at\s+night|(?:today|tomorrow|tmrw?)\s+(?:morning|afternoon|evening|night)){R})",
        _clock,
    ),
    _rule(rf"{L}(?:12\s*)?(?:{alt(W.NOON_EN)}){R}", _noon),
    _rule(rf"{L}half\s+(?P<h>{alt(S.HOURS_EN)}){R}", lambda m, ctx: _half_hour_en(m, ctx)),
    _rule(rf"{L}midnight{R}|午夜", _midnight),
    # range separators (they only count between two days or two times)
    _rule(alt(S.RANGE_SEPARATORS_ZH), _sep),
    _rule(rf"{L}(?:{alt(w for w in S.RANGE_SEPARATORS_EN if w.isalpha())}){R}", _sep),
    # repeats said in full, ends, durations, zones (before the old repeat words: they win a tie)
    *sentence_repeat.RULES,
    # repeats
    _rule(alt(S.DAILY_ZH), _repeat("DAILY")),
    _rule(alt(S.WEEKDAYS_ZH), _repeat("WEEKDAYS")),
    # 每周一次 is once a week, not every Monday
    _rule(rf"(?:{alt(S.BIWEEKLY_ZH)})\s*(?:的)?\s*(?:(?:{_WEEKWORD_ZH})?(?P<d>{_WD_ZH})(?!\s*次))?", _repeat("BIWEEKLY")),
    _rule(rf"(?:{_EVERY_ZH})\s*(?:{_WEEKWORD_ZH})\s*(?P<d>{_WD_ZH})(?!\s*次)", _repeat("WEEKLY")),
    _rule(rf"(?:{_EVERY_ZH})\s*(?P<we>周末)", _repeat("WEEKLY")),
    _rule(rf"(?:{_EVERY_ZH})\s*(?:{_WEEKWORD_ZH})", _repeat("WEEKLY")),
    _rule(rf"(?:{alt(S.MONTH_WORDS_ZH)})\s*(?:的)?\s*(?P<md>{_NUM})\s*{DAY_MARK}", _repeat("MONTHLY")),
    _rule(alt(S.MONTH_WORDS_ZH), _repeat("MONTHLY")),
    _rule(alt(S.YEAR_WORDS_ZH), _repeat("YEARLY")),
    _rule(rf"{L}(?:{alt(S.DAILY_EN[:-1])}){R}", _repeat("DAILY")),
    _rule(rf"{L}(?:{alt(S.WEEKDAYS_EN)}){R}", _repeat("WEEKDAYS")),
    _rule(rf"{L}(?:{alt(S.EVERY_OTHER_EN)})\s+(?P<d>{_WD_EN}){R}", _repeat("BIWEEKLY")),
    _rule(rf"{L}(?:{alt(S.BIWEEKLY_EN[:-2])})(?:\s+on)?(?:\s+(?P<d>{_WD_EN})s?)?{R}", _repeat("BIWEEKLY")),
    _rule(rf"{L}(?:{alt(S.EVERY_EN)})\s+(?P<d>{_WD_EN})s?{R}", _repeat("WEEKLY")),
    _rule(rf"{L}(?:on\s+)?(?P<d>{_WD_EN_PLURAL}){R}", lambda m, ctx: _plural_weekday(m, ctx)),
    _rule(rf"{L}(?:{alt(S.WEEKLY_EN[:-1])})(?:\s+on\s+(?P<d>{_WD_EN})s?)?{R}", _repeat("WEEKLY")),
    _rule(
        rf"{L}(?:{alt(S.MONTHLY_EN)})\s+on\s+the\s+(?P<md>[0-9]{{1,2}}){ORD}?{R}",
        _repeat("MONTHLY"),
    ),
    _rule(rf"{L}(?:{alt(S.MONTHLY_EN[:-1])}){R}", _repeat("MONTHLY")),
    _rule(rf"{L}(?:{alt(S.YEARLY_EN[:2])}){R}", _repeat("YEARLY")),
    _rule(rf"{L}(?P<w>{alt(S.ADJECTIVE_REPEATS_EN)}){R}", _adjective_repeat),
    # reminders
    _rule(
        rf"(?:{alt(S.AHEAD_ZH)})\s*(?:(?P<half>{alt(S.HALF_HOUR_ZH)})|(?P<n>{_NUM}|[0-9]{{1,3}})\s*(?P<u>{_UNIT_ZH}))"
        rf"\s*(?:(?:来|的时候)?\s*(?:提醒|通知)\s*我?|(?:给我)?(?:提醒|通知))",
        _reminder,
    ),
    _rule(
        rf"(?:提醒|通知)\s*我?\s*(?:{alt(S.AHEAD_ZH)})\s*(?:(?P<half>{alt(S.HALF_HOUR_ZH)})|(?P<n>{_NUM}|[0-9]{{1,3}})\s*(?P<u>{_UNIT_ZH}))",
        _reminder,
    ),
    _rule(
        rf"(?:(?P<half>{alt(S.HALF_HOUR_ZH)})|(?P<n>{_NUM}|[0-9]{{1,3}})\s*(?P<u>{_UNIT_ZH}))\s*(?:之)?前\s*(?:提醒|通知)\s*我?",
        _reminder,
    ),
    _rule(
        rf"{L}(?:and\s+)?(?:remind|alert|notify)\s+me\s+(?:(?P<n>{_NUM_EN})\s*(?P<u>{_UNIT_EN})|(?P<half>half\s+an\s+hour)"
        rf"|(?P<daybefore>the\s+day|a\s+day))\s+(?:before|ahead|early|prior|in\s+advance)(?:\s+it)?{R}",
        _reminder,
    ),
    _rule(
        rf"{L}(?:with\s+)?(?:an?\s+)?(?P<n>{_NUM_EN})[-\s]*(?P<u>{_UNIT_EN})\s+(?:reminder|alert|notice|warning){R}",
        _reminder,
    ),
    _rule(
        rf"{L}(?:with\s+)?(?:an?\s+)?(?:reminder|alert)\s+(?P<n>{_NUM_EN})\s*(?P<u>{_UNIT_EN})\s+(?:before|ahead|early|prior){R}",
        _reminder,
    ),
)


def _md_named(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    mo = W.MONTHS_EN.get(re.sub(r"\s+", " ", m["mon"]))
    d = number(m["d"])
    if mo is None or d is None:
        return None
    found = next_month_day(mo, d, ctx.today)
    return _day_tok(m, (found,) if found else None, RANK_EXACT)


def _md_range(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "Jan 3-5", "12月24-26日": a first day and the last day of the same month."""
    groups = m.groupdict()
    mo = number(groups["m"]) if groups.get("m") else W.MONTHS_EN.get(re.sub(r"\s+", " ", groups["mon"]))
    d1, d2 = number(m["d"]), number(m["d2"])
    if mo is None or d1 is None or d2 is None or not 1 <= mo <= 12 or not d1 < d2 <= 31:
        return None
    first = next_month_day(mo, d1, ctx.today)
    if first is None or d2 > calendar.monthrange(first.year, mo)[1]:
        return None
    return [
        DayTok(start=m.start(), end=m.start("sep"), days=(first,), rank=RANK_EXACT),
        SepTok(start=m.start("sep"), end=m.end("sep")),
        DayTok(start=m.start("d2"), end=m.end(), days=(first.replace(day=d2),), rank=RANK_EXACT),
    ]


def _half_hour_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """British "half seven": 7:30 (the bare-hour rule then places it)."""
    return [ClockTok(start=m.start(), end=m.end(), hour=S.HOURS_EN[m["h"]], minute=30, padded=False)]


def _lunar_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "lunar Aug 15", "lunar 3/8": the lunar month and day, as 农历八月十五."""
    month = number(m["m"]) if m["m"] else W.MONTHS_EN.get(re.sub(r"\s+", " ", m["mon"]))
    day = number(m["d2"] or m["d"])
    if month is None or day is None or not 1 <= month <= 12 or not 1 <= day <= 30:
        return None
    return _symbol_tok(m, ctx, f"L:{month:02d}-{day:02d}", RANK_EXACT, lunar=True)


def _lunar_new_year_day(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    day = W.cn_to_int(m["ld"])
    if day is None:
        return None
    return _symbol_tok(m, ctx, f"L:01-{day:02d}", RANK_EXACT, lunar=True)


def _plural_weekday(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "Yoga on Tuesdays": every Tuesday."""
    word = m["d"][:-1]
    return [RepeatTok(start=m.start(), end=m.end(), kind="WEEKLY", weekday=W.WEEKDAYS_EN[word])]


def scan(s: str, ctx: TimeContext) -> list[Token]:
    """Every token of the folded sentence ``s``, left to right, longest match first."""
    found: list[Token] = []
    pos = 0
    n = len(s)
    while pos < n:
        if s[pos] in S.QUOTES:  # 《后天》, “十点读书”: a quoted name is a title, never read
            close = s.find(S.QUOTES[s[pos]], pos + 1)
            if close > pos:
                found.append(TitleTok(start=pos, end=close + 1))
                pos = close + 1
                continue
        best: tuple[int, list[Token]] | None = None
        if not s[pos].isspace():
            for rx, handler in RULES:
                m = rx.match(s, pos)
                if m is None or m.end() <= pos or (best is not None and m.end() <= best[0]):
                    continue
                toks = handler(m, ctx)
                if toks:
                    best = (m.end(), toks)
        if best is None:
            pos += 1
            continue
        found.extend(best[1])
        pos = best[0]
    return found
