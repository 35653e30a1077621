"""Narrative past (issue 30, item 3): an account of what happened is not written, and a real
request with past-looking words is still created in one turn.

Measured on issue 30's blind batch (``fresh30_past`` / ``fresh30_real``) and the held-out
rows of ``evals/corpora/mood_heldout.py``; the earlier past-tense corpora are measured by
``test_grounding_corpus.py``. Each mutation test switches one rule off and shows a case
fail, so the corpus cannot pass while testing nothing.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from agent.evals.cases import Case
from agent.evals.runner import run_case
from agent.runtime import narrative
from agent.services.wording import fold
from evals.corpora.measure_mood import group, heldout_past, heldout_real
from tests.support.clock import ctx_at

CTX = ctx_at(datetime.fromisoformat("2026-12-01T10:00:00+08:00"))


def _written(cases: list[Case]) -> set[str]:
    return {case.id for case in cases if run_case(case).added}


def _created(cases: list[Case]) -> set[str]:
    done = set()
    for case in cases:
        turn = run_case(case).turns[0]
        if turn.outcome == "created" and turn.model_calls == 1 and turn.added:
            done.add(case.id)
    return done


def test_no_narrative_remark_is_written() -> None:
    remarks = group("fresh30_past") + heldout_past()
    assert len(remarks) >= 70
    assert _written(remarks) == set()


def test_real_requests_with_past_looking_words_are_created_in_one_turn() -> None:
    requests = group("fresh30_real") + heldout_real()
    created = _created(requests)
    print(f"\nrequests created in one turn: {len(created)}/{len(requests)}")
    assert len(requests) >= 60 and len(created) / len(requests) >= 0.95


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        ("plan_done", "原本约在下周二的复诊，医生临时有空，昨天就看完了"),
        ("plan_done", "签证原计划下周三去办，前天已经办下来了"),
        ("plan_done", "The inspection was scheduled for next week but they already did it on Monday"),
        ("diary", "11月29日 周日 晴\n上午带女儿去了科技馆，下午回来包了饺子。"),
        ("diary", "Journal, Mon 11/30: dentist at 8, then a long planning meeting until lunch."),
        ("diary", "Saturday, Nov 28 — farmers market in the morning, then a long nap."),
        ("early", "结婚纪念日在下周，我们上周末已经提前庆祝过了"),
        ("early", "We celebrated Mom's birthday early, on Sunday, since she's traveling on the actual day"),
        ("early", "Our anniversary is on the 12th but we already went out for it on Friday"),
    ],
)
def test_narrative_forms(rule: str, text: str) -> None:
    assert narrative.NARRATIVE_RULES[rule](fold(text), CTX)


@pytest.mark.parametrize(
    "text",
    [
        "原定的周会挪到了周五上午十点，帮我记一下",
        "说好的火锅改成周六晚上六点半",
        "原本取消的瑜伽课又恢复了，周六早上九点",
        "12月5日（周六）\n上午十点理发",
        "12/1: dentist at 3pm, bring the insurance card",
        "The dentist was supposed to be Friday, move it to Monday at 9",
        "以防万一，体检提前一天提醒我",
        "Already booked a massage for Sunday at 4",
    ],
)
def test_requests_are_not_narratives(text: str) -> None:
    assert narrative.narrative_markers(text, CTX) == []


@pytest.mark.parametrize(
    ("text", "reported"),
    [
        ("周一的家长会老师点名表扬了儿子", True),
        ("上午的驾校课教练一直在骂人", True),
        ("The vet kept us waiting an hour this morning", True),
        ("At Monday's standup my manager announced she's leaving", True),
        ("周五的家长会改到晚上七点", False),  # Friday is ahead on a Tuesday
        ("I signed up for a pottery class Saturday at 2pm", False),
    ],
)
def test_reported_forms(text: str, reported: bool) -> None:
    assert bool(narrative.reported_markers(text, CTX)) is reported


@pytest.mark.parametrize(
    ("text", "markers", "slot"),
    [
        ("之前推掉的面试重新约在周四上午十点", ["之前"], True),
        ("Mom called earlier, dinner at hers on Sunday at 6", ["called"], True),
        ("The plumber finally showed up around noon on Sunday", ["showed"], False),  # no clock time
        ("周日早上七点，跑了十公里", ["跑了"], False),  # the time is before the marker
    ],
)
def test_slot_after_the_last_past_marker(text: str, markers: list[str], slot: bool) -> None:
    assert narrative.slot_after(text, markers, CTX) is slot


@pytest.mark.parametrize("rule", sorted(narrative.NARRATIVE_RULES))
def test_mutation_each_narrative_rule_off_a_remark_is_written(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = {name: fn for name, fn in narrative.NARRATIVE_RULES.items() if name != rule}
    monkeypatch.setattr(narrative, "NARRATIVE_RULES", rules)
    assert _written(group("fresh30_past")), f"turning off {rule} wrote nothing"


def test_mutation_reported_rule_off_a_reported_experience_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(narrative, "REPORTED_RULE", False)
    assert {"fresh30_past.reported-zh-005", "fresh30_past.reported-en-008"} <= _written(group("fresh30_past"))


def test_mutation_slot_rule_off_real_requests_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(narrative, "SLOT_RULE", False)
    requests = group("fresh30_real")
    assert len(requests) - len(_created(requests)) >= 10
