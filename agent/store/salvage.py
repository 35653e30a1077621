"""Salvaging a damaged database in place, for the app's start-up dialog (issue 19, item 0).

``richeng db recover`` writes what SQLite can still read into a new file and leaves the
choice of what to do with it to the user at a terminal. The app offers the same in one
button: recover into a new file beside the damaged one, keep the damaged file (with its
``-wal`` and ``-shm``) aside under a name no file has (``backups.keep_aside``, as a restore
does), then put the recovered file where the app looks for its database. Nothing is deleted,
and if the recovery fails the damaged file is still exactly where and as it was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from agent.errors import StoreError
from agent.store.backups import keep_aside
from agent.store.recover import RecoveryReport, default_output, recover


@dataclass(frozen=True)
class Salvaged:
    report: RecoveryReport
    damaged_kept_as: Path


def salvage_in_place(path: Path, now: datetime) -> Salvaged:
    """Recover ``path`` into a new file, keep the damaged one aside, and put the new one in
    its place. Raises ``StoreError`` (with the damaged file untouched) when recovery fails."""
    recovered = default_output(path, now)
    report = recover(path, recovered)
    try:
        aside = keep_aside(path, now, "damaged")
        os.replace(recovered, path)
    except OSError as exc:
        raise StoreError(
            "store.salvage_replace_failed", path=str(path), reason=exc.strerror or str(exc), recovered=str(recovered)
        ) from None
    return Salvaged(report, aside)
