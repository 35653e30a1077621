"""Which existing event the user means: found by code from their words, never by an id.

The chat's ``update_schedule`` / ``delete_schedule`` carry the user's words for the event
(``targetTitle``), the day they named (``targetDate``, a date symbol) and a time
(``targetTime``). Code searches (``find_targets``):

* the window: the target day (or the days a symbol covers), or — when no day was named —
  the bounded window from 7 days ago to 60 days ahead;
* the time, when given: events running at that minute (all-day events have no time);
* the words: a case- and width-insensitive substring of the title (Chinese substrings
  included; spaces ignored). When no title contains them, a *fuzzy* tier takes titles that
  hold at least half of the words' content units (``wording.units``: each CJK character,
  each Latin word) — such a match is never applied without asking first.

The answer to "which one?" is read by ``pick_choice`` with no model: an ordinal (第二个, the
second, 2), a time (10点那个, the 3pm one, 下午三点的), or words that only one option's title
holds (评审那个). Anything else is not a pick (``None``) and goes to the model as usual.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from agent.services.queries import QueryService
from agent.services.wording import units as _units
from agent.store.occurrence import Occurrence
from agent.timesym.clarify import date_mentions, parse_slot_reply
from agent.timesym.context import TimeContext, day_start, local_datetime
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve, resolve_time

PAST_DAYS = 7
AHEAD_DAYS = 60
MAX_OPTIONS = 8  # a choice lists at most this many; more is "say which one more precisely"
MAX_WINDOW_DAYS = 62


@dataclass
class Search:
    """What was searched and what was found (the receipt states the former on no match)."""

    start: datetime
    end: datetime
    words: str
    time: time | None
    day_named: bool
    matches: list[Occurrence] = field(default_factory=list)
    fuzzy: bool = False  # the matches came only from the fuzzy tier

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "words": self.words,
            "time": f"{self.time:%H:%M}" if self.time else None,
            "day_named": self.day_named,
            "fuzzy": self.fuzzy,
            "matches": [occ.to_json() for occ in self.matches],
        }


def fold(text: str) -> str:
    """Case, width and spacing folded: "ＰＲ Review" and "pr review" are the same words."""
    return "".join(unicodedata.normalize("NFKC", text or "").casefold().split())


#: Words around the name of an event that are not part of it ("我的会", "那个健身").
_FRAME = ("那个", "这个", "那场", "这场", "那次", "这次", "我的", "的")


def _core(words: str, ctx: TimeContext | None = None) -> str:
    """The name inside the target words: framing words and day words dropped ("明天的会" is
    会 — the day is ``targetDate``'s job)."""
    core = fold(words)
    if ctx is not None:
        for mention in date_mentions(words, ctx):
            stripped = core.replace(fold(mention.text), "")
            core = stripped or core
    for frame in _FRAME:
        if core.startswith(frame) and len(core) > len(frame):
            core = core[len(frame) :]
        if core.endswith(frame) and len(core) > len(frame):
            core = core[: -len(frame)]
    return core


def window(date_symbol: str | None, ctx: TimeContext) -> tuple[datetime, datetime, bool]:
    """[start, end) to search and whether the user named the day. Raises ``SymbolError``."""
    if not date_symbol:
        start = day_start(ctx.today - timedelta(days=PAST_DAYS), ctx.tz)
        return start, day_start(ctx.today + timedelta(days=AHEAD_DAYS + 1), ctx.tz), False
    resolved = resolve(date_symbol, ctx)
    if resolved.kind == "time":
        raise SymbolError(date_symbol, "services.target_is_time", symbol=date_symbol)
    if resolved.candidates:
        first, last = resolved.candidates[0], resolved.candidates[-1]
    elif resolved.start is not None and resolved.end is not None:
        first = resolved.start.astimezone(ctx.tz).date()
        last = (resolved.end.astimezone(ctx.tz) - timedelta(seconds=1)).date()
    else:
        raise SymbolError(date_symbol, "services.target_not_day", symbol=date_symbol)
    if (last - first).days > MAX_WINDOW_DAYS:
        raise SymbolError(date_symbol, "services.target_too_wide", symbol=date_symbol, days=MAX_WINDOW_DAYS)
    return day_start(first, ctx.tz), day_start(last + timedelta(days=1), ctx.tz), True


def find_targets(
    queries: QueryService,
    ctx: TimeContext,
    words: str | None,
    date_symbol: str | None,
    time_text: str | None,
) -> Search:
    start, end, named = window(date_symbol, ctx)
    at = resolve_time(time_text) if time_text else None
    search = Search(start, end, (words or "").strip(), at, named)
    found = queries.between(start, end)
    if at is not None:
        found = [occ for occ in found if _runs_at(occ, at, ctx)]
    core = _core(words or "", ctx)
    if not core:
        search.matches = found
        return search
    exact = [occ for occ in found if core in fold(occ.title)]
    if exact:
        search.matches = exact
        return search
    units = set(_units(core))
    if units:
        loose = [occ for occ in found if len(units & set(_units(occ.title))) * 2 >= len(units)]
        search.matches, search.fuzzy = loose, bool(loose)
    return search


def _runs_at(occ: Occurrence, at: time, ctx: TimeContext) -> bool:
    if occ.all_day or not isinstance(occ.start, datetime):
        return False
    local = occ.start.astimezone(ctx.tz)
    moment = local_datetime(local.date(), at, ctx.tz)
    end = occ.end if isinstance(occ.end, datetime) else moment
    return occ.start <= moment < end or occ.start == moment


# ---- the answer to "which one?" ----------------------------------------------------------

_ORDINALS_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
_ORDINALS_EN = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "1st": 1, "2nd": 2, "3rd": 3}
_LAST = ("最后一个", "最后那个", "最后", "last", "the last one", "last one")
_FILLERS = (
    "就是",
    "那个",
    "那场",
    "那一个",
    "这个",
    "那次",
    "的那个",
    "的",
    "吧",
    "啊",
    "呀",
    "选",
    "要",
    "是",
    "the one at",
    "the one",
    "the",
    "one",
    "at",
    "please",
    "pick",
    "option",
    "number",
    "no.",
    "#",
)
_MAX_PICK_CHARS = 24


