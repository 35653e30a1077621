"""The single definition of the canonical time-symbol grammar.

The language model never computes dates; it emits short canonical symbols and
code turns them into intervals. That only works if the model, the tool
schemas, the resolver and the docs all agree on one grammar, so every regex
lives here and everything else is built from these fragments.

Exported ``*_PATTERN`` strings are written for two consumers at once: Python's
``re`` and JSON-schema ``pattern`` (as turned into a GBNF grammar by
llama.cpp). Hence they are anchored with ``^...$``, use ``[0-9]`` instead of
``\\d`` (llama.cpp rejects ``\\d``), contain no lookarounds and no named
groups. Named groups are only used in the private parser regexes further
down, which are assembled from the very same fragments.
"""

from __future__ import annotations

import re
from typing import Any, Final

from agent.errors import UserFacingError
from agent.messages.catalogue import render

# --- fragments ---------------------------------------------------------------
# Each fragment is a regex source without anchors. Parenthesised groups are
# plain (numbered) groups so the fragments can be embedded anywhere.

_YYYY: Final = "[0-9]{4}"
_MM: Final = "(0[1-9]|1[0-2])"
_DD: Final = "(0[1-9]|[12][0-9]|3[01])"
_LUNAR_DD: Final = "(0[1-9]|[12][0-9]|30)"
_SIGN: Final = "[+-]"
_DAY_COUNT: Final = "[0-9]{1,4}"  # bounded so offsets cannot overflow dates
_WEEK_COUNT: Final = "[0-9]{1,3}"
_MONTH_COUNT: Final = "[0-9]{1,3}"
_HH: Final = "([01][0-9]|2[0-3])"
_MIN: Final = "[0-5][0-9]"
# Holiday names: CJK ideographs, Latin letters (incl. accented), digits and a
# few inner punctuation marks. A positive class (not ``.``) because inside a
# JSON string a free ``"`` or backslash would let a constrained model break
# the JSON; spaces are allowed inside ("National Day") but not first. The
# length cap keeps the llama.cpp grammar small.
_NAME_START: Final = "[A-Za-z0-9À-ɏ一-鿿]"
_NAME_CHAR: Final = "[A-Za-z0-9À-ɏ一-鿿'()（）·. -]"
_HOLIDAY_NAME: Final = f"{_NAME_START}{_NAME_CHAR}{{0,39}}"

DAY_OFFSET: Final = f"D{_SIGN}{_DAY_COUNT}"
WEEKDAY_IN_WEEK: Final = f"W[1-7]{_SIGN}{_WEEK_COUNT}"
WEEKDAY_NEXT: Final = "W[1-7]"
WEEKEND: Final = f"WE({_SIGN}{_WEEK_COUNT})?"
ISO_DATE: Final = f"{_YYYY}-{_MM}-{_DD}"
MONTH_DAY: Final = f"{_MM}-{_DD}"
MONTH_OFFSET: Final = f"M{_SIGN}{_MONTH_COUNT}"
YEAR_MONTH: Final = f"{_YYYY}-{_MM}"
HOLIDAY: Final = f"H:{_HOLIDAY_NAME}"
LUNAR: Final = f"L:{_MM}-{_LUNAR_DD}"
TIME: Final = f"{_HH}:{_MIN}"

# Symbols that always denote exactly one day; only these may carry a time.
SINGLE_DAY: Final = "|".join((DAY_OFFSET, WEEKDAY_IN_WEEK, WEEKDAY_NEXT, ISO_DATE, MONTH_DAY, LUNAR))
DATE: Final = "|".join((SINGLE_DAY, WEEKEND, MONTH_OFFSET, YEAR_MONTH, HOLIDAY))
INSTANT: Final = f"({SINGLE_DAY})T{TIME}"

# --- exported patterns (JSON-schema safe) ------------------------------------

DATE_SYMBOL_PATTERN: Final = f"^({DATE})$"
"""Any date symbol: single day, weekend, month or holiday period."""

TIME_PATTERN: Final = f"^{TIME}$"
"""A 24-hour wall-clock time, 00:00..23:59."""

INSTANT_PATTERN: Final = f"^{INSTANT}$"
"""A single-day date symbol joined to a time with ``T``."""

RANGE_BOUND_PATTERN: Final = f"^({DATE}|{INSTANT})$"
"""What a range query accepts as start or end: a date symbol or an instant."""

SYMBOL_PATTERN: Final = f"^({DATE}|{INSTANT}|{TIME})$"
"""Everything :func:`agent.timesym.resolve.resolve` accepts (canonical case)."""

WEEKDAY_NUMBERS: Final[dict[int, str]] = {
    1: "Monday",
    2: "Tuesday",
    3: "Wednesday",
    4: "Thursday",
    5: "Friday",
    6: "Saturday",
    7: "Sunday",
}

VALID_FORMS: Final = render("timesym.valid_forms")
"""Appended to every error so the model can correct itself in one step."""

GRAMMAR_SUMMARY: Final = """\
Time symbols (the tool computes dates; never write computed dates yourself unless the user gave them):
- D+n / D-n: n days from today (D+0 today, D+1 tomorrow).
- Wd: next weekday d, today included (d=1..7, Monday=1 ... Sunday=7).
- Wd+k / Wd-k: weekday d of the Monday-Sunday week k weeks away (W3+1 = Wednesday next week, W3+0 = this week's).
- WE / WE+k: Saturday+Sunday of this week / of the week k weeks away.
- YYYY-MM-DD; MM-DD (next such day, today included).
- M+n / M-n: a whole calendar month (M+0 this month); YYYY-MM.
- H:name: next official holiday period incl. adjusted days off (H:国庆, H:春节, H:中秋, H:元旦, H:清明, H:五一, H:端午).
- L:MM-DD: next lunar (农历) month-day (L:08-15 = 中秋).
- HH:MM: 24-hour time 00:00-23:59.
- <single-day symbol>THH:MM: an instant, e.g. D+1T15:00, W3+1T09:30, 2026-09-01T08:00.
Ranges are [start of start symbol, end of end symbol): D+1..D+1 = all of tomorrow, M+1..M+1 = all of next month; \
at most 366 days."""


