"""Issue 28's everyday forms in quick add: every sentence quoted under "What was found", the
blind forms corpus (``evals/cases/quick/forms.jsonl``, ≥ 97% exact), the unread-words rule and
the zone a sentence names. Now is the issue's: Thu 2026-12-03 10:00 Asia/Shanghai.
"""

from __future__ import annotations

import tempfile
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.services.quick_add import zone_line
from agent.timesym.sentence import parse_quick
from evals.corpora import measure_quick_forms as F
from tests.support.clock import SHANGHAI, ctx_at

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=SHANGHAI)
CTX = ctx_at(NOW)


def at(day: str, clock: str, zone: str = "Asia/Shanghai") -> datetime:
    """A wall time in a zone (the user's unless named)."""
    return datetime.fromisoformat(f"{day}T{clock}").replace(tzinfo=ZoneInfo(zone))


# (sentence, title, start, end, RRULE or None, zone or None): the issue's sentences, verbatim
W = "FREQ=WEEKLY;BYDAY="
ISSUE = [
    ("Flight to Tokyo Dec 20 8am", "Flight to Tokyo", at("2026-12-20", "08:00"), at("2026-12-20", "09:00"), None, None),
    ("Board meeting Jan 5 10am", "Board meeting", at("2027-01-05", "10:00"), at("2027-01-05", "11:00"), None, None),
    ("Project review Dec 15 2-4pm", "Project review", at("2026-12-15", "14:00"), at("2026-12-15", "16:00"), None, None),
    ("Gym every Mon Wed Fri at 7am", "Gym", at("2026-12-04", "07:00"), at("2026-12-04", "08:00"), W + "MO,WE,FR", None),
    ("Yoga every Tuesday and Thursday 7pm", "Yoga", at("2026-12-03", "19:00"), at("2026-12-03", "20:00"), W + "TU,TH", None),
    ("standup every weekday at 9:15", "standup", at("2026-12-04", "09:15"), at("2026-12-04", "10:15"),
     "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", None),
    ("每个工作日早上九点站会", "站会", at("2026-12-04", "09:00"), at("2026-12-04", "10:00"), W + "MO,TU,WE,TH,FR", None),
    ("每两周周三下午三点一对一", "一对一", at("2026-12-09", "15:00"), at("2026-12-09", "16:00"),
     "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE", None),
    ("每月最后一个周五下午四点复盘", "复盘", at("2026-12-25", "16:00"), at("2026-12-25", "17:00"),
     "FREQ=MONTHLY;BYDAY=-1FR", None),
    ("Call mom for 30 minutes at 4pm tomorrow", "Call mom", at("2026-12-04", "16:00"), at("2026-12-04", "16:30"), None,
     None),
    ("明天晚上7点吃饭，两个小时", "吃饭", at("2026-12-04", "19:00"), at("2026-12-04", "21:00"), None, None),
    ("下周五下午和李四喝咖啡一个半小时", "和李四喝咖啡", at("2026-12-11", "14:00"), at("2026-12-11", "15:30"), None, None),
    ("Standup every weekday 9:30am for 15 minutes", "Standup", at("2026-12-04", "09:30"), at("2026-12-04", "09:45"),
     "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", None),
    ("Dinner at 7 tomorrow", "Dinner", at("2026-12-04", "19:00"), at("2026-12-04", "20:00"), None, None),
    ("4pm CET call with Berlin team tomorrow", "call with Berlin team", at("2026-12-04", "16:00", "Europe/Berlin"),
     at("2026-12-04", "17:00", "Europe/Berlin"), None, "Europe/Berlin"),
    ("Call dad at half past two tomorrow", "Call dad", at("2026-12-04", "14:30"), at("2026-12-04", "15:30"), None, None),
    ("Haircut Thursday at quarter to five", "Haircut", at("2026-12-03", "16:45"), at("2026-12-03", "17:45"), None, None),
    ("下周二下午三点在协和医院复诊", "复诊", at("2026-12-08", "15:00"), at("2026-12-08", "16:00"), None, None),
    ("每月10号 交房租", "交房租", date(2026, 12, 10), date(2026, 12, 11), "FREQ=MONTHLY;BYMONTHDAY=10", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "title", "start", "end", "rrule", "zone"), ISSUE, ids=[case[0] for case in ISSUE])
