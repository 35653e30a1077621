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

Recording (``collect``, ``origin`` scopes, the before-commit hook) lives in
``agent.store.journal_record``; this module reads and reverts, and re-exports what callers
use from there, so ``journal.collect`` and ``journal.revert`` both keep working.

Undo and redo (docs/architecture.md, "Undo journal"): reverting a ``change`` row records
the inverse as a row of kind ``undo`` and marks the original undone; ``richeng undo``
always takes the newest ``change`` row not yet undone (never an undo row, never a sync
pull), so undoing twice undoes the two newest distinct changes. Reverting an ``undo`` row
is a redo: it records a ``redo`` row and marks the original not undone again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from agent.errors import JournalError, NotFoundError
from agent.store import calendar_undo
from agent.store.journal_record import (
    CHUNK,
    CalendarRow,
    RowChange,
    check_origin,
    collect,
    current_rows,
    digest,
    open_entry,
    summary,
)
from agent.store.journal_record import KEEP as KEEP
from agent.store.journal_record import ORIGINS as ORIGINS

if TYPE_CHECKING:
    import sqlite3

    from agent.store.changes import ChangeSet
    from agent.store.db import Store

LIST_DEFAULT = 20


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

    def when(self, tz: tzinfo) -> str:
        """``created_at`` as local ``YYYY-MM-DD HH:MM`` in ``tz``, for people. Any stored text
        is shown, never raised on: a stamp that does not parse, or whose instant ``tz`` cannot
        hold (9999-12-31 23:59 UTC is year 10000 in Shanghai), is shown as it was stored. One
        such row used to end every later ``undo --list`` in OverflowError (issue 19)."""
        return local_stamp(self.created_at, tz)

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
    calendars: list[dict[str, Any]] = field(default_factory=list)  # calendars restored or removed

    def to_json(self) -> dict[str, Any]:
        found = {"reverted": self.entry.to_json(), "events": self.events}
        return {**found, "calendars": self.calendars} if self.calendars else found


# ---- reading -----------------------------------------------------------------------------


def local_stamp(value: Any, tz: tzinfo) -> str:
    """A stored stamp as local ``YYYY-MM-DD HH:MM`` in ``tz``, or the stored text itself."""
    text = str(value)
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)  # the journal writes UTC
        return f"{moment.astimezone(tz):%Y-%m-%d %H:%M}"
    except (ValueError, OverflowError, TypeError):
        return text[:40]


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


def find(store: Store, profile_id: int, changes: ChangeSet, window: int = 20) -> int | None:
    """The newest recent entry recording rows of ``changes`` and no others (for a change set
    that arrives from another thread, such as a chat turn's)."""
    found = matching(store, profile_id, changes, window=window)
    return found[0] if found else None


def matching(store: Store, profile_id: int, changes: ChangeSet, *, exclude: Any = (), window: int = 20) -> list[int]:
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


def join(store: Store, ids: list[int]) -> None:
    """Make entries ``ids`` one undo step (an app import of several files writes one entry per
    file): the newest names the others, and ``group_of`` (so Ctrl+Z and ``richeng undo``)
    takes them together. The fact is in the journal, not in a window."""
    if len(ids) < 2:
        return
    newest, *others = sorted(set(ids), reverse=True)
    with store.transaction() as conn:
        conn.execute("UPDATE change_journal SET changes = json_set(changes, '$.with', json(?)) WHERE id = ?",
                     (json.dumps(others), newest))  # fmt: skip


def group_of(store: Store, change_id: int) -> list[int]:
    """``change_id`` and the entries joined to it that are still open, newest first."""
    row = store.conn.execute(  # instr first: an import's row is a megabyte of JSON, rarely joined
        """SELECT CASE WHEN instr(changes, '"with":') THEN json_extract(changes, '$.with') END FROM change_journal"""
        " WHERE id = ?",
        (change_id,),
    ).fetchone()
    joined = [int(i) for i in json.loads(row[0])] if row is not None and row[0] else []
    return [change_id, *sorted((i for i in joined if (e := get(store, i)) is not None and not e.undone), reverse=True)]


def redoable(store: Store, profile_id: int, window: int = 200) -> Entry | None:
    """What a redo puts back: the newest ``undo`` row not yet redone, walking back over redo
    rows and redone undos; a ``change`` row on the way (a new change since the undo, from
    anywhere) means nothing to redo, as a new edit clears an editor's redo. Sync pulls aside."""
    rows = store.conn.execute(
        f"SELECT {_ENTRY_COLUMNS} FROM change_journal WHERE profile_id = ? AND origin != 'sync' ORDER BY id DESC LIMIT ?",
        (profile_id, window),
    )
    for row in rows:  # a cursor: usually the first row decides
        if row["kind"] == "change":
            return None
        if row["kind"] == "undo" and not row["undone"]:
            return _entry(row)
    return None


# ---- reverting ---------------------------------------------------------------------------


