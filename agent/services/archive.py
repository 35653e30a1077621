"""The chat archive: every message with the time it was written.

An assistant message is stamped when the reply is done (``Assistant._reply_time``), not
with its user message's time; ``mark`` records later facts about a message (its receipt
was undone) for the history view.

The model sees only the *recent segment* (messages after the last silence longer than
``session_gap_minutes``); older talk is reachable through search. That keeps a month-old
"明天去开会" from being read as tomorrow's plan.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from agent.errors import ValidationError
from agent.services.memory import fts_phrase, like_pattern
from agent.store.db import Store

ROLES = ("user", "assistant", "system")
SEGMENT_LIMIT = 50
SESSION_GAP_MINUTES = 120


NEW_CONVERSATION = "new_conversation"  # meta key of the marker a "New conversation" click writes


@dataclass(frozen=True)
class Message:
    id: int
    role: str
    content: str
    created_at: datetime
    meta: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role,
            "content": self.content,
            "created_at": self.created_at.isoformat(),
            "meta": self.meta,
        }


class ArchiveService:
    """``clock`` exists for evals and tests that fix time; the app passes none."""

    def __init__(self, store: Store, profile_id: int, clock: datetime | None = None) -> None:
        self.store = store
        self.profile_id = profile_id
        self.clock = clock

    def _now(self) -> datetime:
        return (self.clock or datetime.now(UTC)).astimezone(UTC)

    def append(self, role: str, content: str, meta: dict[str, Any] | None = None) -> Message:
        if role not in ROLES:
            raise ValidationError("services.bad_role", roles=", ".join(ROLES))
        stamp = self._now().isoformat(timespec="microseconds")
        with self.store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages(profile_id, role, content, created_at, meta) VALUES (?, ?, ?, ?, ?)",
                (self.profile_id, role, content, stamp, json.dumps(meta or {}, ensure_ascii=False)),
            )
        return Message(int(cur.lastrowid or 0), role, content, datetime.fromisoformat(stamp), meta or {})

    def mark(self, message_id: int, **values: Any) -> None:
        """Merge ``values`` into a stored message's meta (``undone=True`` when its receipt
        was undone), so a reloaded history shows what is true now, not what was."""
        with self.store.transaction() as conn:
            row = conn.execute(
                "SELECT meta FROM messages WHERE profile_id = ? AND id = ?", (self.profile_id, message_id)
            ).fetchone()
            if row is None:
                return
            meta = json.loads(row["meta"] or "{}") | values
            conn.execute("UPDATE messages SET meta = ? WHERE id = ?", (json.dumps(meta, ensure_ascii=False), message_id))

    def new_conversation(self) -> Message:
        """Start a fresh conversation now: a marker the recent segment stops at, so the model
        no longer reads the talk before it (it stays searchable in the archive)."""
        return self.append("system", "new conversation", {NEW_CONVERSATION: True})

    def recent(self, limit: int = 200) -> list[Message]:
        rows = self.store.conn.execute(
            "SELECT * FROM messages WHERE profile_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
            (self.profile_id, limit),
        ).fetchall()
        return [_message(row) for row in reversed(rows)]

    def segment(self, gap_minutes: int = SESSION_GAP_MINUTES, limit: int = SEGMENT_LIMIT) -> tuple[list[Message], int]:
        """(messages of the current session, count of older messages left out).

        The session is what follows the last silence longer than ``gap_minutes``; if the
        newest message itself is older than the gap, the session is empty.
        """
        gap = timedelta(minutes=gap_minutes)
        messages = self.recent(limit=500)
        kept: list[Message] = []
        later = self._now()
        for message in reversed(messages):
            if later - message.created_at > gap or message.meta.get(NEW_CONVERSATION):
                break
            kept.append(message)
            later = message.created_at
        kept.reverse()
        total = self.store.conn.execute("SELECT COUNT(*) FROM messages WHERE profile_id = ?", (self.profile_id,)).fetchone()[0]
        kept = kept[-limit:]
        return kept, int(total) - len(kept)

    def segment_breaks(self, messages: list[Message], gap_minutes: int = SESSION_GAP_MINUTES) -> list[int]:
        """Indexes in ``messages`` where a new session starts (for the history view)."""
        gap = timedelta(minutes=gap_minutes)
        return [
            index
            for index in range(1, len(messages))
            if messages[index].created_at - messages[index - 1].created_at > gap or messages[index - 1].meta.get(NEW_CONVERSATION)
        ]

    def search(self, query: str, limit: int = 10) -> list[Message]:
        query = query.strip()
        if not query:
            return []
        if len(query) >= 3:
            rows = self.store.conn.execute(
                "SELECT m.* FROM messages_fts f JOIN messages m ON m.id = f.rowid"
                " WHERE messages_fts MATCH ? AND m.profile_id = ? ORDER BY m.created_at DESC LIMIT ?",
                (fts_phrase(query), self.profile_id, limit),
            ).fetchall()
        else:
            rows = self.store.conn.execute(
                "SELECT * FROM messages WHERE profile_id = ? AND content LIKE ? ESCAPE '\\' ORDER BY created_at DESC LIMIT ?",
                (self.profile_id, like_pattern(query), limit),
            ).fetchall()
        return [_message(row) for row in rows]

    def last_assistant(self) -> Message | None:
        row = self.store.conn.execute(
            "SELECT * FROM messages WHERE profile_id = ? ORDER BY created_at DESC, id DESC LIMIT 1",
            (self.profile_id,),
        ).fetchone()
        if row is None or row["role"] != "assistant":
            return None
        return _message(row)


def _message(row: Any) -> Message:
    return Message(
        int(row["id"]), row["role"], row["content"], datetime.fromisoformat(row["created_at"]), json.loads(row["meta"] or "{}")
    )
