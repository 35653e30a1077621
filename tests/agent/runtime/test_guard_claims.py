"""The claim detector and the facts that back each kind; the state answer read from the store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agent.models.script_backend import ScriptedModel
from agent.runtime.claims import CREATE, DELETE, MEMORY, STATE, UPDATE, find_claims, normalize
from agent.runtime.guard import (
    ANSWERED,
    UNVERIFIED_CREATE,
    UNVERIFIED_DELETE,
    UNVERIFIED_MEMORY,
    UNVERIFIED_QUERY,
    UNVERIFIED_UPDATE,
    TurnFacts,
    check_reply,
)
from agent.runtime.state_answer import answer_state_claim, named_span
from agent.runtime.turn import Assistant
from agent.services.archive import ArchiveService
from agent.services.calendars import CalendarService
from agent.services.command_types import WriteFacts
from agent.services.queries import QueryService, RangeResult
from agent.store.changes import ChangeSet
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI, ctx_at

CTX = ctx_at(NOW)  # Monday 2026-11-30 10:00, Asia/Shanghai


def kinds(text: str) -> list[str]:
    return [claim.kind for claim in find_claims(text)]


# ---- the examples issue 10 found leaking, and the harmless ones it found replaced ---------

ISSUE_CLAIMS = [
    ("好的，已经帮你把和张三的会议加到日历里了。", CREATE),
    ("已为您添加日程：明天 15:00 和张三开会。", CREATE),
    ("写进日历了", CREATE),
    ("收到，这个会已经在你的日历上了", CREATE),
    ("Got it, it's on the calendar.", CREATE),
    ("帮你记上了", CREATE),
    ("排上了！", CREATE),
    ("已改好", UPDATE),
    ("好的，已经挪到下周一了。", UPDATE),
    ("Moved it to Thursday.", UPDATE),
    ("I've rescheduled the dentist.", UPDATE),
    ("已删除所有日程。", DELETE),
    ("好的，周五的健身已经删掉了。", DELETE),
    ("The meeting has been cancelled.", DELETE),
    ("记住了，你的咖啡不加糖。", MEMORY),
    ("明天你有空", STATE),
    ("明天上午10点有个周会", STATE),
    ("Tomorrow is completely free.", STATE),
    ("本周没有安排。", STATE),
]


@pytest.mark.parametrize(("text", "kind"), ISSUE_CLAIMS)
def test_issue_claims_are_found_with_their_kind(text: str, kind: str) -> None:
    assert kinds(text)[:1] == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "我可以帮你创建日程、查询安排…",
        "没有安排的周末最适合休息了",
        "那次会议已经安排得很好了，辛苦了！",
        "要我帮你加到日历吗？",
        "What time should I put it in for?",
        "我还没有把它加到日历",
        "你已经把会议取消了，那下午就可以休息一下了。",
        "I haven't added anything yet.",
        "有空的时候多出去走走。",
        "听起来你这周很忙，注意身体。",
        "If you're free tomorrow, call me.",
    ],
)
def test_offers_questions_negations_capabilities_and_empathy_are_not_claims(text: str) -> None:
    assert find_claims(text) == []


def test_the_last_verb_of_a_ba_construction_decides_the_kind() -> None:
    assert kinds("我把牙医预约改到下周三了。") == [UPDATE]
    assert kinds("好的，牙医预约已经去掉了。") == [DELETE]


def test_quoted_titles_are_not_the_assistant_speaking() -> None:
    assert "午休不安排会议" not in normalize("已将“午休不安排会议”存入记忆。")
    assert kinds("已将“午休不安排会议”存入记忆。") == [MEMORY]


def test_generic_completion_takes_the_kind_of_its_reply() -> None:
    assert kinds("Done, I cancelled Friday's gym session.") == [DELETE]
    assert kinds("搞定！") == [CREATE]


def test_detector_never_raises_on_odd_input() -> None:
    for text in ["", "   ", "\x00\x01", "？？？", "a" * 20000, "了" * 5000, None]:
        assert isinstance(find_claims(text), list)  # type: ignore[arg-type]


# ---- each kind needs its own fact -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "flag", "backing"),
    [
        ("已为你创建日程。", UNVERIFIED_CREATE, TurnFacts(created=True)),
        ("已改到周四。", UNVERIFIED_UPDATE, TurnFacts(updated=True)),
        ("已删除。", UNVERIFIED_DELETE, TurnFacts(deleted=True)),
        ("记住了。", UNVERIFIED_MEMORY, TurnFacts(remembered=True)),
        ("明天你有空。", UNVERIFIED_QUERY, TurnFacts(read=True)),
        ("It's on your calendar.", UNVERIFIED_CREATE, TurnFacts(read=True)),  # presence: a read backs it too
    ],
)
def test_a_claim_passes_only_with_its_own_fact(text: str, flag: str, backing: TurnFacts) -> None:
    assert check_reply(text, TurnFacts(), "zh").flag == flag
    assert check_reply(text, backing, "zh").flag is None


def test_a_create_does_not_back_a_delete_or_a_move() -> None:
    assert check_reply("已删除周五的健身。", TurnFacts(created=True), "zh").flag == UNVERIFIED_DELETE
    assert check_reply("Moved it to Friday.", TurnFacts(created=True, remembered=True), "en").flag == UNVERIFIED_UPDATE
    assert check_reply("明天你有空", TurnFacts(created=True), "zh").flag == UNVERIFIED_QUERY


def test_facts_come_from_the_services_records() -> None:
    written = WriteFacts(changes=ChangeSet(deleted=[object()]))  # type: ignore[list-item]
    facts = TurnFacts.of(written, SimpleNamespace(saved=[]), read=False)
    assert facts.deleted and not facts.created and not facts.remembered
    assert TurnFacts.of(WriteFacts(event_ids=[3]), None, read=True) == TurnFacts(created=True, read=True)


def test_a_write_claim_outranks_a_state_claim_in_one_reply() -> None:
    verdict = check_reply("明天你有空，我已经帮你加上了。", TurnFacts(), "zh")
    assert verdict.flag == UNVERIFIED_CREATE and {c.kind for c in verdict.claims} == {CREATE, STATE}


# ---- the state answer, from the store --------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    db = Store(tmp_path / "guard.sqlite3")  # a real SQLite file, as the app uses
    yield db
    db.close()


@pytest.fixture
def profile_id(store: Store) -> int:
    return ensure_profile(store)


def _event(store: Store, profile_id: int, title: str, start: datetime, end: datetime) -> None:
    with store.transaction():
        EventRepo(store, profile_id).save(build_event(title, start, end), CalendarService(store, profile_id).default().id, "user")


@pytest.mark.parametrize(
    ("text", "span"),
    [("明天你有空", ("D+1", "D+1")), ("tomorrow is completely free.", ("D+1", "D+1")), ("本周没有安排。", ("W1+0", "W7+0")),
     ("下周很空", ("W1+1", "W7+1")), ("你今晚没有其他安排了", ("D+0", "D+0")), ("12月5日你有个体检", ("12-05", "12-05")),
     ("周一和周五都有会", ("W1", "W5")), ("next month is packed", ("M+1", "M+1")), ("你有空", None), ("summon the month", None)],
)  # fmt: skip
def test_named_span_reads_days_with_the_projects_parser(text: str, span: tuple[str, str] | None) -> None:
    assert named_span(text, CTX) == span


def _bot(store: Store, profile_id: int, reply: str) -> Assistant:
    return Assistant(store, profile_id, ScriptedModel([{"content": reply}]), tz="Asia/Shanghai")


def test_state_claim_is_replaced_by_the_real_answer_for_tomorrow(store: Store, profile_id: int) -> None:
    _event(store, profile_id, "评审", datetime(2026, 12, 1, 10, tzinfo=SHANGHAI), datetime(2026, 12, 1, 11, tzinfo=SHANGHAI))
    result = _bot(store, profile_id, "明天你有空").turn("明天我有空吗", CTX)
    assert result.guard == UNVERIFIED_QUERY and result.outcome == ANSWERED and result.tools == []
    assert result.reply.startswith("12月1日（周二）共有 1 项安排") and "评审" in result.reply and "你有空" not in result.reply
    assert isinstance(result.receipt, RangeResult) and [e.title for e in result.receipt.events] == ["评审"]
    archived = ArchiveService(store, profile_id).recent()
    assert archived[-1].content == result.reply  # only the answer is kept, never the claim
    row = store.conn.execute("SELECT outcome, guard, data FROM observations ORDER BY id DESC LIMIT 1").fetchone()
    assert (row["outcome"], row["guard"]) == (ANSWERED, UNVERIFIED_QUERY) and '"guard_answer"' in row["data"]


def test_state_claim_without_a_day_falls_back_to_the_message_then_to_the_apology(store: Store, profile_id: int) -> None:
    result = _bot(store, profile_id, "你有空，可以安排。").turn("周四下午有空吗", CTX)
    # the afternoon the user named, not the whole day (issue 30: day_range reads the period)
    assert result.outcome == ANSWERED and result.reply.startswith("12月3日（周四）12:00–18:00 没有安排")
    result = _bot(store, profile_id, "You're free.").turn("am I free?", CTX)
    assert result.outcome == UNVERIFIED_QUERY and "haven't looked at your calendar" in result.reply


def test_answer_is_none_for_a_span_too_long_to_be_the_day_it_names(store: Store, profile_id: int) -> None:
    claims = find_claims("今天和3月1日你都有空")
    assert named_span(claims[0].clause, CTX) is None  # 11-30 .. 2027-03-01: 92 days
    assert answer_state_claim(QueryService(store, profile_id, CTX), CTX, claims, "", "zh") is None


def test_write_claim_replacement_leaves_the_store_unchanged(store: Store, profile_id: int) -> None:
    before: Any = store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    result = _bot(store, profile_id, "好的，周五的健身已经删掉了。").turn("把周五的健身删了", CTX)
    assert result.guard == UNVERIFIED_DELETE and "没有删除" in result.reply
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before
