"""Case records: loading, strict validation, and the known-issue list.

A case file is JSON Lines, one case per line, under ``evals/cases/offline/`` or
``evals/cases/live/``. Validation is strict on purpose: a misspelt expectation key that
were silently ignored would turn a failing case green, which is worse than no case.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agent.errors import UserFacingError

LAYERS = ("offline", "live")
NEVER_RETRY_GROUPS = frozenset({"safety", "edit_safety"})

CASE_KEYS = {"id", "group", "now", "tz", "fixtures", "turns", "expect", "smoke", "note", "drift", "incomplete", "observed"}
TURN_KEYS = {"user", "action", "at", "script", "script_may_remain", "expect"}
FIXTURE_KEYS = {"calendars", "events", "memories", "archive", "stub", "settings"}
TURN_EXPECT_KEYS = {
    "outcome", "not_outcome", "intent", "tools", "tools_include", "tools_exclude", "no_write_tools",
    "model_calls", "guard", "receipt", "candidates", "reply_contains", "reply_contains_any",
    "reply_excludes", "args", "store", "memories", "stub", "prompt_contains", "prompt_excludes",
    "calendar_enum", "calendar", "calendar_note", "marked", "exported", "facts", "answers",
}  # fmt: skip
CASE_EXPECT_KEYS = {"store", "memories", "stub"}
_OFFSET = re.compile(r"^([+-])(\d+)([mhd])$")
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class CaseError(UserFacingError):
    """A case file that cannot be run as written (it names its file and line)."""


@dataclass(frozen=True)
class Turn:
    user: str | None
    action: dict[str, Any] | None
    at: str | None
    script: list[dict[str, Any]] | None
    script_may_remain: bool
    expect: dict[str, Any]


@dataclass(frozen=True)
class Case:
    id: str
    group: str
    layer: str
    now: datetime
    tz: str
    fixtures: dict[str, Any]
    turns: tuple[Turn, ...]
    expect: dict[str, Any]
    smoke: bool = False
    drift: bool = False
    incomplete: bool = False
    note: str = ""
    source: str = ""

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)


@dataclass
class KnownIssues:
    reasons: dict[str, str] = field(default_factory=dict)
    source: str = ""

    def reason(self, case_id: str) -> str | None:
        return self.reasons.get(case_id)


def evals_dir() -> Path:
    """The data folder: ``$RICHENG_EVALS_DIR``, else the repository's ``evals/`` beside ``agent/``."""
    env = os.environ.get("RICHENG_EVALS_DIR")
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[2] / "evals"


def cases_dir(base: Path | None = None) -> Path:
    return (base or evals_dir()) / "cases"


def parse_when(value: str, now: datetime, tz: ZoneInfo) -> datetime:
    """An instant in a case: ``+31m``/``-2h``/``-30d`` from the case's now, or ISO 8601
    (without an offset it is wall-clock time in the case's zone)."""
    text = value.strip()
    match = _OFFSET.match(text)
    if match:
        sign, amount, unit = match.groups()
        delta = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}[unit] * int(amount)
        return now + delta if sign == "+" else now - delta
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None:
        from agent.timesym.context import local_datetime

        parsed = local_datetime(parsed.date(), parsed.time(), tz)
    return parsed


_UNKNOWN_KEYS = {
    "case": "evals.unknown_case_keys",
    "fixture": "evals.unknown_fixture_keys",
    "case_expect": "evals.unknown_case_expect_keys",
    "turn": "evals.unknown_turn_keys",
    "turn_expect": "evals.unknown_turn_expect_keys",
}


