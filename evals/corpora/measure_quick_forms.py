"""Score quick add on the blind everyday-forms corpus (issue 28), ``evals/cases/quick/forms.jsonl``.

    PYTHONPATH=. .venv/bin/python evals/corpora/measure_quick_forms.py [--failures] [--cases FILE]

Each case runs the real command in process, ``richeng --db TMP --now NOW --tz Asia/Shanghai
--json quick TEXT --dry-run``, so the figure is what a user of the CLI gets, not what one
internal function returns. A case is exact when title, start, end, all-day, zone, location
and the repeat all match; a non-zero exit is a miss (or the hit, for an expected error).

Repeats are compared by what they produce, not by how the rule is spelled: the expected rule
is expanded from the expected start and the parser's rule from the parser's start, and the
first 30 occurrences (all, when fewer) must be the same wall times. So ``FREQ=DAILY;BYDAY=MO,..FR``
and ``FREQ=WEEKLY;BYDAY=MO,..FR`` agree, and an ``UNTIL`` given as a day covers that whole day.

The scorer reads any parser version: keys an older output lacks count as absent (no ``tz``
means Asia/Shanghai; no ``rrule`` means the rule is derived from the ``repeat`` word), so the
same corpus measures the parser before and after a change.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import islice
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from agent.cli.main import main as cli_main

CASES = Path(__file__).resolve().parents[1] / "cases" / "quick" / "forms.jsonl"
USER_TZ = "Asia/Shanghai"
OCCURRENCES = 30
WORD_RULES = {"DAILY": "FREQ=DAILY", "WEEKLY": "FREQ=WEEKLY", "MONTHLY": "FREQ=MONTHLY", "YEARLY": "FREQ=YEARLY"}
LUNAR = "LUNAR_YEARLY"


@dataclass
class Verdict:
    case: dict[str, Any]
    diffs: list[tuple[str, Any, Any]] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return not self.diffs


def run_cli(text: str, now: str, db: Path) -> tuple[int, str, str]:
    """The CLI's exit code, stdout and stderr for one sentence (dry run: nothing is written)."""
    argv = ["--db", str(db), "--now", now, "--tz", USER_TZ, "--json", "quick", text, "--dry-run"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli_main(argv)
        except SystemExit as exc:  # argparse refusing the line
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def _moment(value: Any) -> date | datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)
    except ValueError:
        return None


def same_moment(want: str, got: Any) -> bool:
    """A date equals the same date; a datetime equals the same instant written with the same offset."""
    a, b = _moment(want), _moment(got)
    if isinstance(a, datetime) or isinstance(b, datetime):
        if not (isinstance(a, datetime) and isinstance(b, datetime)):
            return False
        if a.tzinfo is None or b.tzinfo is None:
            return a.tzinfo is None and b.tzinfo is None and a == b
        return a == b and a.utcoffset() == b.utcoffset()
    return a is not None and a == b


def _wall(start: Any, tz: str) -> datetime | None:
    """The start as a naive wall time in the event's zone (an all-day start is its midnight)."""
    moment = _moment(start)
    if isinstance(moment, datetime):
        if moment.tzinfo is not None:
            moment = moment.astimezone(ZoneInfo(tz))
        return moment.replace(tzinfo=None)
    if isinstance(moment, date):
        return datetime(moment.year, moment.month, moment.day)
    return None


def _normalise_rule(rule: str, tz: str) -> str:
    """Strip ``RRULE:``; a day-only UNTIL covers the whole day; a UTC UNTIL becomes wall time in
    the event's zone (dateutil refuses a UTC UNTIL with a naive start)."""
    rule = rule.strip()
    if rule.upper().startswith("RRULE:"):
        rule = rule[6:]
    parts = []
    for part in rule.split(";"):
        key, _, value = part.partition("=")
        if key.upper() == "UNTIL":
            if len(value) == 8:
                value += "T235959"
            elif value.endswith("Z"):
                utc = datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=ZoneInfo("UTC"))
                value = utc.astimezone(ZoneInfo(tz)).strftime("%Y%m%dT%H%M%S")
        parts.append(f"{key}={value}")
    return ";".join(parts)


def occurrences(rule: str, start: Any, tz: str) -> list[datetime]:
    """The first OCCURRENCES wall times of ``rule`` from ``start``; raises ValueError on a bad rule."""
    wall = _wall(start, tz)
    if wall is None:
        raise ValueError(f"no start to expand from: {start!r}")
    return list(islice(iter(rrulestr(_normalise_rule(rule, tz), dtstart=wall)), OCCURRENCES))


def _actual_rule(got: dict[str, Any]) -> str | None:
    rule = got.get("rrule")
    if isinstance(rule, str) and rule:
        return rule
    word = got.get("repeat")
    return WORD_RULES.get(word) if isinstance(word, str) else None


def _show(values: list[datetime]) -> str:
    head = ", ".join(v.strftime("%Y-%m-%d %H:%M") for v in values[:4])
    return f"{len(values)} from [{head}{', ...' if len(values) > 4 else ''}]"


