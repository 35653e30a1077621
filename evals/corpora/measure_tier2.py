"""Figures for both guard tiers on the claim and harmless corpora (issue 20).

    PYTHONPATH=. .venv/bin/python evals/corpora/measure_tier2.py

Every corpus reply is a turn with no tool call, so nothing was written or read: the first
tier replaces a reply when it finds any claim (``check_reply`` with empty facts), and the
second marks one that stays when it talks calendar or promises (``status_line`` of an
``unchanged`` turn). This is the runtime's own decision on such a turn, without a store;
the offline cases (``guard_claims``, ``guard_harmless``) run the same replies end to end.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from agent.runtime.calendar_status import UNCHANGED, status_line
from agent.runtime.guard import TurnFacts, check_reply
from agent.runtime.receipts import language_of
from evals.corpora import guard_corpus as C
from evals.corpora import guard_tier2_corpus as T

Pair = tuple[str, str]


def verdict(user: str, reply: str) -> str:
    """``replaced``, ``line`` or ``bare`` for one reply on a turn that did nothing."""
    lang = language_of(user)
    if check_reply(reply, TurnFacts(), lang).flag is not None:
        return "replaced"
    return "line" if status_line(reply, UNCHANGED, lang) else "bare"


def claims() -> list[Pair]:
    rows: list[Pair] = []
    for name in ("CREATE", "UPDATE", "DELETE", "MEMORY", "STATE"):
        for lang in ("ZH", "EN"):
            rows += getattr(C, f"{name}_{lang}")
    rows += [(user, reply) for _kind, user, reply in C.HOLDOUT_CLAIMS + C.HOLDOUT2_CLAIMS + C.HOLDOUT3_CLAIMS]
    return rows


def harmless() -> list[Pair]:
    rows: list[Pair] = []
    for name in ("OFFER_QUESTION", "NEGATION", "CAPABILITY", "SMALLTALK"):
        for lang in ("ZH", "EN"):
            rows += getattr(C, f"{name}_{lang}")
    return rows + C.HOLDOUT_HARMLESS + C.HOLDOUT2_HARMLESS + C.HOLDOUT3_HARMLESS


def figures(label: str, claim_rows: list[Pair], harmless_rows: list[Pair], *, show: bool = False) -> None:
    c = [verdict(u, r) for u, r in claim_rows]
    h = [verdict(u, r) for u, r in harmless_rows]
    print(
        f"{label}: claims {len(c)}: replaced {c.count('replaced')}, line {c.count('line')}, "
        f"unmarked {c.count('bare')} | harmless {len(h)}: replaced {h.count('replaced')} "
        f"({100 * h.count('replaced') / max(1, len(h)):.1f} %), line {h.count('line')} "
        f"({100 * h.count('line') / max(1, len(h)):.1f} %), bare {h.count('bare')}"
    )
    if show:
        for (u, r), v in zip(claim_rows, c, strict=True):
            if v == "bare":
                print(f"  claim unmarked: {u!r} -> {r!r}")
        for (u, r), v in zip(harmless_rows, h, strict=True):
            if v == "replaced":
                print(f"  harmless replaced: {u!r} -> {r!r}")


if __name__ == "__main__":
    show = "--show" in sys.argv
    figures("tier-2 batch", T.TIER2_CLAIMS, T.TIER2_HARMLESS, show=show)
    figures("earlier corpora", claims(), harmless(), show=show)
    figures("tier-2 tuned marks", T.TIER2_TUNED_CLAIMS, [], show=show)
    figures("all", claims() + T.TIER2_CLAIMS + T.TIER2_TUNED_CLAIMS, harmless() + T.TIER2_HARMLESS)
