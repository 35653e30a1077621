"""Recording the undo journal: each committed transaction's change sets become one
``change_journal`` row per profile (``agent.store.journal`` reads and reverts them, and
re-exports the names here that its callers use).

The store's one write path (``EventRepo.save``/``delete``, and the ICS writer's batch
report) hands each ``ChangeSet`` to ``collect``; everything collected in one transaction
becomes one row, written by a before-commit hook inside that same transaction
(``Store.before_commit``), so a change and its journal row commit or fail together. A
rolled-back transaction leaves no row. ``origin`` scopes name whose writes they are.

A row holds, per touched event row (UID, RECURRENCE-ID), the state before the transaction
(text, calendar, origin, imported source) and a digest of the state after it (``_net``):
the digest is what lets a revert check that every row is still as the change left it.
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC
from typing import TYPE_CHECKING, Any

from agent.errors import StoreError

if TYPE_CHECKING:
    import sqlite3

    from agent.store.changes import ChangeSet
    from agent.store.db import Store

ORIGINS = ("chat", "cli", "import", "user", "sync")
KEEP = 1000  # journal rows kept per profile; older ones are pruned on write
_KEY = "change_journal"
CHUNK = 500
_OFF = object()  # an origin scope that journals nothing


@dataclass(frozen=True, slots=True)  # an import of 100k events makes 100k of them
class RowChange:
    """One event row's net change within a journal entry."""

    op: str  # created | updated | deleted
    uid: str
    recurrence_id: str
    before_ics: str | None
    before_calendar_id: int | None
    before_origin: str | None
    before_source: str | None
    after: str | None  # digest of the row after the change; None: the row is gone

    def to_json(self) -> list[Any]:
        return [self.op, self.uid, self.recurrence_id, self.before_ics, self.before_calendar_id,
                self.before_origin, self.before_source, self.after]  # fmt: skip

    @classmethod
    def from_json(cls, item: list[Any]) -> RowChange:
        return cls(*item)


@dataclass(frozen=True, slots=True)
class CalendarRow:
    """A calendar created or deleted within a journal entry, as it was then: creating and
    deleting a calendar are changes like any event write, so ``richeng undo`` and the app's
    undo take them back from the same row (a deleted calendar's events are that row's
    deleted event rows)."""

    op: str  # created | deleted
    id: int
    name: str
    color: str
    is_default: bool
    visible: bool
    created_at: str

    def to_json(self) -> list[Any]:
        return [self.op, self.id, self.name, self.color, self.is_default, self.visible, self.created_at]

    @classmethod
    def from_json(cls, item: list[Any]) -> CalendarRow:
        return cls(item[0], int(item[1]), item[2], item[3], bool(item[4]), bool(item[5]), item[6])

    @classmethod
    def of(cls, op: str, row: Any) -> CalendarRow:
        """From a ``calendars`` table row."""
        return cls(op, int(row["id"]), row["name"], row["color"], bool(row["is_default"]), bool(row["visible"]),
                   str(row["created_at"]))  # fmt: skip


@dataclass
class _Pending:
    """What one transaction has collected for one profile so far."""

    sets: list[ChangeSet] = field(default_factory=list)
    hints: set[str] = field(default_factory=set)
    origin: str | None = None
    label: str | None = None
    kind: str = "change"
    reverts: list[int] = field(default_factory=list)  # undo/redo: the rows taken back, newest first
    calendars: list[CalendarRow] = field(default_factory=list)  # calendars created or deleted, in order


_local = threading.local()
_defaults: weakref.WeakKeyDictionary[Store, str] = weakref.WeakKeyDictionary()


def _pending(store: Store) -> dict[int, _Pending]:
    table: weakref.WeakKeyDictionary[Store, dict[int, _Pending]] | None = getattr(_local, "pending", None)
    if table is None:
        table = _local.pending = weakref.WeakKeyDictionary()
    return table.setdefault(store, {})


def _scopes(store: Store) -> list[Any]:
    table: weakref.WeakKeyDictionary[Store, list[Any]] | None = getattr(_local, "scopes", None)
    if table is None:
        table = _local.scopes = weakref.WeakKeyDictionary()
    return table.setdefault(store, [])


# ---- recording ---------------------------------------------------------------------------


def set_default_origin(store: Store, origin: str) -> None:
    """The origin of writes through ``store`` that name none (the CLI: ``cli``; default ``user``)."""
    check_origin(origin)
    _defaults[store] = origin


@contextmanager
def origin(store: Store, name: str | None, label: str | None = None) -> Iterator[None]:
    """Writes committed on this thread inside the block are journalled as ``name`` (``chat``
    for an assistant turn, ``sync`` for a pull); ``label`` names the entry."""
    if name is not None:
        check_origin(name)
    scopes = _scopes(store)
    scopes.append((name, label))
    try:
        yield
    finally:
        scopes.pop()