def test_every_sentence_the_issue_quotes(
    text: str, title: str, start: date, end: date, rrule: str | None, zone: str | None
) -> None:
    got = parse_quick(text, CTX)
    assert got.problem is None, got.message()
    assert (got.title, got.start, got.end, got.zone) == (title, start, end, zone)
    assert (got.rule.to_rrule(got.start) if got.rule and got.start else None) == rrule
    if isinstance(start, datetime):  # pinned to the named zone, not only the same instant
        assert isinstance(got.start, datetime) and got.start.utcoffset() == start.utcoffset()


def test_the_place_before_the_title_and_the_lunar_series() -> None:
    clinic = parse_quick("下周二下午三点在协和医院复诊", CTX)
    assert clinic.location == "协和医院"
    lunar = parse_quick("每年农历八月十五 中秋聚餐", CTX)
    assert (lunar.title, lunar.start, lunar.repeat) == ("中秋聚餐", date(2027, 9, 15), "LUNAR_YEARLY")
    assert lunar.rule is not None and lunar.rule.lunar and lunar.rule.to_rrule(date(2027, 9, 15)) is None


def test_last_friday_of_every_month_is_no_longer_a_past_day() -> None:
    got = parse_quick("last Friday of every month at 6pm", CTX)
    assert got.problem == "no_title" and got.start == at("2026-12-25", "18:00")


@pytest.mark.parametrize(
    ("text", "rrule", "start"),
    [
        ("每周二四晚上8点羽毛球", "FREQ=WEEKLY;BYDAY=TU,TH", at("2026-12-03", "20:00")),
        ("每周二四点开会", "FREQ=WEEKLY;BYDAY=TU", at("2026-12-08", "16:00")),  # Tuesday at 4, not Tue and Thu
        ("每隔一天跑步 早上7点", "FREQ=DAILY;INTERVAL=2", at("2026-12-04", "07:00")),
        ("Review every 3 months on the 1st", "FREQ=MONTHLY;INTERVAL=3", date(2027, 1, 1)),
        ("每月第一个周一上午十点例会", "FREQ=MONTHLY;BYDAY=1MO", at("2026-12-07", "10:00")),
        ("每天早上8点背单词 共10次", "FREQ=DAILY;COUNT=10", at("2026-12-04", "08:00")),
        ("Piano lesson every Saturday 10am 10 times", "FREQ=WEEKLY;BYDAY=SA;COUNT=10", at("2026-12-05", "10:00")),
        ("standup daily 9am until March 1", "FREQ=DAILY;UNTIL=20270301T155959Z", at("2026-12-04", "09:00")),
        ("每周一晚上跑步到明年3月底", "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270331T155959Z", at("2026-12-07", "19:00")),
        ("every other week on Tuesday at 10am 1:1", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", at("2026-12-08", "10:00")),
        ("每周一到周五早上9点打卡", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", at("2026-12-04", "09:00")),
        ("每个月最后一个工作日 报销截止", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", date(2026, 12, 31)),
    ],
)
def test_repeats_said_in_full(text: str, rrule: str, start: date) -> None:
    got = parse_quick(text, CTX)
    assert got.problem is None and got.rule is not None
    assert (got.rule.to_rrule(got.start), got.start) == (rrule, start)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "zone", "start"),
    [
        ("9am New York time call with Sam tomorrow", "America/New_York", at("2026-12-04", "09:00", "America/New_York")),
        ("纽约时间上午9点和客户开会", "America/New_York", at("2026-12-03", "09:00", "America/New_York")),
        ("Team sync tomorrow 9am PST", "America/Los_Angeles", at("2026-12-04", "09:00", "America/Los_Angeles")),
        ("Call with London team 3pm London time Friday", "Europe/London", at("2026-12-04", "15:00", "Europe/London")),
        ("JST 10am sync with Tokyo tomorrow", "Asia/Tokyo", at("2026-12-04", "10:00", "Asia/Tokyo")),
    ],
)
def test_a_named_zone_pins_the_event(text: str, zone: str, start: datetime) -> None:
    got = parse_quick(text, CTX)
    assert (got.problem, got.zone, got.start) == (None, zone, start)
    assert isinstance(got.start, datetime) and got.start.utcoffset() == start.utcoffset()


@pytest.mark.parametrize(
    ("text", "title", "rrule", "start"),
    [
        ("周三晚上8点 读书会 每两周一次", "读书会", "FREQ=WEEKLY;INTERVAL=2", at("2026-12-09", "20:00")),  # 一次 is not Monday
        ("每周一次 周五下午3点 复盘", "复盘", "FREQ=WEEKLY", at("2026-12-04", "15:00")),
        ("Book club every second Tuesday 7pm", "Book club", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", at("2026-12-08", "19:00")),
        ("Python 3.11 upgrade tomorrow", "Python 3.11 upgrade", None, date(2026, 12, 4)),  # a version, not March 11
        ("Interview 2pm tomorrow, about an hour", "Interview", None, at("2026-12-04", "14:00")),
    ],
)
def test_words_that_look_like_a_form_but_are_not(text: str, title: str, rrule: str | None, start: date) -> None:
    got = parse_quick(text, CTX)
    assert (got.problem, got.title, got.start) == (None, title, start)
    assert (got.rule.to_rrule(start) if got.rule else None) == rrule


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Call dad at half past two tomorrow", at("2026-12-04", "14:30")),
        ("Haircut tomorrow at quarter to five", at("2026-12-04", "16:45")),
        ("Run tomorrow at quarter to seven", at("2026-12-04", "06:45")),  # the hour said decides: 7 is a morning hour
        ("Meet Kate at half seven tonight", at("2026-12-03", "19:30")),
        ("Train leaves at ten to eight Saturday morning", at("2026-12-05", "07:50")),
        ("周五差一刻五点 理发", at("2026-12-04", "16:45")),
        ("Dinner at 7 tomorrow", at("2026-12-04", "19:00")),
        ("Breakfast with Jo at 6 tomorrow", at("2026-12-04", "06:00")),
        ("明天7点吃晚饭", at("2026-12-04", "19:00")),
    ],
)
def test_clock_words_and_meals_place_the_hour(text: str, start: datetime) -> None:
    got = parse_quick(text, CTX)
    assert (got.problem, got.start) == (None, start)


