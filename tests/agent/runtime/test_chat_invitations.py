"""Invitations from the chat (issue 31, item 4), with the scripted model.

Inviting: an attendee is written only from an address in the user's words or in a memory
read this turn (a made-up address, the deliberately wrong model's, is never written; a
name with no known address is reported); the user becomes ORGANIZER; on a synced calendar
the create asks "this will email N people" and only the yes gives the go-ahead.
Answering: ``respond_to_invitation`` is an edit (one invitation found by the edit rules;
several ask; a non-invitation is refused), stored as the user's PARTSTAT; undo takes it back.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from agent.models.script_backend import ScriptedModel
from agent.runtime.tools import CREATE, RESPOND, SEARCH_MEMORY, tool_schemas
from agent.runtime.turn import Assistant
from agent.services.calendars import CalendarService
from agent.services.invitations import ADDRESSES_KEY, SEND_KEY
from agent.services.memory import MemoryService
from agent.services.settings import SettingsService
from agent.store import journal
from agent.store.components import build_event, parse_component
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import Person, read, write
from agent.store.profiles import ensure_profile
from tests.support.clock import SHANGHAI, ctx_at

THURSDAY = datetime(2026, 12, 3, 10, 0, tzinfo=SHANGHAI)
ME = "me@example.com"


@pytest.fixture
def profile(store: Store) -> int:
    profile_id = ensure_profile(store)
    SettingsService(store, profile_id).set(ADDRESSES_KEY, [ME])
    return profile_id


def run(store: Store, profile_id: int, text: str, script: list[dict[str, Any]], minute: int = 0) -> Any:
    at = THURSDAY + timedelta(minutes=minute)
    return Assistant(store, profile_id, ScriptedModel(script)).turn(text, ctx_at(at))


def create(args: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"tool_calls": [{"name": CREATE.name, "arguments": args}]}]


def respond(args: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"tool_calls": [{"name": RESPOND.name, "arguments": args}]}]


def stored(store: Store, title: str) -> Any:
    rows = store.conn.execute("SELECT ics FROM events WHERE title = ?", (title,)).fetchall()
    assert len(rows) == 1, rows
    return parse_component(rows[0]["ics"])


def emails(store: Store, title: str) -> list[str]:
    return [person.email for person in read(stored(store, title), "attendees")]


def synced(store: Store, calendar_id: int) -> None:
    with store.transaction() as conn:
        profile = conn.execute("SELECT profile_id FROM calendars WHERE id = ?", (calendar_id,)).fetchone()[0]
        conn.execute(
            "INSERT INTO sync_accounts(profile_id, name, url, username, created_at)"
            " VALUES (?, 'work', 'https://dav.example', 'me', '')",
            (profile,),
        )
        account = conn.execute("SELECT max(id) FROM sync_accounts").fetchone()[0]
        conn.execute(
            "INSERT INTO sync_calendars(account_id, remote_url, calendar_id, created_at)"
            " VALUES (?, 'https://dav.example/w/', ?, '')",
            (account, calendar_id),
        )


def invitation(
    store: Store, profile_id: int, title: str, start: datetime, *, me: str = ME, organizer: str = "li@example.com"
) -> None:
    component = build_event(title, start, start + timedelta(hours=1))
    write(component, "organizer", Person(organizer, "李四", "", ""))
    write(component, "attendees", [Person(organizer, "李四", "ACCEPTED"), Person(me, "", "NEEDS-ACTION")])
    calendar = CalendarService(store, profile_id).default()
    with store.transaction():
        EventRepo(store, profile_id).save(component, calendar.id, "import")


def partstat(store: Store, title: str, email: str = ME) -> str:
    return next(p.partstat for p in read(stored(store, title), "attendees") if p.same(email))


# ---- inviting ------------------------------------------------------------------------------


def test_an_address_in_the_users_words_is_invited_and_the_user_organises(store: Store, profile: int) -> None:
    args = {"title": "lunch", "dateExpression": "W5", "time": "12:00", "invite": ["zhang@example.com"]}
    result = run(store, profile, "invite zhang@example.com to lunch Friday at noon", create(args))
    assert result.outcome == "created"
    assert emails(store, "lunch") == ["zhang@example.com"]
    assert read(stored(store, "lunch"), "organizer") == Person(ME, "", "", "")
    assert "Invited: zhang@example.com" in result.reply and f"Organizer: you ({ME})" in result.reply
    assert "No one was emailed: this calendar is not synced" in result.reply


def test_an_invented_address_is_never_written(store: Store, profile: int) -> None:
    """The deliberately wrong model adds an address nobody gave: the event is made without it."""
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "invite": ["zhangsan@corp.example"]}
    result = run(store, profile, "明天下午三点和张三开会", create(args))
    assert result.outcome == "created"
    assert emails(store, "开会") == [] and read(stored(store, "开会"), "organizer") is None
    assert "没有邀请 zhangsan@corp.example：这个地址不在你这句话里" in result.reply


def test_an_address_from_event_text_does_not_ground(store: Store, profile: int) -> None:
    """An address that only an event's text holds (the model read it in a query) is data."""
    component = build_event("周会", THURSDAY + timedelta(days=1), THURSDAY + timedelta(days=1, hours=1))
    component.add("DESCRIPTION", "联系 wang@example.com")
    with store.transaction():
        EventRepo(store, profile).save(component, CalendarService(store, profile).default().id, "user")
    args = {"title": "复盘", "dateExpression": "D+2", "time": "15:00", "invite": ["wang@example.com"]}
    result = run(store, profile, "后天下午三点复盘，邀请周会里那个人", create(args))
    assert emails(store, "复盘") == [] and "没有邀请 wang@example.com" in result.reply


