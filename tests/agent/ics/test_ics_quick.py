"""The parser-free reader of plain VEVENTs (agent/ics/quick.py) agrees with icalendar.

What ``quick.read`` accepts must give exactly the columns icalendar's reading gives and
``quick.serialised`` exactly the text icalendar writes; anything it is unsure of it must
refuse, so that icalendar (and the repairs) still decide. An override imported through it
must index like the same override saved through the editor's path, and a file of overrides
must survive export and re-import.
"""

from __future__ import annotations

from datetime import UTC, tzinfo
from importlib.resources import files
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.ics import quick, zones
from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.ics.prepare import CalendarContext, prepare_plain
from agent.ics.reader import scan
from agent.services.calendars import CalendarService
from agent.store.components import index_fields, parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile


def _event(*lines: str) -> str:
    return "BEGIN:VEVENT\r\n" + "".join(line + "\r\n" for line in lines) + "END:VEVENT\r\n"


PLAIN = [
    _event("UID:o@x", "DTSTAMP:20261101T000000Z", "RECURRENCE-ID:20261201T090000Z", "DTSTART:20261201T090030Z",
           "DTEND:20261201T091030Z", "SUMMARY:Moved 0"),
    _event("UID:a", "DTSTART;VALUE=DATE:20261201", "DTEND;VALUE=DATE:20261203", "SUMMARY:日本語 über alles",
           "STATUS:cancelled", "TRANSP:transparent", "SEQUENCE:3", "LAST-MODIFIED:20261101T000000Z",
           "CREATED:20261001T101010Z"),
    _event("UID:b", "RECURRENCE-ID;VALUE=DATE:20261201", "DTSTART:20261201T090000", "DTEND:20261201T090000",
           "LOCATION:Room 1", "DESCRIPTION:"),
    _event("SUMMARY:order differs", "UID:c", "DTSTART:20261201T090000", "SEQUENCE:0", "STATUS:TENTATIVE"),
    _event("UID:d", "DTSTART:20240229T235959Z", "DTEND:20240301T000001Z", "SUMMARY:"),
    _event("UID:e", "DTSTART:20261201T090000Z", "SUMMARY:" + "x" * 66),  # 74 octets: icalendar does not fold
    _event("UID:f", "DTSTART:20261201T090000Z", "SUMMARY:" + "é" * 33),  # 74 octets in UTF-8
    _event("UID:e", "DTSTART:20261201T090000Z", r"SUMMARY:a\, b"),  # escapes icalendar writes back as they are
    "BEGIN:VEVENT\nUID:lf\nDTSTART:20261201T090000Z\nSUMMARY:only LF\nEND:VEVENT\n",  # as Radicale serves
]  # fmt: skip

REFUSED = {
    "zoned": _event("UID:z", "DTSTART;TZID=Europe/Berlin:20261201T090000", "DTEND;TZID=Europe/Berlin:20261201T100000"),
    "range": _event("UID:r", "RECURRENCE-ID;RANGE=THISANDFUTURE:20261201T090000Z", "DTSTART:20261201T090000Z"),
    "alarm": _event("UID:al", "DTSTART:20261201T090000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM"),
    "rule": _event("UID:ru", "DTSTART:20261201T090000Z", "RRULE:FREQ=DAILY"),
    "exdate": _event("UID:ex", "DTSTART:20261201T090000Z", "EXDATE:20261201T090000Z"),
    "x-property": _event("UID:xp", "DTSTART:20261201T090000Z", "X-RICHENG-CALENDAR:Work"),
    "duration": _event("UID:du", "DTSTART:20261201T090000Z", "DURATION:PT1H"),
    "folded": _event("UID:f", "DTSTART:20261201T090000Z", "SUMMARY:a", " b"),
    "long line": _event("UID:l", "DTSTART:20261201T090000Z", "SUMMARY:" + "x" * 67),  # 75: icalendar folds
    "long in UTF-8": _event("UID:l8", "DTSTART:20261201T090000Z", "SUMMARY:" + "é" * 33 + "x"),
    "LF inside": _event("UID:lf2", "DTSTART:20261201T090000Z\nSUMMARY:x"),
    "comma": _event("UID:c", "DTSTART:20261201T090000Z", "SUMMARY:a, b"),
    "control": _event("UID:n", "DTSTART:20261201T090000Z", "SUMMARY:a\x00b"),
    "doubled": _event("UID:dd", "DTSTART:20261201T090000Z", "DTSTART:20261201T100000Z"),
    "two UIDs": _event("UID:u1", "UID:u2", "DTSTART:20261201T090000Z"),
    "no UID": _event("DTSTART:20261201T090000Z", "SUMMARY:x"),
    "spaced UID": _event("UID: u ", "DTSTART:20261201T090000Z"),
    "no start": _event("UID:ns", "SUMMARY:x"),
    "all-day, no end": _event("UID:ad", "DTSTART;VALUE=DATE:20261201"),
    "bare date": _event("UID:bd", "DTSTART:20261201", "DTEND:20261202"),
    "mixed kinds": _event("UID:mk", "DTSTART:20261201T090000Z", "DTEND:20261201T100000"),
    "backwards": _event("UID:bw", "DTSTART:20261201T090000Z", "DTEND:20261201T080000Z"),
    "all-day of no length": _event("UID:z0", "DTSTART;VALUE=DATE:20261201", "DTEND;VALUE=DATE:20261201"),
    "month 13": _event("UID:m", "DTSTART:20261301T090000Z"),
    "odd sequence": _event("UID:sq", "DTSTART:20261201T090000Z", "SEQUENCE:01"),
    "local stamp": _event("UID:st", "DTSTART:20261201T090000Z", "DTSTAMP:20261101T000000"),
    "empty status": _event("UID:es", "DTSTART:20261201T090000Z", "STATUS:"),
    "lower-case name": _event("UID:lc", "dtstart:20261201T090000Z"),
    "other component": "BEGIN:VTODO\r\nUID:t\r\nDTSTART:20261201T090000Z\r\nEND:VTODO\r\n",
}  # fmt: skip


