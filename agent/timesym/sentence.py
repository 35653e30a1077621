"""Read a quick-add sentence into one event, without a model.

The user declares the intent by typing into the quick-add field ("明天下午三点和张三开会",
"Lunch with Tom tomorrow at noon"), so code may read the slots alone (principle 1): the day,
the time or time range, a date range, a repeat and its first instance, a reminder, a place,
and the title (what is left). Nothing is guessed silently: every word read comes back as a
span with its role, so the field can underline it before Enter, and a sentence with no day or
time, or with no title left, is reported as such (``problem``) instead of becoming an event.

The conventions (docs/quick-add.md): a time with no day is its next occurrence (today if still
ahead, else tomorrow); a day with no time is all-day; a period with no hour starts at its
default hour (下午 14:00); no end means the default length; 周五/25号 that already passed at the
given time move on by a week/month; when two day words disagree ("Sunday brunch tomorrow")
the firmer one is the day and the other stays in the title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import Any, Final
from zoneinfo import ZoneInfo

from agent.messages.catalogue import render
from agent.timesym import pattern_cache
from agent.timesym import sentence_words as S
from agent.timesym import words as W
from agent.timesym.context import TimeContext, local_datetime
from agent.timesym.patterns import next_day_of_month
from agent.timesym.recurrence import Recurrence
from agent.timesym.sentence_repeat import first_day, recurrence, span_end
from agent.timesym.sentence_scan import fold, scan
from agent.timesym.sentence_tags import hashtags
from agent.timesym.sentence_tokens import (
    RANK_FESTIVAL,
    ClockTok,
    DayTok,
    DurationTok,
    EndTok,
    PeriodTok,
    ReminderTok,
    RepeatTok,
    SepTok,
    Tok,
    Token,
    ZoneTok,
)
from agent.timesym.sentence_unread import unread_words

MAX_QUICK_CHARS: Final = 300
FREQ: Final = {
    "DAILY": "DAILY",
    "WEEKDAYS": "WEEKLY",
    "WEEKLY": "WEEKLY",
    "BIWEEKLY": "WEEKLY",
    "MONTHLY": "MONTHLY",
    "YEARLY": "YEARLY",
    "LUNAR_YEARLY": "YEARLY",
}
PROBLEMS: Final = {
    "empty": ("请输入一句话，例如“明天下午三点和张三开会”", "type a sentence such as 'Lunch with Tom tomorrow at noon'"),
    "too_long": (
        f"太长了：快速添加最多 {MAX_QUICK_CHARS} 个字符",
        f"too long: quick add takes at most {MAX_QUICK_CHARS} characters",
    ),
    "no_when": ("没有读到日期或时间，例如“明天”“下午三点”", "no day or time found; add one such as 'tomorrow' or '3pm'"),
    "no_title": (
        "只有时间，没有事件名称，例如“和张三开会”",
        "only a time, no title; add what the event is, such as 'Lunch with Tom'",
    ),
}


@dataclass(frozen=True)
class Span:
    """Words the parser read, by role: day, time, repeat, reminder or location."""

    role: str
    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, str]:
        return {"role": self.role, "text": self.text}


@dataclass(frozen=True)
class QuickEvent:
    """What a quick-add sentence says. ``problem`` is set (and the rest may be empty) when
    the sentence cannot become an event; ``repeat`` is the command layer's repeat word."""

    text: str
    title: str
    start: date | datetime | None
    end: date | datetime | None
    repeat: str | None
    reminder_minutes: int | None
    location: str | None
    spans: tuple[Span, ...]
    problem: str | None = None
    rule: Recurrence | None = None  # the repeat in full (``repeat`` is its old one-word name)
    zone: str | None = None  # the IANA zone the sentence named ("4pm CET"); None: the user's
    zone_label: str | None = None  # how the sentence named it (CET, 纽约)
    unread: tuple[str, ...] = ()  # day or time words the parser could not place (problem "unread")
    categories: tuple[str, ...] = ()  # the sentence's tags, "#health" (agent/timesym/sentence_tags.py)

    @property
    def all_day(self) -> bool:
        return self.start is not None and not isinstance(self.start, datetime)

    @property
    def freq(self) -> str | None:
        return FREQ.get(self.repeat) if self.repeat else None

    def message(self, lang: str = "en") -> str:
        """The one line that says why this sentence is not an event ('' when it is one)."""
        if self.problem is None:
            return ""
        if self.problem == "unread":
            return render("timesym.quick_unread", lang, words=("、" if lang.startswith("zh") else ", ").join(self.unread))
        zh, en = PROBLEMS[self.problem]
        return zh if lang.startswith("zh") else en

    def to_json(self) -> dict[str, Any]:
        def iso(value: date | datetime | None) -> str | None:
            return value.isoformat() if value is not None else None

        return {
            "title": self.title,
            "start": iso(self.start),
            "end": iso(self.end),
            "all_day": self.all_day,
            "repeat": self.freq,
            "spans": [span.to_json() for span in self.spans],
        }


