"""Both sides changed one event: keep both versions and let the user say which wins.

While a conflict is open the local version stays in the calendar as the user left it and
the server's version waits in ``sync_conflicts``; sync neither pushes nor pulls that UID, so
neither version can overwrite the other behind the user's back. A server that changes the
event again only refreshes the waiting server copy. Both texts stay in the table after the
choice, so a wrong click can still be undone by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import icalendar

from agent.errors import NotFoundError
from agent.store.db import Store, utc_now_iso
from agent.store.fields import FIELDS, labels
from agent.sync.resources import describe, parse_resource


@dataclass(frozen=True)
class Conflict:
    id: int
    mapping_id: int
    account: str
    calendar: str
    uid: str
    href: str
    local_ics: str | None  # None: deleted here
    server_ics: str | None  # None: deleted on the server
    server_etag: str | None
    detected_at: str
    resolved_at: str | None
    resolution: str | None

    def side(self, which: str) -> dict[str, Any] | None:
        """Title, time and place of one version; None when that side deleted the event."""
        text = self.local_ics if which == "local" else self.server_ics
        if text is None:
            return None
        resource = parse_resource(text)
        return describe(resource.rows) if resource.rows else {"title": "", "problem": resource.problem}

    @property
    def title(self) -> str:
        for which in ("local", "server"):
            side = self.side(which)
            if side and side.get("title"):
                return str(side["title"])
        return self.uid

    def differences(self) -> list[Difference]:
        """What differs between the two versions, in the order a person reads an event.

        Empty when one side deleted the event (that difference is the whole story) or when
        only bookkeeping (DTSTAMP, SEQUENCE, LAST-MODIFIED) differs.
        """
        if self.local_ics is None or self.server_ics is None:
            return []
        here, there = _fields(self.local_ics), _fields(self.server_ics)
        found = [
            Difference(name, here.get(name), there.get(name)) for name in {*here, *there} if here.get(name) != there.get(name)
        ]
        return sorted(found, key=lambda d: (_ORDER.get(d.field.split(" (", 1)[0], len(_ORDER)), d.field))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "account": self.account,
            "calendar": self.calendar,
            "uid": self.uid,
            "title": self.title,
            "differs": [d.field for d in self.differences()],
            "local": self.side("local"),
            "server": self.side("server"),
            "detected_at": self.detected_at,
            "resolved_at": self.resolved_at,
            "resolution": self.resolution,
        }


@dataclass(frozen=True)
class Difference:
    """One field that differs: its name, and its text on each side (None: absent there)."""

    field: str
    local: str | None
    server: str | None


# Fields by the names people use, in reading order (the field table's labels,
# agent/store/fields.py); other properties keep their own name.
_NAMES = labels()
_ORDER = {name: index for index, name in enumerate(dict.fromkeys([*_NAMES.values(), "instance"]))}
_BOOKKEEPING = {"DTSTAMP", "LAST-MODIFIED", "CREATED", "SEQUENCE", "UID", "RECURRENCE-ID"}
_TEXT = tuple(item.prop for item in FIELDS if item.kind in ("text", "place"))  # shown decoded
_NAME = re.compile(r"[;:]")
_FOLD = re.compile(r"\r?\n[ \t]")


def _fields(text: str) -> dict[str, str]:
    """Field name -> its text, for every part of a resource (a moved instance's fields are
    named after its date). Decoded where a person reads the value, else the whole property
    line (parameters included: the same 09:00 in two zones is not the same time).

    Both sides come through ``parse_resource``, so both are written by the same serialiser
    and a difference in the text is a difference in the event.
    """
    out: dict[str, str] = {}
    for row in parse_resource(text).rows:
        suffix = _suffix(row.recurrence_id)
        out["instance" + suffix] = "present"
        try:
            component = icalendar.Event.from_ical(row.ics)
            lines = _FOLD.sub("", component.to_ical().decode()).splitlines()
        except Exception:  # a listing must show something even for odd text
            out["text" + suffix] = row.ics
            continue
        values: dict[str, list[str]] = {}
        depth = 0
        for line in lines:
            name = _NAME.split(line, maxsplit=1)[0].upper()
            if name in ("BEGIN", "END"):
                depth += 1 if name == "BEGIN" else -1
                continue
            if depth != 1 or name in _BOOKKEEPING:  # alarms are read whole below
                continue
            shown = str(component.get(name)) if name in _TEXT else line
            values.setdefault(_NAMES.get(name, name.lower()), []).append(shown)
        for sub in component.subcomponents:
            sub_lines = _FOLD.sub("", sub.to_ical().decode()).splitlines()
            body = " ".join(line for line in sub_lines[1:-1] if _NAME.split(line, maxsplit=1)[0].upper() not in _BOOKKEEPING)
            kind = str(sub.name or "component")
            values.setdefault(_NAMES.get(kind, kind.lower()), []).append(body)
        out.update({name + suffix: "; ".join(sorted(texts)) for name, texts in values.items()})
    return out


def _suffix(recurrence_id: str) -> str:
    return f" ({recurrence_id[:10]})" if recurrence_id else ""


class ConflictStore:
    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id

    _SELECT = (
        "SELECT x.*, a.name AS account, c.name AS calendar FROM sync_conflicts x"
        " JOIN sync_calendars m ON m.id = x.mapping_id JOIN sync_accounts a ON a.id = m.account_id"
        " JOIN calendars c ON c.id = m.calendar_id WHERE a.profile_id = ?"
    )

    def open(self, mapping_id: int | None = None) -> list[Conflict]:
        query = self._SELECT + " AND x.resolved_at IS NULL"
        params: list[Any] = [self.profile_id]
        if mapping_id is not None:
            query += " AND x.mapping_id = ?"
            params.append(mapping_id)
        with self.store.lock:
            rows = self.store.conn.execute(query + " ORDER BY x.id", params).fetchall()
        return [_conflict(row) for row in rows]

    def get(self, conflict_id: int) -> Conflict:
        with self.store.lock:
            row = self.store.conn.execute(self._SELECT + " AND x.id = ?", (self.profile_id, conflict_id)).fetchone()
        if row is None:
            raise NotFoundError("sync.no_conflict", id=conflict_id)
        return _conflict(row)

    def record(
        self,
        mapping_id: int,
        uid: str,
        href: str,
        local_ics: str | None,
        server_ics: str | None,
        server_etag: str | None,
    ) -> bool:
        """Open a conflict, or refresh the server side of the one already open; True if new."""
        with self.store.transaction() as conn:
            row = conn.execute(
                "SELECT id FROM sync_conflicts WHERE mapping_id = ? AND uid = ? AND resolved_at IS NULL",
                (mapping_id, uid),
            ).fetchone()
            if row is not None:
                conn.execute(
                    "UPDATE sync_conflicts SET server_ics = ?, server_etag = ?, href = ? WHERE id = ?",
                    (server_ics, server_etag, href, row["id"]),
                )
                return False
            conn.execute(
                "INSERT INTO sync_conflicts(mapping_id, uid, href, local_ics, server_ics, server_etag, detected_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (mapping_id, uid, href, local_ics, server_ics, server_etag, utc_now_iso()),
            )
        return True

    def close(self, conflict_id: int, resolution: str, local_ics: str | None = None) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE sync_conflicts SET resolved_at = ?, resolution = ?, local_ics = COALESCE(?, local_ics) WHERE id = ?",
                (utc_now_iso(), resolution, local_ics, conflict_id),
            )


def _conflict(row: Any) -> Conflict:
    return Conflict(
        row["id"], row["mapping_id"], row["account"], row["calendar"], row["uid"], row["href"], row["local_ics"],
        row["server_ics"], row["server_etag"], row["detected_at"], row["resolved_at"], row["resolution"],
    )  # fmt: skip
