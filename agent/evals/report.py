"""The eval report, as JSON (for tools) and Markdown (for people), from one suite run.

Latency is reported per timeline segment: the time from the previous mark the turn reached
to this one (``context_build`` counts from the start of the turn), so a slow first token and
a slow tool show up separately instead of as one long total.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent.evals.suite import FAILING, SuiteResult
from agent.runtime.observe import SEGMENTS


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); exact for small samples, no interpolation."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return round(ordered[min(rank, len(ordered)) - 1], 3)


def segment_durations(timeline: dict[str, float]) -> dict[str, float]:
    durations: dict[str, float] = {}
    previous = 0.0
    for name in SEGMENTS:
        if name in timeline:
            durations[name] = round(max(0.0, timeline[name] - previous), 3)
            previous = timeline[name]
    return durations


def latency_table(timelines: Iterable[dict[str, float]]) -> dict[str, dict[str, float]]:
    samples: dict[str, list[float]] = defaultdict(list)
    totals: list[float] = []
    for timeline in timelines:
        for name, value in segment_durations(timeline).items():
            samples[name].append(value)
        if "finish" in timeline:
            totals.append(timeline["finish"])
    table = {
        name: {"n": len(samples[name]), "p50": percentile(samples[name], 50), "p90": percentile(samples[name], 90),
               "p99": percentile(samples[name], 99), "max": round(max(samples[name]), 3)}
        for name in SEGMENTS if samples.get(name)
    }  # fmt: skip
    if totals:
        table["total"] = {"n": len(totals), "p50": percentile(totals, 50), "p90": percentile(totals, 90),
                          "p99": percentile(totals, 99), "max": round(max(totals), 3)}  # fmt: skip
    return table


def build_report(suite: SuiteResult) -> dict[str, Any]:
    groups: dict[str, dict[str, Any]] = {}
    for result in suite.results:
        group = groups.setdefault(
            result.case.group, {"cases": 0, "passed": 0, "flaky": 0, "failed": 0, "known": 0, "stale_known_issue": 0}
        )
        group["cases"] += 1
        group[result.status] += 1
    for group in groups.values():
        judged = group["cases"] - group["known"]
        group["pass_rate"] = round((group["passed"] + group["flaky"]) / judged, 3) if judged else None
    model_calls = {result.case.id: sum(turn.model_calls for turn in result.last.turns) for result in suite.results}
    turns = [turn for result in suite.results for run in result.runs for turn in run.turns]
    calls = list(model_calls.values())
    return {
        "layer": suite.layer,
        "model": suite.model,
        "smoke": suite.smoke,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(suite.seconds, 3),
        "options": suite.options,
        "totals": {
            "cases": len(suite.results),
            "passed": suite.passed,
            "failed": suite.failed,
            "flaky": len(suite.by_status("flaky")),
            "known": len(suite.by_status("known")),
            "stale_known_issue": len(suite.by_status("stale_known_issue")),
        },  # fmt: skip
        "groups": dict(sorted(groups.items())),
        "known": [{"id": r.case.id, "reason": r.known_reason, "problems": r.problems} for r in suite.by_status("known")],
        "flaky": [{"id": r.case.id, "first_problems": r.problems} for r in suite.by_status("flaky")],
        "failed": [
            {
                "id": r.case.id,
                "group": r.case.group,
                "status": r.status,
                "problems": r.problems,
                "source": r.case.source,
                "turns": [t.to_json() for t in r.last.turns],
            }
            for r in suite.results
            if r.status in FAILING
        ],  # fmt: skip
        "model_calls": {
            "per_case": model_calls,
            "mean": round(sum(calls) / len(calls), 3) if calls else 0.0,
            "max": max(calls) if calls else 0,
        },
        "latency_ms": latency_table(turn.timeline for turn in turns if turn.timeline),
        "cases": [
            {
                "id": r.case.id,
                "group": r.case.group,
                "status": r.status,
                "attempts": len(r.runs),
                "seconds": round(sum(run.seconds for run in r.runs), 4),
                "model_calls": model_calls[r.case.id],
                "outcomes": [t.outcome for t in r.last.turns],
            }
            for r in suite.results
        ],  # fmt: skip
    }


def render_markdown(report: dict[str, Any]) -> str:
    totals = report["totals"]
    title = "smoke (harness invariants only)" if report["smoke"] else report["layer"]
    lines = [
        f"# Richeng eval report: {title}",
        "",
        f"Model: `{report['model']}` · {totals['cases']} cases · {report['seconds']} s · finished {report['finished_at']}",
        "",
        f"**{totals['passed']} passed, {totals['failed']} failed** (flaky {totals['flaky']}, known {totals['known']}, "
        f"stale known issues {totals['stale_known_issue']})",
        "",
        "## Groups",
        "",
        "| group | cases | passed | flaky | failed | known | pass rate |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, group in report["groups"].items():
        rate = "–" if group["pass_rate"] is None else f"{group['pass_rate']:.0%}"
        failed = group["failed"] + group["stale_known_issue"]
        counts = f"{group['cases']} | {group['passed']} | {group['flaky']} | {failed} | {group['known']}"
        lines.append(f"| {name} | {counts} | {rate} |")
    for heading, key in (("Failed", "failed"), ("Flaky (passed on retry)", "flaky"), ("Known issues", "known")):
        items = report[key]
        lines += ["", f"## {heading}", ""]
        if not items:
            lines.append("(none)")
        for item in items:
            detail = item.get("problems") or item.get("first_problems") or []
            extra = f" — {item['reason']}" if item.get("reason") else ""
            status = f" [{item['status']}]" if item.get("status") == "stale_known_issue" else ""
            lines.append(f"- `{item['id']}`{status}{extra}")
            lines += [f"  - {problem}" for problem in detail[:5]]
    calls = report["model_calls"]
    lines += ["", "## Model calls per case", "", f"mean {calls['mean']}, max {calls['max']}", ""]
    lines += ["| case | model calls |", "|---|---:|"]
    lines += [f"| {case_id} | {count} |" for case_id, count in calls["per_case"].items()]
    lines += ["", "## Latency per timeline segment (ms)", ""]
    lines += ["| segment | n | p50 | p90 | p99 | max |", "|---|---:|---:|---:|---:|---:|"]
    for name, row in report["latency_ms"].items():
        lines.append(f"| {name} | {row['n']} | {row['p50']} | {row['p90']} | {row['p99']} | {row['max']} |")
    return "\n".join(lines) + "\n"


def write_report(report: dict[str, Any], folder: Path, stem: str) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    json_path = folder / f"{stem}.json"
    md_path = folder / f"{stem}.md"
    json_path.write_text(json.dumps(report, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    return json_path, md_path
