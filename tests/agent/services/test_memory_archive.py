"""MemoryService (remember/forget/list/search, trigram + LIKE) and ArchiveService
(server-side stamps, the recent segment, search)."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.errors import NotFoundError, ValidationError
from agent.services import archive as archive_module
from agent.services.archive import ArchiveService
from agent.services.memory import MAX_MEMORY, MemoryService
from agent.store.db import Store
from agent.store.profiles import ensure_profile

T0 = datetime(2026, 11, 30, 2, 0, tzinfo=UTC)


@pytest.fixture
def mem(store: Store, profile_id: int) -> MemoryService:
    return MemoryService(store, profile_id)


# ---- memory ------------------------------------------------------------------------------------


def test_remember_list_forget(mem: MemoryService, store: Store) -> None:
    a = mem.remember("  咖啡不加糖  ")
    b = mem.remember("生日是\n三月五号")
    assert a.text == "咖啡不加糖" and b.text == "生日是 三月五号"
    assert datetime.fromisoformat(a.created_at).tzinfo is not None
    assert mem.saved == [a.id, b.id]
    assert [m.text for m in mem.list()] == ["生日是 三月五号", "咖啡不加糖"]  # newest first
    assert mem.forget(a.id) == a
    assert [m.id for m in mem.list()] == [b.id]
    assert mem.search("不加糖") == []  # the FTS index forgot it too
    with pytest.raises(NotFoundError):
        mem.forget(a.id)
    assert store.conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == 1


def test_remember_is_idempotent(mem: MemoryService) -> None:
    first = mem.remember("住在杭州")
    again = mem.remember("住在杭州 ")
    assert again.id == first.id and mem.saved == [first.id]
    assert len(mem.list()) == 1


def test_remember_validation(mem: MemoryService) -> None:
    with pytest.raises(ValidationError):
        mem.remember("   \n ")
    with pytest.raises(ValidationError):
        mem.remember("x" * (MAX_MEMORY + 1))
    assert mem.remember("x" * MAX_MEMORY).text == "x" * MAX_MEMORY
    assert mem.saved and len(mem.list()) == 1


def test_list_limit(mem: MemoryService) -> None:
    for i in range(5):
        mem.remember(f"fact {i}")
    assert [m.text for m in mem.list(limit=2)] == ["fact 4", "fact 3"]


def test_search_chinese_substrings(mem: MemoryService) -> None:
    coffee = mem.remember("咖啡不加糖")
    mem.remember("喜欢喝茶")
    assert [m.id for m in mem.search("不加糖")] == [coffee.id]  # trigram FTS
    assert [m.id for m in mem.search("咖啡")] == [coffee.id]  # 2 chars: LIKE fallback
    assert [m.id for m in mem.search("糖")] == [coffee.id]  # 1 char
    assert mem.search("不加奶") == []
    assert mem.search("   ") == []


def test_search_any_term_newest_first(mem: MemoryService) -> None:
    tea = mem.remember("喜欢喝茶")
    coffee = mem.remember("咖啡不加糖")
    mem.remember("住在杭州")
    assert [m.id for m in mem.search("咖啡 喝茶")] == [coffee.id, tea.id]
    assert [m.id for m in mem.search("不加糖 喜欢喝")] == [coffee.id, tea.id]


def test_search_is_case_insensitive_for_latin(mem: MemoryService) -> None:
    m = mem.remember("Prefers Oat Milk")
    assert [x.id for x in mem.search("oat milk")] == [m.id]
    assert [x.id for x in mem.search("OA")] == [m.id]


def test_search_like_wildcards_are_literal(mem: MemoryService) -> None:
    mem.remember("abc")
    pct = mem.remember("100% sure")
    assert [m.id for m in mem.search("%")] == [pct.id]
    assert mem.search("_") == []


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '""',
        '"咖啡',
        "AND",
        "OR",
        "NOT",
        "NEAR",
        "a AND b",
        "咖啡*",
        "*",
        "-",
        "-咖啡",
        "^abc",
        "col:abc",
        "(abc",
        "abc)",
        "{a b}",
        "'; DROP TABLE memories; --",
        "\\",
        "%",
        "a\x00b",
        "NEAR(a b)",
        "text:咖啡",
    ],
)
def test_search_syntax_characters_never_raise(mem: MemoryService, query: str) -> None:
    mem.remember('咖啡不加糖 AND "quoted" a-b *star*')
    result = mem.search(query)
    assert isinstance(result, list)


def test_search_quotes_and_operators_match_literally(mem: MemoryService) -> None:
    quoted = mem.remember('他说"明天见"然后走了')
    ops = mem.remember("A AND B OR C")
    mem.remember("nothing here")
    assert [m.id for m in mem.search('"明天见"')] == [quoted.id]
    assert [m.id for m in mem.search("AND")] == [ops.id]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
def test_any_memory_query_never_raises(mem: MemoryService, query: str) -> None:
    mem.remember("咖啡不加糖")
    assert isinstance(mem.search(query), list)


# ---- archive -----------------------------------------------------------------------------------


def archive_at(store: Store, pid: int, when: datetime) -> ArchiveService:
    return ArchiveService(store, pid, clock=when)


def test_append_uses_server_side_time(store: Store, profile_id: int) -> None:
    msg = archive_at(store, profile_id, T0).append("user", "你好", meta={"turn": 1})
    assert msg.created_at == T0 and msg.meta == {"turn": 1}
    row = store.conn.execute("SELECT created_at, meta FROM messages").fetchone()
    assert datetime.fromisoformat(row["created_at"]) == T0
    # the caller has no way to choose a timestamp
    assert "created_at" not in inspect.signature(ArchiveService.append).parameters
    with pytest.raises(TypeError):
        ArchiveService(store, profile_id).append("user", "x", created_at="2000-01-01")  # type: ignore[call-arg]
    sneaky = ArchiveService(store, profile_id, clock=T0).append("user", "x", meta={"created_at": "2000-01-01"})
    assert sneaky.created_at == T0


def test_append_without_clock_uses_real_now(store: Store, profile_id: int) -> None:
    before = datetime.now(UTC)
    msg = ArchiveService(store, profile_id).append("assistant", "ok")
    after = datetime.now(UTC)
    assert before <= msg.created_at <= after and msg.created_at.tzinfo is not None


def test_append_rejects_unknown_role(store: Store, profile_id: int) -> None:
    with pytest.raises(ValidationError):
        ArchiveService(store, profile_id, clock=T0).append("tool", "x")
    assert store.conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0


def _conversation(store: Store, pid: int, minutes: list[int]) -> list[int]:
    return [archive_at(store, pid, T0 + timedelta(minutes=m)).append("user", f"m{m}").id for m in minutes]


def test_segment_after_last_long_silence(store: Store, profile_id: int) -> None:
    assert archive_module.SESSION_GAP_MINUTES == 120
    _conversation(store, profile_id, [0, 10, 200, 230, 300])  # 190-minute gap after m10
    now = archive_at(store, profile_id, T0 + timedelta(minutes=310))
    kept, older = now.segment()
    assert [m.content for m in kept] == ["m200", "m230", "m300"]
    assert older == 2


def test_segment_gap_boundary(store: Store, profile_id: int) -> None:
    _conversation(store, profile_id, [0, 120, 241])  # exactly 120 keeps; 121 breaks
    kept, older = archive_at(store, profile_id, T0 + timedelta(minutes=241)).segment()
    assert [m.content for m in kept] == ["m241"] and older == 2
    kept, _ = archive_at(store, profile_id, T0 + timedelta(minutes=241)).segment(gap_minutes=121)
    assert [m.content for m in kept] == ["m0", "m120", "m241"]


def test_segment_empty_after_long_silence(store: Store, profile_id: int) -> None:
    _conversation(store, profile_id, [0, 5])
    assert archive_at(store, profile_id, T0 + timedelta(minutes=60)).segment()[0] != []
    kept, older = archive_at(store, profile_id, T0 + timedelta(minutes=5 + 121)).segment()
    assert kept == [] and older == 2


def test_segment_limit(store: Store, profile_id: int) -> None:
    _conversation(store, profile_id, list(range(10)))
    kept, older = archive_at(store, profile_id, T0 + timedelta(minutes=10)).segment(limit=3)
    assert [m.content for m in kept] == ["m7", "m8", "m9"] and older == 7


def test_segment_breaks(store: Store, profile_id: int) -> None:
    _conversation(store, profile_id, [0, 10, 200, 230, 400])
    archive = ArchiveService(store, profile_id, clock=T0)
    assert archive.segment_breaks(archive.recent()) == [2, 4]


def test_recent_in_time_order(store: Store, profile_id: int) -> None:
    _conversation(store, profile_id, [30, 0, 10])  # appended out of order by clock
    assert [m.content for m in ArchiveService(store, profile_id).recent()] == ["m0", "m10", "m30"]


def test_archive_search(store: Store, profile_id: int) -> None:
    a = archive_at(store, profile_id, T0)
    first = a.append("user", "明天下午去修汽车轮毂")
    archive_at(store, profile_id, T0 + timedelta(minutes=1)).append("assistant", "好的，已经记下")
    assert [m.id for m in a.search("汽车轮毂")] == [first.id]
    assert [m.id for m in a.search("轮毂")] == [first.id]  # short: LIKE
    assert a.search("自行车") == []
    assert a.search("") == []
    for query in ('"', "AND", "a OR b", "*", "-x", '"汽车"', "NEAR(", "%_", "汽\x00车轮"):
        assert isinstance(a.search(query), list)


def test_last_assistant(store: Store, profile_id: int) -> None:
    a = archive_at(store, profile_id, T0)
    assert a.last_assistant() is None
    a.append("user", "q")
    assert a.last_assistant() is None
    reply = archive_at(store, profile_id, T0 + timedelta(seconds=1)).append("assistant", "a")
    assert a.last_assistant() == reply


def test_archive_isolated_per_profile(store: Store) -> None:
    a = ensure_profile(store, "a")
    b = ensure_profile(store, "b")
    archive_at(store, a, T0).append("user", "秘密计划")
    assert ArchiveService(store, b, clock=T0).search("秘密计划") == []
    assert ArchiveService(store, b, clock=T0).segment() == ([], 0)
