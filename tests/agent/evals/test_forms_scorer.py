"""The everyday-forms corpus (issue 28) is well formed, and its scorer compares what a repeat
produces rather than how it is spelled, so a figure from it means what forms.md says."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from evals.corpora.measure_quick_forms import CASES, LUNAR, compare_repeat, load, location_of, occurrences, same_moment

FORMS = {
    "weekday-list", "weekdays", "interval", "nth-weekday", "month-day", "yearly", "lunar",
    "end", "duration", "month-name-date", "meal", "zone", "clock-words", "place",
}  # fmt: skip
ISSUE_SENTENCES = [
    "Flight to Tokyo Dec 20 8am", "Board meeting Jan 5 10am", "Project review Dec 15 2-4pm",
    "Gym every Mon Wed Fri at 7am", "Yoga every Tuesday and Thursday 7pm", "standup every weekday at 9:15",
    "每个工作日早上九点站会", "每两周周三下午三点一对一", "每月最后一个周五下午四点复盘",
    "last Friday of every month at 6pm", "Call mom for 30 minutes at 4pm tomorrow", "明天晚上7点吃饭，两个小时",
    "下周五下午和李四喝咖啡一个半小时", "Standup every weekday 9:30am for 15 minutes", "Dinner at 7 tomorrow",
    "4pm CET call with Berlin team tomorrow", "Call dad at half past two tomorrow", "Haircut Thursday at quarter to five",
    "下周二下午三点在协和医院复诊", "每年农历八月十五 中秋聚餐", "每月10号 交房租",
]  # fmt: skip


def test_corpus_is_well_formed() -> None:
    cases = load(CASES)
    assert len(cases) >= 220
    assert len({c["id"] for c in cases}) == len(cases)
    assert len({c["text"] for c in cases}) == len(cases)
    assert {c["form"] for c in cases} == FORMS
    assert not set(ISSUE_SENTENCES) - {c["text"] for c in cases}
    for case in cases:
        want = case["expect"]
        if "error" in want:
            continue
        now = datetime.fromisoformat(case["now"])
        assert want["tz"] and want["title"].strip() == want["title"], case["id"]
        if want.get("rrule"):
            first = occurrences(want["rrule"], want["start"], want["tz"])[0]
            start = datetime.fromisoformat(want["start"]) if len(want["start"]) > 10 else None
            assert start is None or first == start.replace(tzinfo=None), case["id"]  # start is an occurrence
        assert (want.get("repeat") == LUNAR) == (case["form"] == "lunar"), case["id"]
        if len(want["start"]) > 10:
            assert datetime.fromisoformat(want["start"]) > now, case["id"]
            assert datetime.fromisoformat(want["end"]) > datetime.fromisoformat(want["start"]), case["id"]


def test_file_is_utf8_not_escaped() -> None:
    text = Path(CASES).read_text(encoding="utf-8")
    assert "\\u" not in text and "每月10号" in text
    assert all(json.loads(line)["now"] == "2026-12-03T10:00:00+08:00" for line in text.splitlines())


WEEKDAYS = {"start": "2026-12-04T09:00:00+08:00", "tz": "Asia/Shanghai", "rrule": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"}


def test_same_occurrences_under_another_spelling_agree() -> None:
    got = {"start": "2026-12-04T09:00:00+08:00", "rrule": "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "repeat": "DAILY"}
    assert compare_repeat(WEEKDAYS, got, "Asia/Shanghai") is None


def test_a_bare_weekly_word_is_not_every_weekday() -> None:
    got = {"start": "2026-12-04T09:00:00+08:00", "repeat": "WEEKLY"}  # an old output: no rrule key
    assert compare_repeat(WEEKDAYS, got, "Asia/Shanghai") is not None


def test_a_missing_repeat_is_a_miss() -> None:
    assert compare_repeat(WEEKDAYS, {"start": WEEKDAYS["start"], "repeat": None}, "Asia/Shanghai") is not None


def test_until_given_as_a_day_covers_that_day_and_utc_until_is_read_in_the_event_zone() -> None:
    want = {"start": "2026-12-07T19:00:00+08:00", "tz": "Asia/Shanghai", "rrule": "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270301"}
    assert occurrences(want["rrule"], want["start"], "Asia/Shanghai")[-1] == datetime(2027, 3, 1, 19, 0)
    got = {"start": want["start"], "rrule": "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270301T155959Z"}
    assert compare_repeat(want, got, "Asia/Shanghai") is None
    early = {"start": want["start"], "rrule": "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270228T155959Z"}
    assert compare_repeat(want, early, "Asia/Shanghai") is not None


def test_lunar_is_compared_by_the_repeat_word() -> None:
    want = {"start": "2027-09-15", "tz": "Asia/Shanghai", "rrule": None, "repeat": LUNAR}
    assert compare_repeat(want, {"start": "2027-09-15", "repeat": LUNAR}, "Asia/Shanghai") is None
    assert compare_repeat(want, {"start": "2027-09-15", "repeat": "YEARLY"}, "Asia/Shanghai") is not None


def test_a_pinned_start_must_carry_the_zone_offset() -> None:
    assert same_moment("2026-12-04T16:00:00+01:00", "2026-12-04T16:00:00+01:00")
    assert not same_moment("2026-12-04T16:00:00+01:00", "2026-12-04T23:00:00+08:00")  # same instant, user's offset
    assert not same_moment("2026-12-04", "2026-12-04T00:00:00+08:00")
    assert same_moment("2026-12-10", "2026-12-10")


def test_location_from_the_key_or_else_the_underlined_span() -> None:
    assert location_of({"location": "Smile Clinic"}) == "Smile Clinic"
    assert location_of({"spans": [{"role": "location", "text": "在协和医院"}]}) == "协和医院"
    assert location_of({"spans": [{"role": "day", "text": "Friday"}]}) is None
