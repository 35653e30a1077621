"""One calendar's sync run: pull what the server changed, then push ours.

Pull first, because a server change to an event we also changed must become a conflict
before our push could overwrite it. Each side's change is recognised by comparison with
what ``sync_items`` remembers (see ``state``): only one side changed → take it; both changed
to the same content → nothing to do; both changed differently → a conflict (see
``conflicts``). Every write carries the ETag we last saw, so a server change that lands
between our pull and our push is refused (412) and handled the same way, never overwritten.

Errors are per item: a resource the server refuses or sends broken is reported and the run
goes on. A calendar whose pull had any error keeps its old sync token, so the next run asks
again for what failed (items that did arrive are skipped by their ETag then). A failed fetch
is never a deletion: only the server's 404/410, or a resource missing from a listing that
was read whole, deletes here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, Protocol

from agent.services.invitations import my_addresses
from agent.store.db import Store
from agent.sync.accounts import Account, AccountService, Mapping
from agent.sync.conflicts import ConflictStore
from agent.sync.remote import Fetched, RemoteCalendar
from agent.sync.remote_errors import Exists, Gone, RemoteError, Stale, Unavailable, describe_error
from agent.sync.report import SyncProblem, SyncReport
from agent.sync.resources import (
    LocalRow,
    ServerResource,
    build_resource,
    canonical_hash,
    local_hash,
    parse_resource,
    resource_name,
)
from agent.sync.scheduling import go_ahead, others_as, quiet
from agent.sync.state import ItemStore, LocalCalendar, SyncItem

APPLY_BATCH = 50  # resources written per transaction: bounds how long the UI waits for the store (~0.2 s)


class Engine(Protocol):
    """What a calendar's run takes from the engine that drives it (``engine.SyncEngine``)."""

    store: Store
    profile_id: int
    accounts: AccountService
    conflict_store: ConflictStore

    def remote_for(self, client: Any, mapping: Mapping) -> RemoteCalendar: ...


