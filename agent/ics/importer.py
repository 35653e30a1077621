"""Importing .ics files: every good VEVENT lands, every bad one is named, nothing half-done.

A file is read and prepared entirely before the store is touched, then written in one
transaction, so a crash mid-import leaves the store as it was. Rows are matched on
(UID, RECURRENCE-ID) within the profile; SEQUENCE and then LAST-MODIFIED decide whether the
file's copy is newer. Occurrences are rebuilt once per UID at the end, not once per row.
See docs/ics.md for the rules and what each count means.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import icalendar

from agent.ics.prepare import CalendarContext, ComponentError, Prepared, prepare, series_query
from agent.ics.reader import ENCODING_NAMES, IcsReadError, RawCalendar, RawComponent, Span, scan, to_utf8
from agent.ics.repair import content_digest, needs_repair, repair
from agent.services.calendars import CalendarService
from agent.store.components import excluded_single, parse_component
from agent.store.db import Store, utc_now_iso
from agent.store.events import Change, ChangeSet, EventRepo

__all__ = ["ImportProblem", "ImportReport", "IcsReadError", "import_bytes", "import_file"]

ORIGINS = ("user", "agent", "import")
_DTSTAMP = re.compile(r"^DTSTAMP[;:][^\n]*\n(?:[ \t][^\n]*\n)*", re.MULTILINE)
_CHUNK = 500
BATCH = 2000  # events prepared before a write: bounds memory, big enough to amortise each write


@dataclass(frozen=True)
class ImportProblem:
    """One component that was not imported, and why."""

    uid: str | None
    line: int | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "line": self.line, "message": self.message}


@dataclass
class ImportReport:
    """What an import did. ``skipped`` = unchanged + older + VTODO + other components."""

    imported: int
    updated: int
    skipped: int
    errors: list[ImportProblem]
    todos: int = 0
    unchanged: int = 0
    older: int = 0
    other: int = 0
    removed_overrides: int = 0
    warnings: list[ImportProblem] = field(default_factory=list)
    calendars: list[str] = field(default_factory=list)
    changes: ChangeSet = field(default_factory=ChangeSet)
    encoding: str = "utf-8"

    @property
    def repairs(self) -> list[ImportProblem]:
        """What was repaired or dropped inside otherwise imported events (same list as ``warnings``)."""
        return self.warnings

    def to_json(self) -> dict[str, Any]:
        """The four counts; ``repairs`` and ``encoding`` only when there is something to say."""
        out: dict[str, Any] = {
            "imported": self.imported,
            "updated": self.updated,
            "skipped": self.skipped,
            "errors": [problem.to_json() for problem in self.errors],
        }
        if self.warnings:
            out["repairs"] = [problem.to_json() for problem in self.warnings]
        if self.encoding not in ("utf-8", "utf-8-sig"):
            out["encoding"] = self.encoding
        return out


def import_file(
    store: Store,
    profile_id: int,
    path: str | Path,
    calendar_name: str | None = None,
    *,
    origin: str = "import",
) -> ImportReport:
    """Import the file at ``path``; an unreadable file raises ``IcsReadError`` and changes nothing."""
    file = Path(path).expanduser()
    try:
        data = file.read_bytes()
    except IsADirectoryError:
        raise IcsReadError(f"cannot import {file}: it is a folder, not a file") from None
    except FileNotFoundError:
        raise IcsReadError(f"cannot import {file}: no such file") from None
    except OSError as exc:
        raise IcsReadError(f"cannot import {file}: {exc.strerror or exc}") from None
    return import_bytes(store, profile_id, data, calendar_name, source_name=str(file), origin=origin)


def import_bytes(
    store: Store,
    profile_id: int,
    data: bytes,
    calendar_name: str | None = None,
    *,
    source_name: str = "<data>",
    origin: str = "import",
) -> ImportReport:
    """Import iCalendar bytes into ``calendar_name`` (see docs/ics.md for the calendar rule).

    The file is cut into component spans first (offsets, not copies); then components are
    prepared in file order and written in batches of ``BATCH`` inside one transaction, so
    memory stays near one batch whatever the file's size and a failure still changes
    nothing. A series is held back until all of its parts (counted by the cut) are read.
    """
    if origin not in ORIGINS:
        raise ValueError(f"origin must be one of {ORIGINS}")
    data, offset, encoding = to_utf8(data, source_name)
    calendars = scan(data, source_name, offset)
    report = ImportReport(0, 0, 0, [], encoding=encoding)
    if encoding not in ("utf-8", "utf-8-sig"):
        report.warnings.append(
            ImportProblem(None, None, f"the file is not UTF-8; read it as {ENCODING_NAMES.get(encoding, encoding)}")
        )
    parts = Counter(
        span.uid for calendar in calendars for span in calendar.spans if span.name == "VEVENT" and span.uid is not None
    )
    with store.transaction():
        _Import(store, profile_id, origin, report, calendar_name, parts).run(calendars, data)
    return report


class _Import:
    """One import's walk over the file: prepare, repair, group series, write in batches."""

    def __init__(
        self, store: Store, profile_id: int, origin: str, report: ImportReport, calendar_name: str | None, parts: Counter[bytes]
    ) -> None:
        self.report = report
        self.calendar_name = calendar_name
        self.writer = _Writer(store, profile_id, origin, report, explicit=bool(calendar_name))
        self.parts = parts
        self.left = {key: count for key, count in parts.items() if count > 1}
        self.waiting: dict[bytes, list[tuple[str | None, Prepared]]] = {}
        self.batch: list[tuple[str | None, Prepared]] = []
        self.generated: dict[str, dict[str, str]] = {}
        self.position = 0

    def run(self, calendars: list[RawCalendar], data: bytes) -> None:
        for raw_calendar in calendars:
            context = CalendarContext(raw_calendar)
            for span in raw_calendar.spans:
                if span.name == "VEVENT":
                    self._event(span, data, context)
                elif span.name == "VTODO":
                    self.report.todos += 1
                    self.report.skipped += 1
                elif span.name != "VTIMEZONE":
                    self.report.other += 1
                    self.report.skipped += 1
        for group in self.waiting.values():  # parts whose UID the cut read differently
            self.batch.extend(group)
        self._flush()

    def _event(self, span: Span, data: bytes, context: CalendarContext) -> None:
        raw = span.component(data)
        try:
            item = prepare_repaired(raw, context, self.position)
        except ComponentError as exc:
            self.report.errors.append(ImportProblem(exc.uid, exc.line, str(exc)))
            self._part_done(span.uid)
            return
        self.position += 1
        if span.uid is None and item.fields.uid.endswith("@import.richeng"):
            self._own_uid(item)
        self.report.warnings.extend(ImportProblem(item.fields.uid, item.line, note) for note in item.warnings)
        target = self.calendar_name or item.calendar_hint or context.calendar_name
        if span.uid is None or self.parts[span.uid] <= 1:
            self.batch.append((target, item))
        else:
            self.waiting.setdefault(span.uid, []).append((target, item))
        self._part_done(span.uid)

    def _part_done(self, key: bytes | None) -> None:
        if key is not None and key in self.left:
            self.left[key] -= 1
            if self.left[key] == 0:
                del self.left[key]
                self.batch.extend(self.waiting.pop(key, []))
        if len(self.batch) >= BATCH:
            self._flush()

    def _own_uid(self, item: Prepared) -> None:
        """UID-less events get a hash of SUMMARY, DTSTART and RECURRENCE-ID (stable across
        re-imports); a second one with the same three but other content gets a hash of
        everything, so neither is dropped as a duplicate of the other."""
        digest = content_digest(item.ics)
        seen = self.generated.setdefault(item.fields.uid, {})
        if not seen:
            seen[digest] = item.fields.uid
            return
        if digest in seen:
            item.fields.uid = seen[digest]
            return
        new_uid = f"{digest[:24]}@import.richeng"
        seen[digest] = new_uid
        item.ics = item.ics.replace(f"UID:{item.fields.uid}", f"UID:{new_uid}", 1)
        if item.component is not None:
            item.component["UID"] = icalendar.vText(new_uid)
        item.warnings.append("no UID, and another event without UID has the same title and start; gave it its own UID")
        item.fields.uid = new_uid

    def _flush(self) -> None:
        if not self.batch:
            return
        batch, self.batch = self.batch, []
        checked, queries = _check_series(batch, self.report)
        self.writer.write(checked, queries)