def compare_repeat(want: dict[str, Any], got: dict[str, Any], got_tz: str) -> tuple[Any, Any] | None:
    """None when the repeats agree, else (expected, got) as shown in a failure."""
    if want.get("repeat") == LUNAR or got.get("repeat") == LUNAR:
        return None if want.get("repeat") == got.get("repeat") else (want.get("repeat"), got.get("repeat"))
    want_rule, got_rule = want.get("rrule"), _actual_rule(got)
    if not want_rule and not got_rule and not got.get("repeat"):
        return None
    if not want_rule or not got_rule:
        return (want_rule, got_rule or got.get("repeat"))
    try:
        expected = occurrences(want_rule, want["start"], want.get("tz") or USER_TZ)
    except (ValueError, KeyError) as exc:
        return (f"bad expected rule: {exc}", got_rule)
    try:
        actual = occurrences(got_rule, got.get("start"), got_tz)
    except ValueError as exc:
        return (want_rule, f"{got_rule} (unreadable: {exc})")
    if expected == actual:
        return None
    return (f"{want_rule}: {_show(expected)}", f"{got_rule}: {_show(actual)}")


def location_of(got: dict[str, Any]) -> str | None:
    """The output's ``location``; an output without that key (the CLI before it had one) is read
    through its underlined ``location`` span, stored without a leading 在/at."""
    if "location" in got:
        return got["location"] or None
    for span in got.get("spans") or []:
        if isinstance(span, dict) and span.get("role") == "location" and isinstance(span.get("text"), str):
            text = span["text"].strip()
            for lead in ("在", "at ", "At "):
                text = text.removeprefix(lead)
            return text.strip() or None
    return None


def _title(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else repr(value)


def judge(case: dict[str, Any], db: Path) -> Verdict:
    verdict = Verdict(case)
    want = case["expect"]
    code, out, err = run_cli(case["text"], case["now"], db)
    if "error" in want:
        if code == 0:
            verdict.diffs.append(("error", want["error"], out.strip()[:200]))
        return verdict
    if code != 0:
        verdict.diffs.append(("exit", 0, f"{code}: {err.strip()[:200]}"))
        return verdict
    try:
        got = json.loads(out)
    except json.JSONDecodeError:
        verdict.diffs.append(("output", "JSON", out.strip()[:200]))
        return verdict
    got_tz = got.get("tz") or USER_TZ
    if _title(want["title"]) != _title(got.get("title")):
        verdict.diffs.append(("title", want["title"], got.get("title")))
    for key in ("start", "end"):
        if not same_moment(want[key], got.get(key)):
            verdict.diffs.append((key, want[key], got.get(key)))
    want_all_day = len(want["start"]) == 10
    if want_all_day != bool(got.get("all_day")):
        verdict.diffs.append(("all_day", want_all_day, got.get("all_day")))
    if (want.get("tz") or USER_TZ) != got_tz:
        verdict.diffs.append(("tz", want.get("tz") or USER_TZ, got.get("tz")))
    if (want.get("location") or None) != location_of(got):
        verdict.diffs.append(("location", want.get("location"), location_of(got)))
    repeat = compare_repeat(want, got, got_tz)
    if repeat is not None:
        verdict.diffs.append(("repeat", *repeat))
    return verdict


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def report(verdicts: list[Verdict], failures: bool) -> str:
    lines: list[str] = []
    if failures:
        for v in verdicts:
            if v.exact:
                continue
            lines.append(f"{v.case['id']} [{v.case['form']}] {v.case['text']}")
            for name, want, got in v.diffs:
                lines.append(f"    {name}: expected {want!r}, got {got!r}")
        lines.append("")
    total, hits = Counter[str](), Counter[str]()
    for v in verdicts:
        for key in (v.case["form"], f"{v.case['form']}/{v.case['lang']}"):
            total[key] += 1
            hits[key] += v.exact
    lines.append("| form | exact | of | % | zh | en |")
    lines.append("|---|---|---|---|---|---|")
    for form in dict.fromkeys(v.case["form"] for v in verdicts):
        per_lang = [f"{hits[f'{form}/{lang}']}/{total[f'{form}/{lang}']}" for lang in ("zh", "en")]
        lines.append(
            f"| {form} | {hits[form]} | {total[form]} | {100 * hits[form] / total[form]:.0f} | {per_lang[0]} | {per_lang[1]} |"
        )
    exact = sum(v.exact for v in verdicts)
    lines.append(f"| **total** | **{exact}** | **{len(verdicts)}** | **{100 * exact / max(len(verdicts), 1):.1f}** | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--failures", action="store_true", help="print each miss with the fields that differ")
    parser.add_argument("--cases", type=Path, default=CASES)
    args = parser.parse_args(argv)
    cases = load(args.cases)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "forms.sqlite3"
        verdicts = [judge(case, db) for case in cases]
    print(report(verdicts, args.failures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
