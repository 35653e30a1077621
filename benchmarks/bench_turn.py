"""Benchmark: code overhead per chat turn (everything but model time) on a 10k-event store.

Target (issue 4): median under 30 ms. The model is the scripted one, which answers
instantly, so the measured time is context building, dispatch, tools, receipts, the guard,
the archive and the observation record. Also prints the model-call counts per story
(create 1, clarification reply 0, query 1, create needing a remembered date 2).

    .venv/bin/python benchmarks/bench_turn.py [--events 10000] [--runs 30]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.models.script_backend import ScriptedModel
from agent.runtime.turn import Assistant
from agent.services.calendars import CalendarService
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=TZ)


def build(path: Path, events: int) -> None:
    rng = random.Random(7)
    store = Store(path)
    profile = ensure_profile(store)
    calendar = CalendarService(store, profile).default().id
    repo = EventRepo(store, profile)
    with store.transaction():
        for index in range(events):
            day = date(2024, 1, 1) + timedelta(days=rng.randrange(3 * 365))
            start = datetime(day.year, day.month, day.day, rng.randrange(7, 21), 0, tzinfo=TZ)
            rrule = "FREQ=WEEKLY" if index < events // 100 else None
            repo.save(build_event(f"事件 {index}", start, start + timedelta(hours=1), rrule=rrule, stamp=NOW), calendar, "import")
    store.close()


def call(name: str, **arguments: object) -> dict[str, object]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def timed(assistant: Assistant, text: str, ctx: TimeContext) -> tuple[float, int]:
    started = time.perf_counter()
    result = assistant.turn(text, ctx)
    return (time.perf_counter() - started) * 1000, result.model_calls


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    out = Path(__file__).resolve().parents[1] / "bench-out"
    out.mkdir(exist_ok=True)
    seed = out / f"turn-{args.events}.sqlite3"
    if not seed.exists():
        build(seed, args.events)
    work = out / "turn-work.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    shutil.copy(seed, work)
    store = Store(work)
    profile = ensure_profile(store)
    MemoryService(store, profile).remember("我妈的生日是12月8日")
    ctx = TimeContext(now=NOW, tz=TZ)
    figures: dict[str, list[float]] = {"create": [], "clarification reply": [], "query": [], "create + memory": []}
    calls: dict[str, set[int]] = {name: set() for name in figures}
    for run in range(args.runs):
        day = f"D+{run % 20 + 40}"
        model = ScriptedModel(
            [
                call("prepare_or_create_schedule", title=f"开会 {run}", dateExpression=day, time="08:00"),
                call("prepare_or_create_schedule", title=f"修车 {run}", dateExpression="WE+3"),
                call("query_schedule_range", startExpression="D+1", endExpression="D+7"),
                call("search_memory", query="生日"),
                call("prepare_or_create_schedule", title=f"订蛋糕 {run}", dateExpression="12-08"),
            ]
        )
        bot = Assistant(store, profile, model)
        for name, text in (
            ("create", "八点开会"),
            (None, "周末修车"),
            ("clarification reply", "周日下午2点"),
            ("query", "本周有什么安排"),
            ("create + memory", "妈妈生日那天订蛋糕"),
        ):
            ms, model_calls = timed(bot, text, ctx)
            if name:
                figures[name].append(ms)
                calls[name].add(model_calls)
        CommandService(store, profile, ctx).cancel_active()
    occurrences = store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0]
    print(f"store: {args.events} events ({args.events // 100} recurring), {occurrences} occurrences; {args.runs} runs each")
    every = [ms for values in figures.values() for ms in values]
    for name, values in figures.items():
        print(
            f"{name:22s} median {statistics.median(values):6.2f} ms  p90 {sorted(values)[int(len(values) * 0.9)]:6.2f} ms"
            f"  model calls {sorted(calls[name])}"
        )
    print(f"all turns              median {statistics.median(every):6.2f} ms (target < 30 ms)")


if __name__ == "__main__":
    main()
