"""Limits and cleaning for the short texts a person gives names to: one place, so the CLI,
the services and the importer refuse or mend the same things the same way.

Refuse (``check_text``) where a person is typing and can fix it; mend (``clean_title``)
where the text comes from a file and refusing would lose an event.
"""

from __future__ import annotations

from agent.errors import ValidationError

MAX_CALENDAR_NAME = 100  # characters
MAX_TITLE = 200  # the command service's limit for an event title
MAX_ARGUMENT = 10_000  # any single command-line value; longer is a mistake, not a name

# C0 controls and DEL, except tab/newline (which ``clean_title`` turns into spaces).
_CONTROLS = {chr(c) for c in range(0x20)} | {"\x7f"}


def has_surrogates(text: str) -> bool:
    """Undecodable bytes in argv arrive as lone surrogates (Python's surrogateescape)."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def check_text(text: str, what: str, limit: int) -> str:
    """``text`` stripped, or a ValidationError that says what is wrong with it and the limit."""
    if has_surrogates(text):
        raise ValidationError(f"{what} is not valid UTF-8 text")
    if "\x00" in text:
        raise ValidationError(f"{what} contains a NUL character")
    text = text.strip()
    if len(text) > limit:
        raise ValidationError(f"{what} is at most {limit} characters (this one has {len(text)})")
    return text


def clean_title(text: str, limit: int = MAX_TITLE) -> tuple[str, list[str]]:
    """A title from a file made storable: controls (NUL included) become spaces, lone
    surrogates become U+FFFD, runs of blanks collapse, and an over-long title is cut at
    ``limit`` characters. Returns the text and what was done, for the import report."""
    notes: list[str] = []
    if has_surrogates(text):
        text = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
        notes.append("undecodable characters replaced")
    if any(ch in _CONTROLS and ch not in "\t\n\r" for ch in text):
        notes.append("control characters removed")
    cleaned = " ".join("".join(" " if ch in _CONTROLS else ch for ch in text).split())
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
        notes.append(f"title cut to {limit} characters")
    return cleaned, notes
