"""The progress strip of the chat pane: each phase in words, and a Stop that works in each.

The models here hold each phase open until the test releases it (events, not sleeps), so
what is asserted is what the strip says in that phase and that a Stop pressed there ends
the turn; nothing is timed. ``RICHENG_SHOTS=1`` saves a screenshot of each phase.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from agent.models.base import ModelEvent, ModelResponse, Progress, Usage
from tests.support.chat_fixtures import save_shot

REPLY = "好的，我在。"


class PhasedModel:
    """Loading, then reading 40/100 tokens, then a reply; each phase lasts until released."""

    name = "phased"

    def __init__(self) -> None:
        self.release = {"loading": threading.Event(), "reading": threading.Event(), "writing": threading.Event()}
        self.calls = 0

    def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> Iterator[ModelEvent]:
        self.calls += 1
        while not self.release["loading"].wait(0.01):
            yield ModelEvent(kind="progress", progress=Progress("loading"))
        while not self.release["reading"].wait(0.01):
            yield ModelEvent(kind="progress", progress=Progress("reading", 40, 100))
        yield ModelEvent(kind="token", text=REPLY)
        self.release["writing"].wait(10)
        yield ModelEvent(kind="done", response=ModelResponse(content=REPLY, tool_calls=[], usage=Usage()))

    def complete(self, *args: Any, **kwargs: Any) -> ModelResponse:
        raise NotImplementedError


def test_each_phase_is_named_and_the_strip_goes_when_the_turn_ends(make_pane, qtbot) -> None:
    model = PhasedModel()
    pane = make_pane(model)
    strip = pane.progress
    assert not strip.isVisible()
    pane.send_message("你好")
    assert strip.isVisible() and strip.phase == "waiting" and pane.send_button.text() == "Stop"
    qtbot.waitUntil(lambda: strip.phase == "loading", timeout=5000)
    assert strip.label.text() == "Loading the model…"
    save_shot(pane, "progress_loading")
    model.release["loading"].set()
    qtbot.waitUntil(lambda: strip.phase == "reading", timeout=5000)
    assert strip.label.text() == "Reading the prompt: 40 / 100 tokens"
    assert strip.bar.maximum() == 100 and strip.bar.value() == 40
    save_shot(pane, "progress_reading")
    model.release["reading"].set()
    qtbot.waitUntil(lambda: strip.phase == "writing", timeout=5000)
    assert strip.label.text() == "Writing the reply…"
    save_shot(pane, "progress_writing")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        model.release["writing"].set()
    assert blocker.args[0].outcome == "chat" and pane.last_reply.text() == REPLY
    assert not strip.isVisible()


@pytest.mark.parametrize("phase", ["loading", "reading"])
def test_stop_ends_the_turn_in_every_model_phase(make_pane, qtbot, phase: str) -> None:
    model = PhasedModel()
    model.release["writing"].set()
    if phase == "reading":
        model.release["loading"].set()
    pane = make_pane(model)
    pane.send_message("你好")
    qtbot.waitUntil(lambda: pane.progress.phase == phase, timeout=5000)
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_button.click()  # the send button is the Stop while a turn runs
        assert pane.progress.phase == "stopping" and pane.progress.label.text() == "Stopping…"
        save_shot(pane, f"progress_stopping_{phase}")
    assert blocker.args[0].outcome == "stopped"
    assert not pane.is_busy() and not pane.progress.isVisible()


def test_stop_works_while_another_thread_is_still_loading_the_model(make_pane, qtbot) -> None:
    """The app's LazyModel while its warm-up thread holds the load: the turn can still stop."""
    from app.model_loader import LazyModel

    lazy = LazyModel("script:unused.json")
    pane = make_pane(lazy)
    assert lazy._lock.acquire(timeout=5)  # stands in for the warm-up thread mid-load
    try:
        pane.send_message("你好")
        qtbot.waitUntil(lambda: pane.progress.phase == "loading", timeout=5000)
        with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
            pane.stop()
        assert blocker.args[0].outcome == "stopped"
    finally:
        lazy._lock.release()


