"""Every .ics shipped inside icalendar and recurring-ical-events: import, export, re-import.

These are the libraries' own regression files, many deliberately broken. For each one the
import must not crash; it must either import something or explain itself (a read error, or
a listed problem per bad component); and whatever imported must survive export and
re-import into a fresh store with the same fields and the same instances.

``test_no_instance_is_lost`` holds the store to recurring-ical-events reading the original
file: every instance it expands is in the store, at the same start; and at the same end
too, except in the files of ``DELIBERATE``, where docs/ics.md ("Repairs") says why ours
differs. A series it cannot expand must be named in the report's errors.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta
from importlib.resources import files
from pathlib import Path
from typing import Any

import icalendar
import pytest
import recurring_ical_events
import x_wr_timezone
from icalendar.timezone import tzp

from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.ics.reader import IcsReadError
from agent.store.components import span_columns
from agent.store.db import Store
from agent.store.events import EventRepo
from tests.agent.ics.test_ics_support import event_fields, fresh, instances, reference_starts, span_of, stored_starts

# Files where our instances end differently from recurring-ical-events', on purpose.
DELIBERATE = {
    "icalendar/tests/calendars/example.ics": "an all-day DTEND equal to DTSTART is made one day long",
    "recurring_ical_events/test/calendars/Germany_Holidays.ics": "an all-day DTEND equal to DTSTART is made one day long",
    "recurring_ical_events/test/calendars/issue_201_mixed_datetime_and_date.ics": "a DATE start keeps the event all-day",
    "recurring_ical_events/test/calendars/issue_201_test_matrix.ics": "a DATE start keeps the event all-day",
}


def _corpus() -> list[tuple[str, Path]]:
    found = []
    for package in ("icalendar", "recurring_ical_events"):
        root = files(package)
        for path in sorted(root.rglob("*.ics")):  # type: ignore[attr-defined]
            found.append((f"{package}/{Path(str(path)).relative_to(Path(str(root)))}", Path(str(path))))
    return found


CORPUS = _corpus()


def test_corpus_is_found() -> None:
    assert len(CORPUS) > 200


@pytest.mark.parametrize("path", [path for _, path in CORPUS], ids=[name for name, _ in CORPUS])
def test_import_export_round_trip(path: Path) -> None:
    store, profile = fresh()
    before = event_fields(store, profile)
    try:
        report = import_bytes(store, profile, path.read_bytes(), source_name=path.name)
    except IcsReadError as exc:
        message = str(exc)
        assert message and "\n" not in message and path.name in message
        assert event_fields(store, profile) == before
        return
    for problem in report.errors:
        assert problem.message and "\n" not in problem.message
        assert problem.line is None or problem.line >= 1
    stored = event_fields(store, profile)
    assert len(stored) == report.imported
    if not stored:
        # Nothing to import must still be explained: no events, or each bad one named.
        assert report.errors or report.skipped or b"VEVENT" not in path.read_bytes().upper()
        return

    exported = export_calendar(store, profile)
    _assert_valid(exported)
    copy, copy_profile = fresh()
    again = import_bytes(copy, copy_profile, exported, source_name="export")
    assert again.errors == []
    assert again.imported == report.imported
    assert event_fields(copy, copy_profile) == stored

    window = span_of(store, profile)
    assert window is not None
    low, high = window
    assert instances(copy, copy_profile, low, high) == instances(store, profile, low, high)
    assert stored_starts(store, profile, low, high) == reference_starts(store, profile, low, high)


def _assert_valid(data: bytes) -> None:
    """The export parses, and has what RFC 5545 requires of it."""
    calendar = icalendar.Calendar.from_ical(data)
    assert calendar.get("VERSION") == "2.0" and calendar.get("PRODID")
    zones = {str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")}
    for event in calendar.walk("VEVENT"):
        assert event.get("UID") and event.get("DTSTAMP") and event.get("DTSTART")
    missing = calendar.get_used_tzids() - zones - {"UTC"}
    assert not missing, missing
    for line in data.split(b"\r\n"):
        assert len(line) <= 75, line


@pytest.mark.parametrize("name,path", CORPUS, ids=[name for name, _ in CORPUS])
def test_no_instance_is_lost(name: str, path: Path) -> None:
    data = path.read_bytes()
    tzp.use_zoneinfo()  # icalendar caches VTIMEZONEs process-wide: start clean, as a new process would
    store, profile = fresh()
    try:
        report = import_bytes(store, profile, data, source_name=path.name)
    except IcsReadError:
        report = None
    tzp.use_zoneinfo()
    groups = _reference_groups(data)
    if groups is None:
        pytest.skip("recurring-ical-events cannot read this file at all")
    window = _window(groups)
    if window is None:
        return
    low, high = window
    expected: Counter[tuple[str, int]] = Counter()
    spans: Counter[tuple[str, bool, int, int]] = Counter()
    for uid, calendar in groups:
        try:
            found = _expand(calendar, low, high)
        except Exception:
            assert report is not None and any(p.uid == uid or p.uid is None for p in report.errors), uid
            continue
        for title, floating, start_ts, end_ts in found:
            expected[(title, start_ts)] += 1
            spans[(title, floating, start_ts, end_ts)] += 1
    stored = _stored(store, profile, low, high)
    starts: Counter[tuple[str, int]] = Counter()
    for (title, _, start_ts, _), count in stored.items():
        starts[(title, start_ts)] += count
    assert starts == expected
    if name not in DELIBERATE:
        assert stored == spans


def _reference_groups(data: bytes) -> list[tuple[str | None, icalendar.Calendar]] | None:
    """The file's events as recurring-ical-events gets them: one calendar per UID (with the
    file's VTIMEZONEs and X-WR-TIMEZONE), so one broken series does not hide the others."""
    try:
        parsed = icalendar.Component.from_ical(data, multiple=True)
    except Exception:
        return None
    groups: list[tuple[str | None, icalendar.Calendar]] = []
    for top in parsed:
        calendars = [top] if top.name == "VCALENDAR" else []
        if top.name != "VCALENDAR":
            wrapper = icalendar.Calendar()
            wrapper.add_component(top)
            calendars = [wrapper]
        for calendar in calendars:
            zones = calendar.walk("VTIMEZONE")
            by_uid: dict[Any, list[icalendar.Component]] = {}
            for event in calendar.walk("VEVENT"):
                uid = event.get("UID")
                key = str(uid) if isinstance(uid, str) else id(event)
                by_uid.setdefault(key, []).append(event)
            for key, events in by_uid.items():
                group = icalendar.Calendar()
                for prop in ("X-WR-TIMEZONE",):
                    if calendar.get(prop) is not None:
                        group.add(prop, calendar.get(prop))
                for component in [*zones, *events]:
                    group.add_component(component)
                groups.append((key if isinstance(key, str) else None, group))
    return groups


