"""Errors raised by services, sync, the CLI and the evals carry catalogue codes: the same
error reads in Chinese for a Chinese reader and, byte for byte as before, in English."""

from __future__ import annotations

import pytest

from agent.cli.common import CliError, checked_path
from agent.errors import NotFoundError, ValidationError
from agent.evals.cases import CaseError, parse_case
from agent.services.calendars import CalendarService
from agent.services.memory import MemoryService
from agent.services.text import check_text
from agent.store.db import Store
from agent.sync.accounts import SyncError, pick_remote


def test_a_missing_calendar_reads_in_both_languages(store: Store, profile_id: int) -> None:
    with pytest.raises(NotFoundError) as caught:
        CalendarService(store, profile_id).get("没有这个")
    names = ", ".join(CalendarService(store, profile_id).names())
    assert caught.value.code == "services.no_calendar"
    assert str(caught.value) == f"no calendar named '没有这个'; calendars: {names}"
    assert caught.value.text("zh") == f"没有名为 '没有这个' 的日历；现有日历：{names}"


def test_memory_and_text_limits_name_the_limit_in_each_language(store: Store, profile_id: int) -> None:
    with pytest.raises(ValidationError) as caught:
        MemoryService(store, profile_id).remember("  ")
    assert caught.value.text("zh") == "没有可记住的内容：内容为空"
    with pytest.raises(ValidationError) as caught:
        check_text("x" * 30, "event_title", 20)
    assert str(caught.value) == "an event title is at most 20 characters (this one has 30)"
    assert caught.value.text("zh") == "事件标题最多 20 个字符（这个有 30 个）"


def test_sync_error_keeps_its_kind_and_the_server_text_as_data() -> None:
    error = SyncError("sync.no_calendar_list", kind="not_caldav", text="HTTP 500: oops")
    assert (error.kind, str(error)) == ("not_caldav", "the server did not list calendars (HTTP 500: oops)")
    assert error.text("zh") == "服务器没有列出日历（HTTP 500: oops）"
    assert SyncError("sync.no_account").kind == "other"
    with pytest.raises(NotFoundError) as caught:
        pick_remote([], "work")
    assert str(caught.value) == "the server has no calendar 'work'; it has: none"
    assert "none" not in caught.value.text("zh")


def test_cli_errors_print_english_and_a_wrapped_error_keeps_its_languages() -> None:
    with pytest.raises(CliError) as caught:
        checked_path(" ", "calendar_file")
    assert str(caught.value) == "the calendar file is empty; give a file name"
    with pytest.raises(CliError) as caught:
        checked_path("x" * 300, "--output")
    assert str(caught.value) == f"--output is too long for a file name (at most 255 bytes a name): {'x' * 60}…"
    wrapped = CliError.of(ValidationError("services.last_calendar"))
    assert (str(wrapped), wrapped.text("zh")) == ("the last calendar cannot be deleted", "不能删除最后一个日历")
    assert str(CliError.of(ValueError("plain"))) == "plain"


def test_a_bad_case_says_where_in_both_languages() -> None:
    with pytest.raises(CaseError) as caught:
        parse_case({"id": "a"}, "offline", "x.jsonl:3")
    assert str(caught.value) == "x.jsonl:3: missing 'group'"
    assert caught.value.text("zh") == "x.jsonl:3：缺少 'group'"


def test_a_failed_request_and_a_run_problem_read_in_both_languages() -> None:
    from agent.sync.remote_errors import RemoteError, Stale, classify_failure, describe_transport
    from agent.sync.report import SyncProblem

    code, params = describe_transport(ConnectionRefusedError("[Errno 111] Connection refused"), "https://dav.example/x/", 30)
    error = RemoteError(code, **params)
    assert str(error) == "cannot reach dav.example: connection refused"
    assert error.text("zh") == "无法连接 dav.example：连接被拒绝"
    stale = classify_failure(RemoteError("sync.http_failed", status=412, what="PUT", http=412))
    assert isinstance(stale, Stale) and (str(stale), stale.status) == ("PUT: HTTP 412", 412)
    problem = SyncProblem.of("home", "工作", None, "sync.upload_failed", text="HTTP 500: boom")
    assert problem.message == "could not upload: HTTP 500: boom"
    assert str(problem) == "home / 工作: could not upload: HTTP 500: boom"
    assert problem.text("zh") == "home / 工作: 无法上传：HTTP 500: boom"