def _failed(text: str, problem: str, spans: tuple[Span, ...] = ()) -> QuickEvent:
    return QuickEvent(text, "", None, None, None, None, None, spans, problem)


# --------------------------------------------------------------------------
# Small text helpers
# --------------------------------------------------------------------------

_GLUE_GAP: Final = pattern_cache.compile(r"^[\s的,，、]*$")
_AT_GLUE: Final = pattern_cache.compile(r"^[\s的,，、]*(?:(?:at|@)\s*)?$")
_LEAD_EN: Final = pattern_cache.compile(r"(?:(?<=\s)|^)(?:" + "|".join(re.escape(w) for w in S.LEADS_EN) + r")\s*$")
_LEAD_ZH: Final = pattern_cache.compile(r"(?:" + "|".join(S.LEADS_ZH) + r")\s*$")


def _empty_gap(s: str, start: int, end: int, inside: list[Tok], glue: re.Pattern[str] | None = None) -> bool:
    """True when ``s[start:end]`` holds nothing but glue once the ``inside`` tokens are out."""
    if end < start:
        return False
    chars = list(s[start:end])
    for tok in inside:
        for i in range(max(tok.start, start), min(tok.end, end)):
            chars[i - start] = " "
    return bool((glue or _GLUE_GAP).match("".join(chars)))


def _is_cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"


# --------------------------------------------------------------------------
# Days
# --------------------------------------------------------------------------


@dataclass
class _Day:
    first: date
    last: date
    used: list[Tok]
    rolls: DayTok | None = None
    lunar: bool = False


def _range_end(first: DayTok, second: DayTok) -> date | None:
    day0 = first.days[0]
    if second.month_day is not None and second.rank < first.rank:  # 12月24日到26日
        return next_day_of_month(second.month_day, day0)
    if second.weekday is not None and second.rolls:  # next Monday to Wednesday
        return day0 + timedelta(days=(second.weekday - day0.isoweekday()) % 7)
    return second.days[-1]