def collect(
    store: Store, profile_id: int, changes: ChangeSet, hint: str | None = None, *,
    origin: str | None = None, label: str | None = None,
) -> None:  # fmt: skip
    """Add ``changes`` to the journal entry of the transaction now open on this thread.

    ``hint`` is the event origin the writer used (``agent`` means the assistant wrote it);
    ``origin``/``label`` name the entry outright (the importer does). Outside a transaction
    the change has committed already, so it is journalled in one of its own."""
    if not changes:
        return
    pending = open_entry(store, profile_id)
    if pending is None:
        with store.transaction():
            collect(store, profile_id, changes, hint, origin=origin, label=label)
        return
    pending.sets.append(changes)
    if hint:
        pending.hints.add(hint)
    if origin is not None and pending.origin is None:
        check_origin(origin)
        pending.origin, pending.label = origin, label


def collect_calendar(store: Store, profile_id: int, op: str, calendar_id: int) -> None:
    """Journal calendar ``calendar_id`` as ``op`` (``created``: call after the insert;
    ``deleted``: before the delete) in the transaction now open (the caller's)."""
    row = store.conn.execute("SELECT * FROM calendars WHERE id = ?", (calendar_id,)).fetchone()
    pending = open_entry(store, profile_id)
    if row is None or pending is None:
        return
    pending.calendars.append(CalendarRow.of(op, row))


def open_entry(store: Store, profile_id: int) -> _Pending | None:
    """This transaction's pending entry for the profile (None: no transaction is open)."""
    try:
        fresh = store.before_commit(_KEY, lambda conn: _flush(store, conn))
    except StoreError:
        return None
    table = _pending(store)
    if fresh:
        table.clear()  # whatever was left there belonged to a transaction that rolled back
    pending = table.get(profile_id)
    if pending is None:
        pending = table[profile_id] = _Pending()
        scopes = _scopes(store)
        if scopes:
            name, scope_label = scopes[-1]
            pending.origin = _OFF if name is None else name  # type: ignore[assignment]
            pending.label = scope_label
    return pending


def _flush(store: Store, conn: sqlite3.Connection) -> None:
    """The before-commit hook: one journal row per profile that changed in this transaction."""
    table = _pending(store)
    items = list(table.items())
    table.clear()
    for profile_id, pending in items:
        if pending.origin is _OFF:
            continue
        rows, titles = _net(conn, profile_id, pending.sets)
        calendars = _net_calendars(pending.calendars)
        if not rows and not pending.reverts and not calendars:
            continue
        name = pending.origin or ("chat" if "agent" in pending.hints else _defaults.get(store, "user"))
        counts = {op: sum(1 for row in rows if row.op == op) for op in ("created", "updated", "deleted")}
        label = pending.label or _calendar_label(calendars) or _label(counts, titles, rows)
        record: dict[str, Any] = {"v": 1, "rows": [row.to_json() for row in rows]}
        if calendars:
            record["calendars"] = [calendar.to_json() for calendar in calendars]
        body = json.dumps(record, ensure_ascii=False)
        cur = conn.execute(
            "INSERT INTO change_journal(profile_id, created_at, origin, kind, reverts, label, created, updated,"
            " deleted, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (profile_id, _stamp(store), name, pending.kind, pending.reverts[0] if pending.reverts else None,
             label[:200], counts["created"], counts["updated"], counts["deleted"], body),
        )  # fmt: skip
        new_id = int(cur.lastrowid or 0)
        _local.last = new_id
        for taken in pending.reverts:
            if pending.kind == "redo":  # the undo is taken back: what it undid stands again
                conn.execute(
                    "UPDATE change_journal SET undone = 0, undone_at = NULL, undone_by = NULL WHERE undone_by = ?",
                    (taken,),
                )
            conn.execute(
                "UPDATE change_journal SET undone = 1, undone_at = ?, undone_by = ? WHERE id = ?",
                (_stamp(store), new_id, taken),
            )
        conn.execute(
            "DELETE FROM change_journal WHERE profile_id = ? AND id <= ("
            " SELECT id FROM change_journal WHERE profile_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
            (profile_id, profile_id, KEEP),
        )


