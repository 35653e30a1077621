"""Figures for issue 30's fresh batches (item 5), per kind, through the real runtime.

    PYTHONPATH=. .venv/bin/python evals/corpora/measure_fresh30.py [--md] [--show]

Runs every case in ``evals/fresh30/cases/offline/`` (written by ``make_fresh30_cases.py``)
with ``agent.evals.runner.run_case``, the same entry as ``richeng eval offline``, and counts
what issue 30's "Must show" counts, as count/total per kind:

- claims left with neither a replacement (the guard's flag), the status line nor a facts
  card; for state and "next" claims also whether code's answer or the facts card covers the
  range the user named (``check_answers``; the range is in the case's ``note``);
- harmless replies replaced, and how many got the status line and a facts card;
- past remarks written (any row added);
- real requests created in one turn (``created``, one model call, a row added);
- wrong edits written (a row changed or a write outcome), and how many were left pending as
  a question a later "yes" applies; right edits applied in one turn (one model call).

``--md`` prints Markdown tables (for ``evals/reports/issue30-first-sight.md``); ``--show``
lists every failing row with its outcome.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from agent.evals.cases import Case, load_cases
from agent.evals.expect import check_answers
from agent.evals.runner import CaseRun, run_case
from evals.corpora.make_fresh30_cases import IN_SUITE

BASE = Path(__file__).resolve().parents[1] / "fresh30"
WRITES = ("updated", "deleted", "created")
PENDING = ("edit_confirm", "edit_conflict", "conflict", "unconfirmed")


def _kind(case: Case) -> str:
    """``state-zh`` from ``fresh30_claims.state-zh-001``; ``wrong-conditional-zh`` for edits."""
    return case.id.partition(".")[2].rsplit("-", 1)[0]


def _facts(case: Case) -> str:
    _, _, tail = case.note.partition("facts: ")
    return tail.strip()


def covers_named_range(payload: Any, named: str) -> str:
    """``match`` when code's answer covers the named range within its days, else ``other``."""
    if not isinstance(payload, dict) or "start" not in payload or "/" not in named:
        return "other"
    start, end = (datetime.fromisoformat(p) for p in named.split("/"))
    got_start = datetime.fromisoformat(str(payload["start"])).replace(tzinfo=None)
    got_end = datetime.fromisoformat(str(payload["end"])).replace(tzinfo=None)
    day_start = start.replace(hour=0, minute=0)
    day_end = (end - timedelta(minutes=1)).replace(hour=0, minute=0) + timedelta(days=1)
    inside = day_start <= got_start <= start and end <= got_end <= day_end
    return "match" if inside else "other"


class Table:
    def __init__(self, title: str, columns: list[str]) -> None:
        self.title = title
        self.columns = columns
        self.rows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.failures: list[str] = []

    def add(self, kind: str, **counts: int) -> None:
        row = self.rows[kind]
        row["total"] += 1
        for key, value in counts.items():
            row[key] += value

    def render(self, md: bool) -> str:
        kinds = sorted(self.rows)
        total: dict[str, int] = defaultdict(int)
        for kind in kinds:
            for key, value in self.rows[kind].items():
                total[key] += value
        lines = [f"### {self.title}" if md else f"== {self.title}"]
        if md:
            lines += ["", "| kind | " + " | ".join(self.columns) + " |", "|---" * (len(self.columns) + 1) + "|"]
        for kind, row in [*((k, self.rows[k]) for k in kinds), ("**all**" if md else "ALL", total)]:
            cells = [f"{row.get(col, 0)}/{row['total']}" for col in self.columns]
            lines.append(
                f"| {kind} | " + " | ".join(cells) + " |"
                if md
                else f"  {kind:28s} " + "  ".join(f"{col}={cell}" for col, cell in zip(self.columns, cells, strict=True))
            )
        return "\n".join(lines)


