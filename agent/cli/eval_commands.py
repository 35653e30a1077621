"""``richeng eval offline|live|drift`` and ``richeng report``.

Exit status: 0 when nothing failed, 1 when a case failed (or a known issue went stale), 2
for a usage error. The last line a suite prints is always ``N passed, N failed``; with
``--json`` the report comes first, on one line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agent.cli.common import CliError, Parser, Session, emit

EXIT_FAILED = 1


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``eval`` (offline, live, drift) and ``report`` to the top-level subcommands."""
    eval_cmd = commands.add_parser("eval", help="run the eval suites (offline, live, drift)")
    eval_sub = eval_cmd.add_subparsers(dest="eval_command", metavar="SUITE", parser_class=Parser, required=True)

    p = sub(eval_sub, "offline", "scripted model, real runtime: proves code paths (CI, < 2 s)", eval_offline)
    _suite_options(p)

    p = sub(eval_sub, "live", "a real model through the same runtime: evidence of model behaviour", eval_live)
    _suite_options(p)
    p.add_argument("--model", required=True, metavar="SPEC", help="openai:MODEL@BASE_URL | llama:PATH.gguf | bundled")
    p.add_argument("--concurrency", type=int, default=1, metavar="N", help="cases run at once (hosted endpoints)")
    p.add_argument("--smoke", action="store_true", help="only the smoke cases, judged only on harness invariants")
    p.add_argument("--max-tokens", type=int, metavar="N", help="cap each model answer (smoke default: 48)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S", help="per-request timeout for openai: specs")
    p.add_argument("--n-ctx", type=int, default=8192, metavar="N", help="context size for llama:/bundled models")
    p.add_argument("--threads", type=int, metavar="N", help="CPU threads for llama:/bundled models")
    p.add_argument("--limit", type=int, metavar="N", help="run only the first N selected cases")

    p = sub(eval_sub, "drift", "run representative cases through ChatSession.send and the eval entry; compare", eval_drift)
    p.add_argument("--all", action="store_true", help="every offline case, not only the representative ones")
    p.add_argument("--cases", metavar="DIR", help="the evals folder (default: the repository's evals/)")

    p = sub(commands, "report", "what the observation records say about real use", report)
    p.add_argument("--candidates", action="store_true", help="list turns worth turning into eval cases")
    p.add_argument("--export-case", type=int, metavar="ID", help="write observation ID as an incomplete live case")
    p.add_argument("--out", metavar="FILE", help="case file to append to (default: evals/cases/live/from_use.jsonl)")


def _suite_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--group", metavar="G", help="only this group ('smoke' selects the smoke cases)")
    p.add_argument("--cases", metavar="DIR", help="the evals folder (default: the repository's evals/)")
    p.add_argument("--report", metavar="DIR", help="where the JSON and Markdown reports go (default: evals/reports/)")
    p.add_argument("--no-report", action="store_true", help="write no report files")
    p.add_argument("--quiet", action="store_true", help="print only failures and the summary")


def _base(args: argparse.Namespace) -> Path | None:
    return Path(args.cases).expanduser() if getattr(args, "cases", None) else None


def _load(args: argparse.Namespace, layer: str) -> tuple[list[Any], Any]:
    from agent.evals.cases import CaseError, load_cases, load_known_issues

    try:
        cases = load_cases(layer, _base(args), args.group)
        known = load_known_issues(_base(args))
    except CaseError as exc:
        raise CliError.of(exc) from None
    return cases, known


def _finish(args: argparse.Namespace, suite: Any) -> int:
    from agent.evals.cases import evals_dir
    from agent.evals.report import build_report, write_report

    report_data = build_report(suite)
    paths: tuple[Path, Path] | None = None
    if not args.no_report:
        folder = Path(args.report).expanduser() if args.report else (_base(args) or evals_dir()) / "reports"
        stem = f"{suite.layer}{'-smoke' if suite.smoke else ''}"
        paths = write_report(report_data, folder, stem)
    if getattr(args, "json", False):
        print(json.dumps(report_data, ensure_ascii=False, default=str))
    else:
        for result in suite.results:
            if result.status in ("failed", "stale_known_issue"):
                print(f"FAIL {result.case.id} [{result.status}] ({result.case.source})")
                for problem in result.problems[:8]:
                    print(f"    {problem}")
        for result in suite.by_status("known"):
            print(f"KNOWN {result.case.id}: {result.known_reason}")
        for result in suite.by_status("flaky"):
            print(f"FLAKY {result.case.id}: passed on retry")
        for name, group in report_data["groups"].items():
            rate = "-" if group["pass_rate"] is None else f"{group['pass_rate']:.0%}"
            print(f"  {name:<12} {group['cases']:>4} cases  {rate:>5}")
        print(f"{suite.layer}{' smoke' if suite.smoke else ''}: {len(suite.results)} cases in {suite.seconds:.2f} s "
              f"with {suite.model}")  # fmt: skip
        if paths:
            print(f"report: {paths[0]} {paths[1]}")
    print(suite.summary_line())
    return EXIT_FAILED if suite.failed else 0


