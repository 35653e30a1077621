"""Bounded recurrence (issue 11): every bomb through import, a year's list, export, a sync pull
and a month view paint ends with a bounded number of instances, and refused rules are named.

The tests assert instance counts and what is refused, never durations: the times and peak
memory of the same paths are measured by ``benchmarks/bench_bombs.py`` (figures in
docs/ics.md). A sync pull of the small bombs goes through a real Radicale; the 100k-RDATE
and 100k-override resources are larger than a CalDAV server takes in one PUT here, so
their pull is tested at the sync layer (``parse_resource`` then ``LocalCalendar.apply``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import icalendar
import pytest
from dateutil.rrule import rrulestr

from agent.errors import ValidationError
from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.ics.report import ImportReport
from agent.services.calendars import CalendarService
from agent.services.queries import QueryService
from agent.store import recurrence
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.expansion import MAX_INSTANCES_PER_CHUNK, MAX_SERIES_INSTANCES
from agent.store.profiles import ensure_profile
from agent.sync.resources import parse_resource
from agent.sync.state import LocalCalendar
from agent.timesym.context import TimeContext
from tests.support import recurrence_bombs as bombs

UTC = ZoneInfo("UTC")
SMALL = ("interval0", "secondly", "secondly_count", "minutely", "bysetpos")
# The 100k bombs are built once per session: the files take a few seconds to write.
_FILES: dict[str, bytes] = {}


def bomb(name: str) -> bytes:
    if name not in _FILES:
        _FILES[name] = bombs.BOMBS[name][0]()
    return _FILES[name]


def fresh(tmp_path) -> tuple[Store, int]:  # type: ignore[no-untyped-def]
    store = Store(tmp_path / "bombs.sqlite3")
    return store, ensure_profile(store)


_IMPORTED: dict[str, tuple[Path, ImportReport]] = {}


def imported(name: str, tmp_path: Path) -> tuple[Store, int, ImportReport]:
    """A store holding bomb ``name`` as ``richeng import`` left it: imported once per
    session (the 100k-override file takes half a minute), then copied for each test."""
    if name not in _IMPORTED:
        folder = Path(tempfile.mkdtemp(prefix="richeng-bombs-"))
        store = Store(folder / f"{name}.sqlite3")
        report = import_bytes(store, ensure_profile(store), bomb(name))
        store.close()
        _IMPORTED[name] = (folder / f"{name}.sqlite3", report)
    source, report = _IMPORTED[name]
    shutil.copy(source, tmp_path / "bombs.sqlite3")
    store = Store(tmp_path / "bombs.sqlite3")
    return store, ensure_profile(store), report


def per_series(store: Store) -> dict[str, int]:
    rows = store.conn.execute(
        "SELECT e.uid, COUNT(o.id) FROM events e LEFT JOIN occurrences o ON o.series_id = e.id"
        " WHERE e.recurrence_id = '' GROUP BY e.uid"
    ).fetchall()
    return {row[0]: row[1] for row in rows}


def year_list(store: Store, profile_id: int) -> list:  # type: ignore[type-arg]
    """What ``richeng events list --start D+0 --end D+364`` reads on 2026-12-01."""
    ctx = TimeContext(now=datetime(2026, 12, 1, 8, tzinfo=UTC), tz=UTC)
    return QueryService(store, profile_id, ctx).range("D+0", "D+364").events


def assert_bounded(store: Store) -> None:
    for uid, count in per_series(store).items():
        assert count <= MAX_SERIES_INSTANCES, uid


def _names(*names: str) -> list[object]:
    """The bombs by name; the two 100,000-instance files (about 40 s of the suite together)
    are ``slow``: `make test` runs them, `make check` does not."""
    return [pytest.param(n, marks=pytest.mark.slow) if n.endswith("100k") else n for n in names]


ALL = _names(*bombs.BOMBS)


# ---- the rules that are refused ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "says"),
    [
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be 1 or more"),
        ("FREQ=WEEKLY;INTERVAL=-2", "INTERVAL must be 1 or more"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0 is outside"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13 is outside"),
        ("FREQ=MINUTELY;BYHOUR=24", "BYHOUR=24 is outside"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS=0 is outside"),
        ("FREQ=SECONDLY;BYSETPOS=2", "can never match"),
        ("FREQ=MINUTELY;BYSECOND=0,30;BYSETPOS=3,-3", "can never match"),
        ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "matches no date"),
        ("FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2", "matches no date"),
        ("FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11", "matches no date"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;INTERVAL=4", "matches no date"),  # 2026 + 4n is never leap
        ("FREQ=HOURLY;INTERVAL=168;BYDAY=MO", "matches no date"),  # a Tuesday, a week at a time
    ],
)
def test_forbidden_and_never_matching_rules_are_refused(rule: str, says: str) -> None:
    problem = recurrence.rule_problem(icalendar.vRecur.from_ical(rule), datetime(2026, 12, 1, 9))
    assert problem is not None and says in problem


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=SECONDLY", "FREQ=SECONDLY;COUNT=10000000", "FREQ=MINUTELY", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=5", "FREQ=HOURLY;INTERVAL=48;BYDAY=MO",
        "FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=WEEKLY;UNTIL=20200101T000000Z",
    ],
)  # fmt: skip
def test_legal_rules_that_match_are_accepted(rule: str) -> None:
    assert recurrence.rule_problem(icalendar.vRecur.from_ical(rule), datetime(2026, 12, 1, 9)) is None


def test_the_editor_and_agent_path_refuses_a_bomb_rule(store: Store, profile_id: int) -> None:
    calendar_id = CalendarService(store, profile_id).default().id
    repo = EventRepo(store, profile_id)
    event = build_event(
        "Never", datetime(2026, 12, 1, 9, tzinfo=UTC), datetime(2026, 12, 1, 10, tzinfo=UTC), rrule="FREQ=DAILY;INTERVAL=0"
    )
    with pytest.raises(ValidationError, match="INTERVAL must be 1 or more"), store.transaction():
        repo.save(event, calendar_id, "agent")
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


# ---- every bomb through every path -------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_import_refuses_or_caps_each_bomb(tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    _, refused, kept = bombs.BOMBS[name]
    store, profile_id, report = imported(name, tmp_path)
    assert {problem.uid for problem in report.errors} == set(refused)
    assert all("cannot expand the series" in problem.message for problem in report.errors)
    counts = per_series(store)
    assert set(counts) == set(kept)
    assert_bounded(store)
    for uid in kept:
        cap = EventRepo(store, profile_id).capped(uid)
        if uid == "setpos-monthly@bomb":  # the ordinary rule among the oddities: not capped
            assert cap is None and counts[uid] <= MAX_INSTANCES_PER_CHUNK
            continue
        # Dense enough to reach the cap within the first two years: capped on import, and
        # the report says so for that event.
        assert cap is not None and cap.shown == counts[uid] == MAX_SERIES_INSTANCES
        notes = [w.message for w in report.warnings if w.uid == uid]
        assert len(notes) == 1 and f"only its first {MAX_SERIES_INSTANCES} instances" in notes[0]
    if name == "overrides100k":
        # every override is kept (export and sync keep the whole series), only instances are capped
        assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 100_001
    store.close()


@pytest.mark.parametrize("name", ALL)
def test_a_year_of_events_list_stays_bounded_and_materialises_nothing_more(tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    store, profile_id, _ = imported(name, tmp_path)
    before = store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0]
    first = year_list(store, profile_id)
    again = year_list(store, profile_id)
    kept = bombs.BOMBS[name][2]
    assert len(first) == len(again) <= MAX_SERIES_INSTANCES * len(kept)
    if name != "bysetpos":  # the capped series were complete on import: a query adds nothing
        assert store.conn.execute("SELECT COUNT(*) FROM occurrences").fetchone()[0] == before
    assert_bounded(store)
    store.close()


@pytest.mark.parametrize("name", ALL)
def test_export_keeps_the_rule_and_a_reimport_is_bounded_again(tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    store, profile_id, _ = imported(name, tmp_path)
    whole = export_calendar(store, profile_id)
    ranged = export_calendar(store, profile_id, start=datetime(2026, 12, 1, tzinfo=UTC), end=datetime(2027, 12, 1, tzinfo=UTC))
    assert whole == ranged or len(ranged) <= len(whole)
    for uid in bombs.BOMBS[name][2]:
        assert f"UID:{uid}".encode() in whole
    if name == "overrides100k":  # the whole series is exported; re-reading it is the import test's cost
        assert whole.count(b"RECURRENCE-ID:") == 100_000
        store.close()
        return
    other = Store(tmp_path / "again.sqlite3")
    other_profile = ensure_profile(other)
    again = import_bytes(other, other_profile, whole)
    assert not again.errors
    assert per_series(other) == per_series(store)
    store.close()
    other.close()


@pytest.mark.parametrize("name", _names("rdates100k", "overrides100k", *SMALL))
def test_a_sync_pull_of_each_bomb_is_refused_or_bounded(tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    """The sync layer directly: the resource as a server would send it, parsed and applied."""
    _, refused, kept = bombs.BOMBS[name]
    store, profile_id = fresh(tmp_path)
    local = LocalCalendar(store, profile_id, CalendarService(store, profile_id).add("Work").id)
    for uid, text in _resources(bomb(name)).items():
        resource = parse_resource(text, f"{uid}.ics")
        if uid in refused:
            assert resource.problem and "cannot expand the series" in resource.problem
            continue
        assert resource.problem is None
        local.apply(resource)
    assert set(per_series(store)) == set(kept)
    assert_bounded(store)
    assert len(year_list(store, profile_id)) <= MAX_SERIES_INSTANCES * len(kept)
    store.close()


def _resources(data: bytes) -> dict[str, str]:
    """One CalDAV resource per UID, as a server holds them (cut as text: these files are
    ours and simple, and the benchmark must not time an icalendar round trip of its own).
    Cut by offsets, so that building the server's copy does not weigh on the sync pull's
    peak memory in benchmarks/bench_bombs.py (100,000 part strings would)."""
    text = data.decode()
    grouped: dict[str, list[tuple[int, int]]] = {}
    begin, end = "BEGIN:VEVENT\r\n", "END:VEVENT\r\n"
    at = text.find(begin)
    while at >= 0:
        stop = text.index(end, at) + len(end)
        uid_at = text.index("UID:", at) + 4
        uid = text[uid_at : text.index("\r\n", uid_at)]
        grouped.setdefault(uid, []).append((at, stop))
        at = text.find(begin, stop)
    head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Richeng//bombs//EN\r\n"
    return {
        uid: "".join([head, *(text[start:stop] for start, stop in spans), "END:VCALENDAR\r\n"]) for uid, spans in grouped.items()
    }


@pytest.fixture(scope="module")
def radicale() -> Iterator[object]:
    from tests.support.caldav_server import running_radicale

    with running_radicale() as running:
        yield running


def test_sync_run_against_a_real_server_pulls_the_small_bombs_bounded(radicale, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``sync run`` against Radicale holding the bombs it accepts. (Radicale itself spins on
    the never-matching BYSETPOS rules and answers 400 to COUNT=10000000; those resources
    are pulled at the sync layer in the test above.)"""
    from tests.support.caldav_server import Device

    url = radicale.new_calendar("Bombs")
    client = radicale.client()
    refused = {"interval-zero@bomb"}
    kept = {"secondly@bomb", "minutely@bomb", *bombs.BYSETPOS_KEPT}
    for name in ("interval0", "secondly", "minutely", "bysetpos"):
        for uid, text in _resources(bomb(name)).items():
            if uid in refused | kept:
                client.put(f"{url.rstrip('/')}/{uid.replace('@', '-')}.ics", text.encode(), {"Content-Type": "text/calendar"})  # type: ignore[attr-defined]
    device = Device(radicale, url, tmp_path / "device.sqlite3")  # type: ignore[arg-type]
    try:
        report = device.sync()
        assert report.pulled == len(kept)  # type: ignore[attr-defined]
        errors = " ".join(str(error) for error in report.to_json()["errors"])  # type: ignore[attr-defined]
        assert errors.count("INTERVAL must be 1 or more") == 1
        stored = {uid for uid, _ in device.events()}
        assert stored == kept
        assert_bounded(device.store)
        assert len(year_list(device.store, device.profile_id)) <= MAX_SERIES_INSTANCES * len(kept)
        again = device.sync()  # nothing new: the bombs are not fetched or expanded again
        assert again.pulled == 0  # type: ignore[attr-defined]
    finally:
        device.close()


