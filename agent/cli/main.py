"""``richeng`` command line. Its JSON shapes are a machine-checked contract: keep them.

Every failure a user can cause ends as one line on stderr and exit status 2; nothing here
lets a traceback through (an unexpected exception is reported as an internal error line).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from agent import __version__
from agent.cli.common import CliError, Parser, close_stores, fail, parse_now
from agent.errors import JournalError, UserFacingError
from agent.messages.catalogue import both, render


def _add_common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """Global options work before or after the command (``richeng --json x`` or ``x --json``)."""
    default = None if top else argparse.SUPPRESS
    parser.add_argument("--db", metavar="PATH", default=default, help="database file (default: user data dir)")
    parser.add_argument("--now", metavar="ISO8601", default=default, help="pretend the time is this")
    parser.add_argument("--tz", metavar="IANA", default=default, help="time zone (default: settings, else system)")
    parser.add_argument("--profile", metavar="NAME", default=default, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", default=False if top else argparse.SUPPRESS, help="print JSON")


# The desktop app's own options (app/launcher.py decides app vs CLI; tests keep the two in step).
APP_HELP = """the desktop app:
  richeng [APP OPTIONS]  with no command, richeng opens the calendar window;
                         a COMMAND runs in the terminal and never opens it
  --lang {zh_CN,en}      interface language (default: settings, else system)
  --offscreen            run without a display (smoke tests, screenshots)
  --db PATH, --tz IANA, --now ISO8601
                         as above, for the window
  --quit-after MS        close the window after MS milliseconds (smoke tests)
  --report-startup       print the ms to the first paint, then quit (benchmarks)
  -style NAME, -platform NAME, -reverse, -stylesheet FILE, ...
                         Qt's own options, passed to Qt (docs/app-options.md)
  richeng FILE.ics       open the window and import the file (an open window takes it)
  richeng print --view day|week|month|agenda [--date EXPR] -o FILE.pdf
                         a view's printed pages as a PDF, no display needed
                         (drawn by the app: app/print_command.py)"""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="richeng",
        description="日程 Richeng: a local-first calendar",
        epilog=APP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"richeng {__version__}")
    _add_common(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def sub(parent: Any, name: str, help_text: str, handler: Callable[..., int]) -> argparse.ArgumentParser:
        child = parent.add_parser(name, help=help_text, description=help_text)
        _add_common(child, top=False)
        child.set_defaults(handler=handler)
        return child

    from agent.cli import handlers as h

    time_cmd = commands.add_parser("time", help="resolve time symbols, parse slot replies")
    time_sub = time_cmd.add_subparsers(dest="time_command", metavar="ACTION", parser_class=Parser, required=True)
    p = sub(time_sub, "resolve", "resolve canonical time symbols (D+1, W3+1, WE, M+1, H:国庆 ...)", h.time_resolve)
    p.add_argument("symbols", nargs="+", metavar="SYMBOL")
    p = sub(time_sub, "parse", "parse a short clarification reply into a slot patch", h.time_parse)
    p.add_argument("text", metavar="TEXT")

    events_cmd = commands.add_parser("events", help="list and add events")
    events_sub = events_cmd.add_subparsers(dest="events_command", metavar="ACTION", parser_class=Parser, required=True)
    p = sub(events_sub, "list", "events overlapping [start of --start, end of --end)", h.events_list)
    p.add_argument("--start", required=True, metavar="EXPR")
    p.add_argument("--end", required=True, metavar="EXPR")
    p.add_argument("--calendar", metavar="NAME")
    p = sub(events_sub, "add", "create an event through the command service", h.events_add)
    p.add_argument("--title", required=True)
    p.add_argument("--date", required=True, metavar="EXPR")
    p.add_argument("--time", metavar="HH:MM")
    p.add_argument("--end", metavar="HH:MM")
    p.add_argument("--calendar", metavar="NAME")
    p.add_argument("--allow-conflict", action="store_true")

    cal_cmd = commands.add_parser("calendars", help="list and add calendars")
    cal_sub = cal_cmd.add_subparsers(dest="calendars_command", metavar="ACTION", parser_class=Parser, required=True)
    sub(cal_sub, "list", "list calendars", h.calendars_list)
    p = sub(cal_sub, "add", "add a calendar", h.calendars_add)
    p.add_argument("name")
    p.add_argument("--color", metavar="#RRGGBB")
    p.add_argument("--default", action="store_true")

    mem_cmd = commands.add_parser("memory", help="facts to remember")
    mem_sub = mem_cmd.add_subparsers(dest="memory_command", metavar="ACTION", parser_class=Parser, required=True)
    p = sub(mem_sub, "add", "remember a fact", h.memory_add)
    p.add_argument("text")
    sub(mem_sub, "list", "list remembered facts", h.memory_list)
    p = sub(mem_sub, "search", "search remembered facts", h.memory_search)
    p.add_argument("query")

    p = sub(commands, "chat", "send one message to the assistant", h.chat)
    p.add_argument("message", metavar="MESSAGE")
    p.add_argument("--model", metavar="SPEC", help="openai:MODEL@BASE_URL | llama:PATH.gguf | script:FILE.json")

    from agent.cli.prompt_command import register as register_prompt

    register_prompt(sub, commands)

    p = sub(commands, "import", "import an .ics file", h.import_ics)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--calendar", metavar="NAME")
    p = sub(commands, "export", "export events as .ics", h.export_ics)
    p.add_argument("-o", "--output", metavar="FILE")
    p.add_argument("--calendar", metavar="NAME")
    p.add_argument("--start", metavar="EXPR")
    p.add_argument("--end", metavar="EXPR")
    from agent.cli.eval_commands import register as register_evals

    register_evals(commands, sub)
    from agent.cli import db_commands, invitation_commands, quick_command, subscription_commands, sync_commands, undo_commands

    quick_command.register(commands, sub)
    invitation_commands.register(commands, sub)

    sync_commands.register(commands, sub)
    subscription_commands.register(commands, sub)
    db_commands.register(commands, sub)
    undo_commands.register(commands, sub)
    return parser


def _tolerant_output() -> None:
    """stdout and stderr that cannot encode everything (``PYTHONIOENCODING=ascii``, a cp1252
    console) print what they cannot as ``\\uXXXX`` escapes instead of failing: ``calendars
    list`` ended in ``internal error (UnicodeEncodeError)`` (issue 29, item 14). A UTF-8
    stream is left exactly as it is."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and encoding not in ("utf8", "utf8sig"):
            with contextlib.suppress(Exception):  # a closed or replaced stream: nothing to fix
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    _tolerant_output()
    try:
        _check_argv(args_list)
        args = build_parser().parse_args(args_list)
        _check_globals(args)
        _check_values(args)
        handler = getattr(args, "handler", None)
        if handler is None:
            from agent.cli.handlers import agenda

            return agenda(args)
        return int(handler(args))
    except JournalError as exc:  # the undo journal's refusals read in both languages, as before the catalogue
        return fail(both(exc.code, **exc.params))
    except UserFacingError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return fail(render("cli.interrupted"))
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if _disk_full(exc):
            return fail(render("cli.disk_full", text=str(exc.strerror or exc)))
        if exc.filename is None:  # not about a file the user named: a bug, reported below
            return _internal(exc)
        return fail(render("cli.file_unusable", path=str(exc.filename)[:120], text=str(exc.strerror or exc)))
    except Exception as exc:  # the promise: no traceback reaches a user
        from agent.timesym.grammar import SymbolError

        if isinstance(exc, SymbolError):
            return fail(str(exc))
        if _disk_full(exc):
            return fail(render("cli.disk_full", text=str(exc)))
        return _internal(exc)
    finally:
        with contextlib.suppress(Exception):  # closing is best effort: the command's own result stands
            close_stores()


