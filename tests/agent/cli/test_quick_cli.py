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
KEYS = ["title", "start", "end", "all_day", "repeat", "calendar", "spans", "outcome", "rrule", "tz", "categories"]


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
        "rrule": None,
        "tz": "Asia/Shanghai",
        "categories": [],
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
        ("Meeting Feb 30 3pm", "could not read these day or time words: Feb 30"),
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
    assert code == 0 and (weekly["repeat"], weekly["rrule"], weekly["start"], weekly["outcome"]) == (
        "WEEKLY",
        "FREQ=WEEKLY;BYDAY=MO",
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


def _exported(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> Any:
    import icalendar

    target = tmp_path / "out.ics"
    assert run(capsys, db, "export", "-o", str(target))[0] == 0
    return icalendar.Calendar.from_ical(target.read_bytes())


def _dated(value: Any) -> Any:
    return value.dt if hasattr(value, "dt") else value


@pytest.mark.parametrize(
    ("text", "rrule", "tz", "start"),
    [
        ("Gym every Mon Wed Fri at 7am", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "Asia/Shanghai", "2026-12-02T07:00:00+08:00"),
        ("每两周周三下午三点一对一", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE", "Asia/Shanghai", "2026-12-02T15:00:00+08:00"),
        ("每月最后一个周五下午四点复盘 共6次", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=6", "Asia/Shanghai", "2026-12-25T16:00:00+08:00"),
        ("每月10号 交房租", "FREQ=MONTHLY;BYMONTHDAY=10", "Asia/Shanghai", "2026-12-10"),
        (
            "每周一晚上跑步到明年3月底",
            "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270331T155959Z",
            "Asia/Shanghai",
            "2026-12-07T19:00:00+08:00",
        ),
        ("4pm CET call with Berlin team tomorrow", None, "Europe/Berlin", "2026-12-02T16:00:00+01:00"),
        ("Team sync every Tuesday 9am New York time", "FREQ=WEEKLY;BYDAY=TU", "America/New_York", "2026-12-01T09:00:00-05:00"),
    ],
)
def test_the_rule_and_zone_in_the_json_are_what_the_export_carries(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, rrule: str | None, tz: str, start: str
) -> None:
    """Issue 28's contract: "rrule" and "tz" are added, and the exported VEVENT carries an
    equivalent RRULE, the same DTSTART and its TZID."""
    from datetime import datetime

    db = tmp_path / "r.sqlite3"
    code, preview, _ = run(capsys, db, "--json", "quick", text, "--dry-run")
    assert code == 0 and (preview["rrule"], preview["tz"], preview["start"]) == (rrule, tz, start)
    code, created, _ = run(capsys, db, "--json", "quick", text)
    assert code == 0 and created["outcome"] == "created" and created["rrule"] == rrule and created["tz"] == tz
    events = [c for c in _exported(capsys, db, tmp_path).walk("VEVENT")]
    assert len(events) == 1
    event = events[0]
    dtstart = _dated(event["DTSTART"])
    if isinstance(dtstart, datetime):
        assert dtstart.isoformat() == start and event["DTSTART"].params.get("TZID") == tz
    else:
        assert dtstart.isoformat() == start
    exported = event.get("RRULE")
    if rrule is None:
        assert exported is None
    else:
        from agent.timesym.recurrence import Recurrence

        text_rule = exported.to_ical().decode()
        assert Recurrence.from_rrule(text_rule) == Recurrence.from_rrule(rrule)


def test_a_lunar_yearly_repeat_is_null_rrule_and_the_lunar_word(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    code, lunar, _ = run(capsys, db, "--json", "quick", "每年农历八月十五 中秋聚餐")
    assert code == 0 and (lunar["repeat"], lunar["rrule"], lunar["title"], lunar["start"]) == (
        "LUNAR_YEARLY",
        None,
        "中秋聚餐",
        "2027-09-15",
    )
    event = next(iter(_exported(capsys, db, tmp_path).walk("VEVENT")))
    assert event.get("RRULE") is None and event.get("RDATE") is not None


def test_the_human_line_shows_both_clocks_of_a_zoned_event(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, human, _ = run(capsys, tmp_path / "r.sqlite3", "quick", "4pm CET call with Berlin team tomorrow", "--dry-run")
    assert code == 0 and "16:00 CET = 23:00 here" in human
    code, human, _ = run(capsys, tmp_path / "r.sqlite3", "quick", "每两周周三下午三点一对一 共6次", "--dry-run")
    assert code == 0 and "(Every 2 weeks on Wed, 6 times)" in human  # the catalogue's repeat words


@pytest.mark.parametrize(
    ("text", "title", "tags"),
    [("Dentist Dec 2 3pm #health #teeth", "Dentist", ["health", "teeth"]), ("明天下午三点 看牙 #健康", "看牙", ["健康"])],
)
def test_tags_are_written_as_categories_and_keep_every_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, title: str, tags: list[str]
) -> None:
    """Quick add's #tags: "categories" is added to the JSON (every other key kept), a span
    of role "tags" says each, and the event is written with them (the listing shows them)."""
    db = tmp_path / "r.sqlite3"
    code, preview, _ = run(capsys, db, "--json", "quick", text, "--dry-run")
    assert code == 0 and list(preview) == KEYS
    assert (preview["title"], preview["categories"]) == (title, tags)
    assert [span["text"] for span in preview["spans"] if span["role"] == "tags"] == ["#" + tag for tag in tags]
    code, created, _ = run(capsys, db, "--json", "quick", text)
    assert code == 0 and created == {**preview, "outcome": "created"}
    (event,) = listed(capsys, db)
    assert (event["title"], event["categories"]) == (title, tags)
    code, human, _ = run(capsys, db, "quick", text, "--dry-run")
    assert code == 0 and f"{title} {' '.join('#' + tag for tag in tags)}  [" in human


@pytest.mark.parametrize(("first", "second"), [("明天下午三点和张三开会", "明天三点半和李四开会"), (None, "昨天下午三点开会")])
def test_a_refused_quick_leaves_no_pending_command_for_the_chat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, first: str | None, second: str
) -> None:
    """Issue 32, defect 6: a conflict or a past time answered in the terminal stayed the active
    pending command, and the chat pane showed it as a chip at the next start, which with no
    model could only be dismissed. A terminal refusal belongs to the terminal."""
    from agent.services.command_types import ACTIVE

    db = tmp_path / "r.sqlite3"
    if first is not None:
        assert run(capsys, db, "quick", first)[0] == 0
    code, answer, _ = run(capsys, db, "--json", "quick", second)
    assert code == 0 and answer["outcome"] in ("conflict", "past_time")
    with sqlite3.connect(db) as conn:
        marks = ", ".join("?" for _ in ACTIVE)
        pending = conn.execute(f"SELECT title FROM commands WHERE status IN ({marks})", tuple(ACTIVE)).fetchall()
    assert pending == []
