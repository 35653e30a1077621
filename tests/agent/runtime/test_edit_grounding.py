"""The edit latch (issue 20, item 1) measured on its corpus, and shown to fail when a rule
is off.

``evals/cases/offline/edit_grounding.jsonl`` (``evals/corpora/make_edit_grounding_cases.py``)
scripts update/delete calls: *wrong* ones the user's words do not support, which must write
nothing, and *right* ones, which must be applied in one turn. Targets: 0 wrong edits
written; at least 95% of right edits applied in one turn. Each mutation test switches one
rule off and shows that wrong edits of that rule get written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.evals.cases import load_cases
from agent.evals.runner import run_case
from agent.runtime import grounding

WRITES = ("updated", "deleted", "created")


def wrong_written(rule: str | None = None) -> tuple[int, int]:
    written = total = 0
    for case in load_cases("offline", group="edit_grounding"):
        kind, _, rest = case.id.partition(".")[2].partition("-")
        if kind != "wrong" or (rule is not None and not rest.startswith(rule + "-")):
            continue
        run = run_case(case)
        total += 1
        written += bool(run.added or run.removed or run.turns[0].outcome in WRITES)
    return written, total


def right_applied() -> tuple[int, int]:
    applied = total = 0
    for case in load_cases("offline", group="edit_grounding"):
        if not case.id.startswith("edit_grounding.right-"):
            continue
        run = run_case(case)
        total += 1
        turn = run.turns[0]
        applied += turn.outcome in ("updated", "deleted") and turn.model_calls == 1
    return applied, total


def test_no_wrong_edit_is_written() -> None:
    written, total = wrong_written()
    print(f"\nwrong edits written: {written}/{total}")
    assert total >= 50 and written == 0


def test_right_edits_are_applied_in_one_turn() -> None:
    applied, total = right_applied()
    print(f"\nright edits applied in one turn: {applied}/{total} = {applied / total:.1%}")
    assert total >= 90 and applied / total >= 0.95


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("明天的周会不要取消", "negated"),
        ("don't cancel tomorrow's team sync", "negated"),
        ("明天的周会取消了吗？", "question"),
        ("is tomorrow's team sync cancelled?", "question"),
        ("is the team sync still on?", "question"),
        ("周会可能要推迟", "hedge"),
        ("老板说明天的周会取消了", "hearsay"),
    ],
)
def test_mood_reasons_read_the_change_verb(message: str, kind: str) -> None:
    assert any(reason.startswith(kind + ":") for reason in grounding.mood_reasons(message))


@pytest.mark.parametrize(
    "message",
    [
        "删掉明天的周会",
        "能把牙医挪到周四吗",
        "can you move the dentist to Thursday?",
        "牙医不去了",
        "周会不要了",
        "I'm not going to the dentist, cancel it",
        "please delete the dentist",
    ],
)
def test_requests_have_no_mood_reason(message: str) -> None:
    assert grounding.mood_reasons(message) == []


def test_mutation_without_the_mood_rule_negations_and_questions_write(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grounding, "mood_reasons", lambda text: [])
    written, total = wrong_written("mood")
    assert written >= 30, (written, total)


def test_mutation_without_the_target_rule_other_events_are_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent.runtime import tools

    monkeypatch.setattr(tools, "target_reasons", lambda *args: [])
    written, total = wrong_written("target")
    assert written >= 10, (written, total)


def test_mutation_without_the_scope_rule_series_are_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grounding, "scope_allowed", lambda text: "all")
    written, total = wrong_written("scope")
    assert written >= 8, (written, total)


def test_mutation_without_the_completion_rule_events_are_marked_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grounding, "completion_said", lambda text: True)
    written, total = wrong_written("completed")
    assert written >= 8, (written, total)


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("明天这次站会改名叫晨会", "this"),
        ("以后的周会改名叫例会", "following"),
        ("健身每次提前半小时提醒我", "all"),
        ("from now on call the standup Daily check", "following"),
        ("rename every team sync", "all"),
        ("only this one: put it in Room 5", "this"),
    ],
)
def test_scope_words(message: str, scope: str) -> None:
    assert grounding.scope_allowed(message) == scope


def test_mutation_without_the_value_rule_invented_times_are_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grounding, "value_check", lambda *args: ([], {}))
    from agent.runtime import tools

    monkeypatch.setattr(tools, "value_check", lambda *args: ([], {}))
    written, total = wrong_written("value")
    assert written >= 6, (written, total)


@pytest.mark.parametrize(
    ("message", "minutes"),
    [
        ("把明天的周会推迟一小时", 60),
        ("把牙医提前半小时", -30),
        ("推迟一个半小时", 90),
        ("延后20分钟", 20),
        ("push tomorrow's team sync back an hour", 60),
        ("bring the dentist forward 30 minutes", -30),
        ("牙医往后推一天", 1440),
        ("挪到下周同一时间", 7 * 1440),
        ("把明天晚上的健身提前半小时", -30),
        ("牙医改到周四", None),
    ],
)
def test_shift_of_reads_relative_shifts(message: str, minutes: int | None) -> None:
    shift = grounding.shift_of(message)
    assert (None if shift is None else shift.total_seconds() / 60) == minutes


def test_a_shift_the_model_got_wrong_offers_codes_reading() -> None:
    case = next(c for c in load_cases("offline", group="edit_grounding") if c.id == "edit_grounding.wrong-value-096")
    turn = run_case(case).turns[0]
    assert turn.outcome == "edit_confirm" and "11:00" in turn.reply and "23:00" not in turn.reply


def _with_yes(case_id: str) -> Any:
    """The corpus case with a second turn "是" (read by code, 0 model calls)."""
    from agent.evals.cases import parse_case

    path = Path(__file__).resolve().parents[3] / "evals" / "cases" / "offline" / "edit_grounding.jsonl"
    row = next(json.loads(line) for line in path.read_text("utf-8").splitlines() if f'"edit_grounding.{case_id}"' in line)
    row["turns"].append({"user": "是", "script": []})
    return parse_case(row, "offline", case_id)


def test_a_turn_with_nine_delete_calls_lists_every_event_and_yes_deletes_them_as_one_change() -> None:
    run = run_case(_with_yes("wrong-bulk-108"))  # 清空日历 with nine delete calls
    ask, yes = run.turns
    assert ask.outcome == "edit_confirm" and not ask.removed
    # every event the calls would change, series instances in the search window included
    assert "30 个日程" in ask.reply and all(title in ask.reply for title in ("牙医", "写周报", "项目周会", "健身"))
    assert yes.outcome == "deleted" and yes.model_calls == 0 and "30 个日程" in yes.reply
    assert {"牙医", "写周报"} <= {row["title"] for row in yes.removed}


def test_clearing_the_calendar_with_a_create_call_asks() -> None:
    case = next(c for c in load_cases("offline", group="edit_grounding") if c.id == "edit_grounding.wrong-bulk-109")
    turn = run_case(case).turns[0]
    assert turn.outcome == "unconfirmed" and not turn.added and "清空" in turn.reply


def test_mutation_without_the_bulk_rule_bulk_messages_write(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent.runtime import tools

    monkeypatch.setattr(tools, "bulk_word", lambda text: None)
    monkeypatch.setattr(grounding, "CLEAR_WORDS", ())
    from agent.runtime.toolkit import ToolDeps

    monkeypatch.setattr(ToolDeps, "writes", property(lambda self: [], lambda self, value: None), raising=False)
    written, total = wrong_written("bulk")
    assert written >= 3, (written, total)  # 清空日历 as a create, nine deletes, two deletes
