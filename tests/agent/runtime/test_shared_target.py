"""A target several events share is chosen by the user, not by the model's day (issue 30,
item 2), on the fresh batch's shared-target rows, with the rule switched off as a
mutation check.

The rows live in ``evals/cases/offline/fresh30_edit.jsonl`` (written blind to the
rules): ``wrong-shared-*`` (two 网球课 / piano lessons / pickups on different days, no day
named, the model picks one) and ``wrong-series-*`` (a weekly series, no day, no scope) must
end with a choice list and nothing written; ``right-shared_day-*`` (the day or time that
separates them is said) must not be turned into a choice.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent.evals.cases import Case, Turn, load_cases
from agent.evals.runner import run_case
from agent.runtime import tools

WRITES = ("updated", "deleted", "created")


def _rows(prefix: str) -> list[Case]:
    rows = [case for case in load_cases("offline", group="fresh30_edit") if case.id.partition(".")[2].startswith(prefix)]
    assert rows, prefix
    return rows


def _shared_wrong() -> list[Case]:
    return _rows("wrong-shared-") + _rows("wrong-series-")


def test_a_shared_target_is_a_choice_whatever_day_the_model_sent() -> None:
    outcomes = {}
    for case in _shared_wrong():
        run = run_case(case)
        turn = run.turns[0]
        assert not (run.added or run.removed), case.id
        outcomes[case.id] = turn.outcome
    assert set(outcomes.values()) == {"edit_choice"}, outcomes
    assert len(outcomes) == 20


def test_a_day_or_time_that_separates_them_is_applied_at_once() -> None:
    choices = [case.id for case in _rows("right-shared_day-") if run_case(case).turns[0].outcome == "edit_choice"]
    assert choices == []


def test_the_users_pick_applies_to_the_event_picked() -> None:
    case = next(c for c in _rows("wrong-shared-zh-") if c.turns[0].user == "把网球课改到晚上八点")
    pick = Turn(user="第二个", action=None, at=None, script=[], script_may_remain=False, expect={})
    run = run_case(replace(case, turns=(*case.turns, pick)))
    assert run.turns[0].outcome == "edit_choice"
    assert run.turns[1].outcome == "updated" and run.turns[1].model_calls == 0
    assert [e["start"] for e in run.added] == ["2026-12-06T20:00"]  # Sunday's, not the model's Thursday


def test_mutation_without_the_shared_target_rule_the_models_pick_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools, "shared_reason", lambda *args: None)
    written = sum(bool(run.added or run.removed or run.turns[0].outcome in WRITES) for run in map(run_case, _shared_wrong()))
    assert written >= 15


STATED = (
    "fresh30_edit.right-shared_day-en-028",  # Friday's school pickup is at 5 now
    "fresh30_edit.right-shared_day-en-030",  # Saturday's piano lesson should be at 3pm
    "fresh30_edit.right-unique-en-016",  # lunch with Chen at 12:30 instead
    "fresh30_edit.right-unique-en-017",  # the lunch with Chen on Thursday is off
    "fresh30_edit.right-unique-zh-008",  # 这周四跟老陈的饭不吃了
)


def _stated() -> list[Case]:
    return [case for case in load_cases("offline", group="fresh30_edit") if case.id in STATED]


def test_a_change_stated_as_a_fact_is_applied_in_one_turn() -> None:
    outcomes = {case.id: run_case(case).turns[0].outcome for case in _stated()}
    assert len(outcomes) == 5 and set(outcomes.values()) <= {"updated", "deleted"}, outcomes


def test_mutation_without_the_stated_change_words_they_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent.runtime import grounding

    monkeypatch.setattr(
        grounding, "CHANGE_WORDS", tuple(w for w in grounding.CHANGE_WORDS if w not in ("instead", "should be", "now"))
    )
    monkeypatch.setattr(grounding, "DELETE_WORDS", tuple(w for w in grounding.DELETE_WORDS if w not in ("is off", "不吃")))
    outcomes = {case.id: run_case(case).turns[0].outcome for case in _stated()}
    assert set(outcomes.values()) == {"edit_confirm"}, outcomes


def test_a_bare_hour_after_to_is_a_time_the_words_allow(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from agent.timesym import clarify

    case = next(c for c in _rows("right-shared_day-en-") if c.turns[0].user == "move the 9am tennis to 8")
    assert run_case(case).turns[0].outcome == "updated"
    monkeypatch.setattr(clarify, "_TO_HOUR_EN", re.compile(r"(?!x)x"))
    assert run_case(case).turns[0].outcome == "edit_confirm"  # mutation: "to 8" is not read
