"""Export: valid RFC 5545, whole series, calendars and ranges, and lossless round trips."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.errors import NotFoundError
from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.services.calendars import CalendarService
from agent.store.components import build_event
from agent.store.events import EventRepo
from tests.agent.ics.test_ics_support import event_fields, fixture, fresh, instances
from tests.support.clock import SHANGHAI

FIXTURES = [
    "outlook_windows_zones.ics",
    "google_x_wr_timezone.ics",
    "series_overrides.ics",
    "bom_crlf_folded_zh.ics",
    "two_calendars.ics",
    "private_zones.ics",
    "partly_broken.ics",
]
WINDOW = (datetime(2024, 12, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))


def parse(data: bytes) -> icalendar.Calendar:
    calendar = icalendar.Calendar.from_ical(data)
    assert isinstance(calendar, icalendar.Calendar)
    return calendar


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_round_trip_keeps_fields_calendars_and_instances(name: str) -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture(name))
    copy, copy_profile = fresh()
    report = import_bytes(copy, copy_profile, export_calendar(store, profile))
    assert report.errors == []
    assert event_fields(copy, copy_profile) == event_fields(store, profile)
    assert instances(copy, copy_profile, *WINDOW) == instances(store, profile, *WINDOW)
    calendars = {o[0]: o for o in instances(store, profile, *WINDOW)}
    assert calendars  # the fixture had events in the window
    where = {occ.uid: occ.calendar for occ in EventRepo(store, profile).occurrences(*WINDOW, SHANGHAI)}
    where_copy = {occ.uid: occ.calendar for occ in EventRepo(copy, copy_profile).occurrences(*WINDOW, SHANGHAI)}
    assert where_copy == where


def test_export_is_valid_rfc5545() -> None:
    store, profile = fresh()
    for name in FIXTURES:
        import_bytes(store, profile, fixture(name))
    data = export_calendar(store, profile)
    assert data.startswith(b"BEGIN:VCALENDAR\r\n") and data.endswith(b"END:VCALENDAR\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert all(len(line) <= 75 for line in data.split(b"\r\n"))
    calendar = parse(data)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    defined = {str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")}
    assert calendar.get_used_tzids() <= defined | {"UTC"}
    assert {"Asia/Shanghai", "America/New_York", "Europe/Berlin"} <= defined
    uids = [str(e["UID"]) for e in calendar.walk("VEVENT")]
    assert all(e.get("DTSTAMP") for e in calendar.walk("VEVENT"))
    assert uids == sorted(uids)
    assert export_calendar(store, profile).split(b"DTSTAMP")[0] == data.split(b"DTSTAMP")[0]


def test_events_made_in_richeng_export_and_come_back() -> None:
    store, profile = fresh()
    calendar_id = CalendarService(store, profile).default().id
    component = build_event(
        "写周报",
        datetime(2025, 3, 7, 17, tzinfo=SHANGHAI),
        datetime(2025, 3, 7, 18, tzinfo=SHANGHAI),
        uid="made-here@richeng",
        rrule="FREQ=WEEKLY;COUNT=3",
        alarm_minutes=[10],
    )
    del component["DTSTAMP"]
    with store.transaction():
        EventRepo(store, profile).save(component, calendar_id, "user")
    data = export_calendar(store, profile)
    assert b"DTSTAMP:" in data and b"BEGIN:VTIMEZONE\r\nTZID:Asia/Shanghai" in data
    copy, copy_profile = fresh()
    import_bytes(copy, copy_profile, data)
    assert event_fields(copy, copy_profile) == event_fields(store, profile)
    assert len(instances(copy, copy_profile, *WINDOW)) == 3


def test_exported_time_zones_carry_no_comment() -> None:
    """icalendar's generated VTIMEZONE says "This timezone only works from ..." in a COMMENT,
    which RFC 5545 does not allow there; libical flagged every export with a TZID (issue 19)."""
    store, profile = fresh()
    calendar_id = CalendarService(store, profile).default().id
    new_york = ZoneInfo("America/New_York")
    component = build_event(
        "Standup", datetime(2025, 3, 7, 9, tzinfo=new_york), datetime(2025, 3, 7, 9, 30, tzinfo=new_york), uid="ny@richeng"
    )
    with store.transaction():
        EventRepo(store, profile).save(component, calendar_id, "user")
    data = export_calendar(store, profile)
    zones = parse(data).walk("VTIMEZONE")
    assert [str(zone["TZID"]) for zone in zones] == ["America/New_York"]
    assert {part.name for part in zones[0].walk()} == {"VTIMEZONE", "STANDARD", "DAYLIGHT"}
    assert all("COMMENT" not in part for zone in zones for part in zone.walk())
    assert b"COMMENT" not in data


def test_one_calendar_or_all() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("two_calendars.ics"))
    work = parse(export_calendar(store, profile, "work"))
    assert work["X-WR-CALNAME"] == "Work"
    assert [str(e["SUMMARY"]) for e in work.walk("VEVENT")] == ["Kickoff"]
    assert all("X-RICHENG-CALENDAR" not in e for e in work.walk("VEVENT"))
    everything = parse(export_calendar(store, profile))
    assert "X-WR-CALNAME" not in everything
    assert {str(e["X-RICHENG-CALENDAR"]) for e in everything.walk("VEVENT")} == {"家庭", "Work"}
    with pytest.raises(NotFoundError):
        export_calendar(store, profile, "nope")


def test_calendar_marker_is_not_stored_on_import() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("two_calendars.ics"))
    copy, copy_profile = fresh()
    import_bytes(copy, copy_profile, export_calendar(store, profile))
    assert all("X-RICHENG-CALENDAR" not in row[0] for row in copy.conn.execute("SELECT ics FROM events"))
    assert all("X-RICHENG-CALENDAR" in row[0] for row in copy.conn.execute("SELECT source FROM events"))


def test_range_export_takes_whole_series_that_touch_the_range() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("series_overrides.ics"))
    import_bytes(store, profile, fixture("two_calendars.ics"))
    berlin = ZoneInfo("Europe/Berlin")
    # Only the moved instance (01-21) of series-1 is in this range; the series comes whole.
    data = export_calendar(store, profile, None, datetime(2025, 1, 21, tzinfo=berlin), datetime(2025, 1, 22, tzinfo=berlin))
    events = parse(data).walk("VEVENT")
    assert {str(e["UID"]) for e in events} == {"series-1@example.com"}
    assert len(events) == 4  # master + moved + cancelled + edited
    # 01-20 held the moved instance originally: nothing is there any more.
    empty = export_calendar(store, profile, None, datetime(2025, 1, 20, tzinfo=berlin), datetime(2025, 1, 21, tzinfo=berlin))
    assert parse(empty).walk("VEVENT") == []
    # Naive bounds are read in ``tz``; open ends work.
    after = parse(export_calendar(store, profile, None, datetime(2025, 4, 6), None, SHANGHAI)).walk("VEVENT")
    assert {str(e["UID"]) for e in after} == {"work-1@example.com", "series-2@example.com"}
    before = parse(export_calendar(store, profile, None, None, datetime(2025, 1, 7), SHANGHAI)).walk("VEVENT")
    assert {str(e["UID"]) for e in before} == {"series-1@example.com"}
    in_work = parse(export_calendar(store, profile, "Work", datetime(2025, 1, 1), datetime(2026, 1, 1), SHANGHAI))
    assert {str(e["UID"]) for e in in_work.walk("VEVENT")} == {"work-1@example.com"}


def test_open_ended_series_is_in_every_later_range() -> None:
    store, profile = fresh()
    data = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:forever\r\n"
        b"DTSTAMP:20250101T000000Z\r\nDTSTART;VALUE=DATE:20250101\r\nRRULE:FREQ=YEARLY\r\n"
        b"SUMMARY:New year\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    import_bytes(store, profile, data)
    far = datetime(2040, 1, 1, tzinfo=SHANGHAI)
    exported = parse(export_calendar(store, profile, None, far, far + timedelta(days=2), SHANGHAI))
    assert [str(e["UID"]) for e in exported.walk("VEVENT")] == ["forever"]
    assert parse(export_calendar(store, profile, None, far, None, SHANGHAI)).walk("VEVENT")


ZONES = ["Asia/Shanghai", "America/New_York", "Europe/London", "Australia/Lord_Howe", "UTC", None]
RULES = [None, "FREQ=DAILY;COUNT=5", "FREQ=WEEKLY;INTERVAL=2;COUNT=6", "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4"]


@st.composite
def events(draw: st.DrawFn) -> str:
    uid = f"h{draw(st.integers(0, 10_000))}"
    day = date(2025, 1, 1) + timedelta(days=draw(st.integers(0, 400)))
    zone = draw(st.sampled_from(ZONES))
    all_day = draw(st.booleans())
    title = draw(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40))
    lines = [f"UID:{uid}", "DTSTAMP:20250101T000000Z", "SUMMARY:" + icalendar.vText(title).to_ical().decode()]
    if all_day:
        lines += [f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{day + timedelta(days=draw(st.integers(1, 3))):%Y%m%d}"]
    else:
        hour = draw(st.integers(0, 23))
        value = f"{day:%Y%m%d}T{hour:02d}{draw(st.sampled_from([0, 30])):02d}00"
        prefix = f";TZID={zone}" if zone else ""
        lines += [f"DTSTART{prefix}:{value}", f"DURATION:PT{draw(st.integers(0, 300))}M"]
    rule = draw(st.sampled_from(RULES))
    if rule:
        lines.append(f"RRULE:{rule}")
    return "BEGIN:VEVENT\r\n" + "\r\n".join(lines) + "\r\nEND:VEVENT\r\n"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(), min_size=1, max_size=6))
def test_generated_calendars_round_trip(bodies: list[str]) -> None:
    data = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//h//EN\r\n" + "".join(bodies) + "END:VCALENDAR\r\n").encode()
    store, profile = fresh()
    report = import_bytes(store, profile, data)
    assert report.errors == []
    copy, copy_profile = fresh()
    import_bytes(copy, copy_profile, export_calendar(store, profile))
    assert event_fields(copy, copy_profile) == event_fields(store, profile)
    window = (datetime(2024, 12, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC))
    assert instances(copy, copy_profile, *window) == instances(store, profile, *window)
