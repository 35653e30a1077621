"""Importing .ics files: every good VEVENT lands, every bad one is named, nothing half-done.

The file is cut into component spans (``reader.scan``), then each VEVENT is repaired where
it must be (``repair``), prepared, and written in batches (``writer.Writer``), all in one
transaction, so a crash mid-import leaves the store as it was and memory stays near one
batch. See docs/ics.md for the rules and what each count means.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import icalendar

from agent.files import InputFileError, MiB, iter_limited, read_limited
from agent.ics.prepare import (
    CalendarContext,
    ComponentError,
    Prepared,
    prepare,
    prepare_plain,
    series_parts,
    series_query,
)
from agent.ics.reader import (
    ENCODING_NAMES,
    IcsReadError,
    RawCalendar,
    RawComponent,
    Span,
    decode,
    logical_lines,
    scan,
    split_head,
    to_utf8,
    unfold,
)
from agent.ics.repair import content_digest, needs_repair, repair
from agent.ics.report import ImportProblem, ImportReport, ImportSkip
from agent.ics.writer import Writer
from agent.store import journal_record
from agent.store.db import Store

__all__ = ["ITIP_METHODS", "MAX_FILE_BYTES", "file_calendar_name", "import_bytes", "import_file"]

ORIGINS = ("user", "agent", "import")
BATCH = 2000  # events prepared before a write: bounds memory, big enough to amortise each write
# The most an import reads (docs/ics.md, "How a file is read"): about twice the 100,000-event
# file of the memory benchmark (33.7 MB, 222 MB peak), so no real calendar meets it, while
# /dev/zero or a runaway file is refused before it is read.
MAX_FILE_BYTES = 64 * MiB
_TEXT_ESCAPE = re.compile(r"\\([\\;,nN])")  # RFC 5545 3.3.11: \\ \; \, \n
NAME_HEAD_BYTES = MiB // 4  # where a calendar's name is looked for: its header, before the events


def file_calendar_name(path: str | Path) -> str | None:
    """The file's own calendar name (``X-WR-CALNAME``, Google's and Apple's exports), or None.

    What the app suggests for a new calendar before the file name. Only the file's head is
    read (the name sits in the VCALENDAR's header, before or between the first VTIMEZONEs),
    through the same refusal of FIFOs and devices as the import, so a 30 MB file does not
    delay the dialog; a head that cannot be read just gives None.
    """
    try:
        head = next(iter_limited(Path(path).expanduser(), MAX_FILE_BYTES, "calendar file", chunk=NAME_HEAD_BYTES), b"")
        if len(head) == NAME_HEAD_BYTES:  # a cut mid-line (or mid-character) is not decoded
            head = head[: head.rfind(b"\n") + 1]
        name = own_text(decode(head, str(path)), "X-WR-CALNAME")
    except (InputFileError, UnicodeError, ValueError):
        return None
    return name or None


def import_file(
    store: Store,
    profile_id: int,
    path: str | Path,
    calendar_name: str | None = None,
    *,
    origin: str = "import",
) -> ImportReport:
    """Import the file at ``path``; an unreadable file raises ``IcsReadError`` and changes nothing.

    The file is read through ``agent.files.read_limited`` with ``MAX_FILE_BYTES``: a FIFO,
    a device such as ``/dev/zero``, a folder or a file over the cap is refused in one line
    before the store is touched, instead of hanging or ending in ``MemoryError``.
    """
    file = Path(path).expanduser()
    try:
        data = read_limited(file, MAX_FILE_BYTES, "calendar file")
    except InputFileError as exc:  # one error type for callers: IcsReadError is an InputFileError
        raise IcsReadError(exc.code, **exc.params) from None
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
    raw_data = data
    data, offset, encoding = to_utf8(data, source_name)
    calendars = scan(data, source_name, offset)
    report = ImportReport(0, 0, 0, [], encoding=encoding)
    if any((calendar.text_property("METHOD") or "").upper() in ITIP_METHODS for calendar in calendars):
        return _invitation(store, profile_id, raw_data, calendar_name, source_name, report)
    if encoding not in ("utf-8", "utf-8-sig"):
        report.warnings.append(
            ImportProblem(None, None, f"the file is not UTF-8; read it as {ENCODING_NAMES.get(encoding, encoding)}")
        )
    parts = Counter(
        span.uid for calendar in calendars for span in calendar.spans if span.name == "VEVENT" and span.uid is not None
    )
    with store.transaction():
        _Import(store, profile_id, origin, report, calendar_name, parts).run(calendars, data)
        # One undo journal entry for the whole file, committed with it (agent/store/journal.py).
        journal_record.collect(store, profile_id, report.changes, origin="import", label=f"import {Path(source_name).name}")
    return report


# The METHODs that make a file an iTIP message (agent/ics/itip.py); PUBLISH, on Google's and
# Apple's plain exports, is a plain calendar.
ITIP_METHODS = frozenset({"REQUEST", "ADD", "REPLY", "CANCEL", "COUNTER", "REFRESH", "DECLINECOUNTER"})


def _invitation(
    store: Store, profile_id: int, data: bytes, calendar_name: str | None, source_name: str, report: ImportReport
) -> ImportReport:
    """A file with a METHOD goes to the invitation flow whichever way it arrives (issue 31):
    an attendee's REPLY no longer replaces the user's own event, and an event without a
    UID is refused by name instead of imported under one of ours. The flow module reads
    files with this module's helpers, hence the import here."""
    from agent.ics.itip import Flow, read_message

    message = read_message(data, source_name)
    with store.transaction():
        Flow(store, profile_id).apply(message, calendar_name, report)
    return report


class _Import:
    """One import's walk over the file: prepare, repair, group series, write in batches."""

    def __init__(
        self, store: Store, profile_id: int, origin: str, report: ImportReport, calendar_name: str | None, parts: Counter[bytes]
    ) -> None:
        self.report = report
        self.calendar_name = calendar_name
        self.writer = Writer(store, profile_id, origin, report, explicit=bool(calendar_name))
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
                    self._skip(span, data, "task")
                elif span.name != "VTIMEZONE":
                    self.report.other += 1
                    self._skip(span, data, "other")
        for group in self.waiting.values():  # parts whose UID the cut read differently
            self.batch.extend(group)
        self._flush()

    def _skip(self, span: Span, data: bytes, reason: str) -> None:
        """A VTODO or other component left out: named in the report by its UID and SUMMARY."""
        text = span.text(data)
        uid = own_text(text, "UID") or None
        self.report.skips.append(ImportSkip(uid, span.line, own_text(text, "SUMMARY"), reason, span.name))
        self.report.skipped += 1

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
        del batch
        series = self.writer.write(checked, queries)
        del checked  # the parts are written: expanding a big series must not hold them all
        self.writer.expand(series)


def own_text(text: str, property_name: str) -> str:
    """A component's own text property (not a VALARM's), unescaped; "" when it has none."""
    depth = 0
    for line in logical_lines(text):
        name, value = split_head(unfold(line))
        key = name.split(";", 1)[0].strip().upper()
        if key == "BEGIN":
            depth += 1
        elif key == "END":
            depth -= 1
        elif key == property_name and depth == 1:
            return _TEXT_ESCAPE.sub(lambda escape: "\n" if escape[1] in "nN" else escape[1], value).strip()
    return ""


def prepare_repaired(raw: RawComponent, context: CalendarContext, position: int) -> Prepared:
    """``prepare`` after the repairs of ``agent.ics.repair``; their notes become warnings.

    An event ``needs_repair`` does not flag goes straight through; one ``prepare`` refuses
    is repaired with the parse-needing repairs too and tried once more.
    """
    notes = list(raw.notes)
    text = raw.text
    tried = not raw.problem and not notes and raw.uid_lines == 1
    if tried:
        plain = prepare_plain(text, raw.line, context, position)  # nothing to repair in it
        if plain is not None:
            return plain
    if not raw.problem and needs_repair(text, raw.uid_lines):
        text = repair(text, notes) or text
    try:
        item = prepare(RawComponent(raw.name, raw.line, text, raw.problem), context, position, quick_first=not tried)
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
        query, problem = series_query(*series_parts(items))
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