def _strip_fillers(text: str) -> str:
    s = text
    changed = True
    while changed:
        changed = False
        for filler in sorted(_FILLERS, key=len, reverse=True):
            for form in (filler, filler + " "):
                if s.startswith(form) and len(s) > len(form):
                    s, changed = s[len(form) :].strip(), True
            if s.endswith(filler) and len(s) > len(filler) and (not filler.isascii() or s[-len(filler) - 1] == " "):
                s, changed = s[: -len(filler)].strip(), True
    return s


def pick_choice(text: str, options: list[dict[str, Any]], ctx: TimeContext) -> int | None:
    """The 0-based option a short reply picks, or None when it is not a clear pick.

    ``options`` are the stored choice entries: ``title`` and ``start`` (ISO)."""
    if not isinstance(text, str) or not options or len(text) > _MAX_PICK_CHARS:
        return None
    folded = unicodedata.normalize("NFKC", text).casefold().strip()
    folded = re.sub(r"[\s。.!！?？,，~～]+$", "", folded).strip()
    if not folded:
        return None
    if folded in _LAST:
        return len(options) - 1
    core = _strip_fillers(folded)
    ordinal = _ordinal(core)
    if ordinal is not None:
        return ordinal - 1 if 1 <= ordinal <= len(options) else None
    patch = parse_slot_reply(core, ctx)
    if patch is not None and patch.time is not None:
        return _by_time(patch.time, patch.date, options, ctx)
    bare = re.fullmatch(r"([01]?[0-9]|2[0-3])", core)  # "10" alone: an hour only if it fits one option
    if bare:
        return _by_time(f"{int(bare.group(1)):02d}:00", None, options, ctx)
    period = _PERIODS.get(core)
    if period is not None:  # "上午那个", "the evening one": only when one option lies in it
        return _by_period(period, options, ctx)
    words = fold(core)
    if len(words) >= 1:
        hits = [i for i, option in enumerate(options) if words in fold(str(option.get("title", "")))]
        if len(hits) == 1:
            return hits[0]
    return None


