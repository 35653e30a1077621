"""``richeng undo [--json]`` and ``richeng undo --list``: the undo journal from the terminal.

``undo`` takes back the newest change of this profile that is not undone yet, whoever made
it (chat, CLI, the app, an import; sync pulls aside), and prints one line per calendar and
per event it put back or removed (creating and deleting a calendar are changes too). Nothing
to undo is not an error: exit 0 and a line that says so (JSON: ``{"reverted": null,
"events": []}``). A change that can no longer be undone exactly (one
of its events was edited since) is refused like any other bad request: one line on stderr,
exit 2, nothing changed. See docs/architecture.md, "Undo journal".
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from agent.cli.common import Session, emit

HUMAN_LINES = 20  # events printed one per line; the rest are counted (JSON lists them all)
NOTHING = "没有可撤销的更改/Nothing to undo"
VERBS = {"restored": "已恢复/Restored", "removed": "已移除/Removed"}


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    p = sub(commands, "undo", "undo the last change of this profile (chat, CLI, app or import)", undo)
    p.add_argument("--list", action="store_true", help="show the recent changes instead, newest first")


def undo(args: argparse.Namespace) -> int:
    from agent.store import journal

    if args.list:
        session = Session(args, reading=True)
        entries = journal.recent(session.store, session.profile_id)
        tz = session.ctx.tz
        emit_list = [entry.to_json() for entry in entries]
        emit(args, emit_list, lambda: "\n".join(_entry_line(e, tz) for e in entries) or "(no changes yet / 还没有更改)")
        return 0
    session = Session(args)
    result = journal.undo_last(session.store, session.profile_id, origin="cli")
    if result is None:
        emit(args, {"reverted": None, "events": []}, lambda: NOTHING)
        return 0
    tz = session.ctx.tz

    def human() -> str:
        entry = result.entry
        lines = [f"已撤销/Undid #{entry.id} ({entry.origin}: {entry.label}, {entry.when(tz)})"]
        lines += [f"{VERBS[c['action']]}: 日历/calendar {c['name']}" for c in result.calendars]
        for event in result.events[:HUMAN_LINES]:
            lines.append(_event_line(event))
        if len(result.events) > HUMAN_LINES:
            more = len(result.events) - HUMAN_LINES
            lines.append(f"…另有 {more} 个/and {more} more")
        return "\n".join(lines)

    emit(args, result.to_json(), human)
    return 0


def _event_line(event: dict[str, Any]) -> str:
    start, end = _parse(event["start"]), _parse(event["end"])
    if event["all_day"]:
        when = start.isoformat() + ("" if end == start else f" – {end.isoformat()}") + " (all day)"
    else:
        assert isinstance(start, datetime) and isinstance(end, datetime)
        same_day = end.date() == start.date()
        when = f"{start:%Y-%m-%d %H:%M}–{end:%H:%M}" if same_day else f"{start:%Y-%m-%d %H:%M} – {end:%Y-%m-%d %H:%M}"
    series = " (系列/series)" if event["series"] and not event["recurrence_id"] else ""
    instance = " (单次/one instance)" if event["recurrence_id"] else ""
    return f"{VERBS[event['action']]}: {when}  {event['title']}{series}{instance}  [{event['calendar']}]"


def _parse(value: str) -> datetime | date:
    return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)


def _entry_line(entry: Any, tz: Any) -> str:
    undone = "  (已撤销/undone)" if entry.undone else ""
    counts = f"+{entry.created} ~{entry.updated} -{entry.deleted}"
    return f"#{entry.id}  {entry.when(tz)}  {entry.origin:<6}  {entry.kind:<6}  {counts}  {entry.label}{undone}"


__all__ = ["register", "undo"]
