"""``richeng db ...``: check the database file, list its backups, restore one, recover a damaged file.

None of these opens the file through ``Store`` (which refuses a damaged file): they read it
read-only themselves, and write only new files or, for ``restore``, rename the current file
aside before putting the copy in its place.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from agent.cli.common import CliError, Parser, checked_path, clock_now, db_path, emit


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    db_cmd = commands.add_parser("db", help="the database file: check, backups, restore, recover")
    db_sub = db_cmd.add_subparsers(dest="db_command", metavar="ACTION", parser_class=Parser, required=True)
    sub(db_sub, "check", "check the database file without changing it", db_check)
    sub(db_sub, "backups", "list the automatic backups, newest first", db_backups)
    p = sub(db_sub, "restore", "replace the database with a backup (the current file is kept aside)", db_restore)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p = sub(db_sub, "recover", "copy what can still be read from a damaged database into a new file", db_recover)
    p.add_argument("-o", "--output", metavar="FILE", help="the new file (default: beside the database)")


def db_check(args: argparse.Namespace) -> int:
    from agent.store.backups import refusal
    from agent.store.file_check import inspect_file

    path = db_path(getattr(args, "db", None))
    check = inspect_file(path)
    payload = {"path": str(path), "state": check.state, "schema": check.version, "detail": check.detail}
    if check.state in ("ok", "new"):
        emit(args, payload, lambda: f"{path}: " + ("no database yet" if check.state == "new" else f"ok (schema {check.version})"))
        return 0
    emit(args, payload, lambda: "")
    raise refusal(check)


def db_backups(args: argparse.Namespace) -> int:
    from agent.store.backups import backup_dir_for, list_backups, shown_time, wanted_for

    path = db_path(getattr(args, "db", None))
    found = list_backups(path)

    def human() -> str:
        if not found and not wanted_for(path):  # issue 32: "no backups yet" read as "not yet"
            return (
                "no backups: automatic backups are off for a database in the temporary folder (RICHENG_BACKUPS=1 turns them on)"
            )
        if not found:
            return f"no backups yet (they go to {backup_dir_for(path)})"
        return "\n".join(f"{shown_time(b.created)}  {b.kind:<9}  {b.size / 1e6:7.1f} MB  {b.path}" for b in found)

    emit(args, [b.to_json() for b in found], human)
    return 0


def db_restore(args: argparse.Namespace) -> int:
    from agent.store.backups import check_restorable, restore

    target = db_path(getattr(args, "db", None))
    source = checked_path(args.file, "backup_file")
    events = check_restorable(source)  # refuse a bad file before asking anything
    if not args.yes:
        if not sys.stdin.isatty():
            raise CliError("cli.restore_confirm")
        answer = input(f"Replace {target} with {source} ({events} events)? The current file is kept aside. [y/N] ")
        if answer.strip().lower() not in ("y", "yes", "是", "好"):
            raise CliError("cli.restore_cancelled")
    done = restore(source, target, clock_now(args))
    kept = f"; the previous file is kept as {done.aside}" if done.aside else ""
    emit(args, done.to_json(), lambda: f"restored {source} ({done.events} events) to {target}{kept}")
    return 0


def db_recover(args: argparse.Namespace) -> int:
    from agent.store.backups import db_hint
    from agent.store.recover import default_output, recover

    source = db_path(getattr(args, "db", None))
    target = checked_path(args.output, "--output") if args.output is not None else default_output(source, clock_now(args))
    report = recover(source, target)

    def human() -> str:
        lost = sum(report.unreadable.values()) + sum(report.rejected.values())
        lines = [f"saved {report.events} events into {target}" + (f" ({lost} unreadable spots skipped)" if lost else "")]
        lines += [f"  {note}" for note in report.notes]
        lines.append(
            f"check it with `richeng --db {target} events list --start D-30 --end D+30`, "
            f"then put it in place with `{db_hint(source)} db restore {target}`"
        )
        return "\n".join(lines)

    emit(args, report.to_json(), human)
    return 0
