"""The tags of a quick-add sentence: ``#word`` ("Dentist tomorrow 3pm #health", "明天下午三点
看牙 #健康"), read before the day and time so that a tag is never a title word.

A tag starts with ``#`` at the start, after a space or after a Chinese character (看牙#健康),
never after a Latin letter or digit ("C#", "a#b"), and runs to the next space or
punctuation mark; it needs a letter ("Room #3" keeps its number). Its characters are
blanked with spaces, so every other word keeps its place and the sentence reader's spans
still point into the text as typed (``parse_quick`` adds a ``tags`` span for each).
"""

from __future__ import annotations

import functools
import re

_STOP = r"\s#,，。、;；:：!！?？()（）\[\]【】\"'“”‘’<>《》"


@functools.cache
def _tag() -> re.Pattern[str]:
    """Compiled on first use: quick add's module import stays free of it (start-up)."""
    return re.compile(rf"(?<![A-Za-z0-9_&#])#([^{_STOP}]+)")


def hashtags(text: str) -> tuple[str, tuple[str, ...], tuple[tuple[int, int], ...]]:
    """``text`` with its tags blanked, the tags (in order, without ``#``, each once) and
    where each was typed (start, end). No ``#``: the text itself, nothing else."""
    if "#" not in text:
        return text, (), ()
    blanked = text
    found: list[str] = []
    spans: list[tuple[int, int]] = []
    for match in _tag().finditer(text):
        word = match.group(1).rstrip(".")
        if not any(char.isalpha() for char in word):
            continue
        start, end = match.start(), match.start(1) + len(word)
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
        spans.append((start, end))
        if word not in found:
            found.append(word)
    return blanked, tuple(found), tuple(spans)


__all__ = ["hashtags"]
