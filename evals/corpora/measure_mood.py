"""Issue 30 items 1 and 3 measured on every corpus they touch, through the real runtime.

    PYTHONPATH=. .venv/bin/python evals/corpora/measure_mood.py [--show]

Counts what issue 30's "Must show" asks of the conditional and narrative-past rules:

- past remarks written (any row added) and real requests created in one turn (``created``,
  one model call, a row added), per corpus: ``grounding_past`` / ``grounding_real`` (issue
  10), ``grounding_past_fresh`` / ``grounding_real_fresh`` (issue 20), ``fresh30_past`` /
  ``fresh30_real`` (issue 30's blind batch) and the held-out rows of ``mood_heldout.py``;
- wrong edits written (a row changed or a write outcome) and, for conditionals, left pending
  (a question a later "yes" applies), and right edits applied in one turn, per corpus:
  ``edit_grounding``, ``fresh30_edit`` (its conditional rows apart) and the held-out rows.

A corpus is read from the offline suite, else from ``evals/fresh30`` (the fresh batch
before it moves into the suite). ``--show`` lists every failing row.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from agent.evals.cases import Case, load_cases, parse_case
from agent.evals.runner import run_case
from evals.corpora import fresh30_edits as E
from evals.corpora import mood_heldout as H

FRESH = Path(__file__).resolve().parents[1] / "fresh30"
WRITES = ("updated", "deleted", "created")
PENDING = ("edit_confirm", "edit_conflict", "conflict", "unconfirmed", "edit_choice")
NOW = "2026-12-01T10:00:00+08:00"


def group(name: str) -> list[Case]:
    cases = [case for case in load_cases("offline") if case.group == name]
    return cases or [case for case in load_cases("offline", base=FRESH) if case.group == name]


def _case(case_id: str, user: str, script: list[dict[str, Any]], fixtures: dict[str, Any] | None = None) -> Case:
    data: dict[str, Any] = {
        "id": case_id,
        "group": "mood_heldout",
        "now": NOW,
        "tz": "Asia/Shanghai",
        "turns": [{"user": user, "script": script, "expect": {}, "script_may_remain": True}],
    }
    if fixtures:
        data["fixtures"] = fixtures
    return parse_case(data, "offline", case_id)


def _create(title: str, date: str, time: str | None) -> dict[str, Any]:
    args: dict[str, Any] = {"title": title, "dateExpression": date} | ({"time": time} if time else {})
    return {"tool_calls": [{"name": "prepare_or_create_schedule", "arguments": args}]}


def _edit_fixtures(text: str) -> dict[str, Any]:
    return {"calendars": E.CALENDARS, "events": E.EVENTS_EN if text.isascii() else E.EVENTS_ZH}


def heldout_past() -> list[Case]:
    return [_case(f"mood_heldout.past-{n:03d}", t, [_create(ti, d, tm)]) for n, (_k, t, ti, d, tm) in enumerate(H.PAST, 1)]


def heldout_real() -> list[Case]:
    return [_case(f"mood_heldout.real-{n:03d}", t, [_create(ti, d, tm)]) for n, (t, ti, d, tm, _s) in enumerate(H.REAL, 1)]


def heldout_wrong() -> list[Case]:
    return [
        _case(f"mood_heldout.wrong-{n:03d}", t, [{"tool_calls": c}], _edit_fixtures(t)) for n, (t, c) in enumerate(H.WRONG, 1)
    ]


def heldout_right() -> list[Case]:
    return [
        _case(f"mood_heldout.right-{n:03d}", t, [{"tool_calls": c}], _edit_fixtures(t)) for n, (t, c, _o) in enumerate(H.RIGHT, 1)
    ]


def _tag(case: Case, run: Any) -> str:
    turn = run.turns[0]
    return f"    {case.id}: {turn.outcome} | {turn.user[:70]!r}"


def past(cases: Iterable[Case], show: bool) -> str:
    written = total = 0
    failures: list[str] = []
    for case in cases:
        run = run_case(case)
        total += 1
        if run.added:
            written += 1
            failures.append(_tag(case, run))
    return f"remarks written {written}/{total}" + ("\n" + "\n".join(failures) if show and failures else "")


def real(cases: Iterable[Case], show: bool) -> str:
    ok = total = 0
    failures: list[str] = []
    for case in cases:
        run = run_case(case)
        turn = run.turns[0]
        total += 1
        if turn.outcome == "created" and turn.model_calls == 1 and turn.added:
            ok += 1
        else:
            failures.append(_tag(case, run))
    share = f" ({ok / total:.1%})" if total else ""
    return f"requests created in one turn {ok}/{total}{share}" + ("\n" + "\n".join(failures) if show and failures else "")


def wrong(cases: Iterable[Case], show: bool) -> str:
    written = pending = total = 0
    failures: list[str] = []
    for case in cases:
        run = run_case(case)
        turn = run.turns[0]
        total += 1
        if run.added or run.removed or turn.outcome in WRITES:
            written += 1
            failures.append(_tag(case, run))
        elif turn.outcome in PENDING:
            pending += 1
            failures.append(_tag(case, run) + " (pending)")
    tail = "\n" + "\n".join(failures) if show and failures else ""
    return f"wrong edits written {written}/{total}, left pending {pending}/{total}" + tail


def right(cases: Iterable[Case], show: bool) -> str:
    ok = total = 0
    failures: list[str] = []
    for case in cases:
        run = run_case(case)
        turn = run.turns[0]
        total += 1
        if turn.outcome in ("updated", "deleted") and turn.model_calls == 1:
            ok += 1
        else:
            failures.append(_tag(case, run))
    return f"right edits applied in one turn {ok}/{total}" + ("\n" + "\n".join(failures) if show and failures else "")


def main() -> None:
    show = "--show" in sys.argv
    edits = group("fresh30_edit")
    kind = {"wrong": lambda c: ".wrong-" in c.id, "right": lambda c: ".right-" in c.id}
    rows = [
        ("grounding_past", past(group("grounding_past"), show)),
        ("grounding_past_fresh", past(group("grounding_past_fresh"), show)),
        ("fresh30_past", past(group("fresh30_past"), show)),
        ("held-out past", past(heldout_past(), show)),
        ("grounding_real", real(group("grounding_real"), show)),
        ("grounding_real_fresh", real(group("grounding_real_fresh"), show)),
        ("fresh30_real", real(group("fresh30_real"), show)),
        ("held-out real", real(heldout_real(), show)),
        ("edit_grounding wrong", wrong([c for c in group("edit_grounding") if ".wrong-" in c.id], show)),
        ("edit_grounding right", right([c for c in group("edit_grounding") if ".right-" in c.id], show)),
        ("fresh30_edit conditional", wrong([c for c in edits if ".wrong-conditional-" in c.id], show)),
        ("fresh30_edit other wrong", wrong([c for c in edits if kind["wrong"](c) and "conditional" not in c.id], False)),
        ("fresh30_edit right", right([c for c in edits if kind["right"](c)], show)),
        ("held-out conditional", wrong(heldout_wrong(), show)),
        ("held-out polite if", right(heldout_right(), show)),
    ]
    for name, line in rows:
        print(f"{name:26s} {line}")


if __name__ == "__main__":
    main()
