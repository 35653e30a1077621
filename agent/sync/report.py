"""What a sync run tells its caller: the counts, the changes it made here, and one line per
thing it could not do (``SyncProblem``), in the reader's language.

Apart from the engine so the per-calendar run (``calendar_run``) and the engine that drives
it can both fill one report without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.messages.catalogue import is_code, render
from agent.store.changes import ChangeSet


@dataclass(frozen=True)
class SyncProblem:
    """One thing a run could not do. ``message`` is the English line (the JSON's, the
    CLI's); ``code`` and ``params`` render it in the reader's language (``text``)."""

    account: str
    calendar: str | None
    uid: str | None
    message: str
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, account: str, calendar: str | None, uid: str | None, code: str, /, **params: Any) -> SyncProblem:
        return cls(account, calendar, uid, render(code, "en", **params), code, params)

    def to_json(self) -> dict[str, Any]:
        return {"account": self.account, "calendar": self.calendar, "uid": self.uid, "message": self.message}

    def text(self, lang: str = "en") -> str:
        where = " / ".join(part for part in (self.account, self.calendar, self.uid) if part)
        message = render(self.code, lang, **self.params) if is_code(self.code) else self.message
        return f"{where}: {message}"

    def __str__(self) -> str:
        return self.text("en")


@dataclass
class SyncReport:
    """What a run did. ``conflicts`` counts all open conflicts after it, new or older."""

    pulled: int = 0
    pushed: int = 0
    conflicts: int = 0
    new_conflicts: int = 0
    errors: list[SyncProblem] = field(default_factory=list)
    changes: ChangeSet = field(default_factory=ChangeSet)

    def to_json(self) -> dict[str, Any]:
        return {
            "pulled": self.pulled,
            "pushed": self.pushed,
            "conflicts": self.conflicts,
            "new_conflicts": self.new_conflicts,
            "errors": [problem.to_json() for problem in self.errors],
        }