def _disk_full(exc: BaseException) -> bool:
    """A full disk met outside a store transaction (a read that needs a temporary file, a
    cache write): SQLite's ``SQLITE_FULL``, or the ``ENOSPC`` of a file write."""
    import errno
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError):
        return int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF == 13 or "disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def _internal(exc: BaseException) -> int:
    return fail(render("cli.internal", error=type(exc).__name__, text=str(exc)))


# Values that name something a person will see again: the cap is stated in the error.
_CAPPED = {
    ("calendars_command", "add", "name"): ("calendar_name", "MAX_CALENDAR_NAME"),
    ("events_command", "add", "title"): ("event_title", "MAX_TITLE"),
}


# Codes (not UTF-8, NUL, too long) by where the value stands: an option, an option's
# value, a positional argument.
_ARGV_CHECKS = {
    "option": ("cli.option_not_utf8", "cli.option_nul", "cli.option_too_long"),
    "value": ("cli.value_not_utf8", "cli.value_nul", "cli.value_too_long"),
    "argument": ("cli.argument_not_utf8", "cli.argument_nul", "cli.argument_too_long"),
}


def _check_argv(argv: Sequence[str]) -> None:
    """Undecodable bytes, NUL and absurd lengths are refused before argparse sees them, so
    no later step (printing, SQLite, a zone lookup) fails on them with a raw error."""
    from agent.services.text import MAX_ARGUMENT, has_surrogates

    previous = ""
    for position, value in enumerate(argv, 1):
        if value.startswith("--"):
            shape, option = "option", value.split("=", 1)[0]
        elif previous.startswith("-") and "=" not in previous:
            shape, option = "value", previous
        else:
            shape, option = "argument", ""
        previous = value
        not_utf8, nul, too_long = _ARGV_CHECKS[shape]
        if has_surrogates(value):
            raise CliError(not_utf8, option=option, position=position)
        if "\x00" in value:
            raise CliError(nul, option=option, position=position)
        if len(value) > MAX_ARGUMENT:
            raise CliError(too_long, option=option, position=position, length=len(value), limit=MAX_ARGUMENT)


def _check_values(args: argparse.Namespace) -> None:
    from agent.services import text

    for (group, action, field), (what, limit) in _CAPPED.items():
        value = getattr(args, field, None)
        if getattr(args, group, None) == action and isinstance(value, str):
            setattr(args, field, text.check_text(value, what, getattr(text, limit)))


def _check_globals(args: argparse.Namespace) -> None:
    """A bad --now or --tz is refused by every command, not only by those that read the clock."""
    parse_now(getattr(args, "now", None))
    tz = getattr(args, "tz", None)
    if tz is not None:
        from agent.services.settings import zone

        if len(tz.encode("utf-8", "surrogateescape")) > 255:
            raise CliError("cli.tz_too_long", length=len(tz))

        zone(tz)


if __name__ == "__main__":
    raise SystemExit(main())
