"""Cutting a file into calendars and top-level components before icalendar parses them.

icalendar parses a whole file or nothing, so one bad VEVENT would cost the user every good
one, and its errors carry no line numbers. We only cut here: BEGIN/END lines at column 0
delimit components (continuation lines never start at column 0), and each component's
verbatim text goes to icalendar on its own. That gives per-component errors with a line,
the original text for the ``source`` column, and costs no more than one whole-file parse.

The cut is a scan of the file's UTF-8 bytes for BEGIN/END/UID lines only (one regular
expression, run in C), which records byte offsets rather than copies: a 34 MB file costs a
few MB of offsets, and each component's text is decoded only when it is imported. The same
scan repairs what other readers tolerate (see docs/ics.md, "Repairs"): an END with a
misspelt name closes the open component, as icalendar does; a VEVENT nested in another
component is imported on its own, as recurring-ical-events finds it.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

import icalendar

from agent.files import InputFileError

_LINES = re.compile(r"(?<=\n)")
_MARKS = re.compile(rb"^(BEGIN|END|UID)([:;])([^\n]*)", re.MULTILINE | re.IGNORECASE)
_DECLARED = re.compile(rb"CHARSET=\"?([A-Za-z0-9_.:-]{2,40})", re.IGNORECASE)
_CJK_RUN = re.compile(r"[^\x00-\x7f]+")
_CHUNK = 1 << 22
# Names as the import report says them.
ENCODING_NAMES = {
    "utf-8": "UTF-8", "utf-8-sig": "UTF-8 (with BOM)", "utf-16": "UTF-16", "utf-32": "UTF-32",
    "utf-16-le": "UTF-16 LE (no BOM)", "utf-16-be": "UTF-16 BE (no BOM)", "gb18030": "GB18030 (GBK)",
    "cp1252": "Windows-1252", "latin-1": "ISO-8859-1 (Latin-1)",
}  # fmt: skip


class IcsReadError(InputFileError):
    """The file could not be read or is not iCalendar at all; nothing was changed.

    An ``InputFileError`` (a ``UserFacingError``), so code that refuses any unreadable input
    file in one line catches it the same way as one ``agent.files.read_limited`` refused."""


@dataclass
class RawComponent:
    """One top-level component as it stands in the file.

    ``notes`` are repairs the cut already made (they go to the import report);
    ``uid_lines`` counts the component's own UID lines, so a doubled UID is seen early.
    """

    name: str
    line: int
    text: str
    problem: str | None = None
    notes: list[str] = field(default_factory=list)
    uid_lines: int = 0


@dataclass(slots=True)
class Span:
    """Where one top-level component lies in the UTF-8 bytes, and what the scan saw."""

    name: str
    line: int
    start: int
    end: int
    problem: str | None = None
    uid: bytes | None = None
    uid_lines: int = 0
    fixes: list[tuple[int, int, bytes]] | None = None  # (start, end, replacement), absolute offsets
    notes: list[str] | None = None
    depth: int = 0

    def text(self, data: bytes) -> str:
        if not self.fixes:
            return data[self.start : self.end].decode("utf-8", "surrogatepass")
        pieces, done = [], self.start
        for start, end, replacement in sorted(self.fixes):
            if start < done:
                continue  # inside a piece already cut out
            pieces += [data[done:start], replacement]
            done = end
        pieces.append(data[done : self.end])
        return b"".join(pieces).decode("utf-8", "surrogatepass")

    def component(self, data: bytes) -> RawComponent:
        return RawComponent(self.name, self.line, self.text(data), self.problem, list(self.notes or ()), self.uid_lines)

    def note(self, message: str) -> None:
        self.notes = [*(self.notes or ()), message]

    def fix(self, start: int, end: int, replacement: bytes) -> None:
        self.fixes = [*(self.fixes or ()), (start, end, replacement)]


class _LazyComponent(RawComponent):
    """A component whose text is decoded from the file's bytes only when it is read (a
    calendar's VTIMEZONE lookup walks every component but reads few texts)."""

    def __init__(self, data: bytes, span: Span) -> None:  # no dataclass init
        self._data, self._span = data, span
        self.name, self.line, self.problem = span.name, span.line, span.problem
        self.notes, self.uid_lines = list(span.notes or ()), span.uid_lines

    @property
    def text(self) -> str:
        return self._span.text(self._data)

    @text.setter
    def text(self, value: str) -> None:
        raise AttributeError("a lazy component's text comes from the file")


