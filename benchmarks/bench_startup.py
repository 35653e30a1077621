"""Benchmark: start-up CPU cost of the CLI and the app against a bare interpreter and a bare
Qt window (issue 14, item 6). Targets: CLI ≤ 4x ``python -c pass``, app ≤ 3x a bare window.

    .venv/bin/python benchmarks/bench_startup.py [--pairs 15] [--skip-app]

CPU time, not wall time: this 2-core machine is shared, and a busy neighbour stretches wall
time far more than the CPU a process spends. Each figure is the child's user + system time
(``resource.getrusage(RUSAGE_CHILDREN)`` before and after one ``subprocess.run``), taken in
pairs (baseline, then the measured command, same interpreter, same environment) so drift
hits both sides alike; the medians are printed, with their ratio.

- CLI: ``python -c pass`` vs ``richeng time resolve D+1`` (a symbol resolve: no store, no
  holiday tables, no icalendar).
- App: a bare ``QWidget`` shown offscreen until its first paint, then quit, vs
  ``richeng --offscreen --report-startup`` (the same: first paint of the main window, quit),
  on a store set up as a user in China has it (Chinese labels, CN holiday marks). The
  measured starts are repeat starts: the first start of an installation also computes this
  year's holiday marks (the ``holidays`` package, ~50 ms) and caches them.

Bytecode is cached in a scratch folder (``PYTHONPYCACHEPREFIX``; this sandbox sets
``PYTHONDONTWRITEBYTECODE``, which would add compiling to every start) and a warm-up run of
each command fills it, as an installed app would have it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BARE_WINDOW = """
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

app = QApplication(sys.argv[:1])
window = QWidget()
window.resize(1200, 800)

class FirstPaint(QObject):
    seen = False
    def eventFilter(self, watched, event):
        if not self.seen and event.type() == QEvent.Type.Paint:
            self.seen = True
            QTimer.singleShot(0, app.quit)
        return False

watcher = FirstPaint()
window.installEventFilter(watcher)
window.show()
app.exec()
"""


def environment(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(scratch / name.lower())
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    return env


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) the child ``command`` spent; it must exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{command} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(
    label: str,
    base: list[str],
    measured: list[str],
    pairs: int,
    env: dict[str, str],
    target: float,
    prepare: Callable[[], None] | None = None,
) -> None:
    cpu_of(base, env), cpu_of(measured, env)  # warm-up: bytecode cache, a new store migrated
    if prepare is not None:
        prepare()
        cpu_of(measured, env)  # and once more as prepared (the holiday cache, say)
    bases, measures = [], []
    for _ in range(pairs):
        bases.append(cpu_of(base, env))
        measures.append(cpu_of(measured, env))
    b, m = statistics.median(bases), statistics.median(measures)
    ratios = statistics.median(x / y for x, y in zip(measures, bases, strict=True))
    print(
        f"{label}: baseline {b * 1000:.0f} ms CPU, measured {m * 1000:.0f} ms CPU, "
        f"ratio of medians {m / b:.2f}x (median of pair ratios {ratios:.2f}x; target <= {target:g}x), {pairs} pairs"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--skip-app", action="store_true")
    args = parser.parse_args()
    python = sys.executable
    script = Path(python).with_name("richeng")
    richeng = [python, str(script)] if script.exists() else [python, "-m", "app"]
    with tempfile.TemporaryDirectory(prefix="richeng-startup-") as folder:
        scratch = Path(folder)
        env = environment(scratch)
        paired(
            "CLI `richeng time resolve D+1` vs `python -c pass`",
            [python, "-c", "pass"],
            [*richeng, "time", "resolve", "D+1"],
            args.pairs,
            env,
            4,
        )
        if not args.skip_app:
            db = scratch / "app.sqlite3"
            paired(
                "app `richeng --offscreen --report-startup` vs a bare QWidget to first paint",
                [python, "-c", BARE_WINDOW],
                [*richeng, "--offscreen", "--report-startup", "--db", str(db)],
                args.pairs,
                env,
                3,
                prepare=lambda: chinese_user(db),
            )


def chinese_user(db: Path) -> None:
    """The store as a user in China has it: Chinese UI (lunar day labels) and CN holidays
    (holiday and 调休 marks), so the first paint draws everything it normally does."""
    from agent.services.settings import SettingsService
    from agent.store.db import Store
    from agent.store.profiles import ensure_profile

    store = Store(db, backups=False)
    try:
        settings = SettingsService(store, ensure_profile(store))
        settings.set("holiday_country", "CN")
        settings.set("language", "zh")
    finally:
        store.close()


if __name__ == "__main__":
    main()
