"""Write issue 30's fresh batches (item 5) as offline eval cases, in their own folder.

    PYTHONPATH=. .venv/bin/python evals/corpora/make_fresh30_cases.py

The batches (``fresh30_replies.py``, ``fresh30_past.py``, ``fresh30_edits.py``) were written
blind to the rules and measured once on the code as it stood (first sight,
``evals/reports/issue30-first-sight.md``). Their cases go to ``evals/fresh30/cases/offline/``,
*not* ``evals/cases/offline/``: most fail on the rules before issue 30's items 1-4, and the
offline suite that ``make test`` runs must stay green. A batch the rules pass moves into the
suite (``IN_SUITE``: the past remarks and real requests after items 1 and 3, the claims and
harmless replies after item 4, the edits after items 1 and 2). Run them with ``richeng eval offline --cases evals/fresh30``
or ``evals/corpora/measure_fresh30.py``.

Expectations:

- claims: ``"marked": true`` (replaced by the first tier, the second tier's status line, or a
  facts card), no tool, nothing written. A state or "next" claim also has ``"answers"``: the
  range the user named (``START/END``) or the search (``search:…``), which code's answer or
  the facts card must cover (``agent/evals/expect.py``, ``check_answers``).
- harmless: guard ``null``, outcome ``chat``, the reply left verbatim, nothing written.
- past remarks: outcome ``unconfirmed`` or ``past_time``, nothing written.
- real requests: ``created`` in one model call, the event at the expected start.
- wrong edits: no write outcome, no row changed; right edits: the outcome in one model call.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from evals.corpora import fresh30_edits as E
from evals.corpora import fresh30_past as P
from evals.corpora import fresh30_replies as R

OUT = Path(__file__).resolve().parents[1] / "fresh30" / "cases" / "offline"
#: The offline suite (``make test``): a batch moves there once the rules pass it.
SUITE = Path(__file__).resolve().parents[1] / "cases" / "offline"
IN_SUITE = {
    "fresh30_past.jsonl",
    "fresh30_real.jsonl",
    "fresh30_claims.jsonl",
    "fresh30_harmless.jsonl",
    "fresh30_edit.jsonl",
}


def path_of(name: str) -> Path:
    """Where the generator writes ``name``: the suite once it passes, else the fresh folder."""
    return (SUITE if name in IN_SUITE else OUT) / name


NOW = "2026-12-01T10:00:00+08:00"  # Tuesday morning
TZ = "Asia/Shanghai"
NOTHING: dict[str, list[Any]] = {"added": [], "removed": []}


def _lang(text: str) -> str:
    return "en" if text.isascii() else "zh"


def _one_turn(
    case_id: str, group: str, user: str, script: list[dict[str, Any]], expect: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    turn: dict[str, Any] = {"user": user, "script": script, "expect": expect}
    if extra.pop("script_may_remain", False):
        turn["script_may_remain"] = True
    return {"id": case_id, "group": group, "now": NOW, "tz": TZ, "turns": [turn]} | extra


def reply_cases() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    claims: list[dict[str, Any]] = []
    counters: dict[str, int] = {}
    for kind, user, reply, facts in R.CLAIMS:
        lang = _lang(user)
        key = f"{kind}-{lang}"
        counters[key] = counters.get(key, 0) + 1
        fixtures = {"events": R.EVENTS_EN if lang == "en" else R.EVENTS_ZH}
        expect: dict[str, Any] = {"marked": True, "tools": [], "store": NOTHING, "memories": {"added": []}}
        if facts:  # issue 30 item 4: code's answer or a facts card for what the user named
            expect["answers"] = facts
        note = f"issue 30 fresh batch, first sight; claim kind {kind}" + (f"; facts: {facts}" if facts else "")
        claims.append(
            _one_turn(
                f"fresh30_claims.{key}-{counters[key]:03d}",
                "fresh30_claims",
                user,
                [{"content": reply}],
                expect,
                fixtures=fixtures,
                note=note,
            )
        )
    harmless: list[dict[str, Any]] = []
    counters = {}
    for kind, user, reply, _facts in R.HARMLESS:
        lang = _lang(user)
        key = f"{kind}-{lang}"
        counters[key] = counters.get(key, 0) + 1
        fixtures = {"events": R.EVENTS_EN if lang == "en" else R.EVENTS_ZH}
        expect = {"guard": None, "outcome": "chat", "reply_contains": [reply.strip()], "store": NOTHING}
        harmless.append(
            _one_turn(
                f"fresh30_harmless.{key}-{counters[key]:03d}",
                "fresh30_harmless",
                user,
                [{"content": reply}],
                expect,
                fixtures=fixtures,
                note=f"issue 30 fresh batch, first sight; harmless kind {kind}",
            )
        )
    return claims, harmless


def _create(title: str, date: str, time: str | None) -> dict[str, Any]:
    args: dict[str, Any] = {"title": title, "dateExpression": date}
    if time:
        args["time"] = time
    return {"tool_calls": [{"name": "prepare_or_create_schedule", "arguments": args}]}


def past_cases() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    past: list[dict[str, Any]] = []
    counters: dict[str, int] = {}
    for kind, text, title, date, time in P.PAST:
        counters[kind] = counters.get(kind, 0) + 1
        past.append(
            _one_turn(
                f"fresh30_past.{kind}-{_lang(text)}-{counters[kind]:03d}",
                "fresh30_past",
                text,
                [_create(title, date, time)],
                {"outcome": ["unconfirmed", "past_time"], "store": {"added": []}},
                note=f"issue 30 fresh batch, first sight; remark kind {kind}; a deliberately wrong model creates it",
            )
        )
    real: list[dict[str, Any]] = []
    for n, (text, title, date, time, start) in enumerate(P.REAL, 1):
        real.append(
            _one_turn(
                f"fresh30_real.{_lang(text)}-{n:03d}",
                "fresh30_real",
                text,
                [_create(title, date, time)],
                {"outcome": "created", "model_calls": 1, "store": {"added": [{"title": title, "start": start}]}},
                note="issue 30 fresh batch, first sight; a real request with past-looking words: created in one turn",
            )
        )
    return past, real


def edit_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, (kind, message, calls) in enumerate(E.WRONG, 1):
        lang = _lang(message)
        out.append(
            _one_turn(
                f"fresh30_edit.wrong-{kind}-{lang}-{n:03d}",
                "fresh30_edit",
                message,
                [{"tool_calls": calls}],
                {"not_outcome": ["updated", "deleted", "created"], "store": NOTHING},
                script_may_remain=True,
                fixtures={"calendars": E.CALENDARS, "events": E.EVENTS_EN if lang == "en" else E.EVENTS_ZH},
                note=f"issue 30 fresh batch, first sight; wrong edit kind {kind}",
            )
        )
    for n, (kind, message, calls, outcome) in enumerate(E.RIGHT, 1):
        lang = _lang(message)
        out.append(
            _one_turn(
                f"fresh30_edit.right-{kind}-{lang}-{n:03d}",
                "fresh30_edit",
                message,
                [{"tool_calls": calls}],
                {"outcome": outcome, "model_calls": 1},
                script_may_remain=True,
                fixtures={"calendars": E.CALENDARS, "events": E.EVENTS_EN if lang == "en" else E.EVENTS_ZH},
                note=f"issue 30 fresh batch, first sight; right edit kind {kind}",
            )
        )
    return out


def write(name: str, cases: list[dict[str, Any]]) -> None:
    path = path_of(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    print(f"{path.relative_to(OUT.parents[3])}: {len(cases)} cases")


def main() -> None:
    claims, harmless = reply_cases()
    past, real = past_cases()
    write("fresh30_claims.jsonl", claims)
    write("fresh30_harmless.jsonl", harmless)
    write("fresh30_past.jsonl", past)
    write("fresh30_real.jsonl", real)
    write("fresh30_edit.jsonl", edit_cases())


if __name__ == "__main__":
    main()
