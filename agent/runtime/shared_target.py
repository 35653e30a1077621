"""A target several events share: the user chooses, whatever day the model sent (issue 30).

With two 网球课 on different days, "把网球课改到晚上八点" names no day: the model has to pick
one, and whichever it picks is a guess the user never made. Code knows the events; it does
not need the model's guess. Before an ``update_schedule`` / ``delete_schedule`` call is
searched, this looks at every upcoming event the user's target words match (no day, the
edit search's own window and matching, ``targets.find_targets``):

* a series counts as **one** target only when the user's words name a series scope
  (以后 / 每次 / 都 / from now on / every …, ``grounding.scope_allowed``); otherwise each of
  its instances is its own target, so "组会改到下午三点" with a weekly 组会 is not "this
  week's" by default;
* when the targets lie on more than one day, the days and times the message names
  (``date_mentions`` / ``time_mentions`` — 周四的, 早上九点那节, "Sunday's", "the 9am") must
  separate them: the ones they name lie on one day. If they do not, the model's
  ``targetDate`` / ``targetTime`` are dropped, the search finds every match and the edit
  service lists them as a choice (``edit_choice``): buttons in the pane, 第二个 / 10点那个
  answered by code, nothing written until the user picks.

It decides nothing else: a message that separates the targets goes on to the normal checks
(the model's day is then compared with the named day by ``edit_reasons``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from agent.errors import UserFacingError
from agent.runtime.grounding import scope_allowed
from agent.services.queries import QueryService
from agent.services.targets import find_targets
from agent.store.occurrence import Occurrence
from agent.timesym.clarify import date_mentions, time_mentions
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError

#: The target fields this rule drops when the words do not separate the events.
TARGET_PICKS = ("targetDate", "targetTime")


def shared_reason(args: dict[str, Any], user_text: str, queries: QueryService, ctx: TimeContext) -> str | None:
    """``shared:<n>`` when the target words match upcoming events on ``n`` > 1 days that the
    message's day and time words do not separate; None otherwise (including when the model
    sent no target words: a day alone is the model reading the user's day word)."""
    words = str(args.get("targetTitle") or "").strip()
    if not words or not user_text:
        return None
    try:
        search = find_targets(queries, ctx, words, None, None)
    except (SymbolError, UserFacingError, ValueError):
        return None
    upcoming = [occ for occ in search.matches if _ends_after(occ, ctx.now)]
    series_scope = scope_allowed(user_text) in ("all", "following")
    targets = _one_per_series(upcoming) if series_scope else upcoming
    if len({_day(occ, ctx) for occ in targets}) <= 1:
        return None
    named_days = {day for mention in date_mentions(user_text, ctx) for day in mention.days}
    named_times = time_mentions(user_text, ctx)
    kept = [occ for occ in targets if _day(occ, ctx) in named_days or _hhmm(occ, ctx) in named_times]
    days = {_day(occ, ctx) for occ in kept}
    if len(days) == 1:
        return None
    return f"shared:{len({_day(occ, ctx) for occ in targets})}"


def drop_target_pick(args: dict[str, Any]) -> None:
    """Remove the model's pick (day, time) from ``args`` in place, so the search lists all."""
    for key in TARGET_PICKS:
        args.pop(key, None)


def _ends_after(occ: Occurrence, now: datetime) -> bool:
    end = occ.end
    if isinstance(end, datetime):
        return end > (now if end.tzinfo else now.replace(tzinfo=None))
    return end > now.date()


def _day(occ: Occurrence, ctx: TimeContext) -> date:
    start = occ.start
    if isinstance(start, datetime):
        return start.astimezone(ctx.tz).date() if start.tzinfo else start.date()
    return start


def _hhmm(occ: Occurrence, ctx: TimeContext) -> str | None:
    start = occ.start
    if not isinstance(start, datetime):
        return None
    local = start.astimezone(ctx.tz) if start.tzinfo else start
    return f"{local:%H:%M}"


def _one_per_series(matches: list[Occurrence]) -> list[Occurrence]:
    """A series with a scope the user said is one target (its first upcoming instance)."""
    seen: set[str] = set()
    kept: list[Occurrence] = []
    for occ in matches:
        key = occ.uid if occ.recurrence_id is not None else f"{occ.uid}#{occ.start.isoformat()}"
        if key not in seen:
            seen.add(key)
            kept.append(occ)
    return kept


__all__ = ["TARGET_PICKS", "drop_target_pick", "shared_reason"]