_PERIODS = {
    "上午": (0, 12),
    "早上": (0, 12),
    "中午": (11, 14),
    "下午": (12, 18),
    "晚上": (18, 24),
    "傍晚": (17, 20),
    "morning": (0, 12),
    "afternoon": (12, 18),
    "evening": (17, 24),
    "tonight": (17, 24),
}


def _by_period(period: tuple[int, int], options: list[dict[str, Any]], ctx: TimeContext) -> int | None:
    hits = []
    for i, option in enumerate(options):
        try:
            start = datetime.fromisoformat(str(option.get("start")))
        except ValueError:
            continue
        if start.tzinfo is not None and period[0] <= start.astimezone(ctx.tz).hour < period[1]:
            hits.append(i)
    return hits[0] if len(hits) == 1 else None


def _ordinal(core: str) -> int | None:
    m = re.fullmatch(r"第\s*([0-9]{1,2}|[一二两三四五六七八])\s*(个|项|场|次)?", core)
    if m:
        token = m.group(1)
        return int(token) if token.isdigit() else _ORDINALS_ZH[token]
    if core in _ORDINALS_EN:
        return _ORDINALS_EN[core]
    m = re.fullmatch(r"([0-9]{1,2})\s*(号|个)?", core)
    if m and m.group(2) == "个":
        return int(m.group(1))
    if re.fullmatch(r"[1-8]", core):
        return int(core)
    return None


def _by_time(hhmm: str, date_symbol: str | None, options: list[dict[str, Any]], ctx: TimeContext) -> int | None:
    hits: list[int] = []
    for i, option in enumerate(options):
        try:
            start = datetime.fromisoformat(str(option.get("start")))
        except ValueError:
            continue
        if start.tzinfo is None:
            continue
        local = start.astimezone(ctx.tz)
        if f"{local:%H:%M}" != hhmm:
            continue
        if date_symbol is not None:
            try:
                resolved = resolve(date_symbol, ctx)
            except SymbolError:
                return None
            if resolved.candidates and local.date() not in resolved.candidates:
                continue
        hits.append(i)
    return hits[0] if len(hits) == 1 else None


def as_option(occ: Occurrence) -> dict[str, Any]:
    """A choice entry: enough to find the occurrence again, and to label its button."""
    return {
        "uid": occ.uid,
        "recurrence_id": occ.recurrence_id,
        "title": occ.title,
        "start": occ.start.isoformat(),
        "end": occ.end.isoformat(),
        "all_day": occ.all_day,
        "calendar": occ.calendar,
    }


def refind(queries: QueryService, option: dict[str, Any], ctx: TimeContext) -> Occurrence | None:
    """The stored option's occurrence as it is now (None when it was changed meanwhile)."""
    start = _parse(option.get("start"), ctx)
    end = _parse(option.get("end"), ctx)
    if start is None or end is None:
        return None
    for occ in queries.between(start, max(end, start + timedelta(seconds=1))):
        same_series = occ.uid == option.get("uid") and occ.recurrence_id == option.get("recurrence_id")
        if same_series and occ.start.isoformat() == option.get("start"):
            return occ
    return None


def _parse(value: Any, ctx: TimeContext) -> datetime | None:
    try:
        text = str(value)
        if len(text) == 10:
            return day_start(date.fromisoformat(text), ctx.tz)
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=ctx.tz)
