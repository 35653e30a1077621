"""The words of a quick-add sentence that say a repeat in full, how it ends, how long the
event lasts and in which time zone: the second half of the scanner (``sentence_scan.py``
holds days, times and reminders), and the assembly of a ``Recurrence`` from what was read.

Why a module of its own: issue 28 asked quick add to say everything the editor can (每周二四,
every other week, 每月最后一个周五, 共10次, "until March 1", "for 30 minutes", "4pm CET"), and
the scanner was already at its size limit. These rules sit in the scanner's one table
(``sentence_scan.RULES``) before the old repeat words, so on a tie the fuller reading wins.

The conventions (docs/quick-add.md):
- 每隔一天/隔天 is every other day (interval 2); 每隔N天 with N ≥ 2 is every N days, as people
  mean 每隔两周 (every two weeks), not every three.
- A weekday list ("every Mon Wed Fri", 每周二四) is one weekly rule; 每周二四点 is Tuesday at 4.
- "for 10 weeks"/为期三个月 ends the series on the day before that span has passed.
- A zone abbreviation (CET, PT, ET …) counts only right beside a clock time (a "PT session"
  is physical therapy); a city with "time"/时间 counts anywhere.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import date, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from agent.timesym import pattern_cache
from agent.timesym import sentence_words as S
from agent.timesym import words as W
from agent.timesym.context import TimeContext, add_months, local_datetime
from agent.timesym.patterns import DAY_MARK, MERIDIEM, MONTHS, NUM_ZH, ORD, L, R, alt, next_month_day
from agent.timesym.recurrence import Recurrence, Weekday, is_last_day, nth_weekday
from agent.timesym.sentence_tokens import (
    RANK_EXACT,
    ClockTok,
    DayTok,
    DurationTok,
    EndTok,
    PeriodTok,
    RepeatTok,
    SepTok,
    Token,
    ZoneTok,
    number,
)

_Handler = Callable[[re.Match[str], TimeContext], list[Token] | None]
_DAYS: Final = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")

_NUM: Final = rf"(?:(?<![0-9])[0-9]{{1,3}}(?![0-9])|{NUM_ZH})"
_NUM_EN: Final = rf"(?:[0-9]{{1,3}}|{alt(S.NUMBERS_EN)})"
_WEEK_ZH: Final = alt(W.WEEKDAY_PREFIXES_ZH)
_WD_ZH: Final = "[一二三四五六日天1-7]"
_WD_EN: Final = rf"(?:{alt(W.WEEKDAYS_EN)})s?\.?"
_NOT_HOUR: Final = r"(?!\s*(?:点|时|[:：]|[0-9]|号|日))"
_LIST_SEP_ZH: Final = r"\s*(?:[、,，/和及与跟]|还有)?\s*"
_LIST_SEP_EN: Final = r"(?:\s*(?:,\s*and|,|/|&|\+|and|or)\s*|\s+)"
_ORD_EN: Final = alt(S.ORDINALS_EN)
_ORD_ZH: Final = alt(S.ORDINALS_ZH)
#: "every second Tuesday" is fortnightly (the old repeat word); "every first Monday" is monthly.
_ORD_NOT_SECOND: Final = alt(w for w in S.ORDINALS_EN if S.ORDINALS_EN[w] != 2)
_EVERY_MONTH_ZH: Final = r"(?:每个月|每月)\s*(?:的)?\s*"
_EVERY_MONTH_EN: Final = r"(?:of\s+)?(?:every|each|the)\s+month"


def _weekdays_zh(text: str) -> tuple[int, ...]:
    found = [W.WEEKDAY_SUFFIXES_ZH[ch] for ch in text if ch in W.WEEKDAY_SUFFIXES_ZH]
    return tuple(sorted(set(found)))


def _weekdays_en(text: str) -> tuple[int, ...]:
    days = {W.WEEKDAYS_EN.get(w) or W.WEEKDAYS_EN.get(w[:-1]) for w in re.findall(r"[a-z]+", text)}
    return tuple(sorted(d for d in days if d))


def _rep(m: re.Match[str], freq: str, **extra: object) -> list[Token]:
    kind = {"DAILY": "DAILY", "WEEKLY": "WEEKLY", "MONTHLY": "MONTHLY", "YEARLY": "YEARLY"}[freq]
    return [RepeatTok(start=m.start(), end=m.end(), kind=kind, freq=freq, **extra)]  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Handlers: repeats
# --------------------------------------------------------------------------


def _week_list_zh(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    days = _weekdays_zh(m["list"])
    return _rep(m, "WEEKLY", weekdays=days) if len(days) > 1 else None


def _week_list_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    bare = m.groupdict().get("bare")
    days = _weekdays_en(bare or m["list"])
    return _rep(m, "WEEKLY", weekdays=days, bare=bool(bare)) if len(days) > 1 else None


def _interval_zh(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    n = number(m["n"]) if m["n"] else 1
    if n is None or not 1 <= n <= 99:
        return None
    if m["gap"] and n == 1:
        n = 2  # 每隔一天, 隔天: every other day
    freq = S.UNIT_FREQ_ZH[m["u"]]
    days = _weekdays_zh(m["list"]) if m.groupdict().get("list") else ()
    if n == 1 and not days and not m["once"]:
        return None  # 每天, 每周: the plain repeat words
    return _rep(m, freq, interval=n, weekdays=days if freq == "WEEKLY" else ())


def _interval_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    n = 2 if m["other"] else number(m["n"])
    if n is None or not 1 <= n <= 99:
        return None
    freq = S.UNIT_FREQ_EN[m["u"].removesuffix("s")]
    days = _weekdays_en(m["list"]) if m["list"] else ()
    return _rep(m, freq, interval=n, weekdays=days if freq == "WEEKLY" else ())


def _every_period(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "every morning": a daily repeat and the period at once."""
    period = W.PERIOD_WORDS.get(m["w"])
    if period is None:
        return None
    hour = S.PERIOD_DEFAULT_HOUR[period.name]
    return [
        RepeatTok(start=m.start(), end=m.start("w"), kind="DAILY", freq="DAILY"),
        PeriodTok(start=m.start("w"), end=m.end(), period=period, default_hour=hour),
    ]


