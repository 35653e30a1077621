"""Benchmark: CalDAV sync against a real Radicale on 127.0.0.1, beside vdirsyncer.

Two modes (client and server on the same machine, wall clock, medians of ``--runs``):

``peer`` (the default): Richeng's first sync of a calendar of 1,000 events (5% of them weekly
series with a moved instance) and a sync with nothing to do, beside ``vdirsyncer`` syncing
the same Radicale collection into a filesystem storage in the same run. Richeng is timed in
process (``SyncEngine.run``) and as ``richeng sync run`` processes; vdirsyncer is a process
too (``vdirsyncer sync``; its ``discover``, which a first sync also needs, is not timed), so
the ratio that compares like with like is process against process. Runs are interleaved
(Richeng, richeng CLI, vdirsyncer, then again) so a busy spell costs all three alike.
Goal (issue 19): the first pull no slower than vdirsyncer's, a no-change sync under 0.5 s.

vdirsyncer is a dev-only peer kept out of the project's venv (it brings aiohttp): install it
into its own, ``python3 -m venv /tmp/vds && /tmp/vds/bin/pip install vdirsyncer``, and pass
``--vdirsyncer /tmp/vds/bin/vdirsyncer`` (or set ``VDIRSYNCER``); ``.venv/bin/pip install
vdirsyncer`` works too. Without it the script says so and exits 2.

``engine``: the engine alone on a bigger calendar (default 5,000 events):

* first sync, pull: a new device syncs a server calendar that already holds them;
* first sync, push: a device whose events are not on the server yet uploads them, one PUT
  each (run once, with --push-events, default 1,000: on Radicale each create costs time in
  proportion to the calendar's size, see docs/sync.md);
* incremental sync with 10 changes: the other device edited 5, created 3 and deleted 2;
  this device pulls them (sync token), and pushes 10 changes of its own;
* a sync with nothing to do.

    .venv/bin/python benchmarks/bench_sync.py [peer] [--events 1000] [--runs 5] [--vdirsyncer PATH]
    .venv/bin/python benchmarks/bench_sync.py engine [--events 5000] [--runs 5] [--push-events 1000]

Radicale runs as its own process with fsync off (its storage is a throwaway folder).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
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


def engine_suite(args: argparse.Namespace) -> int:
    """The engine alone: first pull and push, incremental pull and push, an idle sync."""
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


# ---- beside vdirsyncer -------------------------------------------------------------------

VDIRSYNCER_CONFIG = """[general]
status_path = "{root}/status/"

[pair bench]
a = "bench_local"
b = "bench_remote"
collections = null

[storage bench_local]
type = "filesystem"
path = "{root}/local/"
fileext = ".ics"

[storage bench_remote]
type = "caldav"
url = "{url}"
username = "{user}"
password = "{password}"
"""


def find_vdirsyncer(given: str | None) -> str | None:
    """``--vdirsyncer``, ``$VDIRSYNCER``, the venv's own, or one on PATH."""
    for candidate in (given, os.environ.get("VDIRSYNCER"), str(Path(sys.executable).parent / "vdirsyncer")):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("vdirsyncer")


# Cached bytecode for both peers' processes, as an installed program has: this sandbox sets
# PYTHONDONTWRITEBYTECODE, which would add seconds of compiling to every start of either.
BYTECODE = Path(tempfile.gettempdir()) / "richeng-bench-pycache"


def run_process(argv: list[str], env: dict[str, str] | None = None) -> float:
    """Seconds one process took; its failure stops the benchmark with its output."""
    env = {**(env or os.environ), "PYTHONPYCACHEPREFIX": str(BYTECODE)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=1800, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])} … failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return seconds


def vdirsyncer_round(binary: str, server: CalDavServer, url: str, root: Path) -> tuple[float, float, int]:
    """(first sync, sync with nothing to do, files written) into a fresh filesystem storage."""
    root.mkdir(parents=True)
    (root / "local").mkdir()
    config = root / "config"
    config.write_text(VDIRSYNCER_CONFIG.format(root=root, url=url, user=server.user, password=server.password))
    base = [binary, "-c", str(config)]
    subprocess.run([*base, "discover", "bench"], input="y\n", capture_output=True, text=True, check=True, timeout=600)
    first = run_process([*base, "sync", "bench"])
    idle = run_process([*base, "sync", "bench"])
    return first, idle, len(list((root / "local").glob("*.ics")))


