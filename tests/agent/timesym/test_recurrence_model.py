"""The one recurrence model: RRULE text in and out, verbatim rules kept, one lunar rule."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from agent.timesym.recurrence import LUNAR_YEARLY, Recurrence, Weekday

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(
    "text",
    [
        "FREQ=WEEKLY;BYDAY=MO,WE,FR",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE",
        "FREQ=MONTHLY;BYDAY=-1FR",
        "FREQ=MONTHLY;BYMONTHDAY=10",
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1",
        "FREQ=DAILY;INTERVAL=2;COUNT=10",
    ],
)
def test_rules_read_and_write_back_unchanged(text: str) -> None:
    start = datetime(2026, 12, 4, 9, 0, tzinfo=SHANGHAI)
    rule = Recurrence.from_rrule(text, SHANGHAI)
    assert rule.verbatim is None
    assert rule.to_rrule(start) == text


def test_until_is_the_whole_last_day_in_the_events_zone() -> None:
    start = datetime(2026, 12, 4, 9, 0, tzinfo=SHANGHAI)
    rule = Recurrence("WEEKLY", weekdays=(Weekday("FR"),), until=date(2027, 3, 1))
    text = rule.to_rrule(start)
    assert text == "FREQ=WEEKLY;BYDAY=FR;UNTIL=20270301T155959Z"
    assert Recurrence.from_rrule(text, SHANGHAI).until == date(2027, 3, 1)
    assert rule.to_rrule(date(2026, 12, 4)) == "FREQ=WEEKLY;BYDAY=FR;UNTIL=20270301"


def test_a_rule_with_parts_it_does_not_hold_stays_verbatim() -> None:
    text = "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,17;WKST=SU"
    rule = Recurrence.from_rrule(text)
    assert rule.verbatim == text
    assert rule.to_rrule(date(2026, 12, 7)) == text


def test_malformed_rules_are_refused() -> None:
    for text in (
        "FREQ=HOURLY",
        "FREQ=DAILY;INTERVAL=0",
        "FREQ=DAILY;COUNT=2;UNTIL=20270101",
        "BYDAY=XX",
        "FREQ=WEEKLY;BYDAY=9XX",
    ):
        with pytest.raises(ValueError):
            Recurrence.from_rrule(text)


def test_lunar_dates_follow_one_rule() -> None:
    # 2026-09-25 is 八月十五 (中秋); the series keeps that lunar day every year.
    dates = Recurrence(LUNAR_YEARLY, count=4).lunar_dates(date(2026, 9, 25))
    assert dates == [date(2026, 9, 25), date(2027, 9, 15), date(2028, 10, 3), date(2029, 9, 22)]
    assert Recurrence(LUNAR_YEARLY).to_rrule(date(2026, 9, 25)) is None
    timed = Recurrence(LUNAR_YEARLY, count=2).lunar_dates(datetime(2026, 9, 25, 18, 0, tzinfo=SHANGHAI))
    assert timed[1] == datetime(2027, 9, 15, 18, 0, tzinfo=SHANGHAI)
