"""What the file guard (agent/store/file_guard.py) costs a write: small transactions on a temp
file store with the guard and, in the same run, with ``FileGuard.take`` switched off, paired
and alternated so machine noise falls on both. Each transaction is one UPDATE; the guard adds
a ``stat`` of the ``-wal`` and two ``fcntl`` calls to it. Medians; figures in
docs/store-sharing.md. Tests never assert timings.

    .venv/bin/python benchmarks/bench_file_guard.py [--writes 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.store.db import Store
from agent.store.file_guard import FileGuard
from agent.store.profiles import ensure_profile

_take = FileGuard.take


def writes_per_ms(folder: Path, guarded: bool, writes: int, name: str) -> float:
    FileGuard.take = _take if guarded else (lambda self: None)  # type: ignore[method-assign]
    try:
        store = Store(folder / f"{name}.sqlite3", backups=False)
        profile = ensure_profile(store)
        start = time.perf_counter()
        for index in range(writes):
            with store.transaction() as conn:
                conn.execute("UPDATE profiles SET name = ? WHERE id = ?", (f"p{index}", profile))
        spent = time.perf_counter() - start
        store.close()
    finally:
        FileGuard.take = _take  # type: ignore[method-assign]
    return spent / writes * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    guarded: list[float] = []
    bare: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            order = [True, False] if round_ % 2 == 0 else [False, True]
            for flag in order:
                (guarded if flag else bare).append(writes_per_ms(Path(tmp), flag, args.writes, f"r{round_}-{flag}"))
    g, b = statistics.median(guarded), statistics.median(bare)
    print(f"one-UPDATE transaction, median of {args.rounds} rounds x {args.writes} writes:")
    print(f"  guarded {g:.1f} us, unguarded {b:.1f} us, ratio {g / b:.3f} ({g - b:+.1f} us per write)")


if __name__ == "__main__":
    main()
