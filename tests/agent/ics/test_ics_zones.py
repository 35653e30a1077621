"""TZID resolution, and the text cutting that feeds icalendar one component at a time."""

from __future__ import annotations

import icalendar
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.ics import zones
from agent.ics.prepare import fold
from agent.ics.reader import IcsReadError, logical_lines, split, split_head, unfold


@pytest.mark.parametrize(
    ("tzid", "expected"),
    [
        ("Asia/Shanghai", ("Asia/Shanghai", "iana")),
        ("asia/shanghai", ("Asia/Shanghai", "iana")),
        ("China Standard Time", ("Asia/Shanghai", "windows")),
        ("Eastern Standard Time", ("America/New_York", "windows")),
        ("W. Europe Standard Time", ("Europe/Berlin", "windows")),
        ("Eastern Standard Time 1", ("America/New_York", "windows")),
        ("/mozilla.org/20070129_1/America/New_York", ("America/New_York", "prefix")),
        ("/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires", ("America/Argentina/Buenos_Aires", "prefix")),
        ("tzone://Microsoft/China Standard Time", ("Asia/Shanghai", "windows")),
        ("GMT+08:00", ("Etc/GMT-8", "fixed")),
        ("UTC-5", ("Etc/GMT+5", "fixed")),
        ("Z", ("UTC", "iana")),
        ("UTC", ("UTC", "iana")),
    ],
)
def test_named_zones(tzid: str, expected: tuple[str, str]) -> None:
    assert zones.iana_name(tzid) == expected


def _vtimezone(tzid: str, body: str) -> icalendar.Timezone:
    text = f"BEGIN:VTIMEZONE\r\nTZID:{tzid}\r\n{body.strip()}\r\nEND:VTIMEZONE\r\n".replace("\n", "\r\n").replace("\r\r", "\r")
    component = icalendar.Timezone.from_ical(text)
    assert isinstance(component, icalendar.Timezone)
    return component


US = """
BEGIN:STANDARD
DTSTART:20071104T020000
RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:20070311T020000
RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
END:DAYLIGHT
"""
EU_AT_TWO = """
BEGIN:STANDARD
DTSTART:19961027T020000
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19810329T020000
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
END:DAYLIGHT
"""
FIXED = """
BEGIN:STANDARD
DTSTART:19700101T000000
TZOFFSETFROM:{0}
TZOFFSETTO:{0}
END:STANDARD
"""


@pytest.mark.parametrize(
    ("tzid", "body", "expected", "how"),
    [
        ("My Office", US, "America/New_York", "vtimezone"),
        ("custom_America/Chicago_but_eastern", US, "America/New_York", "vtimezone"),
        ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome", EU_AT_TWO, "Europe/Amsterdam", "vtimezone"),
        ("Lotus Europe", EU_AT_TWO, "Europe/Berlin", "vtimezone"),
        ("Beijing time", FIXED.format("+0800"), "Etc/GMT-8", "vtimezone"),
        ("(UTC+09:00) Osaka, Sapporo, Tokyo", FIXED.format("+0900"), "Asia/Tokyo", "vtimezone"),
        ("Odd", FIXED.format("+0517"), None, "utc-convert"),
    ],
)
def test_private_vtimezones_match_by_offsets(tzid: str, body: str, expected: str | None, how: str) -> None:
    resolution = zones.resolve(tzid, _vtimezone(tzid, body), years=[2024, 2025])
    assert (resolution.iana, resolution.how) == (expected, how)
    assert (resolution.convert is not None) == (how == "utc-convert")


def test_unknown_tzid_without_definition() -> None:
    assert zones.resolve("Nowhere", None).how == "floating"
    assert zones.resolve("Nowhere", None, fallback="Asia/Tokyo").iana == "Asia/Tokyo"


def test_split_keeps_lines_and_reports_structure() -> None:
    text = (
        "BEGIN:VCALENDAR\nX-WR-CALNAME:A\nBEGIN:VEVENT\nUID:1\nDESCRIPTION:x\n BEGIN:VEVENT\nEND:VEVENT\n"
        "BEGIN:VEVENT\nUID:2\nBEGIN:VALARM\nEND:VEVENT\nBEGIN:VTODO\nEND:VTODO\nEND:VCALENDAR\n"
        "BEGIN:VEVENT\nUID:bare\nEND:VEVENT\n"
    )
    first, bare = split(text, "t")
    assert first.text_property("X-WR-CALNAME") == "A"
    assert [(c.name, c.line, c.problem) for c in first.components] == [
        ("VEVENT", 3, None),
        ("VEVENT", 8, "END:VEVENT before END:VALARM"),
        ("VTODO", 12, None),
    ]
    assert first.components[0].text.endswith("END:VEVENT\n") and " BEGIN:VEVENT" in first.components[0].text
    assert [(c.name, c.line) for c in bare.components] == [("VEVENT", 15)]
    with pytest.raises(IcsReadError):
        split("just words\n", "words.txt")


def test_split_head_respects_quotes() -> None:
    assert split_head('DTSTART;TZID="A:B":20250101T000000') == ('DTSTART;TZID="A:B"', "20250101T000000")
    assert split_head("SUMMARY:a:b") == ("SUMMARY", "a:b")


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=300))
def test_fold_is_undone_by_unfold_and_keeps_lines_short(value: str) -> None:
    line = "DESCRIPTION:" + value
    folded = fold(line)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert unfold(folded) == line
    assert len(logical_lines(folded + "\r\n")) == 1
