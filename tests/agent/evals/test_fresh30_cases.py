"""Issue 30's fresh batches (item 5) stay well formed and in step with their data modules.

The cases live in ``evals/fresh30/cases/offline/`` and are *not* part of the offline suite
yet (most fail on the rules before issue 30's items 1-4; see
``evals/reports/issue30-first-sight.md``). This test runs none of them: it checks that the
JSONL is what ``make_fresh30_cases.py`` writes from the data today, that every case parses
under the harness's strict keys, that the sizes the issue asks for hold, that no id clashes
with the suite they are meant to join, and that the measurer's range check means what the
report says.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from agent.evals.cases import load_cases
from evals.corpora import fresh30_edits as E
from evals.corpora import fresh30_past as P
from evals.corpora import fresh30_replies as R
from evals.corpora import make_fresh30_cases as M
from evals.corpora.measure_fresh30 import BASE, covers_named_range


def _file(name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in M.path_of(name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_jsonl_is_what_the_generator_writes_from_the_data() -> None:
    claims, harmless = M.reply_cases()
    past, real = M.past_cases()
    expected = {
        "fresh30_claims.jsonl": claims,
        "fresh30_harmless.jsonl": harmless,
        "fresh30_past.jsonl": past,
        "fresh30_real.jsonl": real,
        "fresh30_edit.jsonl": M.edit_cases(),
    }
    for name, cases in expected.items():
        assert _file(name) == json.loads(json.dumps(cases)), f"{name} is stale: run evals/corpora/make_fresh30_cases.py"


def test_every_case_parses_and_no_id_clashes_with_the_offline_suite() -> None:
    # every batch passes its rules now, so all of them are in the suite (none left in BASE)
    suite = load_cases("offline")
    moved = [case for case in suite if case.group + ".jsonl" in M.IN_SUITE]
    assert not list((BASE / "cases" / "offline").glob("*.jsonl"))
    assert len(moved) == len(R.CLAIMS) + len(R.HARMLESS) + len(P.PAST) + len(P.REAL) + len(E.WRONG) + len(E.RIGHT)
    assert len({case.id for case in suite}) == len(suite)


def test_sizes_and_mix_the_issue_asks_for() -> None:
    assert len(R.CLAIMS) + len(R.HARMLESS) >= 150
    assert 0.4 <= len(R.CLAIMS) / (len(R.CLAIMS) + len(R.HARMLESS)) <= 0.6
    assert len(P.PAST) + len(P.REAL) >= 100
    assert 0.4 <= len(P.PAST) / (len(P.PAST) + len(P.REAL)) <= 0.6
    assert len(E.WRONG) + len(E.RIGHT) >= 80
    wrong = Counter(kind for kind, _, _ in E.WRONG)
    assert wrong["conditional"] >= 15 and wrong["shared"] >= 10
    assert {kind for kind, *_ in P.PAST} == {"plan_done", "diary", "reported", "early"}


def test_every_state_claim_names_the_range_and_every_next_claim_its_search() -> None:
    for kind, user, _reply, facts in R.CLAIMS:
        if kind == "state":
            start, _, end = facts.partition("/")
            assert start < end, user
        elif kind == "next":
            assert facts.startswith("search:"), user
        else:
            assert facts == "", user


@pytest.mark.parametrize(
    ("payload", "named", "verdict"),
    [
        # the whole day answers an afternoon the user named
        (
            {"start": "2026-12-02T00:00:00+08:00", "end": "2026-12-03T00:00:00+08:00"},
            "2026-12-02T12:00/2026-12-02T18:00",
            "match",
        ),
        # 下周一到周三 answered from today to next Monday: wrong days
        (
            {"start": "2026-12-01T00:00:00+08:00", "end": "2026-12-08T00:00:00+08:00"},
            "2026-12-07T00:00/2026-12-10T00:00",
            "other",
        ),
        # this week answered as two weeks: wider than the days named
        (
            {"start": "2026-11-23T00:00:00+08:00", "end": "2026-12-07T00:00:00+08:00"},
            "2026-11-30T00:00/2026-12-07T00:00",
            "other",
        ),
        (
            {"start": "2026-12-03T00:00:00+08:00", "end": "2026-12-04T00:00:00+08:00"},
            "2026-12-02T00:00/2026-12-03T00:00",
            "other",
        ),
        (None, "2026-12-02T00:00/2026-12-03T00:00", "other"),
    ],
)
def test_range_check_of_the_measurer(payload: object, named: str, verdict: str) -> None:
    assert covers_named_range(payload, named) == verdict
