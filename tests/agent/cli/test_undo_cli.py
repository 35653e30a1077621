"""``richeng undo``: every committed change set is journalled and taken back exactly.

Each story changes a real SQLite file the way the app, the CLI, the importer or the chat
does, then runs ``richeng undo`` in-process and compares the calendar with what it was
before: the ``events list`` JSON over a wide window and, stricter, every stored row (text,
calendar, origin, imported source), alarm and instance. Clocks are fixed (``--now``, a
store clock); nothing reads the real time for a decision.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agent.cli.main import main
from agent.models.script_backend import ScriptedModel
from agent.runtime.turn import Assistant
from agent.services.calendars import CalendarService
from agent.services.editing import EditService, EventDraft
from agent.services.queries import QueryService
from agent.store import journal, journal_record
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.occurrence import Occurrence
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI, ctx_at
from tests.support.old_store import make_previous_store

CLI_NOW = "2026-11-30T10:00:00+08:00"
REVERTED_KEYS = {"id", "created_at", "origin", "kind", "reverts", "label", "created", "updated", "deleted", "undone"}
EVENT_KEYS = {"action", "uid", "recurrence_id", "title", "start", "end", "all_day", "series", "calendar"}

ICS = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//test//undo//EN\r
BEGIN:VEVENT\r
UID:import-one@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261203T090000\r
DTEND;TZID=Asia/Shanghai:20261203T100000\r
SUMMARY:导入的会\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:import-series@test\r
DTSTAMP:20261101T000000Z\r
DTSTART;TZID=Asia/Shanghai:20261201T080000\r
DTEND;TZID=Asia/Shanghai:20261201T083000\r
RRULE:FREQ=DAILY;COUNT=5\r
SUMMARY:Standup\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:import-series@test\r
DTSTAMP:20261101T000000Z\r
RECURRENCE-ID;TZID=Asia/Shanghai:20261203T080000\r
DTSTART;TZID=Asia/Shanghai:20261203T081500\r
DTEND;TZID=Asia/Shanghai:20261203T084500\r
SUMMARY:Standup (late)\r
END:VEVENT\r
END:VCALENDAR\r
"""


@pytest.fixture
def run(db_file: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def _run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", str(db_file), "--now", CLI_NOW, "--tz", "Asia/Shanghai", *args])
        out, err = capsys.readouterr()
        return code, out, err

    return _run


@pytest.fixture
def app_store(db_file: Path) -> Iterator[Store]:
    """The same file as the app holds it: its own connection, a fixed service clock."""
    store = Store(db_file, clock=lambda: NOW)
    yield store
    store.close()


@pytest.fixture
def pid(app_store: Store) -> int:
    return ensure_profile(app_store)


def listing(run) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    code, out, err = run("--json", "events", "list", "--start", "D-30", "--end", "D+300")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def rows(store: Store) -> list[tuple[Any, ...]]:
    """Every stored fact undo must put back, keyed by (UID, RECURRENCE-ID), not by row id."""
    conn = store.conn
    events = sorted(
        tuple(r)
        for r in conn.execute(
            "SELECT uid, recurrence_id, calendar_id, origin, ics, source, title, start_ts, end_ts, rrule, exdate FROM events"
        )
    )
    alarms = sorted(
        tuple(r)
        for r in conn.execute("SELECT e.uid, e.recurrence_id, a.trigger FROM alarms a JOIN events e ON e.id = a.event_id")
    )
    instances = sorted(
        tuple(r)
        for r in conn.execute(
            "SELECT e.uid, o.start_ts, o.end_ts, o.recurrence_id FROM occurrences o JOIN events e ON e.id = o.series_id"
        )
    )
    return [*events, ("alarms", *alarms), ("instances", *instances)]  # fmt: skip


def snapshot(run, store: Store) -> tuple[Any, ...]:  # type: ignore[no-untyped-def]
    return listing(run), rows(store)


def undo(run) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    code, out, err = run("--json", "undo")
    assert code == 0, err
    payload: dict[str, Any] = json.loads(out)
    assert set(payload) == {"reverted", "events"}
    return payload


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=SHANGHAI)


def seed(store: Store, pid: int) -> None:
    """Something that must survive every undo untouched."""
    calendar = CalendarService(store, pid).default()
    EditService(store, pid).create(EventDraft("别动我", at(5, 9), at(5, 10), calendar.id, location="A座"))


