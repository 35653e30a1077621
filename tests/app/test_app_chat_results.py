"""What the chat pane reads from a turn: typed results, the tool's own status label, the
pending chip's expiry from its stub, and one span formatter for receipts and dialogs
(the stub side: tests/agent/services/test_commands_reads.py)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict

from agent.models.script_backend import ScriptedModel
from agent.runtime import receipts as R
from agent.runtime.toolkit import Receipt, Tool, ToolDeps, ToolResult, Wording
from agent.runtime.tools import TOOLS
from agent.runtime.turn_types import TurnResult
from agent.services.command_types import Outcome
from tests.support.clock import NOW, SHANGHAI


class _NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _ping(deps: ToolDeps, args: _NoArgs) -> ToolResult:
    return ToolResult(ok=True, payload={}, value="pong")


PING = Tool(
    name="ping",
    args=_NoArgs,
    description="Ping.",
    handler=_ping,
    status=Wording(en="Pinging…", zh="正在连通…"),
    terminal=True,
    receipt=lambda result, lang, today: Receipt("pong", "pong", "pong"),
)


def test_a_tool_call_shows_the_tools_own_label_in_the_interface_language(make_pane, qtbot, app_ctx) -> None:
    app_ctx.session.assistant.tools = TOOLS.plus(PING)
    pane = make_pane(ScriptedModel([{"tool_calls": [{"name": "ping", "arguments": {}}]}]))
    labels: list[str] = []
    on_event = pane.progress.on_event
    pane.progress.on_event = lambda event, label="": (labels.append(label), on_event(event, label))[1]
    app_ctx.settings.override("language", "zh")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as done:
        pane.send_message("ping")
    assert done.args[0].reply == "pong" and "正在连通…" in labels
    app_ctx.settings.override("language", "en")
    assert pane._tool_status("ping") == "Pinging…" and pane._tool_status("query_schedule_range") == "Reading your calendar…"
    assert pane._tool_status("no_such_tool") == "Working…"


def test_the_pending_chip_ends_when_its_stub_expires(make_pane, app_ctx) -> None:
    pane = make_pane(None)
    stub_expiry = NOW + timedelta(minutes=7)  # not the setting's lifetime: the stub's own
    outcome = Outcome("needs_date", title="体检", candidates=[date(2026, 12, 5)], expires_at=stub_expiry)
    result = TurnResult(reply="哪一天？", outcome="needs_date", candidates=["2026-12-05"], receipt=outcome)
    pane._show_result(result)
    remaining = pane.pending.timer.remainingTime()
    assert pane.pending.timer.isActive() and 6.5 * 60_000 <= remaining <= 7.5 * 60_000


def _shown(start: Any, end: Any) -> tuple[str, str]:
    from app.chat.spans import span_text

    return R.span_label(start, end, "en", NOW.date()), span_text(start, end, SHANGHAI, NOW.date())


def test_receipts_and_dialogs_share_one_span_formatter() -> None:
    # The same rules in two vocabularies: one day or two, times or all day, the year when it differs.
    sh = SHANGHAI
    assert _shown(datetime(2026, 12, 1, 23, tzinfo=sh), datetime(2026, 12, 2, tzinfo=sh)) == (
        "Tue 1 Dec 23:00–00:00",
        "Tue 12/1 23:00–00:00",
    )
    assert _shown(datetime(2026, 12, 31, 22, tzinfo=sh), datetime(2027, 1, 1, 2, tzinfo=sh)) == (
        "Thu 31 Dec 2026 22:00–Fri 1 Jan 2027 02:00",
        "Thu 2026/12/31 22:00 – Fri 2027/1/1 02:00",
    )
    assert _shown(date(2026, 12, 5), date(2026, 12, 7)) == ("Sat 5 Dec–Sun 6 Dec all day", "Sat 12/5 – Sun 12/6 · all day")


def test_a_pending_choice_comes_back_typed_after_a_restart(make_pane, qtbot, app_ctx) -> None:
    from tests.support.chat_fixtures import add_event, call

    for title, hour in (("项目周会", 10), ("评审会", 15)):
        add_event(
            app_ctx.store,
            app_ctx.profile_id,
            title,
            datetime(2026, 12, 1, hour, tzinfo=SHANGHAI),
            datetime(2026, 12, 1, hour + 1, tzinfo=SHANGHAI),
        )
    first = make_pane(ScriptedModel([call("update_schedule", targetTitle="会", targetDate="D+1", newDate="D+2")]))
    with qtbot.waitSignal(first.turn_finished, timeout=5000) as done:
        first.send_message("把明天的会挪到后天")
    live = [b.text() for b in first.candidate_bar.options]
    assert done.args[0].outcome == "edit_choice"
    assert live == ["1. 周二 12/1 10:00 项目周会（日程）", "2. 周二 12/1 15:00 评审会（日程）"]
    again = make_pane(None)  # the app restarted: the chip and its buttons come from the stored question
    assert [b.text() for b in again.candidate_bar.options] == live and again.candidate_bar.status == "edit_choice"
    assert again.pending.timer.isActive() and again.pending.timer.remainingTime() > 25 * 60_000
