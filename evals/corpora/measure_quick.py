"""Figures for quick add's sentence parser (issue 21): its own corpus, the held-out corpus,
and the third-party time-expression suites in ``../shared/corpora``.

    PYTHONPATH=. .venv/bin/python evals/corpora/measure_quick.py

A corpus case is *exactly right* when title, start, end and repeat (and location and
reminder where the case names them, or the parser found one) all equal the expectation, or
when an error case gets that error. The peer suites hold bare expressions ("下周六",
"at 3pm") with their own conventions (duckling's bare weekday skips today, JioNLP's 早上 is
06:00–09:59, chrono's date-only answers carry 12:00), so a peer row counts as *day agrees*
when our first day is its first day, and *time agrees* when it also has a clock time and
ours equals it. Rows with no single start (durations, fields only, open intervals,
recurring periods) are counted as not applicable, never skipped silently.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from agent.timesym.context import TimeContext  # noqa: E402
from agent.timesym.sentence import QuickEvent, parse_quick  # noqa: E402

CASES = ROOT / "evals" / "cases" / "quick"
OWN = CASES / "quick_add.jsonl"
HELD_OUT = CASES / "held_out.jsonl"
PEERS = ROOT.parent / "shared" / "corpora"
DEFAULT_NOW = "2026-12-01T10:00:00+08:00"
ZONE = ZoneInfo("Asia/Shanghai")


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def outcome(case: dict[str, Any]) -> tuple[QuickEvent, dict[str, Any]]:
    """The parser's reading of one case, in the case's own shape."""
    now = datetime.fromisoformat(case.get("now", DEFAULT_NOW))
    parsed = parse_quick(case["text"], TimeContext(now=now, tz=ZONE))
    want = case["expect"]
    if "error" in want or parsed.problem is not None:
        if parsed.problem is not None:
            return parsed, {"error": parsed.problem}
        return parsed, {"title": parsed.title}
    got: dict[str, Any] = {
        "title": parsed.title,
        "start": parsed.start.isoformat() if parsed.start else None,
        "end": parsed.end.isoformat() if parsed.end else None,
        "repeat": parsed.freq,
    }
    if "location" in want or parsed.location:
        got["location"] = parsed.location
    if "reminder" in want or parsed.reminder_minutes:
        got["reminder"] = parsed.reminder_minutes
    return parsed, got


@dataclass
class CorpusFigures:
    name: str
    total: int = 0
    right: int = 0
    misses: list[tuple[str, str, dict[str, tuple[Any, Any]]]] = field(default_factory=list)
    by_lang: Counter[str] = field(default_factory=Counter)
    right_by_lang: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.right / self.total if self.total else 0.0


def measure_corpus(path: Path) -> CorpusFigures:
    figures = CorpusFigures(path.name)
    for case in load(path):
        _, got = outcome(case)
        want = case["expect"]
        figures.total += 1
        figures.by_lang[case["lang"]] += 1
        if got == want:
            figures.right += 1
            figures.right_by_lang[case["lang"]] += 1
        else:
            diff = {k: (want.get(k), got.get(k)) for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)}
            figures.misses.append((case["id"], case["text"], diff))
    return figures


# --------------------------------------------------------------------------
# Peer suites
# --------------------------------------------------------------------------

_STAMP = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2}):(\d{2})")


def _zone(text: str) -> ZoneInfo | timezone:
    if m := re.match(r"UTC([+-])(\d{2}):(\d{2})", text):
        sign = 1 if m[1] == "+" else -1
        return timezone(sign * timedelta(hours=int(m[2]), minutes=int(m[3])))
    return ZONE


def _zoneinfo(tz: ZoneInfo | timezone) -> ZoneInfo:
    """TimeContext wants an IANA zone: UTC-2 is Etc/GMT+2 (POSIX sign)."""
    if isinstance(tz, ZoneInfo):
        return tz
    offset = tz.utcoffset(None)
    hours = int(offset.total_seconds() // 3600)
    return ZoneInfo("UTC") if hours == 0 else ZoneInfo(f"Etc/GMT{-hours:+d}")


@dataclass
class PeerFigures:
    source: str
    rows: int = 0
    applicable: int = 0
    read: int = 0
    day_agrees: int = 0
    timed: int = 0
    time_agrees: int = 0
    differs: list[tuple[str, str, str, str]] = field(default_factory=list)


def _source(row: dict[str, str]) -> str:
    project = row.get("project", "")
    return project.split(" ")[0].split("/")[-1] if project else "duckling"


def _expected(row: dict[str, str]) -> tuple[datetime, bool] | None:
    """(first instant, whether it names a clock time) or None when the row has no single start."""
    text = row["expected"]
    if text.startswith("{") or text.lower().startswith(("after", "before", "none")) or "field" in row.get("kind", ""):
        return None
    m = _STAMP.search(text)
    if m is None:
        return None
    stamp = datetime.fromisoformat(f"{m[1]}T{m[2]}:{m[3]}:{m[4]}")
    grain = (row.get("grain_or_precision") or row.get("grain") or "").lower()
    kind = row.get("kind", "")
    if grain in ("week", "month", "year", "quarter") or kind in ("time_period", "time_delta"):
        return None
    timed = grain in ("hour", "minute", "second") or (
        grain in ("accurate", "blur", "") and (stamp.hour, stamp.minute) not in ((0, 0), (12, 0))
    )
    return stamp, timed


def measure_peers(path: Path) -> dict[str, PeerFigures]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    figures: dict[str, PeerFigures] = {}
    for row in csv.DictReader(lines, delimiter="\t"):
        source = _source(row)
        fig = figures.setdefault(source, PeerFigures(source))
        fig.rows += 1
        expected = _expected(row)
        ref = _STAMP.search(row.get("reference_time") or "")
        if expected is None or ref is None or row.get("corpus_section") == "negativeCorpus":
            continue
        fig.applicable += 1
        tz = _zone(row.get("reference_tz", ""))
        now = datetime.fromisoformat(f"{ref[1]}T{ref[2]}:{ref[3]}:{ref[4]}").replace(tzinfo=tz)
        parsed = parse_quick(row["expression"], TimeContext(now=now, tz=_zoneinfo(tz)))
        if parsed.start is None:
            fig.differs.append((row["id"], row["expression"], row["expected"][:32], "not read"))
            continue
        fig.read += 1
        first = parsed.start.date() if isinstance(parsed.start, datetime) else parsed.start
        want, timed = expected
        if first != want.date():
            fig.differs.append((row["id"], row["expression"], row["expected"][:32], str(parsed.start)))
            continue
        fig.day_agrees += 1
        if timed:
            fig.timed += 1
            if isinstance(parsed.start, datetime) and (parsed.start.hour, parsed.start.minute) == (want.hour, want.minute):
                fig.time_agrees += 1
            else:
                fig.differs.append((row["id"], row["expression"], row["expected"][:32], str(parsed.start)))
    return figures


def report() -> str:
    out = ["## Quick-add corpora", "", "| corpus | cases | exactly right | zh | en |", "|---|---|---|---|---|"]
    corpora = [measure_corpus(p) for p in (OWN, HELD_OUT) if p.exists()]
    for fig in corpora:
        langs = " | ".join(f"{fig.right_by_lang[lang]}/{fig.by_lang[lang]}" for lang in ("zh", "en"))
        out.append(f"| {fig.name} | {fig.total} | {fig.right} ({fig.rate:.1%}) | {langs} |")
    for fig in corpora:
        out += ["", f"Misses in {fig.name}:"]
        out += [f"- {cid} `{text}`: {diff}" for cid, text, diff in fig.misses] or ["- none"]
    out += ["", "## Peer suites (expressions only)", ""]
    out += [
        "| file | source | rows | with one start | read | day agrees | timed | time agrees |",
        "|---|---|---|---|---|---|---|---|",
    ]
    differs: list[str] = []
    for name in ("zh_time_cases.tsv", "en_time_cases.tsv"):
        path = PEERS / name
        if not path.exists():
            continue
        for peer in measure_peers(path).values():
            out.append(
                f"| {name} | {peer.source} | {peer.rows} | {peer.applicable} | {peer.read} | {peer.day_agrees} | {peer.timed} "
                f"| {peer.time_agrees} |"
            )
            differs += [f"- {cid} `{expr}` expected {want}, read {got}" for cid, expr, want, got in peer.differs]
    out += ["", "Rows that differ:", *differs]
    return "\n".join(out)


if __name__ == "__main__":
    print(report())
