"""``richeng sync ...``: CalDAV accounts, which calendars sync, running a sync, conflicts.

Exit status: 0 when everything went through, 1 when ``sync run`` could not move some items
(they are listed, and retried next time), 2 for a usage error or an account that cannot be
reached at all. Passwords are read from ``--password-stdin``, ``RICHENG_CALDAV_PASSWORD`` or
a prompt, never from an argument (it would sit in the shell history), and kept in the OS
keyring.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from agent.cli.common import CliError, Parser, Session, emit

EXIT_PARTIAL = 1


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``sync`` and its actions to the top-level subcommands."""
    sync_cmd = commands.add_parser("sync", help="keep calendars in step with a CalDAV server")
    sync_sub = sync_cmd.add_subparsers(dest="sync_command", metavar="ACTION", parser_class=Parser, required=True)

    p = sub(sync_sub, "add-account", "add a CalDAV account and list its calendars", add_account)
    p.add_argument("url", metavar="URL", help="server or principal URL, e.g. https://cloud.example.com/remote.php/dav")
    p.add_argument("--user", required=True, metavar="NAME")
    p.add_argument("--name", metavar="ACCOUNT", help="what to call the account (default: the server's host name)")
    p.add_argument("--password-stdin", action="store_true", help="read the password or app token from stdin")
    _map_options(p)

    sub(sync_sub, "accounts", "list sync accounts and their synced calendars", accounts)

    p = sub(sync_sub, "calendars", "list the calendars on the server and what each syncs with", calendars)
    p.add_argument("--account", metavar="NAME")

    p = sub(sync_sub, "map", "sync remote calendars with local ones", map_calendars)
    p.add_argument("--account", metavar="NAME")
    _map_options(p)

    p = sub(sync_sub, "unmap", "stop syncing a remote calendar (local events stay)", unmap_calendar)
    p.add_argument("remote", metavar="REMOTE")
    p.add_argument("--account", metavar="NAME")

    p = sub(sync_sub, "remove-account", "forget an account and its password (local events stay)", remove_account)
    p.add_argument("account", metavar="NAME")

    p = sub(sync_sub, "run", "pull server changes, push local ones", run)
    p.add_argument("--account", metavar="NAME", help="only this account (default: all)")

    p = sub(sync_sub, "conflicts", "events changed on both sides, waiting for a choice", conflicts)

    p = sub(sync_sub, "resolve", "settle a conflict: keep the local or the server version", resolve)
    p.add_argument("id", type=int, metavar="ID")
    p.add_argument("--keep", required=True, choices=("local", "server"))


def _map_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="REMOTE=LOCAL",
        help="sync remote calendar REMOTE (name or URL) with local calendar LOCAL (made if missing)",
    )
    p.add_argument("--all", action="store_true", help="sync every remote calendar with a local one of the same name")


def _engine(args: argparse.Namespace, reading: bool = False) -> Any:
    from agent.sync.engine import SyncEngine

    session = Session(args, reading=reading)  # reading: works on a read-only file too (issue 29, item 14)
    return SyncEngine(session.store, session.profile_id)


def _read_password(args: argparse.Namespace) -> str:
    from agent.sync.secrets import ENV_PASSWORD

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    elif os.environ.get(ENV_PASSWORD):
        password = os.environ[ENV_PASSWORD]
    elif sys.stdin.isatty():
        password = getpass.getpass(f"password or app token for {args.user}: ")
    else:
        raise CliError("cli.no_password", env=ENV_PASSWORD)
    if not password:
        raise CliError("cli.empty_password")
    return password


def _apply_maps(engine: Any, account: Any, found: list[Any], args: argparse.Namespace) -> list[Any]:
    from agent.sync.accounts import pick_remote

    made = []
    for spec in args.map:
        remote, _, local = spec.partition("=")
        if not remote.strip():
            raise CliError("cli.bad_map", spec=spec)
        made.append(engine.accounts.map(account, pick_remote(found, remote), local.strip() or None))
    if args.all:
        for info in found:
            if info.has_events:
                made.append(engine.accounts.map(account, info, None))
    return made


