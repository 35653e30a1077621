"""A hostile server (issue 29): every attack, on every request kind it can ride, in one table.

Each case puts ``HostileServer`` (tests/agent/sync/hostile.py) between a device and a real
Radicale, syncs once cleanly, arms one attack and syncs again under small limits
(``LIMITS``: a 1.5 s request deadline, a 1 MB body cap, 256 KB for a listing). Then it checks, and records for the
table in docs/sync.md:

* nothing lost or overwritten: every event the device had is still there, unchanged, in its
  own calendar (the unsynced "Private" one included);
* nothing foreign stored, and no request — let alone a credential — sent to ``Elsewhere``,
  the other origin the attacks point at;
* time and memory bounded: the run ended (a hang guard of ``HANG_GUARD_S``, never a timing
  assertion) and ``tracemalloc``'s peak during it stays under ``PEAK_MB``;
* the fault reported, in one line naming it.

Run with ``-s`` to print the table.
"""

from __future__ import annotations

import dataclasses
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from agent.store.components import build_event
from agent.store.read_only import ReadOnlyCalendarError
from agent.sync.report import SyncReport
from agent.sync.transport import Limits
from tests.agent.sync.hostile import Answer, Elsewhere, HostileServer, Request, add_members, member, multistatus
from tests.agent.sync.remote_state import BASE, ServerSide, device_behind, event_text, token_of
from tests.support.caldav_server import CalDavServer, Device

LIMITS = Limits(request_s=1.5, run_s=20.0, read_s=1.0, body_bytes=1024 * 1024, listing_bytes=256 * 1024, listing_entries=500)
HANG_GUARD_S = 60.0  # only a hang fails on time; no case is expected to come near it
PEAK_MB = 40.0
RESULTS: dict[tuple[str, str], tuple[str, str]] = {}


@pytest.fixture(scope="module")
def hostile(server: CalDavServer) -> Iterator[HostileServer]:
    found = HostileServer(server.url)
    yield found
    found.close()
    if RESULTS:
        print("\n" + table())


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[Elsewhere]:
    found = Elsewhere()
    yield found
    found.close()


def table() -> str:
    lines = ["| attack | request kind | lost / foreign / leaked | time, peak | report line |", "|---|---|---|---|---|"]
    for (attack, kind), (result, line) in sorted(RESULTS.items()):
        lines.append(f"| {attack} | {kind} | {result} | {line} |")
    return "\n".join(lines)


@dataclass
class Case:
    """One device behind the hostile server, in step with its calendar, with an unsynced
    calendar "Private" holding an event of its own."""

    side: ServerSide
    device: Device
    hostile: HostileServer
    elsewhere: Elsewhere
    uids: list[str]
    private_uid: str

    @property
    def path(self) -> str:
        """The calendar's path on the server (and through the hostile server)."""
        return "/" + self.side.url.split("/", 3)[3]

    def snapshot(self) -> dict[tuple[str, str], tuple[int, str, str]]:
        """(uid, recurrence id) -> (calendar id, title, stored text) of every local row."""
        rows = self.device.store.conn.execute("SELECT uid, recurrence_id, calendar_id, title, ics FROM events").fetchall()
        return {(r["uid"], r["recurrence_id"]): (r["calendar_id"], r["title"], r["ics"]) for r in rows}


def _case(server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path, *, tokens: bool = True) -> Case:
    hostile.arm(None)
    side = ServerSide(server)
    uids = side.seed(3)
    device = device_behind(hostile, server, side, tmp_path / "a.sqlite3", tokens=tokens)  # type: ignore[arg-type]
    device.engine.limits = LIMITS
    private_id = _add_calendar(device, "Private")
    component = build_event("Private talk", BASE, BASE + timedelta(hours=1), description="secret notes")
    with device.store.transaction():
        device.edit.repo.save(component, private_id, "user")
    report = device.engine.run()
    assert report.errors == [], report.errors
    return Case(side, device, hostile, elsewhere, uids, str(component["UID"]))


def _add_calendar(device: Device, name: str) -> int:
    from agent.services.calendars import CalendarService

    return CalendarService(device.store, device.profile_id).add(name).id