def test_a_name_with_no_known_address_is_reported_not_invited(store: Store, profile: int) -> None:
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "invite": ["张三"]}
    result = run(store, profile, "邀请张三明天下午三点开会", create(args))
    assert result.outcome == "created" and emails(store, "开会") == []
    assert "没有邀请张三：不知道张三的邮箱地址" in result.reply


def test_an_address_from_a_memory_read_this_turn_is_written(store: Store, profile: int) -> None:
    MemoryService(store, profile).remember("张三的邮箱是 zhang@example.com")
    script = [
        {"tool_calls": [{"name": SEARCH_MEMORY.name, "arguments": {"query": "张三"}}]},
        *create({"title": "开会", "dateExpression": "D+1", "time": "15:00", "invite": ["张三"]}),
    ]
    result = run(store, profile, "邀请张三明天下午三点开会", script)
    assert result.outcome == "created" and emails(store, "开会") == ["zhang@example.com"]
    assert read(stored(store, "开会"), "attendees")[0].name == "张三"
    assert "邀请：张三 <zhang@example.com>" in result.reply


def test_a_memory_not_read_this_turn_does_not_ground(store: Store, profile: int) -> None:
    MemoryService(store, profile).remember("张三的邮箱是 zhang@example.com")
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "invite": ["zhang@example.com"]}
    result = run(store, profile, "邀请张三明天下午三点开会", create(args))
    assert emails(store, "开会") == [] and "没有邀请 zhang@example.com" in result.reply


def test_on_a_synced_calendar_the_question_lists_who_and_only_yes_sends(store: Store, profile: int) -> None:
    calendar = CalendarService(store, profile).default()
    synced(store, calendar.id)
    args = {"title": "评审", "dateExpression": "D+1", "time": "15:00", "invite": ["a@example.com", "b@example.com"]}
    asked = run(store, profile, "明天下午三点评审，邀请 a@example.com 和 b@example.com", create(args))
    assert asked.outcome == "unconfirmed"
    assert "这会给 2 个人发邮件：a@example.com、b@example.com" in asked.reply
    assert store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0
    done = run(store, profile, "是", [], minute=1)
    assert done.outcome == "created" and done.model_calls == 0
    assert emails(store, "评审") == ["a@example.com", "b@example.com"]
    uid = str(stored(store, "评审")["UID"])
    assert SettingsService(store, profile).get(SEND_KEY) == [uid]
    assert "下次同步时，服务器会给这 2 个人发邀请邮件" in done.reply


def test_on_a_synced_calendar_no_writes_nothing_and_sends_nothing(store: Store, profile: int) -> None:
    synced(store, CalendarService(store, profile).default().id)
    args = {"title": "lunch", "dateExpression": "W5", "time": "12:00", "invite": ["zhang@example.com"]}
    asked = run(store, profile, "invite zhang@example.com to lunch Friday at noon", create(args))
    assert asked.outcome == "unconfirmed" and "This will email 1 people: zhang@example.com" in asked.reply
    run(store, profile, "no", [], minute=1)
    assert store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0
    assert SettingsService(store, profile).get(SEND_KEY) == []


def test_a_title_question_lists_who_will_be_invited(store: Store, profile: int) -> None:
    args = {"title": "项目复盘", "dateExpression": "D+1", "time": "15:00", "invite": ["zhang@example.com"]}
    asked = run(store, profile, "明天下午三点和 zhang@example.com 见面", create(args))
    assert asked.outcome == "unconfirmed" and "将邀请：zhang@example.com" in asked.reply