def _check_keys(where: str, data: dict[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CaseError(_UNKNOWN_KEYS[what], where=where, unknown=", ".join(unknown), allowed=", ".join(sorted(allowed)))


def parse_case(data: Any, layer: str, where: str) -> Case:
    if not isinstance(data, dict):
        raise CaseError("evals.case_not_object", where=where)
    _check_keys(where, data, CASE_KEYS, "case")
    for key in ("id", "group", "now", "tz", "turns"):
        if key not in data:
            raise CaseError("evals.missing_key", where=where, key=key)
    case_id = str(data["id"])
    if not _ID.match(case_id):
        raise CaseError("evals.bad_id", where=where, id=case_id)
    where = f"{where} ({case_id})"
    try:
        zone = ZoneInfo(str(data["tz"]))
    except (ZoneInfoNotFoundError, ValueError):
        raise CaseError("evals.unknown_zone", where=where, tz=data["tz"]) from None
    try:
        now = datetime.fromisoformat(str(data["now"]))
    except ValueError:
        raise CaseError("evals.bad_now", where=where) from None
    if now.tzinfo is None:
        raise CaseError("evals.now_needs_offset", where=where)
    fixtures = data.get("fixtures") or {}
    if not isinstance(fixtures, dict):
        raise CaseError("evals.fixtures_not_object", where=where)
    _check_keys(where, fixtures, FIXTURE_KEYS, "fixture")
    expect = data.get("expect") or {}
    _check_keys(where, expect, CASE_EXPECT_KEYS, "case_expect")
    raw_turns = data["turns"]
    if not isinstance(raw_turns, list) or not raw_turns:
        raise CaseError("evals.turns_not_list", where=where)
    turns = []
    for number, raw in enumerate(raw_turns, 1):
        turns.append(_parse_turn(raw, layer, f"{where} turn {number}", zone, now))
    return Case(
        id=case_id,
        group=str(data["group"]),
        layer=layer,
        now=now,
        tz=str(data["tz"]),
        fixtures=fixtures,
        turns=tuple(turns),
        expect=expect,
        smoke=bool(data.get("smoke", False)),
        drift=bool(data.get("drift", False)),
        incomplete=bool(data.get("incomplete", False)),
        note=str(data.get("note", "")),
        source=where,
    )


def _parse_turn(raw: Any, layer: str, where: str, zone: ZoneInfo, now: datetime) -> Turn:
    if not isinstance(raw, dict):
        raise CaseError("evals.turn_not_object", where=where)
    _check_keys(where, raw, TURN_KEYS, "turn")
    if ("user" in raw) == ("action" in raw):
        raise CaseError("evals.user_or_action", where=where)
    action = raw.get("action")
    if action is not None and (not isinstance(action, dict) or "kind" not in action):
        raise CaseError("evals.bad_action", where=where)
    expect = raw.get("expect") or {}
    _check_keys(where, expect, TURN_EXPECT_KEYS, "turn_expect")
    script = raw.get("script")
    if layer == "live" and script is not None:
        raise CaseError("evals.live_script", where=where)
    if layer == "offline" and "user" in raw and script is None:
        raise CaseError("evals.offline_needs_script", where=where)
    if script is not None:
        from agent.models.script_backend import ScriptedModel

        try:
            ScriptedModel(script)
        except ValueError as exc:
            raise CaseError("evals.bad_script", where=where, text=str(exc)) from None
    if raw.get("at") is not None:
        try:
            parse_when(str(raw["at"]), now, zone)
        except ValueError:
            raise CaseError("evals.bad_at", where=where) from None
    return Turn(
        user=None if raw.get("user") is None else str(raw["user"]),
        action=action,
        at=None if raw.get("at") is None else str(raw["at"]),
        script=script,
        script_may_remain=bool(raw.get("script_may_remain", False)),
        expect=expect,
    )


def load_file(path: Path, layer: str) -> list[Case]:
    cases = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CaseError("evals.cannot_read", path=str(path), text=str(exc.strerror)) from None
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        where = f"{path.name}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CaseError("evals.bad_json", where=where, text=exc.msg, column=exc.colno) from None
        cases.append(parse_case(data, layer, where))
    return cases


def load_cases(layer: str, base: Path | None = None, group: str | None = None) -> list[Case]:
    """Every case of a layer (file order), optionally one group; ids must be unique."""
    if layer not in LAYERS:
        raise CaseError("evals.bad_layer", layers=", ".join(LAYERS))
    folder = cases_dir(base) / layer
    if not folder.is_dir():
        raise CaseError("evals.no_folder", folder=str(folder))
    cases: list[Case] = []
    for path in sorted(folder.glob("*.jsonl")):
        cases.extend(load_file(path, layer))
    seen: dict[str, str] = {}
    for case in cases:
        if case.id in seen:
            raise CaseError("evals.duplicate_id", id=case.id, first=seen[case.id], second=case.source)
        seen[case.id] = case.source
    if group is not None:
        cases = [case for case in cases if case.group == group or (group == "smoke" and case.smoke)]
        if not cases:
            raise CaseError("evals.empty_group", layer=layer, group=group)
    return cases


def all_case_ids(base: Path | None = None) -> set[str]:
    ids: set[str] = set()
    for layer in LAYERS:
        if (cases_dir(base) / layer).is_dir():
            ids |= {case.id for case in load_cases(layer, base)}
    return ids


def load_known_issues(base: Path | None = None, path: Path | None = None) -> KnownIssues:
    """``evals/known_issues``: one ``case-id  reason`` per line; ``#`` starts a comment.

    A marker without a reason, or for a case that does not exist, is an error: a known
    issue is a debt with a name, not a way to hide a case."""
    file = path or (base or evals_dir()) / "known_issues"
    if not file.exists():
        return KnownIssues(source=str(file))
    reasons: dict[str, str] = {}
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        text = "" if line.lstrip().startswith("#") else line.strip()
        if not text:
            continue
        parts = text.split(None, 1)
        if len(parts) < 2:
            raise CaseError("evals.marker_needs_reason", where=f"{file.name}:{number}", id=parts[0])
        reasons[parts[0]] = parts[1].strip()
    known = KnownIssues(reasons, str(file))
    if reasons:
        missing = sorted(set(reasons) - all_case_ids(base if path is None else file.parent))
        if missing:
            raise CaseError("evals.marker_unknown_case", where=file.name, ids=", ".join(missing))
    return known