def undo_last(store: Store, profile_id: int, origin: str = "user") -> Reverted | None:
    """Revert ``undoable``'s entry; None when there is nothing to undo."""
    with store.transaction():
        entry = undoable(store, profile_id)
        result = None
        for change_id in group_of(store, entry.id) if entry is not None else ():
            done = _revert(store, profile_id, change_id, origin)
            if result is None:
                result = done
            else:  # a joined entry (one import of several files): one undo, one inverse row
                result.events += done.events
                result.changes.extend(done.changes)
                result.calendars += done.calendars
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
    from agent.store.changes import Change, ChangeSet
    from agent.store.components import parse_component
    from agent.store.events import EventRepo

    check_origin(origin)
    conn = store.conn
    row = conn.execute("SELECT * FROM change_journal WHERE id = ? AND profile_id = ?", (change_id, profile_id)).fetchone()
    if row is None:
        raise NotFoundError("store.no_change", change_id=change_id)
    entry = _entry(row)
    if entry.undone:
        raise JournalError("store.already_undone", change_id=change_id)
    record = json.loads(row["changes"])
    rows = [RowChange.from_json(item) for item in record["rows"]]
    calendars = [CalendarRow.from_json(item) for item in record.get("calendars", ())]
    now = current_rows(conn, profile_id, {(r.uid, r.recurrence_id) for r in rows})
    for change in rows:
        current = now.get((change.uid, change.recurrence_id))
        now_digest = digest(current["calendar_id"], current["ics"]) if current is not None else None
        if now_digest != change.after:
            title = (current["title"] if current is not None else "") or summary(change.before_ics or "")
            raise JournalError("store.undo_changed_since", change_id=change_id, title=title)
    kind = "redo" if entry.kind == "undo" else "undo"
    pending = open_entry(store, profile_id)
    assert pending is not None
    moved = calendar_undo.restore_deleted(store, profile_id, change_id, calendars)  # before their events
    known = {r[0] for r in conn.execute("SELECT id FROM calendars WHERE profile_id = ?", (profile_id,))}
    if any(c.op != "created" and moved.get(c.before_calendar_id or 0, c.before_calendar_id) not in known for c in rows):
        raise JournalError("store.undo_calendar_deleted", change_id=change_id)
    pending.origin, pending.kind = origin, kind
    pending.reverts.append(change_id)  # the app reverts an import of several files in one go
    said = entry.label.replace("undo", "redo", 1) if kind == "redo" else f"undo #{change_id}: {entry.label}"
    pending.label = f"{pending.label} + #{change_id}" if pending.label else said
    repo = EventRepo(store, profile_id)
    for uid in sorted({c.uid for c in rows}):  # an undo writes too: never into a read-only calendar
        repo.check_writable(uid)
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
        calendar_id = int(change.before_calendar_id or 0)
        inverse.extend(repo.save(parse_component(change.before_ics), moved.get(calendar_id, calendar_id),
                                 change.before_origin or "user", source=change.before_source,
                                 materialize=False, ics=change.before_ics))  # the very text: exact  # fmt: skip
        touched.add(change.uid)
    left = {r["uid"] for r in removed} - touched
    if left:  # a removed override whose series stays, say: its instances are rebuilt
        touched |= _uids_with_rows(conn, profile_id, left)
    for uid in sorted(touched):
        repo.expander.materialize(uid)
    restored = current_rows(conn, profile_id, {(c.uid, c.recurrence_id) for c in rows if c.op != "created"})
    for change in reversed(rows):
        if change.op != "created" and (change.uid, change.recurrence_id) in restored:
            events.append(_described(restored[(change.uid, change.recurrence_id)], "restored"))
    calendar_undo.remove_created(store, profile_id, change_id, calendars)  # after their events went
    return Reverted(_reverted(entry), None, events, inverse, calendar_undo.described(calendars))


def _reverted(entry: Entry) -> Entry:
    return Entry(entry.id, entry.created_at, entry.origin, entry.kind, entry.reverts, entry.label,
                 entry.created, entry.updated, entry.deleted, True)  # fmt: skip


def _uids_with_rows(conn: sqlite3.Connection, profile_id: int, uids: set[str]) -> set[str]:
    ordered = sorted(uids)
    found: set[str] = set()
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start : start + CHUNK]
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
    """An indexed instant as the event's own wall time. Any year the store can hold (1 to
    9999) is shown, never raised on: an instant its zone cannot express (year 1 east of
    Greenwich) is shown in UTC, one UTC cannot hold either is clamped to ``datetime``'s ends."""
    try:
        tz: Any = ZoneInfo(row["tzid"]) if row["tzid"] and not row["floating"] else UTC
    except (ValueError, KeyError, OSError):
        tz = UTC
    try:
        value = datetime(1970, 1, 1) + timedelta(seconds=ts)
        if row["floating"]:
            return value.date() if row["all_day"] else value
        return value.replace(tzinfo=UTC).astimezone(tz)
    except (OverflowError, ValueError, OSError):
        try:
            return (datetime(1970, 1, 1) + timedelta(seconds=ts)).replace(tzinfo=UTC)
        except (OverflowError, ValueError):
            edge = datetime.min if ts < 0 else datetime.max
            return edge.replace(tzinfo=UTC)


__all__ = [
    "Entry",
    "Reverted",
    "find",
    "get",
    "group_of",
    "inverse_of",
    "is_undone",
    "join",
    "local_stamp",
    "matching",
    "recent",
    "redoable",
    "revert",
    "undo_last",
    "undoable",
]
