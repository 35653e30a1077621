"""Receipts that cannot misstate: the exact window queried, the year when it is not this
year, both years across a year boundary; and implausible years refused by the resolver."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

import pytest

from agent.runtime import receipts as R
from agent.services.command_types import Outcome
from agent.services.commands import CommandService
from agent.services.queries import QueryService, RangeResult
from agent.store.db import Store
from agent.store.occurrence import Occurrence
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve
from tests.support.clock import NOW, SHANGHAI

TODAY = NOW.date()  # Monday 2026-11-30


def sh(*args: int) -> datetime:
    return datetime(*args, tzinfo=SHANGHAI)  # type: ignore[misc]


def test_hour_window_names_its_hours_even_with_an_event_that_day(store: Store, profile_id: int, ctx: TimeContext) -> None:
    # "明天下午三点有什么安排" queries 15:00-16:00; a 10:00 meeting that day is outside it.
    CommandService(store, profile_id, ctx).prepare_or_create("周会", "D+1", time="10:00")
    result = QueryService(store, profile_id, ctx).range("D+1T15:00", "D+1T16:00")
    assert result.events == []
    assert R.range_receipt(result, "zh") == "12月1日（周二）15:00–16:00 没有安排。"
    assert R.range_receipt(result, "en") == "Nothing on your calendar for Tue 1 Dec 15:00–16:00."
    whole = QueryService(store, profile_id, ctx).range("D+1", "D+1")
    assert R.range_receipt(whole, "zh").startswith("12月1日（周二）共有 1 项安排：")


def test_window_to_midnight_and_across_days() -> None:
    assert R.window_label(sh(2026, 12, 2, 15), sh(2026, 12, 3), "zh", TODAY) == "12月2日（周三）15:00–24:00"
    assert R.window_label(sh(2026, 12, 2, 15), sh(2026, 12, 3, 9), "en", TODAY) == "Wed 2 Dec 15:00–Thu 3 Dec 09:00"
    assert R.window_label(sh(2026, 12, 2), sh(2026, 12, 5), "zh", TODAY) == "12月2日（周三）–12月4日（周五）"


def test_next_year_shows_its_year(store: Store, profile_id: int, ctx: TimeContext) -> None:
    result = QueryService(store, profile_id, ctx).range("2027-01-04", "2027-01-04")
    assert R.range_receipt(result, "zh") == "2027年1月4日（周一）没有安排。"
    assert R.range_receipt(result, "en") == "Nothing on your calendar for Mon 4 Jan 2027."
    out = CommandService(store, profile_id, ctx).prepare_or_create("年会", "2027-01-08", time="18:00")
    assert R.outcome_receipt(out, "zh").startswith("已创建：2027年1月8日（周五） 18:00–19:00 年会")
    this_year = CommandService(store, profile_id, ctx).prepare_or_create("周报", "D+1", time="09:00")
    assert "2026" not in R.outcome_receipt(this_year, "zh")


def test_two_year_range_names_both_years() -> None:
    result = RangeResult(sh(2026, 9, 1), sh(2027, 9, 1), [], TODAY)
    assert R.range_receipt(result, "zh") == "2026年9月1日（周二）–2027年8月31日（周二）没有安排。"
    assert "9月1日（周二）–8月31日" not in R.range_receipt(result, "zh")
    assert R.range_receipt(result, "en") == "Nothing on your calendar for Tue 1 Sep 2026–Tue 31 Aug 2027."


def test_without_a_today_the_year_is_shown_not_guessed() -> None:
    assert R.day_label(date(2026, 12, 1), "zh") == "2026年12月1日（周二）"
    assert R.day_label(date(2026, 12, 1), "zh", TODAY) == "12月1日（周二）"


def test_rejected_reply_receipt_says_nothing_was_written(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)
    svc.prepare_or_create("修车", "WE+1")
    again = svc.continue_active(date="W5")
    assert again is not None
    text = R.outcome_receipt(again, "zh")
    assert text.startswith("12月4日（周五）不在可选的日子里，还没有写入日历。")
    assert "12月12日（周六）还是12月13日（周日）" in text


@pytest.mark.parametrize(
    "symbol",
    [
        "1500-01-01",
        "1899-12-31",
        "2099-06-01",
        "2099-06",
        "2036-12-01",
        "D+9999",
        "1500-01-01T10:00",
    ],
)
def test_implausible_years_are_invalid_symbols(symbol: str, ctx: TimeContext) -> None:
    with pytest.raises(SymbolError, match="outside the dates Richeng accepts"):
        resolve(symbol, ctx)


@pytest.mark.parametrize("symbol", ["1900-01-01", "2036-11-30", "D-3650", "M+119"])
def test_plausible_edges_resolve(symbol: str, ctx: TimeContext) -> None:
    assert resolve(symbol, ctx).start is not None


def test_implausible_year_is_never_written(store: Store, profile_id: int, ctx: TimeContext) -> None:
    svc = CommandService(store, profile_id, ctx)
    for symbol in ("1500-03-01", "2099-03-01"):
        out = svc.prepare_or_create("穿越", symbol, time="10:00")
        assert out.status == "invalid" and out.message and "outside the dates" in out.message
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_dialog_spans_show_the_year_outside_this_year() -> None:
    pytest.importorskip("PySide6")
    from app.chat.candidate_bar import day_button_label
    from app.chat.spans import span_text

    today = Outcome("conflict", today=TODAY).today  # the dialogs read the result's own today (no ISO text)
    assert today == TODAY and Outcome("conflict").today is None
    assert span_text(sh(2026, 12, 1, 9), sh(2026, 12, 1, 10), SHANGHAI, today) == "Tue 12/1 09:00–10:00"
    assert span_text(sh(2027, 1, 4, 9), sh(2027, 1, 4, 10), SHANGHAI, today) == "Mon 2027/1/4 09:00–10:00"
    assert span_text(date(2026, 12, 31), date(2027, 1, 3), SHANGHAI, today) == "Thu 2026/12/31 – Sat 2027/1/2 · all day"
    assert span_text(date(2027, 3, 1), date(2027, 3, 2), SHANGHAI, today) == "Mon 2027/3/1 · all day"
    assert day_button_label(date(2027, 1, 2), "zh", TODAY) == "周六 2027/1/2"
    assert day_button_label(date(2026, 12, 5), "zh", TODAY) == "周六 12/5"


def _occurrence(title: str, start: datetime, end: datetime, calendar: str) -> Occurrence:
    return Occurrence(
        1,
        1,
        "u1",
        None,
        title,
        start,
        end,
        False,
        False,
        "Asia/Shanghai",
        calendar,
        1,
        "",
        "",
        "",
        "OPAQUE",
        "CONFIRMED",
        False,
        "user",
    )


def test_conflict_and_past_time_dialogs_show_the_year(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.chat.pending_dialog import PendingDialog

    receipt = Outcome(
        "conflict",
        title="年会",
        start=sh(2027, 1, 8, 18),
        end=sh(2027, 1, 8, 19),
        today=TODAY,
        conflicts=[_occurrence("聚餐", sh(2027, 1, 8, 17, 30), sh(2027, 1, 8, 19, 30), "日程")],
    )
    conflict = PendingDialog.conflict(receipt, SHANGHAI)
    qtbot.addWidget(conflict)
    assert "Fri 2027/1/8 17:30–19:30" in conflict.conflict_lines()[0]
    past = PendingDialog.past_time(
        replace(receipt, status="past_time", start=sh(2025, 11, 30, 8), end=sh(2025, 11, 30, 9)), SHANGHAI
    )
    qtbot.addWidget(past)
    assert "2025/11/30 08:00–09:00" in past.message.text()


def test_an_unreadable_time_with_no_title_does_not_quote_an_empty_name() -> None:
    """The bundled base model once left the title empty: the receipt read 'the time for “”'."""
    from agent.services.command_types import Outcome

    assert R.outcome_receipt(Outcome("invalid", title=""), "en").startswith("I couldn't work out the time for this event,")
    assert R.outcome_receipt(Outcome("invalid", title="  "), "zh").startswith("我没能理解这个日程的时间，")
    assert "“牙医”" in R.outcome_receipt(Outcome("invalid", title="牙医"), "zh")
