"""``richeng quick TEXT [--dry-run] [--calendar NAME] [--allow-conflict]``: one sentence, one event.

A machine-checked contract: with ``--json`` it prints ``{"title", "start", "end", "all_day",
"repeat", "calendar", "spans": [{"role", "text"}], "outcome", "rrule", "tz", "categories"}``; ``repeat`` is
DAILY|WEEKLY|MONTHLY|YEARLY|LUNAR_YEARLY|null, ``rrule`` the RRULE value without ``RRULE:``
(null for none and for 农历, which is RDATEs), ``tz`` the IANA zone the event's clock times are
in (the sentence's "4pm CET", else the user's), ``categories`` the sentence's ``#tags``
(``[]`` for none; each also a span of role ``tags``); ``outcome`` is ``preview``
with ``--dry-run`` (nothing written), else the command layer's (``created``, ``conflict``,
``duplicate``, ``past_time``). A sentence with no day or time, with no title, or with a day or
time word the parser could not place ("could not read these day or time words: Feb 30") exits
2 with one line and writes nothing; so does one that is too long. The write goes through the same
``CommandService`` as every create, so ``richeng undo`` takes it back.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from agent.cli.common import CliError, Session, emit

if TYPE_CHECKING:
    from agent.services.commands import CommandService
    from agent.services.quick_add import QuickResult


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    p = sub(commands, "quick", "add an event from one sentence, read by code (no model)", quick)
    p.add_argument("text", metavar="TEXT", help='e.g. "明天下午三点和张三开会" or "Lunch with Tom tomorrow at noon"')
    p.add_argument("--dry-run", action="store_true", help="show what would be added; write nothing")
    p.add_argument("--calendar", metavar="NAME")
    p.add_argument("--allow-conflict", action="store_true", help="add it even when it overlaps another event")


def quick(args: argparse.Namespace) -> int:
    from agent.services.commands import CommandService
    from agent.services.quick_add import QuickAdd, zone_line
    from agent.timesym.recurrence_words import summary

    session = Session(args, reading=args.dry_run)
    adder = QuickAdd(CommandService(session.store, session.profile_id, session.ctx, origin="user"))
    parsed = adder.read(args.text)
    if parsed.problem is not None:
        lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in args.text) else "en"
        raise CliError("cli.nothing_added", text=parsed.message(lang))
    if args.dry_run:
        result = adder.preview(parsed, args.calendar)
    else:
        result = adder.create(parsed, args.calendar, allow_conflict=args.allow_conflict)
        _drop_own_stub(adder.service, result)

    def human() -> str:
        when = _span(result.start, result.end)
        words = summary(parsed.rule, result.start, "en") if parsed.rule is not None else (result.repeat or "").lower()
        repeat = f"  ({words})" if words else ""
        tags = "".join(f" #{tag}" for tag in parsed.categories)
        line = f"{when}  {parsed.title}{tags}  [{result.calendar}]{repeat}"
        zone = zone_line(parsed, session.ctx.tz)
        if zone:
            line += f"  ({zone})"
        outcome = result.outcome
        if args.calendar and result.calendar != args.calendar:
            line += f" — no calendar '{args.calendar}', used '{result.calendar}'"
        if outcome is None:
            return f"would add: {line}"
        if result.word == "duplicate":
            return f"already there: {line}"
        if outcome.status == "created":
            return f"created: {line}"
        if outcome.status == "conflict":
            names = ", ".join(occ.title for occ in outcome.conflicts[:3])
            return f"not added, it overlaps: {names}\n(repeat with --allow-conflict to add it anyway)"
        if outcome.status == "past_time":
            return "not added: that time has already passed"
        return f"not added ({outcome.status}): {outcome.message or ''}"

    if result.outcome is not None and result.outcome.status == "invalid":
        if not result.outcome.message:
            raise CliError("cli.nothing_added_invalid")
        raise CliError("cli.nothing_added", text=result.outcome.message)
    emit(args, result.to_json(), human)
    return 0


def _drop_own_stub(service: CommandService, result: QuickResult) -> None:
    """A conflict or a past time answered here is the terminal's answer (issue 32): the
    command layer keeps the refused create as the pending command, and the chat pane would
    show it as a chip at its next start. Repeating with ``--allow-conflict`` is the way on."""
    outcome = result.outcome
    if outcome is None or outcome.command_id is None:
        return
    stub = service.active_stub()
    if stub is not None and stub.id == outcome.command_id:
        service.cancel_active()


def _span(start: date | datetime | None, end: date | datetime | None) -> str:
    if isinstance(start, datetime) and isinstance(end, datetime):
        tail = f"{end:%H:%M}" if end.date() == start.date() else f"{end:%Y-%m-%d %H:%M}"
        return f"{start:%a %Y-%m-%d %H:%M}–{tail}"
    if isinstance(start, date) and isinstance(end, date):
        last = end - timedelta(days=1)
        return f"{start:%a %Y-%m-%d}" + (f" – {last:%a %Y-%m-%d}" if last != start else "") + " (all day)"
    return "?"
