"""ICS import/export benchmark: our import vs a bare icalendar parse vs khal, and our export.

Run:  .venv/bin/python benchmarks/bench_ics.py [--events 10000] [--runs 3] [--khal PATH]
      .venv/bin/python benchmarks/bench_ics.py --memory 100000 [--code-root DIR ...] [--runs N]

``--memory N`` writes an N-event file and imports it in a fresh child process, which
reports its peak RSS (``VmHWM``) and times; ``--code-root`` imports another checkout's
``agent`` (``git worktree add`` of an older commit); given twice, the two checkouts'
children alternate on the same file, ``--runs`` times each, for a before/after figure.

khal is a dev-only peer kept out of our venv (python3 -m venv /tmp/khalvenv &&
/tmp/khalvenv/bin/pip install khal); pass its binary with --khal or KHAL=/tmp/khalvenv/bin/khal.
Without it the khal figures are skipped with a message.

All figures come from the same run on the same generated file; each is the median of
``--runs`` repetitions because the machines this runs on are small and noisy.
Targets: import <= 2x the bare parse, >= 5x faster than khal, export < 1 s.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import icalendar

from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.store.db import Store
from agent.store.profiles import ensure_profile

# Outlook writes Windows names with its own VTIMEZONE; others use IANA names.
ZONES = ["Asia/Shanghai", "UTC", "Eastern Standard Time", "all-day", "China Standard Time", "Europe/Berlin", "floating"]
WINDOWS_VTIMEZONES = {
    "China Standard Time": "BEGIN:VTIMEZONE\r\nTZID:China Standard Time\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\n"
    "TZOFFSETFROM:+0800\r\nTZOFFSETTO:+0800\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n",
    "Eastern Standard Time": "BEGIN:VTIMEZONE\r\nTZID:Eastern Standard Time\r\nBEGIN:STANDARD\r\n"
    "DTSTART:16011104T020000\r\nRRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\n"
    "END:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:16010311T020000\r\nRRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r\n"
    "TZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n",
}


def _value(zone: str, moment: datetime) -> tuple[str, str]:
    """The parameter part and value of a date property in ``zone``."""
    if zone == "all-day":
        return ";VALUE=DATE", f"{moment:%Y%m%d}"
    if zone == "UTC":
        return "", f"{moment:%Y%m%dT%H%M%S}Z"
    if zone == "floating":
        return "", f"{moment:%Y%m%dT%H%M%S}"
    return f";TZID={zone}", f"{moment:%Y%m%dT%H%M%S}"


def generate(count: int, seed: int = 7) -> bytes:
    """``count`` events: mixed zones, all-day and floating, 5% weekly series each with an
    EXDATE and a moved override (the override is an extra VEVENT), a third with alarms."""
    rnd = random.Random(seed)
    parts = ["BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Richeng//bench//EN\r\nX-WR-CALNAME:Bench\r\n"]
    parts += WINDOWS_VTIMEZONES.values()
    for tzid in ("Asia/Shanghai", "Europe/Berlin"):
        parts.append(
            icalendar.Timezone.from_tzid(tzid, first_date=date(2024, 1, 1), last_date=date(2029, 1, 1)).to_ical().decode()
        )
    base = datetime(2025, 1, 1)
    for index in range(count):
        zone = ZONES[index % len(ZONES)]
        start = base + timedelta(days=rnd.randrange(0, 700), hours=rnd.randrange(7, 20))
        length = timedelta(days=1) if zone == "all-day" else timedelta(minutes=rnd.choice([30, 60, 90]))
        uid = f"bench-{index}@example.com"
        params, value = _value(zone, start)
        end_params, end_value = _value(zone, start + length)
        lines = [
            "BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20250101T000000Z", f"DTSTART{params}:{value}",
            f"DTEND{end_params}:{end_value}", f"SUMMARY:Event {index} 会议 {rnd.randrange(10**6)}",
            "DESCRIPTION:Agenda\\, notes and a link: https://example.com/meeting/" + str(index),
            "LOCATION:Room " + str(rnd.randrange(1, 40)), "SEQUENCE:0",
        ]  # fmt: skip
        recurring = index % 20 == 7
        if recurring:
            lines.append("RRULE:FREQ=WEEKLY;COUNT=30" if index % 40 == 7 else "RRULE:FREQ=WEEKLY;UNTIL=20271231T000000Z")
            ex_params, ex_value = _value(zone, start + timedelta(weeks=2))
            lines.append(f"EXDATE{ex_params}:{ex_value}")
        if index % 3 == 0:
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM"]
        lines.append("END:VEVENT")
        parts.append("\r\n".join(lines) + "\r\n")
        if recurring:
            original = start + timedelta(weeks=3)
            moved = original + (timedelta(days=1) if zone == "all-day" else timedelta(hours=2))
            rid_params, rid_value = _value(zone, original)
            new_params, new_value = _value(zone, moved)
            end_params, end_value = _value(zone, moved + length)
            parts.append(
                "\r\n".join(
                    [
                        "BEGIN:VEVENT",
                        f"UID:{uid}",
                        "DTSTAMP:20250101T000000Z",
                        f"RECURRENCE-ID{rid_params}:{rid_value}",
                        f"DTSTART{new_params}:{new_value}",
                        f"DTEND{end_params}:{end_value}",
                        f"SUMMARY:Event {index} moved",
                        "SEQUENCE:1",
                        "END:VEVENT",
                    ]
                )  # fmt: skip
                + "\r\n"
            )
    parts.append("END:VCALENDAR\r\n")
    return "".join(parts).encode()


class Timings:
    """Wall and CPU seconds of repeated runs; medians, because the machine is noisy."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def run(self, action: Callable[[], object], cpu_of: Callable[[], float] = time.process_time) -> None:
        wall, cpu = time.perf_counter(), cpu_of()
        action()
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(cpu_of() - cpu)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def median_cpu(self) -> float:
        return statistics.median(self.cpu)

    def show(self) -> None:
        runs = ", ".join(f"{t:.2f}" for t in self.wall)
        print(f"{self.label:<34} median {self.median:7.2f} s wall, {self.median_cpu:7.2f} s cpu   (wall runs: {runs})")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def khal_import(binary: str, ics_path: Path, workdir: Path) -> None:
    """One ``khal import`` into a fresh throw-away config and vdir (timed by the caller,
    together with khal's first ``list``, which fills its cache as a first view would)."""
    root = Path(tempfile.mkdtemp(dir=workdir))
    (root / "cal").mkdir()
    config = root / "config"
    config.write_text(
        "[calendars]\n[[bench]]\npath = {cal}\ntype = calendar\n"
        "[locale]\ntimeformat = %H:%M\ndateformat = %Y-%m-%d\nlongdateformat = %Y-%m-%d\n"
        "datetimeformat = %Y-%m-%d %H:%M\nlongdatetimeformat = %Y-%m-%d %H:%M\n"
        "default_timezone = Asia/Shanghai\nlocal_timezone = Asia/Shanghai\n"
        "[sqlite]\npath = {db}\n".format(cal=root / "cal", db=root / "khal.db")
    )
    env = {**os.environ, "HOME": str(root), "XDG_CONFIG_HOME": str(root), "XDG_DATA_HOME": str(root)}
    done = subprocess.run(
        [binary, "-c", str(config), "import", "--batch", "-a", "bench", str(ics_path)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"khal import failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    # Make khal's cache catch up too, as a first `khal list` after an import would.
    subprocess.run([binary, "-c", str(config), "list", "2025-01-01", "1d"], env=env, capture_output=True, check=False)
    shutil.rmtree(root, ignore_errors=True)


_MEMORY_CHILD = """
import os, resource, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from agent.ics.importer import import_file
from agent.store.db import Store
from agent.store.profiles import ensure_profile
store = Store(os.path.join(tempfile.mkdtemp(), "store.sqlite3"))
profile = ensure_profile(store)
def rss():
    with open("/proc/self/status") as status:
        return next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
before = rss()
wall, cpu = time.perf_counter(), time.process_time()
report = import_file(store, profile, sys.argv[2])
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
# VmHWM is this process's own high-water mark; ru_maxrss would also count the parent's
# RSS at fork (Linux keeps it across exec), and the parent has just generated the file.
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1])
print(report.imported, len(report.errors), wall, cpu, before, peak)
"""


def memory(count: int, code_roots: list[str], runs: int = 1) -> int:
    """Peak RSS and time of one import of a ``count``-event file, in a child that does nothing
    else; with several ``code_roots`` (checkouts of two commits) the children alternate, so a
    before/after comes from one run on one file, medians of ``runs``."""
    workdir = Path(tempfile.mkdtemp(prefix="richeng-bench-mem-"))
    ics_path = workdir / "bench.ics"
    ics_path.write_bytes(generate(count))
    size = ics_path.stat().st_size
    found: dict[str, list[tuple[float, float, int]]] = {root: [] for root in code_roots}
    for index in range(runs):
        for root in code_roots if index % 2 == 0 else code_roots[::-1]:
            done = subprocess.run(
                [sys.executable, "-c", _MEMORY_CHILD, root, str(ics_path)], capture_output=True, text=True, check=False
            )
            if done.returncode != 0:
                print(done.stderr[-2000:])
                shutil.rmtree(workdir, ignore_errors=True)
                return 1
            imported, errors, wall, cpu, before, peak = done.stdout.split()[-6:]
            found[root].append((float(wall), float(cpu), int(peak)))
            print(
                f"import of {count} events ({size / 1e6:.1f} MB file, code from {root}): {imported} rows, {errors} errors,"
                f" {float(wall):.1f} s wall, {float(cpu):.1f} s cpu; peak RSS {int(peak) / 1024:.0f} MB"
                f" (RSS just before the import, interpreter and modules: {int(before) / 1024:.0f} MB;"
                f" {int(peak) * 1024 / size:.1f}x the file)"
            )
    shutil.rmtree(workdir, ignore_errors=True)
    if runs > 1:
        for root, rows in found.items():
            walls = statistics.median(row[0] for row in rows)
            cpus = statistics.median(row[1] for row in rows)
            peaks = statistics.median(row[2] for row in rows)
            print(f"median of {runs}, code from {root}: {walls:.2f} s wall, {cpus:.2f} s cpu, peak RSS {peaks / 1024:.0f} MB")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memory", type=int, default=0, help="only measure the peak RSS of importing this many events")
    parser.add_argument("--code-root", action="append", help="checkout to import with (repeat to compare; default: this one)")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--khal", default=os.environ.get("KHAL", ""), help="khal binary (or KHAL env var)")
    parser.add_argument("--khal-runs", type=int, default=1, help="khal is slow; median over this many runs")
    args = parser.parse_args()
    if args.memory:
        return memory(args.memory, args.code_root or [str(Path(__file__).resolve().parent.parent)], args.runs)

    data = generate(args.events)
    workdir = Path(tempfile.mkdtemp(prefix="richeng-bench-"))
    ics_path = workdir / "bench.ics"
    ics_path.write_bytes(data)
    components = data.count(b"BEGIN:VEVENT")
    print(f"file: {len(data) / 1e6:.1f} MB, {args.events} events ({components} VEVENTs incl. overrides)")

    parse = Timings("bare icalendar Calendar.from_ical")
    ours = Timings("richeng import (file store)")
    export = Timings("richeng export (whole store)")
    stores: list[tuple[Store, int]] = []

    def import_once() -> None:
        store = Store(workdir / f"store-{len(stores)}.sqlite3")
        profile = ensure_profile(store)
        report = import_bytes(store, profile, data, source_name=ics_path.name)
        assert report.imported == components and not report.errors, report.to_json()
        stores.append((store, profile))

    # Interleaved, so both see the same background load.
    for _ in range(args.runs):
        gc.collect()
        parse.run(lambda: icalendar.Calendar.from_ical(data))
        gc.collect()
        ours.run(import_once)
    store, profile = stores[-1]
    occurrences = store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0]
    for _ in range(args.runs):
        export.run(lambda: export_calendar(store, profile))
    exported = export_calendar(store, profile)

    parse.show()
    ours.show()
    export.show()
    print(f"  materialised occurrences: {occurrences}; export size {len(exported) / 1e6:.1f} MB")
    ratio, cpu_ratio = ours.median / parse.median, ours.median_cpu / parse.median_cpu
    print(f"import / bare parse = {ratio:.2f}x wall, {cpu_ratio:.2f}x cpu  (target <= 2x: {'ok' if ratio <= 2 else 'MISSED'})")
    print(f"export = {export.median:.2f} s  (target < 1 s: {'ok' if export.median < 1 else 'MISSED'})")

    if args.khal and Path(args.khal).exists():
        khal = Timings("khal import")
        for _ in range(args.khal_runs):
            khal.run(lambda: khal_import(args.khal, ics_path, workdir), cpu_of=children_cpu)
        khal.show()
        speedup, cpu_speedup = khal.median / ours.median, khal.median_cpu / ours.median_cpu
        verdict = "ok" if speedup >= 5 else "MISSED"
        print(f"khal / richeng import = {speedup:.1f}x wall, {cpu_speedup:.1f}x cpu  (target >= 5x: {verdict})")
    else:
        print("khal: skipped (no binary; pass --khal PATH or set KHAL=/tmp/khalvenv/bin/khal)")
    for store, _ in stores:
        store.close()
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
