"""The week view read through the real AT-SPI bus (issue 32's "Must show"): under Xvfb, with
Qt's Linux accessibility bridge on, a client on the accessibility bus (``pyatspi``, the
library Orca is built on) lists the week view's events by title and time, each at the
rectangle where it is painted, and the event under a point is the one drawn there.

It needs what a Linux desktop has and CI may not: Xvfb, ``dbus-run-session``,
``at-spi-bus-launcher`` and the system Python's ``pyatspi`` (Debian: ``python3-pyatspi``);
without them it is skipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"
BUS_LAUNCHERS = ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")

DUMP = r"""
import json, sys, time
import pyatspi

NAMES = ("Week view", "周视图")

def lists(node, out):
    try:
        if node.getRoleName() == "list" and node.name in NAMES:
            out.append(node)
        for i in range(node.childCount):
            lists(node.getChildAtIndex(i), out)
    except Exception:
        pass
    return out

found = []
deadline = time.time() + 40
while time.time() < deadline:
    desktop = pyatspi.Registry.getDesktop(0)
    found = [n for i in range(desktop.childCount) for n in lists(desktop.getChildAtIndex(i), [])]
    if found and found[0].childCount >= 2:
        break
    time.sleep(0.5)
out = {"views": []}
for view in found:
    box = lambda n: list(n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS))
    items = []
    for i in range(view.childCount):
        child = view.getChildAtIndex(i)
        x, y, w, h = box(child)
        hit = view.queryComponent().getAccessibleAtPoint(x + w // 2, y + h // 2, pyatspi.DESKTOP_COORDS)
        items.append({"name": child.name, "box": [x, y, w, h], "at_centre": hit.name if hit is not None else None})
    out["views"].append({"name": view.name, "box": box(view), "items": items})
print(json.dumps(out))
"""

SESSION = r"""
set -u
"$BUS_LAUNCHER" --launch-immediately &
bus=$!
sleep 1
QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 QT_QPA_PLATFORM=xcb "$APP_PYTHON" -m app --db "$DB" --tz Asia/Shanghai \
    --now 2026-12-01T10:00 --lang en -geometry 1280x800+0+0 > "$SCRATCH/app.log" 2>&1 &
app=$!
"$SYSTEM_PYTHON" "$SCRATCH/dump.py"
status=$?
kill $app $bus 2>/dev/null
wait $app 2>/dev/null
exit $status
"""


def _missing() -> str | None:
    for tool in ("Xvfb", "dbus-run-session"):
        if shutil.which(tool) is None:
            return tool
    if not any(Path(path).exists() for path in BUS_LAUNCHERS):
        return "at-spi-bus-launcher"
    if not Path(SYSTEM_PYTHON).exists():
        return SYSTEM_PYTHON
    if subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode != 0:
        return "pyatspi (python3-pyatspi)"
    return None


def test_a_screen_reader_lists_the_week_views_events_where_they_are_painted(tmp_path: Path) -> None:
    missing = _missing()
    if missing is not None:
        pytest.skip(f"needs {missing}")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("QT_", "DBUS_", "AT_SPI"))}
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        env[name] = str(tmp_path / name.lower())
        Path(env[name]).mkdir(mode=0o700)
    env["PYTHONPATH"] = str(ROOT)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    db = tmp_path / "db.sqlite3"
    for title, day, start, end in (("和张三开会", "2026-12-02", "15:00", "16:00"), ("Dentist", "2026-12-03", "09:30", "10:00")):
        subprocess.run(
            [sys.executable, "-m", "app", "--db", str(db), "--tz", "Asia/Shanghai", "--now", "2026-12-01T10:00",
             "events", "add", "--title", title, "--date", day, "--time", start, "--end", end],
            env=env, cwd=ROOT, check=True, capture_output=True, timeout=60,
        )  # fmt: skip
    (tmp_path / "dump.py").write_text(DUMP, encoding="utf-8")
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24"], stdout=subprocess.PIPE, text=True)
    try:
        assert xvfb.stdout is not None
        display = xvfb.stdout.readline().strip()
        env.update(
            DISPLAY=f":{display}",
            BUS_LAUNCHER=next(path for path in BUS_LAUNCHERS if Path(path).exists()),
            APP_PYTHON=sys.executable,
            SYSTEM_PYTHON=SYSTEM_PYTHON,
            DB=str(db),
            SCRATCH=str(tmp_path),
        )
        done = subprocess.run(
            ["dbus-run-session", "--", "bash", "-c", SESSION], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
        )
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
    views = json.loads(done.stdout.strip().splitlines()[-1])["views"]
    assert len(views) == 1, views
    week = views[0]
    names = [item["name"] for item in week["items"]]
    assert any(name.startswith("和张三开会") and "15:00–16:00" in name for name in names), names
    assert any(name.startswith("Dentist") and "09:30–10:00" in name for name in names), names
    vx, vy, vw, vh = week["box"]
    for item in week["items"]:
        x, y, w, h = item["box"]
        assert (x, y, w, h) != (vx, vy, vw, vh) and w * h > 0  # its own rectangle, not the view's
        assert vx <= x and vy <= y and x + w <= vx + vw and y + h <= vy + vh
        assert item["at_centre"] == item["name"]