@pytest.mark.parametrize("name", _names("minutely", "overrides100k", "bysetpos"))
def test_month_view_paints_a_bomb_month_with_bounded_items(qtbot, area, cal_store, profile, tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    source, _, _ = imported(name, tmp_path)
    source.conn.backup(cal_store.conn)  # the imported store, into the app's own file
    source.close()
    area.set_view("month")
    area.set_anchor(date(2026, 12, 1))
    area.refresh()
    month = area.current_view()
    first, end = month.date_range()
    assert first <= date(2026, 12, 1) < end
    shown = [item for item in month.visible_items() if getattr(item, "event", None) is not None]
    more = [item for item in month.visible_items() if getattr(item, "kind", "") == "more"]
    assert shown and more  # the dense days overflow into "+N", they are not all laid out
    assert len(shown) <= 42 * max(month.slots(), 1)
    assert sum(item.count for item in more) + len(shown) <= MAX_SERIES_INSTANCES * len(bombs.BOMBS[name][2]) + 42
    assert not month.grab().isNull()  # a real paint of the month


def test_the_event_editor_says_a_series_is_capped(qtbot, area, cal_ctx, cal_store, profile) -> None:  # type: ignore[no-untyped-def]
    from app.calendar.event_dialog import EventDialog

    import_bytes(cal_store, profile, bomb("minutely"))
    import_bytes(cal_store, profile, bomb("bysetpos"))
    repo = EventRepo(cal_store, profile)
    window = (datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 2, tzinfo=UTC))
    capped = next(occ for occ in repo.occurrences(*window, UTC) if occ.uid == "minutely@bomb")
    ordinary = next(occ for occ in repo.occurrences(*window, UTC) if occ.uid == "setpos-monthly@bomb")
    dialog = EventDialog(cal_ctx, area, occurrence=capped)
    qtbot.addWidget(dialog)
    assert not dialog.repeat.note.isHidden()
    assert str(MAX_SERIES_INSTANCES) in dialog.repeat.note.text()
    plain = EventDialog(cal_ctx, area, occurrence=ordinary)
    qtbot.addWidget(plain)
    assert str(MAX_SERIES_INSTANCES) not in plain.repeat.note.text()


