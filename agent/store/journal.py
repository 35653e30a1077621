"""The undo journal: every committed change set of a profile, kept so it can be taken back later.

Why a table and not the app's memory: ``richeng undo`` runs in a new process, a chat turn's
receipt outlives the window, and an import made from the CLI must be as undoable as one
made in the app. So the store's one write path (``EventRepo.save``/``delete``, and the ICS
writer's batch report) hands each ``ChangeSet`` to ``collect``; everything collected in one
transaction becomes one ``change_journal`` row, written by a before-commit hook inside that
same transaction (``Store.before_commit``), so a change and its journal row commit or fail
together. A rolled-back transaction leaves no row.

A row holds, per touched event row (UID, RECURRENCE-ID), the state before the transaction
(text, calendar, origin, imported source) and a digest of the state after it. The digest
is what makes undo exact rather than hopeful: a change is only reverted while every row it
touched is still as it left it; otherwise nothing changes and the message says why.

Undo and redo (docs/architecture.md, "Undo journal"): reverting a ``change`` row records
the inverse as a row of kind ``undo`` and marks the original undone; ``richeng undo``
always takes the newest ``change`` row not yet undone (never an undo row, never a sync
pull), so undoing twice undoes the two newest distinct changes. Reverting an ``undo`` row
is a redo: it records a ``redo`` row and marks the original not undone again.
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from agent.errors import NotFoundError, StoreError, UserFacingError

if TYPE_CHECKING:
    import sqlite3

    from agent.store.db import Store
    from agent.store.events import ChangeSet

ORIGINS = ("chat", "cli", "import", "user", "sync")
KEEP = 1000  # journal rows kept per profile; older ones are pruned on write
LIST_DEFAULT = 20
_KEY = "change_journal"
_CHUNK = 500
_OFF = object()  # an origin scope that journals nothing


class JournalError(UserFacingError):
    """An undo that cannot be done exactly; nothing was changed."""


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


@dataclass(frozen=True)
class Entry:
    """One journal row, without its change list."""

    id: int
    created_at: str
    origin: str
    kind: str
    reverts: int | None
    label: str
    created: int
    updated: int
    deleted: int
    undone: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "created_at": self.created_at, "origin": self.origin, "kind": self.kind,
            "reverts": self.reverts, "label": self.label, "created": self.created, "updated": self.updated,
            "deleted": self.deleted, "undone": self.undone,
        }  # fmt: skip


@dataclass
class Reverted:
    """What an undo (or redo) did: the entry it took back, the rows, and the inverse."""

    entry: Entry
    inverse_id: int | None
    events: list[dict[str, Any]]
    changes: ChangeSet  # the inverse change set, for views to refresh on and a redo to replay

    def to_json(self) -> dict[str, Any]:
        return {"reverted": self.entry.to_json(), "events": self.events}


@dataclass
class _Pending:
    """What one transaction has collected for one profile so far."""

    sets: list[ChangeSet] = field(default_factory=list)
    hints: set[str] = field(default_factory=set)
    origin: str | None = None
    label: str | None = None
    kind: str = "change"
    reverts: list[int] = field(default_factory=list)  # undo/redo: the rows taken back, newest first


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
    _check_origin(origin)
    _defaults[store] = origin


@contextmanager
def origin(store: Store, name: str | None, label: str | None = None) -> Iterator[None]:
    """Writes committed on this thread inside the block are journalled as ``name`` (``chat``
    for an assistant turn, ``sync`` for a pull); ``label`` names the entry."""
    if name is not None:
        _check_origin(name)
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
    pending = _open(store, profile_id)
    if pending is None:
        with store.transaction():
            collect(store, profile_id, changes, hint, origin=origin, label=label)
        return
    pending.sets.append(changes)
    if hint:
        pending.hints.add(hint)
    if origin is not None and pending.origin is None:
        _check_origin(origin)
        pending.origin, pending.label = origin, label


def _open(store: Store, profile_id: int) -> _Pending | None:
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
        if not rows and not pending.reverts:
            continue
        name = pending.origin or ("chat" if "agent" in pending.hints else _defaults.get(store, "user"))
        counts = {op: sum(1 for row in rows if row.op == op) for op in ("created", "updated", "deleted")}
        label = pending.label or _label(counts, titles)
        body = json.dumps({"v": 1, "rows": [row.to_json() for row in rows]}, ensure_ascii=False)
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
    now = _current(conn, profile_id, first, "e.uid, e.recurrence_id, e.calendar_id, e.ics, e.title",
                   lambda found: (_digest(found["calendar_id"], found["ics"]), found["title"]))  # fmt: skip
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
        elif after == _digest(change.before_calendar_id, change.before_ics):
            continue
        else:
            op = "updated"
        rows.append(RowChange(op, key[0], key[1], change.before_ics, change.before_calendar_id,
                              change.before_origin, getattr(change, "before_source", None), after))  # fmt: skip
        if len(titles) < 4:
            title = row[1] if row is not None else _summary(change.before_ics or "")
            if title and title not in titles:
                titles.append(title)
    return rows, titles


def _current(
    conn: sqlite3.Connection, profile_id: int, keys: Any, columns: str = "e.*, c.name AS calendar_name",
    keep: Callable[[Any], Any] | None = None,
) -> dict[tuple[str, str], Any]:
    """The event rows now stored for ``keys`` ((UID, RECURRENCE-ID) pairs), read in chunks
    (``columns`` only, and only what ``keep`` makes of each: an import or sync pull of
    100,000 events must not hold 100,000 rows with their texts)."""
    wanted = set(keys)
    uids = sorted({uid for uid, _ in wanted})
    found: dict[tuple[str, str], Any] = {}
    for start in range(0, len(uids), _CHUNK):
        chunk = uids[start : start + _CHUNK]
        for row in conn.execute(
            f"SELECT {columns} FROM events e JOIN calendars c ON c.id = e.calendar_id"
            f" WHERE e.profile_id = ? AND e.uid IN ({', '.join('?' for _ in chunk)})",
            [profile_id, *chunk],
        ):
            key = (row["uid"], row["recurrence_id"])
            if key in wanted:
                found[key] = row if keep is None else keep(row)
    return found


def _digest(calendar_id: int | None, ics: str) -> str:
    return hashlib.sha256(f"{calendar_id}\x00{ics}".encode()).hexdigest()[:32]


def _summary(ics: str) -> str:
    """SUMMARY of a stored VEVENT text without parsing it (labels only)."""
    for line in ics.splitlines():
        if line.upper().startswith("SUMMARY"):
            return line.split(":", 1)[-1].replace("\\,", ",").replace("\\;", ";").strip()
    return ""


def _label(counts: dict[str, int], titles: list[str]) -> str:
    total = sum(counts.values())
    verb = "edit"
    if counts["created"] == total:
        verb = "create"
    elif counts["deleted"] == total:
        verb = "delete"
    names = "、".join(titles[:3]) + (" …" if total > 3 and len(titles) > 3 else "")
    return f"{verb} {names}".strip()


def _stamp(store: Store) -> str:
    """The service clock (``store.clock``: ``--now`` in the CLI, a fixed one in tests), UTC."""
    return store.clock().astimezone(UTC).isoformat(timespec="seconds")


def _check_origin(name: str) -> None:
    if name not in ORIGINS:
        raise ValueError(f"journal origin must be one of {ORIGINS}, not {name!r}")


# ---- reading -----------------------------------------------------------------------------


def _entry(row: Any) -> Entry:
    return Entry(int(row["id"]), row["created_at"], row["origin"], row["kind"], row["reverts"], row["label"],
                 int(row["created"]), int(row["updated"]), int(row["deleted"]), bool(row["undone"]))  # fmt: skip


_ENTRY_COLUMNS = "id, created_at, origin, kind, reverts, label, created, updated, deleted, undone"


def recent(store: Store, profile_id: int, limit: int = LIST_DEFAULT) -> list[Entry]:
    """The newest journal entries of the profile, newest first."""
    rows = store.conn.execute(
        f"SELECT {_ENTRY_COLUMNS} FROM change_journal WHERE profile_id = ? ORDER BY id DESC LIMIT ?",
        (profile_id, max(0, limit)),
    ).fetchall()
    return [_entry(row) for row in rows]


def get(store: Store, change_id: int) -> Entry | None:
    row = store.conn.execute(f"SELECT {_ENTRY_COLUMNS} FROM change_journal WHERE id = ?", (change_id,)).fetchone()
    return _entry(row) if row is not None else None


def is_undone(store: Store, change_id: int) -> bool:
    """Whether journal entry ``change_id`` has been undone (and not redone): for receipts
    that show "已撤销 / Undone" after a restart. An unknown or pruned id is not undone."""
    entry = get(store, change_id)
    return entry is not None and entry.undone


def last_recorded() -> int | None:
    """The id of the last journal row this thread wrote (right after a service call: its entry)."""
    value = getattr(_local, "last", None)
    return int(value) if value is not None else None


def find(store: Store, profile_id: int, changes: ChangeSet, window: int = 20) -> int | None:
    """The newest recent entry recording rows of ``changes`` and no others (for a change set
    that arrives from another thread, such as a chat turn's)."""
    found = matching(store, profile_id, changes, window=window)
    return found[0] if found else None


def matching(
    store: Store, profile_id: int, changes: ChangeSet, *, exclude: Any = (), window: int = 20
) -> list[int]:
    """The recent open entries that together recorded ``changes`` (newest first).

    An app import of several files is one change set but one entry per file, so entries
    are taken newest first while each adds rows of ``changes`` not yet covered, and the walk
    stops once every row is: an older entry of the same rows (the import before this one)
    is never taken for this one. ``exclude``: ids already accounted for (the app's stack)."""
    keys = {(c.uid, c.recurrence_id) for c in (*changes.created, *changes.updated, *changes.deleted)}
    if not keys:
        return []
    rows = store.conn.execute(
        "SELECT id, changes FROM change_journal WHERE profile_id = ? AND kind = 'change' AND undone = 0"
        " AND created + updated + deleted <= ? ORDER BY id DESC LIMIT ?",
        (profile_id, len(keys), window),
    ).fetchall()
    covered: set[tuple[str, str]] = set()
    picked: list[int] = []
    skip = set(exclude)
    for row in rows:
        if int(row["id"]) in skip:
            continue
        found = {(item[1], item[2]) for item in json.loads(row["changes"])["rows"]}
        if found and found <= keys and not found & covered:
            picked.append(int(row["id"]))
            covered |= found
            if covered == keys:
                break
    return picked


def undoable(store: Store, profile_id: int) -> Entry | None:
    """What ``richeng undo`` takes back: the newest change not undone, sync pulls aside
    (they are the server's, and would come back with the next sync anyway)."""
    row = store.conn.execute(
        f"SELECT {_ENTRY_COLUMNS} FROM change_journal WHERE profile_id = ? AND kind = 'change' AND undone = 0"
        " AND origin != 'sync' ORDER BY id DESC LIMIT 1",
        (profile_id,),
    ).fetchone()
    return _entry(row) if row is not None else None


# ---- reverting ---------------------------------------------------------------------------


def undo_last(store: Store, profile_id: int, origin: str = "user") -> Reverted | None:
    """Revert ``undoable``'s entry; None when there is nothing to undo."""
    with store.transaction():
        entry = undoable(store, profile_id)
        result = _revert(store, profile_id, entry.id, origin) if entry is not None else None
    if result is not None:
        result.inverse_id = inverse_of(store, result.entry.id)
    return result


def revert(store: Store, profile_id: int, change_id: int, origin: str = "user") -> Reverted:
    """Put every row entry ``change_id`` touched back as it was, in one transaction.

    Refused, changing nothing, when the entry is unknown, already undone, or any of its rows
    has changed since (``JournalError``). An ``undo`` entry reverted is a redo. Inside a
    caller's transaction the inverse is written when that one commits (``inverse_id`` None)."""
    nested = bool(store.conn.in_transaction)
    with store.transaction():
        result = _revert(store, profile_id, change_id, origin)
    if not nested:
        result.inverse_id = inverse_of(store, change_id)
    return result


def inverse_of(store: Store, change_id: int) -> int | None:
    """The journal row that undid ``change_id`` (or redid it, for an undo row); None: none."""
    row = store.conn.execute("SELECT undone_by FROM change_journal WHERE id = ?", (change_id,)).fetchone()
    return int(row[0]) if row is not None and row[0] is not None else None


def _revert(store: Store, profile_id: int, change_id: int, origin: str) -> Reverted:
    from agent.store.components import parse_component
    from agent.store.events import Change, ChangeSet, EventRepo

    _check_origin(origin)
    conn = store.conn
    row = conn.execute(
        "SELECT * FROM change_journal WHERE id = ? AND profile_id = ?", (change_id, profile_id)
    ).fetchone()
    if row is None:
        raise NotFoundError(f"没有第 {change_id} 号更改 / there is no change #{change_id} in this profile")
    entry = _entry(row)
    if entry.undone:
        raise JournalError(f"第 {change_id} 号更改已撤销 / change #{change_id} is already undone")
    rows = [RowChange.from_json(item) for item in json.loads(row["changes"])["rows"]]
    now = _current(conn, profile_id, {(r.uid, r.recurrence_id) for r in rows})
    for change in rows:
        current = now.get((change.uid, change.recurrence_id))
        digest = _digest(current["calendar_id"], current["ics"]) if current is not None else None
        if digest != change.after:
            title = (current["title"] if current is not None else "") or _summary(change.before_ics or "")
            raise JournalError(
                f"无法准确撤销第 {change_id} 号更改：「{title}」之后又被改过，未做任何改动 / cannot undo change "
                f"#{change_id} exactly: '{title}' has changed since; nothing was changed"
            )
    known = {r[0] for r in conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile_id,))}
    if any(c.op != "created" and c.before_calendar_id not in known for c in rows):
        raise JournalError(
            f"无法撤销第 {change_id} 号更改：它所在的日历已删除 / cannot undo change #{change_id}: the calendar "
            "its events were in has been deleted; nothing was changed"
        )
    kind = "redo" if entry.kind == "undo" else "undo"
    pending = _open(store, profile_id)
    assert pending is not None
    pending.origin, pending.kind = origin, kind
    pending.reverts.append(change_id)  # the app reverts an import of several files in one go
    said = entry.label.replace("undo", "redo", 1) if kind == "redo" else f"undo #{change_id}: {entry.label}"
    pending.label = f"{pending.label} + #{change_id}" if pending.label else said
    repo = EventRepo(store, profile_id)
    inverse = ChangeSet()
    events: list[dict[str, Any]] = []
    removed = [now[(c.uid, c.recurrence_id)] for c in reversed(rows) if c.op == "created"]
    for current in removed:
        events.append(_described(current, "removed"))
        inverse.deleted.append(Change(current["uid"], current["recurrence_id"], current["id"], current["ics"],
                                      current["calendar_id"], current["origin"], current["source"]))  # fmt: skip
    repo.sql.delete(r["id"] for r in removed)
    collect(store, profile_id, ChangeSet(deleted=list(inverse.deleted)))
    touched: set[str] = set()
    for change in reversed(rows):
        if change.op == "created":
            continue
        assert change.before_ics is not None
        inverse.extend(repo.save(parse_component(change.before_ics), int(change.before_calendar_id or 0),
                                 change.before_origin or "user", source=change.before_source,
                                 materialize=False, ics=change.before_ics))  # the very text: exact  # fmt: skip
        touched.add(change.uid)
    left = {r["uid"] for r in removed} - touched
    if left:  # a removed override whose series stays, say: its instances are rebuilt
        touched |= _uids_with_rows(conn, profile_id, left)
    for uid in sorted(touched):
        repo.materialize(uid)
    restored = _current(conn, profile_id, {(c.uid, c.recurrence_id) for c in rows if c.op != "created"})
    for change in reversed(rows):
        if change.op != "created" and (change.uid, change.recurrence_id) in restored:
            events.append(_described(restored[(change.uid, change.recurrence_id)], "restored"))
    return Reverted(_reverted(entry), None, events, inverse)