class CalendarSync:
    """One run over one mapping. Short-lived: it caches the items it read at the start."""

    def __init__(self, engine: Engine, account: Account, mapping: Mapping, remote: RemoteCalendar, report: SyncReport) -> None:
        self.engine = engine
        self.account = account
        self.mapping = mapping
        self.remote = remote
        self.report = report
        self.items = ItemStore(engine.store, mapping.id)
        self.local = LocalCalendar(engine.store, engine.profile_id, mapping.calendar_id)
        self.conflicts = engine.conflict_store
        self.by_uid: dict[str, SyncItem] = {}
        self.by_href: dict[str, SyncItem] = {}
        self.open_uids: set[str] = set()
        self.clean = True
        self._others: dict[str, tuple[Mapping, SyncItem]] | None = None  # other calendars' items, by UID
        self.send = go_ahead(engine.store, engine.profile_id)  # UIDs the user chose to send invitations for
        self._mine: tuple[str, ...] | None = None  # the user's addresses, asked when first needed

    def _reload(self) -> None:
        items = self.items.all()
        self.by_uid = {item.uid: item for item in items}
        self.by_href = {item.href: item for item in items}
        self.open_uids = {c.uid for c in self.conflicts.open(self.mapping.id)}

    def problem(self, uid: str | None, code: str, /, **params: Any) -> None:
        self.report.errors.append(SyncProblem.of(self.account.name, self.mapping.calendar_name, uid, code, **params))

    def run(self) -> None:
        self._reload()
        read_only = self.remote.read_only()
        self.engine.accounts.set_read_only(self.mapping, bool(read_only))
        listing = self.remote.listing(self.mapping.sync_token, self.mapping.ctag)
        for href in listing.refused:  # never fetched, never written: reported, every time it is listed
            self.problem(None, "sync.href_outside", href=href[:200])
        if not listing.unchanged:
            self._pull(listing.changed, listing.deleted, listing.complete)
        self._reload()
        if read_only:
            self._hold_back()
        else:
            self._push()
        if self.clean:
            token = self.mapping.sync_token if listing.unchanged else listing.token
            self.engine.accounts.save_position(self.mapping, token, listing.ctag)

    # ---- pull ------------------------------------------------------------------------------

    def _pull(self, changed: dict[str, str | None], deleted: set[str], complete: bool) -> None:
        gone = set(deleted)
        if complete:
            gone |= {href for href in self.by_href if href not in changed}
        wanted = [
            key for key, etag in changed.items()
            if not (etag and key in self.by_href and self.by_href[key].etag == etag)
        ]  # fmt: skip
        told = False
        for fetch in self.remote.fetch_batches(wanted):
            gone |= fetch.missing
            if fetch.batch_errors and not told:  # made up for by single GETs; said once, so a broken proxy is seen
                self.problem(None, "sync.multiget_failed", text=fetch.batch_errors[0])
                told = True
            for key, message in fetch.errors.items():
                self.clean = False
                self.problem(self.by_href[key].uid if key in self.by_href else None, "sync.fetch_failed", key=key, text=message)
            self._apply_fetched(list(fetch.found.values()))
        with self.engine.store.transaction():
            for key in sorted(gone):
                self._guarded(self.by_href[key].uid if key in self.by_href else None, self._incoming_delete, key)

    def _apply_fetched(self, found: list[Fetched]) -> None:
        """Read and store one batch of server resources, ``APPLY_BATCH`` per transaction."""
        parsed = [(item, parse_resource(item.text, item.key)) for item in found]
        new_uids = [res.uid for _, res in parsed if res.uid and res.uid not in self.by_uid]
        elsewhere = self.local.elsewhere(new_uids)
        for start in range(0, len(parsed), APPLY_BATCH):
            with self.engine.store.transaction():
                for item, resource in parsed[start : start + APPLY_BATCH]:
                    self._guarded(resource.uid, self._incoming, item, resource, elsewhere)

    def _guarded(self, uid: str | None, step: Callable[..., None], *args: Any) -> None:
        """Run one item's pull step; a failure is that item's error, not the run's."""
        try:
            with _savepoint(self.engine.store):
                step(*args)
        except Unavailable:
            raise
        except Exception as exc:  # reported per item; the token is kept back
            self.clean = False
            self.problem(uid, "sync.apply_failed", text=describe_error(exc))

    def _incoming(self, fetched: Fetched, resource: ServerResource, elsewhere: dict[str, str]) -> None:
        key, etag = fetched.key, fetched.etag
        if resource.problem:
            self.clean = False
            self.problem(resource.uid, "sync.copy_at_unreadable", key=key, problem=resource.problem)
            return
        if resource.ignored:
            self.items.put(f"href:{key}", key, etag, "", None, ignored=True)
            return
        uid = resource.uid
        assert uid is not None
        item = self.by_uid.get(uid)
        previous = self.by_href.get(key)
        if previous is not None and previous.uid != uid:  # another UID took this resource's place
            self._incoming_delete(key)
        if uid in self.open_uids:
            self.conflicts.record(self.mapping.id, uid, key, None, fetched.text, etag)
            return
        rows = self.local.rows(uid)
        if item is None:
            if uid in elsewhere:
                self.clean = False
                self.problem(uid, "sync.already_local", other=elsewhere[uid], calendar=self.mapping.calendar_name)
            elif not rows:
                self._take_server(uid, key, etag, resource)
            elif canonical_hash(rows) == resource.canonical:
                self.items.put(uid, key, etag, local_hash(rows), resource.canonical)
            else:
                self._conflict(uid, key, rows, fetched.text, etag)
            return
        current = local_hash(rows) if rows else None
        if current == item.local_hash:
            if rows and resource.canonical == item.remote_hash:  # the server only rewrote its copy
                self.items.put(uid, key, etag, item.local_hash, item.remote_hash)
            else:
                self._take_server(uid, key, etag, resource)
        elif resource.canonical == item.remote_hash:  # only ours changed: the push sends it
            self.items.put(uid, key, etag, item.local_hash, item.remote_hash)
        elif rows and canonical_hash(rows) == resource.canonical:  # both made the same change
            self.items.put(uid, key, etag, current or "", resource.canonical)
        else:
            self._conflict(uid, key, rows, fetched.text, etag, restore=resource if not rows else None)

    def _incoming_delete(self, key: str) -> None:
        item = self.by_href.get(key)
        if item is None:
            return
        self.by_href.pop(key, None)
        uid = item.uid
        if item.ignored:
            self.items.drop(uid)
            return
        if uid in self.open_uids:
            self.conflicts.record(self.mapping.id, uid, key, None, None, None)
            return
        rows = self.local.rows(uid)
        if not rows:
            self.items.drop(uid)
        elif local_hash(rows) == item.local_hash:
            self.report.changes.extend(self.local.remove(uid))
            self.items.drop(uid)
            self.report.pulled += 1
        else:  # edited here, deleted there: the user decides
            self._conflict(uid, key, rows, None, None)

    def _take_server(self, uid: str, key: str, etag: str | None, resource: ServerResource) -> None:
        new_hash, changes = self.local.apply(resource)
        self.report.changes.extend(changes)
        self.items.put(uid, key, etag, new_hash, resource.canonical)
        self.report.pulled += 1

    def _conflict(
        self,
        uid: str,
        key: str,
        rows: list[LocalRow],
        server_text: str | None,
        etag: str | None,
        *,
        restore: ServerResource | None = None,
    ) -> None:
        """Record a conflict. ``restore``: we deleted what the server changed, so its version
        comes back into the calendar to be seen while the user decides."""
        if not rows:
            moved = self.local.found_elsewhere(uid)
            if moved is not None:  # moved here to another calendar: that copy is ours, and stays
                rows, restore = moved[1], None
        local_text = build_resource(rows).decode() if rows else None
        if self.conflicts.record(self.mapping.id, uid, key, local_text, server_text, etag):
            self.report.new_conflicts += 1
        self.open_uids.add(uid)
        if restore is not None:
            new_hash, changes = self.local.apply(restore)
            self.report.changes.extend(changes)
            self.items.put(uid, key, etag, new_hash, restore.canonical)

    # ---- push ------------------------------------------------------------------------------

    def _hold_back(self) -> None:
        """A read-only calendar is never written: local changes stay here, said once a run."""
        snapshot = self.local.snapshot()
        count = sum(
            1 for uid, rows in snapshot.items()
            if uid not in self.open_uids and (uid not in self.by_uid or local_hash(rows) != self.by_uid[uid].local_hash)
        )  # fmt: skip
        count += sum(1 for item in self.by_uid.values() if not item.ignored and item.uid not in snapshot)
        if count:
            self.problem(None, "sync.read_only", count=count)

    def _push(self) -> None:
        snapshot = self.local.snapshot()
        for uid, rows in snapshot.items():
            if uid in self.open_uids:
                continue
            item = self.by_uid.get(uid)
            try:
                if item is None:
                    self._create(uid, rows)
                elif not item.ignored and local_hash(rows) != item.local_hash:
                    self._update(item, rows)
            except Unavailable:
                raise
            except RemoteError as exc:
                self.problem(uid, "sync.upload_failed", text=str(exc))
        for item in list(self.by_uid.values()):
            if item.ignored or item.uid in snapshot or item.uid in self.open_uids:
                continue
            try:
                self._delete(item)
            except Unavailable:
                raise
            except RemoteError as exc:
                self.problem(item.uid, "sync.delete_failed", text=str(exc))

    def _quiet(self, uid: str, rows: list[LocalRow]) -> bytes:
        """The resource to upload, marked so the server schedules no one without the user's
        go-ahead; the user's own ATTENDEE line is left alone (``scheduling``), so who the
        user is (Settings, the account, the server's principal) is asked the first time an
        upload names people."""
        body = build_resource(rows)
        send = uid in self.send
        if send or b"ATTENDEE" not in body.upper():
            return quiet(body, send)
        return quiet(body, False, self._addresses())

    def _addresses(self) -> tuple[str, ...]:
        if self._mine is None:
            self._mine = (*my_addresses(self.engine.store, self.engine.profile_id), *self.remote.user_addresses())
        return self._mine

    def _create(self, uid: str, rows: list[LocalRow]) -> None:
        key = self.remote.key_for_name(resource_name(uid))
        body = self._quiet(uid, rows)  # nothing emails anyone silently
        self._leave_other_calendar(uid)
        try:
            etag = self.remote.create(key, body)
        except Exists:
            current = self.remote.get(key)
            if current is None:
                raise
            resource = parse_resource(current.text, key)
            if resource.uid != uid:  # another event holds that name: never take it for ours
                self.problem(uid, "sync.name_taken", key=key, other=str(resource.uid)[:100])
            # Decided as a pull would, with the same guard: a UID that lives in another local
            # calendar is never written over (issue 29: "Private" lost an event this way).
            elsewhere = self.local.elsewhere([resource.uid]) if resource.uid else {}
            with self.engine.store.transaction():
                self._incoming(current, resource, elsewhere)
            return
        self.items.put(uid, key, etag, local_hash(rows), canonical_hash(rows))
        self.report.pushed += 1

    def _leave_other_calendar(self, uid: str) -> None:
        """An event moved here from another synced calendar of this account is deleted there
        first: Cyrus (Fastmail) and iCloud refuse a UID twice in one account, whichever
        calendar syncs first. A copy changed there meanwhile is left to that calendar's run."""
        if self._others is None:
            self._others = {}
            for mapping in self.engine.accounts.mappings(self.account):
                if mapping.id != self.mapping.id:
                    self._others.update({item.uid: (mapping, item) for item in ItemStore(self.engine.store, mapping.id).all()})
        found = self._others.pop(uid, None)
        if found is None:
            return
        mapping, item = found
        if item.ignored or item.etag is None:
            return
        other = self.engine.remote_for(self.remote.client, mapping)
        try:
            other.delete(item.href, item.etag)
        except Gone:
            pass
        except Unavailable:
            raise
        except RemoteError:  # changed there, or refused: that calendar's own run decides
            return
        ItemStore(self.engine.store, mapping.id).drop(uid)
        self.report.pushed += 1

    def _update(self, item: SyncItem, rows: list[LocalRow]) -> None:
        body = self._quiet(item.uid, rows)
        try:
            if item.etag is None:
                raise Stale("sync.no_etag")
            etag = self.remote.update(item.href, body, item.etag)
        except Stale:
            self._after_stale(item, rows, body)
            return
        except Gone:
            self._conflict(item.uid, item.href, rows, None, None)
            return
        self._settle(item.uid, item.href, rows, etag)
        self.report.pushed += 1

    def _settle(self, uid: str, key: str, rows: list[LocalRow], etag: str | None) -> None:
        """Record what the server holds after our PUT. An answer without an ETag says the server
        stored something else than what was sent (RFC 4791 5.3.4): DAViCal, on an organizer's
        move, sets every attendee back to NEEDS-ACTION in the organizer's own copy. That copy is
        read now and taken as a pull would take it, so the user's next change (a delete right
        after) is not a conflict with the server's own rewrite."""
        if etag is None:
            try:
                current = self.remote.get(key)
            except RemoteError:  # the write is done: recorded as sent, the next listing says the rest
                current = None
            resource = parse_resource(current.text, key) if current is not None else None
            if current is not None and resource is not None and not resource.problem and resource.uid == uid:
                if resource.canonical == canonical_hash(rows):
                    self.items.put(uid, key, current.etag, local_hash(rows), resource.canonical)
                else:
                    with self.engine.store.transaction():
                        self._take_server(uid, key, current.etag, resource)
                return
        self.items.put(uid, key, etag, local_hash(rows), canonical_hash(rows))

    def _after_stale(self, item: SyncItem, rows: list[LocalRow], body: bytes) -> None:
        """Someone wrote since we last looked: fetch their version and decide as a pull would."""
        current = self.remote.get(item.href)
        if current is None:
            self._conflict(item.uid, item.href, rows, None, None)
            return
        resource = parse_resource(current.text, item.href)
        if resource.problem:
            raise RemoteError("sync.copy_unreadable", problem=resource.problem)
        if resource.canonical == item.remote_hash and current.etag:  # their write changed nothing
            try:
                etag = self._update_again(item.href, body, current)
            except Stale:
                self._conflict(item.uid, item.href, rows, current.text, current.etag)
                return
            self.items.put(item.uid, item.href, etag, local_hash(rows), canonical_hash(rows))
            self.report.pushed += 1
        elif resource.canonical == canonical_hash(rows):
            self.items.put(item.uid, item.href, current.etag, local_hash(rows), resource.canonical)
        else:
            self._conflict(item.uid, item.href, rows, current.text, current.etag)

    def _update_again(self, href: str, body: bytes, current: Fetched) -> str | None:
        """The update once more on the current ETag. Refused again although nothing moved:
        the server refuses the content, not a stale copy; a server that lets an attendee
        change nothing but their own ATTENDEE line (Xandikos) takes it with its own lines for
        everyone else back (``scheduling.others_as``); one more try, then the conflict as before."""
        try:
            return self.remote.update(href, body, current.etag or "")
        except Stale:
            theirs = others_as(body, current.text, self._addresses()) if b"ATTENDEE" in body.upper() else None
            if theirs is None:
                raise
            return self.remote.update(href, theirs, current.etag or "")

    def _delete(self, item: SyncItem) -> None:
        current: Fetched | None = None
        try:
            if item.etag is None:
                raise Stale("sync.no_etag")
            self.remote.delete(item.href, item.etag)
        except Gone:
            pass
        except Stale as stale:
            current = self.remote.get(item.href)
            if current is not None:
                resource = parse_resource(current.text, item.href)
                if resource.problem:
                    raise RemoteError("sync.copy_unreadable", problem=resource.problem) from stale
                if resource.canonical != item.remote_hash or not current.etag:
                    self._conflict(item.uid, item.href, [], current.text, current.etag, restore=resource)
                    return
                with suppress(Gone):
                    self.remote.delete(item.href, current.etag)
        self.items.drop(item.uid)
        self.report.pushed += 1


@contextmanager
def _savepoint(store: Store) -> Iterator[None]:
    """One item inside a batch transaction: its failure undoes its own writes only."""
    conn = store.conn
    conn.execute("SAVEPOINT sync_item")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK TO sync_item")
        conn.execute("RELEASE sync_item")
        raise
    conn.execute("RELEASE sync_item")
