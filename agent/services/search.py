"""Finding events by text: titles, locations, notes and tags, for the app's search box.

A search answers "where is that event?", so each hit is one event (UID) with the
occurrence a user most likely means: the next one from now, or, for events that are over,
the latest. Matching is a substring test (``instr`` on ``lower()``), which works for
Chinese text, where there are no word boundaries for a full-text tokenizer to find, and
folds ASCII case only (SQLite's ``lower``).

Which fields are searched is the field table's (``searchable``, agent/store/fields.py): one
with a column is matched in SQL, one without (the tags) is read from the stored text of
the events whose text holds the words at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from agent.store.components import aware, wall_seconds
from agent.store.db import Store
from agent.store.fields import FIELDS, SEARCHED_IN_TEXT, read_text

DEFAULT_LIMIT = 20
_MATCH = "(" + " OR ".join(f"instr(lower(e.{f.column}), lower(:q)) > 0" for f in FIELDS if f.searchable and f.column) + ")"
# The stored text's candidates for the fields without a column: the property is there, and
# the words are, once folded lines are joined (RFC 5545 folds at 75 octets).
_UNFOLDED = "replace(replace(ics, char(13, 10, 32), ''), char(10, 32), '')"
_IN_TEXT = (
    "SELECT id, ics FROM events WHERE profile_id = :pid AND ("
    + " OR ".join(f"instr(ics, '{f.prop}') > 0" for f in SEARCHED_IN_TEXT)
    + f") AND instr(lower({_UNFOLDED}), lower(:q)) > 0"
)


@dataclass(frozen=True)
class SearchHit:
    uid: str
    title: str
    start: datetime | date  # date for all-day, naive for floating, aware (in tz) otherwise
    calendar: str
    calendar_id: int
    location: str
    upcoming: bool

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "title": self.title, "start": self.start.isoformat(), "calendar": self.calendar}


class SearchService:
    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id

    def search(
        self,
        text: str,
        limit: int = DEFAULT_LIMIT,
        *,
        now: datetime | None = None,
        tz: ZoneInfo | None = None,
        calendar_ids: list[int] | None = None,
    ) -> list[SearchHit]:
        """Events whose title, location, notes or tags contain ``text``; upcoming ones first."""
        needle = text.strip()
        if not needle or limit <= 0:
            return []
        found = self._found_in_text(needle)
        where = f"({_MATCH} OR e.id IN ({', '.join(str(i) for i in found)}))" if found else _MATCH
        return self._hits(where, {"q": needle}, limit, now, tz, calendar_ids)

    def _found_in_text(self, needle: str) -> list[int]:
        """Ids of the events whose fields kept only in their text (the tags) hold ``needle``."""
        if not SEARCHED_IN_TEXT:
            return []
        with self.store.lock:
            rows = self.store.conn.execute(_IN_TEXT, {"pid": self.profile_id, "q": needle}).fetchall()
        names = [f.name for f in SEARCHED_IN_TEXT]
        folded = needle.lower()
        found = []
        for event_id, ics in rows:
            for value in read_text(str(ics), names).values():
                values = value if isinstance(value, tuple) else (value,) if value else ()
                if any(folded in str(item).lower() for item in values):
                    found.append(int(event_id))
                    break
        return found

    def next_occurrence(self, uid: str, *, now: datetime | None = None, tz: ZoneInfo | None = None) -> SearchHit | None:
        """The occurrence of ``uid`` that a "show me this event" should open."""
        hits = self._hits("e.uid = :uid", {"uid": uid}, 1, now, tz, None)
        return hits[0] if hits else None

    def _hits(
        self,
        where: str,
        params: dict[str, Any],
        limit: int,
        now: datetime | None,
        tz: ZoneInfo | None,
        calendar_ids: list[int] | None,
    ) -> list[SearchHit]:
        tz = tz or ZoneInfo("UTC")
        now = (now or datetime.now(UTC)).astimezone(tz)
        extra = ""
        if calendar_ids is not None:
            if not calendar_ids:
                return []
            extra = f" AND e.calendar_id IN ({', '.join(str(int(i)) for i in calendar_ids)})"
        sql = (
            "SELECT e.uid, e.title, e.location, e.all_day, e.floating, e.calendar_id, c.name AS calendar,"
            " MIN(CASE WHEN o.start_ts >= (CASE e.floating WHEN 1 THEN :wall ELSE :utc END)"
            "     THEN o.start_ts END) AS next_ts,"
            " MAX(o.start_ts) AS last_ts"
            " FROM events e JOIN occurrences o ON o.event_id = e.id"
            " JOIN calendars c ON c.id = e.calendar_id"
            f" WHERE e.profile_id = :pid AND {where}{extra}"
            " GROUP BY e.id"
        )
        values = {**params, "pid": self.profile_id, "wall": wall_seconds(now), "utc": int(now.timestamp())}
        with self.store.lock:
            rows = self.store.conn.execute(sql, values).fetchall()
        best: dict[str, tuple[bool, float, SearchHit]] = {}
        for row in rows:
            upcoming = row["next_ts"] is not None
            ts = int(row["next_ts"] if upcoming else row["last_ts"])
            moment = aware(ts, bool(row["floating"]), tz)
            instant = moment.replace(tzinfo=tz) if moment.tzinfo is None else moment
            start: datetime | date = moment.date() if row["all_day"] else moment
            hit = SearchHit(row["uid"], row["title"], start, row["calendar"], int(row["calendar_id"]), row["location"], upcoming)
            # Upcoming beats past; among upcoming the soonest, among past the latest.
            rank = instant.timestamp() if upcoming else -instant.timestamp()
            current = best.get(hit.uid)
            if current is None or (not current[0] and upcoming) or (current[0] == upcoming and rank < current[1]):
                best[hit.uid] = (upcoming, rank, hit)
        ordered = sorted(best.values(), key=lambda item: (not item[0], item[1], item[2].title))
        return [hit for _, _, hit in ordered[:limit]]
