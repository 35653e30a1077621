"""The conditional latch (issue 30, item 1): a change said under a condition is answered,
never written, and leaves nothing a later "yes" could apply; a create under one asks.

Measured on the conditional rows of issue 30's blind batch (``fresh30_edit``) and the
held-out rows of ``evals/corpora/mood_heldout.py``; the mutation test switches the rule off
and shows the conditional rows get written.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent.evals.cases import Case, parse_case
from agent.evals.runner import run_case
from agent.runtime import conditionals
from agent.runtime.conditionals import conditional_reasons
from evals.corpora import fresh30_edits as E
from evals.corpora.measure_mood import group, heldout_right, heldout_wrong

WRITES = ("updated", "deleted", "created")
PENDING = ("edit_confirm", "edit_conflict", "conflict", "unconfirmed", "edit_choice")


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("要是周日下大雨，网球课就取消吧", "要是"),
        ("读书会人不够的话就取消", "的话"),
        ("万一周五加班，牙医改到周六上午十点", "万一"),
        ("除非老师回我消息，周六钢琴课就不上了", "除非"),
        ("If the client can't make it, move Friday's review to Monday", "if"),
        ("In case it rains on Sunday, cancel tennis", "in case"),
        ("Cancel book club unless at least four people RSVP", "unless"),
        ("Should the dentist call about an earlier slot, move it to Thursday", "should"),
        ("What if I moved the checkup to 7am?", "if"),
    ],
)
def test_condition_words_are_read(text: str, word: str) -> None:
    assert conditional_reasons(text) == ["conditional:" + word]


@pytest.mark.parametrize(
    "text",
    [
        "如果可以的话，把牙医挪到下周一",
        "以防万一，体检提前一天提醒我",
        "方便的话帮我把读书会改到八点半",
        "主要是周五的会要改到下午三点",
        "if possible, move the dentist to next Monday",
        "just in case, remind me a day before the checkup",
        "Saturday's piano lesson should be at 3pm",
        "remind me tomorrow at 9 in case I forget",
        "把牙医挪到周四下午四点",
        "明天下午三点开会讨论产品的话题",
        "周五下午三点开会，如果有变化再说",
        "Lunch with Chen Thursday at noon, I'll let you know if anything changes",
    ],
)
def test_politeness_and_plain_requests_are_not_conditions(text: str) -> None:
    assert conditional_reasons(text) == []


def _outcomes(cases: list[Case]) -> list[tuple[str, bool]]:
    out = []
    for case in cases:
        run = run_case(case)
        out.append((run.turns[0].outcome, bool(run.added or run.removed)))
    return out


def _conditional_rows() -> list[Case]:
    return [case for case in group("fresh30_edit") if ".wrong-conditional-" in case.id] + heldout_wrong()


def test_no_conditional_edit_is_written_or_left_pending() -> None:
    outcomes = _outcomes(_conditional_rows())
    assert len(outcomes) >= 40
    assert [o for o in outcomes if o[1] or o[0] in WRITES + PENDING] == []
    assert {o[0] for o in outcomes} <= {"edit_answered", "edit_no_match"}


def test_polite_ifs_are_applied_in_one_turn() -> None:
    polite = [case for case in group("fresh30_edit") if ".right-polite_if-" in case.id] + heldout_right()
    assert len(polite) >= 10
    assert all(outcome in ("updated", "deleted") for outcome, _ in _outcomes(polite))


def test_mutation_without_the_conditional_rule_conditional_edits_are_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conditionals, "CONDITIONAL_RULE", False)
    written = [o for o in _outcomes(_conditional_rows()) if o[1]]
    assert len(written) >= 20


def _case(turns: list[dict[str, Any]], lang: str = "zh") -> Case:
    data = {
        "id": "conditional.two-turns",
        "group": "conditional",
        "now": E.NOW,
        "tz": "Asia/Shanghai",
        "fixtures": {"calendars": E.CALENDARS, "events": E.EVENTS_ZH if lang == "zh" else E.EVENTS_EN},
        "turns": turns,
    }
    return parse_case(data, "offline", "test")


@pytest.mark.parametrize(
    ("lang", "message", "call"),
    [
        ("zh", "要是周日下大雨，网球课就取消吧", E.D(targetTitle="网球课", targetDate="W7")),
        ("en", "If the client can't make it, move Friday's review to Monday", E.U(targetTitle="client review", newDate="W1+1")),
    ],
)
def test_a_yes_after_a_conditional_answer_writes_nothing(lang: str, message: str, call: list[dict[str, Any]]) -> None:
    run = run_case(
        _case(
            [
                {"user": message, "script": [{"tool_calls": call}], "expect": {}, "script_may_remain": True},
                {"user": "是" if lang == "zh" else "yes", "script": [{"content": "OK"}], "expect": {}, "script_may_remain": True},
            ],
            lang,
        )
    )
    assert run.turns[0].outcome == "edit_answered"
    assert not run.added and not run.removed and not run.turns[1].added
    assert ("条件" if lang == "zh" else "condition") in run.turns[0].reply


def test_a_create_under_a_condition_asks() -> None:
    create = {"name": "prepare_or_create_schedule", "arguments": {"title": "爬山", "dateExpression": "W6", "time": "09:00"}}
    run = run_case(
        _case([{"user": "要是周六不下雨，就约老李去爬山，早上九点", "script": [{"tool_calls": [create]}], "expect": {}}])
    )
    assert run.turns[0].outcome == "unconfirmed" and not run.added
    assert "要是" in run.turns[0].reply