def test_a_tool_call_is_named_and_writing_follows_the_first_token(qapp) -> None:
    from agent.runtime.turn_types import TurnEvent
    from app.chat.progress import TurnProgress

    now = [10.0]
    strip = TurnProgress(clock=lambda: now[0])
    strip.start()
    strip.on_event(TurnEvent("progress", payload=Progress("reading")))
    assert strip.label.text() == "Reading the prompt…"  # a hosted server gives no counts
    strip.on_event(TurnEvent("tool_call", name="query_schedule_range"), "Reading your calendar…")
    assert strip.label.text() == "Calling a tool: Reading your calendar…"
    strip.on_event(TurnEvent("tool_result", name="query_schedule_range"))
    assert strip.phase == "waiting"
    strip.on_event(TurnEvent("progress", payload=Progress("writing", 3)))  # a tool call being written
    assert strip.phase == "writing" and strip.label.text() == "Writing the reply…"
    strip.on_event(TurnEvent("token", "好"))
    assert strip.label.text() == "Writing the reply…" and strip.bar.isHidden()
    now[0] = 52.9
    strip._tick()
    assert strip.elapsed.text() == "42 s"


def test_a_turn_waits_while_the_warm_up_still_holds_a_model_it_has_published() -> None:
    """Between loading the file and registering the prefix warm-up the model is already set;
    a turn that took it then would read the whole prefix itself (a benchmark caught this)."""
    from agent.models.script_backend import ScriptedModel
    from app.model_loader import LazyModel

    lazy = LazyModel("script:unused.json")
    lazy._model = ScriptedModel([{"content": REPLY}])
    assert lazy._lock.acquire(timeout=5)  # the warm-up thread, mid-registration
    stream = lazy.stream([{"role": "user", "content": "你好"}], [])
    first = next(stream)
    assert first.kind == "progress" and first.progress is not None and first.progress.phase == "loading"
    lazy._lock.release()
    rest = list(stream)
    assert rest[-1].kind == "done" and rest[-1].response is not None and rest[-1].response.content == REPLY


def test_the_tool_phase_is_named_and_a_stop_there_ends_the_turn(make_pane, qtbot, app_ctx) -> None:
    """A tool the turn is running (held open here) shows as "Calling a tool: <its status>";
    Stop pressed then lets the tool finish its step and ends the turn before the next model
    call."""
    from pydantic import BaseModel, ConfigDict

    from agent.models.script_backend import ScriptedModel
    from agent.runtime.toolkit import Tool, ToolDeps, ToolResult, Wording
    from agent.runtime.tools import TOOLS

    running, release = threading.Event(), threading.Event()

    class LookupArgs(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def lookup(deps: ToolDeps, args: LookupArgs) -> ToolResult:
        running.set()
        release.wait(10)
        return ToolResult(ok=True, payload={"found": 0})

    slow = Tool(
        name="slow_lookup",
        args=LookupArgs,
        description="Look something up.",
        handler=lookup,
        status=Wording(en="Looking it up…", zh="正在查找…"),
    )
    model = ScriptedModel([{"tool_calls": [{"name": "slow_lookup", "arguments": {}}]}, {"content": REPLY}])
    app_ctx.session.assistant.tools = TOOLS.plus(slow)
    pane = make_pane(model)
    pane.send_message("查一下")
    qtbot.waitUntil(lambda: running.is_set() and pane.progress.phase == "tool", timeout=5000)
    assert pane.progress.label.text() == "Calling a tool: Looking it up…"
    save_shot(pane, "progress_tool")
    with qtbot.waitSignal(pane.turn_finished, timeout=5000) as blocker:
        pane.send_button.click()
        assert pane.progress.phase == "stopping"
        save_shot(pane, "progress_stopping_tool")
        release.set()
    assert blocker.args[0].outcome == "stopped" and model.calls == 1  # no model call after the Stop
    assert not pane.is_busy() and not pane.progress.isVisible()
