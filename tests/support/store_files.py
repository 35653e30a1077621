"""Real database files in every state the store must refuse or handle: healthy, damaged on
a chosen page, foreign, newer, read-only. Shared by the store-safety and backup tests."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from agent.services.memory import MemoryService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.migrations import known_version
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI

BASE = datetime(2026, 12, 1, 9, 0, tzinfo=SHANGHAI)


def make_store(path: Path, events: int = 400, memories: int = 3) -> Path:
    """A closed store with ``events`` events (every 50th weekly x4) and a few memories."""
    store = Store(path, backups=False)
    profile = ensure_profile(store)
    repo = EventRepo(store, profile)
    calendar = store.conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile,)).fetchone()[0]
    with store.transaction():
        for index in range(events):
            start = BASE + timedelta(hours=5 * index)
            rule = "FREQ=WEEKLY;COUNT=4" if index % 50 == 0 else None
            repo.save(
                build_event(f"event {index} {'x' * 40}", start, start + timedelta(hours=1), rrule=rule, stamp=BASE),
                calendar,
                "user",
            )
    for index in range(memories):
        MemoryService(store, profile).remember(f"记住 fact number {index}")
    store.close()
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def page_size(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:18], "big")


def leaf_pages(path: Path, table: str) -> list[tuple[int, int]]:
    """(page number, cells) of each leaf page of ``table``, from SQLite's dbstat."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [
            (int(p), int(n))
            for p, n in conn.execute(
                "SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", (table,)
            )
        ]
    finally:
        conn.close()


def overwrite_page(path: Path, page: int, length: int = 2000) -> None:
    """Overwrite ``length`` bytes from the start of ``page`` (1-based), as a disk fault would."""
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * page_size(path))
        handle.write(b"\xa5" * length)


def make_foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE bookmarks (url TEXT)")
    conn.execute("INSERT INTO bookmarks VALUES ('https://example.org')")
    conn.commit()
    conn.close()
    return path


def make_newer(path: Path) -> Path:
    make_store(path, events=3)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (?, 'later')", (known_version() + 1,))
    conn.commit()
    conn.close()
    return path


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make ``path`` truly unwritable for this process: the immutable attribute as root
    (permissions do not stop root), mode 0444 in a 0555 folder otherwise."""
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        if done.returncode != 0:
            pytest.skip("cannot make a file read-only as root here (no chattr +i)")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        return
    folder_mode = path.parent.stat().st_mode
    path.chmod(0o444)
    path.parent.chmod(0o555)
    try:
        yield
    finally:
        path.parent.chmod(folder_mode)
        path.chmod(0o644)


def folder_listing(path: Path) -> list[str]:
    return sorted(os.listdir(path.parent))


def write_ics(path: Path, count: int, start: datetime, title: str = "Item") -> Path:
    """``count`` half-hour events an hour apart from ``start`` (UTC), titled ``<title> <n>``."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
    for index in range(count):
        when = start + timedelta(hours=index)
        lines += ["BEGIN:VEVENT", f"UID:{path.stem}-{index}@test", f"DTSTART:{when:%Y%m%dT%H%M%S}Z",
                  f"DTEND:{when + timedelta(minutes=30):%Y%m%dT%H%M%S}Z", f"SUMMARY:{title} {index}", "END:VEVENT"]  # fmt: skip
    lines.append("END:VCALENDAR")
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path
