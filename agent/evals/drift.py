"""The drift check: the eval entry and the app's entry must do the same thing.

The evals are only evidence about the app if they run the app's code. Both entries end in
``Assistant.stream_turn``, so this should be trivially green; it exists so that the day
someone adds a pre-processing step to ``ChatSession.send`` (or a shortcut to the eval
runner) the divergence is a red check, not a silent gap. Each representative case runs
once through each entry, with the same scripted model turns, and every observable of every
turn is compared: dispatch, tools and their arguments, outcome, reply, guard, store diff.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from agent.evals.cases import Case
from agent.evals.expect import check
from agent.evals.runner import CaseRun, TurnRecord, run_case
from agent.runtime.tools import COUNCIL

COMPARED = ("reply", "outcome", "receipt", "tools", "intent", "model_calls", "guard", "command_id", "candidates",
            "stream", "added", "removed", "memories_added", "stub", "script_left", "calendar", "calendar_note")  # fmt: skip


@dataclass
class DriftResult:
    case_id: str
    differences: list[str] = field(default_factory=list)
    eval_problems: list[str] = field(default_factory=list)
    app_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Drift is a difference between the entries; whether the case passes is the
        offline suite's verdict (a known issue fails identically through both)."""
        return not self.differences

    def to_json(self) -> dict[str, Any]:
        return {"id": self.case_id, "ok": self.ok, "differences": self.differences,
                "eval_problems": self.eval_problems, "app_problems": self.app_problems}  # fmt: skip


def representative(cases: list[Case], per_group: int = 2) -> list[Case]:
    """Cases marked ``"drift": true``, plus the first ``per_group`` of every group."""
    chosen: dict[str, Case] = {case.id: case for case in cases if case.drift}
    counts: dict[str, int] = {}
    for case in cases:
        if counts.get(case.group, 0) < per_group:
            chosen.setdefault(case.id, case)
            counts[case.group] = counts.get(case.group, 0) + 1
    return [case for case in cases if case.id in chosen]


def dispatch_of(turn: TurnRecord) -> str:
    """How the turn was routed before any model spoke."""
    if turn.intent == "council" and COUNCIL.name not in turn.tools:
        return "council"
    if turn.intent == "clarification_reply" and turn.model_calls == 0:
        return "slot_reply"
    return "model"


def _tool_calls(turn: TurnRecord) -> list[tuple[str, str, bool]]:
    return [(str(log.get("name")), str(log.get("arguments")), bool(log.get("ok"))) for log in turn.tool_log]


def compare(eval_run: CaseRun, app_run: CaseRun) -> list[str]:
    differences: list[str] = []
    if (eval_run.error is None) != (app_run.error is None):
        return [f"one entry failed to build the case: eval={eval_run.error!r} app={app_run.error!r}"]
    if len(eval_run.turns) != len(app_run.turns):
        return [f"turn count {len(eval_run.turns)} vs {len(app_run.turns)}"]
    for ours, theirs in zip(eval_run.turns, app_run.turns, strict=True):
        where = f"turn {ours.index}"
        if dispatch_of(ours) != dispatch_of(theirs):
            differences.append(f"{where}: dispatch {dispatch_of(ours)} (eval) vs {dispatch_of(theirs)} (app)")
        for name in COMPARED:
            a, b = getattr(ours, name), getattr(theirs, name)
            if a != b:
                differences.append(f"{where}: {name} differs: eval={a!r} app={b!r}")
        if _tool_calls(ours) != _tool_calls(theirs):
            differences.append(f"{where}: tool calls differ: eval={_tool_calls(ours)} app={_tool_calls(theirs)}")
        if (ours.error is None) != (theirs.error is None):
            differences.append(f"{where}: error eval={ours.error!r} app={theirs.error!r}")
    for name in ("added", "removed", "memories_added", "stub"):
        if getattr(eval_run, name) != getattr(app_run, name):
            differences.append(f"case {name} differs")
    return differences


def run_drift(cases: list[Case]) -> tuple[list[DriftResult], float]:
    started = time.perf_counter()
    results = []
    for case in cases:
        eval_run = run_case(case, entry="eval")
        app_run = run_case(case, entry="app")
        result = DriftResult(case.id, compare(eval_run, app_run))
        result.eval_problems = check(eval_run)
        result.app_problems = check(app_run)
        if result.eval_problems != result.app_problems:
            result.differences.append("the two entries are judged differently against the case's expectations")
        results.append(result)
    return results, time.perf_counter() - started
