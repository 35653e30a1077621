"""The sync run over every synced calendar of an account, and settling conflicts.

Each calendar's pull and push is ``calendar_run.CalendarSync``; here the run goes over the
accounts and their calendars, bounds the whole run in time (``transport``), and records what
each account's run did. A server that cannot be reached at all (``Unavailable``) stops that
calendar's run with one error: every further request would fail the same way.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator
from contextlib import suppress
from typing import Any

from agent.errors import ValidationError
from agent.store import journal_record
from agent.store.changes import ChangeSet
from agent.store.db import Store
from agent.sync.accounts import Account, AccountService, Mapping, SyncError
from agent.sync.calendar_run import CalendarSync
from agent.sync.conflicts import Conflict, ConflictStore
from agent.sync.inbox import InboxState, apply_replies
from agent.sync.remote import RemoteCalendar
from agent.sync.remote_errors import Gone, RemoteError, Stale, describe_failure
from agent.sync.report import SyncProblem, SyncReport
from agent.sync.resources import build_resource, canonical_hash, local_hash, parse_resource
from agent.sync.scheduling import for_upload
from agent.sync.secrets import Secrets
from agent.sync.state import ItemStore, LocalCalendar
from agent.sync.transport import DEFAULT_LIMITS, Limits, bound

log = logging.getLogger(__name__)

KEEP = ("local", "server")


class SyncEngine:
    def __init__(
        self,
        store: Store,
        profile_id: int,
        secrets: Secrets | None = None,
        *,
        use_sync_tokens: bool = True,
        client_factory: Callable[[Account], Any] | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.store = store
        self.profile_id = profile_id
        self.accounts = AccountService(store, profile_id, secrets)
        self.conflict_store = ConflictStore(store, profile_id)
        self.use_sync_tokens = use_sync_tokens
        self._client_factory = client_factory or self.accounts.client
        self.limits = limits
        self._deadline: float | None = None
        self._inboxes: dict[str, InboxState] = {}  # by the calendar its principal was found from

    def _client(self, account: Account) -> Any:
        """The account's client, every request bounded in time and size (``transport``)."""
        return bound(self._client_factory(account), self.limits, self._deadline)

    def remote_for(self, client: Any, mapping: Mapping) -> RemoteCalendar:
        return RemoteCalendar(client, mapping.remote_url, use_tokens=self.use_sync_tokens,
                              max_entries=self.limits.listing_entries)  # fmt: skip

    def run(self, account: str | None = None) -> SyncReport:
        steps = self.steps(account)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                return stop.value

    def steps(self, account: str | None = None) -> Generator[str, None, SyncReport]:
        """``run`` as a generator that yields what it is doing, for the app's status bar."""
        accounts = [self.accounts.get(account)] if account else self.accounts.list()
        if not accounts:
            raise SyncError("sync.no_account")
        report = SyncReport()
        self._deadline = time.monotonic() + self.limits.run_s  # the whole run, every account
        for acct in accounts:
            yield acct.name
            before = (report.pulled, report.pushed, len(report.errors))
            try:
                client = self._client(acct)
            except Exception as exc:  # one account failing must not stop the others
                code, params = describe_failure(exc)
                report.errors.append(SyncProblem.of(acct.name, None, None, code, **params))
                continue
            mappings = self.accounts.mappings(acct)
            for mapping in mappings:
                yield f"{acct.name} · {mapping.calendar_name}"
                try:
                    remote = self.remote_for(client, mapping)
                    with journal_record.origin(self.store, "sync", f"sync {acct.name} · {mapping.calendar_name}"):
                        CalendarSync(self, acct, mapping, remote, report).run()  # journalled, never undone by `undo`
                except Exception as exc:  # reported; the next calendar still syncs
                    code, params = describe_failure(exc)
                    report.errors.append(SyncProblem.of(acct.name, mapping.calendar_name, None, code, **params))
            if mappings:
                self._replies(client, mappings[0].remote_url, acct.name)
            self.accounts.record_run(
                acct,
                {
                    "pulled": report.pulled - before[0],
                    "pushed": report.pushed - before[1],
                    "errors": [p.to_json() for p in report.errors[before[2] :]],
                },
            )
        report.conflicts = len(self.conflict_store.open())
        self._deadline = None
        return report

    def _replies(self, client: Any, calendar_url: str, account: str) -> None:
        """Attendees' answers left in the schedule inbox (``inbox``): best effort, after the
        calendars, never a failure of the run (a server without an inbox does not schedule)."""
        try:
            apply_replies(self, client, calendar_url, account, self._inboxes.setdefault(calendar_url, InboxState()))
        except Exception as exc:  # the calendars are synced; answers wait for the next run
            log.info("schedule inbox of %s: %s", account, describe_failure(exc)[0])

    # ---- conflicts -------------------------------------------------------------------------

    def conflicts(self) -> list[Conflict]:
        return self.conflict_store.open()

    def resolve(self, conflict_id: int, keep: str) -> ChangeSet:
        """Settle a conflict: ``local`` writes our version to the server (or deletes it there),
        ``server`` makes the local calendar match the server's version."""
        if keep not in KEEP:
            raise ValidationError("sync.bad_keep", keep=keep)
        conflict = self.conflict_store.get(conflict_id)
        if conflict.resolved_at is not None:
            raise ValidationError("sync.conflict_resolved", id=conflict_id, resolution=conflict.resolution)
        mapping = self.accounts.mapping(conflict.mapping_id)
        items = ItemStore(self.store, mapping.id)
        local = LocalCalendar(self.store, self.profile_id, mapping.calendar_id)
        changes = ChangeSet()
        if keep == "server":
            if conflict.server_ics is None:
                if local.rows(conflict.uid):
                    changes.extend(local.remove(conflict.uid))
                items.drop(conflict.uid)
            else:
                resource = parse_resource(conflict.server_ics)
                if resource.problem:
                    raise SyncError("sync.server_version_unreadable", problem=resource.problem)
                new_hash, applied = local.apply(resource)
                changes.extend(applied)
                items.put(conflict.uid, conflict.href, conflict.server_etag, new_hash, resource.canonical)
            self.conflict_store.close(conflict.id, "server")
            return changes
        try:
            return self._keep_local(conflict, mapping, items, local)
        except Stale:
            raise SyncError("sync.server_changed_now") from None
        except RemoteError as exc:
            raise SyncError("sync.server_refused_ours", text=str(exc)) from None

    def _keep_local(self, conflict: Conflict, mapping: Mapping, items: ItemStore, local: LocalCalendar) -> ChangeSet:
        """Write our side of ``conflict`` to the server, on the server copy the user saw."""
        changes = ChangeSet()
        account = self.accounts.by_id(mapping.account_id)
        self._deadline = time.monotonic() + self.limits.run_s
        remote = self.remote_for(self._client(account), mapping)
        current = remote.get(conflict.href)
        if _canonical_of(current.text if current else None) != _canonical_of(conflict.server_ics):
            self.conflict_store.record(
                mapping.id, conflict.uid, conflict.href, conflict.local_ics,
                current.text if current else None, current.etag if current else None,
            )  # fmt: skip
            raise SyncError("sync.server_changed_since")
        rows = local.rows(conflict.uid)
        if conflict.local_ics is None or not rows:  # our side deleted it
            if current is not None:
                with suppress(Gone):
                    remote.delete(conflict.href, current.etag or "*")
            if rows:
                changes.extend(local.remove(conflict.uid))
            items.drop(conflict.uid)
            self.conflict_store.close(conflict.id, "local")
            return changes
        body = for_upload(self.store, self.profile_id, conflict.uid, build_resource(rows), remote.user_addresses)
        etag = remote.create(conflict.href, body) if current is None else remote.update(conflict.href, body, current.etag or "*")
        items.put(conflict.uid, conflict.href, etag, local_hash(rows), canonical_hash(rows))
        self.conflict_store.close(conflict.id, "local", body.decode())
        return changes


def _canonical_of(text: str | None) -> str | None:
    if text is None:
        return None
    resource = parse_resource(text)
    return resource.canonical or text
