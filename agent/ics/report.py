"""What an import did: counts, the components not imported, what was repaired, and what was
left out on purpose (``skips``: each with the rule that left it out, so a report can say
which events "unchanged or skipped" were and why instead of a bare count)."""

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


#: Why a component was skipped (``ImportSkip.reason``), one code per rule of docs/ics.md:
#: ``unchanged`` equal to the stored copy (apart from DTSTAMP) and in the same calendar;
#: ``older`` a lower SEQUENCE / earlier LAST-MODIFIED than the stored copy, which is kept;
#: ``duplicate`` the same UID and RECURRENCE-ID again in the file, the newer copy was imported;
#: ``task`` a VTODO (Richeng has no tasks); ``other`` any other component (VJOURNAL, VFREEBUSY ...);
#: ``read_only`` the stored copy is in a read-only calendar (a subscription, a read-only shared
#: calendar: agent/store/read_only.py), which only its own sync or refresh changes.
SKIP_REASONS = ("unchanged", "older", "duplicate", "task", "other", "read_only")


@dataclass(frozen=True, slots=True)  # a re-import of a big file holds one per event
class ImportSkip:
    """One component the import left out on purpose, and which rule did (``reason``)."""

    uid: str | None
    line: int | None
    title: str
    reason: str  # one of SKIP_REASONS
    component: str = "VEVENT"

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "line": self.line, "title": self.title, "reason": self.reason, "component": self.component}


@dataclass
class ImportReport:
    """What an import did. ``skipped`` = unchanged + older + in-file duplicates + VTODO + other
    components, and ``skips`` names each of them (``len(skips) == skipped``)."""

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
    skips: list[ImportSkip] = field(default_factory=list)
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