def test_without_an_address_of_the_users_own_no_organizer_is_written(store: Store) -> None:
    profile_id = ensure_profile(store)
    args = {"title": "lunch", "dateExpression": "W5", "time": "12:00", "invite": ["zhang@example.com"]}
    result = run(store, profile_id, "invite zhang@example.com to lunch Friday at noon", create(args))
    assert emails(store, "lunch") == ["zhang@example.com"] and read(stored(store, "lunch"), "organizer") is None
    assert "Your e-mail address is not known" in result.reply


def test_the_schema_offers_invite_with_a_short_description() -> None:
    schema = next(tool for tool in tool_schemas(["日程"]) if tool["function"]["name"] == CREATE.name)
    invite = schema["function"]["parameters"]["properties"]["invite"]
    assert invite["type"] == "array" and len(invite["description"]) <= 40


# ---- answering -----------------------------------------------------------------------------


def test_accepting_an_invitation_stores_the_answer_and_undo_takes_it_back(store: Store, profile: int) -> None:
    invitation(store, profile, "评审会", THURSDAY + timedelta(days=1, hours=4))
    result = run(
        store, profile, "接受周五评审会的邀请", respond({"targetTitle": "评审会", "targetDate": "W5", "answer": "accept"})
    )
    assert result.outcome == "updated" and partstat(store, "评审会") == "ACCEPTED"
    assert "已接受“评审会”的邀请" in result.reply
    assert "没有发出答复：这个日历不与服务器同步，组织者 李四 <li@example.com> 不会收到" in result.reply
    stamp = stored(store, "评审会")
    assert int(stamp.get("SEQUENCE") or 0) == 0  # the organizer's SEQUENCE is kept: the next update is newer
    entry = journal.undoable(store, profile)
    assert entry is not None and entry.origin == "chat"
    journal.undo_last(store, profile)
    assert partstat(store, "评审会") == "NEEDS-ACTION"


@pytest.mark.parametrize(
    ("text", "title", "answer", "stored_as"),
    [
        ("decline the design review invitation", "design review", "decline", "DECLINED"),
        ("设计评审暂定参加吧", "设计评审", "tentative", "TENTATIVE"),
    ],
)
def test_decline_and_tentative(store: Store, profile: int, text: str, title: str, answer: str, stored_as: str) -> None:
    invitation(store, profile, title, THURSDAY + timedelta(days=1, hours=4))
    result = run(store, profile, text, respond({"targetTitle": title, "answer": answer}))
    assert result.outcome == "updated" and partstat(store, title) == stored_as


def test_on_a_synced_calendar_the_answer_goes_to_the_organizer(store: Store, profile: int) -> None:
    synced(store, CalendarService(store, profile).default().id)
    invitation(store, profile, "评审会", THURSDAY + timedelta(days=1, hours=4))
    result = run(store, profile, "拒绝评审会的邀请", respond({"targetTitle": "评审会", "answer": "decline"}))
    assert partstat(store, "评审会") == "DECLINED"
    assert "你的答复（拒绝）会在下次同步时上传" in result.reply and "李四 <li@example.com>" in result.reply
    assert SettingsService(store, profile).get(SEND_KEY) == [str(stored(store, "评审会")["UID"])]


def test_a_non_invitation_is_refused_in_one_line(store: Store, profile: int) -> None:
    component = build_event("评审会", THURSDAY + timedelta(days=1), THURSDAY + timedelta(days=1, hours=1))
    with store.transaction():
        EventRepo(store, profile).save(component, CalendarService(store, profile).default().id, "user")
    before = stored(store, "评审会").to_ical()
    result = run(store, profile, "接受评审会的邀请", respond({"targetTitle": "评审会", "answer": "accept"}))
    assert result.outcome == "edit_invalid" and "“评审会”不是给你的邀请" in result.reply
    assert stored(store, "评审会").to_ical() == before


def test_two_invitations_that_match_ask_which(store: Store, profile: int) -> None:
    invitation(store, profile, "评审会", THURSDAY + timedelta(days=1, hours=1))
    invitation(store, profile, "评审会", THURSDAY + timedelta(days=1, hours=5))
    result = run(store, profile, "接受评审会的邀请", respond({"targetTitle": "评审会", "answer": "accept"}))
    assert result.outcome == "edit_choice" and "要答复哪一个" in result.reply
    assert my_answers(store) == ["NEEDS-ACTION", "NEEDS-ACTION"]
    picked = run(store, profile, "第二个", [], minute=1)
    assert picked.outcome == "updated" and picked.model_calls == 0
    assert my_answers(store) == ["NEEDS-ACTION", "ACCEPTED"]


