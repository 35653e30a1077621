"""Held-out phrasings for issue 30 items 2 and 4, written by the engineer of the rules.

    PYTHONPATH=. .venv/bin/python evals/corpora/facts_heldout.py   # writes the cases, prints the figures

Written after the shared-target and facts-card rules existed but before they were run on
these rows, and run once (first sight: 29 of 30 cases passed; "下回组会啥时候" got no card,
so 下回 and 啥时候 joined the "next" words) (figures in ``docs/guard.md`` and ``docs/chat-editing.md``, beside
the blind batch's). They are not the blind batch: the writer knew the rules, so they are
an upper bound, reported separately. The store is the fresh batch's (``fresh30_replies`` /
``fresh30_edits``); now = Tue 2026-12-01 10:00 Asia/Shanghai.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from evals.corpora import fresh30_edits as E
from evals.corpora import fresh30_replies as R
from evals.corpora.fresh30_edits import D, U

OUT = Path(__file__).resolve().parents[1] / "cases" / "offline"  # they pass: loaded by the suite
NOW = "2026-12-01T10:00:00+08:00"
TZ = "Asia/Shanghai"
NOTHING: dict[str, list[Any]] = {"added": [], "removed": []}

#: (user, model reply that reads nothing, what code must answer: START/END or search:words)
CLAIMS: list[tuple[str, str, str]] = [
    ("后天晚上我有约吗", "后天晚上你没有任何约，随便安排。", "2026-12-03T18:00/2026-12-04T00:00"),
    ("下礼拜三忙吗", "下礼拜三挺闲的。", "2026-12-09T00:00/2026-12-10T00:00"),
    ("这周六白天能出去玩吗", "周六白天没事，晚上有个聚餐。", "2026-12-05T00:00/2026-12-06T00:00"),
    ("12月4号下午呢", "那天下午就一个看牙。", "2026-12-04T12:00/2026-12-04T18:00"),
    ("下周二到周四排满了没", "下周二到周四都还空着。", "2026-12-08T00:00/2026-12-11T00:00"),
    ("下回组会啥时候", "下回组会在下周三上午十点。", "search:组会"),
    ("what do I have on Friday afternoon?", "Friday afternoon is just the dentist.", "2026-12-04T12:00/2026-12-04T18:00"),
    ("is next Tuesday clear?", "Next Tuesday looks totally clear.", "2026-12-08T00:00/2026-12-09T00:00"),
    ("anything Saturday night?", "Saturday night you've got family dinner at six.", "2026-12-05T18:00/2026-12-06T00:00"),
    (
        "how's Tuesday through Thursday next week looking",
        "Pretty quiet, only the team meeting.",
        "2026-12-08T00:00/2026-12-11T00:00",
    ),
    ("when's my next standup", "Your next standup is Thursday at 9.", "search:standup"),
    ("what's on the 9th", "The 9th has the team meeting at 10.", "2026-12-09T00:00/2026-12-10T00:00"),
]
#: (user, harmless reply): nothing replaced; a facts card is reported, not forbidden
HARMLESS: list[tuple[str, str]] = [
    ("明天要早起吗", "要不要我帮你看看明天最早的安排？"),
    ("周五晚上想去看电影", "好呀，想看哪一部？需要我记进日历吗？"),
    ("下周三是我妈生日", "提前祝阿姨生日快乐！要设个提醒吗？"),
    ("谢谢，先这样", "好的，有需要再叫我。"),
    ("should I book the flight for Thursday?", "If Thursday works for you, booking early is usually cheaper."),
    ("thanks, that's all", "You're welcome!"),
    ("what's 3pm in London?", "3pm here is 7am in London."),
    ("remind me what day the 25th is", "The 25th is a Friday."),
]
#: (message, the wrong call): two events share the words, no day or time separates them
SHARED: list[tuple[str, list[dict[str, Any]]]] = [
    ("网球课改到七点", U(targetTitle="网球课", targetDate="W7", newTime="19:00")),
    ("那个钢琴课删掉", D(targetTitle="钢琴课", targetDate="W6")),
    ("接孩子推迟十五分钟", U(targetTitle="接孩子", targetDate="W3", newTime="16:45")),
    ("组会挪到四点", U(targetTitle="组会", targetDate="W3+1", newTime="16:00")),
    ("drop tennis", D(targetTitle="tennis", targetDate="W4")),
    ("piano lesson at 4 instead", U(targetTitle="piano lesson", targetDate="W3", newTime="16:00")),
]
#: (message, the right call, outcome): the day or time said separates them
SEPARATED: list[tuple[str, list[dict[str, Any]], str]] = [
    ("周日的网球课改到七点", U(targetTitle="网球课", targetDate="W7", newTime="19:00"), "updated"),
    ("周六那节钢琴课删掉", D(targetTitle="钢琴课", targetDate="W6"), "deleted"),
    ("下午六点那节网球课改到七点", U(targetTitle="网球课", targetTime="18:00", newTime="19:00"), "updated"),
    ("delete Saturday's piano lesson", D(targetTitle="piano lesson", targetDate="W6"), "deleted"),
]


def _case(
    case_id: str, user: str, script: list[dict[str, Any]], expect: dict[str, Any], fixtures: dict[str, Any]
) -> dict[str, Any]:
    turn = {"user": user, "script": script, "expect": expect}
    return {"id": case_id, "group": "facts_heldout", "now": NOW, "tz": TZ, "turns": [turn], "fixtures": fixtures}


def cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n, (user, reply, answers) in enumerate(CLAIMS, 1):
        events = R.EVENTS_EN if user.isascii() else R.EVENTS_ZH
        expect = {"marked": True, "tools": [], "store": NOTHING, "answers": answers}
        out.append(_case(f"facts_heldout.claim-{n:03d}", user, [{"content": reply}], expect, {"events": events}))
    for n, (user, reply) in enumerate(HARMLESS, 1):
        events = R.EVENTS_EN if user.isascii() else R.EVENTS_ZH
        expect = {"guard": None, "outcome": "chat", "reply_contains": [reply], "store": NOTHING}
        out.append(_case(f"facts_heldout.harmless-{n:03d}", user, [{"content": reply}], expect, {"events": events}))
    for n, (user, calls) in enumerate(SHARED, 1):
        fixtures = {"calendars": E.CALENDARS, "events": E.EVENTS_EN if user.isascii() else E.EVENTS_ZH}
        expect = {"outcome": "edit_choice", "store": NOTHING}
        out.append(_case(f"facts_heldout.shared-{n:03d}", user, [{"tool_calls": calls}], expect, fixtures))
    for n, (user, calls, outcome) in enumerate(SEPARATED, 1):
        fixtures = {"calendars": E.CALENDARS, "events": E.EVENTS_EN if user.isascii() else E.EVENTS_ZH}
        out.append(
            _case(
                f"facts_heldout.separated-{n:03d}",
                user,
                [{"tool_calls": calls}],
                {"outcome": outcome, "model_calls": 1},
                fixtures,
            )
        )
    return out


def main() -> None:
    from agent.evals.cases import load_cases
    from agent.evals.expect import check
    from agent.evals.runner import run_case

    OUT.mkdir(parents=True, exist_ok=True)
    rows = cases()
    (OUT / "facts_heldout.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows), encoding="utf-8")
    cards = 0
    for case in load_cases("offline", group="facts_heldout"):
        run = run_case(case)
        cards += case.id.startswith("facts_heldout.harmless") and run.turns[0].facts is not None
        problems = check(run)
        print(("FAIL " if problems else "ok   ") + case.id, run.turns[0].outcome, repr(run.turns[0].reply[:50]), problems[:1])
    print(f"harmless replies with a facts card: {cards}/{len(HARMLESS)}")


if __name__ == "__main__":
    main()
