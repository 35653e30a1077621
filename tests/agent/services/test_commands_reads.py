"""The pending command as the app and the turn read it: reads only read, and an outcome
carries its stub's own expiry (the chat pane's chip ends with it)."""

from __future__ import annotations

from datetime import timedelta

from agent.services.commands import CommandService
from agent.store.db import Store
from agent.timesym.context import TimeContext
from tests.support.clock import ctx_at


def test_a_turns_outcome_carries_its_stubs_expiry(store: Store, profile_id: int, ctx: TimeContext) -> None:
    commands = CommandService(store, profile_id, ctx)
    outcome = commands.prepare_or_create("体检", "WE")
    stub = commands.stub(outcome.command_id or 0)
    assert outcome.status == "needs_date" and stub is not None and outcome.expires_at == stub.expires_at


def test_reading_the_pending_command_writes_nothing(store: Store, profile_id: int, ctx: TimeContext) -> None:
    commands = CommandService(store, profile_id, ctx)
    outcome = commands.prepare_or_create("体检", "WE")
    reader = CommandService(store, profile_id, ctx_at(ctx.now + timedelta(days=1)))
    status = "SELECT status FROM commands WHERE id = ?"
    assert reader.active_stub() is None  # expired by its clock ...
    assert store.conn.execute(status, (outcome.command_id,)).fetchone()[0] == "needs_date"  # ... yet not written
    reader.expire_stale()  # the explicit write
    assert store.conn.execute(status, (outcome.command_id,)).fetchone()[0] == "expired"
