"""``--now``: the one reading of a pretended "now", shared by the CLI and the desktop app.

They used to read a value without an offset differently (issue 23): the CLI as wall time
in ``--tz``, the app as the machine's local time (a naive ``datetime.astimezone``), so on a
UTC machine ``--now 2026-12-01T10:00 --tz Asia/Shanghai`` put the app's now-line and undo
stamps at 18:00. Now both call :func:`read_now`:

* with an offset or ``Z`` (``2026-12-01T10:00+08:00``), the value is that instant;
* without one (``2026-12-01T10:00``), it is wall time in the zone the program runs in:
  ``--tz``, else the zone in Settings (the machine's zone unless changed), with the zone's
  DST rule for a time that falls in a gap or a fold (:func:`local_datetime`).

The caller passes that zone (the CLI and the app each know where theirs comes from); None
means the machine's zone. The day must lie where the date symbols work
(:func:`now_problem`): year 9999 overflowed the undo journal's stamps and year 1 every "a
week from now".
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent.errors import UserFacingError
from agent.timesym.context import load_zone, local_datetime, system_zone_name
from agent.timesym.resolve import now_problem

SHOWN_MAX = 80  # characters of a bad value repeated in the error line


class NowError(UserFacingError):
    """A ``--now`` that is not an ISO 8601 date-time, or lies outside the usable dates."""


def read_now(value: str, zone: ZoneInfo | None = None) -> datetime:
    """``value`` as an aware instant, expressed in ``zone`` (see the module docstring)."""
    where = zone if zone is not None else load_zone(system_zone_name())
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise NowError("timesym.bad_now", value=value[:SHOWN_MAX]) from None
    problem = now_problem(parsed.date())
    if problem is not None:
        raise NowError("timesym.now_problem", problem=problem)
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        return local_datetime(parsed.date(), parsed.time(), where)
    return parsed.astimezone(where)
