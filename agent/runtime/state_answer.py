"""Answering a calendar-state claim from the store instead of apologising for it.

When a model says "明天你有空" or "Tomorrow is completely free" without having looked, the
guard (``guard.py``) must not let it through; but the user asked a question that has one
right answer, so code gives it: find the day or range the reply names (else the one the
user's message names), run the same query the query tool runs, and write the same range
receipt. Nothing new parses dates here: day words go through the clarification parser
(``timesym.clarify.parse_slot_reply``, tried on short pieces of the text), and the only
extra vocabulary — whole weeks and months, "今晚" — is built from ``timesym.words``. The
symbols are resolved by ``timesym.resolve``. When no day can be read, this returns None
and the honest apology stays.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from agent.errors import UserFacingError
from agent.runtime import receipts as R
from agent.runtime.claims import Claim
from agent.services.queries import QueryService, RangeResult
from agent.timesym import words as W
from agent.timesym.clarify import parse_slot_reply
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve_range

#: A reply that spans more than this is not "the day it names"; it gets the apology.
MAX_ANSWER_DAYS: Final = 62
_MAX_PIECE: Final = 24  # characters tried per piece ("day after tomorrow", "2026年12月5日")
_MAX_TEXT: Final = 400  # characters scanned, so a pasted essay costs bounded work

_THIS_ZH: Final = "|".join(sorted(W.THIS_WEEK_ZH, key=len, reverse=True))
_WEEK_WORDS_ZH: Final = "|".join(W.WEEKDAY_PREFIXES_ZH)
_SUFFIXES_ZH: Final = "".join(W.WEEKDAY_SUFFIXES_ZH) + W.WEEKEND_ZH[-1]
_NEXT: Final = re.escape(W.NEXT_WEEK_ZH)
_LAST: Final = re.escape(W.LAST_WEEK_ZH)
_M: Final = W.MEASURE_WORD_ZH
# Whole weeks and months: 本周 / 下下周 / 这个月 / next week. Weekdays and weekends are the
# clarification parser's (下周一, 这周末), so a week word followed by a weekday is left to it.
_RANGE_WORDS: Final = re.compile(
    rf"(?P<wk>{_THIS_ZH}|(?:{_NEXT})+{_M}?|(?:{_LAST})+{_M}?)(?:{_WEEK_WORDS_ZH})(?![{_SUFFIXES_ZH}])"
    rf"|(?<![0-9一二三四五六七八九十])(?P<mo>{_THIS_ZH}|(?:{_NEXT})+{_M}?|(?:{_LAST})+{_M}?){W.MONTH_MARKER_ZH}(?![0-9一二三四五六七八九十])"
    r"|\b(?P<enwk>this|next|last)\s+week\b(?!end)|\b(?P<enmo>this|next|last)\s+month\b"
)
_DATED_PERIOD: Final = re.compile("|".join(sorted((re.escape(w) for w in W.DATED_PERIOD_WORDS), key=len, reverse=True)))
_START: Final = re.compile(r"[0-9今明后昨前大周星礼下上这本月十一二三四五六七八九元a-z]")


@dataclass(frozen=True)
class StateAnswer:
    reply: str
    result: RangeResult
    start: str  # the symbols queried, for the observation
    end: str


def answer_state_claim(
    queries: QueryService, ctx: TimeContext, claims: Iterable[Claim], user_text: str, lang: str
) -> StateAnswer | None:
    """The real answer for the day the claim names (else the message names), or None."""
    texts = [" ".join(claim.clause for claim in claims), user_text]
    for text in texts:
        span = named_span(text, ctx)
        if span is None:
            continue
        try:
            result = queries.range(*span)
        except (SymbolError, UserFacingError, ValueError, OverflowError):
            return None
        return StateAnswer(R.range_receipt(result, lang), result, *span)
    return None


def named_span(text: str, ctx: TimeContext) -> tuple[str, str] | None:
    """``(start symbol, end symbol)`` covering every day or range ``text`` names, or None."""
    if not isinstance(text, str):
        return None
    s = unicodedata.normalize("NFKC", text).lower()[:_MAX_TEXT]
    symbols = [sym for _, _, sym in _found(s, ctx)]
    bounds: list[tuple[datetime, datetime, str, str]] = []
    for first, last in symbols:
        try:
            start, end = resolve_range(first, last, ctx)
        except (SymbolError, UserFacingError, ValueError, OverflowError):
            continue
        bounds.append((start, end, first, last))
    if not bounds:
        return None
    start, _, first, _ = min(bounds, key=lambda b: b[0])
    _, end, _, last = max(bounds, key=lambda b: b[1])
    if end - start > timedelta(days=MAX_ANSWER_DAYS):
        return None
    return first, last


def _found(s: str, ctx: TimeContext) -> list[tuple[int, int, tuple[str, str]]]:
    """Non-overlapping (start, end, (first symbol, last symbol)) pieces, left to right."""
    spans: list[tuple[int, int, tuple[str, str]]] = []
    for m in _RANGE_WORDS.finditer(s):
        spans.append((m.start(), m.end(), _range_symbols(m)))
    for m in _DATED_PERIOD.finditer(s):
        offset = W.DATED_PERIOD_WORDS[m.group(0)][0]
        spans.append((m.start(), m.end(), (f"D{offset:+d}", f"D{offset:+d}")))
    taken = [(a, b) for a, b, _ in spans]
    i = 0
    while i < len(s):
        if any(a <= i < b for a, b in taken) or not _START.match(s[i]) or (i and _ascii_alnum(s[i]) and _ascii_alnum(s[i - 1])):
            i += 1
            continue
        hit = _longest_day(s, i, ctx)
        if hit is None:
            i += 1
            continue
        end, symbol = hit
        spans.append((i, end, (symbol, symbol)))
        i = end
    # A month word right before a day ("下个月1号") only says which month that day is in.
    days = [(a, b) for a, b, (x, y) in spans if x == y and not x.startswith("M")]
    return [sp for sp in spans if not (sp[2][0].startswith("M") and any(a == sp[1] for a, _ in days))]


def _longest_day(s: str, i: int, ctx: TimeContext) -> tuple[int, str] | None:
    for j in range(min(len(s), i + _MAX_PIECE), i, -1):
        piece = s[i:j]
        if not piece[-1].isalnum() and not ("\u4e00" <= piece[-1] <= "\u9fff"):
            continue
        if _ascii_alnum(piece[-1]) and j < len(s) and _ascii_alnum(s[j]):
            continue  # "mon" of "month"
        patch = parse_slot_reply(piece, ctx)
        if patch is not None and patch.date is not None:
            return j, patch.date
    return None


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _range_symbols(m: re.Match[str]) -> tuple[str, str]:
    word = m.group("wk") or m.group("mo") or m.group("enwk") or m.group("enmo") or ""
    if word in ("this", "next", "last"):
        k = {"this": 0, "next": 1, "last": -1}[word]
    else:
        body = word.rstrip(_M)
        k = body.count(W.NEXT_WEEK_ZH) - body.count(W.LAST_WEEK_ZH)
    if m.group("wk") or m.group("enwk"):
        return f"W1{k:+d}", f"W7{k:+d}"
    return f"M{k:+d}", f"M{k:+d}"


__all__ = ["MAX_ANSWER_DAYS", "StateAnswer", "answer_state_claim", "named_span"]
