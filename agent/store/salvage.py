"""Salvaging a damaged database in place, for the app's start-up dialog (issue 19, item 0).

``richeng db recover`` writes what SQLite can still read into a new file and leaves the
choice of what to do with it to the user at a terminal. The app offers the same in one
button: recover into a new file beside the damaged one, move the damaged file (with its
``-wal`` and ``-shm``) aside under a name that is never reused, then put the recovered file
where the app looks for its database. Nothing is deleted, and if the recovery fails the
damaged file is still exactly where and as it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from agent.errors import StoreError
from agent.store.recover import RecoveryReport, recover

STAMP = "%Y%m%dT%H%M%SZ"
SIDE_FILES = ("-wal", "-shm", "-journal")


@dataclass(frozen=True)
class Salvaged:
    report: RecoveryReport
    damaged_kept_as: Path


def free_name(path: Path, label: str, now: datetime) -> Path:
    """``<name>.<label>-<UTC stamp>``, with ``-2``, ``-3`` … until neither it nor any of its
    side files exists: a kept copy is never overwritten, even twice in one second."""
    stem = f"{path.name}.{label}-{now.astimezone(UTC).strftime(STAMP)}"
    candidate, counter = path.with_name(stem), 1
    while any(Path(f"{candidate}{extra}").exists() for extra in ("", *SIDE_FILES)):
        counter += 1
        candidate = path.with_name(f"{stem}-{counter}")
    return candidate


def move_aside(path: Path, target: Path) -> None:
    """Rename ``path`` and its side files to ``target`` without replacing anything there:
    ``os.link`` fails on an existing name, where ``os.replace`` would overwrite it."""
    for extra in ("", *SIDE_FILES):
        source = Path(f"{path}{extra}")
        if source.exists():
            os.link(source, Path(f"{target}{extra}"))
            source.unlink()


def salvage_in_place(path: Path, now: datetime) -> Salvaged:
    """Recover ``path`` into a new file, keep the damaged one aside, and put the new one in
    its place. Raises ``StoreError`` (with the damaged file untouched) when recovery fails."""
    recovered = free_name(path, "recovered", now)
    report = recover(path, recovered)
    aside = free_name(path, "damaged", now)
    try:
        move_aside(path, aside)
        os.replace(recovered, path)
    except OSError as exc:
        raise StoreError(f"could not put the recovered file in place of {path}: {exc.strerror}; it is at {recovered}") from None
    return Salvaged(report, aside)
