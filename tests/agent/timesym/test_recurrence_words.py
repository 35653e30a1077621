"""The one repeat summary (issue 28): every reader (editor, card, agenda, chat receipt,
quick-add preview) calls ``summary`` and reads the same words, from the catalogue."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from agent.timesym.recurrence import KEPT, LUNAR_YEARLY, Recurrence, Weekday
from agent.timesym.recurrence_words import day_words, summary

TUESDAY_2ND = date(2026, 12, 8)  # the second Tuesday of December 2026
SHANGHAI = ZoneInfo("Asia/Shanghai")


def rule(text: str) -> Recurrence:
    return Recurrence.read(text, SHANGHAI)


CASES = [
    (rule("FREQ=WEEKLY;BYDAY=MO,WE,FR"), "Every Mon, Wed, Fri", "每周一、三、五"),
    (rule("FREQ=WEEKLY;BYDAY=MO"), "Every Mon", "每周一"),  # issue 32 defect 11: not 每周的周一
    (rule("FREQ=WEEKLY"), "Every Tue", "每周二"),  # the start's day
    (rule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), "Every weekday", "每个工作日"),
    (rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10"), "Every 2 weeks on Tue, Thu, 10 times", "每两周的周二、四，共 10 次"),
    (rule("FREQ=DAILY"), "Daily", "每天"),
    (rule("FREQ=DAILY;INTERVAL=3;UNTIL=20261231T155959Z"), "Every 3 days, until Dec 31, 2026", "每三天，直到 2026年12月31日"),
    (rule("FREQ=MONTHLY;BYMONTHDAY=10"), "Monthly on the 10th", "每月10日"),
    (rule("FREQ=MONTHLY"), "Monthly on the 8th", "每月8日"),
    (rule("FREQ=MONTHLY;BYMONTHDAY=1,15"), "Monthly on the 1st, 15th", "每月1日、15日"),
    (rule("FREQ=MONTHLY;BYDAY=2TU"), "Monthly on the second Tuesday", "每月第二个周二"),
    (rule("FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2"), "Monthly on the second Tuesday", "每月第二个周二"),
    (rule("FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR"), "Every 2 months on the last Friday", "每两个月的最后一个周五"),
    (rule("FREQ=MONTHLY;BYMONTHDAY=-1"), "Monthly on the last day", "每月最后一天"),
    (rule("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"), "Monthly on the last weekday", "每月最后一个工作日"),
    (rule("FREQ=MONTHLY;COUNT=1"), "Monthly on the 8th, once", "每月8日，仅一次"),
    (rule("FREQ=YEARLY"), "Annually on December 8", "每年12月8日"),
    (rule("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1"), "Annually on March 1", "每年3月1日"),
    (rule("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"), "Annually on the last Sunday of March", "每年3月最后一个周日"),
    (rule("FREQ=YEARLY;INTERVAL=12"), "Every 12 years on December 8", "每 12 年的12月8日"),
    (Recurrence(LUNAR_YEARLY, count=4), "Annually on lunar 十月三十, 4 times", "每年农历十月三十，共 4 次"),
    (rule("FREQ=HOURLY"), "Custom repeat", "自定义重复"),
    (rule("FREQ=DAILY;BYHOUR=9,17"), "Custom repeat", "自定义重复"),
    (None, "", ""),
]


@pytest.mark.parametrize(("given", "en", "zh"), CASES)
def test_summary_reads_in_english_and_chinese(given: Recurrence | None, en: str, zh: str) -> None:
    assert summary(given, TUESDAY_2ND, "en") == en
    assert summary(given, datetime(2026, 12, 8, 9, tzinfo=SHANGHAI), "zh") == zh


def test_a_rule_the_model_cannot_read_is_kept_as_its_text() -> None:
    kept = Recurrence.read("FREQ=HOURLY;INTERVAL=4")
    assert kept.freq == KEPT and kept.to_rrule(TUESDAY_2ND) == "FREQ=HOURLY;INTERVAL=4"


def test_the_lunar_summary_names_the_lunar_day() -> None:
    assert summary(Recurrence(LUNAR_YEARLY), date(2026, 9, 25), "zh") == "每年农历八月十五"


def test_the_editors_monthly_choices() -> None:
    nth = Recurrence("MONTHLY", weekdays=(Weekday("TU", 2),))
    assert day_words(nth, TUESDAY_2ND, "en") == "on the second Tuesday" and day_words(nth, TUESDAY_2ND, "zh") == "每月第二个周二"
    assert day_words(Recurrence("MONTHLY"), TUESDAY_2ND, "zh") == "每月8日"
