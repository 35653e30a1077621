"""One catalogue entry: the same message in Chinese and in English."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    zh: str
    en: str

    def text(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en

    def __format__(self, spec: str) -> str:
        """As a parameter of another message: ``{what:zh}`` / ``{what:en}`` pick the language, so
        a phrase (a file's kind, a nested error) reads in the reader's language too."""
        return self.text(spec or "en")