def cli_round(server: CalDavServer, url: str, db: Path) -> tuple[float, float]:
    """(first sync, sync with nothing to do) as ``richeng sync run`` processes on a new file."""
    Device(server, url, db, calendar="Bench").close()  # the account and its mapping, nothing synced
    richeng = shutil.which("richeng", path=str(Path(sys.executable).parent))
    argv = [richeng] if richeng else [sys.executable, "-c", "import sys; from app.launcher import main; sys.exit(main())"]
    env = {**os.environ, "RICHENG_CALDAV_PASSWORD": server.password, "RICHENG_CALDAV_KEYRING": "0"}
    command = [*argv, "--db", str(db), "sync", "run"]
    return run_process(command, env), run_process(command, env)


def ratio(ours: list[float], theirs: list[float]) -> str:
    return f"{statistics.median(ours) / statistics.median(theirs):.2f}x vdirsyncer"


def peer(args: argparse.Namespace) -> int:
    """Richeng's first and idle sync beside vdirsyncer's, on one collection, interleaved."""
    binary = find_vdirsyncer(args.vdirsyncer)
    if binary is None:
        print(
            "vdirsyncer not found: install it into its own venv (python3 -m venv /tmp/vds && "
            "/tmp/vds/bin/pip install vdirsyncer) and pass --vdirsyncer /tmp/vds/bin/vdirsyncer",
            file=sys.stderr,
        )
        return 2
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    body = calendar_text(args.events)
    print(f"CalDAV sync beside {version} — Radicale on 127.0.0.1, {args.events:,} events", flush=True)
    figures: dict[str, list[float]] = {name: [] for name in ("first", "idle", "cli_first", "cli_idle", "v_first", "v_idle")}
    with running_radicale(max_resource_size=500_000_000) as server, tempfile.TemporaryDirectory() as tmp:
        url = seed_server(server, body)
        rows = files = 0
        cli_round(server, url, Path(tmp) / "warm.sqlite3")  # fills the bytecode cache; not counted
        vdirsyncer_round(binary, server, url, Path(tmp) / "vdirsyncer-warm")
        for run in range(args.runs):
            device = Device(server, url, Path(tmp) / f"pull-{run}.sqlite3", calendar="Bench")
            seconds, report = timed(device.engine.run)
            assert not report.errors, report.errors
            figures["first"].append(seconds)
            seconds, report = timed(device.engine.run)
            assert (report.pulled, report.pushed, report.errors) == (0, 0, []), report
            figures["idle"].append(seconds)
            rows = len(device.events())
            device.close()
            first, idle = cli_round(server, url, Path(tmp) / f"cli-{run}.sqlite3")
            figures["cli_first"].append(first)
            figures["cli_idle"].append(idle)
            first, idle, files = vdirsyncer_round(binary, server, url, Path(tmp) / f"vdirsyncer-{run}")
            figures["v_first"].append(first)
            figures["v_idle"].append(idle)
        report_line(
            line(f"Richeng first sync, in process ({rows:,} rows)", figures["first"], ratio(figures["first"], figures["v_first"]))
        )
        report_line(
            line("richeng sync run, first sync (process)", figures["cli_first"], ratio(figures["cli_first"], figures["v_first"]))
        )
        report_line(line(f"vdirsyncer sync, first sync ({files:,} files)", figures["v_first"]))
        report_line(line("Richeng no-change sync, in process", figures["idle"], ratio(figures["idle"], figures["v_idle"])))
        report_line(
            line("richeng sync run, no change (process)", figures["cli_idle"], ratio(figures["cli_idle"], figures["v_idle"]))
        )
        report_line(line("vdirsyncer sync, no change", figures["v_idle"]))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", nargs="?", choices=("peer", "engine"), default="peer")
    parser.add_argument("--events", type=int, help="events on the server (peer: 1,000; engine: 5,000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--push-events", type=int, default=1000, help="engine: events in the first-sync push (0: skip)")
    parser.add_argument("--vdirsyncer", metavar="PATH", help="peer: the vdirsyncer binary (else $VDIRSYNCER, PATH)")
    args = parser.parse_args()
    if args.mode == "peer":
        args.events = args.events or 1000
        return peer(args)
    args.events = args.events or 5000
    return engine_suite(args)


if __name__ == "__main__":
    raise SystemExit(main())
