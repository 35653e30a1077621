"""Benchmark: each recurrence bomb (issue 11) through each path, wall time and peak memory.

Paths, each run in its own process so that its peak RSS (``ru_maxrss`` from ``wait4``) is its
own, interpreter and imports included:

* import  — ``richeng import FILE`` into a fresh store (the CLI, as a user runs it);
* list    — ``richeng events list --start D+0 --end D+364`` on that store: a year;
* export  — ``richeng export -o FILE`` of that store;
* sync    — the sync pull at the sync layer: each CalDAV resource of the file through
  ``parse_resource`` and ``LocalCalendar.apply`` into a fresh store (what ``sync run`` does
  with a fetched resource; tests/app/test_recurrence_bombs.py also pulls the small bombs from a
  real Radicale);
* month   — the app's month view of December 2026 built and painted offscreen
  (``CalendarArea`` in month view, ``grab()``); time is the view's, not Qt's start-up.

    .venv/bin/python benchmarks/bench_bombs.py [--only minutely,rdates100k] [--timeout 300]

The target is under 10 s and 300 MB per bomb and path on the 2-core dev box; figures are in
docs/ics.md ("Bounded recurrence"). The bombs are tests/support/recurrence_bombs.py. The one that
missed it, overrides100k (one series, 100,000 RECURRENCE-ID overrides): import 36.1 s /
723 MB and sync pull 65.0 s / 717 MB before the quick reader (agent/ics/quick.py); after,
import 6.9 s / 226 MB and sync 8.3 s / 255 MB (the docs' table, a quiet box). Wall time on
the shared box swings with its load: at load 1.7-2.1 the sync row ran 8.6-10.4 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.recurrence_bombs import BOMBS  # noqa: E402

RICHENG = [str(Path(sys.executable).parent / "richeng")]
NOW = ["--now", "2026-12-01T08:00:00+00:00", "--tz", "UTC"]

_SYNC = """
import json, sys, time
sys.path.insert(0, {root!r})
from agent.services.calendars import CalendarService
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.sync.resources import parse_resource
from agent.sync.state import LocalCalendar
from tests.app.test_recurrence_bombs import _resources
# One resource per UID, as the server holds them; the file itself is let go (a sync pull
# never holds the file the server's copy was made from).
resources = _resources(open({file!r}, "rb").read())
started = time.perf_counter()
store = Store({db!r}); profile = ensure_profile(store)
local = LocalCalendar(store, profile, CalendarService(store, profile).add("Work").id)
refused = 0
for uid, text in resources.items():
    resource = parse_resource(text, uid + ".ics")
    if resource.problem:
        refused += 1
    else:
        local.apply(resource)
