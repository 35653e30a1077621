"""The suite's one clock: every test that needs "now" reads it here, never from the system.

The reference instant is Monday 2026-11-30 10:00 in Asia/Shanghai. Tests that pass an
instant to the CLI use ``NOW_ARG``, the same instant as text.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from agent.timesym.context import TimeContext

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=SHANGHAI)  # a Monday
TODAY = MONDAY = date(2026, 11, 30)
NOW_ARG = "2026-11-30T10:00:00+08:00"


def ctx_at(value: datetime, tz: ZoneInfo = SHANGHAI) -> TimeContext:
    return TimeContext(now=value, tz=tz)


class SetClock:
    """A clock a test moves by hand (``clock.now = …``), for a store that must see a day pass."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now
