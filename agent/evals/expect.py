"""Judging a run: the case's expectations, and the invariants every turn must keep.

Expectations are what a case asserts (tools, arguments, outcome, receipt, store diff, model
calls, guard flag). Invariants hold for every turn of every layer whatever the model did —
the turn finished, and no reply claims a write or a calendar state that the store and the
tool log do not back. The CI smoke with the bundled model checks only the invariants.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import Any

from agent.evals.cases import Case
from agent.evals.runner import CaseRun, TurnRecord
from agent.runtime.calendar_status import CHANGED, READ, STATES, UNCHANGED, mentions_calendar, promises_action
from agent.runtime.claims import claims_calendar_state, claims_write
from agent.runtime.tools import CREATE, TOOLS
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve_range

# Which tools write and which read the calendar is asked of the registry (``TOOLS.writes``,
# ``TOOLS.reads``) when a turn is judged: a tool added to ``agent/runtime/tools.py`` with
# ``writes=...`` is a write here without any list to edit.
#: Outcomes whose rows may change shape in the diff: a move rewrites a row, a split adds a series.
EDITED = frozenset({"updated", "deleted"})
MODEL_WRITTEN = frozenset({"model", "council"})


def invariants(run: CaseRun) -> list[str]:
    problems: list[str] = []
    if run.error:
        return [run.error]
    for turn in run.turns:
        where = f"turn {turn.index}"
        if turn.error:
            problems.append(f"{where}: crashed: {turn.error.splitlines()[0]}")
            continue
        if not turn.reply.strip():
            problems.append(f"{where}: empty reply")
        wrote = bool(turn.added or turn.memories_added)
        if turn.receipt in MODEL_WRITTEN:
            if claims_write(turn.reply) and not wrote:
                problems.append(f"{where}: unverified write claim reached the reply: {turn.reply[:80]!r}")
            read = bool(TOOLS.reads & set(turn.tools)) or turn.receipt == "council"
            if claims_calendar_state(turn.reply) and not read:
                problems.append(f"{where}: unverified calendar claim reached the reply: {turn.reply[:80]!r}")
        problems += [f"{where}: {p}" for p in _calendar_contract(turn)]
        if turn.outcome == "created":
            event = (turn.receipt_payload or {}).get("event") if isinstance(turn.receipt_payload, dict) else None
            if not event:
                problems.append(f"{where}: 'created' without an event in the receipt")
            elif not turn.added and not (turn.receipt_payload or {}).get("deduplicated"):
                problems.append(f"{where}: 'created' but the store has no new event")
        if turn.outcome == "memory_saved" and not turn.memories_added:
            payload = turn.receipt_payload if isinstance(turn.receipt_payload, dict) else {}
            if not payload.get("id"):
                problems.append(f"{where}: 'memory_saved' but no memory exists")
        if turn.outcome not in ("created", *EDITED) and (turn.added or turn.removed):
            problems.append(f"{where}: outcome {turn.outcome!r} but events were written: {turn.added} / removed: {turn.removed}")
    return problems


def _calendar_contract(turn: TurnRecord) -> list[str]:
    """``calendar`` is a contract on every turn: one of three values, agreeing with the
    harness's own store diff and tool log, and a model reply that stays on an unchanged
    turn while it talks calendar or promises carries the status line."""
    if turn.calendar not in STATES:
        return [f"calendar {turn.calendar!r} is not one of {STATES}"]
    p: list[str] = []
    if (turn.added or turn.removed) and turn.calendar != CHANGED:
        p.append(f"events changed but calendar is {turn.calendar!r}")
    answered = turn.outcome in ("guard_answered", "edit_answered")  # code read the store to answer
    read = bool(TOOLS.reads & set(turn.tools)) or "council" in (turn.receipt, turn.intent) or answered
    if turn.calendar == READ and not read:
        p.append("calendar 'read' but no read tool ran")
    talks = mentions_calendar(turn.reply) or promises_action(turn.reply)
    if turn.receipt in MODEL_WRITTEN and turn.calendar == UNCHANGED and talks and not turn.calendar_note:
        p.append(f"a model reply on an unchanged turn talks calendar without the status line: {turn.reply[:80]!r}")
    if turn.calendar_note and (turn.calendar != UNCHANGED or turn.receipt not in MODEL_WRITTEN):
        p.append("the status line on a turn that read or wrote, or under code's own words")
    if turn.facts is not None:
        p += _facts_contract(turn)
    return p


def _facts_contract(turn: TurnRecord) -> list[str]:
    """A facts card only under a model reply that stays with the status line, and only
    what its query returned: every event inside the window it read."""
    facts = turn.facts or {}
    if set(facts) != {"start", "end", "events"}:
        return [f"facts keys {sorted(facts)}, expected ['end', 'events', 'start']"]
    p: list[str] = []
    if not turn.calendar_note or turn.receipt not in MODEL_WRITTEN:
        p.append("a facts card on a turn without the status line, or under code's own words")
    start, end = datetime.fromisoformat(facts["start"]), datetime.fromisoformat(facts["end"])
    for event in facts["events"]:
        if set(event) != {"title", "start", "end"}:
            p.append(f"facts event keys {sorted(event)}")
            continue
        if not _overlaps(event, start, end):
            p.append(f"facts event outside the window it read: {event}")
    return p


def _overlaps(event: dict[str, str], start: datetime, end: datetime) -> bool:
    """An event ``{start, end}`` (datetimes, or dates for all-day ones) meets ``[start, end)``."""
    first, last = _moment(event["start"], start), _moment(event["end"], start)
    return first < end and (last > start or first >= start)


def _moment(value: str, like: datetime) -> datetime:
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None and like.tzinfo is not None:
        moment = moment.replace(tzinfo=like.tzinfo)
    return moment


def _wall(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=None)


def check_facts(spec: Any, turn: TurnRecord) -> list[str]:
    """``facts``: false (no facts key), ``{"start", "end"}`` (wall times of the window, exactly),
    or ``{"search": words}`` (a "next" card that searched those words)."""
    if spec is False:
        return [] if turn.facts is None else [f"a facts card where none belongs: {turn.facts_card!r}"]
    if turn.facts is None:
        return [f"no facts card (expected {spec})"]
    if "search" in spec:
        words = str(spec["search"])
        return [] if words in (turn.facts_card or "") else [f"facts card {turn.facts_card!r} did not search {words!r}"]
    got = (_wall(turn.facts["start"]), _wall(turn.facts["end"]))
    want = (_wall(spec["start"]), _wall(spec["end"]))
    return [] if got == want else [f"facts window {got}, expected {want}"]


def covers_range(start: str, end: str, named: str) -> bool:
    """Whether ``[start, end)`` covers the named ``A/B`` range within its days (a whole day
    answers "周四下午"; a week does not)."""
    a, b = (_wall(part) for part in named.split("/"))
    got_start, got_end = _wall(start), _wall(end)
    day_start = a.replace(hour=0, minute=0)
    day_end = (b - timedelta(minutes=1)).replace(hour=0, minute=0) + timedelta(days=1)
    return day_start <= got_start <= a and b <= got_end <= day_end


def check_answers(named: str, turn: TurnRecord) -> list[str]:
    """``answers``: the turn ends with code's facts for what the user named: the first tier's
    answer (``guard_answered``) or a facts card covering the range ``A/B``, or for
    ``search:words`` a "next" card that searched them."""
    if named.startswith("search:"):
        return check_facts({"search": named.removeprefix("search:")}, turn)
    payload = turn.receipt_payload if isinstance(turn.receipt_payload, dict) else {}
    if turn.outcome == "guard_answered" and "start" in payload and covers_range(payload["start"], payload["end"], named):
        return []
    if turn.facts is not None and covers_range(turn.facts["start"], turn.facts["end"], named):
        return []
    return [f"neither code's answer nor a facts card covers {named}: {turn.outcome} {turn.reply[:60]!r}"]


def check(run: CaseRun, *, script_strict: bool = True) -> list[str]:
    """Invariants plus every expectation of the case; an empty list is a pass."""
    problems = invariants(run)
    if run.error:
        return problems
    case = run.case
    if case.incomplete:
        problems.append("incomplete case: its expectations have not been filled in (exported from use)")
    # A run that stopped early has fewer turns than its case: check the turns it has.
    for turn_spec, turn in zip(case.turns, run.turns, strict=False):
        if turn.error:
            continue
        where = f"turn {turn.index}"
        problems += [f"{where}: {p}" for p in check_turn(turn_spec.expect, turn, case)]
        if script_strict and turn_spec.script is not None and turn.script_left and not turn_spec.script_may_remain:
            problems.append(f"{where}: {turn.script_left} scripted model turn(s) were never requested")
    problems += [f"case: {p}" for p in check_store(case.expect, run.added, run.removed, run.memories_added, run.stub)]
    return problems


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def check_turn(expect: dict[str, Any], turn: TurnRecord, case: Case) -> list[str]:
    p: list[str] = []
    if "outcome" in expect and turn.outcome not in _as_list(expect["outcome"]):
        p.append(f"outcome {turn.outcome!r}, expected {expect['outcome']!r}")
    if "not_outcome" in expect and turn.outcome in _as_list(expect["not_outcome"]):
        p.append(f"outcome {turn.outcome!r} is one it must not be")
    if "intent" in expect and turn.intent not in _as_list(expect["intent"]):
        p.append(f"intent {turn.intent!r}, expected {expect['intent']!r}")
    if "tools" in expect and turn.tools != list(expect["tools"]):
        p.append(f"tools {turn.tools}, expected {expect['tools']}")
    for name in expect.get("tools_include", []):
        if name not in turn.tools:
            p.append(f"tool {name} was not called (called {turn.tools})")
    for name in expect.get("tools_exclude", []):
        if name in turn.tools:
            p.append(f"tool {name} must not be called")
    if expect.get("no_write_tools"):
        # Judged on the calls themselves: a write tool called on a read-only message fails
        # even when a later layer (validation, conflict check, guard) kept the store clean.
        called = [name for name in turn.tools if name in TOOLS.writes]
        if called:
            p.append(f"write tool(s) called on a message that must not write: {called}")
    if "model_calls" in expect:
        p += _count("model calls", turn.model_calls, expect["model_calls"])
    if "guard" in expect and turn.guard != expect["guard"]:
        p.append(f"guard {turn.guard!r}, expected {expect['guard']!r}")
    if "receipt" in expect and turn.receipt not in _as_list(expect["receipt"]):
        p.append(f"receipt {turn.receipt!r}, expected {expect['receipt']!r}")
    if "candidates" in expect and turn.candidates != list(expect["candidates"]):
        p.append(f"candidates {turn.candidates}, expected {expect['candidates']}")
    for text in expect.get("reply_contains", []):
        if text not in turn.reply:
            p.append(f"reply lacks {text!r}: {turn.reply[:120]!r}")
    if expect.get("reply_contains_any") and not any(t in turn.reply for t in expect["reply_contains_any"]):
        p.append(f"reply has none of {expect['reply_contains_any']}: {turn.reply[:120]!r}")
    for text in expect.get("reply_excludes", []):
        if text in turn.reply:
            p.append(f"reply contains {text!r}")
    for constraint in expect.get("args", []):
        p += _check_args(constraint, turn, case)
    prompt = json.dumps(turn.requests, ensure_ascii=False)
    for text in expect.get("prompt_contains", []):
        if text not in prompt:
            p.append(f"the model request lacks {text!r}")
    for text in expect.get("prompt_excludes", []):
        if text in prompt:
            p.append(f"the model request contains {text!r}")
    if "calendar" in expect and turn.calendar != expect["calendar"]:
        p.append(f"calendar {turn.calendar!r}, expected {expect['calendar']!r}")
    if "calendar_note" in expect and bool(turn.calendar_note) != bool(expect["calendar_note"]):
        p.append(f"status line {turn.calendar_note!r}, expected {'one' if expect['calendar_note'] else 'none'}")
    if expect.get("marked") and not (turn.guard or turn.calendar_note or turn.facts):
        p.append(f"a claim left with neither a replacement, the status line nor a facts card: {turn.reply[:80]!r}")
    if "facts" in expect:
        p += check_facts(expect["facts"], turn)
    if "answers" in expect:
        p += check_answers(str(expect["answers"]), turn)
    if "calendar_enum" in expect:
        p += _calendar_enum(turn, list(expect["calendar_enum"]))
    p += check_store(expect, turn.added, turn.removed, turn.memories_added, turn.stub)
    for matcher in expect.get("exported", []):
        p += _check_exported(matcher, turn.exported)
    return p


#: What an ``exported`` matcher may name: each is compared exactly (null: the property is absent).
EXPORTED_KEYS = ("rrule", "dtstart", "tzid", "rdates", "mark")


def _check_exported(matcher: dict[str, Any], exported: list[dict[str, Any]]) -> list[str]:
    """The exported VEVENT titled ``matcher["title"]`` carries exactly the values named."""
    events = [event for event in exported if event["title"] == matcher.get("title")]
    if len(events) != 1:
        return [f"exported: {len(events)} VEVENT(s) titled {matcher.get('title')!r}, expected 1"]
    unknown = set(matcher) - {"title", *EXPORTED_KEYS}
    if unknown:
        return [f"exported: unknown key(s) {sorted(unknown)}"]
    return [
        f"exported {matcher['title']!r}: {key} is {events[0][key]!r}, expected {matcher[key]!r}"
        for key in EXPORTED_KEYS
        if key in matcher and events[0][key] != matcher[key]
    ]


def _count(what: str, value: int, spec: Any) -> list[str]:
    if isinstance(spec, dict):
        if "min" in spec and value < spec["min"]:
            return [f"{what} {value} < {spec['min']}"]
        if "max" in spec and value > spec["max"]:
            return [f"{what} {value} > {spec['max']}"]
        return []
    return [] if value == spec else [f"{what} {value}, expected {spec}"]


def _calendar_enum(turn: TurnRecord, expected: list[str]) -> list[str]:
    if not turn.requests:
        return ["no model request to check the calendar list in"]
    for tool in turn.requests[0]["tools"]:
        function = tool.get("function", {})
        if function.get("name") == CREATE.name:
            enum = function.get("parameters", {}).get("properties", {}).get("calendarName", {}).get("enum")
            return [] if enum == expected else [f"calendarName enum {enum}, expected {expected}"]
    return ["the create tool was not offered"]


def _arguments(log: dict[str, Any]) -> dict[str, Any]:
    raw = log.get("arguments")
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _check_args(constraint: dict[str, Any], turn: TurnRecord, case: Case) -> list[str]:
    """Checked against the last call of the tool (a model may fix a call after a retry)."""
    name = constraint["tool"]
    calls = [log for log in turn.tool_log if log.get("name") == name]
    if not calls:
        return [f"no {name} call to check arguments of"]
    args = _arguments(calls[-1])
    label = f"{name}"
    p: list[str] = []
    if "range" in constraint:
        start, end = constraint["range"]
        try:
            ctx = TimeContext(now=_turn_now(turn), tz=case.zone)
            lo, hi = resolve_range(str(args.get("startExpression")), str(args.get("endExpression")), ctx)
        except (SymbolError, ValueError, TypeError) as exc:
            return [f"{label} range does not resolve: {exc}"]
        got = (_local(lo, case), _local(hi, case))
        if got != (start, end):
            p.append(f"{label} range [{got[0]}, {got[1]}), expected [{start}, {end})")
    field = constraint.get("field")
    if field is None:
        return p
    value = args.get(field)
    if constraint.get("absent") and field in args and value is not None:
        p.append(f"{label}.{field} is {value!r}, expected absent")
    if constraint.get("present") and value is None:
        p.append(f"{label}.{field} is missing")
    if "equals" in constraint and value != constraint["equals"]:
        p.append(f"{label}.{field} is {value!r}, expected {constraint['equals']!r}")
    if "in" in constraint and value not in constraint["in"]:
        p.append(f"{label}.{field} is {value!r}, expected one of {constraint['in']!r}")
    if "not_in" in constraint and value in constraint["not_in"]:
        p.append(f"{label}.{field} is {value!r}, which it must not be")
    if "matches" in constraint and not re.search(constraint["matches"], str(value or "")):
        p.append(f"{label}.{field} {value!r} does not match {constraint['matches']!r}")
    if "contains" in constraint and str(constraint["contains"]) not in str(value or ""):
        p.append(f"{label}.{field} {value!r} lacks {constraint['contains']!r}")
    return p


def _turn_now(turn: TurnRecord) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(turn.at)


def _local(value: Any, case: Case) -> str:
    local = value.astimezone(case.zone)
    if local.hour == 0 and local.minute == 0:
        return local.date().isoformat()
    return f"{local:%Y-%m-%dT%H:%M}"


def _event_matches(matcher: dict[str, Any], event: dict[str, str]) -> bool:
    if "title" in matcher and event["title"] != matcher["title"]:
        return False
    if "title_contains" in matcher and not all(t in event["title"] for t in _as_list(matcher["title_contains"])):
        return False
    if "start" in matcher and not event["start"].startswith(str(matcher["start"])):
        return False
    if "end" in matcher and not event["end"].startswith(str(matcher["end"])):
        return False
    if "calendar" in matcher and event["calendar"] not in _as_list(matcher["calendar"]):
        return False
    if "not_calendar" in matcher and event["calendar"] in _as_list(matcher["not_calendar"]):
        return False
    return not ("all_day" in matcher and ("T" not in event["start"]) != bool(matcher["all_day"]))


def _match_all(what: str, matchers: list[dict[str, Any]], events: list[dict[str, str]]) -> list[str]:
    """Exactly these events (count equal, each matcher used once)."""
    if len(matchers) != len(events):
        return [f"{what}: {len(events)} event(s) {events}, expected {len(matchers)}"]
    left = list(events)
    for matcher in matchers:
        hit = next((e for e in left if _event_matches(matcher, e)), None)
        if hit is None:
            return [f"{what}: no event matches {matcher} in {events}"]
        left.remove(hit)
    return []


def check_store(
    expect: dict[str, Any],
    added: list[dict[str, str]],
    removed: list[dict[str, str]],
    memories_added: list[str],
    stub: dict[str, Any] | None,
) -> list[str]:
    p: list[str] = []
    store = expect.get("store")
    if store is not None:
        if "added" in store:
            p += _match_all("store added", list(store["added"]), added)
        p += _match_all("store removed", list(store.get("removed", [])), removed)
    memories = expect.get("memories")
    if memories is not None:
        wanted = list(memories.get("added", []))
        if len(wanted) != len(memories_added):
            p.append(f"memories added {memories_added}, expected {len(wanted)} like {wanted}")
        else:
            for text in wanted:
                if not any(text in saved for saved in memories_added):
                    p.append(f"no new memory contains {text!r} (new: {memories_added})")
    if "stub" in expect:
        want = expect["stub"]
        if want == "none" and stub is not None:
            p.append(f"a pending command remains: {stub}")
        elif want == "active" and stub is None:
            p.append("no pending command, expected one")
        elif isinstance(want, dict):
            if stub is None:
                p.append(f"no pending command, expected {want}")
            else:
                for key, value in want.items():
                    if stub.get(key) != value:
                        p.append(f"pending command {key} is {stub.get(key)!r}, expected {value!r}")
    return p