def _calendar_lines(found: list[Any]) -> str:
    if not found:
        return "(the server lists no calendars for this user)"
    lines = []
    for info in found:
        target = f"→ {info.mapped_to}" if info.mapped_to else "(not synced)"
        kinds = "" if info.has_events else "  [no events: tasks only]"
        lines.append(f"  {info.name}  {target}  {info.url}{kinds}")
    return "\n".join(lines)


def add_account(args: argparse.Namespace) -> int:
    from agent.sync.accounts import RemoteInfo, connect, discover_calendars, split_credentials
    from agent.sync.secrets import ENV_PASSWORD

    # A password written into the URL (https://user:pw@host/) is taken out of it: it goes
    # to the keyring like any other, and the URL is stored and shown without it. It counts
    # as given only when no other was (--password-stdin, the environment).
    args.url, _, in_url = split_credentials(args.url)
    given = args.password_stdin or bool(os.environ.get(ENV_PASSWORD))
    password = in_url if in_url and not given else _read_password(args)
    found = discover_calendars(connect(args.url, args.user, password))
    engine = _engine(args)
    account = engine.accounts.add(args.url, args.user, args.name)
    stored = engine.accounts.secrets.put(account.url, account.username, password)
    try:
        _apply_maps(engine, account, found, args)
    except Exception:
        engine.accounts.remove(account.name)
        raise
    mapped = {m.remote_url.rstrip("/"): m.calendar_name for m in engine.accounts.mappings(account)}
    found = [RemoteInfo(f.url, f.name, f.components, mapped.get(f.url.rstrip("/"))) for f in found]
    payload = account.to_json() | {"calendars": [f.to_json() for f in found], "password_stored": stored}

    def human() -> str:
        lines = [f"added account {account.name} ({account.username} at {payload['url']}); calendars:", _calendar_lines(found)]
        if not mapped:
            lines.append(f"pick what to sync: richeng sync map --account {account.name} --map REMOTE=LOCAL (or --all)")
        if not stored:
            lines.append("note: no usable system keyring; set RICHENG_CALDAV_PASSWORD when running richeng sync")
        return "\n".join(lines)

    emit(args, payload, human)
    return 0


def accounts(args: argparse.Namespace) -> int:
    from agent.sync.accounts import public_url

    engine = _engine(args, reading=True)
    listed = [(a, engine.accounts.mappings(a)) for a in engine.accounts.list()]
    payload = [a.to_json() | {"calendars": [m.to_json() for m in maps]} for a, maps in listed]

    def human() -> str:
        if not listed:
            return "(no sync accounts; add one with: richeng sync add-account URL --user NAME)"
        lines = []
        for account, maps in listed:
            where = public_url(account.url)
            lines.append(f"{account.name}: {account.username} at {where}  (last sync: {account.last_sync_at or 'never'})")
            lines.extend(f"  {m.remote_name} → {m.calendar_name}" for m in maps)
            if not maps:
                lines.append("  (no calendars synced yet)")
        return "\n".join(lines)

    emit(args, payload, human)
    return 0


def calendars(args: argparse.Namespace) -> int:
    engine = _engine(args)
    found = engine.accounts.discover(engine.accounts.get(args.account))
    emit(args, [f.to_json() for f in found], lambda: _calendar_lines(found))
    return 0


def map_calendars(args: argparse.Namespace) -> int:
    if not args.map and not args.all:
        raise CliError("cli.sync_what")
    engine = _engine(args)
    account = engine.accounts.get(args.account)
    made = _apply_maps(engine, account, engine.accounts.discover(account), args)
    emit(args, [m.to_json() for m in made], lambda: "\n".join(f"{m.remote_name} → {m.calendar_name}" for m in made))
    return 0


def unmap_calendar(args: argparse.Namespace) -> int:
    engine = _engine(args)
    account = engine.accounts.get(args.account)
    wanted = args.remote.strip().rstrip("/").casefold()
    found = next(
        (
            mapping
            for mapping in engine.accounts.mappings(account)
            if wanted in (mapping.remote_name.casefold(), mapping.remote_url.rstrip("/").casefold())
        ),
        None,
    )
    if found is None:
        raise CliError("cli.not_synced", remote=args.remote, account=account.name)
    engine.accounts.unmap(found)
    emit(args, found.to_json(), lambda: f"{found.remote_name} no longer syncs; {found.calendar_name} stays")
    return 0


