"""Limits and cleaning for the short texts a person gives names to: one place, so the CLI,
the services and the importer refuse or mend the same things the same way.

Refuse (``check_text``) where a person is typing and can fix it; mend (``clean_title``)
what a model, a sentence or a file hands over, where refusing would lose the event.
"""

from __future__ import annotations

import unicodedata

from agent.errors import ValidationError

MAX_CALENDAR_NAME = 100  # characters
MAX_TITLE = 200  # the command service's limit for an event title
MAX_ARGUMENT = 10_000  # any single command-line value; longer is a mistake, not a name


def has_surrogates(text: str) -> bool:
    """Undecodable bytes in argv arrive as lone surrogates (Python's surrogateescape)."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


# Codes (not UTF-8, NUL, too long) by the thing checked: each has messages of its own, so
# each language words the thing its own way.
_CHECKS = {
    "calendar_name": (
        "services.calendar_name_not_utf8",
        "services.calendar_name_nul",
        "services.calendar_name_too_long",
    ),
    "event_title": ("services.event_title_not_utf8", "services.event_title_nul", "services.event_title_too_long"),
}


def check_text(text: str, what: str, limit: int) -> str:
    """``text`` stripped, or a ValidationError that says what is wrong with it and the limit.
    ``what`` names the thing: ``calendar_name`` or ``event_title``."""
    not_utf8, nul, too_long = _CHECKS[what]
    if has_surrogates(text):
        raise ValidationError(not_utf8)
    if "\x00" in text:
        raise ValidationError(nul)
    text = text.strip()
    if len(text) > limit:
        raise ValidationError(too_long, limit=limit, length=len(text))
    return text


#: Format characters a title keeps: the joiners that build emoji and Indic conjuncts
#: (👨‍👩‍👧 is three people and two ZWJs). Every other format character (bidi overrides that
#: turn "gpj.exe" around, BOMs, soft hyphens) is dropped.
_KEPT_FORMAT = {"\u200c", "\u200d"}


def clean_title(title: str | None, limit: int = MAX_TITLE) -> str:
    """A title made storable, for every writer (chat, CLI, quick add, edits): undecodable
    characters become U+FFFD, tabs and line breaks become spaces, other controls and format
    characters go, runs of blanks collapse, and an over-long title is cut at ``limit``
    characters with an ellipsis. The one implementation (issue 22: there were two)."""
    if not title:
        return ""
    out: list[str] = []
    for ch in title:
        if "\ud800" <= ch <= "\udfff":
            out.append("\ufffd")
        elif ch.isspace():
            out.append(" ")
        elif unicodedata.category(ch) == "Cc" or (unicodedata.category(ch) == "Cf" and ch not in _KEPT_FORMAT):
            continue
        else:
            out.append(ch)
    cleaned = " ".join("".join(out).split())
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
    return cleaned
