"""The chat's tools and a read-only calendar: the refusal goes back to the model as the
tool's error (it may pick another calendar or tell the user), and nothing is written."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from agent.models.script_backend import ScriptedModel
from agent.runtime.turn import Assistant
from agent.services.calendars import CalendarService
from agent.store.components import build_event
from agent.store.db import Store, utc_now_iso
from agent.store.events import EventRepo
from tests.support.clock import NOW, SHANGHAI, ctx_at

CTX = ctx_at(NOW)


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def subscribed(store: Store, profile_id: int) -> None:
    feed = CalendarService(store, profile_id).add("节假日").id
    start = datetime(2026, 12, 1, 14, tzinfo=SHANGHAI)
    with store.transaction() as conn:
        EventRepo(store, profile_id).save(build_event("元旦", start, start + timedelta(hours=1), uid="feed-1"), feed, "import")
        conn.execute(
            "INSERT INTO subscriptions(profile_id, calendar_id, url, created_at) VALUES (?, ?, 'https://x.invalid/h.ics', ?)",
            (profile_id, feed, utc_now_iso()),
        )


def rows(store: Store) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in store.conn.execute("SELECT uid, calendar_id, ics FROM events ORDER BY uid")]


def tool_errors(model: ScriptedModel) -> list[str]:
    return [
        str(message["content"]) for request in model.requests for message in request["messages"] if message.get("role") == "tool"
    ]


def test_create_into_a_subscription_is_a_tool_error_and_writes_nothing(store: Store, profile_id: int) -> None:
    subscribed(store, profile_id)
    before = rows(store)
    model = ScriptedModel(
        [
            call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="15:00", calendarName="节假日"),
            {"content": "节假日是订阅的日历，不能添加。"},
        ]
    )
    Assistant(store, profile_id, model).turn("明天下午三点在节假日日历里加个开会", CTX)
    assert rows(store) == before
    assert any("is a subscription (read-only)" in error for error in tool_errors(model)), tool_errors(model)


def test_delete_of_a_subscribed_event_is_a_tool_error_and_writes_nothing(store: Store, profile_id: int) -> None:
    subscribed(store, profile_id)
    before = rows(store)
    model = ScriptedModel(
        [call("delete_schedule", targetTitle="元旦", targetDate="D+1"), {"content": "这是订阅日历里的日程，不能删除。"}]
    )
    Assistant(store, profile_id, model).turn("把明天的元旦删掉", CTX)
    assert rows(store) == before
    assert any("is a subscription (read-only)" in error for error in tool_errors(model)), tool_errors(model)


def test_the_context_block_names_read_only_calendars(store: Store, profile_id: int) -> None:
    model = ScriptedModel([{"content": "好的"}])
    Assistant(store, profile_id, model).turn("你好", CTX)
    assert "Read-only" not in model.requests[0]["messages"][-1]["content"]  # none yet: the prompt as before
    subscribed(store, profile_id)
    model = ScriptedModel([{"content": "好的"}])
    Assistant(store, profile_id, model).turn("你好", CTX)
    assert "Read-only, never write to them: 节假日." in model.requests[0]["messages"][-1]["content"]
