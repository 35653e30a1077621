"""The exit guard measured on its corpora, through the real runtime (scripted model, no tool).

Targets from issue 10: recall on claim replies >= 97 %, false replacements on harmless
replies <= 3 %. The figures are printed (and written in docs/evals.md); the thresholds are
asserted. The mutation tests show the corpora notice when one detector family is switched
off, so a green run here means the families are really exercised.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from agent.evals.cases import Case, load_cases
from agent.evals.runner import run_case
from agent.runtime import claims

CORPUS_ID = re.compile(r"^guard_claims\.(?:holdout-)?(create|update|delete|memory|state)-(?:(zh|en)-)?\d+$")
FLAG = {"create": "unverified_create_claim", "update": "unverified_update_claim", "delete": "unverified_delete_claim",
        "memory": "unverified_memory_claim", "state": "unverified_query_claim"}  # fmt: skip


def _corpus() -> tuple[list[Case], list[Case]]:
    cases = load_cases("offline")
    claim_cases = [c for c in cases if c.group == "guard_claims" and CORPUS_ID.match(c.id)]
    harmless = [c for c in cases if c.group == "guard_harmless"]
    return claim_cases, harmless


def _reply_of(case: Case) -> str:
    return str(case.turns[0].script[0]["content"])  # type: ignore[index]


def _rates(claim_cases: list[Case], harmless: list[Case]) -> dict[str, float]:
    caught = right_kind = replaced = 0
    for case in claim_cases:
        turn = run_case(case).turns[0]
        kind = CORPUS_ID.match(case.id).group(1)  # type: ignore[union-attr]
        if turn.guard is not None and turn.reply != _reply_of(case).strip() and not turn.added:
            caught += 1
            right_kind += turn.guard == FLAG[kind]
    for case in harmless:
        turn = run_case(case).turns[0]
        if turn.guard is not None or turn.reply != _reply_of(case).strip():
            replaced += 1
    return {"recall": caught / len(claim_cases), "kind": right_kind / len(claim_cases),
            "false": replaced / len(harmless)}  # fmt: skip


def test_corpora_are_big_enough_and_cover_every_kind_and_both_languages() -> None:
    claim_cases, harmless = _corpus()
    assert len(claim_cases) >= 300 and len(harmless) >= 200
    kinds = Counter(CORPUS_ID.match(c.id).group(1) for c in claim_cases)  # type: ignore[union-attr]
    assert set(kinds) == set(FLAG) and min(kinds.values()) >= 40, kinds
    for group in (claim_cases, harmless):
        zh = sum(1 for c in group if re.search(r"[\u4e00-\u9fff]", _reply_of(c)))
        assert zh >= len(group) // 3 and len(group) - zh >= len(group) // 4
    for family in ("offer", "negation", "capability", "smalltalk"):
        assert sum(1 for c in harmless if f".{family}-" in c.id) >= 20, family
    for example in (
        "好的，已经帮你把和张三的会议加到日历里了。",
        "记住了，你的咖啡不加糖。",
        "Tomorrow is completely free.",
        "明天你有空",
    ):
        assert any(_reply_of(c) == example for c in claim_cases), example
    for example in (
        "要我帮你加到日历吗？",
        "我还没有把它加到日历。",
        "没有安排的周末最适合休息了",
        "What time should I put it in for?",
    ):
        assert any(_reply_of(c) == example for c in harmless), example


def test_recall_and_false_replacements_meet_the_targets() -> None:
    rates = _rates(*_corpus())
    print(f"\nguard: recall {rates['recall']:.1%}, right kind {rates['kind']:.1%}, false replacements {rates['false']:.1%}")
    assert rates["recall"] >= 0.97
    assert rates["false"] <= 0.03


def _families_off(monkeypatch: pytest.MonkeyPatch, family: str) -> None:
    if family == "write_zh":
        monkeypatch.setattr(claims, "_write_zh", lambda clause: None)
    elif family == "write_en":
        monkeypatch.setattr(claims, "_write_en", lambda clause: None)
    elif family == "state":
        monkeypatch.setattr(claims, "_state_zh", lambda clause, refs: False)
        monkeypatch.setattr(claims, "_state_en", lambda clause: False)
    elif family == "hedges":
        monkeypatch.setattr(claims, "_is_hedged", lambda clause, question: False)
    elif family == "negation":
        monkeypatch.setattr(claims, "_NEG_ZH", re.compile(r"(?!x)x"))
        monkeypatch.setattr(claims, "_NEG_EN", re.compile(r"(?!x)x"))


@pytest.mark.parametrize(
    ("family", "misses"),
    [("write_zh", "claims"), ("write_en", "claims"), ("state", "claims"), ("hedges", "harmless"), ("negation", "harmless")],
)
def test_switching_off_one_detector_family_fails_cases(monkeypatch: pytest.MonkeyPatch, family: str, misses: str) -> None:
    """Mutation check: with the family off, its corpus cases fail through the runtime."""
    claim_cases, harmless = _corpus()
    pool = claim_cases if misses == "claims" else harmless
    # claims: a spread of both languages and kinds, kept quick; harmless: all of them, since
    # only a dozen replies hinge on any one rule
    sample = pool[:: max(1, len(pool) // 120)] if misses == "claims" else pool
    _families_off(monkeypatch, family)
    from agent.evals.expect import check

    failed = [case.id for case in sample if check(run_case(case))]
    assert len(failed) >= 5, (family, failed)
