"""Writing prepared events: insert, update or skip each, then rebuild their occurrences.

Rows are matched on (UID, RECURRENCE-ID) within the profile; SEQUENCE and then
LAST-MODIFIED decide whether the file's copy is newer. The importer calls ``Writer.write``
once per batch inside its one transaction; occurrences are rebuilt once per UID a batch
touches. See docs/ics.md for the rules and what each count means.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import icalendar

from agent.ics.prepare import Prepared
from agent.ics.report import ImportProblem, ImportReport, ImportSkip
from agent.services.calendars import CalendarService
from agent.store.changes import Change
from agent.store.components import excluded_single, parse_component
from agent.store.db import Store, utc_now_iso
from agent.store.event_sql import EventSql, OccurrenceRow
from agent.store.events import EventRepo
from agent.store.read_only import ReadOnlyCalendars

_DTSTAMP = re.compile(r"^DTSTAMP[;:][^\n]*\n(?:[ \t][^\n]*\n)*", re.MULTILINE)
_CHUNK = 500


@dataclass
class _Existing:
    """A stored row as the importer needs it."""

    id: int
    uid: str
    recurrence_id: str
    calendar_id: int
    origin: str
    sequence: int
    last_modified: str | None
    ics: str
    rrule: str | None
    rdate: str | None
    status: str
    floating: int
    start_ts: int
    end_ts: int
    source: str | None = None  # the text it was imported from: the undo journal puts it back


class Writer:
    """Decides insert / update / skip for each prepared event and writes them in batches."""

    def __init__(self, store: Store, profile_id: int, origin: str, report: ImportReport, explicit: bool) -> None:
        self.store = store
        self.explicit = explicit
        self.conn = store.conn
        self.sql = EventSql(store.conn)
        self.profile_id = profile_id
        self.origin = origin
        self.report = report
        self.calendars = CalendarService(store, profile_id)
        self.calendar_ids: dict[str | None, int] = {}
        self.read_only = ReadOnlyCalendars(store, profile_id).ids()

    def calendar_id(self, name: str | None) -> int:
        """The calendar called ``name`` (any case), created if missing; None is the default."""
        if name not in self.calendar_ids:
            if name is None or not name.strip():
                calendar = self.calendars.default()
            else:
                wanted = name.strip().casefold()
                found = next((c for c in self.calendars.list() if c.name.casefold() == wanted), None)
                calendar = found if found is not None else self.calendars.add(name.strip())
            if calendar.id in self.read_only:  # importing into it: the whole file is refused, in one line
                ReadOnlyCalendars(self.store, self.profile_id).check(calendar.id)
            self.calendar_ids[name] = calendar.id
            if calendar.name not in self.report.calendars:
                self.report.calendars.append(calendar.name)
        return self.calendar_ids[name]

    def write(self, prepared: list[tuple[str | None, Prepared]], queries: dict[str, Any]) -> list[_Series]:
        """Write one batch's rows and its singles' instances; return the series to ``expand``.

        Series are expanded by the caller once it has let go of the batch: a series of
        100,000 parts would otherwise hold every part while its rows are read back."""
        winners = self._dedupe(prepared)
        existing = self._load({item.fields.uid for _, item in winners})
        inserts: list[tuple[int, Prepared]] = []
        updates: list[tuple[int, Prepared, _Existing]] = []
        already = self.report.older + self.report.unchanged
        locked = {row.uid for row in existing.values() if row.calendar_id in self.read_only}
        for target, item in winners:
            key = (item.fields.uid, item.fields.recurrence_id)
            old = existing.get(key)
            # Without an explicit calendar, a known event stays where the user keeps it.
            calendar_id = old.calendar_id if old is not None and not self.explicit else self.calendar_id(target)
            if item.fields.uid in locked:  # in a read-only calendar: kept as its sync or refresh left it
                self._skip(item, "read_only")
                self.report.skipped += 1
            elif old is None:
                inserts.append((calendar_id, item))
            elif _is_older(item, old):
                self.report.older += 1
                self._skip(item, "older")
            elif old.calendar_id == calendar_id and _same_content(item, old):
                self.report.unchanged += 1
                self._skip(item, "unchanged")
            else:
                updates.append((calendar_id, item, old))
        self.report.skipped += self.report.older + self.report.unchanged - already
        stale = self._stale_overrides(winners, existing, inserts, updates)
        new_ids = self._save(inserts, updates, utc_now_iso())
        self._delete(stale)
        series = self._occurrences(inserts, new_ids, updates, stale, existing, queries)
        self.report.imported += len(inserts)
        self.report.updated += len(updates)
        return series

    def expand(self, series: list[_Series]) -> None:
        """Rebuild the instances of each series ``write`` returned, and say which are capped."""
        repo = EventRepo(self.store, self.profile_id)
        for item in series:
            repo.expander.materialize(item.uid, components=item.components, query=item.query)
            cap = repo.capped(item.uid)
            if cap is not None:  # bounded recurrence (docs/ics.md): say what is not shown
                self.report.warnings.append(ImportProblem(item.uid, item.line, cap.text()))

    def _dedupe(self, prepared: list[tuple[str | None, Prepared]]) -> list[tuple[str | None, Prepared]]:
        """The same (UID, RECURRENCE-ID) twice in one file: the newer copy wins, later on ties."""
        best: dict[tuple[str, str], tuple[str | None, Prepared]] = {}
        for target, item in prepared:
            key = (item.fields.uid, item.fields.recurrence_id)
            held = best.get(key)
            if held is not None:
                self.report.skipped += 1
                if _newer_or_equal(item, held[1]):
                    best[key] = (target, item)
                    self._skip(held[1], "duplicate")
                else:
                    self._skip(item, "duplicate")
                continue
            best[key] = (target, item)
        return sorted(best.values(), key=lambda pair: pair[1].position)

    def _skip(self, item: Prepared, reason: str) -> None:
        """Name the skipped event in the report (``ImportReport.skips``), with its rule."""
        self.report.skips.append(ImportSkip(item.fields.uid, item.line, item.fields.title, reason))

    def _load(self, uids: Iterable[str]) -> dict[tuple[str, str], _Existing]:
        rows: dict[tuple[str, str], _Existing] = {}
        ordered = sorted(uids)
        for start in range(0, len(ordered), _CHUNK):
            chunk = ordered[start : start + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for row in self.conn.execute(
                "SELECT id, uid, recurrence_id, calendar_id, origin, sequence, last_modified, ics, rrule, rdate,"
                f" status, floating, start_ts, end_ts, source FROM events WHERE profile_id = ? AND uid IN ({marks})",
                [self.profile_id, *chunk],
            ):
                rows[(row["uid"], row["recurrence_id"])] = _Existing(*row)
        return rows

    def _stale_overrides(
        self,
        winners: list[tuple[str | None, Prepared]],
        existing: dict[tuple[str, str], _Existing],
        inserts: list[tuple[int, Prepared]],
        updates: list[tuple[int, Prepared, _Existing]],
    ) -> list[_Existing]:
        """Overrides a newer master no longer carries: the file is the whole series now."""
        written_masters = {item.fields.uid for _, item in inserts if not item.fields.recurrence_id}
        written_masters |= {item.fields.uid for _, item, _ in updates if not item.fields.recurrence_id}
        in_file = {(item.fields.uid, item.fields.recurrence_id) for _, item in winners}
        return [row for key, row in existing.items() if row.recurrence_id and row.uid in written_masters and key not in in_file]

    def _save(self, inserts: list[tuple[int, Prepared]], updates: list[tuple[int, Prepared, _Existing]], now: str) -> list[int]:
        """Write the new and the newer rows through the store's one mapping (``EventSql.save_many``)."""
        ids = self.sql.save_many(
            self.profile_id,
            self.origin,
            [(calendar_id, item.ics, item.source, item.fields) for calendar_id, item in inserts],
            [(old.id, calendar_id, item.ics, item.source, item.fields) for calendar_id, item, old in updates],
            now,
        )
        self.report.changes.created.extend(
            Change(item.fields.uid, item.fields.recurrence_id, new_id, None, None, None)
            for new_id, (_, item) in zip(ids, inserts, strict=True)
        )
        self.report.changes.updated.extend(
            Change(old.uid, old.recurrence_id, old.id, old.ics, old.calendar_id, old.origin, old.source) for _, _, old in updates
        )
        return ids

    def _delete(self, stale: list[_Existing]) -> None:
        if not stale:
            return
        self.sql.delete(row.id for row in stale)
        self.report.changes.deleted.extend(
            Change(row.uid, row.recurrence_id, row.id, row.ics, row.calendar_id, row.origin, row.source) for row in stale
        )
        self.report.removed_overrides += len(stale)

    def _excluded(self, item: Prepared) -> bool:
        """A single event whose EXDATE names its DTSTART has no instance (RFC 5545); it is
        kept, so an export still carries it, and the report says why it shows nowhere."""
        if not item.fields.exdate or not excluded_single(item.parsed()):
            return False
        self.report.warnings.append(
            ImportProblem(item.fields.uid, item.line, "its EXDATE excludes its only date: kept, but it shows nowhere")
        )
        return True

    def _occurrences(
        self,
        inserts: list[tuple[int, Prepared]],
        new_ids: list[int],
        updates: list[tuple[int, Prepared, _Existing]],
        stale: list[_Existing],
        existing: dict[tuple[str, str], _Existing],
        queries: dict[str, Any],
    ) -> list[_Series]:
        """Rebuild instances once per touched UID; singles are written directly, series are
        returned for ``expand``.

        A series whose rows all come from this file and were all written reuses the query
        built when it was checked; otherwise the store builds it from its rows.
        """
        written: dict[tuple[str, str], tuple[int, Prepared]] = {}
        for new_id, (_, item) in zip(new_ids, inserts, strict=True):
            written[(item.fields.uid, item.fields.recurrence_id)] = (new_id, item)
        for _, item, old in updates:
            written[(item.fields.uid, item.fields.recurrence_id)] = (old.id, item)
        touched = {uid for uid, _ in written} | {row.uid for row in stale}
        series: list[_Series] = []
        if not touched:
            return series
        gone = {row.id for row in stale}
        kept: dict[str, list[_Existing]] = {}
        for key, row in existing.items():
            if row.uid in touched and row.id not in gone and key not in written:
                kept.setdefault(row.uid, []).append(row)
        by_uid: dict[str, list[tuple[int, Prepared]]] = {}
        for (uid, _), pair in written.items():
            by_uid.setdefault(uid, []).append(pair)
        updated_ids = {old.id for _, _, old in updates}
        self.sql.clear_series(row.id for row in existing.values() if row.uid in touched and row.id not in gone)
        singles: list[OccurrenceRow] = []
        reset: list[int] = []
        for uid in touched:
            mine = by_uid.get(uid, [])
            master = next((item for _, item in mine if not item.fields.recurrence_id), None)
            master_row = next((row for row in kept.get(uid, []) if not row.recurrence_id), None)
            recurring = (
                bool(master.fields.rrule or master.fields.rdate)
                if master is not None
                else bool(master_row and (master_row.rrule or master_row.rdate))
            )
            if recurring:
                # Plain overrides read without a parser stay unparsed: the store places them
                # from their rows, and parses one only if the series needs the library for it.
                parsed = {item.fields.recurrence_id: item.parsed() for _, item in mine if not item.plain_override}
                query, built_from = queries.get(uid, (None, -1))
                whole = uid not in kept and len(mine) == built_from
                series.append(_Series(uid, parsed, query if whole else None, master.line if master is not None else None))
                continue
            for event_id, item in mine:
                if item.fields.status != "CANCELLED" and not self._excluded(item):
                    fields = item.fields
                    singles.append(
                        (self.profile_id, event_id, event_id, int(fields.floating), fields.start_ts, fields.end_ts, None)
                    )
                if event_id in updated_ids:
                    reset.append(event_id)
            for row in kept.get(uid, []):
                if row.status != "CANCELLED":
                    singles.append((self.profile_id, row.id, row.id, row.floating, row.start_ts, row.end_ts, None))
                reset.append(row.id)
        self.sql.insert_occurrences(singles)  # a single is its own series: event_id == series_id
        self.sql.reset_expansion(reset)
        return series


