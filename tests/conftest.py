"""Shared fixtures for the headless core: a fresh store, a profile, and fixed clocks.

Nothing here reads the real clock for a decision: the reference instant is Monday
2026-11-30 10:00 in Asia/Shanghai. The user data dir is redirected into a temporary
folder for every test, so no test can touch a real ``richeng.sqlite3``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=SHANGHAI)  # a Monday
TODAY = date(2026, 11, 30)


def ctx_at(value: datetime, tz: ZoneInfo = SHANGHAI) -> TimeContext:
    return TimeContext(now=value, tz=tz)


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """platformdirs reads XDG_* on every call: point them at a throwaway folder."""
    base = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(base / "cache"))
    return base


@pytest.fixture
def store() -> Iterator[Store]:
    s = Store(":memory:")
    yield s
    s.close()


@pytest.fixture
def file_store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "richeng.sqlite3")
    yield s
    s.close()


@pytest.fixture
def profile_id(store: Store) -> int:
    return ensure_profile(store)


@pytest.fixture
def other_profile_id(store: Store, profile_id: int) -> int:
    return ensure_profile(store, "other")


@pytest.fixture
def ctx() -> TimeContext:
    return TimeContext(now=NOW, tz=SHANGHAI)


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "cli.sqlite3"