def _pick_day(s: str, days: list[DayTok], seps: list[SepTok], times: list[Tok]) -> _Day | None:
    """The day (or days) of the event; the day words it does not use stay in the title."""
    if not days:
        return None
    for a, b in zip(days, days[1:], strict=False):
        between = [t for t in seps if a.end <= t.start and t.end <= b.start]
        if between and _empty_gap(s, a.end, b.start, list(between)):
            last = _range_end(a, b)
            if last is not None and a.days[0] <= last <= a.days[0] + timedelta(days=366):
                return _Day(a.days[0], last, [a, b, *between])

    def led(tok: DayTok) -> bool:
        return bool(_LEAD_EN.search(s[: tok.start]))

    def timed(tok: DayTok) -> bool:
        """The day word right beside the time is the event's day ("Sunday school ... Thursday 7pm")."""
        return any(
            _empty_gap(s, tok.end, t.start, [], glue=_AT_GLUE) or _empty_gap(s, t.end, tok.start, [], glue=_AT_GLUE)
            for t in times
        )

    order = sorted(range(len(days)), key=lambda i: (not timed(days[i]), -days[i].rank, not led(days[i]), i))
    primary = days[order[0]]
    day = primary.days[0]
    used: list[Tok] = [primary]
    for tok in sorted(days, key=lambda t: abs(t.start - primary.start)):
        if tok is primary:
            continue
        # a second word for the same day counts only beside the first ("12月4日周五"); apart
        # from it, it is part of the title ("Sunday brunch ... this Sunday")
        beside = any(_empty_gap(s, min(t.end, tok.end), max(t.start, tok.start), []) for t in used)
        agrees = beside and (
            tok.days == primary.days
            or tok.days[0] == day
            or (tok.weekday is not None and day.isoweekday() == tok.weekday)
            or (tok.weekend and day in tok.days)
        )
        named = tok.rank == RANK_FESTIVAL and tok.end < len(s) and _is_cjk(s[tok.end])  # 中秋聚餐 names the event
        if agrees and not named:
            used.append(tok)
    last = primary.days[-1] if primary.weekend else day
    rolls = primary if primary.rolls else None
    return _Day(day, last, used, rolls, primary.lunar)


# --------------------------------------------------------------------------
# Times
# --------------------------------------------------------------------------


@dataclass
class _Time:
    start: time
    start_next_day: bool
    end: time | None
    end_next_day: bool
    used: list[Tok]


def _hour(clock: ClockTok, period: W.Period | None) -> tuple[int, bool] | None:
    """(24h hour, is the midnight that ends the day) under the clock's am/pm or its period."""
    if clock.hour == 24:
        return 0, True
    rules = [r for r in (clock.meridiem, period) if r is not None]
    for rule in rules:
        if rule.is_midnight(clock.hour):
            return 0, True
        hour = rule.to_24h(clock.hour)
        if hour is not None:
            return hour, False
    if rules and clock.hour > 12:
        return (clock.hour, False) if clock.hour <= 23 else None
    if clock.padded or clock.hour == 0 or clock.hour > 12:
        return (clock.hour, False) if clock.hour <= 23 else None
    hour = W.BARE.to_24h(clock.hour)
    return (hour, False) if hour is not None else None


def _period_for(
    s: str, clock: ClockTok, periods: list[PeriodTok], days: list[DayTok], anchors: list[Tok] | None = None
) -> PeriodTok | None:
    for period in reversed(periods):
        if period.end <= clock.start and _empty_gap(s, period.end, clock.start, list(days), glue=_AT_GLUE):
            apart = not _empty_gap(s, period.end, clock.start, [], glue=_AT_GLUE)
            if anchors is not None and apart and not _attached(s, period, anchors):
                continue  # "Movie night Saturday 8pm": a period apart from the time names the event
            return period  # 明天下午三点, "tonight at 8"
    for period in periods:
        if clock.end <= period.start and _empty_gap(s, clock.end, period.start, list(days)):
            return period  # "9 in the morning", "8 tonight", "9 tomorrow evening"
    return None


def _attached(s: str, period: PeriodTok, anchors: list[Tok]) -> bool:
    """Whether a period with no hour is the event's time: always in Chinese (下午开会), in
    English only right after a day or repeat, or as "in the/at/this ..." ("Morning standup",
    "Movie night tomorrow" name the event)."""
    word = s[period.start : period.end]
    if not word.isascii() or word.startswith(("in ", "at ", "this ", "tonight")):
        return True
    return any(_empty_gap(s, d.end, period.start, []) or d.start == period.start for d in anchors)


