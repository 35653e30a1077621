"""What every window and pane of one running app shares: store, profile, clock, writes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from agent.runtime.session import ChatSession
from agent.services.settings import SettingsService
from agent.store.db import Store
from agent.timesym.context import TimeContext
from app.operations import Operations


@dataclass
class AppContext:
    store: Store
    profile_id: int
    ops: Operations
    settings: SettingsService
    session: ChatSession
    tz_override: str | None = None
    clock: Callable[[], datetime] | None = None  # tests and screenshots pin time

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.tz_override or self.settings.timezone_name())

    def now(self) -> datetime:
        return self.clock().astimezone(self.tz) if self.clock else datetime.now(self.tz)

    def time_context(self) -> TimeContext:
        return TimeContext(now=self.now(), tz=self.tz, holiday_country=str(self.settings.get("holiday_country")))
