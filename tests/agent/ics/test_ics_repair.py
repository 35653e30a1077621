"""Repair, don't drop: each broken shape real exporters write is imported, and the report says
what was repaired (docs/ics.md, "Repairs"). One test per repair; each fails if its rule is off."""

from __future__ import annotations

import codecs
import re
import textwrap
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from agent.ics.exporter import export_calendar
from agent.ics.importer import BATCH, import_bytes, import_file
from agent.ics.reader import split
from agent.store.events import EventRepo
from tests.agent.ics.test_ics_support import fresh

UTC = ZoneInfo("UTC")
BERLIN = ZoneInfo("Europe/Berlin")


def ics(*events: str, header: str = "") -> bytes:
    body = "\n".join(textwrap.dedent(event).strip() for event in events)
    text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n" + (header + "\n" if header else "") + body + "\nEND:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


def event(uid: str | None, *lines: str) -> str:
    head = ["BEGIN:VEVENT"] + ([f"UID:{uid}"] if uid else []) + ["DTSTAMP:20250101T000000Z"]
    return "\n".join([*head, *lines, "END:VEVENT"])


def spans(store, profile, tz: ZoneInfo = UTC) -> dict[str, tuple]:  # type: ignore[no-untyped-def]
    found = EventRepo(store, profile).occurrences(datetime(2000, 1, 1, tzinfo=tz), datetime(2030, 1, 1, tzinfo=tz), tz)
    return {o.title: (o.start, o.end) for o in found}


def notes(report) -> list[str]:  # type: ignore[no-untyped-def]
    return [problem.message for problem in report.repairs]


# ---- DTSTART / DTEND ------------------------------------------------------------------------


def test_end_before_start_is_swapped_like_recurring_ical_events() -> None:
    store, profile = fresh()
    data = ics(event("s", "SUMMARY:S", "DTSTART;TZID=Europe/Berlin:20190304T083000", "DTEND;TZID=Europe/Berlin:20190304T080000"))
    report = import_bytes(store, profile, data)
    assert report.imported == 1 and report.errors == []
    assert spans(store, profile, BERLIN)["S"] == (
        datetime(2019, 3, 4, 8, 0, tzinfo=BERLIN),
        datetime(2019, 3, 4, 8, 30, tzinfo=BERLIN),
    )
    assert any("swapped" in note for note in notes(report))
    # the stored text is valid now; the file's own text is kept in source
    row = store.conn.execute("SELECT ics, source FROM events").fetchone()
    assert (
        "DTSTART;TZID=Europe/Berlin:20190304T080000" in row["ics"]
        and "DTSTART;TZID=Europe/Berlin:20190304T083000" in row["source"]
    )


def test_end_before_start_of_a_series_keeps_its_anchor() -> None:
    store, profile = fresh()
    data = ics(
        event(
            "r",
            "SUMMARY:R",
            "DTSTART:20250101T090000Z",
            "DTEND:20250101T080000Z",
            "RRULE:FREQ=DAILY;COUNT=3",
            "EXDATE:20250102T090000Z",
        )
    )
    report = import_bytes(store, profile, data)
    assert report.errors == []
    found = sorted(
        o.start
        for o in EventRepo(store, profile).occurrences(datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 2, 1, tzinfo=UTC), UTC)
    )
    # DTSTART stays where it was, so the EXDATE still removes the second day
    assert found == [datetime(2025, 1, 1, 9, tzinfo=UTC), datetime(2025, 1, 3, 9, tzinfo=UTC)]
    assert any("anchored" in note for note in notes(report))