def _pick_time(
    s: str,
    clocks: list[ClockTok],
    periods: list[PeriodTok],
    seps: list[SepTok],
    days: list[DayTok],
    anchors: list[Tok],
    meal: W.Period | None = None,
) -> _Time | None:
    """The time or range; ``meal`` (dinner: PM, breakfast: AM) places a bare hour with no
    period and no am/pm ("Dinner at 7" is 19:00)."""
    if not clocks:
        for period in periods:
            if _attached(s, period, anchors):
                return _Time(time(period.default_hour), False, None, False, [period])
        return None

    # of several clock times, the one with a period or a day beside it ("十点读书直播 周日晚上8点")
    def placed(clock: ClockTok) -> bool:
        beside = [*periods, *days]
        return clock.meridiem is not None or any(
            _empty_gap(s, t.end, clock.start, [], glue=_AT_GLUE) or _empty_gap(s, clock.end, t.start, []) for t in beside
        )

    def joined(a: ClockTok, b: ClockTok) -> bool:
        return any(a.end <= t.start and t.end <= b.start for t in seps)

    if len(clocks) > 1 and not joined(clocks[0], clocks[1]) and not placed(clocks[0]) and any(placed(c) for c in clocks[1:]):
        clocks = [c for c in clocks if placed(c)] + [c for c in clocks if not placed(c)]
    first = clocks[0]
    p1 = _period_for(s, first, periods, days, anchors)
    second: ClockTok | None = None
    used: list[Tok] = [first] + ([p1] if p1 else [])
    if len(clocks) > 1:
        cand = clocks[1]
        between = [t for t in seps if first.end <= t.start and t.end <= cand.start]
        inside: list[Tok] = [*between, *[p for p in periods if first.end <= p.start and p.end <= cand.start]]
        if between and _empty_gap(s, first.end, cand.start, inside):
            second = cand
            used.extend([*inside, cand])
    start_p = p1.period if p1 else (meal if meal is not None and not first.padded and first.hour <= 12 else None)
    if second is not None and first.meridiem is None and start_p is None and second.meridiem is not None:
        # "2-4pm": the start takes the end's am/pm unless that puts it after the end ("11-1pm")
        end_h = _hour(second, None)
        under = second.meridiem.to_24h(first.hour)
        if end_h is not None and under is not None and under < (end_h[0] or 24):
            start_p = second.meridiem
        elif first.hour < 12:
            start_p = W.AM
    h1 = _hour(first, start_p)
    if h1 is None:
        return None
    start = time(h1[0], first.minute)
    if second is None:
        return _Time(start, h1[1], None, False, used)
    p2 = _period_for(s, second, [p for p in periods if p.start > first.end], days)
    h2 = _hour(second, p2.period if p2 else start_p)
    if h2 is None:
        return _Time(start, h1[1], None, False, used)
    end = time(h2[0], second.minute)
    end_next = h2[1] or h1[1] or (end <= start)
    return _Time(start, h1[1], end, end_next, used)


# --------------------------------------------------------------------------
# Repeats
# --------------------------------------------------------------------------


# --------------------------------------------------------------------------
# Places and the title
# --------------------------------------------------------------------------