def test_an_abbreviation_away_from_a_time_is_a_title_word() -> None:
    got = parse_quick("PT session tomorrow 3pm", CTX)
    assert (got.title, got.zone, got.problem) == ("PT session", None, None)


def test_the_zone_line_shows_both_clocks_in_both_languages() -> None:
    got = parse_quick("4pm CET call with Berlin team tomorrow", CTX)
    assert zone_line(got, SHANGHAI, "en") == "16:00 CET = 23:00 here"
    assert zone_line(got, SHANGHAI, "zh") == "16:00（CET）= 本地 23:00"
    assert zone_line(parse_quick("明天下午三点开会", CTX), SHANGHAI) is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Meeting Feb 30 3pm", ("Feb 30",)),
        ("Tennis Tue Thu 7pm", ("Tue Thu",)),  # a weekday list with no "every": never guessed
        ("明天跑步一小时", ("一小时",)),  # a length with no time to start from
        ("Call the Tokyo office tomorrow, Tokyo time", ("Tokyo time",)),
        ("Dentist Feb 30", ("Feb 30",)),  # nothing else read: the words, not only "no day or time"
        ("吃药 每天3次 早上8点", ("3次",)),  # three times a day: not an end after three days
        ("每天跑步 早上7点 共10次 到3月底", ("共10次",)),  # two ends: neither is guessed away
    ],
)
def test_day_and_time_words_nobody_read_are_named_and_nothing_is_guessed(text: str, words: tuple[str, ...]) -> None:
    got = parse_quick(text, CTX)
    assert (got.problem, got.unread) == ("unread", words)
    assert all(word in got.message("en") for word in words) and all(word in got.message("zh") for word in words)


@pytest.mark.parametrize(
    "text",
    [
        "Sunday brunch tomorrow at 11am",
        "Morning standup tomorrow 9am",
        "明天下午三点下午茶",
        "十点读书直播 周日晚上8点",
        "Dinner with May tomorrow 7pm",
    ],
)
def test_titles_that_hold_a_day_or_time_word_on_purpose_are_not_refused(text: str) -> None:
    assert parse_quick(text, CTX).problem is None


def test_the_blind_forms_corpus_is_at_least_97_percent_exact() -> None:
    """Its first sight (before any tuning) was 80/269 (evals/cases/quick/forms.md)."""
    cases = F.load(F.CASES)
    with tempfile.TemporaryDirectory() as folder:
        verdicts = [F.judge(case, Path(folder) / "forms.sqlite3") for case in cases]
    exact = sum(verdict.exact for verdict in verdicts)
    assert len(cases) >= 220 and exact / len(cases) >= 0.97, [v.case["id"] for v in verdicts if not v.exact]