def prepare_repaired(raw: RawComponent, context: CalendarContext, position: int) -> Prepared:
    """``prepare`` after the repairs of ``agent.ics.repair``; their notes become warnings.

    An event ``needs_repair`` does not flag goes straight through; one ``prepare`` refuses
    is repaired with the parse-needing repairs too and tried once more.
    """
    notes = list(raw.notes)
    text = raw.text
    if not raw.problem and needs_repair(text, raw.uid_lines):
        text = repair(text, notes) or text
    try:
        item = prepare(RawComponent(raw.name, raw.line, text, raw.problem), context, position)
    except ComponentError as exc:
        if raw.problem:
            raise
        fixed = repair(text, notes, failed=True)
        if fixed is None:
            raise
        try:
            item = prepare(RawComponent(raw.name, raw.line, fixed, raw.problem), context, position)
        except ComponentError:
            raise exc from None
    item.source = raw.text
    item.warnings[:0] = notes
    return item


def _check_series(
    prepared: list[tuple[str | None, Prepared]], report: ImportReport
) -> tuple[list[tuple[str | None, Prepared]], dict[str, Any]]:
    """Series recurring-ical-events cannot expand are reported now, before anything is written.

    The store's expander skips bad series silently; here the user can still be told. The
    queries built for the check are returned, by UID, for the expander to reuse.
    """
    groups: dict[str, list[Prepared]] = {}
    for _, item in prepared:
        groups.setdefault(item.fields.uid, []).append(item)
    bad: dict[str, str] = {}
    queries: dict[str, Any] = {}
    for uid, items in groups.items():
        if not any(item.fields.recurring for item in items):
            continue
        query, problem = series_query([item.parsed() for item in items])
        if problem:
            bad[uid] = problem
        else:
            queries[uid] = (query, len(items))
    if not bad:
        return prepared, queries
    for _, item in prepared:
        if item.fields.uid in bad:
            report.errors.append(ImportProblem(item.fields.uid, item.line, f"cannot expand the series: {bad[item.fields.uid]}"))
    return [(target, item) for target, item in prepared if item.fields.uid not in bad], queries


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


