"""Benchmark: CalDAV sync of 5,000 events against a real Radicale on 127.0.0.1.

Figures (medians of --runs runs, wall clock, client and server on the same machine):

* first sync, pull: a new device syncs a server calendar that already holds 5,000 events
  (4,750 singles, 250 weekly series with one moved instance each) — the usual first sync;
* first sync, push: a device whose events are not on the server yet uploads them, one PUT
  each (run once, with --push-events, default 1,000: on Radicale each create costs time in
  proportion to the calendar's size, see docs/sync.md);
* incremental sync with 10 changes: the other device edited 5, created 3 and deleted 2;
  this device pulls them (sync token), and pushes 10 changes of its own;
* a sync with nothing to do.

    .venv/bin/python benchmarks/bench_sync.py [--events 5000] [--runs 5] [--push-events 1000]

Radicale runs as its own process with fsync off (its storage is a throwaway folder).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TypeVar
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.ics.importer import import_bytes  # noqa: E402
from agent.sync.remote import RemoteCalendar  # noqa: E402
from tests.support.caldav_server import CalDavServer, Device, running_radicale  # noqa: E402

T = TypeVar("T")
TZ = ZoneInfo("Asia/Shanghai")
START = datetime(2026, 1, 5, tzinfo=TZ)


def calendar_text(events: int, seed: int = 7) -> bytes:
    """``events`` VEVENTs, 5% of them weekly series with one overridden instance."""
    rng = random.Random(seed)
    stamp = "20260101T000000Z"
    parts = ["BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Richeng//bench//EN\r\n"]
    for index in range(events):
        day = START + timedelta(days=rng.randrange(730), hours=rng.randrange(8, 20))
        end = day + timedelta(minutes=rng.choice([30, 60, 90]))
        uid = f"bench-{seed}-{index}@richeng"
        fmt = "%Y%m%dT%H%M%S"
        lines = [
            "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp}", f"SUMMARY:事件 {index} meeting",
            f"DTSTART;TZID=Asia/Shanghai:{day:{fmt}}", f"DTEND;TZID=Asia/Shanghai:{end:{fmt}}",
            f"LOCATION:Room {index % 40}", "DESCRIPTION:Agenda: review\\, plan\\, decide.",
        ]  # fmt: skip
        if index % 20 == 0:
            lines.append("RRULE:FREQ=WEEKLY;COUNT=20")
            lines.append("END:VEVENT")
            moved = day + timedelta(weeks=3)
            lines += [
                "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp}", f"SUMMARY:事件 {index} (moved)",
                f"RECURRENCE-ID;TZID=Asia/Shanghai:{moved:{fmt}}",
                f"DTSTART;TZID=Asia/Shanghai:{moved + timedelta(hours=1):{fmt}}",
                f"DTEND;TZID=Asia/Shanghai:{end + timedelta(weeks=3, hours=1):{fmt}}",
            ]  # fmt: skip
        lines.append("END:VEVENT")
        parts.append("\r\n".join(lines) + "\r\n")
    parts.append("END:VCALENDAR\r\n")
    return "".join(parts).encode()


def seed_server(server: CalDavServer, body: bytes) -> str:
    """Upload a whole calendar in one request (Radicale splits it into one item per UID),
    then list it once: Radicale builds its item cache on first read, which a server in
    use has long done, so the first measured sync must not pay for it."""
    from caldav.davclient import DAVClient

    url = server.new_calendar("Bench")
    client = DAVClient(url=server.url, username=server.user, password=server.password, timeout=1800)
    # caldav annotates the body as str but sends bytes as they are (the calendar's UTF-8)
    response = client.put(url, body, {"Content-Type": "text/calendar; charset=utf-8"})  # type: ignore[arg-type]
    if response.status not in (200, 201, 204):
        raise SystemExit(f"seeding failed: HTTP {response.status}")
    RemoteCalendar(client, url).listing(None)
    return url


def timed(action: Callable[[], T]) -> tuple[float, T]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def change_ten(device: Device, round_no: int) -> None:
    """5 edits, 3 creates, 2 deletes, through the editor's write path."""
    uids = sorted({uid for uid, _ in device.events()})
    rng = random.Random(round_no)
    picked = rng.sample(uids, 7)
    for uid in picked[:5]:
        device.retitle(uid, f"edited in round {round_no} {uid[:12]}")
    for uid in picked[5:]:
        device.remove(uid)
    for index in range(3):
        day = START + timedelta(days=400 + round_no, hours=9 + index)
        device.add(f"new {round_no}.{index}", day, day + timedelta(hours=1))


def line(label: str, seconds: list[float], note: str = "") -> str:
    median = statistics.median(seconds)
    spread = f"(min {min(seconds):.2f} s, max {max(seconds):.2f} s, n={len(seconds)})" if len(seconds) > 1 else "(n=1)"
    return f"{label:<44} {median:7.2f} s  {spread}{('  ' + note) if note else ''}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--push-events", type=int, default=1000, help="events in the first-sync push (0: skip)")
    args = parser.parse_args()
    body = calendar_text(args.events)
    print(f"CalDAV sync benchmark — Radicale on 127.0.0.1, {args.events:,} events", flush=True)
    with running_radicale(max_resource_size=500_000_000) as server, tempfile.TemporaryDirectory() as tmp:
        url = seed_server(server, body)
        first_pull: list[float] = []
        rows = 0
        for run in range(args.runs):
            device = Device(server, url, Path(tmp) / f"pull-{run}.sqlite3", calendar="Bench")
            seconds, report = timed(device.engine.run)
            assert not report.errors, report.errors
            first_pull.append(seconds)
            rows = len(device.events())
            if run < args.runs - 1:
                device.close()
        report_line(line(f"first sync, pull {args.events:,} events", first_pull, f"({rows:,} rows stored)"))

        other = Device(server, url, Path(tmp) / "other.sqlite3", calendar="Bench")
        other.sync()
        pulls: list[float] = []
        pushes: list[float] = []
        idle: list[float] = []
        for round_no in range(args.runs):
            change_ten(other, round_no)
            assert other.engine.run().pushed == 10
            seconds, report = timed(device.engine.run)
            assert report.pulled == 10, report
            pulls.append(seconds)
            change_ten(device, 100 + round_no)
            seconds, report = timed(device.engine.run)
            assert report.pushed == 10, report
            pushes.append(seconds)
            other.sync()
            seconds, report = timed(device.engine.run)
            idle.append(seconds)
        report_line(line("incremental sync, pull 10 changes", pulls))
        report_line(line("incremental sync, push 10 changes", pushes))
        report_line(line("sync with nothing to do", idle))

        if args.push_events:
            empty = server.new_calendar("Bench push")
            pusher = Device(server, empty, Path(tmp) / "push.sqlite3", calendar="Bench push")
            import_bytes(pusher.store, pusher.profile_id, calendar_text(args.push_events, seed=8), "Bench push")
            seconds, report = timed(pusher.engine.run)
            assert not report.errors and report.pushed == args.push_events, report
            report_line(line(f"first sync, push {args.push_events:,} events", [seconds], "one PUT each"))
    return 0


def report_line(text: str) -> None:
    print(text, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
