"""Running a set of cases and deciding each one's status.

Statuses: ``passed``; ``flaky`` (failed, then passed on its one retry — live only, never
for safety cases); ``failed``; ``known`` (failed and listed in ``evals/known_issues``);
``stale_known_issue`` (listed there but passed: the run fails until the marker goes, so a
fixed problem cannot keep its excuse). Offline cases never retry: a scripted run that
fails once fails every time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from agent.evals.cases import NEVER_RETRY_GROUPS, Case, KnownIssues
from agent.evals.expect import check, invariants
from agent.evals.runner import CaseRun, run_case
from agent.models.base import ChatModel

PASSING = ("passed", "flaky")
FAILING = ("failed", "stale_known_issue")


@dataclass
class CaseResult:
    case: Case
    status: str
    problems: list[str]
    runs: list[CaseRun]
    known_reason: str | None = None

    @property
    def last(self) -> CaseRun:
        return self.runs[-1]


@dataclass
class SuiteResult:
    layer: str
    model: str
    results: list[CaseResult] = field(default_factory=list)
    seconds: float = 0.0
    smoke: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> int:
        return sum(result.status in PASSING for result in self.results)

    @property
    def failed(self) -> int:
        return sum(result.status in FAILING for result in self.results)

    def by_status(self, status: str) -> list[CaseResult]:
        return [result for result in self.results if result.status == status]

    def summary_line(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"


def judge(run: CaseRun, *, smoke: bool) -> list[str]:
    return invariants(run) if smoke else check(run)


def run_one(
    case: Case,
    *,
    model: ChatModel | None,
    known: KnownIssues,
    smoke: bool = False,
    retry: bool = False,
    max_tokens: int | None = None,
    entry: str = "eval",
) -> CaseResult:
    run = run_case(case, model=model, entry=entry, max_tokens=max_tokens)
    problems = judge(run, smoke=smoke)
    reason = None if smoke else known.reason(case.id)
    if reason is not None:
        if problems:
            return CaseResult(case, "known", problems, [run], reason)
        stale = [f"listed in known_issues ({reason}) but passed: remove its marker"]
        return CaseResult(case, "stale_known_issue", stale, [run], reason)
    if not problems:
        return CaseResult(case, "passed", [], [run])
    if retry and case.group not in NEVER_RETRY_GROUPS:
        again = run_case(case, model=model, entry=entry, max_tokens=max_tokens)
        second = judge(again, smoke=smoke)
        if not second:
            return CaseResult(case, "flaky", problems, [run, again])
        return CaseResult(case, "failed", second, [run, again])
    return CaseResult(case, "failed", problems, [run])


def run_suite(
    cases: list[Case],
    *,
    layer: str,
    model: ChatModel | None = None,
    known: KnownIssues | None = None,
    smoke: bool = False,
    concurrency: int = 1,
    max_tokens: int | None = None,
    progress: Callable[[CaseResult], None] | None = None,
) -> SuiteResult:
    """Offline: ``model`` is None (each turn replays its script), no retries.
    Live: one real model shared by all cases, one retry for non-safety failures."""
    known = known or KnownIssues()
    suite = SuiteResult(layer=layer, model=getattr(model, "name", "script") if model else "script", smoke=smoke)
    suite.options = {"concurrency": concurrency, "max_tokens": max_tokens}
    started = time.perf_counter()
    retry = layer == "live"

    def one(case: Case) -> CaseResult:
        result = run_one(case, model=model, known=known, smoke=smoke, retry=retry, max_tokens=max_tokens)
        if progress is not None:
            progress(result)
        return result

    if concurrency <= 1:
        suite.results = [one(case) for case in cases]
    else:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            suite.results = list(pool.map(one, cases))
    suite.seconds = time.perf_counter() - started
    return suite