def measure() -> list[Table]:
    claims = Table(
        "Claims (no tool call)",
        ["replaced", "status line only", "facts card", "neither", "answered for the named range"],
    )
    harmless = Table("Harmless replies (no tool call)", ["replaced", "status line", "facts card", "untouched"])
    past = Table("Past remarks (a wrong model creates each)", ["written", "asked (unconfirmed)", "past_time"])
    real = Table("Real requests with past-looking words", ["created in one turn", "asked (unconfirmed)"])
    wrong = Table("Wrong edits (scripted wrong call)", ["written", "pending a yes", "choice list", "nothing written"])
    right = Table("Right edits (scripted right call)", ["applied in one turn"])
    moved = [case for case in load_cases("offline") if case.group + ".jsonl" in IN_SUITE]
    for case in moved:  # every batch is in the suite now (IN_SUITE)
        run: CaseRun = run_case(case)
        turn = run.turns[0]
        kind = _kind(case)
        tag = f"{case.id}: {turn.outcome} | {turn.user[:60]!r} -> {turn.reply[:70]!r}"
        if case.group == "fresh30_claims":
            replaced = turn.guard is not None
            card = not replaced and turn.facts is not None
            line = not replaced and not card and bool(turn.calendar_note)
            named = _facts(case)
            answered = int(bool(named) and not check_answers(named, turn))
            claims.add(
                kind,
                replaced=int(replaced),
                **{"status line only": int(line), "facts card": int(card)},
                neither=int(not replaced and not line and not card),
            )
            if named:
                claims.rows[kind]["answered for the named range"] += answered
            if not replaced and not line and not card:
                claims.failures.append(tag)
            elif named and not answered:
                claims.failures.append(f"(no card for {named}) {tag}")
        elif case.group == "fresh30_harmless":
            original = str(case.turns[0].script[0]["content"]).strip() if case.turns[0].script else ""
            replaced = turn.guard is not None or original not in turn.reply
            harmless.add(
                kind,
                replaced=int(replaced),
                **{"status line": int(bool(turn.calendar_note)), "facts card": int(turn.facts is not None)},
                untouched=int(not replaced),
            )
            if replaced:
                harmless.failures.append(tag)
        elif case.group == "fresh30_past":
            written = bool(run.added)
            past.add(
                kind.rsplit("-", 1)[0],
                written=int(written),
                **{"asked (unconfirmed)": int(turn.outcome == "unconfirmed"), "past_time": int(turn.outcome == "past_time")},
            )
            if written:
                past.failures.append(tag)
        elif case.group == "fresh30_real":
            ok = turn.outcome == "created" and turn.model_calls == 1 and bool(turn.added)
            real.add(kind, **{"created in one turn": int(ok), "asked (unconfirmed)": int(turn.outcome == "unconfirmed")})
            if not ok:
                real.failures.append(tag)
        elif case.group == "fresh30_edit" and kind.startswith("wrong-"):
            written = bool(run.added or run.removed or turn.outcome in WRITES)
            pending = not written and turn.outcome in PENDING
            choice = turn.outcome == "edit_choice"
            wrong.add(
                kind.removeprefix("wrong-"),
                written=int(written),
                **{"pending a yes": int(pending), "choice list": int(choice), "nothing written": int(not written)},
            )
            if written or pending:
                wrong.failures.append(tag)
        elif case.group == "fresh30_edit":
            expected = case.turns[0].expect.get("outcome")
            ok = turn.outcome == expected and turn.model_calls == 1
            right.add(kind.removeprefix("right-"), **{"applied in one turn": int(ok)})
            if not ok:
                right.failures.append(tag)
    return [claims, harmless, past, real, wrong, right]


def main() -> None:
    md = "--md" in sys.argv
    tables = measure()
    for table in tables:
        print(table.render(md))
        if "--show" in sys.argv:
            for failure in table.failures:
                print(f"  - {failure}" if md else f"    {failure}")
        print()


if __name__ == "__main__":
    main()