def my_answers(store: Store) -> list[str]:
    rows = store.conn.execute("SELECT ics FROM events ORDER BY start_ts").fetchall()
    return [p.partstat for row in rows for p in read(parse_component(row["ics"]), "attendees") if p.same(ME)]


def test_an_answer_the_words_do_not_give_asks_first(store: Store, profile: int) -> None:
    """The wrong model declines where the user accepted: nothing is written, code asks."""
    invitation(store, profile, "评审会", THURSDAY + timedelta(days=1, hours=4))
    result = run(store, profile, "接受评审会的邀请", respond({"targetTitle": "评审会", "answer": "decline"}))
    assert result.outcome == "edit_confirm" and partstat(store, "评审会") == "NEEDS-ACTION"
    assert "你这句话里没有说要“拒绝”" in result.reply


# ---- the rules above can fail: each broken on purpose ----------------------------------------


def test_mutation_without_address_grounding_an_invented_address_is_written(
    store: Store, profile: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.runtime import tools
    from agent.runtime.invite_grounding import Invitees

    monkeypatch.setattr(tools, "ground_people", lambda items, text, memories: Invitees([Person(item) for item in items]))
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "invite": ["zhangsan@corp.example"]}
    run(store, profile, "明天下午三点和张三开会", create(args))
    assert emails(store, "开会") == ["zhangsan@corp.example"]


def test_mutation_without_the_send_question_a_synced_create_is_written_at_once(
    store: Store, profile: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.runtime import tools

    synced(store, CalendarService(store, profile).default().id)
    monkeypatch.setattr(tools, "synced", lambda store, calendar_id: False)
    args = {"title": "lunch", "dateExpression": "W5", "time": "12:00", "invite": ["zhang@example.com"]}
    assert run(store, profile, "invite zhang@example.com to lunch Friday at noon", create(args)).outcome == "created"


def test_a_slot_reply_to_the_send_question_writes_the_event_but_sends_nothing(store: Store, profile: int) -> None:
    """Only a plain yes is the go-ahead: "改到四点" answers the time, not "email them"."""
    synced(store, CalendarService(store, profile).default().id)
    args = {"title": "评审", "dateExpression": "D+1", "time": "15:00", "invite": ["a@example.com"]}
    run(store, profile, "明天下午三点评审，邀请 a@example.com", create(args))
    done = run(store, profile, "四点", [], minute=1)
    assert done.outcome == "created" and emails(store, "评审") == ["a@example.com"]
    assert SettingsService(store, profile).get(SEND_KEY) == []
    assert "没有给任何人发邮件：你没有同意发送邀请" in done.reply


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("张三邀请我明天吃饭，好开心", {"title": "吃饭", "dateExpression": "D+1", "invite": ["张三"]}),
        ("Zhang invited me to dinner tomorrow, so excited!", {"title": "dinner", "dateExpression": "D+1"}),
    ],
)
def test_news_of_an_invitation_asks_before_any_create(store: Store, profile: int, text: str, args: dict[str, Any]) -> None:
    """The wrong model creates from "张三邀请我明天吃饭，好开心": nothing is written, code asks."""
    result = run(store, profile, text, create(args))
    assert result.outcome == "unconfirmed" and store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_news_of_an_invitation_with_a_request_is_created(store: Store, profile: int) -> None:
    args = {"title": "吃饭", "dateExpression": "D+1", "time": "15:00"}
    assert run(store, profile, "张三约我明天下午三点吃饭，帮我记一下", create(args)).outcome == "created"


def test_the_same_create_again_says_nothing_about_invitations(store: Store, profile: int) -> None:
    """A duplicate returns the event already written: this round invited no one."""
    args = {"title": "lunch", "dateExpression": "W5", "time": "12:00", "invite": ["zhang@example.com"]}
    run(store, profile, "invite zhang@example.com to lunch Friday at noon", create(args))
    again = run(store, profile, "invite zhang@example.com to lunch Friday at noon", create(args), minute=1)
    assert again.receipt.deduplicated and "Invited:" not in again.reply and "Organizer" not in again.reply


def test_a_name_beside_a_said_address_is_kept_and_the_users_own_address_is_not_an_attendee(store: Store, profile: int) -> None:
    args = {"title": "开会", "dateExpression": "D+1", "time": "15:00", "invite": ["张三 <zhang@example.com>", ME]}
    run(store, profile, f"明天下午三点开会，邀请张三（zhang@example.com），抄送我 {ME}", create(args))
    assert read(stored(store, "开会"), "attendees") == (
        Person("zhang@example.com", "张三", "NEEDS-ACTION", "REQ-PARTICIPANT", (("RSVP", "TRUE"),)),
    )