def test_floating_start_with_zoned_end_takes_the_zone() -> None:
    store, profile = fresh()
    data = ics(
        event("f", "SUMMARY:F", "DTSTART:20250101T090000", "DTEND;TZID=Europe/Berlin:20250101T100000"),
        event("g", "SUMMARY:G", "DTSTART;TZID=Europe/Berlin:20250101T090000", "DTEND:20250101T100000"),
        event("u", "SUMMARY:U", "DTSTART:20250101T090000", "DTEND:20250101T100000Z"),
    )
    report = import_bytes(store, profile, data)
    assert report.errors == [], report.errors
    found = spans(store, profile, BERLIN)
    nine, ten = datetime(2025, 1, 1, 9, tzinfo=BERLIN), datetime(2025, 1, 1, 10, tzinfo=BERLIN)
    assert found["F"] == (nine, ten) and found["G"] == (nine, ten)
    assert found["U"] == (datetime(2025, 1, 1, 9, tzinfo=UTC), datetime(2025, 1, 1, 10, tzinfo=UTC))
    assert sum("zone" in note for note in notes(report)) == 3
    assert not any("compare" in problem.message for problem in report.errors)


def test_date_start_with_datetime_end_stays_all_day_through_the_end_day() -> None:
    store, profile = fresh()
    data = ics(
        event("a", "SUMMARY:A", "DTSTART;VALUE=DATE:20260526", "DTEND;TZID=Europe/Berlin:20260529T235959"),
        event("b", "SUMMARY:B", "DTSTART;VALUE=DATE:20230724", "DTEND:20230817T000000Z"),
        event("c", "SUMMARY:C", "DTSTART:20250101T090000Z", "DTEND;VALUE=DATE:20250102"),
        event("d", "SUMMARY:D", "DTSTART;VALUE=DATE:20250301", "DURATION:PT10H"),
    )
    report = import_bytes(store, profile, data)
    assert report.errors == [] and report.imported == 4
    found = spans(store, profile)
    assert found["A"] == (date(2026, 5, 26), date(2026, 5, 30))
    assert found["B"] == (date(2023, 7, 24), date(2023, 8, 17))
    assert found["C"] == (datetime(2025, 1, 1, 9, tzinfo=UTC), datetime(2025, 1, 2, tzinfo=UTC))  # that date's midnight
    assert found["D"] == (date(2025, 3, 1), date(2025, 3, 2))
    assert len(notes(report)) == 4


def test_all_day_event_ending_the_day_it_starts_is_one_day() -> None:
    store, profile = fresh()
    report = import_bytes(
        store, profile, ics(event("z", "SUMMARY:Z", "DTSTART;VALUE=DATE:20250101", "DTEND;VALUE=DATE:20250101"))
    )
    assert spans(store, profile)["Z"] == (date(2025, 1, 1), date(2025, 1, 2))
    assert any("one day long" in note for note in notes(report))


def test_date_value_with_a_time_keeps_the_date() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, ics(event("v", "SUMMARY:V", "DTSTART;VALUE=DATE:20250101T000000")))
    assert spans(store, profile)["V"] == (date(2025, 1, 1), date(2025, 1, 2))
    assert any("VALUE=DATE" in note for note in notes(report))


def test_both_dtend_and_duration_keep_dtend() -> None:
    store, profile = fresh()
    data = ics(event("b", "SUMMARY:B", "DTSTART:20250101T090000Z", "DTEND:20250101T100000Z", "DURATION:PT3H"))
    report = import_bytes(store, profile, data)
    assert spans(store, profile)["B"][1] == datetime(2025, 1, 1, 10, tzinfo=UTC)
    assert "DURATION" not in store.conn.execute("SELECT ics FROM events").fetchone()[0]
    assert any("DTEND and DURATION" in note for note in notes(report))


def test_duration_without_t_is_read_as_hours() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, ics(event("d", "SUMMARY:D", "DTSTART:20250101T090000Z", "DURATION:P1H")))
    assert report.errors == []
    assert spans(store, profile)["D"][1] == datetime(2025, 1, 1, 10, tzinfo=UTC)
    assert any("PT1H" in note for note in notes(report))


# ---- reminders, UIDs, text ------------------------------------------------------------------


def test_unreadable_trigger_drops_the_reminder_not_the_event() -> None:
    store, profile = fresh()
    alarm = "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER:PT-2H\nEND:VALARM"
    good = "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:y\nTRIGGER:-PT15M\nEND:VALARM"
    report = import_bytes(store, profile, ics(event("t", "SUMMARY:T", "DTSTART:20250101T090000Z", alarm, good)))
    assert report.imported == 1 and report.errors == []
    assert [tuple(row) for row in store.conn.execute("SELECT trigger FROM alarms")] == [("-PT15M",)]
    assert any("PT-2H" in note for note in notes(report))


