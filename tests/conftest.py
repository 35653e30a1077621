"""Fixtures every test folder shares: a fresh store, a profile, the fixed clock's context.

Nothing here reads the real clock for a decision: the reference instant is Monday
2026-11-30 10:00 in Asia/Shanghai (tests/support/clock.py). The user data dir is redirected into a temporary
folder for every test, so no test can touch a real ``richeng.sqlite3``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext
from tests.support.clock import NOW, SHANGHAI


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