def _reverted(entry: Entry) -> Entry:
    return Entry(entry.id, entry.created_at, entry.origin, entry.kind, entry.reverts, entry.label,
                 entry.created, entry.updated, entry.deleted, True)  # fmt: skip


def _uids_with_rows(conn: sqlite3.Connection, profile_id: int, uids: set[str]) -> set[str]:
    ordered = sorted(uids)
    found: set[str] = set()
    for start in range(0, len(ordered), _CHUNK):
        chunk = ordered[start : start + _CHUNK]
        found |= {r[0] for r in conn.execute(
            f"SELECT DISTINCT uid FROM events WHERE profile_id = ? AND uid IN ({', '.join('?' for _ in chunk)})",
            [profile_id, *chunk],
        )}  # fmt: skip
    return found


def _described(row: Any, action: str) -> dict[str, Any]:
    """A touched row as the CLI prints it; times from its indexed columns, not a parse."""
    start, end = _moment(row, row["start_ts"]), _moment(row, row["end_ts"])
    if row["all_day"] and isinstance(end, date) and end > start:
        end = end - timedelta(days=1)  # the last day, as people say it
    return {
        "action": action, "uid": row["uid"], "recurrence_id": row["recurrence_id"] or None, "title": row["title"],
        "start": start.isoformat(), "end": end.isoformat(), "all_day": bool(row["all_day"]),
        "series": bool(row["rrule"] or row["rdate"]), "calendar": row["calendar_name"],
    }  # fmt: skip


def _moment(row: Any, ts: int) -> datetime | date:
    if row["floating"]:
        value = datetime(1970, 1, 1) + timedelta(seconds=ts)
        return value.date() if row["all_day"] else value
    try:
        tz: Any = ZoneInfo(row["tzid"]) if row["tzid"] else UTC
    except (ValueError, KeyError):
        tz = UTC
    return datetime.fromtimestamp(ts, tz)


__all__ = [
    "Entry", "JournalError", "Reverted", "collect", "find", "get", "inverse_of", "is_undone", "last_recorded", "matching",
    "origin", "recent", "revert", "set_default_origin", "undo_last", "undoable",
]  # fmt: skip