@pytest.mark.parametrize("text", PLAIN)
def test_plain_events_read_and_write_as_icalendar_does(text: str) -> None:
    component = parse_component(text)
    assert quick.read(text) == index_fields(component)
    assert quick.serialised(text) == component.to_ical().decode()


@pytest.mark.parametrize("name", list(REFUSED))
def test_anything_unusual_is_left_to_icalendar(name: str) -> None:
    assert quick.read(REFUSED[name]) is None


def test_every_corpus_event_it_accepts_reads_as_icalendar_reads_it() -> None:
    """The libraries' own test files: where the quick reader takes a VEVENT, its columns and
    text are icalendar's (the corpus has events of every kind; some are plain)."""
    accepted = 0
    for package in ("icalendar", "recurring_ical_events"):
        for path in sorted(files(package).rglob("*.ics")):  # type: ignore[attr-defined]
            data = Path(str(path)).read_bytes()
            try:
                calendars = scan(data, str(path))
            except Exception:
                continue
            for calendar in calendars:
                for component in calendar.components:
                    if component.name != "VEVENT" or component.problem:
                        continue
                    fields = quick.read(component.text, _iana)
                    if fields is None:
                        continue
                    accepted += 1
                    parsed = parse_component(component.text)
                    assert fields == index_fields(parsed), path
                    assert quick.serialised(component.text) == parsed.to_ical().decode(), path
    assert accepted >= 1


def _iana(tzid: str) -> tzinfo | None:
    """What ``CalendarContext.plain_zone`` vouches for in a file without VTIMEZONEs."""
    named = zones.iana_name(tzid)
    return ZoneInfo(tzid) if named is not None and named[0] == tzid else None


ZONED = [
    _event("UID:z1", "DTSTART;TZID=Asia/Shanghai:20261201T090000", "DTEND;TZID=Asia/Shanghai:20261201T100000",
           r"DESCRIPTION:Agenda: review\, plan\, decide.", r"SUMMARY:a\;b\nc\\d", "LOCATION:Room 1"),
    _event("UID:z2", "RECURRENCE-ID;TZID=Europe/Berlin:20260329T023000", "DTSTART;TZID=Europe/Berlin:20260329T023000",
           "DTEND;TZID=Europe/Berlin:20260329T033000", "SUMMARY:in the spring-forward gap"),
    _event("UID:z3", "DTSTART;TZID=America/Argentina/Buenos_Aires:20261101T010000", "SUMMARY:no end"),
    _event("UID:z4", "DTSTART;TZID=Asia/Shanghai:20261201T090000", r"DESCRIPTION:x\, y").replace("\r\n", "\n"),
]  # fmt: skip