def test_reminders_never_leave_with_an_empty_description() -> None:
    """A peer's ``DESCRIPTION:`` with no value inside a VALARM was kept and exported again,
    and libical refuses it (issue 19). A DISPLAY alarm needs one (RFC 5545 3.6.6): it gets the
    event's title, or "Reminder" without one; an AUDIO alarm needs none: the empty one goes."""
    store, profile = fresh()

    def alarm(action: str, *lines: str) -> str:
        return "\n".join(["BEGIN:VALARM", f"ACTION:{action}", "TRIGGER:-PT15M", *lines, "END:VALARM"])

    data = ics(
        event("titled", "SUMMARY:看牙\\, Dr. Li", "DTSTART:20250101T090000Z", alarm("DISPLAY", "DESCRIPTION:")),
        event("untitled", "DTSTART:20250102T090000Z", alarm("DISPLAY", "DESCRIPTION;LANGUAGE=en: ")),
        event("audio", "SUMMARY:Call", "DTSTART:20250103T090000Z", alarm("AUDIO", "DESCRIPTION:")),
        event("missing", "SUMMARY:Gym", "DTSTART:20250104T090000Z", alarm("DISPLAY")),
        event("fine", "SUMMARY:Fine", "DTSTART:20250105T090000Z", alarm("DISPLAY", "DESCRIPTION:Leave now")),
    )
    report = import_bytes(store, profile, data)
    assert report.imported == 5 and report.errors == []
    by_uid = {problem.uid: problem.message for problem in report.repairs}
    assert set(by_uid) == {"titled", "untitled", "audio", "missing"}
    assert "empty DESCRIPTION" in by_uid["titled"] and "title" in by_uid["titled"]
    assert "'Reminder'" in by_uid["untitled"]
    assert "dropped an empty DESCRIPTION" in by_uid["audio"]
    assert "no DESCRIPTION" in by_uid["missing"]
    assert store.conn.execute("SELECT count(*) FROM alarms").fetchone()[0] == 5  # every reminder kept

    exported = export_calendar(store, profile)
    assert not re.search(rb"^DESCRIPTION[^:\r\n]*:[ \t]*\r\n(?![ \t])", exported, re.MULTILINE)
    calendar = icalendar.Calendar.from_ical(exported)
    found = {
        str(vevent["UID"]): [(str(a["ACTION"]), a.get("DESCRIPTION")) for a in vevent.walk("VALARM")]
        for vevent in calendar.walk("VEVENT")
    }
    assert found == {
        "titled": [("DISPLAY", "看牙, Dr. Li")],
        "untitled": [("DISPLAY", "Reminder")],
        "audio": [("AUDIO", None)],
        "missing": [("DISPLAY", "Gym")],
        "fine": [("DISPLAY", "Leave now")],
    }
    # the file's own text stays in source; the export needs no repair on the way back
    assert "DESCRIPTION:\r\n" in store.conn.execute("SELECT source FROM events WHERE uid = 'audio'").fetchone()[0]
    copy, copy_profile = fresh()
    assert import_bytes(copy, copy_profile, exported).repairs == []
    again = import_bytes(store, profile, data)  # the repair is stable: a re-import changes nothing
    assert again.updated == 0 and again.unchanged == 5


def test_uidless_events_that_differ_only_in_description_are_both_kept() -> None:
    store, profile = fresh()
    first = event(None, "SUMMARY:Same", "DTSTART:20250101T090000Z", "DESCRIPTION:one")
    second = event(None, "SUMMARY:Same", "DTSTART:20250101T090000Z", "DESCRIPTION:two")
    data = ics(first, second)
    report = import_bytes(store, profile, data)
    assert report.imported == 2 and report.skipped == 0
    assert sorted(r[0] for r in store.conn.execute("SELECT description FROM events")) == ["one", "two"]
    assert any("own UID" in note for note in notes(report))
    again = import_bytes(store, profile, data)  # stable: a re-import duplicates nothing
    assert again.imported == 0 and again.skipped == 2
    # a true copy is still one event
    copy, copy_profile = fresh()
    assert import_bytes(copy, copy_profile, ics(first, first)).imported == 1


