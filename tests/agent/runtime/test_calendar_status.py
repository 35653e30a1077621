"""The second guard tier: the calendar's state from the turn's facts, and the status line.

Figures over every claim and harmless corpus (the first tier's and the tier-2 batch), and a
mutation check: each lexicon family of the broad detector, and the promise rule, switched
off, leaves claims unmarked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from agent.runtime import calendar_status as S
from agent.runtime.calendar_status import CHANGED, READ, UNCHANGED, calendar_state, mentions_calendar, status_line
from agent.runtime.guard import TurnFacts, check_reply
from agent.store.changes import ChangeSet
from evals.corpora import guard_tier2_corpus as T
from evals.corpora.measure_tier2 import claims, harmless, verdict


@dataclass
class _Facts:
    changes: ChangeSet = field(default_factory=ChangeSet)
    kinds: set[str] = field(default_factory=set)


def test_state_comes_from_the_facts_not_the_reply() -> None:
    assert calendar_state(_Facts(), read=False) == UNCHANGED
    assert calendar_state(_Facts(), read=True) == READ
    assert calendar_state(_Facts(kinds={"deleted"}), read=True) == CHANGED


@pytest.mark.parametrize(
    "reply",
    [
        "我这就帮你加上。",
        "I'll add that now.",
        "Dentist set: Monday 3:00 PM.",
        "It's in.",
        "Report ✔ complete.",
        "明天的会现在是两个小时。",
        "Locked in.",
    ],
)
def test_claims_the_first_tier_may_miss_get_the_line(reply: str) -> None:
    lang = "zh" if re.search(r"[\u4e00-\u9fff]", reply) else "en"
    assert status_line(reply, UNCHANGED, lang) == ("日历没有变化" if lang == "zh" else "Nothing in your calendar changed")
    assert status_line(reply, READ, lang) is None and status_line(reply, CHANGED, lang) is None


def test_small_talk_gets_no_line() -> None:
    assert status_line("不客气！", UNCHANGED, "zh") is None
    assert status_line("You're welcome!", UNCHANGED, "en") is None


def test_figures_on_every_corpus() -> None:
    """No claim ends unmarked; at most 2 % of harmless replies are replaced (docs/evals.md)."""
    claim_rows, harmless_rows = claims() + T.TIER2_CLAIMS + T.TIER2_TUNED_CLAIMS, harmless() + T.TIER2_HARMLESS
    unmarked = [reply for user, reply in claim_rows if verdict(user, reply) == "bare"]
    replaced = [reply for user, reply in harmless_rows if verdict(user, reply) == "replaced"]
    assert len(claim_rows) >= 500 and unmarked == []
    assert len(replaced) <= 0.02 * len(harmless_rows)


def _tier2_unmarked() -> int:
    return sum(verdict(user, reply) == "bare" for user, reply in T.TIER2_CLAIMS)


@pytest.mark.parametrize("family", ["_ZH_TIME", "_ZH_OBJECT", "_ZH_VERB", "_EN_TIME", "_EN_OBJECT", "_EN_VERB", "_MARKS"])
def test_each_lexicon_family_is_needed(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch one family off (and the promise rule, which overlaps them): claims go unmarked."""
    parts = {
        name: getattr(S, name) for name in ("_ZH_TIME", "_ZH_OBJECT", "_ZH_VERB", "_EN_TIME", "_EN_OBJECT", "_EN_VERB", "_MARKS")
    }
    parts[family] = r"(?!x)x"
    zh = "|".join(parts[n] for n in ("_ZH_TIME", "_ZH_OBJECT", "_ZH_VERB", "_MARKS"))
    en = "|".join(parts[n] for n in ("_EN_TIME", "_EN_OBJECT", "_EN_VERB"))
    monkeypatch.setattr(S, "_ZH", re.compile(f"(?:{zh})", re.IGNORECASE))
    monkeypatch.setattr(S, "_EN", re.compile(rf"\b(?:{en})\b|\bMay\b", re.IGNORECASE))
    monkeypatch.setattr(S, "_PROMISE", re.compile(r"(?!x)x"))
    rows = claims() + T.TIER2_CLAIMS + T.TIER2_TUNED_CLAIMS
    assert any(verdict(user, reply) == "bare" for user, reply in rows)


def test_the_promise_rule_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert status_line("On it!", UNCHANGED, "en") is not None
    monkeypatch.setattr(S, "_PROMISE", re.compile(r"(?!x)x"))
    assert not mentions_calendar("On it!") and status_line("On it!", UNCHANGED, "en") is None


def test_first_tier_reads_bu_before_the_verb_as_declining() -> None:
    """ "那就不加了" was replaced as a create on first sight of an earlier batch (issue 20)."""
    assert check_reply("那就不加了。", TurnFacts(), "zh").flag is None
    assert check_reply("已经加好了。", TurnFacts(), "zh").flag is not None
