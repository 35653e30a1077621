"""Slot-only clarification replies are parsed without a model, and safely.

The fixed clock is Thursday 2026-09-10 10:00 in Asia/Shanghai; a second clock
is a Sunday, where "this week" is about to end and weekday rules are easiest
to get wrong.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.timesym import words
from agent.timesym.clarify import SlotPatch, parse_slot_reply
from agent.timesym.context import TimeContext
from agent.timesym.grammar import DATE_SYMBOL_PATTERN
from agent.timesym.resolve import resolve
from tests.support.clock import SHANGHAI

THURSDAY = TimeContext(now=datetime(2026, 9, 10, 10, 0, tzinfo=SHANGHAI), tz=SHANGHAI)
SUNDAY = TimeContext(now=datetime(2026, 9, 13, 21, 0, tzinfo=SHANGHAI), tz=SHANGHAI)
TIME_SHAPE = re.compile(r"^[0-2][0-9]:[0-5][0-9]$")


def ctx_on(day: date) -> TimeContext:
    return TimeContext(now=datetime(day.year, day.month, day.day, 10, 0, tzinfo=SHANGHAI), tz=SHANGHAI)


def parsed(text: str, ctx: TimeContext = THURSDAY) -> tuple[str | None, str | None, str | None] | None:
    """(date, time, resolved_date) so each case states the concrete day too."""
    patch = parse_slot_reply(text, ctx)
    if patch is None:
        return None
    out = patch.to_json(ctx)
    return out["date"], out["time"], out["resolved_date"]


# --- the brief's examples ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("周日下午2点", ("W7", "14:00", "2026-09-13")),
        ("下午两点半", (None, "14:30", None)),
        ("明天晚上7点半", ("D+1", "19:30", "2026-09-11")),
        ("9月29日", ("09-29", None, "2026-09-29")),
        ("9月29号", ("09-29", None, "2026-09-29")),
        ("29号", ("2026-09-29", None, "2026-09-29")),
        ("三点一刻", (None, "15:15", None)),
        ("十点", (None, "10:00", None)),
        ("15:30", (None, "15:30", None)),
        ("sunday 2pm", ("W7", "14:00", "2026-09-13")),
        ("tomorrow at 7:30pm", ("D+1", "19:30", "2026-09-11")),
        ("next monday", ("W1+1", None, "2026-09-14")),
        ("9/29", ("09-29", None, "2026-09-29")),
    ],
)
def test_brief_examples(text: str, expected: tuple[str | None, str | None, str | None]) -> None:
    assert parsed(text) == expected


@pytest.mark.parametrize(
    "text",
    ["好的", "算了", "不用换，直接创建", "天", "明天去开会", "", " ", "\t\n", "   \u3000 "],
)
def test_non_slot_replies_are_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


@pytest.mark.parametrize("text", ["可以", "好", "那就", "的吧", "let's", "make it", "on the", "。！？", "还是"])
def test_fillers_alone_are_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


# --- Chinese numerals and minutes --------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("零点", "00:00"),
        ("两点", "14:00"),
        ("十一点", "11:00"),
        ("十二点", "12:00"),
        ("二十三点", "23:00"),
        ("三点半", "15:30"),
        ("三点一刻", "15:15"),
        ("三点三刻", "15:45"),
        ("十点零五", "10:05"),
        ("十点过五分", "10:05"),
        ("十点五分", "10:05"),
        ("十点零五分", "10:05"),
        ("十点十五", "10:15"),
        ("十点四十五分", "10:45"),
        ("10点30", "10:30"),
        ("10点30分", "10:30"),
        ("10点05", "10:05"),
        ("8点钟", "08:00"),
        ("八点整", "08:00"),
        ("15时30分", "15:30"),
        ("10：30", "10:30"),
        ("１５：３０", "15:30"),
    ],
)
def test_chinese_clock(text: str, expected: str) -> None:
    assert parsed(text) == (None, expected, None)


@pytest.mark.parametrize("text", ["三点五", "10点5", "24点", "25:00", "10:61", "三十点", "十十点", "二十两点"])
def test_ambiguous_or_invalid_clock_is_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


# --- period rules (docs/clarification-parser.md) ----------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # bare hours: 1..6 afternoon, 7..11 morning, 12 noon
        ("1点", "13:00"),
        ("6点", "18:00"),
        ("7点", "07:00"),
        ("11点", "11:00"),
        ("12点", "12:00"),
        ("3:15", "15:15"),
        ("03:15", "03:15"),  # zero-padded = explicit 24h clock
        ("凌晨3点", "03:00"),
        ("凌晨12点", "00:00"),
        ("早上8点", "08:00"),
        ("早晨7点半", "07:30"),
        ("上午10点", "10:00"),
        ("上午3点", "03:00"),
        ("中午12点", "12:00"),
        ("中午1点", "13:00"),
        ("中午12点半", "12:30"),
        ("下午3点", "15:00"),
        ("下午14点", "14:00"),
        ("傍晚6点", "18:00"),
        ("晚上7点", "19:00"),
        ("晚上11点", "23:00"),
        ("下午03:00", "15:00"),
        ("2pm", "14:00"),
        ("7:30 p.m.", "19:30"),
        ("9am", "09:00"),
        ("12am", "00:00"),
        ("12pm", "12:00"),
        ("noon", "12:00"),
        ("12 noon", "12:00"),
        ("at 3", "15:00"),
        ("at 9", "09:00"),
        ("at 7 o'clock", "07:00"),
        ("morning 9am", "09:00"),
        ("evening at 8", "20:00"),
    ],
)
def test_period_rules(text: str, expected: str) -> None:
    assert parsed(text) == (None, expected, None)


@pytest.mark.parametrize(
    "text",
    [
        "早上15点",  # contradiction
        "凌晨8点",
        "中午5点",
        "晚上1点",  # usually 01:00 of the next date: refuse rather than guess 13:00
        "13pm",
        "0am",
        "下午3点am",
        "下午",  # a period without an hour cannot be expressed
        "明天下午",
        "tonight",
        "晚上12点",  # midnight ending which day? no day in the reply
        "3",  # a bare number is neither a day nor a time
        "7.30",
    ],
)
def test_period_contradictions_are_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("今晚12点", ("D+1", "00:00", "2026-09-11")),
        ("今晚7点", ("D+0", "19:00", "2026-09-10")),
        ("明天晚上12点", ("D+2", "00:00", "2026-09-12")),
        ("周六晚上12点", ("2026-09-13", "00:00", "2026-09-13")),
        ("明早8点", ("D+1", "08:00", "2026-09-11")),
        ("明天凌晨2点", ("D+1", "02:00", "2026-09-11")),
        ("tonight at 8", ("D+0", "20:00", "2026-09-10")),
        ("tomorrow morning at 9", ("D+1", "09:00", "2026-09-11")),
    ],
)
def test_day_and_period_together(text: str, expected: tuple[str, str, str]) -> None:
    assert parsed(text) == expected


# --- dates -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "symbol", "day"),
    [
        ("今天", "D+0", "2026-09-10"),
        ("明天", "D+1", "2026-09-11"),
        ("后天", "D+2", "2026-09-12"),
        ("大后天", "D+3", "2026-09-13"),
        ("昨天", "D-1", "2026-09-09"),
        ("today", "D+0", "2026-09-10"),
        ("tomorrow", "D+1", "2026-09-11"),
        ("周一", "W1", "2026-09-14"),
        ("周四", "W4", "2026-09-10"),  # today included
        ("周日", "W7", "2026-09-13"),
        ("周天", "W7", "2026-09-13"),
        ("星期三", "W3", "2026-09-16"),
        ("星期天", "W7", "2026-09-13"),
        ("星期日", "W7", "2026-09-13"),
        ("礼拜一", "W1", "2026-09-14"),
        ("礼拜天", "W7", "2026-09-13"),
        ("礼拜日", "W7", "2026-09-13"),
        ("下周三", "W3+1", "2026-09-16"),
        ("下个星期三", "W3+1", "2026-09-16"),
        ("这周五", "W5+0", "2026-09-11"),
        ("本周五", "W5+0", "2026-09-11"),
        ("这个周五", "W5+0", "2026-09-11"),
        ("下下周一", "W1+2", "2026-09-21"),
        ("上周五", "W5-1", "2026-09-04"),
        ("这个周末", "WE", "2026-09-12"),
        ("周末", "WE", "2026-09-12"),
        ("下周末", "WE+1", "2026-09-19"),
        ("this weekend", "WE", "2026-09-12"),
        ("next weekend", "WE+1", "2026-09-19"),
        ("monday", "W1", "2026-09-14"),
        ("this monday", "W1", "2026-09-14"),  # English "this X" = the coming X
        ("next friday", "W5+1", "2026-09-18"),
        ("on Sunday", "W7", "2026-09-13"),
        ("十月一日", "10-01", "2026-10-01"),
        ("9月1号", "09-01", "2027-09-01"),  # next such day: already past this year
        ("2026年9月29日", "2026-09-29", "2026-09-29"),
        ("2026-09-29", "2026-09-29", "2026-09-29"),
        ("2026/9/29", "2026-09-29", "2026-09-29"),
        ("09-29", "09-29", "2026-09-29"),
        ("sept 29", "09-29", "2026-09-29"),
        ("September 29th", "09-29", "2026-09-29"),
        ("29 september", "09-29", "2026-09-29"),
        ("the 29th", "2026-09-29", "2026-09-29"),
        ("二十九号", "2026-09-29", "2026-09-29"),
        ("十号", "2026-09-10", "2026-09-10"),  # today included
        ("9号", "2026-10-09", "2026-10-09"),
        ("31号", "2026-10-31", "2026-10-31"),  # September has no 31st
    ],
)
def test_dates(text: str, symbol: str, day: str) -> None:
    assert parsed(text) == (symbol, None, day)


@pytest.mark.parametrize(
    ("today", "text", "day"),
    [
        (date(2026, 9, 30), "29号", "2026-10-29"),
        (date(2026, 1, 31), "30号", "2026-03-30"),  # February has no 30th
        (date(2026, 12, 31), "29号", "2027-01-29"),
        (date(2028, 2, 1), "29号", "2028-02-29"),
        (date(2026, 9, 29), "29号", "2026-09-29"),
    ],
)
def test_bare_day_of_month_rolls_forward(today: date, text: str, day: str) -> None:
    ctx = ctx_on(today)
    assert parsed(text, ctx) == (day, None, day)


@pytest.mark.parametrize("text", ["2月30日", "13月1日", "9/31", "0号", "32号", "2026-02-30", "29/9"])
def test_impossible_dates_are_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


def test_weekday_confirming_a_date_is_accepted_only_if_it_agrees() -> None:
    assert parsed("9月29日周二") == ("09-29", None, "2026-09-29")
    assert parse_slot_reply("9月29日周三", THURSDAY) is None
    assert parsed("明天周五") == ("D+1", None, "2026-09-11")
    assert parse_slot_reply("明天周六", THURSDAY) is None


@pytest.mark.parametrize("text", ["周六还是周日", "明天今晚", "明天后天", "3点4点", "周六 29号"])
def test_conflicting_slots_are_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


# --- fillers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("那就改到周日下午两点吧", ("W7", "14:00", "2026-09-13")),
        ("还是周六吧", ("W6", None, "2026-09-12")),
        ("改成明天的十点", ("D+1", "10:00", "2026-09-11")),
        ("定在下周三下午三点", ("W3+1", "15:00", "2026-09-16")),
        ("约在周五晚上7点可以", ("W5", "19:00", "2026-09-11")),
        ("换到29号呢", ("2026-09-29", None, "2026-09-29")),
        ("那周日啊", ("W7", None, "2026-09-13")),
        ("就在明天", ("D+1", None, "2026-09-11")),
        ("let's make it sunday at 2pm", ("W7", "14:00", "2026-09-13")),
        ("Let’s do", None),
        ("on the 29th", ("2026-09-29", None, "2026-09-29")),
        ("Tomorrow, at 7:30 PM!", ("D+1", "19:30", "2026-09-11")),
        ("周日，下午 2 点。", ("W7", "14:00", "2026-09-13")),
    ],
)
def test_fillers_are_stripped(text: str, expected: tuple[str | None, str | None, str | None] | None) -> None:
    assert parsed(text) == expected


@pytest.mark.parametrize("text", ["明天👍", "周日吗", "不是周日", "周日不行", "tomorrow maybe", "monthly", "saturdays"])
def test_anything_else_left_over_is_none(text: str) -> None:
    assert parse_slot_reply(text, THURSDAY) is None


# --- Sunday today ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("周日", ("W7", None, "2026-09-13")),  # today included
        ("周日下午2点", ("W7", "14:00", "2026-09-13")),
        ("周一", ("W1", None, "2026-09-14")),
        ("下周一", ("W1+1", None, "2026-09-14")),  # weeks are Monday-Sunday
        ("下周日", ("W7+1", None, "2026-09-20")),
        ("这周日", ("W7+0", None, "2026-09-13")),
        ("next monday", ("W1+1", None, "2026-09-14")),
        ("sunday 2pm", ("W7", "14:00", "2026-09-13")),
        ("明天", ("D+1", None, "2026-09-14")),
        ("今晚12点", ("D+1", "00:00", "2026-09-14")),
        ("13号", ("2026-09-13", None, "2026-09-13")),
        ("12号", ("2026-10-12", None, "2026-10-12")),
        ("下周末", ("WE+1", None, "2026-09-19")),
    ],
)
def test_sunday_today(text: str, expected: tuple[str | None, str | None, str | None]) -> None:
    assert parsed(text, SUNDAY) == expected


# --- the vocabulary table is the one source -----------------------------------


def test_every_relative_day_word_parses() -> None:
    for word, offset in words.RELATIVE_DAYS.items():
        patch = parse_slot_reply(word, THURSDAY)
        assert patch == SlotPatch(date=f"D{offset:+d}", time=None), word


def test_every_weekday_word_parses() -> None:
    for prefix in words.WEEKDAY_PREFIXES_ZH:
        for suffix, d in words.WEEKDAY_SUFFIXES_ZH.items():
            assert parse_slot_reply(prefix + suffix, THURSDAY) == SlotPatch(f"W{d}", None), prefix + suffix
    for word, d in words.WEEKDAYS_EN.items():
        assert parse_slot_reply(word, THURSDAY) == SlotPatch(f"W{d}", None), word
        assert parse_slot_reply(f"next {word}", THURSDAY) == SlotPatch(f"W{d}+1", None), word


def test_every_period_word_combines_with_an_hour() -> None:
    for word, period in words.PERIOD_WORDS.items():
        hour = next(h for h in range(1, 13) if period.to_24h(h) is not None)
        text = f"{word}{hour}点" if not word.isascii() else f"{word} at {hour}"
        patch = parse_slot_reply(text, THURSDAY)
        assert patch == SlotPatch(None, f"{period.to_24h(hour):02d}:00"), text


def test_every_filler_alone_is_none_and_around_a_slot_is_stripped() -> None:
    for filler in words.FILLERS_ZH + words.FILLERS_EN:
        assert parse_slot_reply(filler, THURSDAY) is None, filler
        assert parse_slot_reply(f"{filler} 周日 {filler}", THURSDAY) == SlotPatch("W7", None), filler


@pytest.mark.parametrize(
    ("text", "value"),
    [("零", 0), ("两", 2), ("十", 10), ("十一", 11), ("二十", 20), ("二十三", 23), ("三十一", 31), ("零五", 5), ("05", 5)],
)
def test_cn_to_int(text: str, value: int) -> None:
    assert words.cn_to_int(text) == value


@pytest.mark.parametrize("text", ["", "一二", "十十", "二十两", "零十", "十零", "一百", "123", "abc"])
def test_cn_to_int_refuses_malformed(text: str) -> None:
    assert words.cn_to_int(text) is None


# --- to_json -----------------------------------------------------------------


def test_to_json_shape() -> None:
    assert SlotPatch("W7", "14:00").to_json(THURSDAY) == {
        "date": "W7",
        "time": "14:00",
        "resolved_date": "2026-09-13",
    }
    assert SlotPatch(None, "14:00").to_json(THURSDAY) == {"date": None, "time": "14:00", "resolved_date": None}
    # a weekend's resolved date is its first day
    assert SlotPatch("WE+1", None).to_json(THURSDAY)["resolved_date"] == "2026-09-19"


# --- never raises --------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        None,
        123,
        b"\xe5\x91\xa8\xe6\x97\xa5",
        "\x00",
        "\x00周日\x07",
        "\ud800",
        "周日" * 10_000,
        "x" * 1_000_000,
        "👍" * 50,
        "\u200b周日\u200b",
        "2026-99-99",
        "9999-12-31",
        "D+1",
    ],
)
def test_edge_inputs_never_raise(text: object) -> None:
    result = parse_slot_reply(text, THURSDAY)  # type: ignore[arg-type]
    assert result is None or isinstance(result, SlotPatch)


def test_invisible_controls_are_ignored() -> None:
    assert parse_slot_reply("\u200b周日\u200b", THURSDAY) == SlotPatch("W7", None)
    assert parse_slot_reply("\x00周日\x07", THURSDAY) == SlotPatch("W7", None)


_FRAGMENTS = sorted(
    {
        *words.RELATIVE_DAYS,
        *words.PERIOD_WORDS,
        *words.DATED_PERIOD_WORDS,
        *words.FILLERS_ZH,
        *words.FILLERS_EN,
        *words.WEEKDAYS_EN,
        *words.MONTHS_EN,
        *words.MERIDIEM_EN,
        *words.MINUTE_WORDS_ZH,
        *words.HOUR_MARKERS_ZH,
        *words.MINUTE_MARKERS_ZH,
        *words.DAY_MARKERS_ZH,
        *words.WEEKDAY_PREFIXES_ZH,
        *words.WEEKDAY_SUFFIXES_ZH,
        *words.CN_DIGITS,
        *words.NOON_EN,
        *words.OCLOCK_EN,
        words.CN_TEN,
        words.NEXT_WEEK_ZH,
        words.LAST_WEEK_ZH,
        words.WEEKEND_ZH,
        words.WEEKEND_EN,
        words.MONTH_MARKER_ZH,
        words.YEAR_MARKER_ZH,
        words.MINUTE_PAST_ZH,
        "next",
        "this",
        "个",
        "这",
        "本",
        ":",
        "/",
        "-",
        " ",
        "，",
        "st",
        "th",
        "天",
        "去开会",
    }
)
_slotty_text = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS), st.integers(0, 2100).map(str)),
    max_size=8,
).map("".join)
_contexts = st.builds(
    lambda d, zone: TimeContext(now=datetime(d.year, d.month, d.day, 10, 0, tzinfo=ZoneInfo(zone)), tz=ZoneInfo(zone)),
    st.dates(min_value=date(1900, 1, 1), max_value=date(9999, 12, 31)),
    st.sampled_from(["Asia/Shanghai", "America/New_York", "UTC", "Pacific/Kiritimati"]),
)


def _cn_numeral(n: int) -> str:
    digits = "零一二三四五六七八九"
    if n < 10:
        return digits[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else digits[tens]) + "十" + (digits[ones] if ones else "")


_numbers = st.integers(0, 40).flatmap(lambda n: st.sampled_from([str(n), f"{n:02d}", _cn_numeral(n)]))
_date_parts = st.one_of(
    st.just(""),
    st.sampled_from(sorted(words.RELATIVE_DAYS)),
    st.tuples(
        st.sampled_from(["", "这", "这个", "本", "下", "下个", "下下", "上", "上上个", "next ", "this "]),
        st.sampled_from([*words.WEEKDAY_PREFIXES_ZH, ""]),
        st.sampled_from([*words.WEEKDAY_SUFFIXES_ZH, *words.WEEKDAYS_EN, "末", "weekend"]),
    ).map("".join),
    st.tuples(_numbers, st.just("月"), _numbers, st.sampled_from(["日", "号", ""])).map("".join),
    st.tuples(_numbers, st.sampled_from(["号", "日", "th", "st"])).map("".join),
    st.tuples(st.integers(0, 13), st.integers(0, 32)).map(lambda md: f"{md[0]}/{md[1]}"),
    st.tuples(st.sampled_from(["1900", "2026", "9999"]), st.integers(0, 13), st.integers(0, 32)).map(
        lambda ymd: f"{ymd[0]}-{ymd[1]:02d}-{ymd[2]:02d}"
    ),
    st.tuples(st.sampled_from(sorted(words.MONTHS_EN)), st.just(" "), _numbers).map("".join),
)
_time_parts = st.one_of(
    st.just(""),
    st.tuples(
        st.sampled_from(["", *words.PERIOD_WORDS, *words.DATED_PERIOD_WORDS]),
        _numbers,
        st.sampled_from(words.HOUR_MARKERS_ZH),
        st.one_of(
            st.sampled_from(["", *words.MINUTE_WORDS_ZH]),
            st.tuples(st.sampled_from(["", "过", "零"]), _numbers, st.sampled_from(["", "分", "分钟"])).map("".join),
        ),
    ).map("".join),
    st.tuples(
        st.sampled_from(["", "at ", "tonight at ", "morning ", "evening "]),
        st.integers(0, 25),
        st.sampled_from(["", ":00", ":30", ":59", ":60"]),
        st.sampled_from(["", *words.MERIDIEM_EN, " o'clock"]),
    ).map(lambda t: f"{t[0]}{t[1]}{t[2]}{t[3]}"),
)
_structured_text = st.tuples(
    st.sampled_from(["", *words.FILLERS_ZH, *words.FILLERS_EN]),
    _date_parts,
    st.sampled_from(["", " ", "，"]),
    _time_parts,
    st.sampled_from(["", "吧", "。", "!", "去开会"]),
).map("".join)


def _check_patch(result: SlotPatch | None, ctx: TimeContext) -> None:
    if result is None:
        return
    assert isinstance(result, SlotPatch)
    assert result.date is not None or result.time is not None
    if result.date is not None:
        assert re.fullmatch(DATE_SYMBOL_PATTERN, result.date), result
        resolved = resolve(result.date, ctx)
        assert resolved.kind in {"day", "days"}, result
        assert result.to_json(ctx)["resolved_date"] is not None
    if result.time is not None:
        assert TIME_SHAPE.fullmatch(result.time), result
        time.fromisoformat(result.time)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(text=st.text(max_size=200), ctx=_contexts)
def test_property_arbitrary_text_never_raises(text: str, ctx: TimeContext) -> None:
    _check_patch(parse_slot_reply(text, ctx), ctx)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(text=_slotty_text, ctx=_contexts)
def test_property_slot_vocabulary_soup_never_raises(text: str, ctx: TimeContext) -> None:
    _check_patch(parse_slot_reply(text, ctx), ctx)


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(text=_structured_text, ctx=_contexts)
def test_property_slot_shaped_replies_resolve(text: str, ctx: TimeContext) -> None:
    """Slot-shaped input (with out-of-range numbers and edge clocks) reaches the
    success path often, so the resolve/format guarantees are really exercised."""
    _check_patch(parse_slot_reply(text, ctx), ctx)


@settings(max_examples=300, deadline=None)
@given(
    prefix=st.sampled_from(["", "那就", "还是", "let's ", "改到"]),
    day=st.sampled_from(["明天", "周日", "下周三", "29号", "9月29日", "tomorrow", "next monday", ""]),
    clock=st.sampled_from(["下午两点半", "十点", "15:30", "at 7:30pm", "晚上7点", "三点一刻", ""]),
    suffix=st.sampled_from(["", "吧", "。", "!"]),
)
def test_property_composed_replies_parse(prefix: str, day: str, clock: str, suffix: str) -> None:
    text = f"{prefix}{day} {clock}{suffix}"
    result = parse_slot_reply(text, THURSDAY)
    if not day and not clock:
        assert result is None
        return
    assert result is not None, text
    assert (result.date is not None) == bool(day)
    assert (result.time is not None) == bool(clock)
    _check_patch(result, THURSDAY)
