"""Issue 23, defect 9: the importer names what it skipped and why (``ImportReport.skips``),
and says a file's own calendar name (``file_calendar_name``) without importing it.

The app's report lists these rows; they must be the importer's own decisions, so every
skip it counts has exactly one entry, with the rule that made it."""

from __future__ import annotations

from pathlib import Path

from agent.ics.importer import file_calendar_name, import_bytes
from agent.ics.report import SKIP_REASONS
from tests.agent.ics.test_ics_import import event, ics
from tests.agent.ics.test_ics_support import fixture, fresh


def test_every_skip_is_named_with_its_rule() -> None:
    store, profile = fresh()
    import_bytes(store, profile, ics(event("same", "DTSTART:20250601T010000Z", "SUMMARY:Same") + "\n"
                                     + event("v2", "SEQUENCE:2", "DTSTART:20250602T010000Z", "SUMMARY:Two")))  # fmt: skip
    body = "\n".join(
        [
            event("same", "DTSTART:20250601T010000Z", "SUMMARY:Same"),
            event("v2", "SEQUENCE:1", "DTSTART:20250602T010000Z", "SUMMARY:One"),
            event("d", "SEQUENCE:1", "DTSTART:20250603T010000Z", "SUMMARY:Older copy"),
            event("d", "SEQUENCE:2", "DTSTART:20250603T010000Z", "SUMMARY:Newer copy"),
            "BEGIN:VTODO\nUID:t\nSUMMARY:Buy milk\\, bread\nEND:VTODO",
            "BEGIN:VJOURNAL\nUID:j\nSUMMARY:Diary\nEND:VJOURNAL",
        ]
    )
    report = import_bytes(store, profile, ics(body))
    assert (report.imported, report.skipped) == (1, 5)
    assert {(skip.uid, skip.title, skip.reason, skip.component) for skip in report.skips} == {
        ("same", "Same", "unchanged", "VEVENT"),
        ("v2", "One", "older", "VEVENT"),
        ("d", "Older copy", "duplicate", "VEVENT"),  # the newer copy, later in the file, won
        ("t", "Buy milk, bread", "task", "VTODO"),
        ("j", "Diary", "other", "VJOURNAL"),
    }
    assert all(skip.reason in SKIP_REASONS and skip.line for skip in report.skips)
    assert "skips" not in report.to_json()  # the CLI's JSON keeps its four keys


def test_a_reimport_names_every_unchanged_part() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("series_overrides.ics"))
    again = import_bytes(store, profile, fixture("series_overrides.ics"))
    assert again.skipped == len(again.skips) == 6 and {skip.reason for skip in again.skips} == {"unchanged"}


def test_the_files_own_calendar_name(tmp_path: Path) -> None:
    named = tmp_path / "basic.ics"
    named.write_bytes(ics(event("a", "DTSTART:20250601T010000Z"), header="X-WR-CALNAME:Team\\; Family\nX-WR-TIMEZONE:UTC"))
    assert file_calendar_name(named) == "Team; Family"
    plain = tmp_path / "plain.ics"
    plain.write_bytes(ics(event("a", "DTSTART:20250601T010000Z", "X-WR-CALNAME:not the calendar's")))
    assert file_calendar_name(plain) is None  # an event's property is not the calendar's name
    assert file_calendar_name(tmp_path / "missing.ics") is None
    assert file_calendar_name(tmp_path) is None  # a folder: refused like an import, no name
