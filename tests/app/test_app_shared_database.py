"""The app and other processes on one database (issue 19, item 0), with the real window.

Tried as a new user would: the app open on ``F``, an import, a file dialog browsing F's
folder (and one plain read of F, what a type sniff or a hash does), then ``richeng --db F
calendars list`` in a terminal. Before the file guard that deleted the app's ``-wal`` and
``-shm`` and the app's next write broke the file. Here the app keeps writing afterwards, a
CLI ``events add`` shows up in the open window, a CLI ``undo`` and a sync in another process
too, and the file passes ``PRAGMA integrity_check`` with nothing lost.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from agent.store.db import Store
from agent.store.profiles import ensure_profile
from app.io.import_export import import_all
from app.write_path import Operations
from tests.support.caldav_server import CalDavServer, Device, running_radicale
from tests.support.chat_fixtures import add_event
from tests.support.clock import NOW
from tests.support.store_files import write_ics

CLI = [sys.executable, "-c", "import sys; from agent.cli.main import main; sys.exit(main(sys.argv[1:]))"]
SHOWN_WITHIN_MS = 10_000  # a wait bound, not a measurement: the watcher polls once a second
TOMORROW = (NOW + timedelta(days=1)).date()


def _cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    common = ["--db", str(db), "--now", NOW.isoformat(), "--tz", "Asia/Shanghai"]
    done = subprocess.run([*CLI, *common, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def _ics(path: Path, count: int) -> Path:
    return write_ics(path, count, datetime(2026, 12, 2, 1, 0), title=path.stem)


def _on_a_worker(store: Store, profile: int, path: Path, calendar: str) -> None:
    """An import on a thread of its own, so its connection is new, as the app's pool threads'."""
    outcome: list[Any] = []

    def work() -> None:
        generator = import_all(Operations(store, profile), [str(path)], calendar)
        try:
            while True:
                next(generator)
        except StopIteration as done:
            outcome.extend(done.value)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert outcome and outcome[0].error is None, outcome


def _browse_folder(qtbot: Any, window: Any, folder: Path) -> None:
    """Qt's own file dialog listing the database's folder until it has loaded it (icons and
    types included), then one plain read of the file, as a type sniff does."""
    from PySide6.QtWidgets import QFileDialog, QFileSystemModel

    dialog = QFileDialog(window, "Import", str(folder))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    model = dialog.findChild(QFileSystemModel)
    assert model is not None
    with qtbot.waitSignal(model.directoryLoaded, timeout=5000, raising=False):  # may have loaded already
        dialog.show()
    qtbot.wait(300)  # the icon and type look-ups run after the listing
    dialog.close()
    for side in ("", "-wal", "-shm"):
        with open(f"{folder / 'richeng.sqlite3'}{side}", "rb") as handle:
            handle.read(100)


def _shown_titles(window: Any) -> set[str]:
    view = window.calendar.current_view()
    return {item.event.occ.title for item in view.visible_items() if getattr(item, "event", None) is not None}


def _integrity(db: Path) -> tuple[str, list[str]]:
    conn = sqlite3.connect(db)
    try:
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
        return verdict, sorted(row[0] for row in conn.execute("SELECT title FROM events"))
    finally:
        conn.close()


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> Iterator[Any]:
    from app.application import build_context
    from app.main_window import MainWindow

    store = Store(tmp_path / "richeng.sqlite3")
    ctx = build_context(store, ensure_profile(store), tz="Asia/Shanghai", now=NOW)
    win = MainWindow(ctx)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()
    store.close()


def test_a_cli_beside_the_open_app_damages_nothing_and_its_event_shows(qtbot: Any, window: Any, tmp_path: Path) -> None:
    ctx = window.ctx
    db = tmp_path / "richeng.sqlite3"
    _on_a_worker(ctx.store, ctx.profile_id, _ics(tmp_path / "first.ics", 100), "Imported")
    _browse_folder(qtbot, window, tmp_path)
    assert "Imported" in _cli(db, "calendars", "list").stdout
    _on_a_worker(ctx.store, ctx.profile_id, _ics(tmp_path / "second.ics", 50), "Imported")  # new connection
    add_event(ctx.store, ctx.profile_id, "UI thread write", NOW + timedelta(hours=2), NOW + timedelta(hours=3))
    _cli(db, "events", "add", "--title", "从终端加的会", "--date", "D+1", "--time", "15:00")
    window.calendar.set_anchor(TOMORROW)
    qtbot.waitUntil(lambda: "从终端加的会" in _shown_titles(window), timeout=SHOWN_WITHIN_MS)
    _cli(db, "undo")  # the CLI takes its own add back; the open window follows
    qtbot.waitUntil(lambda: "从终端加的会" not in _shown_titles(window), timeout=SHOWN_WITHIN_MS)
    _on_a_worker(ctx.store, ctx.profile_id, _ics(tmp_path / "third.ics", 10), "Imported")
    window.close()
    ctx.store.close()
    verdict, titles = _integrity(db)
    assert verdict == "ok"
    assert len(titles) == 161 and "UI thread write" in titles and "从终端加的会" not in titles


@pytest.fixture(scope="module")
def server() -> Iterator[CalDavServer]:
    with running_radicale() as running:
        yield running


_SYNC = """
import sys
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.sync.accounts import RemoteInfo
from agent.sync.engine import SyncEngine
from agent.sync.secrets import MemorySecrets, keyring_user
db, url, user, password, remote = sys.argv[1:]
store = Store(db)
profile = ensure_profile(store)
engine = SyncEngine(store, profile, MemorySecrets({keyring_user(url, user): password}))
account = engine.accounts.add(url, user, name="home")
engine.accounts.map(account, RemoteInfo(remote, "Team", ("VEVENT",)), "Team")
report = engine.run()
store.close()
print(report.pulled)
"""


def test_a_sync_in_another_process_beside_the_open_app(qtbot: Any, window: Any, tmp_path: Path, server: CalDavServer) -> None:
    ctx = window.ctx
    db = tmp_path / "richeng.sqlite3"
    remote = server.new_calendar("Team")
    other = Device(server, remote)
    start = NOW.replace(hour=9) + timedelta(days=1)
    for index in range(5):
        other.add(f"server event {index}", start + timedelta(hours=index), start + timedelta(hours=index, minutes=30))
    other.sync()
    other.close()
    _on_a_worker(ctx.store, ctx.profile_id, _ics(tmp_path / "mine.ics", 20), "Imported")
    _browse_folder(qtbot, window, tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", _SYNC, str(db), server.url, server.user, server.password, remote],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    window.calendar.set_anchor(TOMORROW)
    qtbot.waitUntil(lambda: "server event 4" in _shown_titles(window), timeout=SHOWN_WITHIN_MS)
    _on_a_worker(ctx.store, ctx.profile_id, _ics(tmp_path / "after.ics", 5), "Imported")
    window.close()
    ctx.store.close()
    verdict, titles = _integrity(db)
    assert verdict == "ok" and len(titles) == 30