count = store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0]
print(json.dumps({{"seconds": time.perf_counter() - started, "note": f"{{count}} instances, {{refused}} refused"}}))
"""

_MONTH = """
import json, os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
sys.path.insert(0, {root!r})
from datetime import date, datetime
from zoneinfo import ZoneInfo
from PySide6.QtWidgets import QApplication
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from app.application import build_context
from app.calendar.calendar_area import CalendarArea
app = QApplication.instance() or QApplication([])
store = Store({db!r}); profile = ensure_profile(store)
ctx = build_context(store, profile, tz="UTC", now=datetime(2026, 12, 1, 8, tzinfo=ZoneInfo("UTC")))
started = time.perf_counter()
area = CalendarArea(ctx)
area.resize(1280, 820)
area.show()
area.set_view("month")
area.set_anchor(date(2026, 12, 1))
area.refresh()
image = area.grab()
app.processEvents()
items = area.current_view().visible_items()
print(json.dumps({{"seconds": time.perf_counter() - started, "note": f"{{len(items)}} items drawn"}}))
area.close()
"""


def isolated(command: list[str], timeout: float) -> tuple[float, float, int, str]:
    """Run ``command`` under a fresh Python that reports that one child's wall and peak."""
    runner = (
        "import json, os, resource, subprocess, sys, time\n"
        "cmd = json.loads(sys.argv[1]); t = time.perf_counter()\n"
        "p = subprocess.run(cmd, capture_output=True, timeout=float(sys.argv[2]))\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps({'wall': time.perf_counter() - t, 'peak': peak, 'rc': p.returncode,"
        " 'uids': p.stdout.count(b'\"uid\"'), 'out': p.stdout.decode(errors='replace')[-2000:]}))\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", runner, json.dumps(command), str(timeout)],
            capture_output=True, timeout=timeout + 30, cwd=ROOT,
        )  # fmt: skip
        result = json.loads(done.stdout.decode().strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, IndexError, ValueError):
        return timeout, float("nan"), -9, ""
    out = result["out"] if command[-4:-2] != ["--start", "D+0"] else json.dumps({"listed": result["uids"]})
    return result["wall"], result["peak"], result["rc"], out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help="comma-separated bomb names")
    parser.add_argument("--paths", default="import,list,export,sync,month")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    names = [name for name in BOMBS if not args.only or name in args.only.split(",")]
    paths = args.paths.split(",")
    env_note = f"{os.cpu_count()} CPUs"
    print(f"bomb            path     wall s   peak MB  note   ({env_note}; target < 10 s, < 300 MB)")
    with tempfile.TemporaryDirectory(prefix="richeng-bombs-") as tmp:
        folder = Path(tmp)
        for name in names:
            file = folder / f"{name}.ics"
            file.write_bytes(BOMBS[name][0]())
            db = folder / f"{name}.sqlite3"
            rows: list[tuple[str, float, float, str]] = []
            if "import" in paths or any(p in paths for p in ("list", "export", "month")):
                wall, peak, rc, out = isolated([*RICHENG, "--db", str(db), "--json", *NOW, "import", str(file)], args.timeout)
                note = _import_note(out) if rc in (0, 1) else f"exit {rc}"
                rows.append(("import", wall, peak, note))
            if "list" in paths:
                copy = folder / f"{name}-list.sqlite3"
                shutil.copy(db, copy)
                command = [*RICHENG, "--db", str(copy), "--json", *NOW, "events", "list", "--start", "D+0", "--end", "D+364"]
                wall, peak, rc, out = isolated(command, args.timeout)
                rows.append(("list", wall, peak, _list_note(out) if rc == 0 else f"exit {rc}"))
            if "export" in paths:
                target = folder / f"{name}-export.ics"
                wall, peak, rc, _ = isolated([*RICHENG, "--db", str(db), *NOW, "export", "-o", str(target)], args.timeout)
                size = target.stat().st_size / 1e6 if target.exists() else 0.0
                rows.append(("export", wall, peak, f"{size:.1f} MB written" if rc == 0 else f"exit {rc}"))
            if "sync" in paths:
                script = _SYNC.format(root=str(ROOT), file=str(file), db=str(folder / f"{name}-sync.sqlite3"))
                wall, peak, rc, out = isolated([sys.executable, "-c", script], args.timeout)
                rows.append(("sync", wall, peak, _child_note(out) if rc == 0 else f"exit {rc}"))
            if "month" in paths:
                copy = folder / f"{name}-month.sqlite3"
                shutil.copy(db, copy)
                script = _MONTH.format(root=str(ROOT), db=str(copy))
                wall, peak, rc, out = isolated([sys.executable, "-c", script], args.timeout)
                rows.append(("month", wall, peak, _child_note(out) if rc == 0 else f"exit {rc}"))
            for path, wall, peak, note in rows:
                if path not in paths:
                    continue
                print(f"{name:15} {path:7} {wall:7.2f} {peak:9.0f}  {note}", flush=True)


def _import_note(out: str) -> str:
    try:
        data = json.loads(out)
    except ValueError:
        return "?"
    return f"{data.get('imported', 0)} imported, {len(data.get('errors', []))} refused"


def _list_note(out: str) -> str:
    try:
        return f"{json.loads(out)['listed']} instances listed"
    except (ValueError, KeyError):
        return "?"


def _child_note(out: str) -> str:
    try:
        data = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "?"
    return f"{data['note']} (in-process {data['seconds']:.2f} s)"


if __name__ == "__main__":
    main()
