"""What quick add costs: the sentence parser per sentence (every keystroke of the quick-add
field runs it), and the whole ``richeng quick`` process beside ``richeng events add`` writing
the same event, alternated in one run so machine noise falls on both. Medians (and p99 for
the parser, which runs over the three corpora (the forms corpus where it exists), cold caches
and warm). Figures in the README.
Tests never assert timings.

    .venv/bin/python benchmarks/bench_quick.py [--rounds 7]
"""

from __future__ import annotations

import argparse
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

RICHENG = str(Path(sys.executable).with_name("richeng"))
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


def process_ms(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([RICHENG, *argv], check=True, capture_output=True)
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--parse-only", action="store_true", help="skip the process timings")
    args = parser.parse_args()
    cold, warm = parse_times(args.rounds)
    print(f"parse, {len(cold)} sentences: cold median {statistics.median(cold):.0f} µs, p99 {p99(cold):.0f} µs")
    print(f"parse, warm ({len(warm)} reads): median {statistics.median(warm):.0f} µs, p99 {p99(warm):.0f} µs")
    typical = per_sentence(warm, args.rounds)
    print(f"parse, warm, each sentence's median: p99 {p99(typical):.0f} µs, max {max(typical):.0f} µs")
    if args.parse_only:
        return
    quick: list[float] = []
    add: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(args.rounds):
            common = ["--now", NOW, "--tz", "Asia/Shanghai"]
            day = f"D+{index + 1}"
            for which in (0, 1) if index % 2 == 0 else (1, 0):
                db = str(Path(folder) / f"{which}-{index}.sqlite3")
                process_ms(["--db", db, *common, "calendars", "list"])  # the file exists: both pay only the write
                if which == 0:
                    sentence = f"{index + 1}天后下午三点和张三开会"
                    quick.append(process_ms(["--db", db, *common, "quick", sentence]))
                else:
                    argv = ["events", "add", "--title", "和张三开会", "--date", day, "--time", "15:00"]
                    add.append(process_ms(["--db", db, *common, *argv]))
    q, a = statistics.median(quick), statistics.median(add)
    print(f"process, {args.rounds} rounds: richeng quick {q:.0f} ms, richeng events add {a:.0f} ms, ratio {q / a:.2f}")


if __name__ == "__main__":
    main()