REFUSED_ZONED = {
    "two zones": _event("UID:r1", "DTSTART;TZID=Asia/Shanghai:20261201T090000", "DTEND;TZID=Europe/Berlin:20261201T100000"),
    "zone and floating": _event("UID:r2", "DTSTART;TZID=Asia/Shanghai:20261201T090000", "DTEND:20261201T100000"),
    "quoted": _event("UID:r3", 'DTSTART;TZID="Asia/Shanghai":20261201T090000'),
    "a second parameter": _event("UID:r4", "DTSTART;VALUE=DATE-TIME;TZID=Asia/Shanghai:20261201T090000"),
    "zone and Z": _event("UID:r5", "DTSTART;TZID=Asia/Shanghai:20261201T090000Z"),
    "not vouched for": _event("UID:r6", "DTSTART;TZID=Mars/Olympus_Mons:20261201T090000"),
    "UTC by name": _event("UID:r7", "DTSTART;TZID=UTC:20261201T090000"),
    "case differs": _event("UID:r8", "DTSTART;TZID=asia/shanghai:20261201T090000"),
    "escaped N": _event("UID:r9", "DTSTART:20261201T090000Z", r"SUMMARY:a\Nb"),
    "escaped colon": _event("UID:ra", "DTSTART:20261201T090000Z", r"SUMMARY:a\:b"),
    "comma after a backslash": _event("UID:rb", "DTSTART:20261201T090000Z", r"SUMMARY:a\\,b"),
    "lone backslash": _event("UID:rc", "DTSTART:20261201T090000Z", "SUMMARY:a\\"),
    "escape in a UID": _event(r"UID:r\,d", "DTSTART:20261201T090000Z"),
    "escape in a status": _event("UID:re", "DTSTART:20261201T090000Z", r"STATUS:TENTA\,TIVE"),
}  # fmt: skip


@pytest.mark.parametrize("text", ZONED)
def test_zoned_times_and_escaped_text_read_and_write_as_icalendar_does(text: str) -> None:
    component = parse_component(text)
    assert quick.read(text, _iana) == index_fields(component)
    assert quick.serialised(text) == component.to_ical().decode()
    assert quick.read(text) is None or "TZID" not in text  # without a zone to vouch, icalendar decides


@pytest.mark.parametrize("name", list(REFUSED_ZONED))
def test_zones_and_escapes_it_is_unsure_of_are_left_to_icalendar(name: str) -> None:
    assert quick.read(REFUSED_ZONED[name], _iana) is None


def test_a_zone_the_file_defines_itself_is_left_to_icalendar() -> None:
    """A VTIMEZONE in the file may say something else than the IANA zone of the same name
    (and a private one is converted): then the event is parsed, as before."""
    event = ZONED[0]
    body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n{zone}" + event + "END:VCALENDAR\r\n"
    zone = ("BEGIN:VTIMEZONE\r\nTZID:Asia/Shanghai\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
            "TZOFFSETFROM:+0900\r\nTZOFFSETTO:+0900\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n")  # fmt: skip
    for text, plain in ((body.format(zone=""), True), (body.format(zone=zone), False)):
        (calendar,) = scan(text.encode(), "t.ics")
        context = CalendarContext(calendar)
        (raw,) = [component for component in calendar.components if component.name == "VEVENT"]
        assert (prepare_plain(raw.text, raw.line, context, 0) is not None) is plain
        assert (context.plain_zone("Asia/Shanghai") is not None) is plain


def _overrides_file() -> bytes:
    events = [_event("UID:s@x", "DTSTAMP:20261101T000000Z", "DTSTART:20261201T090000Z", "DTEND:20261201T100000Z",
                     "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Series")]  # fmt: skip
    for day in (2, 3, 4):
        events.append(
            _event(
                "UID:s@x",
                "DTSTAMP:20261101T000000Z",
                f"RECURRENCE-ID:202612{day:02d}T090000Z",
                f"DTSTART:202612{day:02d}T113000Z",
                f"DTEND:202612{day:02d}T123000Z",
                f"SUMMARY:Moved {day}",
                "STATUS:TENTATIVE" if day == 3 else "SEQUENCE:2",
            )  # fmt: skip
        )
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + "".join(events) + "END:VCALENDAR\r\n").encode()


INDEXED = ("uid, recurrence_id, title, description, location, tzid, all_day, floating, start_ts, end_ts, rrule,"
           " rdate, exdate, transp, status, completed, sequence, last_modified, ics")  # fmt: skip


def _rows(store: Store, profile: int) -> list[tuple[object, ...]]:
    return [tuple(row) for row in store.conn.execute(
        f"SELECT {INDEXED} FROM events WHERE profile_id = ? ORDER BY uid, recurrence_id", (profile,)
    )]  # fmt: skip


