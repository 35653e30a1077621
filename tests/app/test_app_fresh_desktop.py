"""Issue 15, "Fresh desktop": ``richeng`` without a display, and ``richeng --help``.

Without a display Qt used to abort the process (SIGABRT, Qt's own multi-line message).
The app now says in one line that no display was found and what to use instead, and exits
2. ``--help`` lists the app's own options next to the CLI's commands and says that no
command opens the app.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.display import display_problem
from app.launcher import APP_FLAGS, APP_VALUE_OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def run_richeng(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def bare_env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_DATA_HOME"] = str(tmp_path)  # never the real user's database
    return env


def test_no_display_prints_one_clear_line_and_exits_2(tmp_path: Path) -> None:
    done = run_richeng("--db", str(tmp_path / "r.sqlite3"), env=bare_env(tmp_path))
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no display found" in lines[0]
    assert "--offscreen" in lines[0] and "CLI" in lines[0]
    assert done.stdout == ""


def test_display_rule() -> None:
    linux = "linux"
    assert display_problem({}, linux) is not None
    assert display_problem({"DISPLAY": ":0"}, linux) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, linux) is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, linux) is None
    assert display_problem({"QT_QPA_PLATFORM": "xcb"}, linux) is not None  # xcb asked for, no X server
    assert display_problem({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, linux) is not None
    assert display_problem({}, "darwin") is None and display_problem({}, "win32") is None


def test_help_lists_the_app_options_and_says_no_command_opens_the_app(tmp_path: Path) -> None:
    done = run_richeng("--help", env=bare_env(tmp_path))
    assert done.returncode == 0
    text = done.stdout
    for option in sorted(APP_VALUE_OPTIONS | APP_FLAGS):
        assert option in text, option
    assert "--lang" in text and "--offscreen" in text
    assert "no command" in text.lower() and "opens the" in text.lower()


def test_a_bad_now_is_one_line_and_a_good_one_reaches_the_store(tmp_path: Path) -> None:
    """``--now`` (demos, smoke tests): a malformed value used to end in a ValueError
    traceback; a good one set the window's clock but not the store's, so the undo journal
    and the daily backup went by the real clock."""
    from datetime import datetime

    from agent.store.db import Store
    from agent.store.profiles import ensure_profile
    from app.application import build_context

    done = run_richeng("--offscreen", "--db", str(tmp_path / "r.sqlite3"), "--now", "next tuesday", env=bare_env(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--now" in done.stderr and "Traceback" not in done.stderr
    store = Store(tmp_path / "s.sqlite3")
    fixed = datetime.fromisoformat("2031-05-06T07:08:09+08:00")
    ctx = build_context(store, ensure_profile(store), "Asia/Shanghai", fixed)
    assert ctx.now() == fixed and store.clock() == fixed
    store.close()
