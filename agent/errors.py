"""Errors that carry a message fit to show a person (or, for symbols, a model).

The CLI and the app catch ``UserFacingError`` and print its message on one line; anything
else escaping is a bug, and the CLI still turns it into one line rather than a traceback.
"""

from __future__ import annotations


class UserFacingError(Exception):
    """An error whose ``str()`` is a complete, friendly, one-line explanation."""


class StoreError(UserFacingError):
    """The database could not be opened or used (corrupt, locked, newer schema)."""


class NewerSchemaError(StoreError):
    """The file was written by a newer Richeng; we refuse to touch it."""


class NotFoundError(UserFacingError):
    """A named thing (calendar, event, memory) does not exist in this profile."""


class ValidationError(UserFacingError):
    """Input that cannot be stored as given (empty title, end before start ...)."""