# ---- incremental expansion: resumed where it stopped, never from DTSTART -----------------


def _series(store: Store, profile_id: int, rule: str, start: datetime, horizon: datetime) -> EventRepo:
    calendar_id = CalendarService(store, profile_id).default().id
    repo = EventRepo(store, profile_id)
    event = build_event("Series", start, start + timedelta(minutes=30), uid="series@test", rrule=rule)
    with store.transaction():
        repo.save(event, calendar_id, "user", materialize=False)
        repo.expander.materialize("series@test", horizon_ts=int(horizon.timestamp()))
    return repo


def _instances(repo: EventRepo, lo: datetime, hi: datetime) -> list[datetime]:
    return [occ.start.astimezone(UTC) for occ in repo.occurrences(lo, hi, UTC)]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "rule",
    ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=2", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=DAILY;COUNT=3000",
     "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,TH;COUNT=500", "FREQ=MONTHLY;BYMONTHDAY=31"],
)  # fmt: skip
def test_a_resumed_extension_finds_exactly_what_dateutil_finds(store: Store, profile_id: int, rule: str) -> None:
    start = datetime(2000, 1, 31, 9, tzinfo=UTC)
    repo = _series(store, profile_id, rule, start, datetime(2001, 1, 1, tzinfo=UTC))
    lo, hi = datetime(2007, 3, 1, tzinfo=UTC), datetime(2008, 3, 1, tzinfo=UTC)
    expected = [value for value in rrulestr(rule, dtstart=start).between(lo, hi, inc=True) if value < hi]
    assert _instances(repo, lo, hi) == expected
    if "COUNT=" in rule:  # COUNT is honoured across resumptions
        # (DTSTART is always an instance, as recurring-ical-events and RFC 5545 have it)
        assert _instances(repo, datetime(2000, 1, 1, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC)) == sorted(
            {start, *rrulestr(rule, dtstart=start)}
        )