def eval_offline(args: argparse.Namespace) -> int:
    from agent.evals.suite import run_suite

    cases, known = _load(args, "offline")
    suite = run_suite(cases, layer="offline", known=known)
    return _finish(args, suite)


def _live_model(args: argparse.Namespace) -> Any:
    from agent.models.base import ModelUnavailable
    from agent.models.registry import ModelSpecError, load_model, parse_spec

    try:
        kind = parse_spec(args.model).kind
        opts: dict[str, Any] = {}
        if kind == "openai":
            opts["timeout"] = args.timeout
        elif kind in ("llama", "bundled"):
            opts["n_ctx"] = args.n_ctx
            if args.threads:
                opts["n_threads"] = args.threads
        elif kind == "script":
            raise CliError("cli.live_needs_model")
        return load_model(args.model, **opts)
    except (ModelSpecError, ModelUnavailable) as exc:
        raise CliError.of(exc) from None


def eval_live(args: argparse.Namespace) -> int:
    from agent.evals.suite import run_suite

    if args.concurrency < 1:
        raise CliError("cli.concurrency")
    if args.smoke and args.group is None:
        args.group = "smoke"
    cases, known = _load(args, "live")
    if args.limit:
        cases = cases[: args.limit]
    model = _live_model(args)
    max_tokens = args.max_tokens or (48 if args.smoke else None)
    quiet = args.quiet or getattr(args, "json", False)

    def progress(result: Any) -> None:
        if not quiet:
            seconds = sum(run.seconds for run in result.runs)
            print(f"{result.status.upper():<8} {result.case.id} ({seconds:.1f} s)", flush=True)

    suite = run_suite(
        cases, layer="live", model=model, known=known, smoke=args.smoke, concurrency=args.concurrency,
        max_tokens=max_tokens, progress=progress,
    )  # fmt: skip
    return _finish(args, suite)


def eval_drift(args: argparse.Namespace) -> int:
    from agent.evals.cases import CaseError, load_cases
    from agent.evals.drift import representative, run_drift

    try:
        cases = load_cases("offline", _base(args))
    except CaseError as exc:
        raise CliError.of(exc) from None
    chosen = cases if args.all else representative(cases)
    results, seconds = run_drift(chosen)
    bad = [result for result in results if not result.ok]
    payload = {"cases": len(results), "seconds": round(seconds, 3), "drifted": [r.to_json() for r in bad]}

    def human() -> str:
        lines = []
        for result in bad:
            lines.append(f"DRIFT {result.case_id}")
            lines += [f"    {item}" for item in result.differences[:8]]
        lines.append(f"drift: {len(results)} cases through ChatSession.send and the eval entry in {seconds:.2f} s")
        return "\n".join(lines)

    emit(args, payload, human)
    print(f"{len(results) - len(bad)} passed, {len(bad)} failed")
    return EXIT_FAILED if bad else 0


def report(args: argparse.Namespace) -> int:
    from agent.evals.cases import CaseError
    from agent.evals.usage import append_case, candidates, export_case, load_observations, usage_report

    session = Session(args)
    observations = load_observations(session.store, session.profile_id)
    if args.export_case is not None:
        try:
            record = export_case(session.store, session.profile_id, args.export_case, tz=getattr(args, "tz", None))
            path = append_case(record, Path(args.out).expanduser() if args.out else None)
        except CaseError as exc:
            raise CliError.of(exc) from None
        emit(args, {"id": record["id"], "file": str(path), "case": record},
             lambda: f"wrote case {record['id']} to {path}; fill in its expectations, then remove \"incomplete\"")  # fmt: skip
        return 0
    if args.candidates:
        found = candidates(observations)
        emit(args, found, lambda: "\n".join(
            f"#{c['id']} {c['at']} [{c['intent']} -> {c['outcome']}] {', '.join(c['reasons'])}: {c['user_text'][:60]}"
            for c in found) or "(no candidates)")  # fmt: skip
        return 0
    data = usage_report(observations)
    emit(args, data, lambda: _usage_text(data))
    return 0


def _usage_text(data: dict[str, Any]) -> str:
    def table(title: str, counts: dict[str, Any]) -> list[str]:
        return [title] + [f"  {name:<40} {count}" for name, count in counts.items()] + ([] if counts else ["  (none)"])

    lines = [f"{data['turns']} turns"]
    lines += table("by intent:", data["intents"])
    lines += table("by outcome:", data["outcomes"])
    lines += table("intent -> outcome:", data["intent_outcome"])
    lines += table("guard events:", data["guard_events"])
    lines += table("failed rounds:", data["failed_rounds"])
    calls = data["model_calls"]
    lines.append(f"model calls per turn: mean {calls['mean']}, p50 {calls['p50']}, p90 {calls['p90']}, max {calls['max']}"
                 f" (histogram {calls['histogram']})")  # fmt: skip
    lines.append("latency per segment (ms):")
    for name, row in data["latency_ms"].items():
        lines.append(f"  {name:<20} n={row['n']:<5} p50={row['p50']:<10} p90={row['p90']:<10} max={row['max']}")
    return "\n".join(lines)