def _window(groups: list[tuple[str | None, icalendar.Calendar]]) -> tuple[datetime, datetime] | None:
    """From a day before the file's first DTSTART to two years on (as ``span_of``)."""
    starts = []
    for _, calendar in groups:
        for event in calendar.walk("VEVENT"):
            try:
                value = event["DTSTART"].dt
            except Exception:
                continue
            if isinstance(value, date):
                starts.append(span_columns(value, value)[2])
    if not starts:
        return None
    low = datetime.fromtimestamp(max(min(starts), 86400 * 2), UTC) - timedelta(days=1)
    return low, low + timedelta(days=730)


def _expand(calendar: icalendar.Calendar, low: datetime, high: datetime) -> list[tuple[str, bool, int, int]]:
    if calendar.get("X-WR-TIMEZONE") is not None:
        calendar = x_wr_timezone.to_standard(calendar)
    out = []
    lo_ts, hi_ts = int(low.timestamp()), int(high.timestamp())
    for instance in recurring_ical_events.of(calendar).between(low - timedelta(days=2), high + timedelta(days=2)):
        if str(instance.get("STATUS") or "").upper() == "CANCELLED":
            continue
        start = instance["DTSTART"].dt
        end = instance["DTEND"].dt if instance.get("DTEND") is not None else start
        if instance.get("DTEND") is None and not isinstance(start, datetime):
            end = start + timedelta(days=1)
        _, floating, start_ts, end_ts, _ = span_columns(start, end)
        if lo_ts <= start_ts < hi_ts:
            out.append((_title(instance), floating, start_ts, end_ts))
    return out


def _title(component: icalendar.Component) -> str:
    value = component.get("SUMMARY")
    text = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value or "")
    return "".join(char for char in text if char >= " " or char in "\t\n\r")


def _stored(store: Store, profile_id: int, low: datetime, high: datetime) -> Counter[tuple[str, bool, int, int]]:
    EventRepo(store, profile_id).ensure_expanded(int(high.timestamp()) + 86400)
    rows = store.conn.execute(
        "SELECT e.title, o.floating, o.start_ts, o.end_ts FROM occurrences o JOIN events e ON e.id = o.event_id"
        " WHERE o.profile_id = ? AND o.start_ts >= ? AND o.start_ts < ?",
        (profile_id, int(low.timestamp()), int(high.timestamp())),
    ).fetchall()
    return Counter((row[0], bool(row[1]), row[2], row[3]) for row in rows)