def test_an_extension_resumes_from_the_last_instance_not_from_dtstart(
    store: Store, profile_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = datetime(1990, 1, 1, 9, tzinfo=UTC)
    repo = _series(store, profile_id, "FREQ=DAILY", start, datetime(1991, 1, 1, tzinfo=UTC))
    row = repo.row("series@test")
    assert row is not None and row["expanded_until"] is not None and '"rules"' in row["expansion"]
    repo.occurrences(datetime(2005, 1, 1, tzinfo=UTC), datetime(2005, 2, 1, tzinfo=UTC), UTC)  # 14 years on
    made: list[int] = []
    real = recurrence.Budget.spend
    monkeypatch.setattr(recurrence.Budget, "spend", lambda self: (made.append(1), real(self))[1])
    found = repo.occurrences(datetime(2006, 3, 1, tzinfo=UTC), datetime(2006, 3, 8, tzinfo=UTC), UTC)
    assert len(found) == 7
    # One more year and a bit of days was generated, not the 5,900 days since DTSTART.
    assert 0 < len(made) < 600


def test_a_series_is_capped_once_and_then_never_extended(store: Store, profile_id: int) -> None:
    start = datetime(2026, 12, 1, 9, tzinfo=UTC)
    repo = _series(store, profile_id, "FREQ=HOURLY", start, datetime(2027, 1, 1, tzinfo=UTC))
    assert repo.capped("series@test") is None  # 744 hours so far: not capped yet
    found = repo.occurrences(start, datetime(2030, 1, 1, tzinfo=UTC), UTC)
    assert len(found) == MAX_SERIES_INSTANCES
    cap = repo.capped("series@test")
    assert cap is not None and cap.hidden_from == int((start + timedelta(hours=MAX_SERIES_INSTANCES)).timestamp())
    row = repo.row("series@test")
    assert row is not None and row["expanded_until"] is None and row["capped"] == 1
    assert len(repo.occurrences(datetime(2031, 1, 1, tzinfo=UTC), datetime(2032, 1, 1, tzinfo=UTC), UTC)) == 0
    # Saving the event again (the user edited it) starts over, uncapped until it is dense again.
    with store.transaction():
        repo.save(
            build_event("Series", start, start + timedelta(minutes=30), uid="series@test", rrule="FREQ=DAILY"),
            CalendarService(store, profile_id).default().id,
            "user",
        )
    assert repo.capped("series@test") is None


def test_a_walk_that_does_not_advance_ends(store: Store, profile_id: int) -> None:
    """A rule that slipped past validation (stored by an older version) cannot hang."""
    calendar_id = CalendarService(store, profile_id).default().id
    repo = EventRepo(store, profile_id)
    event = build_event("Old", datetime(2026, 12, 1, 9, tzinfo=UTC), datetime(2026, 12, 1, 10, tzinfo=UTC), uid="old@test")
    with store.transaction():
        repo.save(event, calendar_id, "user")
        event.add("RRULE", icalendar.vRecur.from_ical("FREQ=DAILY;INTERVAL=0"))
        store.conn.execute(
            "UPDATE events SET ics = ?, rrule = 'FREQ=DAILY;INTERVAL=0' WHERE uid = 'old@test'", (event.to_ical().decode(),)
        )
        repo.expander.materialize("old@test")
    found = repo.occurrences(datetime(2026, 11, 1, tzinfo=UTC), datetime(2027, 12, 1, tzinfo=UTC), UTC)
    assert len(found) == 1


def test_report_keeps_its_agreed_keys() -> None:
    assert set(ImportReport(0, 0, 0, []).to_json()) == {"imported", "updated", "skipped", "errors"}


def test_caps_are_module_constants_the_docs_name() -> None:
    assert (MAX_SERIES_INSTANCES, MAX_INSTANCES_PER_CHUNK) == (20_000, 5_000)