class _Writer:
    """Decides insert / update / skip for each prepared event and writes them in batches."""

    def __init__(self, store: Store, profile_id: int, origin: str, report: ImportReport, explicit: bool) -> None:
        self.store = store
        self.explicit = explicit
        self.conn = store.conn
        self.profile_id = profile_id
        self.origin = origin
        self.report = report
        self.calendars = CalendarService(store, profile_id)
        self.calendar_ids: dict[str | None, int] = {}

    def calendar_id(self, name: str | None) -> int:
        """The calendar called ``name`` (any case), created if missing; None is the default."""
        if name not in self.calendar_ids:
            if name is None or not name.strip():
                calendar = self.calendars.default()
            else:
                wanted = name.strip().casefold()
                calendar = next((c for c in self.calendars.list() if c.name.casefold() == wanted), None)
                if calendar is None:
                    calendar = self.calendars.add(name.strip())
            self.calendar_ids[name] = calendar.id
            if calendar.name not in self.report.calendars:
                self.report.calendars.append(calendar.name)
        return self.calendar_ids[name]

    def write(self, prepared: list[tuple[str | None, Prepared]], queries: dict[str, Any]) -> None:
        winners = self._dedupe(prepared)
        existing = self._load({item.fields.uid for _, item in winners})
        inserts: list[tuple[int, Prepared]] = []
        updates: list[tuple[int, Prepared, _Existing]] = []
        already = self.report.older + self.report.unchanged
        for target, item in winners:
            key = (item.fields.uid, item.fields.recurrence_id)
            old = existing.get(key)
            # Without an explicit calendar, a known event stays where the user keeps it.
            calendar_id = old.calendar_id if old is not None and not self.explicit else self.calendar_id(target)
            if old is None:
                inserts.append((calendar_id, item))
            elif _is_older(item, old):
                self.report.older += 1
            elif old.calendar_id == calendar_id and _same_content(item, old):
                self.report.unchanged += 1
            else:
                updates.append((calendar_id, item, old))
        self.report.skipped += self.report.older + self.report.unchanged - already
        stale = self._stale_overrides(winners, existing, inserts, updates)
        now = utc_now_iso()
        new_ids = self._insert(inserts, now)
        self._update(updates, now)
        self._delete(stale)
        self._alarms([(new_id, item) for new_id, (_, item) in zip(new_ids, inserts)] + [(old.id, item) for _, item, old in updates])
        self._occurrences(inserts, new_ids, updates, stale, existing, queries)
        self.report.imported += len(inserts)
        self.report.updated += len(updates)

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
                continue
            best[key] = (target, item)
        return sorted(best.values(), key=lambda pair: pair[1].position)

    def _load(self, uids: Iterable[str]) -> dict[tuple[str, str], _Existing]:
        rows: dict[tuple[str, str], _Existing] = {}
        ordered = sorted(uids)
        for start in range(0, len(ordered), _CHUNK):
            chunk = ordered[start : start + _CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for row in self.conn.execute(
                "SELECT id, uid, recurrence_id, calendar_id, origin, sequence, last_modified, ics, rrule, rdate,"
                f" status, floating, start_ts, end_ts FROM events WHERE profile_id = ? AND uid IN ({marks})",
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
        return [
            row
            for key, row in existing.items()
            if row.recurrence_id and row.uid in written_masters and key not in in_file
        ]

    def _insert(self, inserts: list[tuple[int, Prepared]], now: str) -> list[int]:
        if not inserts:
            return []
        (top,) = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()
        ids = list(range(top + 1, top + 1 + len(inserts)))
        self.conn.executemany(
            "INSERT INTO events (id, profile_id, calendar_id, origin, created_at, updated_at, ics, source,"
            f" {', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in range(8 + len(_COLUMNS)))})",
            [
                (new_id, self.profile_id, calendar_id, self.origin, now, now, item.ics, item.source, *_values(item))
                for new_id, (calendar_id, item) in zip(ids, inserts)
            ],
        )
        self.report.changes.created.extend(
            Change(item.fields.uid, item.fields.recurrence_id, new_id, None, None, None)
            for new_id, (_, item) in zip(ids, inserts)
        )
        return ids

    def _update(self, updates: list[tuple[int, Prepared, _Existing]], now: str) -> None:
        if not updates:
            return
        sets = ", ".join(f"{name} = ?" for name in ("calendar_id", "updated_at", "ics", "source", *_COLUMNS))
        self.conn.executemany(
            f"UPDATE events SET {sets} WHERE id = ?",
            [(calendar_id, now, item.ics, item.source, *_values(item), old.id) for calendar_id, item, old in updates],
        )
        self.report.changes.updated.extend(
            Change(old.uid, old.recurrence_id, old.id, old.ics, old.calendar_id, old.origin) for _, _, old in updates
        )
        self.conn.executemany("DELETE FROM alarms WHERE event_id = ?", [(old.id,) for _, _, old in updates])

    def _delete(self, stale: list[_Existing]) -> None:
        if not stale:
            return
        self.conn.executemany("DELETE FROM events WHERE id = ?", [(row.id,) for row in stale])
        self.report.changes.deleted.extend(
            Change(row.uid, row.recurrence_id, row.id, row.ics, row.calendar_id, row.origin) for row in stale
        )
        self.report.removed_overrides += len(stale)

    def _alarms(self, rows: list[tuple[int, Prepared]]) -> None:
        self.conn.executemany(
            "INSERT INTO alarms(event_id, trigger, action) VALUES (?, ?, ?)",
            [(event_id, trigger, action) for event_id, item in rows for trigger, action in item.fields.alarms],
        )

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
    ) -> None:
        """Rebuild instances once per touched UID; singles are written directly.

        A series whose rows all come from this file and were all written reuses the query
        built when it was checked; otherwise the store builds it from its rows.
        """
        written: dict[tuple[str, str], tuple[int, Prepared]] = {}
        for new_id, (_, item) in zip(new_ids, inserts):
            written[(item.fields.uid, item.fields.recurrence_id)] = (new_id, item)
        for _, item, old in updates:
            written[(item.fields.uid, item.fields.recurrence_id)] = (old.id, item)
        touched = {uid for uid, _ in written} | {row.uid for row in stale}
        if not touched:
            return
        gone = {row.id for row in stale}
        kept: dict[str, list[_Existing]] = {}
        for key, row in existing.items():
            if row.uid in touched and row.id not in gone and key not in written:
                kept.setdefault(row.uid, []).append(row)
        by_uid: dict[str, list[tuple[int, Prepared]]] = {}
        for (uid, _), pair in written.items():
            by_uid.setdefault(uid, []).append(pair)
        repo = EventRepo(self.store, self.profile_id)
        updated_ids = {old.id for _, _, old in updates}
        stale_series = [(row.id,) for row in existing.values() if row.uid in touched and row.id not in gone]
        self.conn.executemany("DELETE FROM occurrences WHERE series_id = ?", stale_series)
        singles: list[tuple[int, int, int, int, int, int, None]] = []
        reset: list[tuple[int]] = []
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
                parsed = {item.fields.recurrence_id: item.parsed() for _, item in mine}
                query, built_from = queries.get(uid, (None, -1))
                whole = uid not in kept and len(mine) == built_from
                repo.materialize(uid, components=parsed, query=query if whole else None)
                cap = repo.capped(uid)
                if cap is not None:  # bounded recurrence (docs/ics.md): say what is not shown
                    line = master.line if master is not None else None
                    self.report.warnings.append(ImportProblem(uid, line, cap.text()))
                continue
            for event_id, item in mine:
                if item.fields.status != "CANCELLED" and not self._excluded(item):
                    fields = item.fields
                    singles.append((self.profile_id, event_id, event_id, int(fields.floating), fields.start_ts, fields.end_ts, None))
                if event_id in updated_ids:
                    reset.append((event_id,))
            for row in kept.get(uid, []):
                if row.status != "CANCELLED":
                    singles.append((self.profile_id, row.id, row.id, row.floating, row.start_ts, row.end_ts, None))
                reset.append((row.id,))
        self.conn.executemany(
            "INSERT INTO occurrences(profile_id, event_id, series_id, floating, start_ts, end_ts, recurrence_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            singles,
        )
        self.conn.executemany("UPDATE events SET expanded_until = NULL, expansion = NULL, capped = 0 WHERE id = ?", reset)


_COLUMNS = (
    "uid", "recurrence_id", "title", "description", "location", "tzid", "all_day", "floating", "start_ts",
    "end_ts", "rrule", "rdate", "exdate", "transp", "status", "completed", "sequence", "last_modified",
)  # fmt: skip


def _values(item: Prepared) -> tuple[Any, ...]:
    f = item.fields
    return (
        f.uid, f.recurrence_id, f.title, f.description, f.location, f.tzid, int(f.all_day), int(f.floating),
        f.start_ts, f.end_ts, f.rrule, f.rdate, f.exdate, f.transp, f.status, int(f.completed), f.sequence,
        f.last_modified,
    )  # fmt: skip


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
