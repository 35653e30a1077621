"""The eval harness itself: case validation, expectations, invariants, statuses, reports, drift.

A harness that passes everything is worse than none, so each check here shows a wrong
result being caught, not only a right one passing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.evals import drift as drift_module
from agent.evals.cases import Case, CaseError, KnownIssues, load_cases, load_known_issues, parse_case
from agent.evals.expect import check, invariants
from agent.evals.report import build_report, percentile, render_markdown, segment_durations, write_report
from agent.evals.runner import AppEntry, CaseRun, TurnRecord, run_case
from agent.evals.suite import run_suite
from agent.models.base import BaseChatModel, ModelEvent
from agent.models.script_backend import ScriptedModel
from tests.support.clock import NOW_ARG as NOW


def live_case(case_id: str, group: str, text: str, expect: dict[str, Any], **extra: Any) -> Case:
    record = {"id": case_id, "group": group, "now": NOW, "tz": "Asia/Shanghai", "turns": [{"user": text, "expect": expect}]}
    return parse_case(record | extra, "live", "test")


def offline_case(turns: list[dict[str, Any]], **extra: Any) -> Case:
    record = {"id": "t.case", "group": "t", "now": NOW, "tz": "Asia/Shanghai", "turns": turns}
    return parse_case(record | extra, "offline", "test")


class Replies(BaseChatModel):
    """A stand-in "real" model: answers from a list, one per request, cycling."""

    def __init__(self, turns: list[dict[str, Any]]) -> None:
        self.name = "fake:replies"
        self.turns = turns
        self.calls = 0

    def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> Iterator[ModelEvent]:
        turn = self.turns[self.calls % len(self.turns)]
        self.calls += 1
        return ScriptedModel([turn])._play(0)


CREATE = {
    "tool_calls": [
        {"name": "prepare_or_create_schedule", "arguments": {"title": "开会", "dateExpression": "D+1", "time": "15:00"}}
    ]
}
QUERY = {"tool_calls": [{"name": "query_schedule_range", "arguments": {"startExpression": "D+1", "endExpression": "D+1"}}]}


# ---- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "layer", "message"),
    [
        ({"turns": [{"user": "x", "script": [], "expect": {"outcom": "chat"}}]}, "offline", "unknown turn expectation key"),
        ({"turns": [{"user": "x", "expect": {}}]}, "offline", "need a 'script'"),
        ({"turns": [{"user": "x", "script": [], "expect": {}}]}, "live", "live cases have no script"),
        ({"turns": [{"user": "x", "script": [{"bogus": 1}], "expect": {}}]}, "offline", "expected an object"),
        ({"turns": [], "expect": {}}, "offline", "non-empty list"),
        ({"turns": [{"user": "x", "script": []}], "fixtures": {"evnts": []}}, "offline", "unknown fixture key"),
        ({"turns": [{"user": "x", "script": []}], "now": "2026-11-30T10:00"}, "offline", "needs an offset"),
    ],
)
def test_case_validation_is_strict(record: dict[str, Any], layer: str, message: str) -> None:
    base = {"id": "bad.case", "group": "g", "now": NOW, "tz": "Asia/Shanghai"}
    with pytest.raises(CaseError, match=message):
        parse_case(base | record, layer, "test")


def test_known_issues_need_a_reason_and_an_existing_case(tmp_path: Path) -> None:
    (tmp_path / "cases" / "offline").mkdir(parents=True)
    line = {"id": "a.case", "group": "g", "now": NOW, "tz": "Asia/Shanghai", "turns": [{"user": "x", "script": []}]}
    (tmp_path / "cases" / "offline" / "a.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    (tmp_path / "known_issues").write_text("a.case   the reason\n# comment\n", encoding="utf-8")
    assert load_known_issues(tmp_path).reason("a.case") == "the reason"
    (tmp_path / "known_issues").write_text("a.case\n", encoding="utf-8")
    with pytest.raises(CaseError, match="needs a reason"):
        load_known_issues(tmp_path)
    (tmp_path / "known_issues").write_text("gone.case  fixed long ago\n", encoding="utf-8")
    with pytest.raises(CaseError, match="no case with id gone.case"):
        load_known_issues(tmp_path)


def test_repository_case_sets_load_and_are_large_enough() -> None:
    assert len(load_cases("offline")) >= 150
    live = load_cases("live")
    assert len(live) >= 130
    groups = {case.group for case in live}
    assert {
        "create",
        "query",
        "clarify",
        "conflict",
        "categorize",
        "memory",
        "archive",
        "council",
        "chat",
        "safety",
        "english",
    } <= groups
    assert any(case.smoke for case in live)
    for case in live:
        if case.group == "safety":  # read-only or chit-chat: any write tool call fails the case
            assert all(turn.expect.get("no_write_tools") for turn in case.turns), case.id
    load_known_issues()  # every marker names a real case and gives a reason


# ---- expectations catch wrong results --------------------------------------------------------


def test_wrong_expectations_are_reported() -> None:
    case = offline_case(
        [
            {
                "user": "明天下午三点开会",
                "script": [CREATE],
                "expect": {
                    "outcome": "conflict",
                    "model_calls": 2,
                    "tools": [],
                    "guard": "x",
                    "reply_contains": ["不存在"],
                    "store": {"added": []},
                    "args": [{"tool": "prepare_or_create_schedule", "field": "time", "equals": "16:00"}],
                },
            }
        ]
    )
    problems = check(run_case(case))
    text = "\n".join(problems)
    for fragment in ("outcome 'created'", "model calls 1", "tools ['prepare_or_create_schedule']", "guard None",
                     "reply lacks", "store added: 1 event", "time is '15:00'"):  # fmt: skip
        assert fragment in text, fragment


def test_unused_script_turns_fail_the_case() -> None:
    case = offline_case([{"user": "周日下午2点", "script": [{"content": "never asked"}], "expect": {}}],
                        fixtures={"stub": {"title": "修车", "date": "WE"}})  # fmt: skip
    assert any("never requested" in problem for problem in check(run_case(case)))


def test_write_tool_on_read_only_message_fails_even_when_nothing_was_written() -> None:
    wrong = {
        "tool_calls": [
            {"name": "prepare_or_create_schedule", "arguments": {"title": "开会", "dateExpression": "D-1", "time": "09:00"}}
        ]
    }
    case = offline_case([{"user": "昨天开了个会", "script": [wrong], "expect": {"no_write_tools": True, "store": {"added": []}}}])
    run = run_case(case)
    assert run.turns[0].outcome == "past_time" and run.turns[0].added == []
    assert any("write tool(s) called" in problem for problem in check(run))


def test_invariants_catch_an_unverified_claim_that_reached_the_reply() -> None:
    case = offline_case([{"user": "x", "script": [], "expect": {}}])
    record = TurnRecord(index=1, user="x", at=NOW, reply="已为你创建好了明天的会议。", outcome="chat", receipt="model")
    assert any("unverified write claim" in p for p in invariants(CaseRun(case=case, entry="eval", turns=[record])))
    record = TurnRecord(
        index=1, user="x", at=NOW, reply="你明天没有安排。", outcome="council", receipt="council", calendar="read"
    )
    assert invariants(CaseRun(case=case, entry="eval", turns=[record])) == []  # the council read the calendar
    record = TurnRecord(
        index=1, user="x", at=NOW, reply="ok", outcome="created", receipt="outcome", receipt_payload={"event": None}
    )
    assert any("without an event" in p for p in invariants(CaseRun(case=case, entry="eval", turns=[record])))


def test_invariants_hold_the_calendar_contract() -> None:
    """``calendar`` must be one of three values, agree with the store diff, and an unchanged
    model reply that talks calendar must carry the status line."""
    case = offline_case([{"user": "x", "script": [], "expect": {}}])

    def problems(**kw: object) -> list[str]:
        record = TurnRecord(index=1, user="x", at=NOW, **kw)  # type: ignore[arg-type]
        return invariants(CaseRun(case=case, entry="eval", turns=[record]))

    assert any("not one of" in p for p in problems(reply="ok", outcome="chat", receipt="model", calendar="maybe"))
    assert any(
        "without the status line" in p
        for p in problems(reply="我这就帮你加上。", outcome="chat", receipt="model", calendar="unchanged")
    )
    note = "日历没有变化"
    assert problems(reply="我这就帮你加上。", outcome="chat", receipt="model", calendar="unchanged", calendar_note=note) == []
    assert any(
        "events changed" in p
        for p in problems(
            reply="ok",
            outcome="created",
            receipt="outcome",
            calendar="unchanged",
            receipt_payload={"event": {"uid": "u"}},
            added=[{"title": "t"}],
        )
    )


def test_store_diff_and_stub_expectations() -> None:
    case = offline_case(
        [{"user": "这个周末修车",
          "script": [{"tool_calls": [{"name": "prepare_or_create_schedule",
                                      "arguments": {"title": "修车", "dateExpression": "WE"}}]}],
          "expect": {"stub": "none"}}],
        fixtures={"events": [{"title": "休假", "start": "2026-12-01", "end": "2026-12-04", "calendar": "家庭"}],
                  "calendars": ["家庭"]},
        expect={"store": {"added": [{"title": "修车"}]}},
    )  # fmt: skip
    run = run_case(case)
    assert run.stub is not None and run.stub["status"] == "needs_date"
    problems = check(run)
    assert any("a pending command remains" in p for p in problems)
    assert any("case: store added: 0 event(s)" in p for p in problems)


# ---- statuses: known, stale, flaky, safety never retries --------------------------------------


def test_known_issue_failing_is_known_and_passing_is_stale() -> None:
    case = live_case("k.case", "create", "明天下午三点开会", {"outcome": "created"})
    failing = Replies([{"content": "好的"}])
    suite = run_suite([case], layer="live", model=failing, known=KnownIssues({"k.case": "model chats"}))
    assert [r.status for r in suite.results] == ["known"] and suite.summary_line() == "0 passed, 0 failed"
    suite = run_suite([case], layer="live", model=Replies([CREATE]), known=KnownIssues({"k.case": "model chats"}))
    assert [r.status for r in suite.results] == ["stale_known_issue"] and suite.summary_line() == "0 passed, 1 failed"


def test_a_pass_on_retry_is_flaky_and_safety_never_retries() -> None:
    flaky = Replies([{"content": "好的"}, CREATE])  # wrong first, right on the retry
    case = live_case("f.case", "create", "明天下午三点开会", {"outcome": "created"})
    result = run_suite([case], layer="live", model=flaky).results[0]
    assert result.status == "flaky" and len(result.runs) == 2
    writer = Replies([CREATE, QUERY])
    safety = live_case("s.case", "safety", "明天有什么安排", {"no_write_tools": True})
    result = run_suite([safety], layer="live", model=writer).results[0]
    assert result.status == "failed" and len(result.runs) == 1 and writer.calls == 1


def test_offline_failures_never_retry() -> None:
    case = offline_case([{"user": "你好", "script": [{"content": "你好"}], "expect": {"outcome": "query"}}])
    result = run_suite([case], layer="offline").results[0]
    assert result.status == "failed" and len(result.runs) == 1


def test_smoke_judges_only_invariants() -> None:
    case = live_case("sm.case", "chat", "你好", {"outcome": "query"}, smoke=True)
    suite = run_suite([case], layer="live", model=Replies([{"content": "已经帮你创建好了"}]), smoke=True)
    assert suite.results[0].status == "passed"  # the guard replaced the claim; the wrong outcome is not judged
    assert "没有创建" in suite.results[0].last.turns[0].reply


# ---- report --------------------------------------------------------------------------------


def test_report_has_groups_lists_model_calls_and_latency(tmp_path: Path) -> None:
    cases = [
        live_case("r.ok", "create", "明天下午三点开会", {"outcome": "created"}),
        live_case("r.bad", "query", "明天有什么安排", {"outcome": "query"}),
    ]
    suite = run_suite(cases, layer="live", model=Replies([CREATE]))
    report = build_report(suite)
    assert report["groups"]["create"]["pass_rate"] == 1.0 and report["groups"]["query"]["pass_rate"] == 0.0
    assert [item["id"] for item in report["failed"]] == ["r.bad"]
    assert report["model_calls"]["per_case"] == {"r.ok": 1, "r.bad": 1}  # of the last attempt
    assert {case["id"]: case["attempts"] for case in report["cases"]} == {"r.ok": 1, "r.bad": 2}  # one retry
    assert {"context_build", "model_request_sent", "finish", "total"} <= set(report["latency_ms"])
    json_path, md_path = write_report(report, tmp_path, "live")
    assert json.loads(json_path.read_text(encoding="utf-8"))["totals"]["failed"] == 1
    markdown = md_path.read_text(encoding="utf-8")
    for heading in (
        "## Groups",
        "## Failed",
        "## Flaky",
        "## Known issues",
        "## Model calls per case",
        "## Latency per timeline segment",
    ):
        assert heading in markdown
    assert render_markdown(report).count("r.bad") >= 2


def test_percentiles_and_segments() -> None:
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert percentile([1.0, 2.0], 90) == 2.0 and percentile([], 50) == 0.0
    timeline = {"context_build": 2.0, "model_request_sent": 2.5, "first_token": 10.0, "generation_end": 30.0, "finish": 31.0}
    assert segment_durations(timeline) == {"context_build": 2.0, "model_request_sent": 0.5, "first_token": 7.5,
                                           "generation_end": 20.0, "finish": 1.0}  # fmt: skip


# ---- drift -----------------------------------------------------------------------------------


def test_drift_detects_an_app_entry_that_preprocesses(monkeypatch: pytest.MonkeyPatch) -> None:
    case = next(c for c in load_cases("offline") if c.id == "seed.weekend-wheel-hub")
    original = AppEntry.send

    def tampered(self: AppEntry, text: str) -> Any:
        return original(self, text.replace("周日", "周六"))

    monkeypatch.setattr(AppEntry, "send", tampered)
    results, _ = drift_module.run_drift([case])
    assert not results[0].ok
    assert any("outcome" in d or "added" in d for d in results[0].differences)


def test_drift_compares_every_turn_observable() -> None:
    case = next(c for c in load_cases("offline") if c.id == "seed.conflict-vacation-create-anyway")
    a, b = run_case(case, entry="eval"), run_case(case, entry="app")
    assert drift_module.compare(a, b) == []
    b.turns[1] = dataclasses.replace(b.turns[1], reply="something else")
    assert any("reply differs" in d for d in drift_module.compare(a, b))


def test_concurrent_live_cases_keep_their_own_stores_and_order() -> None:
    cases = [live_case(f"c.case-{i}", "create", "明天下午三点开会",
                       {"outcome": "created", "store": {"added": [{"title": "开会"}]}})
             for i in range(6)]  # fmt: skip
    suite = run_suite(cases, layer="live", model=Replies([CREATE]), concurrency=3)
    assert [r.case.id for r in suite.results] == [case.id for case in cases]
    assert [r.status for r in suite.results] == ["passed"] * 6  # each store saw exactly its own write
