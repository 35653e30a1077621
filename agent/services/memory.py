"""Facts the user asked Richeng to remember, searchable in Chinese by substring.

FTS5's trigram tokenizer matches any substring of three or more characters, which suits
Chinese (no word breaks). Queries shorter than three characters (咖啡, 生日) cannot use the
trigram index, so they fall back to LIKE over the same rows; both paths are tested.
"""

from __future__ import annotations

import builtins  # the class's own ``list`` method shadows the builtin in later annotations
from dataclasses import dataclass
from typing import Any

from agent.errors import NotFoundError, ValidationError
from agent.store.db import Store, utc_now_iso

MAX_MEMORY = 1000


@dataclass(frozen=True)
class Memory:
    id: int
    text: str
    created_at: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "created_at": self.created_at}


def fts_phrase(query: str) -> str:
    """A user string as one FTS5 phrase: quotes doubled, so no query syntax leaks through.

    NUL is dropped: FTS5 reads the query as a C string, so a NUL would cut the phrase off
    before its closing quote ("unterminated string").
    """
    return '"' + query.replace("\x00", "").replace('"', '""') + '"'


def like_pattern(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class MemoryService:
    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id
        self.saved: list[int] = []  # ids committed through this object (the write fact)

    def remember(self, text: str) -> Memory:
        text = " ".join(text.split())
        if not text:
            raise ValidationError("services.memory_empty")
        if len(text) > MAX_MEMORY:
            raise ValidationError("services.memory_too_long", limit=MAX_MEMORY)
        existing = self.store.conn.execute(
            "SELECT * FROM memories WHERE profile_id = ? AND text = ?", (self.profile_id, text)
        ).fetchone()
        if existing is not None:
            return _memory(existing)
        with self.store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO memories(profile_id, text, created_at) VALUES (?, ?, ?)",
                (self.profile_id, text, utc_now_iso()),
            )
        memory_id = int(cur.lastrowid or 0)
        self.saved.append(memory_id)
        return self.get(memory_id)

    def get(self, memory_id: int) -> Memory:
        row = self.store.conn.execute(
            "SELECT * FROM memories WHERE profile_id = ? AND id = ?", (self.profile_id, memory_id)
        ).fetchone()
        if row is None:
            raise NotFoundError("services.no_memory", id=memory_id)
        return _memory(row)

    def forget(self, memory_id: int) -> Memory:
        memory = self.get(memory_id)
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM memories WHERE id = ?", (memory.id,))
        return memory

    def list(self, limit: int = 100) -> list[Memory]:
        rows = self.store.conn.execute(
            "SELECT * FROM memories WHERE profile_id = ? ORDER BY id DESC LIMIT ?", (self.profile_id, limit)
        ).fetchall()
        return [_memory(row) for row in rows]

    def search(self, query: str, limit: int = 10) -> builtins.list[Memory]:
        """Any of the query's whitespace-separated terms; newest first."""
        terms = [term for term in query.split() if term]
        if not terms:
            return []
        long_terms = [term for term in terms if len(term) >= 3]
        short_terms = [term for term in terms if len(term) < 3]
        found: dict[int, Memory] = {}
        if long_terms:
            match = " OR ".join(fts_phrase(term) for term in long_terms)
            rows = self.store.conn.execute(
                "SELECT m.* FROM memories_fts f JOIN memories m ON m.id = f.rowid"
                " WHERE memories_fts MATCH ? AND m.profile_id = ? ORDER BY m.id DESC LIMIT ?",
                (match, self.profile_id, limit),
            ).fetchall()
            found |= {row["id"]: _memory(row) for row in rows}
        for term in short_terms:
            rows = self.store.conn.execute(
                "SELECT * FROM memories WHERE profile_id = ? AND text LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?",
                (self.profile_id, like_pattern(term), limit),
            ).fetchall()
            found |= {row["id"]: _memory(row) for row in rows}
        return sorted(found.values(), key=lambda memory: -memory.id)[:limit]


def _memory(row: Any) -> Memory:
    return Memory(int(row["id"]), row["text"], row["created_at"])
