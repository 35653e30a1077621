"""Benchmark: the first chat turn after a restart, with the persisted prefix state (issue 14).

Runs the bundled GGUF (one thread, the CLI's default context) in fresh processes that share
one empty cache dir (``XDG_CACHE_HOME``) and one temp store:

* ``cli``: two consecutive ``richeng chat --model bundled --json MESSAGE`` processes. The
  first finds no saved state, reads the whole prefix and saves it; the second loads it.
* ``app``: two consecutive processes doing what the app does from start-up: a ``LazyModel``
  (the app's configured-model wrapper), ``ChatSession.warm_up()`` at start, then the first
  message at once (the worst case: the person types before even the model file is loaded,
  so both figures include the load).
* ``app-typed``: the same, with the first message sent once the model file is loaded (a
  person needs at least that second to type): the figures are then the prefix read (or the
  saved state's load) and the conversation tail.

For each it prints time to first token (the turn timeline's ``first_token`` minus
``model_request_sent``), the prompt and cached token counts, and the second's share of the
first's. Target: the second ≤ 15% of the first.

    .venv/bin/python benchmarks/bench_prefix_cache.py [--mode cli|app|both] [--message TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

APP_SCRIPT = r"""
import json, sys, time
started = time.monotonic()
from agent.runtime.session import ChatSession
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from app.model_loader import LazyModel
from agent.models import llama_backend
jobs = []  # the warm-ups (start-up, then read-ahead), to report where the start-up state came from
_warm = llama_backend.LlamaChatModel.warm
def _recorded(self, *args, **kwargs):
    jobs.append(_warm(self, *args, **kwargs))
    return jobs[-1]
llama_backend.LlamaChatModel.warm = _recorded
store = Store(sys.argv[1])
profile = ensure_profile(store)
model = LazyModel("bundled")
session = ChatSession(store, profile, model)
session.warm_up()
if sys.argv[3] == "typed":
    while model.loaded is None:
        time.sleep(0.01)
events, result = session.send_all(sys.argv[2])
progress = [e.payload for e in events if e.kind == "progress"]
if session.warm_thread is not None:  # the read-ahead of this exchange, done while the person reads
    session.warm_thread.join()
ahead = model.loaded._current().warm
ahead.wait(600)
quitting = time.monotonic()
session.cancel_warm_up()  # what the app's quit does: saves the read-ahead conversation
print(json.dumps({"timeline": result.timeline, "since_start_s": time.monotonic() - started,
                  "progress_events": len(progress), "quit_s": time.monotonic() - quitting,
                  "start_source": jobs[0].source if jobs else "?"}))
"""


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def _last_json(stdout: str) -> dict[str, object]:
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return dict(json.loads(line))
    raise RuntimeError(f"no JSON in output:\n{stdout[-2000:]}")


def run_cli(db: Path, cache: Path, message: str) -> dict[str, object]:
    command = [sys.executable, "-m", "agent.cli.main", "--db", str(db), "chat", "--model", "bundled", "--json", message]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=_env(cache), capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"richeng chat failed ({done.returncode}):\n{done.stderr[-2000:]}")
    out = _last_json(done.stdout)
    out["process_s"] = time.monotonic() - started
    return out


def run_app(db: Path, cache: Path, message: str, when: str = "start") -> dict[str, object]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", APP_SCRIPT, str(db), message, when], cwd=ROOT, env=_env(cache),
                          capture_output=True, text=True, timeout=3600)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"app-path process failed ({done.returncode}):\n{done.stderr[-2000:]}")
    out = _last_json(done.stdout)
    out["process_s"] = time.monotonic() - started
    return out


def ttft_ms(result: dict[str, object]) -> float:
    timeline = result["timeline"]
    assert isinstance(timeline, dict)
    return float(timeline["first_token"]) - float(timeline["model_request_sent"])


def seconds(value: object) -> float:
    """A figure read back from a run's JSON (a number)."""
    assert isinstance(value, (int, float)), value
    return float(value)


def cache_files(cache: Path) -> str:
    files = sorted((cache / "richeng" / "prefix-state").glob("*.state"))
    return ", ".join(f"{f.name} {f.stat().st_size / 1e6:.1f} MB" for f in files) or "none"


def bench(mode: str, message: str) -> float:
    def runner(db: Path, cache: Path, message: str) -> dict[str, object]:
        if mode == "cli":
            return run_cli(db, cache, message)
        return run_app(db, cache, message, "typed" if mode == "app-typed" else "start")

    with tempfile.TemporaryDirectory(prefix=f"richeng-bench-{mode}-") as tmp:
        db, cache = Path(tmp) / "bench.sqlite3", Path(tmp) / "cache"
        first = runner(db, cache, message)
        saved = cache_files(cache)
        second = runner(db, cache, message)
    a, b = ttft_ms(first), ttft_ms(second)
    print(f"[{mode}] process 1: time to first token {a / 1000:8.2f} s   (process {seconds(first['process_s']):.1f} s)")
    print(f"[{mode}] process 2: time to first token {b / 1000:8.2f} s   (process {seconds(second['process_s']):.1f} s)")
    print(f"[{mode}] saved state: {saved}")
    if mode != "cli":
        print(
            f"[{mode}] start-up state: process 1 {first['start_source']}, process 2 {second['start_source']};"
            f" saving at quit took {seconds(second['quit_s']) * 1000:.0f} ms"
        )
    print(f"[{mode}] second / first = {b / a:.1%}  (target <= 15%)")
    return b / a


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["cli", "app", "app-typed", "all"], default="all")
    parser.add_argument("--message", default="明天下午三点和王老师开会")
    args = parser.parse_args()
    modes = ["cli", "app", "app-typed"] if args.mode == "all" else [args.mode]
    ratios = [bench(mode, args.message) for mode in modes]
    return 0 if all(r <= 0.15 for r in ratios) else 1


if __name__ == "__main__":
    raise SystemExit(main())
