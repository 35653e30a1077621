"""Recognise slot-only replies to a pending calendar question without a model call.

When the app has asked "周六还是周日？" or "几点？", the next message is usually
just the missing slot ("周日下午2点", "tomorrow 7:30pm").  Sending that to the
model costs a round trip and invites it to re-plan the whole command, so this
module answers it deterministically - but only when it can be *sure*: the
reply must consist of slot words (``words.py``) and fillers and nothing else.
Any leftover content ("明天去开会"), contradiction ("明天今晚") or ambiguity
("三点五", "晚上12点" with no day) yields ``None`` and the caller falls back to
the model.  Rules for ambiguous hours are documented in
``docs/clarification-parser.md``.

The parser never raises: it is fed raw user text on the UI path.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum
from typing import Final

from agent.timesym import words as W
from agent.timesym.context import TimeContext
from agent.timesym.grammar import DATE_SYMBOL_PATTERN, SymbolError
from agent.timesym.patterns import (
    DAY_MARK,
    MERIDIEM,
    MINUTE_ZH,
    MONTHS,
    NUM,
    OCLOCK,
    ORD,
    L,
    R,
    alt,
    next_day_of_month,
    week_offset_zh,
    zh_minute,
)
from agent.timesym.resolve import resolve_date

__all__ = ["SlotPatch", "parse_slot_reply"]

_DATE_SYMBOL_RE: Final = re.compile(DATE_SYMBOL_PATTERN)
_TIME_RE: Final = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


@dataclass(frozen=True)
class SlotPatch:
    """The slots a reply fills; ``None`` means "keep what the pending command has"."""

    date: str | None
    time: str | None

    def to_json(self, ctx: TimeContext) -> dict[str, str | None]:
        """Tool/result shape; ``resolved_date`` lets the UI echo the concrete day.

        A symbol that does not resolve raises ``SymbolError``: patches from
        :func:`parse_slot_reply` always resolve, so a failure here means the
        patch was built elsewhere with a bad symbol, which should be loud.
        """
        resolved: str | None = None
        if self.date is not None:
            res = resolve_date(self.date, ctx)
            if res.candidates:
                resolved = res.candidates[0].isoformat()
            elif res.start is not None:
                resolved = res.start.astimezone(ctx.tz).date().isoformat()
        return {"date": self.date, "time": self.time, "resolved_date": resolved}


# --------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------


class _DateKind(Enum):
    """How strongly a date token pins a day, used to reconcile several tokens.

    ANCHOR pins one exact day (D±n, YYYY-MM-DD, MM-DD, Wd±k).  A plain weekday
    next to an anchor is read as a confirmation ("9月29日周二") and only has
    to agree on the day of the week; a weekend only has to contain the day.
    """

    ANCHOR = "anchor"
    WEEKDAY = "weekday"
    WEEKEND = "weekend"


@dataclass(frozen=True)
class _DateTok:
    symbol: str
    kind: _DateKind
    weekday: int | None = None


@dataclass(frozen=True)
class _TimeTok:
    hour: int
    minute: int
    #: Zero-padded ("03:15"): the writer chose a 24h clock, so the bare-hour
    #: afternoon rule must not move it.
    padded: bool
    meridiem: W.Period | None = None


@dataclass(frozen=True)
class _PeriodTok:
    period: W.Period


_Token = _DateTok | _TimeTok | _PeriodTok
_Handler = Callable[[re.Match[str], TimeContext], tuple[_Token, ...] | None]

# --------------------------------------------------------------------------
# Patterns, all built from words.py
# --------------------------------------------------------------------------


_WEEK_PRE_ZH: Final = (
    rf"(?P<pre>(?:{re.escape(W.NEXT_WEEK_ZH)})+{W.MEASURE_WORD_ZH}?"
    rf"|(?:{re.escape(W.LAST_WEEK_ZH)})+{W.MEASURE_WORD_ZH}?"
    rf"|{alt(W.THIS_WEEK_ZH)})?"
)
_EN_CLOCK_TAIL: Final = rf"(?:\s*:\s*(?P<m>[0-9]{{2}}))?(?:\s*(?P<ap>{MERIDIEM}))?(?:\s*(?:{OCLOCK}))?(?![0-9a-z])"


def _ymd(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    y, mo, d = int(m["y"]), W.cn_to_int(m["m"]), W.cn_to_int(m["d"])
    if mo is None or d is None:
        return None
    try:
        day = date(y, mo, d)
    except ValueError:
        return None
    return (_DateTok(day.isoformat(), _DateKind.ANCHOR),)


def _month_day(mo: int | None, d: int | None) -> tuple[_Token, ...] | None:
    # 2000 is a leap year, so 02-29 counts as a real month-day here; the
    # resolver then finds the next leap year.
    if mo is None or d is None or not 1 <= mo <= 12 or not 1 <= d <= calendar.monthrange(2000, mo)[1]:
        return None
    return (_DateTok(f"{mo:02d}-{d:02d}", _DateKind.ANCHOR),)


def _md(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    return _month_day(W.cn_to_int(m["m"]), W.cn_to_int(m["d"]))


def _md_en(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    return _month_day(W.MONTHS_EN.get(re.sub(r"\s+", " ", m["mon"])), W.cn_to_int(m["d"]))


def _day(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    d = W.cn_to_int(m["d"])
    found = next_day_of_month(d, ctx.today) if d is not None else None
    # A full ISO date: the day is already computed, and MM-DD would silently
    # change meaning if resolved on a later day.
    return (_DateTok(found.isoformat(), _DateKind.ANCHOR),) if found else None


def _weekday_zh(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    d = W.WEEKDAY_SUFFIXES_ZH[m["d"]]
    k = week_offset_zh(m["pre"])
    if k is None:
        return (_DateTok(f"W{d}", _DateKind.WEEKDAY, d),)
    return (_DateTok(f"W{d}{k:+d}", _DateKind.ANCHOR),)


def _weekend_zh(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    k = week_offset_zh(m["pre"])
    return (_DateTok("WE" if not k else f"WE{k:+d}", _DateKind.WEEKEND),)


def _weekday_en(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    d = W.WEEKDAYS_EN[m["d"]]
    k = W.WEEK_MODIFIERS_EN.get(m["pre"]) if m["pre"] else None
    if k is None:
        return (_DateTok(f"W{d}", _DateKind.WEEKDAY, d),)
    return (_DateTok(f"W{d}{k:+d}", _DateKind.ANCHOR),)


def _weekend_en(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    k = W.WEEK_MODIFIERS_EN.get(m["pre"]) if m["pre"] else None
    return (_DateTok("WE" if not k else f"WE{k:+d}", _DateKind.WEEKEND),)


def _rel_day(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    n = W.RELATIVE_DAYS[re.sub(r"\s+", " ", m[0])]
    return (_DateTok(f"D{n:+d}", _DateKind.ANCHOR),)


def _dated_period(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    n, period = W.DATED_PERIOD_WORDS[m[0]]
    return (_DateTok(f"D{n:+d}", _DateKind.ANCHOR), _PeriodTok(period))


def _period(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    return (_PeriodTok(W.PERIOD_WORDS[m[0]]),)


def _is_padded(hour_text: str) -> bool:
    return len(hour_text) == 2 and hour_text.startswith("0")


def _time_zh(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    hour = W.cn_to_int(m["h"])
    if hour is None:
        return None
    minute = zh_minute(m["m"])
    if minute is None:
        return None
    return (_TimeTok(hour, minute, _is_padded(m["h"])),)


def _clock(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    hour = int(m["h"])
    groups = m.groupdict()
    minute = int(groups["m"]) if groups.get("m") else 0
    if minute > 59:
        return None
    ap = groups.get("ap")
    meridiem = W.MERIDIEM_EN[ap] if ap else None
    return (_TimeTok(hour, minute, _is_padded(m["h"]), meridiem),)


def _noon(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    return (_TimeTok(12, 0, True, W.PM),)


def _filler(m: re.Match[str], ctx: TimeContext) -> tuple[_Token, ...] | None:
    return ()


def _split(words: Iterable[str]) -> tuple[list[str], list[str]]:
    items = list(words)
    return [w for w in items if not w.isascii()], [w for w in items if w.isascii()]


_REL_ZH, _REL_EN = _split(W.RELATIVE_DAYS)
_DP_ZH, _DP_EN = _split(W.DATED_PERIOD_WORDS)
_PER_ZH, _PER_EN = _split(W.PERIOD_WORDS)


def _rule(pattern: str, handler: _Handler) -> tuple[re.Pattern[str], _Handler]:
    return re.compile(pattern), handler


_RULES: Final[tuple[tuple[re.Pattern[str], _Handler], ...]] = (
    # dates
    _rule(
        rf"(?<![0-9])(?P<y>[0-9]{{4}})\s*{W.YEAR_MARKER_ZH}\s*(?P<m>{NUM})\s*{W.MONTH_MARKER_ZH}"
        rf"\s*(?P<d>{NUM})\s*{DAY_MARK}?",
        _ymd,
    ),
    _rule(r"(?<![0-9])(?P<y>[0-9]{4})(?P<sep>[-/.])(?P<m>[0-9]{1,2})(?P=sep)(?P<d>[0-9]{1,2})(?![0-9])", _ymd),
    _rule(rf"(?P<m>{NUM})\s*{W.MONTH_MARKER_ZH}\s*(?P<d>{NUM})\s*{DAY_MARK}?", _md),
    _rule(r"(?<![0-9])(?P<m>[0-9]{1,2})\s*/\s*(?P<d>[0-9]{1,2})(?![0-9/])", _md),
    _rule(r"(?<![0-9])(?P<m>[0-9]{2})-(?P<d>[0-9]{2})(?![0-9-])", _md),
    _rule(rf"{L}(?P<mon>{MONTHS})\.?\s*(?P<d>[0-9]{{1,2}}){ORD}?(?![0-9a-z])", _md_en),
    _rule(rf"(?<![0-9])(?P<d>[0-9]{{1,2}}){ORD}?\s*(?:of\s+)?(?P<mon>{MONTHS}){R}", _md_en),
    _rule(rf"(?P<d>{NUM})\s*{DAY_MARK}", _day),
    _rule(rf"(?<![0-9])(?P<d>[0-9]{{1,2}}){ORD}{R}", _day),
    _rule(
        rf"{_WEEK_PRE_ZH}\s*(?:{alt(W.WEEKDAY_PREFIXES_ZH)})\s*(?P<d>{alt(W.WEEKDAY_SUFFIXES_ZH)})",
        _weekday_zh,
    ),
    _rule(rf"{_WEEK_PRE_ZH}\s*{W.WEEKEND_ZH}", _weekend_zh),
    _rule(rf"{L}(?:(?P<pre>{alt(W.WEEK_MODIFIERS_EN)})\s+)?(?P<d>{alt(W.WEEKDAYS_EN)}){R}", _weekday_en),
    _rule(rf"{L}(?:(?P<pre>{alt(W.WEEK_MODIFIERS_EN)})\s+)?{W.WEEKEND_EN}{R}", _weekend_en),
    _rule(alt(_REL_ZH), _rel_day),
    _rule(rf"{L}(?:{alt(_REL_EN)}){R}", _rel_day),
    # periods
    _rule(alt(_DP_ZH), _dated_period),
    _rule(rf"{L}(?:{alt(_DP_EN)}){R}", _dated_period),
    _rule(alt(_PER_ZH), _period),
    _rule(rf"{L}(?:{alt(_PER_EN)}){R}", _period),
    # clock times
    _rule(rf"(?P<h>{NUM})\s*(?:{alt(W.HOUR_MARKERS_ZH)})(?:\s*{MINUTE_ZH})?", _time_zh),
    _rule(rf"(?<![0-9])(?P<h>[0-9]{{1,2}})\s*:\s*(?P<m>[0-9]{{2}})(?:\s*(?P<ap>{MERIDIEM}))?(?![0-9a-z])", _clock),
    _rule(rf"(?<![0-9])(?P<h>[0-9]{{1,2}})\s*(?P<ap>{MERIDIEM})(?![a-z])", _clock),
    _rule(rf"(?<![0-9])(?P<h>[0-9]{{1,2}})\s*(?:{OCLOCK}){R}", _clock),
    # "at 7" is a time only because of "at"; a bare "7" stays unparsed.
    _rule(rf"{L}{W.AT_EN}\s*(?P<h>[0-9]{{1,2}}){_EN_CLOCK_TAIL}", _clock),
    _rule(rf"{L}(?:12\s*)?(?:{alt(W.NOON_EN)}){R}", _noon),
    # fillers
    _rule(alt(W.FILLERS_ZH), _filler),
    _rule(rf"{L}(?:{alt(W.FILLERS_EN)}){R}", _filler),
)

# --------------------------------------------------------------------------
# Scanning
# --------------------------------------------------------------------------


def _normalize(text: str) -> str:
    """Fold width/case so one table serves "１５：３０", "15:30" and "SUNDAY"."""
    folded = unicodedata.normalize("NFKC", text)
    return folded.replace("\u2019", "'").replace("\u2018", "'").lower()


def _skippable(ch: str) -> bool:
    """Whitespace, punctuation and invisible controls carry no content."""
    return ch.isspace() or unicodedata.category(ch)[0] in "PZ" or unicodedata.category(ch) in ("Cc", "Cf")


def _segment(s: str, ctx: TimeContext) -> tuple[_Token, ...] | None:
    """Cover the whole string with slot words, fillers and skippable chars.

    Longest match first with backtracking, so a greedy choice ("at 7" eating
    the "at" of "at 7 o'clock") cannot strand a later word.  Failed positions
    are memoised, which bounds the work at O(len(s) * rules).
    """
    n = len(s)
    failed: set[int] = set()

    def options(pos: int) -> list[tuple[int, tuple[_Token, ...]]]:
        found: list[tuple[int, tuple[_Token, ...]]] = []
        for rx, handler in _RULES:
            m = rx.match(s, pos)
            if m is None or m.end() <= pos:
                continue
            toks = handler(m, ctx)
            if toks is not None:
                found.append((m.end(), toks))
        if _skippable(s[pos]):
            found.append((pos + 1, ()))
        found.sort(key=lambda item: -item[0])  # stable: rule order breaks ties
        return found

    def walk(pos: int) -> tuple[_Token, ...] | None:
        if pos == n:
            return ()
        if pos in failed:
            return None
        for end, toks in options(pos):
            rest = walk(end)
            if rest is not None:
                return toks + rest
        failed.add(pos)
        return None

    return walk(0)


# --------------------------------------------------------------------------
# Building the patch
# --------------------------------------------------------------------------


def _days_of(symbol: str, ctx: TimeContext) -> tuple[date, ...] | None:
    """Days a symbol covers, or None when it does not resolve."""
    if not _DATE_SYMBOL_RE.fullmatch(symbol):
        return None
    try:
        res = resolve_date(symbol, ctx)
    except (SymbolError, ValueError, OverflowError):
        return None
    if res.candidates:
        return res.candidates
    if res.start is None:
        return None
    return (res.start.astimezone(ctx.tz).date(),)


def _pick_date(tokens: list[_DateTok], ctx: TimeContext) -> str | None:
    """One date symbol for all date tokens, or None when they disagree."""
    resolved: list[tuple[_DateTok, tuple[date, ...]]] = []
    for tok in tokens:
        days = _days_of(tok.symbol, ctx)
        if days is None:
            return None
        resolved.append((tok, days))
    anchors = [(t, d) for t, d in resolved if t.kind is _DateKind.ANCHOR]
    if not anchors:
        first, first_days = resolved[0]
        same = all(t.symbol == first.symbol or d == first_days for t, d in resolved)
        return first.symbol if same else None
    primary, primary_days = anchors[0]
    day = primary_days[0]
    for tok, days in resolved:
        if tok.kind is _DateKind.ANCHOR and days[0] != day:
            return None
        if tok.kind is _DateKind.WEEKDAY and day.isoweekday() != tok.weekday:
            return None
        if tok.kind is _DateKind.WEEKEND and day not in days:
            return None
    return primary.symbol


_MIDNIGHT: Final = "midnight"


def _hour_under(period: W.Period, hour: int) -> int | str | None:
    if period.is_midnight(hour):
        return _MIDNIGHT
    return period.to_24h(hour)


def _after(symbol: str, ctx: TimeContext) -> str | None:
    """The day after ``symbol``, for midnight that ends an evening."""
    if m := re.fullmatch(r"D([+-][0-9]+)", symbol):
        return f"D{int(m[1]) + 1:+d}"
    days = _days_of(symbol, ctx)
    if days is None or len(days) != 1:
        return None
    try:
        return (days[0] + timedelta(days=1)).isoformat()
    except OverflowError:
        return None


def _build(tokens: tuple[_Token, ...], ctx: TimeContext) -> SlotPatch | None:
    dates = [t for t in tokens if isinstance(t, _DateTok)]
    times = list(dict.fromkeys(t for t in tokens if isinstance(t, _TimeTok)))
    periods = list(dict.fromkeys(t.period for t in tokens if isinstance(t, _PeriodTok)))
    if not dates and not times:
        return None  # only fillers ("可以", "好的") or nothing at all
    if len(times) > 1:
        return None
    if periods and not times:
        return None  # "明天下午": the period cannot be expressed without an hour
    date_symbol = _pick_date(dates, ctx) if dates else None
    if dates and date_symbol is None:
        return None
    time_text: str | None = None
    if times:
        tok = times[0]
        rules = periods + ([tok.meridiem] if tok.meridiem is not None else [])
        if rules:
            outcomes = {_hour_under(p, tok.hour) for p in rules}
            if len(outcomes) != 1:
                return None
            hour = outcomes.pop()
        elif tok.padded:
            hour = tok.hour if tok.hour <= 23 else None
        else:
            hour = W.BARE.to_24h(tok.hour)
        if hour is None:
            return None
        if hour == _MIDNIGHT:
            # "晚上12点" is the midnight ending that evening: 00:00 of the next
            # date.  Without a day in the reply there is nothing to move.
            if date_symbol is None:
                return None
            date_symbol = _after(date_symbol, ctx)
            if date_symbol is None:
                return None
            hour = 0
        assert isinstance(hour, int)
        time_text = f"{hour:02d}:{tok.minute:02d}"
        if not _TIME_RE.fullmatch(time_text):
            return None
    if date_symbol is not None and _days_of(date_symbol, ctx) is None:
        return None
    return SlotPatch(date=date_symbol, time=time_text)


def parse_slot_reply(text: str, ctx: TimeContext) -> SlotPatch | None:
    """Read a reply that only fills date/time slots; None means "ask the model".

    Never raises: anything unexpected about the input (not a string, too
    long, unknown characters) is simply "not a slot reply".
    """
    if not isinstance(text, str) or len(text) > W.MAX_REPLY_CHARS * 4:
        return None
    s = _normalize(text).strip()
    if not s or len(s) > W.MAX_REPLY_CHARS:
        return None
    tokens = _segment(s, ctx)
    if tokens is None:
        return None
    return _build(tokens, ctx)


# --------------------------------------------------------------------------
# Date words inside a longer message (for the grounding latch)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DateMention:
    """A date word found somewhere in a message: its symbol, the days it covers, and
    whether it pins one exact day (an anchor) or only a weekday/weekend. A bare day of the
    month ("五号") is not exact here: in a longer message a month word the slot vocabulary
    does not read ("下个月五号") may stand before it."""

    text: str
    symbol: str
    days: tuple[date, ...]
    exact: bool


_LUNAR_PREFIXES: Final = ("农历", "阴历")


def date_mentions(text: str, ctx: TimeContext) -> list[DateMention]:
    """Every date word of ``text`` that the slot vocabulary knows, left to right.

    Unlike ``parse_slot_reply`` the message need not consist of slot words: this reads
    "刚才和老板吃了顿饭" or "明天下午三点和张三开会" and reports 明天 (D+1). It decides
    nothing; the grounding latch compares the model's chosen day against these words.
    Longest match at each position; unknown characters are skipped.
    """
    if not isinstance(text, str) or not text:
        return []
    s = _normalize(text)[: W.MAX_REPLY_CHARS * 40]
    found: list[DateMention] = []
    pos = 0
    while pos < len(s):
        best: tuple[int, tuple[_Token, ...], _Handler] | None = None
        for rx, handler in _RULES:
            m = rx.match(s, pos)
            if m is None or m.end() <= pos:
                continue
            toks = handler(m, ctx)
            if toks and any(isinstance(t, _DateTok) for t in toks) and (best is None or m.end() > best[0]):
                best = (m.end(), toks, handler)
        if best is None:
            pos += 1
            continue
        lunar = best[2] is _md and s[max(0, pos - 2) : pos] in _LUNAR_PREFIXES  # 农历八月十五 = L:08-15
        for tok in best[1]:
            if isinstance(tok, _DateTok):
                if lunar:
                    tok = _DateTok("L:" + tok.symbol, tok.kind)
                days = _days_of(tok.symbol, ctx)
                if days:
                    exact = tok.kind is _DateKind.ANCHOR and best[2] is not _day
                    found.append(DateMention(s[pos : best[0]], tok.symbol, days, exact))
        pos = best[0]
    return found


def time_mentions(text: str, ctx: TimeContext) -> set[str]:
    """Every clock time ``text`` could mean ("HH:MM"), read with the slot vocabulary.

    A bare hour with no period around it ("三点", "3 o'clock") stands for both its morning
    and its afternoon reading, so the set says which times the words allow, not which one
    was meant. Like ``date_mentions`` it decides nothing: the edit latch compares the
    model's time with it and asks when the model's time is not one the words allow.
    """
    if not isinstance(text, str) or not text:
        return set()
    s = _normalize(text)[: W.MAX_REPLY_CHARS * 40]
    found: set[str] = set()
    period: W.Period | None = None
    pos = 0
    while pos < len(s):
        best: tuple[int, tuple[_Token, ...]] | None = None
        for rx, handler in _RULES:
            m = rx.match(s, pos)
            if m is None or m.end() <= pos:
                continue
            toks = handler(m, ctx)
            if toks and (best is None or m.end() > best[0]):
                best = (m.end(), toks)
        if best is None:
            pos += 1
            continue
        for tok in best[1]:
            if isinstance(tok, _PeriodTok):
                period = tok.period
            elif isinstance(tok, _TimeTok):
                rules = [p for p in (tok.meridiem, period) if p is not None]
                hours: set[int] = set()
                for rule in rules:
                    hour = _hour_under(rule, tok.hour)
                    if hour == _MIDNIGHT:
                        hours.add(0)
                    elif isinstance(hour, int):
                        hours.add(hour)
                if not rules:
                    hours.add(tok.hour)
                    if not tok.padded and tok.hour < 12:
                        hours.add(tok.hour + 12)
                found |= {f"{h:02d}:{tok.minute:02d}" for h in hours if isinstance(h, int) and 0 <= h <= 23}
                period = None
        pos = best[0]
    # "move the 9am tennis to 8": a bare hour after "to" at the end of a clause is a time the
    # words allow (both readings, like a bare 三点). Not a slot reply's reading: it only lets
    # the edit latch accept a new time the user did say (issue 30).
    for m in _TO_HOUR_EN.finditer(s):
        hour = int(m["h"])
        if 1 <= hour <= 12:
            found |= {f"{hour % 12 if hour == 12 else hour:02d}:00", f"{hour % 12 + 12:02d}:00"}
    return found


_TO_HOUR_EN: Final = re.compile(
    r"\bto\s+(?P<h>[0-9]{1,2})(?=\s*(?:$|[.,;!?]|\b(?:instead|please|then|today|tonight|tomorrow)\b))"
)
