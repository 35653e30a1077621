"""Every .ics shipped inside icalendar and recurring-ical-events: import, export, re-import.

These are the libraries' own regression files, many deliberately broken. For each one the
import must not crash; it must either import something or explain itself (a read error, or
a listed problem per bad component); and whatever imported must survive export and
re-import into a fresh store with the same fields and the same instances.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import icalendar
import pytest

from agent.ics.exporter import export_calendar
from agent.ics.importer import IcsReadError, import_bytes
from tests.test_ics_support import event_fields, fresh, instances, reference_starts, span_of, stored_starts


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
