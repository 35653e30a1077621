"""The receipt of a created series says the rule that was written, in the one summary's
words (issue 28): a Mon/Wed/Fri rule started on a Wednesday used to read "每周三" (the
pattern came from the start's weekday), and the editor, card and agenda worded rules
differently from the chat."""

from __future__ import annotations

from datetime import date

import pytest

from agent.runtime.receipts import outcome_receipt, series_recurrence
from agent.services.commands import CommandService
from agent.store.db import Store
from agent.timesym.context import TimeContext
from agent.timesym.recurrence_words import summary


@pytest.mark.parametrize(
    ("kwargs", "zh", "en"),
    [
        ({"rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR"}, "重复：每周一、三、五", "Repeats: Every Mon, Wed, Fri"),
        ({"rrule": "FREQ=MONTHLY;BYDAY=-1FR"}, "重复：每月最后一个周五", "Repeats: Monthly on the last Friday"),
        ({"repeat": "WEEKLY", "repeat_count": 10}, "重复：每周三，共 10 次", "Repeats: Every Wed, 10 times"),
        (
            {"repeat": "MONTHLY", "repeat_until": "2027-03-31"},
            "重复：每月2日，直到 2027年3月31日",
            "Repeats: Monthly on the 2nd, until Mar 31, 2027",
        ),
    ],
)
def test_the_receipt_says_the_written_rule(store: Store, profile_id: int, ctx: TimeContext, kwargs, zh: str, en: str) -> None:  # type: ignore[no-untyped-def]
    svc = CommandService(store, profile_id, ctx)  # now: Mon 2026-11-30 10:00; D+2 is Wednesday 12-02
    out = svc.prepare_or_create("复盘", "D+2", time="16:00", **kwargs)
    assert out.status == "created" and out.event is not None and out.series is not None
    assert zh in outcome_receipt(out, "zh").splitlines()
    assert en in outcome_receipt(out, "en").splitlines()
    # the same words the editor, the card and the agenda show for that series
    rule = series_recurrence(out.series, out.event.start)
    assert zh.removeprefix("重复：") == summary(rule, out.event.start, "zh")


def test_a_lunar_receipt_names_the_lunar_day(store: Store, profile_id: int, ctx: TimeContext) -> None:
    out = CommandService(store, profile_id, ctx).prepare_or_create("中秋聚餐", "L:08-15", repeat="LUNAR_YEARLY")
    assert out.status == "created" and out.event is not None and out.event.start == date(2027, 9, 15)
    lines = outcome_receipt(out, "zh").splitlines()
    assert "重复：每年农历八月十五" in lines and any(line.startswith("接下来：2027年9月15日") for line in lines)
