"""Day and time words a quick-add sentence holds that the parser could not place.

Why: an event written with "Dec 20" or "Wed" left in its title landed on another day without a
word (issue 28). A title may keep a day word on purpose (the other of two that disagree,
"Sunday brunch tomorrow"; a name such as 下午茶), and those are tokens the scanner read; what
is flagged here is only what no rule read at all and still looks like a day or a time, plus
the durations and city zones that had no clock time to attach to, and a weekday list said
with no "every" ("Tennis Tue Thu 7pm": every week, or this week once?). The caller refuses the
sentence with these words (problem ``unread``): nothing is guessed and nothing is written.
"""

from __future__ import annotations

from typing import Final

from agent.timesym import pattern_cache
from agent.timesym import sentence_words as S
from agent.timesym import words as W
from agent.timesym.patterns import MONTHS, alt
from agent.timesym.sentence_tokens import DurationTok, EndTok, RepeatTok, Tok, Token, ZoneTok

_D: Final = "[0-9一二三四五六七八九十两]"
#: What a day or time word looks like when no rule read it (checked on characters no token covers).
RESIDUE: Final = pattern_cache.compile(
    "|".join(
        [
            rf"(?<![a-z])(?:{MONTHS})\.?\s*[0-9]{{1,2}}(?:st|nd|rd|th)?(?![0-9a-z])",
            r"(?<![0-9a-z])[0-9]{1,2}(?::[0-9]{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])",
            r"(?<![0-9])[0-9]{1,2}:[0-9]{2}(?![0-9])",
            rf"(?<![a-z])(?:{alt(W.WEEKDAYS_EN)})s?(?![a-z])",
            r"(?<![a-z])(?:every|each)\s+(?:other\s+|[0-9]+\s+)?(?:day|week|month|year|weekday)s?(?![a-z])",
            r"(?<![a-z])(?:half|quarter)\s+(?:past|to)(?![a-z])",
            r"(?<![a-z])o'?clock(?![a-z])",
            rf"{_D}+\s*(?:点钟|点|時)(?:半|一刻|三刻|{_D}+分)?",
            r"(?:周|星期|礼拜)[一二三四五六日天]",
            rf"{_D}{{1,2}}\s*月\s*{_D}{{1,3}}\s*[日号]?",
            rf"每(?:个|隔)?{_D}*\s*(?:天|周|星期|礼拜|个月|月|年|工作日)",
        ]
    )
)


def unread_words(
    s: str, text: str, tokens: list[Token], segments: list[tuple[int, int]], used: list[Tok], *, repeat: bool = False
) -> tuple[str, ...]:
    """The words of ``text`` (folded: ``s``) left in the title's ``segments`` that are day or
    time words nobody read, in order. With a ``repeat``, an end it could not take (每天3次, or a
    count beside a last day) is one too."""
    covered = [False] * len(s)
    for tok in tokens:
        for i in range(tok.start, min(tok.end, len(s))):
            covered[i] = True
    found: list[tuple[int, str]] = []
    for a, b in segments:
        masked = "".join(ch if not covered[a + i] else "\x00" for i, ch in enumerate(s[a:b]))
        for m in RESIDUE.finditer(masked):
            found.append((a + m.start(), text[a + m.start() : a + m.end()].strip()))
    # what a rule read but nothing could attach: a length or a city's zone with no clock time
    for tok in tokens:
        unattached = tok not in used and (
            isinstance(tok, DurationTok)
            or (isinstance(tok, ZoneTok) and not tok.bare)
            or (isinstance(tok, RepeatTok) and tok.bare)  # "Tue Thu" with no "every": every week, or once?
            or (isinstance(tok, EndTok) and repeat)
        )
        if unattached and any(a <= tok.start and tok.end <= b for a, b in segments):
            found.append((tok.start, text[tok.start : tok.end].strip()))
    seen: list[str] = []
    for _pos, word in sorted(found):
        if word and word not in seen and not _title_word(word):
            seen.append(word)
    return tuple(seen)


def _title_word(word: str) -> bool:
    return any(name in word for name in S.TITLE_WORDS_ZH)
