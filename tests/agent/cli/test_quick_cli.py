"""``richeng quick`` (issue 21): its JSON shape is a machine-checked contract.

Run in-process against a real SQLite file with a fixed ``--now``; what each call wrote is
read back through ``events list`` and the store itself, so "nothing written" is checked,
not assumed.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agent.cli.main import main

NOW = "2026-12-01T10:00:00+08:00"
KEYS = ["title", "start", "end", "all_day", "repeat", "calendar", "spans", "outcome"]


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, Any, str]:
    code = main(["--db", str(db), "--now", NOW, "--tz", "Asia/Shanghai", *argv])
    out = capsys.readouterr()
    payload = json.loads(out.out) if out.out.strip().startswith(("{", "[")) else out.out
    return code, payload, out.err


def listed(capsys: pytest.CaptureFixture[str], db: Path) -> list[dict[str, Any]]:
    code, events, _ = run(capsys, db, "--json", "events", "list", "--start", "D-1", "--end", "D+300")
    assert code == 0
    return list(events)


def rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_the_json_shape_and_a_create_that_undo_takes_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    code, preview, _ = run(capsys, db, "--json", "quick", "明天下午三点和张三开会", "--dry-run")
    assert code == 0 and list(preview) == KEYS
    assert preview == {
        "title": "和张三开会",
        "start": "2026-12-02T15:00:00+08:00",
        "end": "2026-12-02T16:00:00+08:00",
        "all_day": False,
        "repeat": None,
        "calendar": "日程",
        "spans": [{"role": "day", "text": "明天"}, {"role": "time", "text": "下午三点"}],
        "outcome": "preview",
    }
    assert listed(capsys, db) == []

    code, created, _ = run(capsys, db, "--json", "quick", "明天下午三点和张三开会")
    assert code == 0 and created == {**preview, "outcome": "created"}
    assert [(e["title"], e["start"]) for e in listed(capsys, db)] == [("和张三开会", "2026-12-02T15:00:00+08:00")]

    code, again, _ = run(capsys, db, "--json", "quick", "明天下午三点和张三开会")
    assert code == 0 and again["outcome"] == "duplicate"
    assert len(listed(capsys, db)) == 1

    code, _, _ = run(capsys, db, "undo")
    assert code == 0 and listed(capsys, db) == []


def test_a_conflict_is_answered_and_allow_conflict_writes_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    assert run(capsys, db, "quick", "明天下午三点和张三开会")[0] == 0
    code, answer, _ = run(capsys, db, "--json", "quick", "明天三点半和李四开会")
    assert code == 0 and answer["outcome"] == "conflict"
    assert len(listed(capsys, db)) == 1
    code, human, _ = run(capsys, db, "quick", "明天三点半和李四开会", "--allow-conflict")
    assert code == 0 and human.startswith("created: ")
    assert sorted(e["title"] for e in listed(capsys, db)) == ["和张三开会", "和李四开会"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("开会", "没有读到日期或时间"),
        ("Buy milk", "no day or time"),
        ("明天下午三点", "只有时间"),
        ("tomorrow at 3pm", "no title"),
        ("   ", "type a sentence"),
    ],
)
def test_an_unreadable_sentence_exits_2_with_one_line_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, words: str
) -> None:
    db = tmp_path / "r.sqlite3"
    assert run(capsys, db, "calendars", "list")[0] == 0  # the file exists with its schema
    before = (rows(db, "events"), rows(db, "commands"))
    code, out, err = run(capsys, db, "--json", "quick", text)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert (rows(db, "events"), rows(db, "commands")) == before


def test_repeat_range_place_and_reminder_reach_the_event(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    code, weekly, _ = run(capsys, db, "--json", "quick", "每周一上午十点在会议室A开周会，提前十分钟提醒")
    assert code == 0 and (weekly["repeat"], weekly["start"], weekly["outcome"]) == (
        "WEEKLY",
        "2026-12-07T10:00:00+08:00",
        "created",
    )
    code, trip, _ = run(capsys, db, "--json", "quick", "Business trip from Dec 21 to Dec 27")
    assert code == 0 and (trip["start"], trip["end"], trip["all_day"]) == ("2026-12-21", "2026-12-28", True)
    with sqlite3.connect(db) as conn:
        text = "\n".join(row[0] for row in conn.execute("SELECT ics FROM events"))
    assert "RRULE:FREQ=WEEKLY;BYDAY=MO" in text and "LOCATION:会议室A" in text and "TRIGGER:-PT10M" in text
    assert "DTEND;VALUE=DATE:20261228" in text


def test_an_unknown_calendar_falls_back_and_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    code, human, _ = run(capsys, db, "quick", "Lunch with Tom tomorrow at noon", "--calendar", "Work")
    assert code == 0 and "no calendar 'Work', used '日程'" in human


def test_a_pending_command_with_the_same_title_lends_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Found trying it from a shell: '昨天下午三点开会' left a past-time stub '开会' at 15:00,
    and '明天开会' then continued it, asking about a conflict at 15:00 the user never wrote."""
    db = tmp_path / "r.sqlite3"
    assert run(capsys, db, "quick", "明天下午三点和张三开会")[0] == 0
    code, past, _ = run(capsys, db, "--json", "quick", "昨天下午三点开会")
    assert code == 0 and past["outcome"] == "past_time"
    code, allday, _ = run(capsys, db, "--json", "quick", "明天开会")
    assert code == 0 and (allday["outcome"], allday["start"], allday["all_day"]) == ("created", "2026-12-02", True)