@dataclass
class _Series:
    """A series a batch wrote: what its expansion can reuse (parsed parts, the checked query)."""

    uid: str
    components: dict[str, icalendar.Event]
    query: Any
    line: int | None


def _modified(value: str | None) -> datetime | None:
    """LAST-MODIFIED as an instant; unreadable values are ignored rather than trusted."""
    if not value:
        return None
    try:
        parsed = icalendar.vDDDTypes.from_ical(value.strip())
    except (ValueError, TypeError):
        return None
    if isinstance(parsed, datetime):
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=None)
    return None


def _version(sequence: int, last_modified: str | None) -> tuple[int, datetime | None]:
    return sequence, _modified(last_modified)


def _compare(new: tuple[int, datetime | None], old: tuple[int, datetime | None]) -> int:
    """-1 older, 0 same or unknown, 1 newer: SEQUENCE first, then LAST-MODIFIED if both have one."""
    if new[0] != old[0]:
        return -1 if new[0] < old[0] else 1
    if new[1] is not None and old[1] is not None:
        try:
            if new[1] != old[1]:
                return -1 if new[1] < old[1] else 1
        except TypeError:  # one aware, one naive: no order
            return 0
    return 0


def _is_older(item: Prepared, old: _Existing) -> bool:
    return _compare(_version(item.fields.sequence, item.fields.last_modified), _version(old.sequence, old.last_modified)) < 0


def _newer_or_equal(item: Prepared, held: Prepared) -> bool:
    new = _version(item.fields.sequence, item.fields.last_modified)
    return _compare(new, _version(held.fields.sequence, held.fields.last_modified)) >= 0


def _comparable(text: str) -> str:
    return _DTSTAMP.sub("", text.replace("\r\n", "\n")).strip()


def _same_content(item: Prepared, old: _Existing) -> bool:
    """Unchanged means equal apart from DTSTAMP, which servers rewrite on every download.

    Equal text is the fast answer; a copy written by another program (our own export, say)
    is compared as icalendar reads both, property by property.
    """
    if _comparable(item.ics) == _comparable(old.ics):
        return True
    try:
        return _canonical(item.parsed()) == _canonical(parse_component(old.ics))
    except (ValueError, TypeError, sqlite3.Error):
        return False


def _canonical(component: icalendar.Component) -> list[str]:
    text = _comparable(component.to_ical().decode())
    return sorted(re.sub(r"\n[ \t]", "", text).split("\n"))