class _Components(Sequence[RawComponent]):
    """A calendar's components, each decoding its text from the file's bytes when read."""

    def __init__(self, data: bytes, spans: list[Span]) -> None:
        self.data = data
        self.spans = spans

    @overload
    def __getitem__(self, index: int) -> RawComponent: ...
    @overload
    def __getitem__(self, index: slice) -> list[RawComponent]: ...
    def __getitem__(self, index: int | slice) -> RawComponent | list[RawComponent]:
        if isinstance(index, slice):
            return [_LazyComponent(self.data, span) for span in self.spans[index]]
        return _LazyComponent(self.data, self.spans[index])

    def __len__(self) -> int:
        return len(self.spans)

    def __iter__(self) -> Iterator[RawComponent]:
        return (_LazyComponent(self.data, span) for span in self.spans)


@dataclass
class RawCalendar:
    """One VCALENDAR (or the implicit one around bare components)."""

    line: int
    header_lines: list[str] = field(default_factory=list)
    components: Sequence[RawComponent] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    _header: icalendar.Calendar | None = None

    @property
    def header(self) -> icalendar.Calendar:
        """The calendar's own properties, parsed by icalendar (empty if they are unreadable)."""
        if self._header is None:
            text = "BEGIN:VCALENDAR\r\n" + "".join(self.header_lines) + "\r\nEND:VCALENDAR\r\n"
            try:
                parsed = icalendar.Calendar.from_ical(text)
            except Exception:  # calendar-level junk must not cost the events
                parsed = icalendar.Calendar()
            self._header = parsed if isinstance(parsed, icalendar.Calendar) else icalendar.Calendar()
        return self._header

    def text_property(self, name: str) -> str | None:
        value = self.header.get(name)
        if value is None:
            return None
        if isinstance(value, list):
            value = value[0]
        text = str(value).strip()
        return text or None


# ---- charset ------------------------------------------------------------------------------


def to_utf8(data: bytes, name: str) -> tuple[bytes, int, str]:
    """The file as UTF-8 bytes, where its text starts, and the encoding it was read in.

    RFC 5545 says UTF-8, and most files are; the rest are read in this order: a BOM
    (UTF-8, UTF-16, UTF-32), UTF-16 without BOM (NUL bytes around ``BEGIN``), a declared
    ``CHARSET=`` parameter, GB18030 when the text reads as Chinese (runs of CJK characters,
    nothing else outside ASCII), then Windows-1252 and finally ISO-8859-1, which reads
    any bytes. The report names the encoding used, so a wrong guess is never silent.
    A UTF-8 file is checked in chunks and not copied.
    """
    if data.startswith(codecs.BOM_UTF8) and _is_utf8(data, 3):
        return data, 3, "utf-8-sig"
    for bom, encoding in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                          (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):  # fmt: skip
        if data.startswith(bom):
            try:
                return data.decode(encoding).lstrip("\ufeff").encode("utf-8", "surrogatepass"), 0, encoding
            except UnicodeDecodeError:
                if encoding == "utf-16":
                    raise IcsReadError("ics.broken_utf16", name=name) from None
    if _is_utf8(data, 0):
        return data, 0, "utf-8"
    head = data[:4096]
    if b"B\x00E\x00G\x00I\x00N\x00" in head or b"\x00B\x00E\x00G\x00I\x00N" in head:
        encoding = "utf-16-le" if b"B\x00E\x00G\x00I\x00N\x00" in head else "utf-16-be"
        try:
            return data.decode(encoding).encode("utf-8", "surrogatepass"), 0, encoding
        except UnicodeDecodeError:
            pass
    for candidate in (_declared(data), "gb18030", "cp1252", "latin-1"):
        if candidate is None:
            continue
        try:
            text = data.decode(candidate)
        except (UnicodeDecodeError, LookupError):
            continue
        if candidate == "gb18030" and not _reads_as_chinese(text):
            continue
        return text.encode("utf-8", "surrogatepass"), 0, candidate
    raise IcsReadError("ics.unknown_encoding", name=name)  # latin-1 reads anything


def decode(data: bytes, name: str) -> str:
    """The file's text, in whichever encoding ``to_utf8`` finds."""
    utf8, start, _ = to_utf8(data, name)
    return utf8[start:].decode("utf-8", "surrogatepass")


