"""What each CLI command does; ``main`` only parses and reports errors."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.cli.common import CliError, Session, checked_path, db_path, emit, fail
from agent.messages.catalogue import render
from agent.timesym.context import TimeContext

if TYPE_CHECKING:  # the store and icalendar load only for commands that open the store
    from agent.models.base import ModelUnavailable
    from agent.store.occurrence import Occurrence


def _when(occ: Occurrence) -> str:
    if occ.all_day:
        last = occ.end - timedelta(days=1)
        return f"{occ.start.isoformat()}" + ("" if last == occ.start else f" – {last.isoformat()}") + " (all day)"
    return f"{occ.start:%Y-%m-%d %H:%M}–{occ.end:%H:%M}"


def _event_lines(events: list[Occurrence]) -> str:
    if not events:
        return "(no events)"
    return "\n".join(f"{_when(occ)}  {occ.title}  [{occ.calendar}]" for occ in events)


# ---- time --------------------------------------------------------------------------------


def time_resolve(args: argparse.Namespace) -> int:
    """Invalid symbols still get their ``kind: error`` object on stdout; exit 2 says so too."""
    from agent.timesym.grammar import SymbolError
    from agent.timesym.resolve import error_json, resolve

    ctx = Session(args, reading=True).ctx if (args.tz or args.now or args.db) else TimeContext.system()
    results: list[dict[str, Any]] = []
    errors: list[str] = []
    for symbol in args.symbols:
        try:
            results.append(resolve(symbol, ctx).to_json())
        except SymbolError as exc:
            results.append(error_json(symbol, exc))
            errors.append(str(exc))

    def human() -> str:
        lines = []
        for item in results:
            if item["kind"] == "error":
                continue
            span = f"{item['start']} .. {item['end']}" if item["start"] else ""
            lines.append(f"{item['symbol']}: {item['kind']} {span}".rstrip())
            if item.get("note"):
                lines.append(f"  note: {item['note']}")
        return "\n".join(lines)

    emit(args, results, human)
    if errors:
        return fail(errors[0])
    return 0


def time_parse(args: argparse.Namespace) -> int:
    from agent.timesym.clarify import parse_slot_reply

    ctx = Session(args, reading=True).ctx if (args.tz or args.now or args.db) else TimeContext.system()
    patch = parse_slot_reply(args.text, ctx)
    payload = patch.to_json(ctx) if patch is not None else None
    emit(args, payload, lambda: "not a slot reply" if payload is None else f"date={payload['date']} time={payload['time']}")
    return 0


# ---- events ------------------------------------------------------------------------------


def events_list(args: argparse.Namespace) -> int:
    from agent.services.invitations import states
    from agent.services.queries import QueryService
    from agent.store.fields import listed
    from agent.timesym.resolve import resolve_range

    session = Session(args, reading=True)
    # Unbounded: the plausibility bound (1900 to ten years ahead) is for what gets written;
    # the store may hold an imported 1864 event, and listing it must work.
    start, end = resolve_range(args.start, args.end, session.ctx, bounded=False)
    events = QueryService(session.store, session.profile_id, session.ctx).between(start, end, calendar=args.calendar)
    extra = listed(session.store.conn, (occ.event_id for occ in events))  # fields kept only in the ICS
    standing = states(session.store, session.profile_id, events)  # status and busy (issue 31)
    items = [{**occ.to_json(), **extra.get(occ.event_id, {}), **standing[occ.event_id]} for occ in events]
    emit(args, items, lambda: _event_lines(events))
    return 0


def events_add(args: argparse.Namespace) -> int:
    from agent.services.commands import CommandService

    session = Session(args)
    problem = _add_problem(args, session.ctx)
    if problem is not None:
        return _refused_add(args, session, problem)
    service = CommandService(session.store, session.profile_id, session.ctx, origin="user")
    outcome = service.prepare_or_create(
        args.title,
        args.date,
        time=args.time,
        end_time=args.end,
        calendar_name=args.calendar,
        allow_conflict=args.allow_conflict,
    )
    if outcome.status == "conflict" and args.allow_conflict:
        # The service takes an allowance only for a conflict it has already shown (the model
        # must see what it overrides); here the user said so up front, so write at once.
        outcome = service.continue_active(allow_conflict=True) or outcome

    def human() -> str:
        if outcome.status == "created" and outcome.event is not None:
            note = " (already there)" if outcome.deduplicated else ""
            fell = (
                f" — no calendar '{outcome.requested_calendar}', used '{outcome.calendar}'" if outcome.calendar_fell_back else ""
            )
            return f"created{note}: {_when(outcome.event)}  {outcome.event.title}  [{outcome.calendar}]{fell}"
        if outcome.status == "needs_date":
            return "which day? " + ", ".join(day.isoformat() for day in outcome.candidates)
        if outcome.status == "conflict":
            return "conflicts with:\n" + _event_lines(outcome.conflicts) + "\n(repeat with --allow-conflict to create anyway)"
        if outcome.status == "past_time":
            return "that time has already passed; nothing was written"
        return f"{outcome.status}: {outcome.message or ''}"

    if outcome.status == "invalid":  # one line, on stderr (a full disk printed it twice); --json keeps its object
        if getattr(args, "json", False):
            emit(args, outcome.to_json(), human)
        return fail(outcome.message or render("cli.invalid_event"))
    emit(args, outcome.to_json(), human)
    return 0


def _add_problem(args: argparse.Namespace, ctx: TimeContext) -> CliError | None:
    """What the command service would answer ``invalid``, found before it runs: it keeps an
    invalid request as a stub for the chat's next reply to fix, a row the CLI has no use for
    (a refused command must leave the database as it was; issue 19's fuzzing found it)."""
    from agent.timesym.grammar import SymbolError
    from agent.timesym.resolve import resolve, resolve_time

    if not args.title.strip():
        return CliError("cli.title_required")
    try:
        start = None
        if args.date.strip():
            resolved = resolve(args.date, ctx)
            if resolved.kind == "time":
                return CliError("cli.date_is_time", symbol=args.date)
            start = resolved.time
        if args.time is not None:
            start = resolve_time(args.time)
        end = resolve_time(args.end) if args.end is not None else None
    except SymbolError as exc:
        return CliError.of(exc)
    if end is not None and start is None:
        return CliError("cli.end_needs_time")
    if start is not None and end is not None and end <= start:
        return CliError("cli.end_not_after_time", end=f"{end:%H:%M}", start=f"{start:%H:%M}")
    return None


def _refused_add(args: argparse.Namespace, session: Session, refusal: CliError) -> int:
    """The ``invalid`` outcome the service would have given (same JSON shape), nothing written."""
    from agent.services.calendars import CalendarService
    from agent.services.command_types import Round

    problem = str(refusal)
    choice = CalendarService(session.store, session.profile_id).choose(args.calendar)
    base = Round(args.title, session.ctx.today, choice.calendar.name, choice.requested, choice.fell_back)
    outcome = base.outcome("invalid", message=problem)
    if getattr(args, "json", False):  # the human line would only repeat the error line below
        emit(args, outcome.to_json(), lambda: "")
    return fail(problem)


# ---- calendars, memory -------------------------------------------------------------------


def calendars_list(args: argparse.Namespace) -> int:
    from agent.services.calendars import CalendarService

    session = Session(args, reading=True)
    calendars = CalendarService(session.store, session.profile_id).list()
    emit(
        args,
        [calendar.to_json() for calendar in calendars],
        lambda: "\n".join(f"{c.name}  {c.color}{'  (default)' if c.is_default else ''}" for c in calendars),
    )
    return 0


def calendars_add(args: argparse.Namespace) -> int:
    from agent.services.calendars import CalendarService

    session = Session(args)
    calendar = CalendarService(session.store, session.profile_id).add(args.name, args.color, args.default)
    emit(args, calendar.to_json(), lambda: f"added calendar {calendar.name} {calendar.color}")
    return 0


def memory_add(args: argparse.Namespace) -> int:
    from agent.services.memory import MemoryService

    session = Session(args)
    memory = MemoryService(session.store, session.profile_id).remember(args.text)
    emit(args, memory.to_json(), lambda: f"remembered #{memory.id}: {memory.text}")
    return 0


def memory_list(args: argparse.Namespace) -> int:
    from agent.services.memory import MemoryService

    session = Session(args, reading=True)
    memories = MemoryService(session.store, session.profile_id).list()
    emit(
        args, [m.to_json() for m in memories], lambda: "\n".join(f"#{m.id} {m.text}" for m in memories) or "(nothing remembered)"
    )
    return 0


def memory_search(args: argparse.Namespace) -> int:
    from agent.services.memory import MemoryService

    session = Session(args, reading=True)
    memories = MemoryService(session.store, session.profile_id).search(args.query)
    emit(args, [m.to_json() for m in memories], lambda: "\n".join(f"#{m.id} {m.text}" for m in memories) or "(no match)")
    return 0


# ---- ICS ---------------------------------------------------------------------------------


def import_ics(args: argparse.Namespace) -> int:
    from agent.files import check_regular

    path = checked_path(args.file, "calendar_file")
    if not path.exists():
        raise CliError("cli.no_such_file", path=args.file)
    check_regular(path, "the calendar file")  # a folder, FIFO or device: one line, before the store opens
    from agent.ics.importer import import_file
    from agent.store.backups import backup_before_import, count_vevents

    session = Session(args)
    backup = backup_before_import(session.store, count_vevents(path))
    if backup is not None:
        print(f"richeng: backed up the database to {backup.path} before this import", file=sys.stderr)
    report = import_file(session.store, session.profile_id, path, args.calendar)

    def human() -> str:
        lines = [f"imported {report.imported}, updated {report.updated}, skipped {report.skipped}, errors {len(report.errors)}"]
        for problem in report.to_json()["errors"]:
            where = f" line {problem['line']}" if problem.get("line") else ""
            lines.append(f"  {problem.get('uid') or '(no UID)'}{where}: {problem['message']}")
        reasons = Counter(skip.reason for skip in report.skips)  # which rule skipped what (docs/ics.md)
        if reasons:
            lines.append("skipped: " + ", ".join(f"{count} {reason}" for reason, count in reasons.items()))
        if report.repairs:
            lines.append(f"repaired {len(report.repairs)}:")
        for problem in report.repairs:
            where = f" line {problem.line}" if problem.line else ""
            lines.append(f"  {problem.uid or '(file)'}{where}: {problem.message}")
        return "\n".join(lines)

    emit(args, report.to_json(), human)
    return 0


def export_ics(args: argparse.Namespace) -> int:
    from agent.ics.exporter import export_calendar
    from agent.timesym.resolve import resolve_range

    if (args.start is None) != (args.end is None):
        raise CliError("cli.start_and_end")
    output = checked_path(args.output, "--output") if args.output is not None else None
    if output is not None:
        _refuse_store_files(output, db_path(getattr(args, "db", None)))  # before the store opens: nothing written
    session = Session(args, reading=True)
    start = end = None
    if args.start is not None:
        start, end = resolve_range(args.start, args.end, session.ctx, bounded=False)  # any date the store holds
    data = export_calendar(session.store, session.profile_id, args.calendar, start, end, session.ctx.tz)
    if output is not None:
        from agent.files import write_replacing

        try:
            write_replacing(output, data)  # a temporary file, fsynced, renamed: the previous file survives a full disk
        except OSError as exc:
            raise CliError("cli.cannot_write", path=args.output, text=str(exc.strerror or exc)) from None
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0


def _refuse_store_files(output: Path, db: Path) -> None:
    """``export -o`` never writes over the database, its ``-wal``/``-shm``/``-journal``, one of
    its backups, or any file holding an SQLite database (issue 29, item 1: ``export -o DB``
    replaced the calendar with ICS text and exited 0)."""
    from agent.messages.cli import STORE_ROLES
    from agent.store.backups import backup_dir_for
    from agent.store.file_check import holds_database, store_file_role

    role = store_file_role(output, db, backup_dir_for(db))
    if role is not None:
        raise CliError("cli.export_over_store", path=str(output), db=str(db), role=STORE_ROLES[role])
    if holds_database(output):
        raise CliError("cli.export_over_database", path=str(output))


# ---- chat --------------------------------------------------------------------------------


def chat(args: argparse.Namespace) -> int:
    from agent.files import InputFileError
    from agent.models.base import ModelUnavailable
    from agent.models.registry import load_model
    from agent.runtime.turn import Assistant
    from agent.services.settings import SettingsService

    if not args.message.strip():  # nothing to read: no model is loaded, nothing is archived
        raise CliError("cli.empty_message")
    session = Session(args)
    spec = args.model or SettingsService(session.store, session.profile_id).get("model")
    if not spec:
        raise CliError("cli.no_model")
    try:
        model = load_model(spec)
    except ModelUnavailable as exc:
        if isinstance(exc, InputFileError):  # a script that is a device, a FIFO, too large: the user's file, refused
            raise
        model = _Unavailable(exc)
    assistant = Assistant(session.store, session.profile_id, model)
    from agent.runtime.session import warm_model

    warm_model(model, session.store, session.profile_id)  # a local model: saved prefix state, or read it now
    from agent.cli.progress_line import ProgressLine
    from agent.store import journal_record

    line = ProgressLine(sys.stderr) if sys.stderr.isatty() else None  # a terminal only: captured output stays as it was
    with journal_record.origin(session.store, "chat"):
        turn = assistant.stream_turn(args.message, session.ctx)
        try:
            while True:
                event = next(turn)
                if line is not None:
                    line.on_event(event)
        except StopIteration as done:
            result = done.value
        finally:
            if line is not None:
                line.clear()
    emit(args, result.to_json(), result.text_output)
    return 0


class _Unavailable:
    """A model that could not even be loaded answers every request honestly, with the
    loading error's own code and parameters (so it reads in the reply's language)."""

    def __init__(self, error: ModelUnavailable) -> None:
        self.error = error
        self.name = "unavailable"

    def _refusal(self) -> ModelUnavailable:
        from agent.models.base import ModelUnavailable

        return ModelUnavailable(getattr(self.error, "code", None) or str(self.error), **getattr(self.error, "params", {}))

    def stream(self, *args: Any, **kwargs: Any) -> Any:
        raise self._refusal()

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        """The other half of the ``ChatModel`` protocol, for whoever asks without streaming."""
        raise self._refusal()


# ---- no command: today's agenda -------------------------------------


def agenda(args: argparse.Namespace) -> int:
    from agent.services.queries import QueryService

    session = Session(args, reading=True)
    result = QueryService(session.store, session.profile_id, session.ctx).range("D+0", "D+6")
    emit(args, [occ.to_json() for occ in result.events], lambda: "Next 7 days:\n" + _event_lines(result.events))
    return 0