class SymbolError(ValueError, UserFacingError):
    """The one error type for a bad symbol.

    Also a ``UserFacingError`` so the CLI/app print its message on one line.

    It lives next to the grammar (rather than in ``resolve``) so the holiday
    and lunar helpers can raise it without importing the resolver; ``resolve``
    re-exports it. The message is written for a model to read and fix its
    output, so it always says what was wrong and lists the valid forms.
    """

    symbol: str

    def __init__(self, symbol: str, code: str, /, *, valid_forms: bool = False, **params: Any) -> None:
        """``code`` names a ``timesym.*`` message (agent/messages/timesym.py) filled with
        ``params``; ``valid_forms`` appends the list of valid forms (``invalid``)."""
        UserFacingError.__init__(self, code, **params)
        self.symbol = symbol
        self.valid_forms = valid_forms

    @classmethod
    def invalid(cls, symbol: str, code: str, /, **params: Any) -> SymbolError:
        """Build an error whose message ends with the list of valid forms."""
        return cls(symbol, code, valid_forms=True, **params)

    def renamed(self, symbol: str) -> SymbolError:
        """The same error, about ``symbol`` (the whole instant a part of it failed in)."""
        return SymbolError(symbol, self.code, valid_forms=self.valid_forms, **self.params)

    @property
    def message(self) -> str:
        """The English message, as the model reads it."""
        return self.text("en")

    def text(self, lang: str = "en") -> str:
        problem = UserFacingError.text(self, lang)
        return f"{problem} {render('timesym.valid_forms', lang)}" if self.valid_forms else problem

    def __str__(self) -> str:
        return self.text("en")


# --- private parser regexes (named groups, same fragments) -------------------


def _full(source: str) -> re.Pattern[str]:
    return re.compile(source)


PARSERS: Final[dict[str, re.Pattern[str]]] = {
    "day_offset": _full(f"D(?P<sign>{_SIGN})(?P<n>{_DAY_COUNT})"),
    "weekday_in_week": _full(f"W(?P<d>[1-7])(?P<sign>{_SIGN})(?P<k>{_WEEK_COUNT})"),
    "weekday_next": _full("W(?P<d>[1-7])"),
    "weekend": _full(f"WE(?:(?P<sign>{_SIGN})(?P<k>{_WEEK_COUNT}))?"),
    "iso_date": _full(f"(?P<y>{_YYYY})-(?P<m>{_MM})-(?P<d>{_DD})"),
    "month_day": _full(f"(?P<m>{_MM})-(?P<d>{_DD})"),
    "month_offset": _full(f"M(?P<sign>{_SIGN})(?P<n>{_MONTH_COUNT})"),
    "year_month": _full(f"(?P<y>{_YYYY})-(?P<m>{_MM})"),
    "holiday": _full(f"H:(?P<name>{_HOLIDAY_NAME})"),
    "lunar": _full(f"L:(?P<m>{_MM})-(?P<d>{_LUNAR_DD})"),
}
"""Date-symbol parsers, tried with ``fullmatch``; their union is ``DATE``."""

SINGLE_DAY_FORMS: Final = frozenset({"day_offset", "weekday_in_week", "weekday_next", "iso_date", "month_day", "lunar"})

TIME_RE: Final = re.compile(f"(?P<h>{_HH}):(?P<m>{_MIN})")
INSTANT_RE: Final = re.compile(f"(?P<date>{SINGLE_DAY})T(?P<time>{TIME})")
# Looser shapes, used only to decide which targeted error message to give.
LOOSE_TIME_RE: Final = re.compile("(?P<h>[0-9]{1,2})[:：](?P<m>[0-9]{1,2})")
LOOSE_INSTANT_RE: Final = re.compile("(?P<date>.+?)[Tt ](?P<time>[0-9]{1,2}[:：][0-9]{1,2})")


def parse_date_form(symbol: str) -> tuple[str, re.Match[str]] | None:
    """Return the form name and match for a canonical date symbol, else None."""
    for form, rx in PARSERS.items():
        match = rx.fullmatch(symbol)
        if match is not None:
            return form, match
    return None


def normalize_case(symbol: str) -> str:
    """Accept lowercase prefix letters (``d+1``, ``we``, ``h:``, ``l:``, ``w3``,
    ``m-1``, ``...t15:00``) by upper-casing them.

    Small local models often lowercase when not grammar-constrained; the
    meaning is unambiguous, so refusing would only cost a retry. Holiday names
    after ``H:`` are left untouched.
    """
    s = symbol
    low = s[:2].lower()
    if low == "h:":
        return "H" + s[1:]
    if low == "l:":
        s = "L" + s[1:]
    elif low == "we" and (len(s) == 2 or s[2] in "+-"):
        s = "WE" + s[2:]
    elif s[:1] in ("d", "w", "m") and len(s) > 1 and (s[1] in "+-" or s[1].isdigit()):
        s = s[0].upper() + s[1:]
    # A lowercase instant separator: only when the tail is exactly HH:MM.
    if len(s) > 6 and s[-6] == "t" and TIME_RE.fullmatch(s[-5:]):
        s = s[:-6] + "T" + s[-5:]
    return s