def _is_utf8(data: bytes, start: int) -> bool:
    if data.isascii():
        return True
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        for position in range(start, len(data), _CHUNK):
            decoder.decode(data[position : position + _CHUNK], False)
        decoder.decode(b"", True)
    except UnicodeDecodeError:
        return False
    return True


def _declared(data: bytes) -> str | None:
    match = _DECLARED.search(data)
    if match is None:
        return None
    try:
        return codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None


def _reads_as_chinese(text: str) -> bool:
    """Latin-1 text decoded as GB18030 gives lone ideographs between ASCII letters; real
    Chinese gives runs of them. Every non-ASCII character must be CJK, most runs longer than one."""
    runs = _CJK_RUN.findall(text)
    if not runs:
        return False
    for run in runs:
        for char in run:
            code = ord(char)
            if not (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x3000 <= code <= 0x303F or 0xFF00 <= code <= 0xFFEF):
                return False
    return sum(len(run) >= 2 for run in runs) * 2 >= len(runs)


# ---- the cut ------------------------------------------------------------------------------


def scan(data: bytes, name: str, start: int = 0) -> list[RawCalendar]:
    """The calendars in UTF-8 ``data`` (from byte ``start``) with the spans of their components.

    Each calendar's ``components`` decodes its spans when read; ``spans`` are the offsets.
    Raises ``IcsReadError`` when there is no calendar or component at all.
    """
    cut = _Cut(data)
    for match in _MARKS.finditer(data, start):
        cut.mark(match)
    cut.finish()
    if not cut.calendars:
        raise IcsReadError("ics.not_icalendar", name=name)
    for calendar in cut.calendars:
        calendar.components = _Components(data, calendar.spans)
    return cut.calendars


def split(text: str, name: str) -> list[RawCalendar]:
    """The calendars of ``text`` with their top-level components (texts decoded once).

    Raises ``IcsReadError`` when there is no calendar or component at all.
    """
    data = text.encode("utf-8", "surrogatepass")
    calendars = scan(data, name)
    for calendar in calendars:
        calendar.components = [span.component(data) for span in calendar.spans]
    return calendars


