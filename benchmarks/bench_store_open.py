"""Benchmark: what understanding a file before touching it costs on a 100k-event store.

Prints the median of a few runs for: the header and schema read, ``PRAGMA quick_check``,
opening the store when its stamp matches (no quick_check) and when it does not, a daily
backup, and ``db recover`` of a copy with one damaged events page. A script that prints
figures, not a timed test (the machine is noisy).

    .venv/bin/python benchmarks/bench_store_open.py [--events 100000] [--runs 5]

The store is the one bench_events_list.py builds (cached under bench-out/); this script
works on a copy in a temporary folder and points the user data dir there too, so no
backup or stamp lands in the real one.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def median_ms(work: Callable[[], object], runs: int) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--recurring", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="richeng-bench-open-"))
    os.environ["XDG_DATA_HOME"] = str(scratch / "data")

    from agent.store import backups
    from agent.store.db import Store
    from agent.store.file_check import inspect_file
    from agent.store.recover import recover
    from benchmarks import bench_events_list

    cached = Path(__file__).resolve().parents[1] / "bench-out" / f"events-{args.events}-{args.recurring}.sqlite3"
    if not cached.exists():
        cached.parent.mkdir(exist_ok=True)
        bench_events_list.build(cached, args.events, args.recurring)
    path = scratch / "richeng.sqlite3"
    shutil.copyfile(cached, path)
    Store(path, backups=True).close()  # migrate the copy once, make the day's backup, record its stamp
    size_mb = path.stat().st_size / 1e6
    print(f"store: {args.events} events, {size_mb:.0f} MB")
    print(f"header + schema read:        {median_ms(lambda: inspect_file(path, integrity=False), args.runs):8.1f} ms")
    print(f"quick_check (full check):    {median_ms(lambda: inspect_file(path), args.runs):8.1f} ms")
    print(f"open, stamp matches:         {median_ms(lambda: Store(path, backups=True).close(), args.runs):8.1f} ms")

    def open_unverified() -> None:
        (scratch / "data" / "richeng" / "backups").mkdir(parents=True, exist_ok=True)
        for stamp in (scratch / "data").rglob("verified.json"):
            stamp.unlink()
        Store(path, backups=True).close()

    print(f"open, stamp missing:         {median_ms(open_unverified, args.runs):8.1f} ms")
    store = Store(path, backups=True)
    made: list[backups.Backup] = []
    base = datetime(2026, 12, 1, tzinfo=UTC)
    counter = iter(range(10_000))

    def backup_once() -> None:
        at = base.replace(second=next(counter) % 60, minute=next(counter) % 60)
        made.append(backups.make_backup(store, "import", at))

    print(f"backup (online backup API):  {median_ms(backup_once, args.runs):8.1f} ms  ({made[-1].size / 1e6:.0f} MB each)")
    store.close()
    damaged = scratch / "damaged.sqlite3"
    shutil.copyfile(path, damaged)
    conn = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
    leaf_sql = "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' ORDER BY pageno"
    leaves = [int(p) for (p,) in conn.execute(leaf_sql)]
    conn.close()
    page_size = int.from_bytes(damaged.read_bytes()[16:18], "big")
    with open(damaged, "r+b") as handle:
        handle.seek((leaves[len(leaves) // 2] - 1) * page_size)
        handle.write(b"\xa5" * 2000)
    started = time.perf_counter()
    report = recover(damaged, scratch / "recovered.sqlite3")
    elapsed_ms = (time.perf_counter() - started) * 1000
    print(f"db recover (1 damaged page): {elapsed_ms:8.0f} ms, saved {report.events} of {args.events} events")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
