"""The turn engine with the scripted model: every rule of the agent runtime.

The scripted model only replays what a model might say; these tests prove what *code*
does with it (dispatch, receipts, guard, retries, caps, records), not model behaviour.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from typing import Any

from agent.models.script_backend import ScriptedModel
from agent.runtime.turn import MAX_MODEL_CALLS, Assistant
from agent.services.archive import ArchiveService
from agent.services.calendars import CalendarService
from agent.services.commands import CommandService
from agent.services.memory import MemoryService
from agent.services.queries import QueryService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from tests.support.clock import NOW, SHANGHAI, ctx_at


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def event_count(store: Store) -> int:
    return int(store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def assistant(store: Store, profile_id: int, turns: list[dict[str, Any]]) -> tuple[Assistant, ScriptedModel]:
    model = ScriptedModel(turns)
    return Assistant(store, profile_id, model), model


def add_event(store: Store, profile_id: int, title: str, start: Any, end: Any, calendar: str | None = None) -> None:
    calendars = CalendarService(store, profile_id)
    cal = calendars.get(calendar) if calendar else calendars.default()
    with store.transaction():
        EventRepo(store, profile_id).save(build_event(title, start, end), cal.id, "user")


CTX = ctx_at(NOW)


# ---- the three stories -----------------------------------------------------------------


def test_create_story_writes_once_with_one_model_call(store: Store, profile_id: int) -> None:
    bot, model = assistant(
        store, profile_id, [call("prepare_or_create_schedule", title="和张三开会", dateExpression="D+1", time="15:00")]
    )
    result = bot.turn("明天下午三点和张三开会", CTX)
    assert result.outcome == "created" and result.model_calls == 1 and model.calls == 1
    assert result.tools == ["prepare_or_create_schedule"] and result.intent == "create"
    assert result.guard is None
    assert "已创建" in result.reply and "12月1日" in result.reply and "15:00" in result.reply
    assert event_count(store) == 1


def test_query_story_only_reads(store: Store, profile_id: int) -> None:
    add_event(
        store, profile_id, "评审", datetime(2026, 12, 1, 14, 0, tzinfo=SHANGHAI), datetime(2026, 12, 1, 15, 0, tzinfo=SHANGHAI)
    )
    bot, _ = assistant(store, profile_id, [call("query_schedule_range", startExpression="D+1", endExpression="D+1")])
    result = bot.turn("明天下午有什么安排", CTX)
    assert result.outcome == "query" and result.intent == "query_range" and result.model_calls == 1
    assert "评审" in result.reply
    assert event_count(store) == 1


def test_past_tense_remark_touches_nothing(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [{"content": "辛苦了，开会确实很累，早点休息吧。"}])
    result = bot.turn("昨天下午开了个会，好累", CTX)
    assert result.outcome == "chat" and result.tools == [] and result.intent == "general.chat"
    assert result.guard is None and event_count(store) == 0


def test_past_tense_turned_into_create_ends_as_past_time_not_written(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [call("prepare_or_create_schedule", title="开会", dateExpression="D-1", time="15:00")])
    result = bot.turn("昨天下午开了个会，好累", CTX)
    assert result.outcome == "past_time" and event_count(store) == 0


# ---- clarification dispatch --------------------------------------------------------------


def test_weekend_needs_date_then_slot_reply_creates_with_zero_model_calls(store: Store, profile_id: int) -> None:
    bot, model = assistant(store, profile_id, [call("prepare_or_create_schedule", title="修汽车轮毂", dateExpression="WE")])
    first = bot.turn("这个周末去修汽车轮毂", CTX)
    assert first.outcome == "needs_date" and first.candidates == ["2026-12-05", "2026-12-06"]
    assert first.command_id is not None
    second = bot.turn("周日下午2点", CTX)
    assert second.outcome == "created" and second.model_calls == 0 and model.calls == 1
    assert second.intent == "clarification_reply"
    events = QueryService(store, profile_id, CTX).range("2026-12-06", "2026-12-06").events
    assert [(e.title, e.start) for e in events] == [("修汽车轮毂", datetime(2026, 12, 6, 14, 0, tzinfo=SHANGHAI))]


def test_slot_words_without_pending_command_go_to_the_model(store: Store, profile_id: int) -> None:
    bot, model = assistant(store, profile_id, [{"content": "你是想在周日下午2点安排什么呢？"}])
    result = bot.turn("周日下午2点", CTX)
    assert result.model_calls == 1 and model.calls == 1 and event_count(store) == 0


def test_lone_tian_is_not_a_date_reply(store: Store, profile_id: int) -> None:
    bot, model = assistant(
        store, profile_id, [call("prepare_or_create_schedule", title="修车", dateExpression="WE"), {"content": "哪一天呢？"}]
    )
    bot.turn("这个周末修车", CTX)
    result = bot.turn("天", CTX)
    assert result.model_calls == 1 and model.calls == 2 and event_count(store) == 0


def test_parser_patch_overrides_model_slots(store: Store, profile_id: int) -> None:
    bot, _ = assistant(
        store,
        profile_id,
        [call("prepare_or_create_schedule", title="修车", dateExpression="WE"), {"content": "ok"}],
    )
    bot.turn("这个周末修车", CTX)
    CommandService(store, profile_id, CTX).cancel_active()
    bot2, _ = assistant(store, profile_id, [call("prepare_or_create_schedule", title="洗车", dateExpression="D+3", time="09:00")])
    # No stub is active, so the model is called; its date/time lose to the parser's on the same fields.
    result = bot2.turn("周日下午2点", CTX)
    # 洗车 is not in the user's words: the grounding latch asks first; a short yes writes it.
    assert result.outcome == "unconfirmed" and result.model_calls == 1
    result = bot2.turn("是", CTX)
    assert result.outcome == "created" and result.model_calls == 0
    events = QueryService(store, profile_id, CTX).range("W7", "W7").events
    assert [e.title for e in events] == ["洗车"] and events[0].start == datetime(2026, 12, 6, 14, 0, tzinfo=SHANGHAI)


# ---- conflicts -------------------------------------------------------------------------


def vacation(store: Store, profile_id: int) -> None:
    add_event(store, profile_id, "休假", date(2026, 12, 1), date(2026, 12, 4))


def test_conflict_then_create_anyway(store: Store, profile_id: int) -> None:
    vacation(store, profile_id)
    bot, _ = assistant(
        store,
        profile_id,
        [
            call("prepare_or_create_schedule", title="坐飞机回老家", dateExpression="D+1", time="09:00"),
            call("prepare_or_create_schedule", title="坐飞机回老家", dateExpression="D+1", time="09:00", allowConflict=True),
        ],
    )
    first = bot.turn("明天早上九点坐飞机回老家", CTX)
    assert first.outcome == "conflict" and "休假" in first.reply and event_count(store) == 1
    second = bot.turn("不用换，直接创建", CTX)
    assert second.outcome == "created" and event_count(store) == 2


def test_allow_conflict_on_first_create_is_ignored(store: Store, profile_id: int) -> None:
    vacation(store, profile_id)
    bot, _ = assistant(
        store,
        profile_id,
        [call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="09:00", allowConflict=True)],
    )
    assert bot.turn("明天九点开会", CTX).outcome == "conflict"
    assert event_count(store) == 1


def test_ui_create_anyway_action_needs_conflict_status(store: Store, profile_id: int) -> None:
    vacation(store, profile_id)
    bot, model = assistant(
        store, profile_id, [call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="09:00")]
    )
    bot.turn("明天九点开会", CTX)
    result = bot.action("create_anyway", CTX)
    assert result.outcome == "created" and result.model_calls == 0 and model.calls == 1


# ---- guard -----------------------------------------------------------------------------


def test_claimed_creation_without_write_is_replaced(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [{"content": "已创建日程：明天下午三点开会。"}])
    result = bot.turn("明天下午三点开会", CTX)
    assert result.guard == "unverified_create_claim" and result.outcome == "unverified_create_claim"
    assert "已创建日程" not in result.reply and event_count(store) == 0
    archived = ArchiveService(store, profile_id).recent()
    assert archived[-1].content == result.reply  # only the replacement is stored
    assert all("已创建日程" not in m.content for m in archived)


def test_claim_of_empty_calendar_without_query_is_replaced(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [{"content": "你明天没有安排，可以好好休息。"}])
    result = bot.turn("明天有什么安排", CTX)
    # replaced whole by the real answer for the day it named, read by code (the store is empty)
    assert result.guard == "unverified_query_claim" and result.outcome == "guard_answered"
    assert "可以好好休息" not in result.reply and result.reply.endswith("没有安排。") and result.tools == []


def test_true_receipt_is_not_flagged(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [call("remember_fact", fact="我咖啡不加糖")])
    result = bot.turn("请记住我咖啡不加糖", CTX)
    assert result.outcome == "memory_saved" and result.guard is None
    assert [m.text for m in MemoryService(store, profile_id).list()] == ["我咖啡不加糖"]


# ---- tools: retries, unknown arguments, caps ---------------------------------------------


def test_invalid_symbol_goes_back_to_the_model_then_succeeds(store: Store, profile_id: int) -> None:
    bot, model = assistant(
        store,
        profile_id,
        [
            call("prepare_or_create_schedule", title="开会", dateExpression="tomorrow", time="15:00"),
            call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="15:00"),
        ],
    )
    result = bot.turn("明天三点开会", CTX)
    assert result.outcome == "created" and result.model_calls == 2
    second_request = model.requests[1]["messages"]
    assert any(m.get("role") == "tool" and "dateExpression" in m["content"] for m in second_request)


def test_extra_identity_argument_is_rejected(store: Store, profile_id: int) -> None:
    bad = call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="15:00", userId=7)
    bot, _ = assistant(store, profile_id, [bad, bad, bad, bad])
    result = bot.turn("明天三点开会", CTX)
    assert event_count(store) == 0
    assert result.outcome in ("invalid", "tool_loop_cap") and result.model_calls == 3
    assert "unknown argument" in json.dumps(result.tool_log, ensure_ascii=False)


def test_unknown_tool_goes_back_to_the_model(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [call("delete_everything"), {"content": "好的，我不能那样做。"}])
    result = bot.turn("删掉所有日程", CTX)
    assert result.model_calls == 2 and event_count(store) == 0


def test_tool_loop_is_capped(store: Store, profile_id: int) -> None:
    loop = [call("search_memory", query="生日")] * 10
    bot, model = assistant(store, profile_id, loop)
    result = bot.turn("我妈生日是哪天", CTX)
    assert result.outcome == "tool_loop_cap" and model.calls == MAX_MODEL_CALLS


def test_create_needing_a_remembered_date_takes_two_model_calls(store: Store, profile_id: int) -> None:
    MemoryService(store, profile_id).remember("我妈的生日是12月8日")
    bot, model = assistant(
        store,
        profile_id,
        [call("search_memory", query="生日"), call("prepare_or_create_schedule", title="给妈妈订蛋糕", dateExpression="12-08")],
    )
    result = bot.turn("在我妈生日那天提醒我订蛋糕", CTX)
    assert result.outcome == "created" and result.model_calls == 2
    assert result.tools == ["search_memory", "prepare_or_create_schedule"]
    tool_messages = [m for m in model.requests[1]["messages"] if m.get("role") == "tool"]
    assert tool_messages and "12月8日" in tool_messages[0]["content"]


# ---- model down, no model, calendars -----------------------------------------------------


def test_model_unavailable_is_honest_and_writes_nothing(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [{"unavailable": "connection refused"}])
    result = bot.turn("明天下午三点开会", CTX)
    assert result.outcome == "model_unavailable" and event_count(store) == 0
    assert "不可用" in result.reply


def test_no_model_configured(store: Store, profile_id: int) -> None:
    result = Assistant(store, profile_id, None).turn("明天开会", CTX)
    assert result.outcome == "model_unavailable" and result.model_calls == 0


def test_unknown_calendar_falls_back_with_a_note(store: Store, profile_id: int) -> None:
    CalendarService(store, profile_id).add("工作")
    bot, model = assistant(
        store,
        profile_id,
        [call("prepare_or_create_schedule", title="健身", dateExpression="D+1", time="19:00", calendarName="运动")],
    )
    result = bot.turn("明晚七点健身", CTX)
    assert result.outcome == "created" and "运动" in result.reply and "默认日历" in result.reply
    tools = model.requests[0]["tools"]
    create = next(t for t in tools if t["function"]["name"] == "prepare_or_create_schedule")
    assert create["function"]["parameters"]["properties"]["calendarName"]["enum"] == ["日程", "工作"]


def test_cancel_stub(store: Store, profile_id: int) -> None:
    bot, _ = assistant(
        store,
        profile_id,
        [call("prepare_or_create_schedule", title="修车", dateExpression="WE"), call("cancel_schedule_command")],
    )
    bot.turn("周末修车", CTX)
    result = bot.turn("算了，不建了", CTX)
    assert result.outcome == "cancelled" and CommandService(store, profile_id, CTX).active_stub() is None


# ---- context: static prefix, recent segment -----------------------------------------------


def test_static_prefix_is_byte_identical_and_old_messages_are_left_out(store: Store, profile_id: int) -> None:
    archive = ArchiveService(store, profile_id, clock=NOW - timedelta(days=30))
    archive.append("user", "明天去开会")
    bot, model = assistant(store, profile_id, [{"content": "你好"}, {"content": "你好呀"}])
    bot.turn("你好", CTX)
    bot.turn("再说一次你好", ctx_at(NOW + timedelta(minutes=5)))
    first, second = model.requests
    assert first["messages"][0] == second["messages"][0]
    assert json.dumps(first["tools"]) == json.dumps(second["tools"])
    assert all("明天去开会" not in json.dumps(m, ensure_ascii=False) for m in first["messages"])
    assert "older messages are not shown" in first["messages"][-1]["content"]


# ---- council -----------------------------------------------------------------------------


def council_script() -> list[dict[str, Any]]:
    return [call("offer_council", topic="下周", startExpression="W1+1", endExpression="W7+1")] + [
        {"content": f"view {i}"} for i in range(4)
    ]


def test_council_accepted_within_30_minutes_runs(store: Store, profile_id: int) -> None:
    bot, model = assistant(store, profile_id, council_script())
    offer = bot.turn("下周太忙了，帮我看看", CTX)
    assert offer.outcome == "council_offered"
    result = bot.turn("要", ctx_at(NOW + timedelta(minutes=10)))
    assert result.outcome == "council" and result.intent == "council" and result.model_calls == 4
    assert event_count(store) == 0


def test_council_yes_after_30_minutes_is_an_ordinary_message(store: Store, profile_id: int) -> None:
    bot, model = assistant(store, profile_id, council_script()[:1] + [{"content": "要什么呢？"}])
    bot.turn("下周太忙了，帮我看看", CTX)
    result = bot.turn("要", ctx_at(NOW + timedelta(minutes=31)))
    assert result.outcome == "chat" and result.model_calls == 1


# ---- observation ------------------------------------------------------------------------


def test_every_turn_is_recorded_with_a_timeline(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="15:00")])
    result = bot.turn("明天三点开会", CTX)
    row = store.conn.execute("SELECT * FROM observations").fetchone()
    data = json.loads(row["data"])
    assert row["intent"] == "create" and row["outcome"] == "created" and row["model_calls"] == 1
    assert data["tools"][0]["name"] == "prepare_or_create_schedule"
    for mark in ("context_build", "model_request_sent", "first_token", "generation_end", "tool_execution", "finish"):
        assert mark in result.timeline, mark


def test_streaming_yields_tokens_before_done(store: Store, profile_id: int) -> None:
    bot, _ = assistant(store, profile_id, [{"content": "今天天气不错，适合出去走走。"}])
    kinds = [event.kind for event in bot.stream_turn("聊聊天", CTX)]
    assert kinds.count("token") >= 2 and kinds[-1] == "done"


def test_one_reader_of_short_answers_serves_the_council_offer_too() -> None:
    """Every short yes the council's own pattern used to accept still accepts, the shared
    yes/no reader's words accept as well, and a no or a longer sentence does not."""
    from agent.runtime.council import is_affirmative
    from agent.services.wording import CONFIRM_WORDS, confirmation_answer

    old_pattern = [
        "要",
        "要的",
        "好",
        "好的",
        "好啊",
        "好呀",
        "可以",
        "行",
        "嗯",
        "嗯嗯",
        "是",
        "是的",
        "开始",
        "来吧",
        "请",
        "ok",
        "okay",
        "yes",
        "yep",
        "yeah",
        "sure",
        "please",
        "go ahead",
        "go",
    ]
    for word in [*old_pattern, *CONFIRM_WORDS, "好的！", "  OK. ", "Yes!", "ｏｋ"]:
        assert is_affirmative(word), word
    for text in ["不用", "不要了", "no", "好的，不过明天再说吧，我现在有点忙", "go home", ""]:
        assert not is_affirmative(text), text
    assert confirmation_answer("开始") is None  # an offer's word is not a yes to "add it?"


def test_the_word_lists_own_comma_answers_are_read() -> None:
    """ "对，加上" sat in the yes list but the comma was squeezed out of the reply only, so it
    never matched and went to the model."""
    from agent.services.wording import confirmation_answer

    assert confirmation_answer("对，加上") is True and confirmation_answer("是的, 加上!") is True
    assert confirmation_answer("不用，改成明天") is None