def remove_account(args: argparse.Namespace) -> int:
    account = _engine(args).accounts.remove(args.account)
    emit(args, account.to_json(), lambda: f"removed account {account.name}; local calendars and events stay")
    return 0


def run(args: argparse.Namespace) -> int:
    report = _engine(args).run(args.account)

    def human() -> str:
        lines = [f"pulled {report.pulled}, pushed {report.pushed}, conflicts {report.conflicts}, errors {len(report.errors)}"]
        if report.conflicts:
            lines.append("events changed on both sides wait for you: richeng sync conflicts")
        lines.extend(f"error: {problem}" for problem in report.errors)
        return "\n".join(lines)

    emit(args, report.to_json(), human)
    return EXIT_PARTIAL if report.errors else 0


def _when(side: dict[str, Any], tz: tzinfo) -> str:
    """The time as ``events list`` writes it: in the user's zone, all-day ends inclusive."""
    start, end = _moment(side.get("start")), _moment(side.get("end"))
    if start is None:
        return "?"
    end = end or start
    if not isinstance(start, datetime):
        last = end - timedelta(days=1) if end > start else start  # DTEND is the day after the last
        return start.isoformat() + ("" if last == start else f" – {last.isoformat()}") + " (all day)"
    if not isinstance(end, datetime):  # odd text: show the start alone rather than fail
        end = start
    if start.tzinfo is not None:  # a floating time is the same wall time everywhere
        start, end = start.astimezone(tz), end.astimezone(tz)
    if end.date() == start.date():
        return f"{start:%Y-%m-%d %H:%M}–{end:%H:%M}"
    return f"{start:%Y-%m-%d %H:%M} – {end:%Y-%m-%d %H:%M}"


def _moment(value: object) -> date | datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)
    except ValueError:
        return None


def _side_line(side: dict[str, Any] | None, tz: tzinfo) -> str:
    if side is None:
        return "(deleted)"
    extra = f"  @ {side['location']}" if side.get("location") else ""
    repeats = f"  repeats {side['rrule']}" if side.get("rrule") else ""
    return f"{side.get('title') or '(no title)'}  {_when(side, tz)}{extra}{repeats}"


# What the side lines already show; any other field that differs is printed on both sides.
_ON_SIDE_LINE = ("title", "time", "place", "repetition", "instance")


def _one_line(text: str | None) -> str:
    if text is None:
        return "(none)"
    flat = " ⏎ ".join(part.strip() for part in text.splitlines() if part.strip()) or '""'
    return flat if len(flat) <= 200 else flat[:199] + "…"


def conflicts(args: argparse.Namespace) -> int:
    from agent.sync.conflicts import ConflictStore

    session = Session(args, reading=True)
    found = ConflictStore(session.store, session.profile_id).open()
    payload = [c.to_json() for c in found]
    tz = session.ctx.tz

    def human() -> str:
        if not found:
            return "(no sync conflicts)"
        lines = []
        for conflict, item in zip(found, payload, strict=True):
            lines.append(f"#{item['id']}  {item['calendar']} ({item['account']})  “{item['title']}”")
            lines.append(f"    here:   {_side_line(item['local'], tz)}")
            lines.append(f"    server: {_side_line(item['server'], tz)}")
            if item["differs"]:
                lines.append(f"    differs: {', '.join(item['differs'])}")
            for difference in conflict.differences():
                if difference.field.split(" (", 1)[0] in _ON_SIDE_LINE:
                    continue
                lines.append(f"    {difference.field} here:   {_one_line(difference.local)}")
                lines.append(f"    {difference.field} server: {_one_line(difference.server)}")
            lines.append(f"    choose: richeng sync resolve {item['id']} --keep local|server")
        return "\n".join(lines)

    emit(args, payload, human)
    return 0


def resolve(args: argparse.Namespace) -> int:
    engine = _engine(args)
    engine.resolve(args.id, args.keep)
    conflict = engine.conflict_store.get(args.id)
    emit(args, conflict.to_json(), lambda: f"conflict #{conflict.id} settled: kept the {args.keep} version of “{conflict.title}”")
    return 0
