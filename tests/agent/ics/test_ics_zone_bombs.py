"""VTIMEZONE rule bombs (issue 29): bounded like RRULE expansion, refused for their events only.

Before: a 500-byte VTIMEZONE with ``RRULE:FREQ=SECONDLY`` hung an import (>150 s, 2.2 GB)
and every sync that fetched it; 100,000 STANDARD parts took 93 s and 607 MB. Now the zone's
text is measured before it is parsed (``zones.zone_problem``): an event that uses a refused
zone is that event's error, the rest of the file imports, and real zones (a few yearly
rules with ``BYHOUR``/``BYMINUTE``, a few dated parts) still resolve.
"""

from __future__ import annotations

import tracemalloc

import pytest

from agent.ics import zones
from agent.ics.importer import import_bytes
from agent.store.db import Store
from agent.store.profiles import ensure_profile

_EVENT = (
    "BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID={tzid}:20270105T100000\r\n"
    "DTEND;TZID={tzid}:20270105T110000\r\nSUMMARY:{uid}\r\nEND:VEVENT\r\n"
)


def _zone(tzid: str, parts: str) -> str:
    return f"BEGIN:VTIMEZONE\r\nTZID:{tzid}\r\n{parts}END:VTIMEZONE\r\n"


def _part(kind: str, start: str, rule: str = "", offset_to: str = "+0000") -> str:
    rule_line = f"RRULE:{rule}\r\n" if rule else ""
    return f"BEGIN:{kind}\r\nDTSTART:{start}\r\n{rule_line}TZOFFSETFROM:+0100\r\nTZOFFSETTO:{offset_to}\r\nEND:{kind}\r\n"


SECONDLY = _zone(
    "Bomb",
    _part("STANDARD", "19700101T000000", "FREQ=SECONDLY")
    + _part("DAYLIGHT", "19700101T000001", "FREQ=SECONDLY;INTERVAL=2", "+0100"),
)
MANY_PARTS = _zone("Bomb", "".join(_part("STANDARD", f"{1900 + i % 200}0101T000000") for i in range(10_000)))
SPREAD = _zone("Bomb", _part("STANDARD", "19700101T000000", "FREQ=YEARLY;BYMONTHDAY=1,2,3,4,5,6,7;BYHOUR=0,1,2,3,4,5,6,7,8,9"))
BOMBS = {"FREQ=SECONDLY": SECONDLY, "10,000 parts": MANY_PARTS, "a yearly rule of 840 a year": SPREAD}
# A real private zone, as Lotus Notes writes it (icalendar's corpus, khal issue 152).
REAL = _zone(
    "Western/Central Europe",
    _part("STANDARD", "19501029T020000", "FREQ=YEARLY;BYMINUTE=0;BYHOUR=2;BYDAY=-1SU;BYMONTH=10")
    + _part("DAYLIGHT", "19500326T020000", "FREQ=YEARLY;BYMINUTE=0;BYHOUR=2;BYDAY=-1SU;BYMONTH=3", "+0200"),
)


@pytest.mark.parametrize("bomb", list(BOMBS))
def test_a_zone_bomb_costs_its_event_only(bomb: str) -> None:
    data = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bomb//EN\r\n" + BOMBS[bomb] + REAL
        + _EVENT.format(uid="bombed", tzid="Bomb") + _EVENT.format(uid="fine", tzid='"Western/Central Europe"')
        + _EVENT.format(uid="plain", tzid="Asia/Shanghai") + "END:VCALENDAR\r\n"
    ).encode()  # fmt: skip
    store = Store(":memory:")
    profile = ensure_profile(store)
    tracemalloc.start()
    try:
        report = import_bytes(store, profile, data, "Imported")
        peak = tracemalloc.get_traced_memory()[1] / 1048576
    finally:
        tracemalloc.stop()
    titles = {row[0] for row in store.conn.execute("SELECT title FROM events")}
    assert titles == {"fine", "plain"}
    (problem,) = report.errors
    assert problem.uid == "bombed" and "time zone Bomb" in problem.message, problem
    assert peak < 300, f"{peak:.0f} MB"  # docs/ics.md's bound for a whole file
    store.close()


def test_real_zones_pass_the_check() -> None:
    assert zones.zone_problem(REAL) is None
    for bomb in BOMBS.values():
        assert zones.zone_problem(bomb) is not None
