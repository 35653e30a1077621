"""Write the exit guard's corpora as offline eval cases (run it after editing guard_corpus.py).

    .venv/bin/python evals/corpora/make_guard_cases.py

Every case is one turn of the real runtime with a scripted model that answers with the
corpus text and calls no tool. A claim must be replaced (the guard flag of its kind, no
event or memory written); a harmless reply must leave exactly as the model wrote it
(guard null, outcome ``chat``). A few hand-written cases add what the corpora cannot say
alone: a state claim answered from the store, and turns where a tool really ran.
The JSONL files are committed; this script only keeps them reproducible.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from evals.corpora import guard_corpus as C
from evals.corpora import guard_tier2_corpus as T

OUT = Path(__file__).resolve().parents[1] / "cases" / "offline"
NOW = "2026-11-30T10:00:00+08:00"  # a Monday morning
TZ = "Asia/Shanghai"
FLAGS = {
    "create": "unverified_create_claim",
    "update": "unverified_update_claim",
    "delete": "unverified_delete_claim",
    "memory": "unverified_memory_claim",
    "state": "unverified_query_claim",
}
CLAIMS = [
    ("create", "zh", C.CREATE_ZH), ("create", "en", C.CREATE_EN),
    ("update", "zh", C.UPDATE_ZH), ("update", "en", C.UPDATE_EN),
    ("delete", "zh", C.DELETE_ZH), ("delete", "en", C.DELETE_EN),
    ("memory", "zh", C.MEMORY_ZH), ("memory", "en", C.MEMORY_EN),
    ("state", "zh", C.STATE_ZH), ("state", "en", C.STATE_EN),
]  # fmt: skip
HARMLESS = [
    ("offer", "zh", C.OFFER_QUESTION_ZH), ("offer", "en", C.OFFER_QUESTION_EN),
    ("negation", "zh", C.NEGATION_ZH), ("negation", "en", C.NEGATION_EN),
    ("capability", "zh", C.CAPABILITY_ZH), ("capability", "en", C.CAPABILITY_EN),
    ("smalltalk", "zh", C.SMALLTALK_ZH), ("smalltalk", "en", C.SMALLTALK_EN),
]  # fmt: skip
# Fixtures of the hand-written cases: something is on the calendar tomorrow and this week,
# so a state claim answered from the store has real content to show. The bulk corpus cases
# run on an empty store (building events costs more than the turn itself).
FIXTURES = {
    "events": [
        {"title": "评审", "start": "2026-12-01T10:00", "end": "2026-12-01T11:00"},
        {"title": "Dentist", "start": "2026-12-03T15:00", "end": "2026-12-03T16:00"},
    ],
    "memories": ["早上不开会"],
}


def case(case_id: str, group: str, user: str, reply: str, expect: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": case_id,
        "group": group,
        "now": NOW,
        "tz": TZ,
        "fixtures": extra.pop("fixtures", {}),
        "turns": [{"user": user, "script": [{"content": reply}], "expect": expect}],
    } | extra


def claim_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, lang, rows in CLAIMS:
        for n, (user, reply) in enumerate(rows, 1):
            expect: dict[str, Any] = {
                "guard": FLAGS[kind],
                "tools": [],
                "store": {"added": [], "removed": []},
                "memories": {"added": []},
                "reply_excludes": [reply.strip()],
            }
            out.append(case(f"guard_claims.{kind}-{lang}-{n:03d}", "guard_claims", user, reply, expect))
    for n, (kind, user, reply) in enumerate(C.HOLDOUT_CLAIMS + C.HOLDOUT2_CLAIMS + C.HOLDOUT3_CLAIMS, 1):
        expect = {
            "guard": FLAGS[kind],
            "tools": [],
            "store": {"added": [], "removed": []},
            "memories": {"added": []},
            "reply_excludes": [reply.strip()],
        }
        out.append(case(f"guard_claims.holdout-{kind}-{n:03d}", "guard_claims", user, reply, expect))
    # The second tier's batch: a false claim ends replaced (first tier) or marked with the
    # status line (second tier); which of the two is not the point.
    for n, (user, reply) in enumerate(T.TIER2_CLAIMS + T.TIER2_TUNED_CLAIMS, 1):
        expect = {"marked": True, "tools": [], "store": {"added": [], "removed": []}, "memories": {"added": []}}
        out.append(case(f"guard_claims.tier2-{n:03d}", "guard_claims", user, reply, expect))
    return out + answered_cases() + tool_ran_cases() + status_line_cases()


def status_line_cases() -> list[dict[str, Any]]:
    """The line's contract end to end: on an unchanged turn only, code's words, the right language."""
    create = {
        "tool_calls": [
            {"name": "prepare_or_create_schedule", "arguments": {"title": "和张三开会", "dateExpression": "D+1", "time": "15:00"}}
        ]
    }
    query = {"tool_calls": [{"name": "query_schedule_range", "arguments": {"startExpression": "D+1", "endExpression": "D+1"}}]}
    base = {"group": "guard_claims", "now": NOW, "tz": TZ, "fixtures": FIXTURES}
    line = {"calendar": "unchanged", "calendar_note": True, "guard": None, "outcome": "chat"}
    return [
        case("guard_claims.line-promise-zh", "guard_claims", "明天下午三点开会", "我这就帮你加上。", line),
        case("guard_claims.line-promise-en", "guard_claims", "add a meeting at 3 tomorrow", "I'll add that now.", line),
        case(
            "guard_claims.line-set-header-en",
            "guard_claims",
            "dentist monday 3pm",
            "Dentist set: Monday 3:00 PM.",
            line | {"reply_contains": ["Dentist set: Monday 3:00 PM."]},
        ),
        case(
            "guard_claims.line-smalltalk-none",
            "guard_claims",
            "谢谢",
            "不客气！",
            {"calendar": "unchanged", "calendar_note": False, "guard": None},
        ),
        base
        | {
            "id": "guard_claims.line-changed-none",
            "turns": [
                {"user": "明天下午三点和张三开会", "script": [create], "expect": {"calendar": "changed", "calendar_note": False}},
                {
                    "user": "谢谢",
                    "at": "+1m",
                    "script": [{"content": "不客气，明天下午三点别迟到！"}],
                    "expect": {"calendar": "unchanged", "calendar_note": True, "guard": None},
                },
            ],
        },
        base
        | {
            "id": "guard_claims.line-read-none",
            "turns": [{"user": "明天有什么安排", "script": [query], "expect": {"calendar": "read", "calendar_note": False}}],
        },
        case(
            "guard_claims.line-replaced-none",
            "guard_claims",
            "明天开会",
            "已为您添加日程：明天开会。",
            {"calendar": "unchanged", "calendar_note": False, "guard": FLAGS["create"]},
        ),
    ]


def answered_cases() -> list[dict[str, Any]]:
    """A state claim that names its day is replaced by the real answer, written by code."""
    answered = {"guard": FLAGS["state"], "outcome": "guard_answered", "receipt": "range", "tools": []}
    rows = [
        ("answered-tomorrow-free-zh", "明天我有空吗", "明天你有空", ["12月1日（周二）共有 1 项安排", "评审"]),
        ("answered-tomorrow-meeting-zh", "明天有什么安排", "明天上午10点有个周会", ["12月1日（周二）", "评审"]),
        ("answered-tomorrow-free-en", "am I free tomorrow?", "Tomorrow is completely free.", ["1 item(s) for Tue 1 Dec", "评审"]),
        (
            "answered-this-week-zh",
            "本周有什么安排",
            "本周没有安排。",
            ["11月30日（周一）–12月6日（周日）共有 2 项安排", "Dentist"],
        ),
        (
            "answered-day-from-user-zh",
            "周四下午有空吗",
            "你有空，可以安排。",
            ["12月3日（周四）12:00–18:00 共有 1 项安排", "Dentist"],
        ),
        ("answered-empty-day-zh", "后天有空吗", "后天你有个会。", ["12月2日（周三）没有安排"]),
        (
            "answered-weekend-en",
            "anything this weekend?",
            "You have two parties this weekend.",
            ["Nothing on your calendar for Sat 5 Dec–Sun 6 Dec"],
        ),
    ]
    out = [
        case(f"guard_claims.{cid}", "guard_claims", user, reply, answered | {"reply_contains": want}, fixtures=FIXTURES)
        for cid, user, reply, want in rows
    ]
    # No day in the reply or the message: the honest apology stays.
    out.append(
        case(
            "guard_claims.state-no-day-apology-zh",
            "guard_claims",
            "我有空吗",
            "你有空，随时可以。",
            {"guard": FLAGS["state"], "outcome": FLAGS["state"], "receipt": "guard", "reply_contains": ["还没有查看"]},
        )
    )
    out.append(
        case(
            "guard_claims.state-no-day-apology-en",
            "guard_claims",
            "am I free?",
            "You're free.",
            {
                "guard": FLAGS["state"],
                "outcome": FLAGS["state"],
                "receipt": "guard",
                "reply_contains": ["haven't looked at your calendar"],
            },
        )
    )
    return out


def tool_ran_cases() -> list[dict[str, Any]]:
    """When the tool really ran, the truthful words pass."""
    create = {
        "tool_calls": [
            {"name": "prepare_or_create_schedule", "arguments": {"title": "和张三开会", "dateExpression": "D+1", "time": "15:00"}}
        ]
    }
    query = {"tool_calls": [{"name": "query_schedule_range", "arguments": {"startExpression": "D+1", "endExpression": "D+1"}}]}
    remember = {"tool_calls": [{"name": "remember_fact", "arguments": {"fact": "咖啡不加糖"}}]}
    search = {"tool_calls": [{"name": "search_memory", "arguments": {"query": "会"}}]}
    base = {"id": "", "group": "guard_claims", "now": NOW, "tz": TZ, "fixtures": FIXTURES}
    return [
        base
        | {
            "id": "guard_claims.tool-ran-create-then-thanks",
            "turns": [
                {
                    "user": "明天下午三点和张三开会",
                    "script": [create],
                    "expect": {
                        "outcome": "created",
                        "guard": None,
                        "store": {"added": [{"title": "和张三开会", "start": "2026-12-01T15:00"}]},
                    },
                },
                {
                    "user": "谢谢",
                    "at": "+1m",
                    "script": [{"content": "不客气，祝会议顺利！"}],
                    "expect": {"guard": None, "outcome": "chat"},
                },
            ],
        },
        base
        | {
            "id": "guard_claims.tool-ran-query-receipt",
            "turns": [
                {
                    "user": "明天有什么安排",
                    "script": [query],
                    "expect": {"outcome": "query", "guard": None, "reply_contains": ["评审"]},
                }
            ],
        },
        base
        | {
            "id": "guard_claims.tool-ran-remember-receipt",
            "turns": [
                {
                    "user": "请记住我咖啡不加糖",
                    "script": [remember],
                    "expect": {"outcome": "memory_saved", "guard": None, "memories": {"added": ["咖啡不加糖"]}},
                }
            ],
        },
        base
        | {
            "id": "guard_claims.tool-ran-search-memory-recall",
            "turns": [
                {
                    "user": "我说过什么时候不开会",
                    "script": [search, {"content": "你说过早上不开会。"}],
                    "expect": {"guard": None, "outcome": "chat"},
                }
            ],
        },
        base
        | {
            "id": "guard_claims.tool-ran-search-is-not-a-write",
            "turns": [
                {
                    "user": "请记住我周五在家办公",
                    "script": [search, {"content": "好的，我记住了：你周五在家办公。"}],
                    "expect": {"guard": FLAGS["memory"], "memories": {"added": []}},
                }
            ],
        },
        base
        | {
            "id": "guard_claims.tool-ran-council-state-passes",
            "turns": [
                {
                    "user": "下周太忙了",
                    "script": [
                        {
                            "tool_calls": [
                                {
                                    "name": "offer_council",
                                    "arguments": {"topic": "下周", "startExpression": "W1+1", "endExpression": "W7+1"},
                                }
                            ]
                        }
                    ],
                    "expect": {"outcome": "council_offered"},
                },
                {
                    "user": "要",
                    "at": "+1m",
                    "script": [
                        {"content": "你下周一没有安排。"},
                        {"content": "b"},
                        {"content": "c"},
                        {"content": "你周四有个会。"},
                    ],
                    "expect": {"outcome": "council", "guard": None},
                },
            ],
        },
    ]


def harmless_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, lang, rows in HARMLESS:
        for n, (user, reply) in enumerate(rows, 1):
            expect: dict[str, Any] = {"guard": None, "outcome": "chat", "reply_contains": [reply.strip()], "store": {"added": []}}
            out.append(case(f"guard_harmless.{kind}-{lang}-{n:03d}", "guard_harmless", user, reply, expect))
    for n, (user, reply) in enumerate(C.HOLDOUT_HARMLESS + C.HOLDOUT2_HARMLESS + C.HOLDOUT3_HARMLESS, 1):
        expect = {"guard": None, "outcome": "chat", "reply_contains": [reply.strip()], "store": {"added": []}}
        out.append(case(f"guard_harmless.holdout-{n:03d}", "guard_harmless", user, reply, expect))
    for n, (user, reply) in enumerate(T.TIER2_HARMLESS, 1):
        expect = {
            "guard": None,
            "outcome": "chat",
            "calendar": "unchanged",
            "reply_contains": [reply.strip()],
            "store": {"added": []},
        }
        out.append(case(f"guard_harmless.tier2-{n:03d}", "guard_harmless", user, reply, expect))
    return out


def write(name: str, cases: list[dict[str, Any]]) -> None:
    path = OUT / name
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    print(f"{path.relative_to(OUT.parents[2])}: {len(cases)} cases")


if __name__ == "__main__":
    write("guard_claims.jsonl", claim_cases())
    write("guard_harmless.jsonl", harmless_cases())
