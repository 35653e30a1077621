"""The week view's events, read through the real AT-SPI bus (issue 32, accessibility).

A screen reader on Linux does not see Qt's objects: it sees what Qt's AT-SPI bridge puts on
the accessibility bus. So this starts what a desktop would (a private D-Bus session, the
AT-SPI bus launcher, an X server) and the real app in a window, then reads the view's items
with ``pyatspi`` from the system Python, as Orca would. Skipped by name, with the line that
installs them, where Xvfb, the AT-SPI bus or python3-pyatspi is missing; CI installs them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

INSTALL = "sudo apt-get install xvfb dbus at-spi2-core python3-pyatspi"
BUS_LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
SYSTEM_PYTHON = Path("/usr/bin/python3")
NOW = "2026-12-01T10:00:00+08:00"
EVENTS = (("和张三开会", "2026-12-02", "15:00"), ("开周会", "2026-12-03", "09:30"), ("看牙医", "2026-12-04", "16:00"))

# Runs under the system Python (pyatspi is a Debian package, not on PyPI): prints one line
# "ROLE|NAME" per item of every list whose name says it is a view.
DUMP = r"""
import pyatspi
def walk(node, depth=0):
    if node is None or depth > 40:
        return
    if node.getRoleName() == "list" and node.name and ("视图" in node.name or "view" in node.name.lower()):
        for index in range(node.childCount):
            child = node.getChildAtIndex(index)
            print(node.name + "|" + child.getRoleName() + "|" + (child.name or ""))
        return
    for index in range(min(node.childCount, 200)):
        walk(node.getChildAtIndex(index), depth + 1)
for app in pyatspi.Registry.getDesktop(0):
    if app is not None and ("richeng" in (app.name or "").lower() or "日程" in (app.name or "")):
        walk(app)
"""


def _missing() -> str | None:
    if not sys.platform.startswith("linux"):
        return "AT-SPI is Linux's accessibility bus"
    if shutil.which("Xvfb") is None or shutil.which("dbus-daemon") is None or not BUS_LAUNCHER.exists():
        return f"Xvfb, D-Bus or the AT-SPI bus is not installed: {INSTALL}"
    probe = subprocess.run([str(SYSTEM_PYTHON), "-c", "import pyatspi"], capture_output=True, check=False)
    if not SYSTEM_PYTHON.exists() or probe.returncode != 0:
        return f"python3-pyatspi is not installed: {INSTALL}"
    return None


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@pytest.fixture
def desktop(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An X server and a D-Bus session with the AT-SPI bus: the environment to run in."""
    why = _missing()
    if why:
        pytest.skip(why)
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        display = pipe.readline().strip()
    read, write = os.pipe()
    bus = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--nosyslog", f"--print-address={write}"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        address = pipe.readline().strip()
    env = {key: value for key, value in os.environ.items() if key not in {"QT_QPA_PLATFORM", "PYTHONPATH", "NO_AT_BRIDGE"}}
    env.update(
        DISPLAY=f":{display}",
        DBUS_SESSION_BUS_ADDRESS=address,
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_RUNTIME_DIR=str(tmp_path / "run"),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    (tmp_path / "run").mkdir(mode=0o700)
    launcher = _start([str(BUS_LAUNCHER), "--launch-immediately"], env, tmp_path / "at-spi.log")
    try:
        yield env
    finally:
        for process in (launcher, bus, xvfb):
            _stop(process)


def test_the_week_views_events_are_read_out_on_the_at_spi_bus(desktop: dict[str, str], tmp_path: Path) -> None:
    db = tmp_path / "cal.sqlite3"
    for title, day, hour in EVENTS:
        subprocess.run(
            [sys.executable, "-m", "app.launcher", "events", "add", "--db", str(db), "--now", NOW]
            + ["--tz", "Asia/Shanghai", "--title", title, "--date", day, "--time", hour],
            check=True,
            env=desktop,
        )
    app_env = dict(desktop, QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1")
    app = _start(
        [sys.executable, "-m", "app.launcher", "--db", str(db), "--now", NOW, "--tz", "Asia/Shanghai"]
        + ["--lang", "zh_CN", "--quit-after", "120000"],
        app_env,
        tmp_path / "app.log",
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 90  # bounds a start that hangs; the outcome never depends on it
        while time.monotonic() < deadline and app.poll() is None:
            dump = subprocess.run(
                [str(SYSTEM_PYTHON), "-c", DUMP], env=desktop, capture_output=True, text=True, timeout=60, check=False
            )
            lines = [line for line in dump.stdout.splitlines() if line.startswith("周视图|")]
            if len(lines) >= len(EVENTS):
                break
            time.sleep(0.5)
    finally:
        _stop(app)
    log = (tmp_path / "app.log").read_text(errors="replace")[-2000:]
    assert len(lines) == len(EVENTS), f"week view items on the bus: {lines}\napp log:\n{log}"
    for (title, day, hour), line in zip(EVENTS, lines, strict=True):
        _, role, name = line.split("|", 2)
        assert role == "list item"
        month, date = int(day[5:7]), int(day[8:10])
        assert name.startswith(f"{title}, 2026年{month}月{date}日"), name
        assert hour in name and name.endswith("日程"), name