def _instances(store: Store, profile: int) -> list[tuple[object, ...]]:
    return [tuple(row) for row in store.conn.execute(
        "SELECT e.recurrence_id, o.recurrence_id, o.start_ts, o.end_ts FROM occurrences o"
        " JOIN events e ON e.id = o.event_id WHERE o.profile_id = ? ORDER BY o.start_ts", (profile,)
    )]  # fmt: skip


def test_an_imported_override_indexes_as_a_saved_one(tmp_path: Path) -> None:
    """The same parts through the importer (quick reader) and through ``EventRepo.save``
    (icalendar, the editor's and agent's path): the same rows, the same instances."""
    imported = Store(str(tmp_path / "imported.sqlite3"))
    profile = ensure_profile(imported)
    report = import_bytes(imported, profile, _overrides_file(), "Work")
    assert report.imported == 4 and not report.errors

    saved = Store(str(tmp_path / "saved.sqlite3"))
    other = ensure_profile(saved)
    calendar = CalendarService(saved, other).add("Work").id
    repo = EventRepo(saved, other)
    for component in scan(_overrides_file(), "file")[0].components:
        with saved.transaction():
            # The importer stores the file's text; save it that way too, so ``ics`` compares.
            repo.save(parse_component(component.text), calendar, "import", ics=component.text)
    assert _rows(imported, profile) == _rows(saved, other)
    assert _instances(imported, profile) == _instances(saved, other)
    assert [row[1] for row in _instances(imported, profile)] == [
        "20261201T090000Z", "20261202T090000Z", "20261203T090000Z", "20261204T090000Z", "20261205T090000Z"
    ]  # fmt: skip
    moved = imported.conn.execute(
        "SELECT start_ts, status, sequence FROM events WHERE recurrence_id = '20261203T090000Z'"
    ).fetchone()
    assert tuple(moved) == (1796297400, "TENTATIVE", 0)


def test_overrides_survive_export_and_reimport(tmp_path: Path) -> None:
    first = Store(str(tmp_path / "first.sqlite3"))
    profile = ensure_profile(first)
    import_bytes(first, profile, _overrides_file(), "Work")
    exported = export_calendar(first, profile)
    again = Store(str(tmp_path / "again.sqlite3"))
    other = ensure_profile(again)
    report = import_bytes(again, other, exported, "Work")
    assert report.imported == 4 and not report.errors
    without_text = [row[:-1] for row in _rows(first, profile)]
    assert [row[:-1] for row in _rows(again, other)] == without_text
    assert _instances(again, other) == _instances(first, profile)


def _pull(store: Store, profile: int, text: str, *, old_way: bool) -> tuple[str, list[tuple[object, ...]]]:
    """One sync pull of ``text`` into the calendar "Work": through ``LocalCalendar.apply``, or
    the way it was before the quick reader (each part parsed, saved and serialised alone)."""
    from agent.sync.resources import local_hash, parse_resource
    from agent.sync.state import LocalCalendar

    calendar = next((c.id for c in CalendarService(store, profile).list() if c.name == "Work"), None)
    calendar = calendar or CalendarService(store, profile).add("Work").id
    local = LocalCalendar(store, profile, calendar)
    if old_way:
        repo = EventRepo(store, profile)
        changes = []
        with store.transaction():
            for component in scan(text.encode(), "resource")[0].components:
                parsed = parse_component(component.text)
                saved = repo.save(parsed, calendar, "import", materialize=False, ics=parsed.to_ical().decode())
                changes += [(c.uid, c.recurrence_id, c.event_id, c.before_ics) for c in (*saved.created, *saved.updated)]
            repo.expander.materialize("s@x")
        return local_hash(local.rows("s@x")), changes
    resource = parse_resource(text, "s.ics")
    assert resource.problem is None
    assert [c is None for c in resource.components] == [False, True, True, True]  # the overrides took the quick path
    for row, component in zip(resource.rows, scan(text.encode(), "resource")[0].components, strict=True):
        assert row.ics == parse_component(component.text).to_ical().decode()
    digest, change_set = local.apply(resource)
    return digest, [(c.uid, c.recurrence_id, c.event_id, c.before_ics) for c in (*change_set.created, *change_set.updated)]