def _attacked_run(case: Case, attack: Callable[[HostileServer, Request], Answer | None]) -> tuple[SyncReport, float, float]:
    """One sync under ``attack``: its report, seconds and peak traced memory (MB)."""
    case.hostile.arm(attack)
    case.hostile.sent_bytes = 0
    tracemalloc.start()
    started = time.monotonic()
    try:
        report = case.device.engine.run()
    finally:
        seconds = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1] / 1048576
        tracemalloc.stop()
    case.hostile.arm(None)
    return report, seconds, peak


def _judge(
    name: str,
    kind: str,
    case: Case,
    before: dict[tuple[str, str], tuple[int, str, str]],
    report: SyncReport,
    seconds: float,
    peak: float,
    said: str,
    *,
    changed: set[str] = frozenset(),  # type: ignore[assignment]
) -> None:
    """The four checks of the module docstring, recorded for the table, then asserted."""
    now = case.snapshot()
    lost = {key for key in before if key[0] not in changed and now.get(key) != before[key]}
    foreign = {key for key in now if key not in before and key[0] not in changed}
    leaked = [r for r in case.elsewhere.requests]
    lines = [str(p) for p in report.errors]
    line = next((text for text in lines if said in text), lines[0] if lines else "(nothing reported)")
    RESULTS[(name, kind)] = (f"{len(lost)} / {len(foreign)} / {len(leaked)}", f"{seconds:.1f} s, {peak:.0f} MB | {line}")
    assert not lost, f"lost or overwritten: {sorted(lost)}"
    assert not foreign, f"stored from the attack: {sorted(foreign)}"
    assert not leaked, f"requests sent to another origin: {[(r.method, r.path, r.authorised) for r in leaked]}"
    assert seconds < HANG_GUARD_S and peak < PEAK_MB
    assert any(said in text for text in lines), lines
    assert all("\n" not in text for text in lines)


# ---- hrefs outside the collection (finding 7) ---------------------------------------------------

OUTSIDE = ("other-origin", "encoded-slash", "protocol-relative", "other-collection", "dot-dot")


def _outside_hrefs(case: Case) -> list[str]:
    port = case.elsewhere.port
    return [
        f"http://127.0.0.1:{port}/steal.ics",
        f"/%2F127.0.0.1:{port}/steal.ics",
        f"//127.0.0.1:{port}/steal2.ics",
        case.path.rsplit("/", 2)[0] + "/someone-else/x.ics",
        case.path + "../someone-else/y.ics",
    ]