def test_two_uid_lines_keep_the_first_and_name_it() -> None:
    store, profile = fresh()
    report = import_bytes(
        store, profile, ics("BEGIN:VEVENT\nUID:first\nUID:second\nDTSTART:20250101T090000Z\nSUMMARY:Two\nEND:VEVENT")
    )
    assert report.imported == 1
    assert store.conn.execute("SELECT uid FROM events").fetchone()[0] == "first"
    assert any("first" in note and "second" in note for note in notes(report))
    # and a refused one says its UID plainly, not as a Python list
    bad = import_bytes(store, profile, ics("BEGIN:VEVENT\nUID:x\nUID:y\nSUMMARY:no start\nEND:VEVENT"))
    assert [problem.uid for problem in bad.errors] == ["x"]


def test_control_characters_are_removed_from_the_text() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, ics(event("n", "SUMMARY:A\x00B\x07C", "DTSTART:20250101T090000Z")))
    assert store.conn.execute("SELECT title FROM events").fetchone()[0] == "ABC"
    assert any("control character" in note for note in notes(report))


def test_single_event_excluded_by_its_own_exdate_shows_nowhere_but_is_kept() -> None:
    store, profile = fresh()
    data = ics(
        event("x", "SUMMARY:X", "DTSTART:20250101T090000Z", "EXDATE:20250101T090000Z"),
        event("y", "SUMMARY:Y", "DTSTART:20250101T090000Z", "EXDATE:20250102T090000Z"),
    )
    report = import_bytes(store, profile, data)
    assert report.imported == 2
    assert set(spans(store, profile)) == {"Y"}
    assert any("EXDATE" in note for note in notes(report))
    EventRepo(store, profile).expander.materialize("x")  # a rebuild (edit, sync) keeps it hidden
    assert set(spans(store, profile)) == {"Y"}


# ---- structure ------------------------------------------------------------------------------


def test_misspelt_end_closes_the_open_component_and_keeps_what_follows() -> None:
    data = ics(
        "BEGIN:VTODO\nUID:t\nSUMMARY:task\nEND:VTOOD",
        event("after", "SUMMARY:After", "DTSTART:20250101T090000Z"),
        "BEGIN:VEVENT\nUID:own\nDTSTART:20250102T090000Z\nSUMMARY:Own\nEND:VEVNT",
    )
    store, profile = fresh()
    report = import_bytes(store, profile, data)
    assert report.imported == 2 and report.todos == 1 and report.errors == []
    assert set(spans(store, profile)) == {"After", "Own"}
    assert "END:VEVENT" in store.conn.execute("SELECT ics FROM events WHERE uid = 'own'").fetchone()[0]
    assert any("END:VEVNT" in note for note in notes(report))


def test_vevent_nested_in_another_component_is_imported_on_its_own() -> None:
    text = "BEGIN:MYCOMP\nDTSTAMP:20150121T080000\nBEGIN:VEVENT\nDTSTART:20150122\nUID:12345\nEND:VEVENT\nEND:MYCOMP\n"
    (calendar,) = split(text, "t")
    assert [(c.name, c.line) for c in calendar.components] == [("VEVENT", 3), ("MYCOMP", 1)]
    assert "VEVENT" not in calendar.components[1].text
    store, profile = fresh()
    report = import_bytes(store, profile, text.encode())
    assert report.imported == 1 and any("inside MYCOMP" in note for note in notes(report))