def test_a_sync_pull_of_plain_overrides_stores_what_parsing_each_part_would(tmp_path: Path) -> None:
    """Rows, instances, change sets (what undo replays) and journal entries of a pull, and
    of a second pull that updates every row, are those of parsing and saving each part."""
    text = _overrides_file().decode()
    new, old = Store(str(tmp_path / "new.sqlite3")), Store(str(tmp_path / "old.sqlite3"))
    new_profile, old_profile = ensure_profile(new), ensure_profile(old)
    for _ in range(2):
        assert _pull(new, new_profile, text, old_way=False) == _pull(old, old_profile, text, old_way=True)
        assert _rows(new, new_profile) == _rows(old, old_profile)
        assert _instances(new, new_profile) == _instances(old, old_profile)
        text = text.replace("SUMMARY:Moved", "SUMMARY:Moved again")
    journal = (  # the pulls' entries; the calendar's creation is an entry too, stamped when each store made it
        "SELECT origin, label, created, updated, deleted, changes FROM change_journal"
        " WHERE label NOT LIKE 'create calendar %' ORDER BY id"
    )
    assert [tuple(r) for r in new.conn.execute(journal)] == [tuple(r) for r in old.conn.execute(journal)]
    assert len(new.conn.execute(journal).fetchall()) == 2


@pytest.mark.parametrize(
    ("master", "override"),
    [
        (("DTSTART:20261201T100000", "DTEND:20261201T110000"), "RECURRENCE-ID:20261202T100000Z"),
        (("DTSTART;VALUE=DATE:20261201", "DTEND;VALUE=DATE:20261202"), "RECURRENCE-ID:20261202T000000"),
    ],
    ids=["floating master, UTC id", "all-day master, midnight id"],
)
def test_an_override_matches_its_instance_by_the_id_as_written(tmp_path: Path, master: tuple[str, str], override: str) -> None:
    """The expander reads only an override's RECURRENCE-ID line (cut out in SQL, not its
    whole text): an id written as wall clock or as a midnight still takes its instance's
    place instead of adding one."""
    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        + _event("UID:w@x", *master, "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Series")
        + _event("UID:w@x", override, "DTSTART:20261202T150000", "DTEND:20261202T160000", "SUMMARY:Moved")
        + "END:VCALENDAR\r\n"
    )
    store = Store(str(tmp_path / "w.sqlite3"))
    profile = ensure_profile(store)
    report = import_bytes(store, profile, text.encode(), "Work")
    assert report.imported == 2 and not report.errors
    titles = [row[0] for row in store.conn.execute(
        "SELECT e.title FROM occurrences o JOIN events e ON e.id = o.event_id ORDER BY o.start_ts"
    )]  # fmt: skip
    assert titles == ["Series", "Moved", "Series"]


def test_plain_overrides_beside_a_thisandfuture_one_expand_as_the_library_does(tmp_path: Path) -> None:
    """Once one override needs the library (RANGE=THISANDFUTURE), the plain ones read
    without a parser are parsed after all and handed to it with the rest: the instances
    are recurring-ical-events' own, in the check at import and in the store."""
    from datetime import datetime

    from tests.agent.ics.test_ics_support import reference_starts, stored_starts

    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        + _event("UID:t@x", "DTSTART:20261201T090000Z", "DTEND:20261201T100000Z", "RRULE:FREQ=DAILY;COUNT=6",
                 "SUMMARY:Series")
        + _event("UID:t@x", "RECURRENCE-ID:20261202T090000Z", "DTSTART:20261202T150000Z", "DTEND:20261202T160000Z",
                 "SUMMARY:Moved")
        + _event("UID:t@x", "RECURRENCE-ID;RANGE=THISANDFUTURE:20261204T090000Z", "DTSTART:20261204T120000Z",
                 "DTEND:20261204T130000Z", "SUMMARY:Later from here")
        + _event("UID:t@x", "RECURRENCE-ID:20261206T090000Z", "STATUS:CANCELLED", "DTSTART:20261206T090000Z",
                 "DTEND:20261206T100000Z", "SUMMARY:Off")
        + "END:VCALENDAR\r\n"
    )  # fmt: skip
    store = Store(str(tmp_path / "t.sqlite3"))
    profile = ensure_profile(store)
    report = import_bytes(store, profile, text.encode(), "Work")
    assert report.imported == 4 and not report.errors
    low, high = datetime(2026, 11, 30, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)
    stored = stored_starts(store, profile, low, high)
    assert stored == reference_starts(store, profile, low, high)
    assert sum(stored.values()) == 5  # six, less the cancelled one