@pytest.mark.parametrize("kind", ["sync-collection", "PROPFIND"])
def test_hrefs_outside_the_collection_are_never_requested(
    kind: str, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    elsewhere.requests.clear()
    case = _case(server, hostile, elsewhere, tmp_path, tokens=kind != "PROPFIND")
    before = case.snapshot()
    hrefs = _outside_hrefs(case)

    def attack(owner: HostileServer, request: Request) -> Answer | None:
        if request.kind != kind:
            return None
        status, _, headers, body = owner.forward(request.method, request.path, request.headers, request.body)
        return Answer(status, add_members(body, *(member(h, f'"{i}"') for i, h in enumerate(hrefs))), headers)

    case.side.put(case.uids[1], "edited there", BASE + timedelta(days=2))  # a real change rides along
    report, seconds, peak = _attacked_run(case, attack)
    _judge("hrefs outside the collection", kind, case, before, report, seconds, peak, "outside the calendar",
           changed={case.uids[1]})  # fmt: skip
    assert sum("outside the calendar" in p.message for p in report.errors) == len(hrefs)
    assert all(case.path in r.path or r.kind.startswith("PROPFIND") or r.path.endswith("/") for r in hostile.log)
    assert "edited there" in case.device.titles()
    case.device.close()


def test_a_listing_of_only_foreign_hrefs_deletes_nothing(
    server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    """Refused hrefs make a listing partial: read as whole, its "missing" events were deletions."""
    case = _case(server, hostile, elsewhere, tmp_path, tokens=False)
    before = case.snapshot()
    other = case.path.rsplit("/", 2)[0] + "/someone-else/"
    case.side.put(case.uids[1], "edited there", BASE + timedelta(days=2))  # the ctag moves: a listing is read

    def attack(owner: HostileServer, request: Request) -> Answer | None:
        if request.kind != "PROPFIND":
            return None
        status, _, headers, body = owner.forward(request.method, request.path, request.headers, request.body)
        return Answer(status, body.replace(case.path.encode(), other.encode()), headers)

    report, seconds, peak = _attacked_run(case, attack)
    _judge("every href in another collection", "PROPFIND", case, before, report, seconds, peak, "outside the calendar")
    case.device.close()


# ---- 412, then somebody else's event at that name (finding 3) ------------------------------------


def test_a_412_then_a_foreign_uid_never_overwrites_another_calendar(
    server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    made = case.device.add("made here", BASE + timedelta(days=5), BASE + timedelta(days=5, hours=1))
    before = case.snapshot()
    foreign = event_text(case.private_uid, "OVERWRITTEN by the server", BASE).encode()

    refused: list[str] = []

    def attack(owner: HostileServer, request: Request) -> Answer | None:
        if request.kind == "PUT" and "If-None-Match" in request.headers:
            refused.append(request.path)
            return Answer(412)
        if request.kind == "GET" and request.path in refused:
            return Answer(200, foreign, {"Content-Type": "text/calendar", "ETag": '"foreign"'})
        return None

    report, seconds, peak = _attacked_run(case, attack)
    _judge("412 then a foreign UID", "PUT (create)", case, before, report, seconds, peak, "already in local calendar")
    assert any(made in (p.uid or "") and "another event" in p.message for p in report.errors), report.errors
    case.device.close()


# ---- slow and endless answers (findings 10, 11) ---------------------------------------------------

SLOW = ["sync-collection", "PROPFIND-privileges", "multiget", "GET", "PUT"]


def _pull_and_push(case: Case) -> set[str]:
    """A change on each side, so every request kind is sent; the UIDs changed."""
    case.side.put(case.uids[1], "edited there", BASE + timedelta(days=2))
    case.device.retitle(case.uids[2], "edited here")
    return {case.uids[1], case.uids[2]}


def _only(kind: str, answer: Callable[[], Answer]) -> Callable[[HostileServer, Request], Answer | None]:
    """``answer`` for requests of ``kind``; for GET, multiget fails first so GETs are sent."""

    def attack(owner: HostileServer, request: Request) -> Answer | None:
        if kind == "GET" and request.kind == "multiget":
            return Answer(500)
        return answer() if request.kind == kind else None

    return attack


@pytest.mark.parametrize("kind", SLOW)
def test_a_server_trickling_one_byte_at_a_time_meets_the_deadline(
    kind: str, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    token = token_of(case.device)
    changed = _pull_and_push(case)
    before = case.snapshot()
    trickle = _only(kind, lambda: Answer(207, b"<" * 400, {"Content-Type": "application/xml"}, trickle=0.25))
    report, seconds, peak = _attacked_run(case, trickle)
    _judge("one byte every 0.25 s", kind, case, before, report, seconds, peak, "did not finish answering", changed=changed)
    assert token_of(case.device) == token, "the token stays until a run completes"
    assert case.device.engine.run().errors == [], "the next run, with an honest server, goes through"
    case.device.close()


def test_the_run_has_a_deadline_of_its_own(
    server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    """Each answer within the request deadline, the run as a whole not within its own."""
    case = _case(server, hostile, elsewhere, tmp_path)
    changed = _pull_and_push(case)
    before = case.snapshot()
    case.device.engine.limits = dataclasses.replace(LIMITS, request_s=30.0, run_s=1.0)
    trickle = _only("multiget", lambda: Answer(207, b"<" * 400, {"Content-Type": "application/xml"}, trickle=0.25))
    report, seconds, peak = _attacked_run(case, trickle)
    _judge("one byte every 0.25 s, run deadline", "multiget", case, before, report, seconds, peak, "did not finish answering",
           changed=changed)  # fmt: skip
    case.device.close()


@pytest.mark.parametrize("kind", ["sync-collection", "multiget", "GET"])
def test_an_endless_body_is_cut_at_the_cap(
    kind: str, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    changed = _pull_and_push(case)
    before = case.snapshot()
    endless = _only(kind, lambda: Answer(207, b"<D:x>" * 13000, {"Content-Type": "application/xml"}, endless=True))
    report, seconds, peak = _attacked_run(case, endless)
    _judge("endless body", kind, case, before, report, seconds, peak, "MB; not read", changed=changed)
    assert hostile.sent_bytes > (LIMITS.listing_bytes if kind == "sync-collection" else LIMITS.body_bytes)
    case.device.close()


def test_an_endless_listing_is_one_error(
    server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    before = case.snapshot()
    token = token_of(case.device)
    listing = multistatus(*(member(f"{case.path}n-{i}.ics", f'"{i}"') for i in range(LIMITS.listing_entries + 1)), token="t2")
    report, seconds, peak = _attacked_run(
        case, _only("sync-collection", lambda: Answer(207, listing, {"Content-Type": "application/xml"}))
    )
    _judge("a listing of too many hrefs", "sync-collection", case, before, report, seconds, peak, "resources; not synced")
    assert token_of(case.device) == token
    case.device.close()


# ---- one bad resource among good ones (findings 9, 12, 13) -----------------------------------------

ZONE_BOMB = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bomb//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Bomb\r\n"
    b"BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nRRULE:FREQ=SECONDLY\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\n"
    b"END:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700101T000001\r\nRRULE:FREQ=SECONDLY;INTERVAL=2\r\n"
    b"TZOFFSETFROM:+0000\r\nTZOFFSETTO:+0100\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:extra\r\n"
    b"DTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Bomb:20270105T100000\r\nDTEND;TZID=Bomb:20270105T110000\r\n"
    b"SUMMARY:bomb\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)
BAD_BYTES = event_text("extra", "caf\udcff", BASE).encode("utf-8", "surrogateescape")
CONTROLS = event_text("extra", "clear\x1b[2J bell\x07 nul\x00 end", BASE).encode()
EXTRA = {"zone bomb": ZONE_BOMB, "bytes that are not UTF-8": BAD_BYTES, "control characters": CONTROLS}
SAID = {"zone bomb": "FREQ=SECONDLY", "bytes that are not UTF-8": "not UTF-8", "control characters": ""}


def _extra_resource(case: Case, data: bytes, via: str) -> Callable[[HostileServer, Request], Answer | None]:
    """The listing names one more resource, ``extra.ics``, served as ``data`` by ``via``."""
    href = case.path + "extra.ics"

    def attack(owner: HostileServer, request: Request) -> Answer | None:
        if request.kind == "sync-collection":
            status, _, headers, body = owner.forward(request.method, request.path, request.headers, request.body)
            return Answer(status, add_members(body, member(href, '"extra-1"')), headers)
        if request.kind == "GET" and request.path == href:
            return Answer(200, data, {"Content-Type": "text/calendar", "ETag": '"extra-1"'})
        if request.kind == "multiget" and via == "multiget" and b"extra.ics" in request.body:
            status, _, headers, body = owner.forward(request.method, request.path, request.headers, request.body)
            text = escape(data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
            extra = (
                (
                    f'<response xmlns="DAV:"><href>{href}</href><propstat><prop><getetag>"extra-1"</getetag>'
                    '<calendar-data xmlns="urn:ietf:params:xml:ns:caldav">'
                ).encode()
                + text
                + b"</calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
            )
            end = body.rindex(b"</")
            return Answer(status, body[:end] + extra + body[end:], headers)
        return None

    return attack


@pytest.mark.parametrize("what", list(EXTRA))
@pytest.mark.parametrize("via", ["multiget", "GET"])
def test_one_bad_resource_costs_only_itself(
    what: str, via: str, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    case.side.put(case.uids[1], "edited there", BASE + timedelta(days=2))
    before = case.snapshot()
    attack = _extra_resource(case, EXTRA[what], via)
    if what == "control characters":
        report, seconds, peak = _attacked_run(case, attack)
        titles = case.device.titles()
        assert "clear[2J bell nul end" in titles and not any(ord(c) < 32 for t in titles for c in t)
        RESULTS[(what, via)] = ("0 / 0 / 0", f'{seconds:.1f} s, {peak:.0f} MB | (stored without them: "clear[2J bell nul end")')
        # XML 1.0 has no ESC or NUL: a multistatus carrying them is refused whole, and made
        # up for with a GET (said once); the GET's own copy is stored without them.
        assert all("multiget" in p.message for p in report.errors), report.errors
        case.device.close()
        return
    report, seconds, peak = _attacked_run(case, attack)
    _judge(what, via, case, before, report, seconds, peak, SAID[what], changed={case.uids[1]})
    assert "edited there" in case.device.titles(), "the good change came in beside the bad one"
    case.side.put(case.uids[2], "edited there later", BASE + timedelta(days=3))
    later, _, _ = _attacked_run(case, attack)
    assert "edited there later" in case.device.titles(), "the bad resource does not block later syncs"
    assert all("extra" in f"{p.uid} {p.message}" or "multiget" in p.message for p in later.errors), later.errors
    case.device.close()


# ---- what real servers answer (the tracker list) ------------------------------------------

RETRY = ["sync-collection", "PROPFIND-privileges", "multiget", "GET", "PUT", "DELETE"]


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("kind", RETRY)
def test_retry_after_stops_the_calendar_and_keeps_the_token(
    kind: str, status: int, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    token = token_of(case.device)
    changed = _pull_and_push(case)
    case.device.remove(case.uids[0])
    changed.add(case.uids[0])
    before = case.snapshot()
    report, seconds, peak = _attacked_run(case, _only(kind, lambda: Answer(status, b"", {"Retry-After": "7"})))
    _judge(f"{status} Retry-After: 7", kind, case, before, report, seconds, peak, "retry after 7 s", changed=changed)
    assert token_of(case.device) == token
    case.device.close()


@pytest.mark.parametrize("kind", ["PUT", "DELETE"])
def test_a_failure_inside_a_207_is_a_failure(
    kind: str, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    if kind == "PUT":
        case.device.retitle(case.uids[1], "edited here")
    else:
        case.device.remove(case.uids[1])
    before = case.snapshot()
    refusal = multistatus(f"<D:response><D:href>{case.path}x</D:href><D:status>HTTP/1.1 403 Forbidden</D:status></D:response>")
    report, seconds, peak = _attacked_run(case, _only(kind, lambda: Answer(207, refusal, {"Content-Type": "application/xml"})))
    _judge("207 with a 403 inside", kind, case, before, report, seconds, peak, "207 answer says HTTP 403")
    clean = case.device.engine.run()
    assert clean.errors == [] and clean.pushed == 1, "the change is sent on the next run"
    on_server = case.side.uids()
    assert (case.uids[1] in on_server) == (kind == "PUT")
    if kind == "PUT":
        assert "edited here" in case.device.titles()
    case.device.close()


@pytest.mark.parametrize("kind", ["PUT", "DELETE"])
def test_a_404_to_a_write_is_not_gone(
    kind: str, server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    """Nextcloud's answer to a write on a read-only share, when privileges were not said."""
    case = _case(server, hostile, elsewhere, tmp_path)
    if kind == "PUT":
        case.device.retitle(case.uids[1], "edited here")
    else:
        case.device.remove(case.uids[1])
    before = case.snapshot()
    report, seconds, peak = _attacked_run(case, _only(kind, lambda: Answer(404)))
    _judge("404 to a write", kind, case, before, report, seconds, peak, "still holds the event")
    clean = case.device.engine.run()
    assert clean.errors == [] and clean.pushed == 1, "still to send: nothing was taken as gone"
    case.device.close()


READ_ONLY = multistatus(
    "<D:response><D:href>{path}</D:href><D:propstat><D:prop><D:current-user-privilege-set>"
    "<D:privilege><D:read/></D:privilege><D:privilege><D:read-current-user-privilege-set/></D:privilege>"
    "</D:current-user-privilege-set></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
)


def test_a_read_only_calendar_is_never_written(
    server: CalDavServer, hostile: HostileServer, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    case = _case(server, hostile, elsewhere, tmp_path)
    changed = _pull_and_push(case)
    case.device.remove(case.uids[0])
    case.device.add("made here", BASE + timedelta(days=6), BASE + timedelta(days=6, hours=1))
    before = case.snapshot()
    privileges = READ_ONLY.replace(b"{path}", case.path.encode())

    def attack(owner: HostileServer, request: Request) -> Answer | None:
        if request.kind == "PROPFIND-privileges":
            return Answer(207, privileges, {"Content-Type": "application/xml"})
        if request.kind in ("PUT", "DELETE"):
            return Answer(404)
        return None

    report, seconds, peak = _attacked_run(case, attack)
    writes = [r for r in hostile.log if r.kind in ("PUT", "DELETE")]
    _judge("read-only calendar (404 to writes)", "PUT, DELETE", case, before, report, seconds, peak, "read-only on the server",
           changed=changed)  # fmt: skip
    assert writes == [], "nothing is written to a read-only calendar"
    assert "edited there" in case.device.titles(), "its server changes still come in"
    assert case.device.engine.accounts.read_only_calendars() == {case.device.calendar_id}
    with pytest.raises(ReadOnlyCalendarError):  # from now on the app, the chat and the CLI cannot write it either
        case.device.add("made after", BASE + timedelta(days=7), BASE + timedelta(days=7, hours=1))
    case.device.close()
