"""What sync remembers per resource, and the local side of a synced calendar.

Local changes are found by state, not by triggers: ``sync_items`` keeps, per UID, the hash
of the local rows as last synced. A UID whose rows hash differently now was edited offline;
a remembered UID with no rows left was deleted offline; a UID in the calendar that was
never synced is new. So every write path (editor, agent, import, undo) is queued for the
next sync without knowing sync exists, and a crash between two syncs loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from agent.store.changes import ChangeSet
from agent.store.components import EventFields
from agent.store.db import Store, utc_now_iso
from agent.store.events import EventRepo
from agent.sync.accounts import SyncError
from agent.sync.resources import LocalRow, ServerResource, local_hash


@dataclass(frozen=True)
class SyncItem:
    id: int
    uid: str
    href: str
    etag: str | None
    local_hash: str
    remote_hash: str | None
    ignored: bool


class ItemStore:
    """``sync_items`` of one mapping. Writes join the caller's transaction."""

    def __init__(self, store: Store, mapping_id: int) -> None:
        self.store = store
        self.mapping_id = mapping_id

    def all(self) -> list[SyncItem]:
        with self.store.lock:
            rows = self.store.conn.execute("SELECT * FROM sync_items WHERE mapping_id = ?", (self.mapping_id,)).fetchall()
        return [
            SyncItem(r["id"], r["uid"], r["href"], r["etag"], r["local_hash"], r["remote_hash"], bool(r["ignored"])) for r in rows
        ]

    def get(self, uid: str) -> SyncItem | None:
        return next((item for item in self.all() if item.uid == uid), None)

    def put(
        self,
        uid: str,
        href: str,
        etag: str | None,
        local: str,
        remote: str | None,
        *,
        ignored: bool = False,
    ) -> None:
        """Remember ``uid`` at ``href``; another UID remembered at that href is replaced."""
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM sync_items WHERE mapping_id = ? AND href = ? AND uid != ?", (self.mapping_id, href, uid))
            conn.execute(
                "INSERT INTO sync_items(mapping_id, uid, href, etag, local_hash, remote_hash, ignored, synced_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(mapping_id, uid) DO UPDATE SET href = excluded.href, etag = excluded.etag,"
                " local_hash = excluded.local_hash, remote_hash = excluded.remote_hash,"
                " ignored = excluded.ignored, synced_at = excluded.synced_at",
                (self.mapping_id, uid, href, etag, local, remote, int(ignored), utc_now_iso()),
            )

    def drop(self, uid: str) -> None:
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM sync_items WHERE mapping_id = ? AND uid = ?", (self.mapping_id, uid))


