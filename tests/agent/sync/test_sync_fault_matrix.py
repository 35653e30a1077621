"""Every request kind a sync sends, broken every way the fault proxy knows, in two syncs.

For each (request kind, fault) the proxy breaks every request of that kind during one sync;
then one clean sync runs. After the faulted sync nothing the server still holds is missing
here and the fault is in the report's errors; after the clean one the store equals the
server — the same UIDs once each, the same instances with the same titles — with no
conflict. Two syncs are broken this way:

* ``incremental``: a device in step with the server, then changes on both sides (the server
  edits, creates and deletes one event; the device does the same), so the faulted run both
  pulls and pushes;
* ``first``: a new device whose local calendar already holds an event syncs for the first
  time with a calendar that holds others (a complete listing, a fetch of all, an upload).

A PROPFIND is what a server without sync tokens is listed with, so those cases run without
tokens; "GET" breaks the multiget too, since GET is its fallback.

Time: every request to Radicale costs tens of milliseconds here, so the cases of one kind
share one calendar (and, for ``incremental``, one device): each case starts from the state
the previous one converged to and changes events no earlier case touched. A failing case
drops its calendar, so the next one starts afresh rather than from its damage. Run with
``-s`` to print the outcome table (docs/sync.md has it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

from agent.sync.report import SyncReport
from tests.agent.sync.remote_state import BASE, ServerSide, device_behind, impatient_run, local_instances, local_uids
from tests.support.caldav_server import CalDavServer, Device
from tests.support.fault_proxy import KINDS, MODES, Fault, FaultProxy

BROKEN = {kind: frozenset({kind, "multiget"} if kind == "GET" else {kind}) for kind in KINDS}
INCREMENTAL = [(kind, mode) for kind in KINDS for mode in MODES]
FIRST = [(kind, mode) for kind in KINDS if kind != "DELETE" for mode in MODES]
SEEDED = 20  # one weekly series with a moved instance, and singles


@dataclass
class Outcome:
    lost: int = 0
    duplicated: int = 0
    reported: bool = False
    hit: bool = False


@dataclass
class Shared:
    """One calendar (and device) the cases of one (scenario, kind) go on with."""

    side: ServerSide
    device: Device | None = None
    pool: list[str] = field(default_factory=list)  # synced events no case has touched yet


RESULTS: dict[tuple[str, str, str], Outcome] = {}


@pytest.fixture(scope="module")
def shared() -> Iterator[dict[tuple[str, str], Shared]]:
    made: dict[tuple[str, str], Shared] = {}
    yield made
    for item in made.values():
        if item.device is not None:
            item.device.close()
    if RESULTS:
        print("\n" + fault_table())


def fault_table() -> str:
    """The markdown table of docs/sync.md: a row per (sync, request kind), a column per fault;
    each cell is events lost / events duplicated / fault reported."""
    lines = [
        "| sync: request kind | " + " | ".join(MODES) + " |",
        "|---|" + "---|" * len(MODES),
    ]
    for scenario in ("incremental", "first"):
        for kind in KINDS:
            cells = []
            for mode in MODES:
                found = RESULTS.get((scenario, kind, mode))
                if found is None:
                    cells.append("–")
                    continue
                said = "yes" if found.reported else "**no**"
                cells.append(f"{found.lost} / {found.duplicated} / {said}" + ("" if found.hit else " (not hit)"))
            if any(cell != "–" for cell in cells):
                lines.append(f"| {scenario}: {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _faulted_run(device: Device, mode: str) -> SyncReport:
    """The sync under the fault: a held answer is given up on after a second, others as usual.

    Only the ``timeout`` cases use the short client timeout, so a busy machine cannot turn a
    slow but healthy answer into a second fault in the other cases.
    """
    return impatient_run(device) if mode == "timeout" else impatient_run(device, timeout_s=30)


@contextmanager
def _afresh_if_failed(shared: dict[tuple[str, str], Shared], key: tuple[str, str]) -> Iterator[None]:
    """A failed case leaves its calendar damaged: the next case of its kind starts a new one."""
    try:
        yield
    except AssertionError:
        gone = shared.pop(key, None)
        if gone is not None and gone.device is not None:
            gone.device.close()
        raise


def _duplicates(uids: list[str]) -> int:
    return len(uids) - len(set(uids))


@pytest.mark.parametrize(("kind", "mode"), INCREMENTAL, ids=[f"{k}-{m}" for k, m in INCREMENTAL])
def test_incremental_sync_survives(
    kind: str, mode: str, server: CalDavServer, proxy: FaultProxy, tmp_path: Path, shared: dict[tuple[str, str], Shared]
) -> None:
    mine = shared.get(("incremental", kind))
    if mine is None:
        side = ServerSide(server)
        uids = side.seed(SEEDED)
        device = device_behind(proxy, server, side, tmp_path / "a.sqlite3", tokens=kind != "PROPFIND")
        assert device.engine.run().errors == []
        mine = shared[("incremental", kind)] = Shared(side, device, uids[1:])
    side, device = mine.side, mine.device
    assert device is not None
    edit_there, delete_there, edit_here, delete_here = (mine.pool.pop(0) for _ in range(4))
    before = set(local_uids(device))
    side.put(edit_there, f"edited on the server ({mode})", BASE + timedelta(days=1, hours=2))
    made_there = f"server-new-{mode}"
    side.put(made_there, f"made on the server ({mode})", BASE + timedelta(days=9))
    side.delete(delete_there)
    device.retitle(edit_here, f"edited here ({mode})")
    device.remove(delete_here)
    made_here = device.add(f"made here ({mode})", BASE + timedelta(days=10), BASE + timedelta(days=10, hours=1))
    expected = sorted((before - {delete_there, delete_here}) | {made_there, made_here})
    had = set(local_uids(device))

    outcome = RESULTS[("incremental", kind, mode)] = Outcome()
    proxy.inject(Fault(BROKEN[kind], mode))
    report = _faulted_run(device, mode)
    outcome.hit = any(hit in BROKEN[kind] for hit, _ in proxy.hits)
    outcome.reported = bool(report.errors)
    proxy.inject(None)
    lost_now = (had & set(side.uids())) - set(local_uids(device))

    clean = device.engine.run()
    on_server, instances = side.state()
    here = local_uids(device)
    outcome.lost = len(lost_now | (set(expected) - set(here)) | (set(expected) - set(on_server)))
    outcome.duplicated = _duplicates(on_server) + max(0, len(local_instances(device)) - len(instances))

    with _afresh_if_failed(shared, ("incremental", kind)):
        assert outcome.hit, f"no {kind} request was broken: {proxy.seen}"
        assert outcome.reported and all("\n" not in p.message for p in report.errors), report.errors
        assert not lost_now, "nothing the server still holds was deleted here"
        assert (clean.errors, clean.conflicts) == ([], 0)
        assert on_server == here == expected
        assert local_instances(device) == instances
        assert {f"edited on the server ({mode})", f"edited here ({mode})", f"made here ({mode})"} <= device.titles()
    mine.pool += [made_there, made_here]


@pytest.mark.parametrize(("kind", "mode"), FIRST, ids=[f"{k}-{m}" for k, m in FIRST])
def test_first_sync_survives(
    kind: str, mode: str, server: CalDavServer, proxy: FaultProxy, tmp_path: Path, shared: dict[tuple[str, str], Shared]
) -> None:
    mine = shared.get(("first", kind))
    if mine is None:
        side = ServerSide(server)
        side.seed(6)
        mine = shared[("first", kind)] = Shared(side)
    side = mine.side
    device = device_behind(proxy, server, side, tmp_path / "a.sqlite3", tokens=kind != "PROPFIND")
    made_here = device.add(f"made here ({mode})", BASE + timedelta(days=10), BASE + timedelta(days=10, hours=1))
    expected = sorted({*side.uids(), made_here})

    outcome = RESULTS[("first", kind, mode)] = Outcome()
    proxy.inject(Fault(BROKEN[kind], mode))
    report = _faulted_run(device, mode)
    outcome.hit = any(hit in BROKEN[kind] for hit, _ in proxy.hits)
    outcome.reported = bool(report.errors)
    proxy.inject(None)
    kept = made_here in local_uids(device)

    clean = device.engine.run()
    on_server, instances = side.state()
    here, seen_here = local_uids(device), local_instances(device)
    device.close()
    outcome.lost = len((set() if kept else {made_here}) | (set(expected) - set(here)) | (set(expected) - set(on_server)))
    outcome.duplicated = _duplicates(on_server) + max(0, len(seen_here) - len(instances))

    with _afresh_if_failed(shared, ("first", kind)):
        assert outcome.hit, f"no {kind} request was broken: {proxy.seen}"
        assert outcome.reported and all("\n" not in p.message for p in report.errors), report.errors
        assert kept, "the local event stays"
        assert (clean.errors, clean.conflicts) == ([], 0)
        assert on_server == here == expected
        assert seen_here == instances
