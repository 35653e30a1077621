"""The app's import takes the same safety copy as the CLI's: a large import into a store
that holds events is backed up first (issue 11, docs/backups.md)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from agent.store.backups import IMPORT_BACKUP_MIN_EVENTS, list_backups
from app.io.import_export import import_all
from tests.support.chat_fixtures import add_event
from tests.support.clock import NOW
from tests.support.store_files import write_ics


def _ics(path: Path, count: int) -> Path:
    return write_ics(path, count, datetime(2027, 1, 4, 9, 0))


def _drain(generator: Any) -> Any:
    while True:
        try:
            next(generator)
        except StopIteration as done:
            return done.value


def test_a_large_app_import_is_backed_up_first(app_ctx: Any, tmp_path: Path) -> None:
    store = app_ctx.store
    store.backups = True  # temp-folder stores skip automatic backups unless asked
    add_event(store, app_ctx.profile_id, "已有的会", NOW + timedelta(days=1), NOW + timedelta(days=1, hours=1))
    small = _drain(import_all(app_ctx.ops, [str(_ics(tmp_path / "small.ics", 5))]))
    assert small[0].error is None and list_backups(store.file) == []
    big = _drain(import_all(app_ctx.ops, [str(_ics(tmp_path / "big.ics", IMPORT_BACKUP_MIN_EVENTS + 1))]))
    assert big[0].error is None and big[0].report.imported == IMPORT_BACKUP_MIN_EVENTS + 1
    assert [backup.kind for backup in list_backups(store.file)] == ["import"]