class LocalCalendar:
    """The rows of one local calendar, grouped by UID as CalDAV groups them."""

    def __init__(self, store: Store, profile_id: int, calendar_id: int) -> None:
        self.store = store
        self.profile_id = profile_id
        self.calendar_id = calendar_id
        self.repo = EventRepo(store, profile_id, feed=calendar_id)  # a pull keeps its calendar in step, read-only or not

    def snapshot(self) -> dict[str, list[LocalRow]]:
        with self.store.lock:
            rows = self.store.conn.execute(
                "SELECT uid, recurrence_id, ics, start_ts, end_ts FROM events"
                " WHERE profile_id = ? AND calendar_id = ? ORDER BY uid, recurrence_id",
                (self.profile_id, self.calendar_id),
            ).fetchall()
        grouped: dict[str, list[LocalRow]] = {}
        for row in rows:
            grouped.setdefault(row["uid"], []).append(LocalRow(row["recurrence_id"], row["ics"], row["start_ts"], row["end_ts"]))
        return grouped

    def rows(self, uid: str) -> list[LocalRow]:
        with self.store.lock:
            rows = self.store.conn.execute(
                "SELECT recurrence_id, ics, start_ts, end_ts FROM events"
                " WHERE profile_id = ? AND calendar_id = ? AND uid = ? ORDER BY recurrence_id",
                (self.profile_id, self.calendar_id, uid),
            ).fetchall()
        return [LocalRow(r["recurrence_id"], r["ics"], r["start_ts"], r["end_ts"]) for r in rows]

    def elsewhere(self, uids: Iterable[str]) -> dict[str, str]:
        """UIDs among ``uids`` that live in another local calendar, with that calendar's name."""
        wanted = list(dict.fromkeys(uids))
        found: dict[str, str] = {}
        with self.store.lock:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                for row in self.store.conn.execute(
                    "SELECT DISTINCT e.uid, c.name FROM events e JOIN calendars c ON c.id = e.calendar_id"
                    f" WHERE e.profile_id = ? AND e.calendar_id != ? AND e.uid IN ({marks})",
                    [self.profile_id, self.calendar_id, *chunk],
                ):
                    found[row["uid"]] = row["name"]
        return found

    def found_elsewhere(self, uid: str) -> tuple[str, list[LocalRow]] | None:
        """The name of the other local calendar holding ``uid``, and its rows there; None if none."""
        with self.store.lock:
            rows = self.store.conn.execute(
                "SELECT c.name, e.recurrence_id, e.ics, e.start_ts, e.end_ts FROM events e"
                " JOIN calendars c ON c.id = e.calendar_id"
                " WHERE e.profile_id = ? AND e.uid = ? AND e.calendar_id != ? ORDER BY e.recurrence_id",
                (self.profile_id, uid, self.calendar_id),
            ).fetchall()
        if not rows:
            return None
        return rows[0]["name"], [LocalRow(r["recurrence_id"], r["ics"], r["start_ts"], r["end_ts"]) for r in rows]

    def apply(self, resource: ServerResource) -> tuple[str, ChangeSet]:
        """Make the UID's rows exactly the server's: overrides it no longer has go too.

        Returns the new local hash. Pulled events keep the origin they had here; new ones
        are marked ``import`` (they came from outside Richeng's own editor and agent).

        Never across calendars: the store keys an event by (profile, UID), so saving a UID
        that lives in another local calendar would move it here and overwrite it. That is
        refused (``SyncError``) whatever path got here (issue 29).
        """
        assert resource.uid is not None
        other = self.found_elsewhere(resource.uid)
        if other is not None:
            raise SyncError("sync.uid_elsewhere", other=other[0])
        changes = ChangeSet()
        keep = {row.recurrence_id for row in resource.rows}
        with self.store.transaction() as conn:
            for row in conn.execute(
                "SELECT recurrence_id FROM events WHERE profile_id = ? AND uid = ?", (self.profile_id, resource.uid)
            ).fetchall():
                if row["recurrence_id"] not in keep:
                    changes.extend(self.repo.delete(resource.uid, row["recurrence_id"] or None))
            # A part the quick reader took (agent/ics/quick.py) has no component; its columns
            # come with it, so it is saved without being parsed.
            read: list[EventFields | None] = list(resource.fields) or [None] * len(resource.rows)
            plain: list[tuple[str, EventFields]] = []  # a run of them, saved in one go, in order
            for row, component, fields in zip(resource.rows, resource.components, read, strict=False):
                if component is None and fields is not None and not fields.alarms and not fields.rrule:
                    plain.append((row.ics, fields))
                    continue
                changes.extend(self.repo.save_plain(plain, self.calendar_id, "import"))
                plain = []
                changes.extend(self.repo.save(component, self.calendar_id, "import", materialize=False, ics=row.ics,
                                              fields=fields if component is None else None))  # fmt: skip
            changes.extend(self.repo.save_plain(plain, self.calendar_id, "import"))
            # The parsed components are handed on, so a series is expanded (bounded, see
            # docs/ics.md) without parsing its stored text again: 100k RDATEs cost seconds.
            parsed = {
                row.recurrence_id: component
                for row, component in zip(resource.rows, resource.components, strict=False)
                if component is not None
            }
            self.repo.expander.materialize(resource.uid, components=parsed)
            # Hashed as SQLite hands the rows over (by recurrence id, as ``local_hash`` sorts
            # them: UTF-8 byte order is code point order), not held: one resource may be 100k.
            digest = local_hash(self._stream(resource.uid), in_order=True)
        return digest, changes

    def _stream(self, uid: str) -> Iterator[LocalRow]:
        """``rows(uid)`` one at a time (the caller holds the store's transaction)."""
        for r in self.store.conn.execute(
            "SELECT recurrence_id, ics, start_ts, end_ts FROM events"
            " WHERE profile_id = ? AND calendar_id = ? AND uid = ? ORDER BY recurrence_id",
            (self.profile_id, self.calendar_id, uid),
        ):
            yield LocalRow(r["recurrence_id"], r["ics"], r["start_ts"], r["end_ts"])

    def remove(self, uid: str) -> ChangeSet:
        with self.store.transaction():
            return self.repo.delete(uid)
