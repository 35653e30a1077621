"""Four processes creating at the same instant, on one real SQLite file.

The duplicate check and the conflict check must see every write that committed before
this one: they run inside the write's ``BEGIN IMMEDIATE`` transaction. Each round starts
all four processes together at a barrier, each creates, and the test counts what landed.
Without that transaction the same event landed twice in a large share of the rounds.

Bounded: every wait has a timeout and the children are joined with one; no timing is
asserted.
"""

from __future__ import annotations

import multiprocessing as mp
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

from agent.services.commands import CommandService
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext
from tests.support.clock import NOW, SHANGHAI

WORKERS = 4
ROUNDS = 50
WAIT_S = 60.0


def _worker(path: str, profile: int, mode: str, index: int, barrier: Any, results: Any) -> None:
    """One process: its own connection, the same clock as the others, one create a round.

    Any failure aborts the barrier, so the other processes stop at once instead of waiting."""
    try:
        store = Store(path)
    except Exception as exc:
        barrier.abort()
        results.put(("error", index, repr(exc), False))
        return
    try:
        ctx = TimeContext(now=NOW, tz=SHANGHAI)
        for round_no in range(ROUNDS):
            barrier.wait(timeout=WAIT_S)
            svc = CommandService(store, profile, ctx)
            day = f"D+{round_no + 1}"  # one day per round, so rounds cannot see each other
            if mode == "same":
                out = svc.prepare_or_create(f"同一件事 {round_no}", day, time="10:00")
            else:
                out = svc.prepare_or_create(f"会 {round_no}-{index}", day, time=f"10:{index * 10:02d}")
            results.put((round_no, index, out.status, out.message))
    except Exception as exc:
        barrier.abort()
        results.put(("error", index, repr(exc), False))
    finally:
        store.close()


def _race(tmp_path: Path, mode: str) -> Counter[int]:
    """Run the rounds; return how many events each round's day holds."""
    path = tmp_path / "race.sqlite3"
    with Store(path) as setup:  # migrate and make the profile once, before anyone races
        profile = ensure_profile(setup)
    context = mp.get_context("spawn")
    barrier = context.Barrier(WORKERS)
    results = context.Queue()
    procs = [context.Process(target=_worker, args=(str(path), profile, mode, i, barrier, results)) for i in range(WORKERS)]
    for proc in procs:
        proc.start()
    outcomes = []
    try:
        while len(outcomes) < WORKERS * ROUNDS:
            item = results.get(timeout=WAIT_S * 2)
            outcomes.append(item)
            if item[0] == "error":
                break
    finally:  # never leave a child behind, whatever happened above
        for proc in procs:
            proc.join(timeout=WAIT_S)
            if proc.is_alive():  # pragma: no cover - only when something hangs
                proc.terminate()
                proc.join(timeout=5)
    errors = [item for item in outcomes if item[0] == "error"]
    assert not errors, errors
    assert all(proc.exitcode == 0 for proc in procs)
    assert len(outcomes) == WORKERS * ROUNDS
    # nothing failed as "busy" or "could not be saved": every create got a real answer
    assert {status for _, _, status, _ in outcomes} <= {"created", "conflict"}, Counter(o[3] for o in outcomes)
    store = Store(path)
    try:
        rows = store.conn.execute("SELECT start_ts FROM events").fetchall()
    finally:
        store.close()
    day0 = NOW.replace(hour=0, minute=0)
    per_day: Counter[int] = Counter()
    for row in rows:
        per_day[(int(row["start_ts"]) - int(day0.timestamp())) // int(timedelta(days=1).total_seconds())] += 1
    return per_day


def test_four_processes_same_event_no_duplicates(tmp_path: Path) -> None:
    per_day = _race(tmp_path, "same")
    assert sorted(per_day) == list(range(1, ROUNDS + 1))  # every round wrote its event
    duplicated_rounds = sum(1 for n in per_day.values() if n > 1)
    assert duplicated_rounds == 0, f"{duplicated_rounds} of {ROUNDS} rounds wrote a duplicate"


def test_four_processes_overlapping_events_no_overlaps(tmp_path: Path) -> None:
    per_day = _race(tmp_path, "overlap")
    assert sorted(per_day) == list(range(1, ROUNDS + 1))
    overlapping_rounds = sum(1 for n in per_day.values() if n > 1)
    assert overlapping_rounds == 0, f"{overlapping_rounds} of {ROUNDS} rounds wrote overlapping events"
