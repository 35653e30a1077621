"""What every window and pane of one running app shares: store, profile, clock, writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from agent.services.settings import SettingsService
from agent.store.db import Store
from agent.timesym.context import TimeContext
from app.write_path import Operations

if TYPE_CHECKING:
    from agent.runtime.session import ChatSession


@dataclass
class AppContext:
    store: Store
    profile_id: int
    ops: Operations
    settings: SettingsService
    make_session: Callable[[], ChatSession]
    tz_override: str | None = None
    clock: Callable[[], datetime] | None = None  # tests and screenshots pin time
    _session: ChatSession | None = field(default=None, init=False, repr=False)

    @property
    def session(self) -> ChatSession:
        """The chat session, made on first use (the chat pane, after the first paint): the
        agent runtime behind it costs ~0.2 s CPU to import, which the calendar never needs."""
        if self._session is None:
            self._session = self.make_session()
        return self._session

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.tz_override or self.settings.timezone_name())

    def now(self) -> datetime:
        return self.clock().astimezone(self.tz) if self.clock else datetime.now(self.tz)

    def time_context(self) -> TimeContext:
        return TimeContext(now=self.now(), tz=self.tz, holiday_country=str(self.settings.get("holiday_country")))
