"""What quick add costs: the sentence parser per sentence (every keystroke of the quick-add
field runs it), and the whole ``richeng quick`` process beside ``richeng events add`` writing
the same event, alternated in one run so machine noise falls on both. Medians (and p99 for
the parser, which runs over the three corpora (the forms corpus where it exists), cold caches
and warm). Figures in the README.
Tests never assert timings.

The processes run as an installed copy does: one warm-up process per tree first writes the
bytecode and quick add's compiled patterns (``agent/timesym/pattern_cache.py``) even where
``PYTHONDONTWRITEBYTECODE`` is set; ``--cold`` points every process at an empty bytecode
folder it may not write (``PYTHONPYCACHEPREFIX``), so each compiles its sources and patterns.
``--trees A B`` compares checkouts of two commits in one run (``git worktree add``), each
process with ``PYTHONPATH`` at its tree, rounds interleaved; wall and CPU (user + system of
the process) medians.

    .venv/bin/python benchmarks/bench_quick.py [--rounds 7] [--trees DIR ...] [--cold]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.timesym import sentence_scan  # noqa: E402
from agent.timesym.context import TimeContext  # noqa: E402
from agent.timesym.sentence import parse_quick  # noqa: E402
from evals.corpora import measure_quick as M  # noqa: E402

NOW = "2026-12-01T10:00:00+08:00"


def parse_times(rounds: int) -> tuple[list[float], list[float]]:
    """(first read of each sentence after the day cache is cleared, later reads) in µs; the
    later reads come in blocks of ``rounds`` per sentence (``per_sentence`` takes their median)."""
    cases = [*M.load(M.OWN), *M.load(M.HELD_OUT)]
    forms = M.CASES / "forms.jsonl"  # issue 28's everyday forms (repeats, zones, durations)
    if forms.exists():
        cases += M.load(forms)
    cold: list[float] = []
    warm: list[float] = []
    for case in cases:
        ctx = TimeContext(now=datetime.fromisoformat(case.get("now", M.DEFAULT_NOW)), tz=M.ZONE)
        sentence_scan._symbol_days.cache_clear()
        start = time.perf_counter()
        parse_quick(case["text"], ctx)
        cold.append((time.perf_counter() - start) * 1e6)
        for _ in range(rounds):
            start = time.perf_counter()
            parse_quick(case["text"], ctx)
            warm.append((time.perf_counter() - start) * 1e6)
    return cold, warm


def per_sentence(warm: list[float], rounds: int) -> list[float]:
    """Each sentence's median warm read: a machine hiccup during one read is not the parser's."""
    return [statistics.median(warm[i : i + rounds]) for i in range(0, len(warm), rounds)]


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


LAUNCH = "import sys; sys.argv[0] = 'richeng'; from app.launcher import main; sys.exit(main())"


def process_ms(
    argv: list[str], tree: Path = ROOT, *, warm_up: bool = False, cold_prefix: str | None = None
) -> tuple[float, float]:
    """(wall, CPU) of one ``richeng`` process running ``tree``'s code, in ms."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    if cold_prefix is not None:  # an empty bytecode folder, never written: all compiled afresh
        env.update(PYTHONPYCACHEPREFIX=cold_prefix, PYTHONDONTWRITEBYTECODE="1")
    elif warm_up:  # writes __pycache__ (bytecode, patterns) as an installed copy has them
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", LAUNCH, *argv], check=True, capture_output=True, env=env)
    wall = (time.perf_counter() - start) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--parse-only", action="store_true", help="skip the process timings")
    parser.add_argument("--trees", nargs="*", help="checkouts whose processes to time side by side (default: this one)")
    parser.add_argument("--cold", action="store_true", help="no warm-up: bytecode and patterns compiled in every process")
    args = parser.parse_args()
    cold, warm = parse_times(args.rounds)
    print(f"parse, {len(cold)} sentences: cold median {statistics.median(cold):.0f} µs, p99 {p99(cold):.0f} µs")
    print(f"parse, warm ({len(warm)} reads): median {statistics.median(warm):.0f} µs, p99 {p99(warm):.0f} µs")
    typical = per_sentence(warm, args.rounds)
    print(f"parse, warm, each sentence's median: p99 {p99(typical):.0f} µs, max {max(typical):.0f} µs")
    if args.parse_only:
        return
    trees = [Path(tree).resolve() for tree in args.trees] if args.trees else [ROOT]
    common = ["--now", NOW, "--tz", "Asia/Shanghai"]
    # (tree, command) -> [(wall, cpu)]
    times: dict[tuple[Path, str], list[tuple[float, float]]] = {(tree, c): [] for tree in trees for c in ("quick", "add")}
    with tempfile.TemporaryDirectory() as folder:
        prefix = str(Path(folder) / "no-bytecode") if args.cold else None
        for tree in [] if args.cold else trees:
            db = str(Path(folder) / f"warm-{trees.index(tree)}.sqlite3")
            process_ms(["--db", db, *common, "quick", "--dry-run", "明天下午三点开会"], tree, warm_up=True)
        for index in range(args.rounds):
            day = f"D+{index + 1}"
            order = trees if index % 2 == 0 else trees[::-1]
            for tree in order:
                for which in ("quick", "add") if index % 2 == 0 else ("add", "quick"):
                    db = str(Path(folder) / f"{trees.index(tree)}-{which}-{index}.sqlite3")
                    # the file exists first: both pay only the write
                    process_ms(["--db", db, *common, "calendars", "list"], tree, cold_prefix=prefix)
                    if which == "quick":
                        argv = ["quick", f"{index + 1}天后下午三点和张三开会"]
                    else:
                        argv = ["events", "add", "--title", "和张三开会", "--date", day, "--time", "15:00"]
                    times[(tree, which)].append(process_ms(["--db", db, *common, *argv], tree, cold_prefix=prefix))
    for tree in trees:
        quick, add = times[(tree, "quick")], times[(tree, "add")]
        qw, aw = statistics.median(w for w, _ in quick), statistics.median(w for w, _ in add)
        qc, ac = statistics.median(c for _, c in quick), statistics.median(c for _, c in add)
        print(
            f"process, {tree.name}, {args.rounds} rounds{' (cold)' if args.cold else ''}: richeng quick {qw:.0f} ms, "
            f"richeng events add {aw:.0f} ms, ratio {qw / aw:.2f} wall; CPU {qc:.0f} vs {ac:.0f} ms, ratio {qc / ac:.2f}"
        )


if __name__ == "__main__":
    main()
