"""State claims meet facts (issue 30, item 4): the card code writes under a model reply
that talked calendar on a turn that read nothing, the machine-checked ``--json`` contract,
the range reading behind it, and each rule switched off as a mutation check.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from agent.cli.main import main
from agent.evals.cases import Case, load_cases
from agent.evals.expect import check
from agent.evals.runner import run_case
from agent.runtime import day_range, facts_card, turn
from agent.runtime.day_range import spoken_range
from agent.runtime.facts_card import Facts, card_text, next_search
from agent.store.occurrence import Occurrence
from agent.timesym.context import TimeContext
from evals.corpora import facts_heldout as heldout

TZ = ZoneInfo("Asia/Shanghai")
CTX = TimeContext.system(now=datetime(2026, 12, 1, 10, tzinfo=TZ), tz="Asia/Shanghai", holiday_country="CN")


def _claims() -> list[Case]:
    return [case for case in _cases("fresh30_claims") if "answers" in case.turns[0].expect]


def _cases(group: str) -> list[Case]:
    cases = load_cases("offline", group=group)
    assert cases, group  # the batch runs in the offline suite (evals/cases/offline/)
    return cases


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("明天下午能约个人喝咖啡吗", "12-02 12:00/12-02 18:00"),
        ("下周一到周三都有哪些会", "12-07 00:00/12-10 00:00"),
        ("这周四至周六忙吗", "12-03 00:00/12-06 00:00"),
        ("下周日程多吗", "12-07 00:00/12-14 00:00"),  # 日程 is no Sunday
        ("今晚有安排没", "12-01 18:00/12-02 00:00"),
        ("how busy am I Monday through Wednesday next week?", "12-07 00:00/12-10 00:00"),
        ("is this afternoon still free?", "12-01 12:00/12-01 18:00"),
        ("anything on the 24th?", "12-24 00:00/12-25 00:00"),
        ("what does my week look like", "11-30 00:00/12-07 00:00"),
        ("这周四和周五哪天更空", "12-03 00:00/12-05 00:00"),  # two days: whole days, no period
    ],
)
def test_the_range_a_message_names(text: str, window: str) -> None:
    span = spoken_range(text, CTX)
    assert span is not None and f"{span.start:%m-%d %H:%M}/{span.end:%m-%d %H:%M}" == window


def test_no_day_no_range() -> None:
    assert spoken_range("谢谢你", CTX) is None and spoken_range("can you set reminders?", CTX) is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我下次开会是什么时候", "会"),
        ("下一次看牙是哪天", "牙"),
        ("我最近一次聚餐定在哪天了", "聚餐"),
        ("when is my next dentist?", "dentist"),
        ("when's the next team meeting", "team meeting"),
        ("when do I see the dentist again", "dentist"),
        ("谢谢你", None),
    ],
)
def test_the_words_of_a_next_question(text: str, words: str | None) -> None:
    assert next_search(text) == words


def _occ(title: str, start: str, end: str) -> Occurrence:
    return Occurrence(
        event_id=1, series_id=1, uid=title, recurrence_id=None, title=title,
        start=datetime.fromisoformat(start).replace(tzinfo=TZ), end=datetime.fromisoformat(end).replace(tzinfo=TZ),
        all_day=False, floating=False, tzid="Asia/Shanghai", calendar="日程", calendar_id=1, color="", location="",
        description="", transp="OPAQUE", status="CONFIRMED", completed=False, origin="",
    )  # fmt: skip


def test_the_card_says_what_the_query_returned_and_nothing_more() -> None:
    day = (datetime(2026, 12, 3, tzinfo=TZ), datetime(2026, 12, 4, tzinfo=TZ))
    events = (_occ("周会", "2026-12-03T09:00", "2026-12-03T10:00"), _occ("评审", "2026-12-03T14:00", "2026-12-03T15:00"))
    full = card_text(Facts(*day, events, CTX.today), "zh")
    assert full == "日历里查到的：12月3日（周四）：2 个安排 · 09:00 周会 · 14:00 评审"
    assert card_text(Facts(*day, events[:1], CTX.today), "en") == "From your calendar: Thu 3 Dec: 1 event(s) · 09:00 周会"
    assert card_text(Facts(*day, (), CTX.today), "en") == "From your calendar: Thu 3 Dec: nothing scheduled"
    many = tuple(_occ(f"E{i}", "2026-12-03T09:00", "2026-12-03T10:00") for i in range(9))
    text = card_text(Facts(*day, many, CTX.today), "en")
    assert "9 event(s)" in text and "E5" in text and "E6" not in text and "and 3 more" in text


def test_json_carries_facts_on_exactly_the_turns_with_a_card() -> None:
    for case in _claims() + _cases("fresh30_harmless"):
        run = run_case(case)
        record = run.turns[0]
        assert not check(run), (case.id, check(run))
        assert (record.facts is None) == (record.facts_card is None), case.id
        if record.facts is not None:
            assert record.calendar_note and record.guard is None and record.calendar == "unchanged"


def test_every_state_claim_ends_replaced_or_with_a_card_for_the_range_the_user_named() -> None:
    cases = _claims()
    assert len(cases) == 45
    failing = [case.id for case in cases if check(run_case(case))]
    assert failing == []


def _cli(tmp_path: Path, reply: str, message: str, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    db = str(tmp_path / "r.sqlite3")
    base = ["--db", db, "--now", "2026-12-01T10:00:00+08:00", "--tz", "Asia/Shanghai"]
    assert main([*base, "events", "add", "--title", "看牙", "--date", "W5", "--time", "15:00", "--end", "16:00"]) == 0
    capsys.readouterr()
    path = tmp_path / "script.json"
    path.write_text(json.dumps([{"content": reply}], ensure_ascii=False), encoding="utf-8")
    assert main([*base, "chat", message, "--model", f"script:{path}", *extra]) == 0
    return capsys.readouterr().out


def test_richeng_chat_json_and_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out: dict[str, Any] = json.loads(_cli(tmp_path, "周五就一件事：下午三点看牙。", "周五有啥事", capsys, "--json"))
    assert out["facts"] == {
        "start": "2026-12-04T00:00:00+08:00",
        "end": "2026-12-05T00:00:00+08:00",
        "events": [{"title": "看牙", "start": "2026-12-04T15:00:00+08:00", "end": "2026-12-04T16:00:00+08:00"}],
    }
    (tmp_path / "text").mkdir()
    text = _cli(tmp_path / "text", "周五就一件事：下午三点看牙。", "周五有啥事", capsys)
    assert text.splitlines() == [
        "周五就一件事：下午三点看牙。",
        "日历没有变化",
        "日历里查到的：12月4日（周五）：1 个安排 · 15:00 看牙",
    ]


def test_no_facts_key_without_a_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(_cli(tmp_path, "不客气～", "谢谢你", capsys, "--json"))
    assert "facts" not in out


def test_mutation_without_the_card_state_claims_stand_unanswered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turn, "facts_for", lambda *args: None)
    failing = [case.id for case in _claims() if check(run_case(case))]
    assert len(failing) >= 15


def test_mutation_without_the_shared_week_ranges_are_answered_for_other_days(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(day_range, "_RANGE_ZH", day_range.re.compile("(?!x)x"))
    monkeypatch.setattr(day_range, "_WEEK_EN", day_range.re.compile("(?!x)x"))
    failing = [case.id for case in _claims() if check(run_case(case))]
    assert {"fresh30_claims.state-zh-003", "fresh30_claims.state-en-005"} <= set(failing)


def test_mutation_without_the_user_range_first_the_claims_range_widens_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facts_card, "spoken_range", lambda text, ctx: None)
    failing = [case.id for case in _claims() if check(run_case(case))]
    assert "fresh30_claims.state-zh-022" in failing


def test_mutation_without_the_next_search_next_claims_get_no_card(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facts_card, "next_search", lambda text: None)
    failing = [case.id for case in _claims() if check(run_case(case))]
    assert sum(case_id.startswith("fresh30_claims.next-") for case_id in failing) == 6


def test_the_held_out_phrasings_file_is_what_its_module_writes() -> None:
    path = heldout.OUT / "facts_heldout.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert rows == json.loads(json.dumps(heldout.cases()))