def one(store: Store, pid: int, title: str, day: int) -> Occurrence:
    found = [o for o in QueryService(store, pid, ctx_at(NOW)).between(at(day, 0), at(day, 0) + timedelta(days=1))
             if o.title == title]  # fmt: skip
    assert len(found) == 1, found
    return found[0]


def weekly(store: Store, pid: int) -> None:
    calendar = CalendarService(store, pid).default()
    EditService(store, pid).create(
        EventDraft("健身", at(4, 19), at(4, 20), calendar.id, rrule="FREQ=WEEKLY;COUNT=6", alarm_minutes=(30,))
    )


# ---- the stories -----------------------------------------------------------------------


def test_cli_create_then_undo_restores_exactly(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    before = snapshot(run, app_store)
    code, _, err = run("events", "add", "--title", "项目周会", "--date", "D+1", "--time", "15:00")
    assert code == 0, err
    assert snapshot(run, app_store) != before
    payload = undo(run)
    assert snapshot(run, app_store) == before
    assert set(payload["reverted"]) == REVERTED_KEYS and payload["reverted"]["origin"] == "cli"
    assert payload["reverted"]["undone"] is True and payload["reverted"]["created"] == 1
    assert [set(e) for e in payload["events"]] == [EVENT_KEYS]
    assert payload["events"][0]["action"] == "removed" and payload["events"][0]["title"] == "项目周会"


def test_edit_then_undo(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    calendar = CalendarService(app_store, pid).default()
    EditService(app_store, pid).create(EventDraft("评审", at(2, 14), at(2, 15), calendar.id, description="旧"))
    before = snapshot(run, app_store)
    uid = one(app_store, pid, "评审", 2).uid
    EditService(app_store, pid).replace(uid, EventDraft("设计评审", at(2, 14), at(2, 16), calendar.id, location="3楼"))
    assert snapshot(run, app_store) != before
    payload = undo(run)
    assert snapshot(run, app_store) == before
    assert [(e["action"], e["title"]) for e in payload["events"]] == [("restored", "评审")]


def test_move_then_undo_single_and_one_instance(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    weekly(app_store, pid)
    calendar = CalendarService(app_store, pid).default()
    EditService(app_store, pid).create(EventDraft("周会", at(1, 10), at(1, 11), calendar.id))
    before = snapshot(run, app_store)
    edits = EditService(app_store, pid)
    edits.move(one(app_store, pid, "周会", 1), at(2, 10), at(2, 11))
    edits.move(one(app_store, pid, "健身", 11), at(12, 18), at(12, 19), scope="this")
    assert snapshot(run, app_store) != before
    undo(run)
    undo(run)  # twice: the two newest distinct changes
    assert snapshot(run, app_store) == before


def test_delete_then_undo(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    calendar = CalendarService(app_store, pid).default()
    EditService(app_store, pid).create(EventDraft("牙医", at(3, 16), at(3, 17), calendar.id, alarm_minutes=(60,)))
    before = snapshot(run, app_store)
    EditService(app_store, pid).delete(one(app_store, pid, "牙医", 3))
    payload = undo(run)
    assert snapshot(run, app_store) == before
    assert payload["events"][0]["action"] == "restored" and payload["reverted"]["deleted"] == 1


@pytest.mark.parametrize("scope", ["all", "following", "this"])
def test_series_delete_then_undo(run, app_store: Store, pid: int, scope: str) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    weekly(app_store, pid)
    edits = EditService(app_store, pid)
    edits.move(one(app_store, pid, "健身", 25), at(25, 20), at(25, 21), scope="this")  # an override to lose
    before = snapshot(run, app_store)
    edits.delete(one(app_store, pid, "健身", 18), scope=scope)  # type: ignore[arg-type]
    assert snapshot(run, app_store) != before
    payload = undo(run)
    assert snapshot(run, app_store) == before
    assert payload["events"] and all(e["title"].startswith("健身") for e in payload["events"])


def test_import_then_undo_removes_exactly_what_it_added(run, app_store: Store, pid: int, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    before = snapshot(run, app_store)
    file = tmp_path / "small.ics"
    file.write_text(ICS, encoding="utf-8")
    code, _, err = run("import", str(file), "--calendar", "日程")
    assert code == 0, err
    titles = {e["title"] for e in listing(run)}
    assert {"导入的会", "Standup", "Standup (late)", "别动我"} <= titles
    payload = undo(run)
    assert snapshot(run, app_store) == before
    assert payload["reverted"]["origin"] == "import" and payload["reverted"]["created"] == 3
    assert sorted(e["action"] for e in payload["events"]) == ["removed"] * 3


def test_import_update_then_undo_puts_the_older_text_and_source_back(run, app_store: Store, pid: int, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    file = tmp_path / "small.ics"
    file.write_text(ICS, encoding="utf-8")
    assert run("import", str(file))[0] == 0
    before = snapshot(run, app_store)
    newer = ICS.replace("SUMMARY:导入的会", "SEQUENCE:2\r\nSUMMARY:导入的会（改）")
    file.write_text(newer, encoding="utf-8")
    assert run("import", str(file))[0] == 0
    assert snapshot(run, app_store) != before
    undo(run)
    assert snapshot(run, app_store) == before


def test_chat_create_then_cli_undo(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    before = snapshot(run, app_store)
    model = ScriptedModel([{"tool_calls": [{"name": "prepare_or_create_schedule", "arguments": {
        "title": "和张三开会", "dateExpression": "D+1", "time": "15:00"}}]}])  # fmt: skip
    result = Assistant(app_store, pid, model).turn("明天下午三点和张三开会", ctx_at(NOW))
    assert result.outcome == "created"
    code, out, _ = run("--json", "undo", "--list")
    newest = json.loads(out)[0]
    assert code == 0 and newest["origin"] == "chat" and newest["created"] == 1 and newest["undone"] is False
    change_id = newest["id"]
    assert journal.is_undone(app_store, change_id) is False
    payload = undo(run)
    assert snapshot(run, app_store) == before
    assert payload["reverted"]["id"] == change_id and payload["events"][0]["title"] == "和张三开会"
    assert journal.is_undone(app_store, change_id) is True


def test_a_chat_edit_is_journalled_as_chat_and_undone_exactly(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    """Chat edits go through the editor's EditService; the journal still calls them chat,
    whichever entry ran the turn (here the Assistant directly, as the app does)."""
    seed(app_store, pid)
    calendar = CalendarService(app_store, pid).default()
    EditService(app_store, pid).create(EventDraft("周会", at(1, 15), at(1, 16), calendar.id))
    before = snapshot(run, app_store)
    model = ScriptedModel([{"tool_calls": [{"name": "delete_schedule", "arguments": {
        "targetTitle": "周会", "targetDate": "D+1"}}]}])  # fmt: skip
    result = Assistant(app_store, pid, model).turn("把明天的周会删掉", ctx_at(NOW))
    assert result.changes, result.reply
    code, out, _ = run("--json", "undo", "--list")
    assert code == 0 and json.loads(out)[0]["origin"] == "chat"
    undo(run)
    assert snapshot(run, app_store) == before


# ---- the rules ---------------------------------------------------------------------------


def test_nothing_to_undo_is_exit_0_with_a_clear_line(run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("undo")
    assert (code, err) == (0, "") and out == "没有可撤销的更改/Nothing to undo\n"
    assert undo(run) == {"reverted": None, "events": []}


def test_undo_walks_back_and_never_undoes_its_own_undo(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    start = snapshot(run, app_store)
    run("events", "add", "--title", "一", "--date", "D+1", "--time", "09:00")
    middle = snapshot(run, app_store)
    run("events", "add", "--title", "二", "--date", "D+1", "--time", "11:00")
    assert undo(run)["events"][0]["title"] == "二"
    assert snapshot(run, app_store) == middle
    assert undo(run)["events"][0]["title"] == "一"
    assert snapshot(run, app_store) == start
    assert undo(run)["reverted"] is None  # the two undo rows are not themselves undone
    code, out, _ = run("--json", "undo", "--list")
    listed = json.loads(out)
    assert [(e["kind"], e["undone"]) for e in listed] == [("undo", False), ("undo", False), ("change", True), ("change", True)]
    assert all(set(e) == REVERTED_KEYS for e in listed)


def test_human_output_one_line_per_event(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    weekly(app_store, pid)
    EditService(app_store, pid).delete(one(app_store, pid, "健身", 4))
    code, out, err = run("undo")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0].startswith("已撤销/Undid #")
    assert lines[1:] == ["已恢复/Restored: 2026-12-04 19:00–20:00  健身 (系列/series)  [日程]"]
    code, out, _ = run("undo", "--list")
    assert "(已撤销/undone)" in out.splitlines()[1] and out.splitlines()[0].startswith("#")


def test_a_change_edited_since_is_refused_and_nothing_changes(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    run("events", "add", "--title", "会", "--date", "D+1", "--time", "09:00")
    with journal_record.origin(app_store, "sync"):  # a pull changed the same event afterwards
        occ = one(app_store, pid, "会", 1)
        EditService(app_store, pid).move(occ, at(1, 13), at(1, 14))
    before = snapshot(run, app_store)
    code, out, err = run("undo")
    assert code == 2 and out == "" and err.count("\n") == 1 and "has changed since" in err and "会" in err
    assert snapshot(run, app_store) == before
    assert journal.undoable(app_store, pid) is not None  # still there, still not undone


def test_rolled_back_writes_leave_no_journal_row(app_store: Store, pid: int) -> None:
    calendar = CalendarService(app_store, pid).default()
    with pytest.raises(RuntimeError), app_store.transaction():
        EditService(app_store, pid).create(EventDraft("x", at(1, 9), at(1, 10), calendar.id))
        raise RuntimeError("boom")
    assert journal.recent(app_store, pid) == []
    EditService(app_store, pid).create(EventDraft("y", at(1, 9), at(1, 10), calendar.id))
    (entry,) = journal.recent(app_store, pid)
    assert (entry.label, entry.created, entry.origin) == ("create y", 1, "user")


def test_redo_is_reverting_the_undo(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    seed(app_store, pid)
    weekly(app_store, pid)
    EditService(app_store, pid).delete(one(app_store, pid, "健身", 11), scope="following")
    after = snapshot(run, app_store)
    result = journal.undo_last(app_store, pid)
    assert result is not None and result.inverse_id is not None
    changed = result.entry.id
    assert journal.is_undone(app_store, changed)
    journal.revert(app_store, pid, result.inverse_id)
    assert snapshot(run, app_store) == after
    assert not journal.is_undone(app_store, changed)
    assert journal.undoable(app_store, pid).id == changed  # type: ignore[union-attr]


def test_journal_is_per_profile(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    other = ensure_profile(app_store, "other")
    calendar = CalendarService(app_store, other).default()
    EditService(app_store, other).create(EventDraft("别人的", at(1, 9), at(1, 10), calendar.id))
    assert undo(run)["reverted"] is None
    assert journal.undoable(app_store, other) is not None


def test_one_transaction_saving_a_row_twice_is_undone_to_its_first_state(run, app_store: Store, pid: int) -> None:  # type: ignore[no-untyped-def]
    """The editor's one-occurrence edits save the same row more than once in a transaction:
    the journal keeps the state before the first save, so undo returns to it."""
    seed(app_store, pid)
    calendar = CalendarService(app_store, pid).default()
    before = snapshot(run, app_store)
    edits = EditService(app_store, pid)
    with app_store.transaction():
        uid = edits.create(EventDraft("草稿", at(2, 9), at(2, 10), calendar.id)).created[0].uid
        edits.replace(uid, EventDraft("定稿", at(2, 9), at(2, 11), calendar.id))
    payload = undo(run)
    assert snapshot(run, app_store) == before and payload["reverted"]["created"] == 1
    EditService(app_store, pid).create(EventDraft("周报", at(3, 9), at(3, 10), calendar.id))
    middle = snapshot(run, app_store)
    uid = one(app_store, pid, "周报", 3).uid
    with app_store.transaction():
        edits.replace(uid, EventDraft("周报 v2", at(3, 9), at(3, 10), calendar.id))
        edits.replace(uid, EventDraft("周报 v3", at(3, 10), at(3, 11), calendar.id))
    undo(run)
    assert snapshot(run, app_store) == middle


def test_a_schema_3_file_gains_the_journal_and_keeps_its_events(run, db_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Migration 4 on a file written before it: a backup first, the events stay, undo
    works on the next change and leaves the old events alone (nothing journalled before)."""

    from agent.store.backups import list_backups

    make_previous_store(db_file, migrations=3, events=[build_event("老事件", at(1, 9), at(1, 10), stamp=NOW)])
    monkeypatch.setenv("RICHENG_BACKUPS", "1")  # a temp-folder file is otherwise not backed up
    before = listing(run)
    assert [e["title"] for e in before] == ["老事件"]
    assert any(b.kind == "migration" for b in list_backups(db_file))
    assert undo(run)["reverted"] is None  # what happened before the journal existed is not undoable
    run("events", "add", "--title", "新事件", "--date", "D+2", "--time", "09:00")
    assert undo(run)["events"][0]["title"] == "新事件"
    assert listing(run) == before