def _short_period(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """早7点, 晚8点: 早 and 晚 as 早上 and 晚上, only right before an hour."""
    period = W.PERIOD_WORDS["早上" if m["w"] == "早" else "晚上"]
    return [PeriodTok(start=m.start(), end=m.end(), period=period, default_hour=S.PERIOD_DEFAULT_HOUR[period.name])]


def _to_the_hour_zh(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """差一刻五点 (4:45), 差十分五点 (4:50): minutes before the hour."""
    hour = number(m["h"])
    before = 15 if m["q"] else number(m["n"])
    if hour is None or before is None or not 0 < before < 60 or not 1 <= hour <= 24:
        return None
    return [ClockTok(start=m.start(), end=m.end(), hour=hour - 1 if hour > 1 else 12, minute=60 - before, padded=False)]


def _month_interval(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    word = re.sub(r"\s+", " ", m[0])
    n = S.MONTH_INTERVALS_ZH.get(word) or S.MONTH_INTERVALS_EN.get(word)
    return _rep(m, "MONTHLY", interval=n) if n else None


def _nth_weekday(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    said = m["o"] or m.groupdict().get("o2") or ""
    ordinal = S.ORDINALS_ZH.get(re.sub(r"\s+", "", said)) or S.ORDINALS_EN.get(said)
    days = _weekdays_zh(m["d"]) if not m["d"].isascii() or m["d"].isdigit() else _weekdays_en(m["d"])
    if not ordinal or len(days) != 1:
        return None
    return _rep(m, "MONTHLY", weekdays=days, ordinal=ordinal)


def _workday(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """每月最后一个工作日, "first business day of every month": BYDAY=MO..FR;BYSETPOS=n."""
    position = S.ORDINALS_ZH.get(re.sub(r"\s+", "", m["o"])) or S.ORDINALS_EN.get(m["o"])
    if not position:
        return None
    return _rep(m, "MONTHLY", weekdays=(1, 2, 3, 4, 5), set_position=position)


def _month_days(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    groups = m.groupdict()
    if groups.get("lastday"):
        return _rep(m, "MONTHLY", month_days=(-1,))
    if groups.get("firstday"):
        return _rep(m, "MONTHLY", month_days=(1,))
    items = re.findall(rf"{NUM_ZH}|[0-9]{{1,2}}", groups["list"])
    values = [number(item) for item in items]
    if not values or any(v is None or not 1 <= v <= 31 for v in values):
        return None
    days = tuple(sorted({v for v in values if v is not None}))
    return _rep(m, "MONTHLY", month_days=days, month_day=days[0])


def _yearly_date(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """ "every Dec 25", "every 3rd of March": a yearly repeat and its day."""
    mo = W.MONTHS_EN.get(re.sub(r"\s+", " ", m["mon"]))
    d = number(m["d"])
    found = next_month_day(mo, d, ctx.today) if mo and d else None
    if found is None:
        return None
    return [
        RepeatTok(start=m.start(), end=m.start("date"), kind="YEARLY", freq="YEARLY"),
        DayTok(start=m.start("date"), end=m.end(), days=(found,), rank=RANK_EXACT),
    ]


# --------------------------------------------------------------------------
# Handlers: ends, last days, durations, zones
# --------------------------------------------------------------------------


def _count(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    n = number(m["n"])
    if n is None or not 1 <= n <= 999:
        return None
    return [EndTok(start=m.start(), end=m.end(), count=n)]


def _span(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    n = number(m["n"])
    unit = S.SPAN_UNITS_ZH.get(m["u"]) or S.SPAN_UNITS_EN.get(m["u"])
    if n is None or unit is None or not 1 <= n <= 400:
        return None
    return [EndTok(start=m.start(), end=m.end(), span_days=unit[0] * n, span_months=unit[1] * n)]


def _month_end(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    """3月底, 明年3月底, 月底, 年底, "the end of March": the month's (or year's) last day."""
    groups = m.groupdict()
    today = ctx.today
    year_word = groups.get("y") or ""
    if groups.get("yearend"):
        year = today.year + (1 if year_word == "明年" or groups.get("nexty") else 0)
        return _last_day_tok(m, date(year, 12, 31))
    if groups.get("m") or groups.get("mon"):
        month = number(groups["m"]) if groups.get("m") else W.MONTHS_EN.get(re.sub(r"\s+", " ", groups["mon"]))
        if month is None or not 1 <= month <= 12:
            return None
        if year_word in ("明年", "next year"):
            year = today.year + 1
        elif year_word in ("今年", "this year"):
            year = today.year
        else:
            year = today.year if (month, 28) >= (today.month, 1) else today.year + 1
            if month < today.month:
                year = today.year + 1
    else:  # 月底, 下个月底, "the end of the month"
        year, month = add_months(today.year, today.month, 1 if groups.get("nextm") else 0)
    day = groups.get("d")
    if day:
        d = number(day)
        if d is None:
            return None
        try:
            return _last_day_tok(m, date(year, month, d))
        except ValueError:
            return None
    return _last_day_tok(m, date(year, month, calendar.monthrange(year, month)[1]))


def _last_day_tok(m: re.Match[str], day: date) -> list[Token]:
    groups = m.groupdict()
    if groups.get("sep"):
        return [
            SepTok(start=m.start("sep"), end=m.end("sep")),
            DayTok(start=m.end("sep"), end=m.end(), days=(day,), rank=RANK_EXACT),
        ]
    return [DayTok(start=m.start(), end=m.end(), days=(day,), rank=RANK_EXACT)]


def _duration(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    groups = m.groupdict()
    if groups.get("hh"):
        minutes = 30
    elif groups.get("q"):
        minutes = 15
    elif groups.get("hourhalf"):
        minutes = 90
    else:
        raw = groups.get("n") or ""
        per = S.DURATION_UNITS_ZH.get(groups["u"]) or S.DURATION_UNITS_EN.get(groups["u"])
        value: float | None
        try:
            value = float(raw)
        except ValueError:
            value = number(raw)
        if value is None or per is None:
            return None
        minutes = int(round(value * per + (30 if groups.get("half") else 0)))
    if not 5 <= minutes <= S.MAX_DURATION_MINUTES:
        return None
    return [DurationTok(start=m.start(), end=m.end(), minutes=minutes)]


def _zone(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    groups = m.groupdict()
    if groups.get("z"):
        word = groups["z"]
        zone = S.ZONE_ABBREVIATIONS.get(word)
        label = m.string[m.start("z") : m.end("z")].upper()
        bare = True
    else:
        word = re.sub(r"\s+", " ", groups["c"])
        zone = S.ZONE_CITIES_EN.get(word) or S.ZONE_CITIES_ZH.get(word)
        label = m.string[m.start("c") : m.end("c")]
        label = label if not label.isascii() else label.title() if len(label) > 3 else label.upper()
        bare = False
    if zone is None:
        return None
    return [ZoneTok(start=m.start(), end=m.end(), zone=zone, label=label, bare=bare)]


# --------------------------------------------------------------------------
# The rules (merged into sentence_scan.RULES, before its own repeat words)
# --------------------------------------------------------------------------


def _rule(pattern: str, handler: _Handler) -> tuple[re.Pattern[str], _Handler]:
    return pattern_cache.compile(pattern), handler


_WD_LIST_ZH: Final = rf"{_WD_ZH}(?:{_LIST_SEP_ZH}(?:{_WEEK_ZH})?\s*{_WD_ZH}{_NOT_HOUR})*"
_WD_LIST_EN: Final = rf"{_WD_EN}(?:{_LIST_SEP_EN}{_WD_EN})*"
_PLURALS_EN: Final = rf"(?:{alt(w for w in W.WEEKDAYS_EN if len(w) > 3)})s(?:{_LIST_SEP_EN}(?:{alt(W.WEEKDAYS_EN)})s)+"
_MD_NUM: Final = rf"(?:{NUM_ZH}|[0-9]{{1,2}})"
_MD_ITEM: Final = rf"{_MD_NUM}\s*{DAY_MARK}?"
_YEAR_ZH: Final = r"(?P<y>明年|今年|后年)?\s*"

RULES: Final[tuple[tuple[re.Pattern[str], _Handler], ...]] = (
    # repeats
    _rule(
        rf"(?:每逢|每个|每)\s*(?:{_WEEK_ZH})\s*(?P<list>{_WD_ZH}(?:{_LIST_SEP_ZH}(?:{_WEEK_ZH})?\s*{_WD_ZH}{_NOT_HOUR})+)",
        _week_list_zh,
    ),
    _rule(rf"{L}(?:every|each)\s+(?P<list>{_WD_EN}(?:{_LIST_SEP_EN}{_WD_EN})+){R}", _week_list_en),
    _rule(rf"{L}(?:on\s+)?(?P<list>{_PLURALS_EN}){R}", _week_list_en),
    _rule(rf"{L}(?P<bare>{_WD_EN}(?:{_LIST_SEP_EN}{_WD_EN})+){R}", _week_list_en),
    _rule(
        rf"(?:(?P<gap>每隔|隔)|每)\s*(?P<n>{_NUM}|两)?\s*个?\s*(?P<u>{alt(S.UNIT_FREQ_ZH)})"
        rf"(?:\s*的?\s*(?:{_WEEK_ZH})\s*(?P<list>{_WD_LIST_ZH}))?(?P<once>\s*一次)?",
        _interval_zh,
    ),
    _rule(
        rf"{L}(?:every|each)\s+(?:(?P<other>other|second|2nd)|(?P<n>{_NUM_EN}))\s+(?P<u>days?|weeks?|months?|years?)"
        rf"(?:\s+on\s+(?P<list>{_WD_LIST_EN}))?{R}",
        _interval_en,
    ),
    _rule(rf"{alt(S.MONTH_INTERVALS_ZH)}|{L}(?:{alt(S.MONTH_INTERVALS_EN)}){R}", _month_interval),
    _rule(rf"{L}(?:every|each)\s+(?P<w>{alt(S.EVERY_PERIOD_EN)}){R}", _every_period),
    _rule(r"(?P<w>早|晚)(?=\s*(?:[0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*点)", _short_period),
    _rule(rf"(?P<w>差)\s*(?:(?P<q>一刻)|(?P<n>{_NUM})\s*分钟?)\s*(?P<h>{_NUM})\s*点(?:钟)?", _to_the_hour_zh),
    _rule(rf"{_EVERY_MONTH_ZH}(?P<o>{_ORD_ZH})\s*个?\s*(?:{_WEEK_ZH})\s*(?P<d>{_WD_ZH})", _nth_weekday),
    _rule(
        rf"{L}(?:on\s+)?(?:the\s+)?(?P<o>{_ORD_EN})\s+(?P<d>{_WD_EN})\s+(?:{_EVERY_MONTH_EN}|monthly|(?:every|each)\s+month){R}",
        _nth_weekday,
    ),
    _rule(
        rf"{L}(?:(?:every|each)\s+month\s+on\s+the\s+(?P<o>{_ORD_EN})|(?:every|each)\s+(?P<o2>{_ORD_NOT_SECOND}))\s+(?P<d>{_WD_EN}){R}"
        rf"(?:\s+of\s+the\s+month{R})?",
        _nth_weekday,
    ),
    _rule(rf"{L}monthly\s+on\s+the\s+(?P<o>{_ORD_EN})\s+(?P<d>{_WD_EN}){R}", _nth_weekday),
    _rule(rf"{_EVERY_MONTH_ZH}(?:(?P<lastday>最后一天|月底|月末)|(?P<firstday>第一天|月初))", _month_days),
    _rule(rf"{_EVERY_MONTH_ZH}(?P<o>{_ORD_ZH})\s*个?\s*工作日", _workday),
    _rule(
        rf"{L}(?:on\s+)?(?:the\s+)?(?P<o>{_ORD_EN})\s+(?:weekday|business\s+day|working\s+day|workday)\s+{_EVERY_MONTH_EN}{R}",
        _workday,
    ),
    _rule(rf"{_EVERY_MONTH_ZH}(?P<list>(?:{_MD_ITEM}\s*(?:[、,，/和及与]|还有)\s*)+{_MD_NUM}\s*{DAY_MARK})", _month_days),
    _rule(
        rf"{L}(?:on\s+)?(?:the\s+)?(?:(?P<lastday>last\s+day)|(?P<list>[0-9]{{1,2}}{ORD}?(?:\s*(?:,|and|&)\s*(?:the\s+)?[0-9]{{1,2}}{ORD}?)*))"
        rf"\s+{_EVERY_MONTH_EN}{R}",
        _month_days,
    ),
    _rule(
        rf"{L}(?:every|each)\s+month\s+on\s+the\s+(?:(?P<lastday>last\s+day)|(?P<list>[0-9]{{1,2}}{ORD}?"
        rf"(?:\s*(?:,|and|&)\s*(?:the\s+)?[0-9]{{1,2}}{ORD}?)+)){R}",
        _month_days,
    ),
    _rule(
        rf"{L}(?:every|each)\s+(?:year\s+on\s+)?(?P<date>(?P<mon>{MONTHS})\.?\s*(?P<d>[0-9]{{1,2}}){ORD}?){R}(?!\s*(?::|{MERIDIEM}))",
        _yearly_date,
    ),
    # ends
    _rule(
        rf"(?:{alt(S.COUNT_LEADS_ZH)})\s*(?P<n>{_NUM})\s*次|(?<!第)(?<![0-9])(?P<n2>[0-9]{{1,3}})\s*次(?![方元])",
        lambda m, c: _count_any(m, c),
    ),
    _rule(rf"{L}(?:for\s+)?(?P<n>{_NUM_EN})\s+(?:{alt(S.COUNT_NOUNS_EN)}){R}(?:\s+in\s+total{R})?", _count),
    _rule(rf"(?:{alt(S.SPAN_LEADS_ZH)})\s*(?P<n>{_NUM}|两)\s*(?P<u>{alt(S.SPAN_UNITS_ZH)})", _span),
    _rule(rf"{L}for\s+(?:the\s+next\s+)?(?P<n>{_NUM_EN})\s+(?P<u>{alt(S.SPAN_UNITS_EN)}){R}", _span),
    # last days (a repeat's end, or a day of their own)
    _rule(rf"(?P<y>明年|今年|后年)\s*(?P<m>{_NUM})\s*月\s*(?:(?P<e>底|末)|(?P<d>{_NUM})\s*{DAY_MARK}?)", _month_end),
    _rule(rf"(?P<m>{_NUM})\s*月\s*(?P<e>底|末)", _month_end),
    _rule(r"(?:(?P<nextm>下个?)|本|这个)?月(?:底|末)", _month_end),
    _rule(r"(?P<y>明年|今年)?\s*(?P<yearend>年底|年末)", _month_end),
    _rule(
        rf"{L}(?:the\s+)?end\s+of\s+(?:(?P<mon>{MONTHS})|(?P<nextm>next\s+)?month|the\s+month|(?P<yearend>(?:the|this)\s+year)"
        rf"|(?P<nexty>next\s+year)(?P<yearend2>)){R}",
        lambda m, c: _end_of_en(m, c),
    ),
    _rule(rf"{L}(?P<sep>through|thru)\s+(?P<mon>{MONTHS}){R}(?!\s*[0-9])", _month_end),
    # durations
    _rule(
        rf"(?:{alt(S.DURATION_LEADS_ZH)})?\s*(?:(?P<n>[0-9]+(?:\.[0-9]+)?|{NUM_ZH}|两)\s*个?\s*(?P<half>半)?\s*个?\s*(?P<u>{alt(S.DURATION_UNITS_ZH)})"
        r"|(?P<hh>半\s*个?\s*(?:小时|钟头))|(?P<q>一刻钟))",
        _duration,
    ),
    _rule(
        rf"{L}(?:for|lasting|about|around|approximately|approx\.?)\s+(?:(?P<hourhalf>an?\s+hour\s+and\s+a\s+half|one\s+and\s+a\s+half\s+hours?)|(?P<hh>half\s+an\s+hour)"
        rf"|(?P<n>[0-9]+(?:\.[0-9]+)?|{alt(S.NUMBERS_EN)})\s*(?P<half>and\s+a\s+half\s+)?(?P<u>{alt(S.DURATION_UNITS_EN)})){R}",
        _duration,
    ),
    _rule(rf"{L}(?P<n>[0-9]{{1,3}})-(?P<u>minute|min|hour){R}", _duration),
    _rule(
        rf"(?P<open>\(\s*)?(?<![0-9.:/])(?P<n>[0-9]{{1,3}}(?:\.[0-9])?)\s*(?P<u>{alt(S.DURATION_UNITS_EN)}){R}(?(open)\s*\))",
        _duration,
    ),
    # zones
    _rule(rf"{L}(?P<z>{alt(S.ZONE_ABBREVIATIONS)})(?:\s+time)?{R}", _zone),
    _rule(rf"{L}(?:in\s+)?(?P<c>{alt(S.ZONE_CITIES_EN)})\s+time{R}", _zone),
    _rule(rf"(?P<c>{alt(S.ZONE_CITIES_ZH)})\s*时间", _zone),
)


def _count_any(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    n = number(m["n"] or m["n2"])
    if n is None or not 1 <= n <= 999:
        return None
    return [EndTok(start=m.start(), end=m.end(), count=n, bare=m["n"] is None)]


def _end_of_en(m: re.Match[str], ctx: TimeContext) -> list[Token] | None:
    groups = m.groupdict()
    if groups.get("nexty"):
        return _last_day_tok(m, date(ctx.today.year + 1, 12, 31))
    return _month_end(m, ctx)


# --------------------------------------------------------------------------
# The rule a sentence says
# --------------------------------------------------------------------------


def recurrence(rep: RepeatTok, lunar: bool) -> Recurrence:
    """The ``Recurrence`` a repeat word says; what it leaves open (the weekday of "every week",
    the day of "monthly") is the first day's, as RFC 5545 reads a bare rule."""
    if lunar and rep.kind == "YEARLY":
        return Recurrence("LUNAR_YEARLY")
    freq = rep.freq or {"WEEKDAYS": "WEEKLY", "BIWEEKLY": "WEEKLY"}.get(rep.kind, rep.kind)
    interval = 2 if rep.kind == "BIWEEKLY" and rep.interval == 1 else rep.interval
    days = rep.weekdays or ((1, 2, 3, 4, 5) if rep.kind == "WEEKDAYS" else ())
    if not days and rep.weekday is not None and freq == "WEEKLY":
        days = (rep.weekday,)
    month_days = rep.month_days or ((rep.month_day,) if rep.month_day is not None else ())
    weekdays = tuple(Weekday(_DAYS[d - 1], rep.ordinal) for d in days)
    positions = (rep.set_position,) if rep.set_position else ()
    return Recurrence(freq, interval=interval, weekdays=weekdays, month_days=month_days, set_positions=positions)


def matches(rule: Recurrence, day: date, anchor: date | None) -> bool:
    """Whether ``day`` is one of the rule's days (its interval counts from the first one, so
    the first match is the series' first day). ``anchor`` is the day the sentence named."""
    iso = day.isoweekday()
    if rule.freq == "DAILY":
        return True
    if rule.freq == "WEEKLY":
        if rule.weekdays:
            return any(_DAYS.index(w.day) + 1 == iso for w in rule.weekdays)
        return anchor is None or anchor.isoweekday() == iso
    if rule.freq == "MONTHLY":
        if rule.month_days:
            return any(md == day.day or (md == -1 and is_last_day(day)) for md in rule.month_days)
        if rule.weekdays and rule.set_positions:
            return _set_position(rule, day)
        if rule.weekdays:
            for w in rule.weekdays:
                if _DAYS.index(w.day) + 1 != iso:
                    continue
                from_end = (calendar.monthrange(day.year, day.month)[1] - day.day) // 7 + 1
                if w.ordinal == 0 or w.ordinal == nth_weekday(day) or (w.ordinal < 0 and -w.ordinal == from_end):
                    return True
            return False
        return anchor is None or anchor.day == day.day
    if rule.freq == "YEARLY":
        return anchor is None or (anchor.month, anchor.day) == (day.month, day.day)
    return True


def _set_position(rule: Recurrence, day: date) -> bool:
    wanted = {_DAYS.index(w.day) + 1 for w in rule.weekdays}
    last = calendar.monthrange(day.year, day.month)[1]
    days = [d for d in range(1, last + 1) if date(day.year, day.month, d).isoweekday() in wanted]
    for pos in rule.set_positions:
        index = pos - 1 if pos > 0 else len(days) + pos
        if 0 <= index < len(days) and days[index] == day.day:
            return True
    return False


def first_day(
    rule: Recurrence, start: date, at: time | None, ctx: TimeContext, anchor: date | None, tz: ZoneInfo | None = None
) -> date:
    """The series' first day: the first of the rule's days on or after ``start``, past today
    when today's time has already gone (said at 10:00, 每周四上午九点 starts next Thursday)."""
    today = ctx.today
    day = start
    for _ in range(800):
        passed = at is not None and day == today and local_datetime(day, at, tz or ctx.tz) < ctx.now
        if matches(rule, day, anchor) and not passed and day >= min(start, today):
            return day
        day += timedelta(days=1)
    return start


def span_end(first: date, end: EndTok) -> date:
    """The last day of "for 10 weeks"/为期三个月 from ``first``."""
    if end.span_months:
        year, month = add_months(first.year, first.month, end.span_months)
        last = calendar.monthrange(year, month)[1]
        return date(year, month, min(first.day, last)) - timedelta(days=1)
    return first + timedelta(days=end.span_days - 1)
