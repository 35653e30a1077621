"""``richeng subscribe URL`` and ``richeng subscriptions list|refresh|remove``: calendars fed
by a published .ics address (agent/sync/subscriptions.py, docs/subscriptions.md).

``subscriptions refresh`` prints, per subscription, ``{"name", "added", "updated",
"removed", "error"}`` (``error`` null when it worked; a machine-checked contract) and exits 1
when any failed, as ``sync run`` does when some items could not move.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from agent.cli.common import Parser, Session, emit

EXIT_PARTIAL = 1


def register(commands: Any, sub: Callable[..., argparse.ArgumentParser]) -> None:
    p = sub(commands, "subscribe", "subscribe to a published calendar (webcal:// or https:// .ics)", subscribe)
    p.add_argument("url", metavar="URL")
    p.add_argument("--name", metavar="NAME", help="the calendar's name (default: the feed's own, else the host)")
    subs_cmd = commands.add_parser("subscriptions", help="subscribed calendars: list, refresh, remove")
    subs = subs_cmd.add_subparsers(dest="subscriptions_command", metavar="ACTION", parser_class=Parser, required=True)
    sub(subs, "list", "list subscribed calendars and their last refresh", list_subscriptions)
    p = sub(subs, "refresh", "fetch subscribed calendars again (all, or the one named)", refresh)
    p.add_argument("name", nargs="?", metavar="NAME")
    p = sub(subs, "remove", "stop a subscription and remove its calendar", remove)
    p.add_argument("name", metavar="NAME")


def _service(args: argparse.Namespace) -> Any:
    from agent.sync.subscriptions import SubscriptionService

    session = Session(args)
    return SubscriptionService(session.store, session.profile_id)


def _line(result: dict[str, Any]) -> str:
    if result["error"] is not None:
        return f"{result['name']}: {result['error']}"
    return f"{result['name']}: added {result['added']}, updated {result['updated']}, removed {result['removed']}"


def subscribe(args: argparse.Namespace) -> int:
    subscription, result = _service(args).subscribe(args.url, args.name)
    payload = {**subscription.to_json(), **result.to_json()}
    emit(args, payload, lambda: f"subscribed to {subscription.url} as '{subscription.name}'; " + _line(result.to_json()))
    return 0


def list_subscriptions(args: argparse.Namespace) -> int:
    listed = [subscription.to_json() for subscription in _service(args).list()]

    def human() -> str:
        lines = []
        for item in listed:
            when = item["refreshed_at"] or "never"
            tail = f"  (last refresh failed: {item['error']})" if item["error"] else ""
            lines.append(f"{item['name']}  {item['url']}  refreshed {when}{tail}")
        return "\n".join(lines) or "no subscriptions"

    emit(args, listed, human)
    return 0


def refresh(args: argparse.Namespace) -> int:
    results = [result.to_json() for result in _service(args).refresh(args.name)]
    emit(args, results, lambda: "\n".join(_line(result) for result in results) or "no subscriptions")
    return EXIT_PARTIAL if any(result["error"] is not None for result in results) else 0


def remove(args: argparse.Namespace) -> int:
    subscription = _service(args).remove(args.name)
    emit(args, {"name": subscription.name, "removed": True}, lambda: f"removed the subscription '{subscription.name}'")
    return 0