def _net(conn: sqlite3.Connection, profile_id: int, sets: list[ChangeSet]) -> tuple[list[RowChange], list[str]]:
    """Per row, the state before the transaction and a digest of the state now; rows that
    end as they began (created and deleted again, a rolled-back savepoint) drop out."""
    first: dict[tuple[str, str], Any] = {}
    for changes in sets:
        for change in (*changes.created, *changes.updated, *changes.deleted):
            first.setdefault((change.uid, change.recurrence_id), change)
    now = current_rows(conn, profile_id, first, "e.uid, e.recurrence_id, e.calendar_id, e.ics, e.title",
                   lambda found: (digest(found["calendar_id"], found["ics"]), found["title"]))  # fmt: skip
    rows: list[RowChange] = []
    titles: list[str] = []
    for key, change in first.items():
        row = now.get(key)  # (digest, title)
        after = row[0] if row is not None else None
        if change.before_ics is None:
            if row is None:
                continue
            op = "created"
        elif row is None:
            op = "deleted"
        elif after == digest(change.before_calendar_id, change.before_ics):
            continue
        else:
            op = "updated"
        rows.append(RowChange(op, key[0], key[1], change.before_ics, change.before_calendar_id,
                              change.before_origin, getattr(change, "before_source", None), after))  # fmt: skip
        if len(titles) < 4:
            title = row[1] if row is not None else summary(change.before_ics or "")
            if title and title not in titles:
                titles.append(title)
    return rows, titles


def _net_calendars(calendars: list[CalendarRow]) -> list[CalendarRow]:
    """A calendar created and deleted again in one transaction drops out, like an event row."""
    created = {c.id for c in calendars if c.op == "created"}
    gone = {c.id for c in calendars if c.op == "deleted" and c.id in created}
    return [c for c in calendars if c.id not in gone]


def _calendar_label(calendars: list[CalendarRow]) -> str:
    """``create calendar 家庭`` / ``delete calendar 家庭``: what ``undo --list`` and the Edit menu say."""
    if not calendars:
        return ""
    first = calendars[0]
    return f"{'create' if first.op == 'created' else 'delete'} calendar {first.name}"


def current_rows(
    conn: sqlite3.Connection,
    profile_id: int,
    keys: Any,
    columns: str = "e.*, c.name AS calendar_name",
    keep: Callable[[Any], Any] | None = None,
) -> dict[tuple[str, str], Any]:
    """The event rows now stored for ``keys`` ((UID, RECURRENCE-ID) pairs), read in chunks
    (``columns`` only, and only what ``keep`` makes of each: an import or sync pull of
    100,000 events must not hold 100,000 rows with their texts)."""
    wanted = set(keys)
    uids = sorted({uid for uid, _ in wanted})
    found: dict[tuple[str, str], Any] = {}
    for start in range(0, len(uids), CHUNK):
        chunk = uids[start : start + CHUNK]
        for row in conn.execute(
            f"SELECT {columns} FROM events e JOIN calendars c ON c.id = e.calendar_id"
            f" WHERE e.profile_id = ? AND e.uid IN ({', '.join('?' for _ in chunk)})",
            [profile_id, *chunk],
        ):
            key = (row["uid"], row["recurrence_id"])
            if key in wanted:
                found[key] = row if keep is None else keep(row)
    return found


def digest(calendar_id: int | None, ics: str) -> str:
    return hashlib.sha256(f"{calendar_id}\x00{ics}".encode()).hexdigest()[:32]


def summary(ics: str) -> str:
    """SUMMARY of a stored VEVENT text without parsing it (labels only)."""
    for line in ics.splitlines():
        if line.upper().startswith("SUMMARY"):
            return line.split(":", 1)[-1].replace("\\,", ",").replace("\\;", ";").strip()
    return ""


def _label(counts: dict[str, int], titles: list[str], rows: list[RowChange]) -> str:
    total = sum(counts.values())
    verb = "edit"
    # An "only this occurrence" edit writes a new override row (a RECURRENCE-ID) and nothing
    # else: it is an edit of the series, not a create (issue 32, `undo --list`).
    if counts["created"] == total and not all(row.recurrence_id for row in rows):
        verb = "create"
    elif counts["deleted"] == total:
        verb = "delete"
    names = "、".join(titles[:3]) + (" …" if total > 3 and len(titles) > 3 else "")
    return f"{verb} {names}".strip()


def _stamp(store: Store) -> str:
    """The service clock (``store.clock``: ``--now`` in the CLI, a fixed one in tests), UTC.
    An instant UTC cannot hold (year 1 east of Greenwich, 9999-12-31 west of it) keeps its
    own offset, and a naive one is written as it is: a stamp never stops a write."""
    now = store.clock()
    try:
        return now.astimezone(UTC).isoformat(timespec="seconds")
    except (OverflowError, ValueError):
        return now.isoformat(timespec="seconds")


def check_origin(name: str) -> None:
    if name not in ORIGINS:
        raise ValueError(f"journal origin must be one of {ORIGINS}, not {name!r}")


def last_recorded() -> int | None:
    """The id of the last journal row this thread wrote (right after a service call: its entry)."""
    value = getattr(_local, "last", None)
    return int(value) if value is not None else None