class _Cut:
    """The BEGIN/END state machine over the scan's matches.

    ``stack`` holds the names of open components; ``open`` the spans being built, the
    top-level one first and any VEVENT nested inside it after (each with its depth).
    """

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.calendars: list[RawCalendar] = []
        self.current: RawCalendar | None = None
        self.stack: list[str] = []
        self.open: list[Span] = []
        self.gap = 0  # where the calendar's own properties may start
        self.line = 1
        self.counted = 0

    def _line_at(self, position: int) -> int:
        self.line += self.data.count(b"\n", self.counted, position)
        self.counted = position
        return self.line

    def _line_end(self, match: re.Match[bytes]) -> int:
        end = match.end()
        return end + 1 if end < len(self.data) else end

    def mark(self, match: re.Match[bytes]) -> None:
        kind = match.group(1).upper()
        if kind == b"UID":
            self._uid(match)
            return
        if match.group(2) != b":":
            return  # "BEGIN;X=..." is not a component boundary
        # Interned: one "VEVENT" for 100,000 spans, not one string each.
        component = sys.intern(match.group(3).strip().decode("utf-8", "replace").upper())
        if kind == b"BEGIN":
            self._begin(match, component)
        else:
            self._end(match, component)

    def _uid(self, match: re.Match[bytes]) -> None:
        if not self.open or self.open[-1].name != "VEVENT" or len(self.stack) != self.open[-1].depth + 1:
            return
        span = self.open[-1]
        span.uid_lines += 1
        if span.uid is None:
            value = match.group(3).partition(b":")[2] if match.group(2) == b";" else match.group(3)
            end = match.end()
            while self.data[end + 1 : end + 2] in (b" ", b"\t"):  # folded
                following = self.data.find(b"\n", end + 1)
                following = len(self.data) if following < 0 else following
                value = value.rstrip(b"\r") + self.data[end + 2 : following]
                end = following
            span.uid = value.strip() or None

    def _begin(self, match: re.Match[bytes], component: str) -> None:
        at = match.start()
        if component == "VCALENDAR":
            if self.stack:
                self._problem(f"not closed (missing END:{self.stack[-1]})")
                self._emit_all(at)
            self._header(at)
            self.current = RawCalendar(self._line_at(at))
            self.calendars.append(self.current)
            self.gap = self._line_end(match)
            return
        if self.current is None:
            self.current = RawCalendar(self._line_at(at))
            self.calendars.append(self.current)
            self.gap = at
        if not self.stack:
            self._header(at)
            self.open = [Span(component, self._line_at(at), at, at)]
        elif component == "VEVENT":
            inside = self.stack[-1]
            nested = Span(component, self._line_at(at), at, at, depth=len(self.stack))
            nested.note(f"a VEVENT inside {inside} (line {self.open[0].line}): imported on its own")
            self.open.append(nested)
        self.stack.append(component)

    def _end(self, match: re.Match[bytes], component: str) -> None:
        at, after = match.start(), self._line_end(match)
        if self.stack and component == "VCALENDAR" and component not in self.stack:
            self._problem(f"not closed (missing END:{self.stack[-1]})")
            self._emit_all(at)
            self._header(at)
            self.current = None
            return
        if not self.stack:
            if component == "VCALENDAR":
                self._header(at)
                self.current = None
            return
        if self.stack[-1] != component:
            if component in self.stack:
                self._problem(f"END:{component} before END:{self.stack[-1]}")
                while self.stack[-1] != component:
                    inner = self.stack.pop()
                    self._close(inner, at, at, f"not closed (missing END:{inner})")
            else:
                # icalendar closes the open component whatever END names; so do we.
                expected = self.stack[-1]
                span = self.open[-1]
                span.note(f"line {self._line_at(at)}: END:{component} read as END:{expected}")
                ending = match.group(0)[len(match.group(0).rstrip(b"\r")) :]
                span.fix(at, match.end(), b"END:" + expected.encode() + ending)
        self._close(self.stack.pop(), at, after)
        if not self.stack:
            self.gap = after

    def _close(self, name: str, at: int, after: int, problem: str | None = None) -> None:
        """The component ``name`` at depth len(stack) ends: emit it if it is a span."""
        depth = len(self.stack)
        if self.open and self.open[-1].depth == depth:
            span = self.open.pop()
            span.end = after
            if problem and span.problem is None and depth:
                span.problem = problem
            assert self.current is not None
            self.current.spans.append(span)
            if self.open:
                self.open[-1].fix(span.start, after, b"")  # the parent keeps the rest

    def _emit_all(self, at: int) -> None:
        while self.open:
            span = self.open.pop()
            span.end = at
            if span.depth and span.problem is None:
                span.problem = "not closed (missing END:VEVENT)"
            assert self.current is not None
            self.current.spans.append(span)
            if self.open:
                self.open[-1].fix(span.start, at, b"")
        self.stack = []

    def _problem(self, message: str) -> None:
        span = self.open[0] if self.open else None
        if span is not None and span.problem is None:
            span.problem = message

    def _header(self, at: int) -> None:
        """The calendar's own property lines between its components."""
        if self.current is None or at <= self.gap:
            return
        text = self.data[self.gap : at].decode("utf-8", "replace")
        self.gap = at
        for line in logical_lines(text):
            if line.strip() and line[0] not in " \t":
                self.current.header_lines.append(line)

    def finish(self) -> None:
        if self.stack and self.current is not None:
            self._problem(f"not closed (missing END:{self.stack[-1]})")
            self._emit_all(len(self.data))


def logical_lines(text: str) -> list[str]:
    """Physical lines grouped into content lines (each keeps its folds and line break)."""
    out: list[str] = []
    for raw in _LINES.split(text):
        if not raw:
            continue
        if raw[0] in " \t" and out:
            out[-1] += raw
        else:
            out.append(raw)
    return out


def unfold(line: str) -> str:
    """A content line without its folds and line break."""
    return re.sub(r"\r?\n[ \t]", "", line).rstrip("\r\n")


def split_head(line: str) -> tuple[str, str]:
    """``NAME;PARAMS`` and the value of an unfolded content line (quotes respected)."""
    colon = line.find(":")
    if colon < 0:
        return line, ""
    if '"' not in line[:colon]:
        return line[:colon], line[colon + 1 :]
    quoted = False
    for position, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ":" and not quoted:
            return line[:position], line[position + 1 :]
    return line, ""
