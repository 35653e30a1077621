"""Errors that carry a message fit to show a person (or, for symbols, a model).

The CLI and the app catch ``UserFacingError`` and print its message on one line; anything
else escaping is a bug, and the CLI still turns it into one line rather than a traceback.
"""

from __future__ import annotations

from typing import Any

from agent.messages.catalogue import is_code, render


class UserFacingError(Exception):
    """An error whose ``str()`` is a complete, friendly, one-line explanation.

    Raised with a catalogue code and its parameters (``StoreError("store.read_only",
    path=p)``, agent/messages/): ``str()`` is the English line (what the CLI prints), and
    ``text(lang)`` the reader's own. A text that is not a code is shown as it is: data such
    as a server's error line, wrapped by a code's ``{text}`` parameter where it is shown.
    """

    def __init__(self, code: str = "", /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        code = getattr(self, "code", None)  # a subclass that also derives from ValueError may skip __init__
        if code is None:
            return Exception.__str__(self)
        if is_code(code):
            return render(code, lang, **self.params)
        return code

    def __str__(self) -> str:
        return self.text("en")


class StoreError(UserFacingError):
    """The database could not be opened or used (corrupt, locked, newer schema)."""


class NewerSchemaError(StoreError):
    """The file was written by a newer Richeng; we refuse to touch it."""


class NotFoundError(UserFacingError):
    """A named thing (calendar, event, memory) does not exist in this profile."""


class ValidationError(UserFacingError):
    """Input that cannot be stored as given (empty title, end before start ...)."""


class JournalError(UserFacingError):
    """An undo that cannot be done exactly; nothing was changed. The CLI shows these in both
    languages (they were bilingual before the catalogue, and ``richeng undo`` still is)."""
