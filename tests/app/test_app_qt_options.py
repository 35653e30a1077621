"""Issue 23, defect 7: Qt's own command-line options reach QApplication.

``richeng -style Fusion`` used to go to the CLI (it is not one of the app's options) and
exit 2 with "invalid choice: 'Fusion'". The launcher now knows Qt's options (QGuiApplication's,
QApplication's and the X11 plugin's), opens the window for them, and the app hands them to
QApplication, which applies and removes them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.launcher import split_qt_options, wants_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "app_args", "qt_args"),
    [
        (["-style", "Fusion"], [], ["-style", "Fusion"]),
        (["-style=Fusion", "-reverse"], [], ["-style=Fusion", "-reverse"]),
        (
            ["--db", "x.db", "-platform", "offscreen", "--lang", "zh_CN", "-widgetcount"],
            ["--db", "x.db", "--lang", "zh_CN"],
            ["-platform", "offscreen", "-widgetcount"],
        ),
        (
            ["-stylesheet", "a.qss", "-session", "s1", "-geometry", "960x640+0+0"],
            [],
            ["-stylesheet", "a.qss", "-session", "s1", "-geometry", "960x640+0+0"],
        ),
        (["-qmljsdebugger=port:1234", "-platformtheme", "gtk3"], [], ["-qmljsdebugger=port:1234", "-platformtheme", "gtk3"]),
        (["--platform", "offscreen"], [], ["--platform", "offscreen"]),  # Qt reads a double dash too
        (["--tz", "UTC", "-reverse", "--quit-after=5"], ["--tz", "UTC", "--quit-after=5"], ["-reverse"]),
    ],
)
def test_split_qt_options(argv: list[str], app_args: list[str], qt_args: list[str]) -> None:
    assert split_qt_options(argv) == (app_args, qt_args)


def test_qt_options_open_the_app_and_commands_still_run_the_cli() -> None:
    assert not wants_cli(["-style", "Fusion"])
    assert not wants_cli(["-reverse", "--lang", "en", "-style=Windows"])
    assert not wants_cli(["--offscreen", "-platform", "offscreen", "--quit-after", "10"])
    assert wants_cli(["list"]) and wants_cli(["-style", "Fusion", "list"]) and wants_cli(["--bogus"])


def _env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # never the real user's database or settings
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_richeng_dash_style_fusion_starts_and_exits_0(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "-style", "Fusion", "-platform", "offscreen", "--db", str(tmp_path / "r.sqlite3"),
         "--quit-after", "300"],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "invalid choice" not in done.stderr


PROBE = """
import sys
from PySide6.QtWidgets import QApplication
from app import application
from app.main_window import MainWindow

def show(self):
    app = QApplication.instance()
    print("STYLE", app.style().name().lower(), "RTL", app.isRightToLeft(), "PLATFORM", app.platformName(), flush=True)

MainWindow.show = show
sys.exit(application.run(sys.argv[1:]))
"""


def test_style_and_reverse_reach_qapplication(tmp_path: Path) -> None:
    """``-style Windows`` wins over the app's own Fusion; ``-reverse`` lays out right to left;
    ``-platform offscreen`` needs no display (the display check reads it as Qt will)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "-platform", "offscreen", "-style", "Windows", "-reverse",
         "--db", str(tmp_path / "r.sqlite3"), "--quit-after", "100"],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "STYLE windows RTL True PLATFORM offscreen" in done.stdout, done.stdout + done.stderr
