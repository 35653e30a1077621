"""Cases from use: what the observation records say about real turns, and how one becomes a case.

Every turn writes one observation (user text, post-hoc intent, outcome, guard flag, model
calls, tools with arguments and results, the timeline). ``richeng report`` counts them;
``--candidates`` lists the turns worth keeping as cases (a guard replacement, a failed tool
round, an error, a past-time create, a create the user took back right away), and
``--export-case`` writes one into the live set as an *incomplete* case: it fails every live
run until a person fills in its expectations, so a problem found in use cannot be forgotten.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from agent.evals.cases import CaseError, cases_dir, parse_case
from agent.evals.report import latency_table, percentile
from agent.services.command_types import ACTIVE
from agent.services.settings import SettingsService
from agent.store.components import aware
from agent.store.db import Store

ERROR_OUTCOMES = frozenset({"model_unavailable", "invalid", "tool_loop_cap", "stopped"})
CANCEL_WORDS = re.compile(
    r"算了|不要了|不建了|取消|删掉|删了|撤销|搞错|不对|cancel|never\s*mind|undo|delete\s+(it|that)|wrong", re.IGNORECASE
)
CANCEL_WINDOW = timedelta(minutes=10)
GROUP_BY_INTENT = {
    "create": "create", "query_range": "query", "clarification_reply": "clarify", "memory.remember": "memory",
    "memory.search": "memory", "archive.search": "archive", "council": "council", "general.chat": "chat",
}  # fmt: skip


@dataclass(frozen=True)
class Observation:
    id: int
    created_at: datetime
    user_text: str
    intent: str
    outcome: str
    guard: str | None
    model: str | None
    model_calls: int
    data: dict[str, Any]

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list(self.data.get("tools") or [])

    @property
    def failed_rounds(self) -> int:
        return sum(1 for tool in self.tools if not tool.get("ok", True))


def load_observations(store: Store, profile_id: int) -> list[Observation]:
    rows = store.conn.execute("SELECT * FROM observations WHERE profile_id = ? ORDER BY created_at, id", (profile_id,)).fetchall()
    found = []
    for row in rows:
        try:
            data = json.loads(row["data"] or "{}")
        except ValueError:
            data = {}
        found.append(Observation(
            int(row["id"]), datetime.fromisoformat(row["created_at"]), row["user_text"], row["intent"] or "",
            row["outcome"] or "", row["guard"], row["model"], int(row["model_calls"] or 0),
            data if isinstance(data, dict) else {},
        ))  # fmt: skip
    return found


def usage_report(observations: list[Observation]) -> dict[str, Any]:
    calls = [obs.model_calls for obs in observations]
    return {
        "turns": len(observations),
        "intents": dict(Counter(obs.intent for obs in observations).most_common()),
        "outcomes": dict(Counter(obs.outcome for obs in observations).most_common()),
        "intent_outcome": {
            f"{i} -> {o}": n for (i, o), n in Counter((obs.intent, obs.outcome) for obs in observations).most_common()
        },
        "guard_events": dict(Counter(obs.guard for obs in observations if obs.guard).most_common()),
        "failed_rounds": {
            "tool_calls_rejected": sum(obs.failed_rounds for obs in observations),
            "turns_with_a_rejected_call": sum(1 for obs in observations if obs.failed_rounds),
            "turns_ending_in_error": sum(1 for obs in observations if obs.outcome in ERROR_OUTCOMES),
        },
        "model_calls": {
            "histogram": {str(k): v for k, v in sorted(Counter(calls).items())},
            "mean": round(sum(calls) / len(calls), 3) if calls else 0.0,
            "p50": percentile([float(c) for c in calls], 50),
            "p90": percentile([float(c) for c in calls], 90),
            "max": max(calls) if calls else 0,
        },
        "latency_ms": latency_table(obs.data.get("timeline") or {} for obs in observations),
        "models": dict(Counter(obs.model or "(none)" for obs in observations).most_common()),
    }


def candidates(observations: list[Observation]) -> list[dict[str, Any]]:
    """Turns worth a case, each with the reasons it was picked."""
    found: list[dict[str, Any]] = []
    for index, obs in enumerate(observations):
        reasons: list[str] = []
        if obs.guard:
            reasons.append(f"guard:{obs.guard}")
        if obs.failed_rounds:
            reasons.append(f"retries:{obs.failed_rounds}")
        if obs.outcome in ERROR_OUTCOMES:
            reasons.append(f"error:{obs.outcome}")
        if obs.outcome == "past_time":
            reasons.append("past_time")
        follow = observations[index + 1] if index + 1 < len(observations) else None
        if (
            obs.outcome == "created"
            and follow is not None
            and follow.created_at - obs.created_at <= CANCEL_WINDOW
            and (follow.outcome == "cancelled" or CANCEL_WORDS.search(follow.user_text))
        ):
            reasons.append(f"cancelled_after_create:{follow.id}")
        if reasons:
            found.append({"id": obs.id, "at": obs.created_at.isoformat(timespec="seconds"), "user_text": obs.user_text,
                          "intent": obs.intent, "outcome": obs.outcome, "reasons": reasons})  # fmt: skip
    return found


def _local(value: datetime, zone: ZoneInfo) -> str:
    return value.astimezone(zone).isoformat(timespec="seconds")


def export_case(store: Store, profile_id: int, observation_id: int, *, tz: str | None = None) -> dict[str, Any]:
    """One observation as a live case record, with what the store knew at that time."""
    observations = load_observations(store, profile_id)
    by_id = {obs.id: obs for obs in observations}
    obs = by_id.get(observation_id)
    if obs is None:
        raise CaseError("evals.no_observation", id=observation_id)
    zone = ZoneInfo(tz or SettingsService(store, profile_id).timezone_name())
    at = obs.created_at
    reasons: list[str] = next((c["reasons"] for c in candidates(observations) if c["id"] == obs.id), [])
    turns: list[dict[str, Any]] = [{"user": obs.user_text, "expect": {}}]
    for reason in reasons:
        if reason.startswith("cancelled_after_create:"):
            follow = by_id[int(reason.split(":")[1])]
            turns.append({"user": follow.user_text, "at": _local(follow.created_at, zone), "expect": {}})
    fixtures: dict[str, Any] = {}
    calendars = [row["name"] for row in store.conn.execute(
        "SELECT name FROM calendars WHERE profile_id = ? ORDER BY is_default DESC, id", (profile_id,))]  # fmt: skip
    default = calendars[0] if calendars else None
    fixtures["calendars"] = [{"name": name, "default": name == default} for name in calendars]
    written = {int(i) for i in obs.data.get("event_ids") or []}
    # What existed before the turn: ids up to the watermark the observation recorded (the
    # store's created_at is wall-clock and need not agree with the turn's clock); older
    # observations without a watermark fall back to created_at.
    bound: int | str = at.isoformat()
    bound_sql = "e.created_at < ?"
    if "max_event_id" in obs.data:
        bound_sql, bound = "e.id <= ?", int(obs.data["max_event_id"])
    events = []
    for row in store.conn.execute(
        "SELECT e.id, e.title, e.start_ts, e.end_ts, e.floating, e.all_day, e.description, e.origin, c.name AS calendar"
        f" FROM events e JOIN calendars c ON c.id = e.calendar_id WHERE e.profile_id = ? AND {bound_sql}"
        " AND e.recurrence_id = '' ORDER BY e.start_ts LIMIT 200",
        (profile_id, bound),
    ):
        if int(row["id"]) in written:
            continue
        start = aware(int(row["start_ts"]), bool(row["floating"]), zone)
        end = aware(int(row["end_ts"]), bool(row["floating"]), zone)
        if abs((start.replace(tzinfo=None) - at.astimezone(zone).replace(tzinfo=None)).days) > 31:
            continue
        fmt = (lambda v: v.date().isoformat()) if row["all_day"] else (lambda v: f"{v:%Y-%m-%dT%H:%M}")
        item = {"title": row["title"], "start": fmt(start), "end": fmt(end), "calendar": row["calendar"]}
        if row["description"]:
            item["description"] = row["description"]
        if row["origin"] == "import":
            item["origin"] = "import"
        events.append(item)
    if events:
        fixtures["events"] = events
    archive = [
        {"role": row["role"], "content": row["content"], "at": _local(datetime.fromisoformat(row["created_at"]), zone),
         "meta": json.loads(row["meta"] or "{}")}
        for row in store.conn.execute(
            "SELECT * FROM messages WHERE profile_id = ? AND created_at < ? AND created_at >= ? ORDER BY created_at, id",
            (profile_id, (at - timedelta(seconds=2)).isoformat(), (at - timedelta(hours=6)).isoformat()),
        )
    ]  # fmt: skip
    if archive and archive[-1]["role"] == "user" and archive[-1]["content"] == obs.user_text:
        archive.pop()
    if archive:
        fixtures["archive"] = archive[-30:]
    stub = _stub_at(store, profile_id, at, zone)
    if stub:
        fixtures["stub"] = stub
    record = {
        "id": f"use.{obs.id}-{at.astimezone(zone):%Y%m%d}",
        "group": GROUP_BY_INTENT.get(obs.intent, "chat"),
        "now": _local(at, zone),
        "tz": zone.key,
        "fixtures": fixtures,
        "turns": turns,
        "expect": {},
        "incomplete": True,
        "note": "exported from use ("
        + ", ".join(reasons or ["manual"])
        + "); fill in the expectations, then remove 'incomplete'",
        "observed": {
            "model": obs.model,
            "intent": obs.intent,
            "outcome": obs.outcome,
            "guard": obs.guard,
            "model_calls": obs.model_calls,
            "tools": obs.tools,
            "reply": obs.data.get("reply"),
        },  # fmt: skip
    }
    parse_case(record, "live", "export")
    return record


def _stub_at(store: Store, profile_id: int, at: datetime, zone: ZoneInfo) -> dict[str, Any] | None:
    """The command that was pending when the turn began, if any."""
    stamp = at.isoformat()
    row = store.conn.execute(
        "SELECT * FROM commands WHERE profile_id = ? AND created_at < ? AND expires_at > ?"
        " AND (status IN (" + ", ".join("?" for _ in ACTIVE) + ") OR updated_at >= ?) ORDER BY id DESC LIMIT 1",
        (profile_id, stamp, stamp, *ACTIVE, stamp),
    ).fetchone()
    if row is None:
        return None
    slots = json.loads(row["slots"] or "{}")
    stub = {"title": row["title"], "at": _local(datetime.fromisoformat(row["created_at"]), zone)}
    stub |= {key: value for key, value in slots.items() if key in ("date", "time", "end_time", "duration_minutes", "calendar")}
    return stub


def append_case(record: dict[str, Any], path: Path | None = None) -> Path:
    target = path or cases_dir() / "live" / "from_use.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    existing = target.read_text(encoding="utf-8") if target.exists() else ""
    if f'"id": "{record["id"]}"' in existing:
        raise CaseError("evals.case_exists", id=record["id"], file=target.name)
    with target.open("a", encoding="utf-8") as handle:
        if existing and not existing.endswith("\n"):
            handle.write("\n")
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return target
