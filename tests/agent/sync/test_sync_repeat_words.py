"""A sync conflict shows how each version repeats in the one summary's words (issue 28),
not as RRULE text, and knows a 农历 series by its mark."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from agent.store.components import build_event
from agent.sync.resources import LocalRow, describe
from agent.timesym.recurrence import LUNAR_MARK, LUNAR_YEARLY, MARK_PROPERTY, Recurrence

SHANGHAI = ZoneInfo("Asia/Shanghai")


def side(component) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return describe([LocalRow("", component.to_ical().decode())])


def test_a_rule_is_told_in_words() -> None:
    start = datetime(2026, 12, 7, 9, tzinfo=SHANGHAI)
    weekly = build_event("周会", start, start.replace(hour=10), rrule="FREQ=WEEKLY;BYDAY=MO,WE,FR")
    described = side(weekly)
    assert described["repeat"] == {"zh": "每周一、三、五", "en": "Every Mon, Wed, Fri"}
    assert described["rrule"] == "FREQ=WEEKLY;BYDAY=MO,WE,FR"  # the JSON keeps the rule as well
    assert side(build_event("午饭", start, start.replace(hour=10)))["repeat"] == {}


def test_a_lunar_series_is_known_by_its_mark() -> None:
    first = date(2026, 9, 25)
    lunar = build_event("中秋聚餐", first, date(2026, 9, 26))
    lunar.add("RDATE", Recurrence(LUNAR_YEARLY, count=3).lunar_dates(first)[1:])
    lunar.add(MARK_PROPERTY, LUNAR_MARK)
    assert side(lunar)["repeat"] == {"zh": "每年农历八月十五，共 3 次", "en": "Annually on lunar 八月十五, 3 times"}
