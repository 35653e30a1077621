"""Cases from use: the observation report, the candidate list, and exporting one as a case."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from agent.cli.main import main
from agent.evals.cases import load_file
from agent.evals.expect import check
from agent.evals.runner import run_case
from agent.evals.usage import candidates, export_case, load_observations, usage_report
from agent.models.script_backend import ScriptedModel
from agent.runtime.turn import Assistant
from agent.services.archive import ArchiveService
from agent.services.calendars import CalendarService
from agent.store.components import build_event
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile
from tests.support.clock import NOW, SHANGHAI, ctx_at


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def use(store: Store) -> int:
    """A morning of use: a good create, a guard replacement, a retry, a past-time create,
    a create taken back right away, a model outage."""
    profile_id = ensure_profile(store)
    calendar = CalendarService(store, profile_id).default()
    with store.transaction():
        EventRepo(store, profile_id).save(
            build_event("评审", NOW + timedelta(days=1), NOW + timedelta(days=1, hours=1)), calendar.id, "user"
        )
    turns = [
        ("明天下午三点开会", [call("prepare_or_create_schedule", title="开会", dateExpression="D+1", time="15:00")]),
        ("后天开会", [{"content": "已创建：后天开会。"}]),
        (
            "周五看牙",
            [
                call("prepare_or_create_schedule", title="看牙", dateExpression="Friday"),
                call("prepare_or_create_schedule", title="看牙", dateExpression="W5", time="10:00"),
            ],
        ),
        ("昨天下午开了个会", [call("prepare_or_create_schedule", title="开会", dateExpression="D-1", time="15:00")]),
        ("周六下午两点打球", [call("prepare_or_create_schedule", title="打球", dateExpression="W6", time="14:00")]),
        ("不对，删掉它", [{"content": "抱歉，我还不能删除日程。"}]),
        ("明天有什么安排", [{"unavailable": "connection refused"}]),
    ]
    for minute, (text, script) in enumerate(turns):
        ctx = ctx_at(NOW + timedelta(minutes=minute))
        Assistant(store, profile_id, ScriptedModel(script)).turn(text, ctx)
    return profile_id


def test_usage_report_counts(store: Store) -> None:
    profile_id = use(store)
    report = usage_report(load_observations(store, profile_id))
    assert report["turns"] == 7
    assert report["intents"]["create"] == 4 and report["intents"]["general.chat"] == 3
    assert report["outcomes"]["created"] == 3 and report["outcomes"]["past_time"] == 1
    assert report["guard_events"] == {"unverified_create_claim": 1}
    assert report["failed_rounds"] == {"tool_calls_rejected": 1, "turns_with_a_rejected_call": 1, "turns_ending_in_error": 1}
    assert report["model_calls"]["histogram"] == {"1": 6, "2": 1} and report["model_calls"]["max"] == 2
    assert {"context_build", "model_request_sent", "finish", "total"} <= set(report["latency_ms"])


def test_candidates_name_their_reasons(store: Store) -> None:
    profile_id = use(store)
    found = {item["user_text"]: item["reasons"] for item in candidates(load_observations(store, profile_id))}
    assert found["后天开会"] == ["guard:unverified_create_claim"]
    assert found["周五看牙"] == ["retries:1"]
    assert found["昨天下午开了个会"] == ["past_time"]
    assert found["周六下午两点打球"][0].startswith("cancelled_after_create:")
    assert found["明天有什么安排"] == ["error:model_unavailable"]
    assert "明天下午三点开会" not in found


def test_exported_case_is_a_valid_incomplete_live_case(store: Store, tmp_path: Path) -> None:
    profile_id = use(store)
    observations = load_observations(store, profile_id)
    target = next(obs for obs in observations if obs.user_text == "周六下午两点打球")
    record = export_case(store, profile_id, target.id, tz="Asia/Shanghai")
    assert record["incomplete"] is True and record["group"] == "create"
    assert [turn["user"] for turn in record["turns"]] == ["周六下午两点打球", "不对，删掉它"]
    assert record["observed"]["outcome"] == "created"
    titles = [event["title"] for event in record["fixtures"]["events"]]
    assert "评审" in titles and "打球" not in titles  # what existed before the turn, not what it wrote
    assert any(message["content"] == "明天下午三点开会" for message in record["fixtures"]["archive"])
    path = tmp_path / "from_use.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    case = load_file(path, "live")[0]
    run = run_case(case, model=ScriptedModel([call("prepare_or_create_schedule", title="打球", dateExpression="W6", time="14:00"),
                                              {"content": "好的"}]))  # fmt: skip
    assert any("incomplete case" in problem for problem in check(run))  # it fails until a person completes it


def test_cli_report_candidates_and_export(db_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db_file) as store:
        use(store)
    assert main(["report", "--db", str(db_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"] == 7 and data["guard_events"] == {"unverified_create_claim": 1}
    assert main(["report", "--db", str(db_file)]) == 0
    human = capsys.readouterr().out
    assert "by intent:" in human and "latency per segment" in human
    assert main(["report", "--db", str(db_file), "--candidates", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert len(found) == 5
    out = tmp_path / "cases.jsonl"
    case_id = found[0]["id"]
    assert main(["report", "--db", str(db_file), "--tz", "Asia/Shanghai", "--export-case", str(case_id), "--out", str(out)]) == 0
    assert re.search(r"wrote case use\.\d+-\d{8}", capsys.readouterr().out)
    assert load_file(out, "live")[0].incomplete
    assert main(["report", "--db", str(db_file), "--export-case", str(case_id), "--out", str(out)]) == 2  # not twice
    assert "already in" in capsys.readouterr().err
    assert main(["report", "--db", str(db_file), "--export-case", "9999", "--out", str(out)]) == 2


def test_archive_stamps_follow_the_turn_clock(store: Store) -> None:
    profile_id = use(store)
    stamps = [m.created_at for m in ArchiveService(store, profile_id).recent()]
    assert stamps[0].astimezone(SHANGHAI) == NOW
