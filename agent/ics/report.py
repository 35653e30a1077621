"""What an import did: counts, the components not imported, and what was repaired."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.store.changes import ChangeSet


@dataclass(frozen=True)
class ImportProblem:
    """One component not imported (in ``errors``) or repaired (in ``repairs``), and why."""

    uid: str | None
    line: int | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "line": self.line, "message": self.message}


@dataclass
class ImportReport:
    """What an import did. ``skipped`` = unchanged + older + VTODO + other components."""

    imported: int
    updated: int
    skipped: int
    errors: list[ImportProblem]
    todos: int = 0
    unchanged: int = 0
    older: int = 0
    other: int = 0
    removed_overrides: int = 0
    warnings: list[ImportProblem] = field(default_factory=list)
    calendars: list[str] = field(default_factory=list)
    changes: ChangeSet = field(default_factory=ChangeSet)
    encoding: str = "utf-8"

    @property
    def repairs(self) -> list[ImportProblem]:
        """What was repaired or dropped inside otherwise imported events (same list as ``warnings``)."""
        return self.warnings

    def to_json(self) -> dict[str, Any]:
        """The four counts; ``repairs`` and ``encoding`` only when there is something to say."""
        out: dict[str, Any] = {
            "imported": self.imported,
            "updated": self.updated,
            "skipped": self.skipped,
            "errors": [problem.to_json() for problem in self.errors],
        }
        if self.warnings:
            out["repairs"] = [problem.to_json() for problem in self.warnings]
        if self.encoding not in ("utf-8", "utf-8-sig"):
            out["encoding"] = self.encoding
        return out