# ---- charsets ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "encoding,label",
    [("latin-1", "cp1252"), ("cp1252", "cp1252"), ("gb18030", "gb18030"), ("utf-16", "utf-16"), ("utf-16-le", "utf-16-le")],
)
def test_non_utf8_files_are_read_and_the_report_names_the_encoding(encoding: str, label: str, tmp_path: Path) -> None:
    title = "会议 北京" if encoding == "gb18030" else "Café – Müller"
    if encoding == "latin-1":
        title = "Café Müller"
    data = ics(event("e", f"SUMMARY:{title}", "DTSTART:20250101T090000Z")).decode().encode(encoding)
    path = tmp_path / "x.ics"
    path.write_bytes(data)
    store, profile = fresh()
    report = import_file(store, profile, path)
    assert store.conn.execute("SELECT title FROM events").fetchone()[0] == title
    assert report.encoding == label and report.to_json()["encoding"] == label
    assert any("not UTF-8" in note for note in notes(report))


def test_declared_charset_is_used() -> None:
    text = (
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:k\nDTSTART:20250101T090000Z\n"
        "SUMMARY;CHARSET=KOI8-R:Встреча\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    store, profile = fresh()
    report = import_bytes(store, profile, text.encode("koi8-r"))
    assert report.encoding == "koi8-r" and store.conn.execute("SELECT title FROM events").fetchone()[0] == "Встреча"


def test_utf8_with_bom_is_utf8_and_says_nothing() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, codecs.BOM_UTF8 + ics(event("b", "SUMMARY:中文", "DTSTART:20250101T090000Z")))
    assert report.encoding == "utf-8-sig" and report.repairs == [] and "encoding" not in report.to_json()


# ---- streaming ------------------------------------------------------------------------------


def test_series_split_across_batches_is_written_whole() -> None:
    """A master first, its override after more than a batch of other events: the series
    is held until both are read, and each is written once."""
    fillers = [event(f"f{i}", f"SUMMARY:F{i}", "DTSTART:20250101T090000Z") for i in range(BATCH + 5)]
    master = event("s", "SUMMARY:S", "DTSTART:20250101T100000Z", "RRULE:FREQ=DAILY;COUNT=3")
    moved = event("s", "SUMMARY:Moved", "RECURRENCE-ID:20250102T100000Z", "DTSTART:20250102T150000Z")
    store, profile = fresh()
    report = import_bytes(store, profile, ics(master, *fillers, moved))
    assert report.imported == BATCH + 7 and report.updated == 0 and report.skipped == 0
    found = EventRepo(store, profile).occurrences(datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 1, 5, tzinfo=UTC), UTC)
    series = sorted((o.title, o.start.hour) for o in found if o.uid == "s")  # type: ignore[union-attr]
    assert series == [("Moved", 15), ("S", 10), ("S", 10)]


def test_series_refused_whole_even_when_its_parts_are_batches_apart() -> None:
    fillers = [event(f"f{i}", f"SUMMARY:F{i}", "DTSTART:20250101T090000Z") for i in range(BATCH + 5)]
    master = event("c", "SUMMARY:C", "DTSTART:20250101T100000Z", "RRULE:RSCALE=CHINESE;FREQ=YEARLY")
    moved = event("c", "SUMMARY:Moved", "RECURRENCE-ID:20260101T100000Z", "DTSTART:20260101T150000Z")
    store, profile = fresh()
    report = import_bytes(store, profile, ics(master, *fillers, moved))
    assert report.imported == BATCH + 5
    assert [problem.uid for problem in report.errors] == ["c", "c"]


def test_google_until_as_a_date_on_a_timed_series_is_read_like_recurring_ical_events() -> None:
    """allenporter/ical's dtstart_until compat: UNTIL=DATE on a DATE-TIME series is that
    day's 00:00 UTC; recurring-ical-events reads it the same way, so nothing to rewrite."""
    store, profile = fresh()
    data = ics(
        event("g", "SUMMARY:G", "DTSTART;TZID=Europe/Berlin:20250101T090000", "RRULE:FREQ=DAILY;UNTIL=20250105"),
        header="PRODID:-//Google Inc//Google Calendar 70.9054//EN",
    )
    report = import_bytes(store, profile, data)
    assert report.errors == [] and report.imported == 1
    days = sorted(
        o.start.day  # type: ignore[union-attr]
        for o in EventRepo(store, profile).occurrences(datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 2, 1, tzinfo=UTC), UTC)
    )
    assert days == [1, 2, 3, 4]