def _segments(n: int, removed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    marks = [False] * n
    for a, b in removed:
        for i in range(max(a, 0), min(b, n)):
            marks[i] = True
    out: list[tuple[int, int]] = []
    i = 0
    while i < n:
        if marks[i]:
            i += 1
            continue
        j = i
        while j < n and not marks[j]:
            j += 1
        out.append((i, j))
        i = j
    return out


_ZH_STOPS: Final = pattern_cache.compile("|".join(re.escape(w) for w in sorted(S.PLACE_STOPS_ZH, key=len, reverse=True)))
_ZH_SUFFIXES: Final = pattern_cache.compile("|".join(re.escape(w) for w in sorted(S.PLACE_SUFFIXES_ZH, key=len, reverse=True)))
_EN_PLACE: Final = pattern_cache.compile(r"(?:(?<=\s)|^)(?:at|@)\s+(?P<p>[^\s\d,.;!?][^,.;!?]*)", re.IGNORECASE)
_EN_STOP_WORDS: Final = frozenset(S.PLACE_STOPS_EN)
#: Compiled once (its wide character class costs ~2 ms to compile, in every process).
_CJK_GAP: Final = pattern_cache.compile(r"(?<=[\u2e80-\u9fff]) (?=[\u2e80-\u9fff])")


def _place(
    s: str, text: str, segments: list[tuple[int, int]], split: bool = False
) -> tuple[str, tuple[int, int], tuple[int, int]] | None:
    """(place, span of the place, span removed with its marker) in what the tokens left.
    ``split``: the place took the whole title (在协和医院复诊), so a Chinese place with no stop
    ends after its last place word (医院, 大厦 …) when words follow it."""
    for a, b in segments:
        seg = s[a:b]
        for m in re.finditer("在", seg):
            i = m.start()
            before = seg[i - 1] if i else (s[a - 1] if a else "")
            after = seg[i + 1 :]
            if before and before in S.NOT_PLACE_BEFORE_ZAI or after.startswith(S.NOT_PLACE_AFTER_ZAI):
                continue
            end = len(after)
            for stop in _ZH_STOPS.finditer(after):
                if stop.start() == 0:
                    continue  # 在同仁堂: a place cannot be empty
                if stop.group() in S.COMPANION_STOPS_ZH and after[stop.end() :].startswith(S.PLACE_SUFFIXES_ZH):
                    continue  # 协和医院: the companion word is inside the name
                end = stop.start()
                break
            if split and end == len(after):
                ends = [m.end() for m in _ZH_SUFFIXES.finditer(after) if m.end() < end - 1 and _is_cjk(after[m.end()])]
                end = max(ends, default=end)
            place = after[:end].strip()
            if not place or end > S.MAX_PLACE_CHARS_ZH:
                continue
            p0 = a + i + 1 + (len(after[:end]) - len(after[:end].lstrip()))
            return text[p0 : p0 + len(place)], (p0, p0 + len(place)), (a + i, p0 + len(place))
        for m in _EN_PLACE.finditer(seg):
            words: list[tuple[int, int]] = []
            for w in re.finditer(r"\S+", m["p"]):
                if w[0].lower() in _EN_STOP_WORDS or len(words) >= S.MAX_PLACE_WORDS_EN:
                    break
                words.append((w.start(), w.end()))
            if not words:
                continue
            p0 = a + m.start("p") + words[0][0]
            p1 = a + m.start("p") + words[-1][1]
            return text[p0:p1], (p0, p1), (a + m.start(), p1)
    return None


def _join(text: str, segments: list[tuple[int, int]]) -> str:
    out = ""
    for a, b in segments:
        piece = text[a:b]
        if not piece.strip():
            out += " "
            continue
        out += piece if not out else ("" if out.endswith(" ") else " ") + piece
    out = re.sub(r"\s+", " ", out).strip()
    # a space the removal put between two Chinese characters is not the user's
    return _CJK_GAP.sub("", out)


_EN_EDGE: Final = "|".join(re.escape(w) for w in sorted(S.TITLE_EDGE_EN, key=len, reverse=True))
_EN_HEAD: Final = pattern_cache.compile(rf"^(?:{_EN_EDGE})(?:\s+|$)", re.IGNORECASE)
_EN_TAIL: Final = pattern_cache.compile(rf"(?:^|\s)(?:{_EN_EDGE})$", re.IGNORECASE)
_PUNCT_EDGE: Final = " \t,，。.;；:：、!！?？~-–—·"


def _trim(title: str) -> str:
    previous = None
    while previous != title:
        previous = title
        title = title.strip(_PUNCT_EDGE)
        for glue in S.TITLE_EDGE_ZH:
            if title.endswith(glue) and len(title) > len(glue):
                title = title[: -len(glue)]
            if title.startswith(glue) and len(title) > len(glue) and _is_cjk(title[len(glue) : len(glue) + 1] or "a"):
                title = title[len(glue) :]
        for lead in S.TITLE_LEAD_ZH:
            if title.startswith(lead) and len(title) > len(lead) and _is_cjk(title[len(lead)]):
                title = title[len(lead) :]
        title = _EN_HEAD.sub("", title)
        title = _EN_TAIL.sub("", title)
    return title.strip()


# --------------------------------------------------------------------------
# The sentence
# --------------------------------------------------------------------------


def parse_quick(text: str, ctx: TimeContext, *, default_minutes: int = 60) -> QuickEvent:
    """Read ``text`` into one event for ``ctx``. Never raises: it runs on every keystroke.

    Its ``#tags`` are read first and blanked, so the rest is read as if they were not there."""
    bare, tags, places = hashtags(text) if isinstance(text, str) and len(text) <= MAX_QUICK_CHARS else (text, (), ())
    event = _parse(bare, ctx, default_minutes)
    if not tags:
        return event
    spans = sorted([*event.spans, *(Span("tags", a, b, text[a:b]) for a, b in places)], key=lambda span: span.start)
    return replace(event, text=text, categories=tags, spans=tuple(spans))


def _parse(text: str, ctx: TimeContext, default_minutes: int) -> QuickEvent:
    if not isinstance(text, str) or not text.strip():
        return _failed("" if not isinstance(text, str) else text, "empty")
    if len(text) > MAX_QUICK_CHARS:
        return _failed(text, "too_long")
    s = fold(text)
    tokens = scan(s, ctx)
    days = [t for t in tokens if isinstance(t, DayTok)]
    clocks = [t for t in tokens if isinstance(t, ClockTok)]
    periods = [t for t in tokens if isinstance(t, PeriodTok)]
    seps = [t for t in tokens if isinstance(t, SepTok)]
    repeats = [t for t in tokens if isinstance(t, RepeatTok)]
    reminders = [t for t in tokens if isinstance(t, ReminderTok)]
    used: list[tuple[str, Token]] = []
    rep, days = _weekday_repeat(s, [t for t in repeats if not t.bare], [t for t in repeats if t.bare], days, seps, clocks, used)

    # a repeat's last day: a day word after 到/until ("每天跑步到3月底", "daily until March 1")
    until: date | None = None
    if rep is not None:
        for tok in days:
            sep = next((t for t in seps if t.end <= tok.start and _empty_gap(s, t.end, tok.start, [])), None)
            if sep is None:
                continue
            if tok.weekday is not None and rep.weekday is not None and _empty_gap(s, rep.end, sep.start, []):
                # 每周一到周五, "every Monday to Friday": the weekdays between
                span = range(rep.weekday, tok.weekday + 1) if rep.weekday <= tok.weekday else ()
                rep = replace(rep, weekdays=tuple(span), freq="WEEKLY", kind="WEEKLY")
                used += [("repeat", sep), ("repeat", tok)]
                days = [d for d in days if d is not tok]
                break
            until = tok.days[-1]
            used += [("repeat", sep), ("repeat", tok)]
            close = re.match(r"\s*(?:" + "|".join(S.UNTIL_CLOSE_ZH) + ")", s[tok.end :])
            if close:
                used.append(("repeat", SepTok(start=tok.end, end=tok.end + close.end())))
            days = [d for d in days if d is not tok]
            break

    day = _pick_day(s, days, seps, [*clocks, *periods])
    day_toks = [t for t in (day.used if day else []) if isinstance(t, DayTok)]
    if rep is not None and day_toks:  # 从下周一开始每天…: the series' first day
        begin = re.match(r"\s*(?:开始|起)", s[day_toks[-1].end :])
        if begin:
            used.append(("day", SepTok(start=day_toks[-1].end, end=day_toks[-1].end + begin.end())))
    meal = W.PM if any(w in s for w in S.EVENING_MEALS) else W.AM if any(w in s for w in S.MORNING_MEALS) else None
    at = _pick_time(s, clocks, periods, seps, day_toks or days, [*day_toks, *repeats[:1]], meal)
    used += [("day", t) for t in (day.used if day else [])]  # type: ignore[misc]
    used += [("time", t) for t in (at.used if at else [])]  # type: ignore[misc]
    if rep is not None:
        used.append(("repeat", rep))
    if reminders:
        used.append(("reminder", reminders[0]))
    # 每天3次 is three times a day (one event cannot say it), not an end after three days
    ends = [
        t for t in tokens if isinstance(t, EndTok) and not (rep is not None and t.bare and _empty_gap(s, rep.end, t.start, []))
    ]
    end_tok = ends[0] if ends and rep is not None and until is None else None
    if end_tok is not None:
        used.append(("repeat", end_tok))
    clock_toks = [t for t in (at.used if at else []) if isinstance(t, ClockTok)]
    zone_tok = _zone_for(s, [t for t in tokens if isinstance(t, ZoneTok)], clock_toks)
    if zone_tok is not None:
        used.append(("time", zone_tok))
    durations = [t for t in tokens if isinstance(t, DurationTok)]
    duration = durations[0] if durations and at is not None and at.end is None else None
    if duration is not None:
        used.append(("time", duration))

    if day is None and at is None and rep is None:  # "Meeting Feb 30": say the words, not only "no day"
        left = unread_words(s, text, tokens, _segments(len(s), [_removal(s, t) for _, t in used]), [t for _, t in used])
        failed = _failed(text, "unread" if left else "no_when", _spans(text, used, None))
        return replace(failed, unread=left)

    tz = ZoneInfo(zone_tok.zone) if zone_tok is not None else ctx.tz
    rule: Recurrence | None = None
    lunar = day is not None and day.lunar
    if rep is not None:
        rule = recurrence(rep, lunar)
    # the first day
    if rule is not None and not rule.lunar:
        anchor = day.first if day is not None else None
        first = first_day(rule, anchor or ctx.today, at.start if at else None, ctx, anchor, tz)
        last = first
    elif day is not None:
        first, last = day.first, day.last if rep is None else day.first
    else:
        first = last = ctx.today
    if rule is not None:
        if until is not None and until >= first:
            rule = rule.ending(until=until)
        elif end_tok is not None and end_tok.count is not None:
            rule = rule.ending(count=end_tok.count)
        elif end_tok is not None:
            rule = rule.ending(until=span_end(first, end_tok))
    start: date | datetime
    end: date | datetime
    if at is None:
        start, end = first, last + timedelta(days=1)
    else:
        start_day = first + timedelta(days=1) if at.start_next_day else first
        start = local_datetime(start_day, at.start, tz)
        if day is None and rep is None and start < ctx.now:  # a time with no day: its next occurrence
            start_day += timedelta(days=1)
            start = local_datetime(start_day, at.start, tz)
        if day is not None and rep is None and day.rolls is not None and start < ctx.now:
            step = 7 if day.rolls.rolls == "week" else None
            moved = start_day + timedelta(days=step) if step else next_day_of_month(start_day.day, start_day + timedelta(days=1))
            if moved is not None:
                start_day = moved
                start = local_datetime(start_day, at.start, tz)
        if at.end is not None:
            end_day = start_day + timedelta(days=1) if at.end_next_day and not at.start_next_day else start_day
            end = local_datetime(end_day, at.end, tz)
            if end <= start:
                end = start + timedelta(minutes=default_minutes)
        else:
            end = start + timedelta(minutes=duration.minutes if duration else default_minutes)

    repeat = rep.kind if rep is not None else None
    if repeat == "YEARLY" and lunar:
        repeat = "LUNAR_YEARLY"

    # what is left: the place, then the title
    removed = [_removal(s, tok) for _, tok in used]
    segments = _segments(len(s), removed)
    place = _place(s, text, segments)
    location = None
    if place is not None:
        location = place[0].strip() or None
        removed.append(place[2])
        segments = _segments(len(s), removed)
    title = _trim(_join(text, segments))
    if not title and place is not None:  # 在协和医院复诊: the place ends at its place word
        removed.pop()
        place = _place(s, text, _segments(len(s), removed), split=True)
        location = place[0].strip() or None if place is not None else None
        removed.append(place[2] if place is not None else (0, 0))
        segments = _segments(len(s), removed)
        title = _trim(_join(text, segments))
    spans = _spans(text, used, place[1] if place else None)
    zone = zone_tok.zone if zone_tok is not None else None
    label = zone_tok.label if zone_tok is not None else None
    reminder = reminders[0].minutes if reminders else None
    event = QuickEvent(text, title, start, end, repeat, reminder, location, spans, None, rule, zone, label)
    left = unread_words(s, text, tokens, segments, [t for _, t in used], repeat=rep is not None)
    if left:
        return replace(event, problem="unread", unread=left)
    if not title:  # the day and time stay readable (the peer corpora measure them)
        return replace(event, title="", reminder_minutes=None, problem="no_title")
    return event


def _weekday_repeat(
    s: str,
    repeats: list[RepeatTok],
    bare: list[RepeatTok],
    days: list[DayTok],
    seps: list[SepTok],
    clocks: list[ClockTok],
    used: list[tuple[str, Token]],
) -> tuple[RepeatTok | None, list[DayTok]]:
    """The repeat, with the weekdays a list or range beside it names: "Tues Thurs Sat ...
    every week", 周一到周五每天早上7点, "Monday to Friday at 4pm" (a weekday range with a time
    and no repeat word is every such day). Adds what it reads to ``used``; returns the repeat
    and the day words left."""
    rep = repeats[0] if repeats else None
    plain = rep is None or (rep.freq or rep.kind) in ("DAILY", "WEEKLY") and not rep.weekdays and rep.weekday is None
    if bare and rep is not None and plain and rep.interval == 1:
        rep = replace(rep, kind="WEEKLY", freq="WEEKLY", weekdays=bare[0].weekdays)
        used.append(("repeat", bare[0]))
    for a, b in zip(days, days[1:], strict=False):
        between = [t for t in seps if a.end <= t.start and t.end <= b.start]
        ranged = a.weekday is not None and b.weekday is not None and a.rolls and b.rolls and a.weekday < b.weekday
        if not (ranged and between and _empty_gap(s, a.end, b.start, list(between))):
            continue
        if rep is not None and plain and rep.interval == 1:
            rep = replace(rep, kind="WEEKLY", freq="WEEKLY", weekdays=tuple(range(a.weekday or 1, (b.weekday or 7) + 1)))
        elif rep is None and clocks:
            rep = RepeatTok(
                start=a.start,
                end=b.end,
                kind="WEEKLY",
                freq="WEEKLY",
                weekdays=tuple(range(a.weekday or 1, (b.weekday or 7) + 1)),
            )
        else:
            continue
        used.extend([("repeat", a), ("repeat", between[0]), ("repeat", b)])
        days = [d for d in days if d is not a and d is not b]
        break
    return rep, days


def _zone_for(s: str, zones: list[ZoneTok], clocks: list[ClockTok]) -> ZoneTok | None:
    """The zone the clock times are in: a city's anywhere, an abbreviation only beside a clock."""
    if not clocks:
        return None
    for zone in zones:
        if not zone.bare:
            return zone
        if any(_empty_gap(s, c.end, zone.start, []) or _empty_gap(s, zone.end, c.start, []) for c in clocks):
            return zone
    return None


def _removal(s: str, tok: Tok) -> tuple[int, int]:
    """A used token's characters, with the lead word before it ("at 3pm", "在下午三点")."""
    head = s[: tok.start]
    lead = _LEAD_EN.search(head) or (_LEAD_ZH.search(head) if not isinstance(tok, ReminderTok) else None)
    start = lead.start() if lead else tok.start
    return start, tok.end


def _spans(text: str, used: list[tuple[str, Token]], place: tuple[int, int] | None) -> tuple[Span, ...]:
    marks: dict[tuple[int, int], str] = {}
    for role, tok in used:
        key = (tok.start, tok.end)
        if key not in marks or role == "day":
            marks[key] = role
    if place is not None:
        marks[place] = "location"
    ordered = sorted(marks.items())
    merged: list[list[Any]] = []
    for (a, b), role in ordered:
        if merged and merged[-1][2] == role and not text[merged[-1][1] : a].strip():
            merged[-1][1] = max(merged[-1][1], b)
        elif merged and a < merged[-1][1]:
            continue  # inside a span already listed
        else:
            merged.append([a, b, role])
    return tuple(Span(role, a, b, text[a:b]) for a, b, role in merged)
