"""What the undo journal costs: its share of an import, its size, and undoing the import.

The journal's work for an import is its before-commit hook (``journal_record._flush``: read the
touched rows, digest them, write one JSON row); that is timed by CPU inside the hook, next
to the CPU of the whole import, because on a shared machine wall-clock A/B runs of a
whole import differ by more than the journal costs. Medians of a few runs on a temp file
store; the figures go in docs/architecture.md ("Undo journal"). Tests never assert timings.

    .venv/bin/python benchmarks/bench_undo.py [--events 10000] [--runs 3]

The last line times the profile's calendar object (``agent/services/collection.py``): one
op, one undo read from the journal, and a calendar deletion and its undo (issue 28).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.ics import importer
from agent.store import journal, journal_record
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from benchmarks.bench_ics import generate

_flush = journal_record._flush
spent: list[float] = []


def timed_flush(store: Any, conn: Any) -> None:
    start = time.process_time()
    _flush(store, conn)
    spent.append(time.process_time() - start)


def once(data: bytes) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.sqlite3", backups=False)
        pid = ensure_profile(store)
        spent.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        importer.import_bytes(store, pid, data)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        hook = sum(spent)
        (size,) = store.conn.execute("SELECT COALESCE(SUM(LENGTH(changes)), 0) FROM change_journal").fetchone()
        undo_cpu, undo_wall = time.process_time(), time.perf_counter()
        assert journal.undo_last(store, pid) is not None
        undo_cpu, undo_wall = time.process_time() - undo_cpu, time.perf_counter() - undo_wall
        assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0
        store.close()
        return {"cpu": cpu, "wall": wall, "hook": hook, "size": size, "undo_cpu": undo_cpu, "undo_wall": undo_wall}


def edits(count: int, with_journal: bool) -> float:
    """CPU per single edit (create, then move it) on a file store, with or without the journal."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from agent.services.calendars import CalendarService
    from agent.services.editing import EditService, EventDraft

    tz = ZoneInfo("Asia/Shanghai")
    saved = journal_record.collect
    if not with_journal:
        journal_record.collect = lambda *a, **k: None
    try:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "bench.sqlite3", backups=False)
            pid = ensure_profile(store)
            calendar = CalendarService(store, pid).default()
            service = EditService(store, pid)
            start = time.process_time()
            for n in range(count):
                day = datetime(2026, 12, 1, 9, tzinfo=tz) + timedelta(days=n)
                uid = service.create(EventDraft(f"e{n}", day, day + timedelta(hours=1), calendar.id)).created[0].uid
                service.replace(uid, EventDraft(f"e{n}!", day, day + timedelta(hours=2), calendar.id))
            took = (time.process_time() - start) / (2 * count)
            store.close()
    finally:
        journal_record.collect = saved
    return took


def collection_ops(count: int) -> tuple[float, float, float, float]:
    """CPU per op through ``CalendarCollection`` (create) and per undo from the journal (the
    app's Ctrl+Z), ``count`` of each; then deleting a calendar of ``count`` events and
    undoing that deletion (both one journal entry since issue 28)."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from agent.services.collection import CalendarCollection
    from agent.services.editing import EventDraft

    tz = ZoneInfo("Asia/Shanghai")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.sqlite3", backups=False)
        collection = CalendarCollection(store, ensure_profile(store))
        default = collection.calendars.default().id
        day = datetime(2026, 12, 1, 9, tzinfo=tz)
        start = time.process_time()
        for n in range(count):
            collection.create(EventDraft(f"e{n}", day + timedelta(hours=n), day + timedelta(hours=n + 1), default))
        per_op = (time.process_time() - start) / count
        start = time.process_time()
        for _ in range(count):
            assert collection.undo() is not None
        per_undo = (time.process_time() - start) / count
        made = collection.add_calendar("bench").calendar
        assert made is not None
        for n in range(count):
            collection.create(EventDraft(f"c{n}", day + timedelta(hours=n), day + timedelta(hours=n + 1), made.id))
        start = time.process_time()
        collection.delete_calendar("bench")
        delete = time.process_time() - start
        start = time.process_time()
        assert collection.undo() is not None
        restore = time.process_time() - start
        store.close()
    return per_op, per_undo, delete, restore


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    data = generate(args.events)
    journal_record._flush = timed_flush
    runs = [once(data) for _ in range(args.runs)]

    def med(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    print(
        f"import of {args.events} events: {med('wall'):.2f} s wall, {med('cpu'):.2f} s CPU; the journal's hook "
        f"{med('hook') * 1000:.0f} ms CPU ({100 * med('hook') / med('cpu'):.1f}% of the import's CPU)"
    )
    print(
        f"journal row {med('size') / 1e6:.2f} MB of JSON; undo of the whole import {med('undo_wall'):.2f} s wall, "
        f"{med('undo_cpu'):.2f} s CPU (medians of {args.runs})"
    )
    journal_record._flush = _flush
    plain = statistics.median(edits(200, False) for _ in range(args.runs))
    kept = statistics.median(edits(200, True) for _ in range(args.runs))
    print(
        f"one edit through EditService (create or replace): {plain * 1000:.2f} ms CPU without the journal, "
        f"{kept * 1000:.2f} ms with it"
    )
    ops = [collection_ops(200) for _ in range(args.runs)]
    op, undo, delete, restore = (statistics.median(run[i] for run in ops) for i in range(4))
    print(
        f"one CalendarCollection op (create): {op * 1000:.2f} ms CPU; one undo from the journal: {undo * 1000:.2f} ms;"
        f" deleting a calendar of 200 events: {delete * 1000:.0f} ms, undoing that: {restore * 1000:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
