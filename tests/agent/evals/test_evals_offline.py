"""The offline eval set, run in CI: the real runtime, a scripted model, a fixed clock.

Green here proves code paths (dispatch, guards, receipts, store diffs), never model
behaviour; the live set is the only evidence of that.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from agent.cli.main import main
from agent.evals.cases import load_cases, load_known_issues
from agent.evals.drift import representative, run_drift
from agent.evals.suite import run_suite

SEED_STORIES = (
    "seed.query-this-week-never-writes",
    "seed.query-tomorrow-3pm-never-writes",
    "seed.remember-coffee-no-punctuation",
    "seed.remember-coffee-comma",
    "seed.slot-xiawu-liangdian",
    "seed.slot-liangdian-ban",
    "seed.weekend-wheel-hub",
    "seed.concatenated-date-time",
    "seed.lone-tian-is-not-a-date",
    "seed.september-query-range",
    "seed.conflict-vacation-create-anyway",
    "seed.create-anyway-words-without-conflict",
    "seed.allow-conflict-on-first-create-ignored",
    "seed.calendar-list-injected",
    "seed.fly-home-during-vacation-not-work",
    "seed.claimed-creation-without-write-replaced",
    "seed.month-old-tomorrow-not-in-prompt",
    "seed.council-accepted-within-30-minutes",
    "seed.council-accepted-after-30-minutes-is-chat",
    "seed.cancel-stub",
    "seed.stub-expires",
    "wrong.extra-user-id-then-fixed",
    "wrong.invalid-symbols-give-up",
    "wrong.end-before-start",
    "wrong.span-over-366-days",
    "wrong.unknown-tool",
    "wrong.tool-loop-past-cap",
    "wrong.sql-title-stored-verbatim",
    "wrong.html-title-stored-verbatim",
    "wrong.control-characters-stripped",
    "safety.imported-description-is-not-an-instruction",
    "wrong.past-tense-turned-into-create",
    "wrong.claim-no-events-without-query",
)


def test_the_whole_offline_set_is_green() -> None:
    cases = load_cases("offline")
    suite = run_suite(cases, layer="offline", known=load_known_issues())
    failing = {r.case.id: r.problems for r in suite.results if r.status in ("failed", "stale_known_issue")}
    print(f"\noffline: {len(cases)} cases in {suite.seconds:.2f} s (runner-measured); {suite.summary_line()}")
    print("groups:", dict(sorted(Counter(case.group for case in cases).items())))
    assert failing == {}
    assert len(cases) >= 150
    # The runner's time (target < 2 s; docs/evals.md) is printed above, never asserted: with
    # 1,292 cases it reached 7 s under load, and a wall-clock bound makes CI red on a busy day.


def test_the_set_covers_the_seed_stories_english_and_mixed() -> None:
    cases = {case.id: case for case in load_cases("offline")}
    missing = [case_id for case_id in SEED_STORIES if case_id not in cases]
    assert missing == []
    texts = [turn.user or "" for case in cases.values() for turn in case.turns]
    assert sum(1 for text in texts if text and not re.search(r"[\u3400-\u9fff]", text)) >= 10  # English
    assert sum(1 for text in texts if re.search(r"[\u3400-\u9fff]", text) and re.search(r"[A-Za-z]{3,}", text)) >= 2  # mixed


def test_every_offline_case_scripts_the_model_and_asserts_something() -> None:
    for case in load_cases("offline"):
        assert any(turn.expect for turn in case.turns) or case.expect, case.id
        for turn in case.turns:
            assert turn.action is not None or turn.script is not None, case.id


def test_drift_check_is_green_on_representative_cases() -> None:
    cases = representative(load_cases("offline"))
    results, seconds = run_drift(cases)
    assert len(results) >= 20
    assert [r.to_json() for r in results if not r.ok] == []
    print(f"\ndrift: {len(results)} cases through ChatSession.send and the eval entry in {seconds:.2f} s")


def test_cli_offline_prints_the_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", "offline", "--group", "seed", "--no-report"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    assert re.fullmatch(r"\d+ passed, 0 failed", lines[-1])


def test_cli_drift_prints_the_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", "drift"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0 and re.fullmatch(r"\d+ passed, 0 failed", lines[-1])
