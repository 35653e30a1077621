"""Cutting a file into calendars and top-level components before icalendar parses them.

icalendar parses a whole file or nothing, so one bad VEVENT would cost the user every good
one, and its errors carry no line numbers. We only cut here: BEGIN/END lines at column 0
delimit components (continuation lines never start at column 0), and each component's
verbatim text goes to icalendar on its own. That gives per-component errors with a line,
the original text for the ``source`` column, and costs no more than one whole-file parse.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

import icalendar

from agent.errors import UserFacingError

_LINES = re.compile(r"(?<=\n)")


class IcsReadError(UserFacingError):
    """The file could not be read or is not iCalendar at all; nothing was changed."""


@dataclass
class RawComponent:
    """One top-level component as it stands in the file."""

    name: str
    line: int
    text: str
    problem: str | None = None


@dataclass
class RawCalendar:
    """One VCALENDAR (or the implicit one around bare components)."""

    line: int
    header_lines: list[str] = field(default_factory=list)
    components: list[RawComponent] = field(default_factory=list)
    _header: icalendar.Calendar | None = None

    @property
    def header(self) -> icalendar.Calendar:
        """The calendar's own properties, parsed by icalendar (empty if they are unreadable)."""
        if self._header is None:
            text = "BEGIN:VCALENDAR\r\n" + "".join(self.header_lines) + "\r\nEND:VCALENDAR\r\n"
            try:
                parsed = icalendar.Calendar.from_ical(text)
            except Exception:  # noqa: BLE001 - calendar-level junk must not cost the events
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


def decode(data: bytes, name: str) -> str:
    """The file's text. RFC 5545 says UTF-8; a UTF-16 file with a BOM is also accepted.

    Guessing a legacy encoding would silently turn 中文 into mojibake, so anything else is
    refused with a message that says how to fix it.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise IcsReadError(f"cannot import {name}: broken UTF-16 text at byte {exc.start}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IcsReadError(
            f"cannot import {name}: it is not UTF-8 text (byte {exc.start}); "
            "save it as UTF-8 and import it again"
        ) from None
    return text.lstrip("\ufeff")


def split(text: str, name: str) -> list[RawCalendar]:
    """The calendars of ``text`` with their top-level components.

    Raises ``IcsReadError`` when there is no calendar or component at all.
    """
    lines = _LINES.split(text)
    calendars: list[RawCalendar] = []
    current: RawCalendar | None = None
    stack: list[str] = []
    begin = 0
    problem: str | None = None

    def emit(end: int) -> None:
        assert current is not None
        current.components.append(RawComponent(stack[0] if stack else "", begin + 1, "".join(lines[begin:end]), problem))

    index = 0
    count = len(lines)
    while index < count:
        raw = lines[index]
        if not raw or raw[0] in " \t":
            index += 1
            continue
        head = raw[:6].upper()
        if head == "BEGIN:":
            component = raw[6:].strip().upper()
            if component == "VCALENDAR":
                if stack:
                    problem = problem or f"not closed (missing END:{stack[-1]})"
                    emit(index)
                    stack, problem = [], None
                current = RawCalendar(index + 1)
                calendars.append(current)
                index += 1
                continue
            if current is None:
                current = RawCalendar(index + 1)
                calendars.append(current)
            if not stack:
                begin, problem = index, None
            stack.append(component)
        elif head.startswith("END:"):
            component = raw[4:].strip().upper()
            if stack and component == "VCALENDAR" and component not in stack:
                problem = problem or f"not closed (missing END:{stack[-1]})"
                emit(index)
                stack, problem, current = [], None, None
            elif stack:
                if stack[-1] != component:
                    if component in stack:
                        problem = problem or f"END:{component} before END:{stack[-1]}"
                        while stack[-1] != component:
                            stack.pop()
                    else:
                        problem = problem or f"unexpected END:{component}"
                        index += 1
                        continue
                if len(stack) == 1:
                    emit(index + 1)
                stack.pop()
            elif component == "VCALENDAR":
                current = None
        elif not stack and current is not None:
            end = index + 1
            while end < count and lines[end][:1] in (" ", "\t"):
                end += 1
            current.header_lines.append("".join(lines[index:end]))
            index = end
            continue
        index += 1
    if stack and current is not None:
        problem = problem or f"not closed (missing END:{stack[-1]})"
        emit(count)
    if not calendars:
        raise IcsReadError(f"cannot import {name}: it is not an iCalendar file (no BEGIN:VCALENDAR found)")
    return calendars


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
