"""One catalogue entry: the same message in Chinese and in English."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    zh: str
    en: str

    def text(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en
