"""``richeng invitation show | respond | apply | request | cancel``: an iTIP file read,
answered or applied; an invitation or cancellation written for the user's mail client.

The JSON shapes are the contract of issue 31 (README, CLI): ``show`` writes nothing;
``respond`` refuses an address that is not an attendee before it writes anything (exit 2,
one line); ``apply`` says ``"changed": false`` for a stale copy. The flow itself is
agent/ics/itip.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from agent.cli.common import CliError, Parser, Session, checked_path, emit


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    cmd = commands.add_parser("invitation", help="read, answer or apply an emailed invitation (.ics with a METHOD)")
    actions = cmd.add_subparsers(dest="invitation_command", metavar="ACTION", parser_class=Parser, required=True)
    p = sub(actions, "show", "what the invitation is and how it relates to the stored copy (writes nothing)", show)
    p.add_argument("file", metavar="FILE")
    p = sub(actions, "respond", "answer the invitation as EMAIL: store it and write the METHOD:REPLY", respond)
    p.add_argument("file", metavar="FILE")
    answer = p.add_mutually_exclusive_group()
    for flag in ("accept", "tentative", "decline"):
        answer.add_argument(f"--{flag}", dest="answer", action="store_const", const=flag)
    p.add_argument("--as", dest="email", required=True, metavar="EMAIL")
    p.add_argument("-o", "--output", metavar="REPLY.ics")
    p.add_argument("--calendar", metavar="NAME")
    p = sub(actions, "apply", "apply an update, a cancellation or an attendee's reply", apply)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--calendar", metavar="NAME")
    # Invitations out, for a calendar whose server does not send them (docs/invitations.md).
    p = sub(actions, "request", "write the METHOD:REQUEST of an event you organise, for your mail client", request)
    p.add_argument("uid", metavar="UID")
    p.add_argument("-o", "--output", metavar="FILE")
    p = sub(actions, "cancel", "write the METHOD:CANCEL of an event you organise, for your mail client", cancel)
    p.add_argument("uid", metavar="UID")
    p.add_argument("--occurrence", metavar="RECURRENCE-ID", default="", help="one occurrence: its key, as events list gives it")
    p.add_argument("-o", "--output", metavar="FILE")


def _message(args: argparse.Namespace) -> Any:
    from agent.files import check_regular
    from agent.ics.itip import read_file

    path = checked_path(args.file, "calendar_file")
    if not path.exists():
        raise CliError("cli.no_such_file", path=args.file)
    check_regular(path, "the calendar file")
    return read_file(path)


def _flow(session: Session) -> Any:
    from agent.ics.itip import Flow

    return Flow(session.store, session.profile_id, session.ctx.tz, session.ctx.now)


def show(args: argparse.Namespace) -> int:
    message = _message(args)
    session = Session(args, reading=True)
    payload = _flow(session).show(message)
    emit(args, payload, lambda: f"{payload['method']} {payload['status']}: {payload['summary']} {payload['start']}")
    return 0


def respond(args: argparse.Namespace) -> int:
    from agent.ics.itip import PARTSTATS

    if args.answer is None:
        raise CliError("invitations.answer_needed")
    output = checked_path(args.output, "calendar_file") if args.output else None
    message = _message(args)
    session = Session(args)
    uid, reply = _flow(session).respond(message, args.email, PARTSTATS[args.answer], args.calendar)
    if output is not None:
        output.write_text(reply, encoding="utf-8", newline="")
    payload = {"uid": uid, "partstat": PARTSTATS[args.answer], "reply": str(output) if output is not None else reply}
    emit(args, payload, lambda: reply if output is None else f"{uid}: {payload['partstat']} -> {output}")
    return 0


def apply(args: argparse.Namespace) -> int:
    message = _message(args)
    session = Session(args)
    results = _flow(session).apply(message, args.calendar)
    # One object: the first event's UID and status; changed when any event of the file changed.
    payload = {"uid": results[0]["uid"], "status": results[0]["status"], "changed": any(r["changed"] for r in results)}
    emit(args, payload, lambda: "\n".join(f"{r['uid']}: {r['status']}, changed={r['changed']}" for r in results))
    return 0


def request(args: argparse.Namespace) -> int:
    return _outgoing(args, "REQUEST", "")


def cancel(args: argparse.Namespace) -> int:
    return _outgoing(args, "CANCEL", args.occurrence)


def _outgoing(args: argparse.Namespace, method: str, recurrence_id: str) -> int:
    """``{"uid","method","file"}`` (``file`` the calendar's text without ``-o``); writes
    only the file: the store is read, never changed (the CLI deletes no event)."""
    from agent.ics.itip import outgoing

    output = checked_path(args.output, "calendar_file") if args.output else None
    session = Session(args, reading=True)
    text = outgoing(session.store, session.profile_id, args.uid, method, session.ctx.now, recurrence_id)
    if output is not None:
        output.write_text(text, encoding="utf-8", newline="")
    payload = {"uid": args.uid, "method": method, "file": str(output) if output is not None else text}
    emit(args, payload, lambda: text if output is None else f"{args.uid}: {method} -> {output}")
    return 0
