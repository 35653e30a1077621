"""The field table: every field of an event, once — its VEVENT property, its column, how it is shown.

An event is a VEVENT first (agent/store/components.py); the ``events`` columns are the few
fields range queries and the views need on every row. Before this table, which property a
field lives in was written out wherever a field was read or written (the indexer,
``build_event``, the chat's edit plan, the conflict listing). Now those places ask here, and
a field nobody queries needs no column at all: ``read`` takes it from the stored ICS text
when someone asks for it, as khal's one ``Event`` does, and ``Event`` wraps a stored row so
that a column is read from the row and anything else from its text.

Adding a field is a row in ``FIELDS`` (CONTRIBUTING.md, "Adding a field"): the text a row
holds is exported, synced and backed up with the event already, because the ICS is stored
whole. This module imports no VEVENT parser until a value is read from text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from agent.lazy import lazy_module

if TYPE_CHECKING:
    import icalendar
else:  # on first read from text: the table itself is read at start-up
    icalendar = lazy_module("icalendar", __name__)

# How a field is shown: "text" a line of words, "place" a location, "time" a start or end,
# "repeat" part of a rule, "alarm" a reminder, "busy" busy/free, "status" a state word,
# "flag" yes/no, "tags" a list of words, "people" a list of persons, "link" an address (a URL)
# the card opens, "meta" bookkeeping nobody reads.
Kind = Literal["text", "place", "time", "repeat", "alarm", "busy", "status", "flag", "tags", "people", "link", "meta"]
# What ``read`` gives: text, a flag, a list's values, a decoded time (date or datetime), a
# ``Person`` (or a tuple of them) for a "people" field, or None.
Value = Any


@dataclass(frozen=True, slots=True)
class Show:
    """How the app shows a field kept only in the text, so that no view names it: the
    editor gives it a row (``label``, a line edit with ``hint`` as its placeholder; a list
    is typed comma-separated), the event card a line (``line``, with the value as ``{0}``;
    a link is clickable), and the agenda's line under the title its value when ``agenda``.
    The texts are English sources the app translates (Qt contexts ``EventDialog`` for
    ``label``/``hint``, ``EventCard`` for ``line``; resources/translations/zh_CN.json)."""

    label: str
    line: str
    hint: str = ""
    agenda: bool = True


@dataclass(frozen=True, slots=True)
class Person:
    """One ORGANIZER or ATTENDEE: the address without ``mailto:`` (as typed, compared
    case-blind by ``same``), the CN, and for an attendee the PARTSTAT and ROLE (RFC 5545
    defaults NEEDS-ACTION and REQ-PARTICIPANT when absent; both "" for the organizer,
    which has neither and is listed as {"email","name"}). The other parameters (RSVP,
    CUTYPE, X-...) are kept in ``extra`` so writing a person back loses none of them."""

    email: str
    name: str = ""
    partstat: str = "NEEDS-ACTION"
    role: str = "REQ-PARTICIPANT"
    extra: tuple[tuple[str, str], ...] = ()

    def same(self, email: str) -> bool:
        return self.email.casefold() == bare_address(email).casefold()

    def to_json(self) -> dict[str, str]:
        if not self.role:  # the organizer
            return {"email": self.email, "name": self.name}
        return {"email": self.email, "name": self.name, "partstat": self.partstat, "role": self.role}

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>" if self.name and not self.same(self.name) else self.email

    def address(self) -> icalendar.vCalAddress:
        """The property value to write: ``mailto:`` and the parameters."""
        value = icalendar.vCalAddress(f"mailto:{self.email}")
        for key, text in self.extra:
            value.params[key] = text
        if self.name:
            value.params["CN"] = self.name
        if self.role:
            value.params["PARTSTAT"] = self.partstat
            value.params["ROLE"] = self.role
        return value


def bare_address(value: str) -> str:
    """An address without its ``mailto:`` (any case) and surrounding blanks."""
    text = str(value).strip()
    return text[7:].strip() if text[:7].lower() == "mailto:" else text


_OWN_PARAMS = {"CN", "PARTSTAT", "ROLE"}


def people(value: Any, *, organizer: bool = False) -> tuple[Person, ...]:
    """ORGANIZER/ATTENDEE values (one or a list) as ``Person`` values, in order, the first
    of any address given twice; an ``organizer`` has no PARTSTAT or ROLE ("")."""
    if value is None:
        return ()
    found: list[Person] = []
    for line in value if isinstance(value, list) else [value]:
        email = bare_address(str(line))
        if not email or any(person.same(email) for person in found):
            continue
        params = getattr(line, "params", {}) or {}
        extra = tuple((str(k).upper(), str(v)) for k, v in params.items() if str(k).upper() not in _OWN_PARAMS)
        name = str(params.get("CN") or "").strip()
        if organizer:
            found.append(Person(email, name, "", "", extra))
            continue
        partstat = str(params.get("PARTSTAT") or "NEEDS-ACTION").upper()
        found.append(Person(email, name, partstat, str(params.get("ROLE") or "REQ-PARTICIPANT").upper(), extra))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event.

    ``prop`` is its VEVENT property (``also``: others that mean the same field, such as
    DURATION for the end); ``column`` the ``events`` column that holds it, or None when it
    is read from the stored text on demand; ``editable`` whether the editor, the chat or
    quick add may set it; ``multiple`` whether it is a list (CATEGORIES, ATTENDEE), read as
    a tuple of strings; ``kind`` how it is shown; ``label`` the word a conflict listing uses
    for it ("" to use the property's own name); ``searchable`` whether the search box looks
    in it; ``show`` how the editor, the card and the agenda show a field without a column
    (None: they do not; a field with ``show`` is one of the editor's draft, ``SHOWN``)."""

    name: str
    prop: str
    column: str | None
    editable: bool
    multiple: bool
    kind: Kind
    label: str = ""
    searchable: bool = False
    also: tuple[str, ...] = ()
    show: Show | None = None


# In the order a person reads an event (the conflict listing keeps this order).
FIELDS: tuple[Field, ...] = (
    Field("uid", "UID", "uid", False, False, "meta"),
    Field("recurrence_id", "RECURRENCE-ID", "recurrence_id", False, False, "meta"),
    Field("title", "SUMMARY", "title", True, False, "text", "title", searchable=True),
    Field("start", "DTSTART", "start_ts", True, False, "time", "time"),
    Field("end", "DTEND", "end_ts", True, False, "time", "time", also=("DURATION",)),
    Field("location", "LOCATION", "location", True, False, "place", "place", searchable=True),
    Field("description", "DESCRIPTION", "description", True, False, "text", "description", searchable=True),
    Field("rrule", "RRULE", "rrule", True, False, "repeat", "repetition", also=("X-RICHENG-RECUR",)),
    Field("rdate", "RDATE", "rdate", True, False, "repeat", "repetition"),
    Field("exdate", "EXDATE", "exdate", True, False, "repeat", "repetition"),
    Field("alarms", "VALARM", None, True, True, "alarm", "alarm"),
    Field("transp", "TRANSP", "transp", True, False, "busy", "busy or free"),
    Field("status", "STATUS", "status", False, False, "status", "status"),
    Field("completed", "X-RICHENG-COMPLETED", "completed", True, False, "flag", "done"),
    Field(
        "categories",
        "CATEGORIES",
        None,
        True,
        True,
        "tags",
        "tags",
        searchable=True,
        show=Show("Tags", "Tags: {0}", "Comma-separated, e.g. Work, Travel"),
    ),
    Field(
        "url",
        "URL",
        None,
        True,
        False,
        "link",
        "link",
        searchable=True,
        show=Show("Link", "Link: {0}", "Web address, e.g. a video call link", agenda=False),
    ),
    # People (issue 31): read as ``Person`` values, listed as {"email","name",...} objects.
    Field("organizer", "ORGANIZER", None, True, False, "people", "organizer"),
    Field("attendees", "ATTENDEE", None, True, True, "people", "attendees"),
    Field("sequence", "SEQUENCE", "sequence", False, False, "meta"),
    Field("last_modified", "LAST-MODIFIED", "last_modified", False, False, "meta"),
)
BY_NAME: dict[str, Field] = {item.name: item for item in FIELDS}

# The fields kept only in the ICS text that a listing (``richeng events list --json``) shows.
LISTED: tuple[Field, ...] = tuple(
    item for item in FIELDS if item.column is None and item.kind in ("tags", "people", "text", "place", "link")
)
# The fields the app shows by the table (``Show``), each with its ``show``: the editor's rows
# and its draft's ``extra`` (agent/services/editing.py), the card's lines, the agenda's
# words, what a duplicate copies.
SHOWN: tuple[tuple[Field, Show], ...] = tuple((item, item.show) for item in FIELDS if item.show is not None)
# The searchable fields without a column: the search reads them from the text.
SEARCHED_IN_TEXT: tuple[Field, ...] = tuple(item for item in FIELDS if item.searchable and item.column is None)


def prop(name: str) -> str:
    """The VEVENT property of field ``name`` (KeyError for a name the table lacks)."""
    return BY_NAME[name].prop


def labels() -> dict[str, str]:
    """VEVENT property (and its aliases) -> the word a conflict listing uses, in table order."""
    return {p: item.label for item in FIELDS if item.label for p in (item.prop, *item.also)}


# ---- reading from a VEVENT ----------------------------------------------------------------


def read(component: icalendar.Component, name: str) -> Value:
    """Field ``name`` of a parsed VEVENT: a tuple of strings for a multiple field (empty when
    absent; CATEGORIES may be one line or several, each a comma list), else the property's
    text, or None when absent. A flag is True when its text is TRUE."""
    item = BY_NAME[name]
    if item.kind == "alarm":  # a subcomponent, not a property: its triggers as written
        return tuple(_ical(alarm["TRIGGER"]) for alarm in component.walk("VALARM") if alarm.get("TRIGGER") is not None)
    value = component.get(item.prop)
    if item.kind == "people":
        found = people(value, organizer=not item.multiple)
        return found if item.multiple else (found[0] if found else None)
    if item.multiple:
        return _strings(value)
    if item.kind == "time":
        return component.decoded(item.prop) if value is not None else None
    if item.kind == "flag":
        return value is not None and str(value).upper() == "TRUE"
    if value is None:
        return None
    return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _ical(value: Any) -> str:
    raw = value.to_ical()
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def _strings(value: Any) -> tuple[str, ...]:
    """The values of a list property, in order, without blanks or repeats."""
    if value is None:
        return ()
    lines = value if isinstance(value, list) else [value]
    found: list[str] = []
    for line in lines:
        parts = getattr(line, "cats", None)
        for part in parts if parts is not None else [line]:
            text = str(part).strip()
            if text and text not in found:
                found.append(text)
    return tuple(found)


def read_text(ics: str, names: Iterable[str]) -> dict[str, Value]:
    """Fields ``names`` of one stored VEVENT's text, as ``read`` gives them. An event
    without them costs a substring test; a list of words (the tags) is read from its own
    lines without a parser, anything else from a VEVENT of only its lines (a search may
    read a thousand tagged events; icalendar takes ~0.2 ms a parse)."""
    wanted = list(names)
    present = [name for name in wanted if BY_NAME[name].prop in ics]
    values: dict[str, Value] = {name: read_absent(name) for name in wanted}
    if not present:
        return values
    if any(BY_NAME[name].kind == "alarm" for name in present):
        component = icalendar.Event.from_ical(ics)
        return {**values, **{name: read(component, name) for name in present}}
    lines = _own_lines(ics, {BY_NAME[name].prop for name in present})
    parsed: icalendar.Component | None = None
    for name in present:
        item = BY_NAME[name]
        if item.kind == "tags":
            values[name] = tags(word for line in lines if line[0] == item.prop for word in _words(line[1]))
            continue
        if parsed is None:
            parsed = icalendar.Event.from_ical("\r\n".join(["BEGIN:VEVENT", *(raw for _, _, raw in lines), "END:VEVENT", ""]))
        values[name] = read(parsed, name)
    return values


def _own_lines(ics: str, props: set[str]) -> list[tuple[str, str, str]]:
    """(property, value, whole line) of ``ics``'s own lines (not its alarms') whose
    property is in ``props``, unfolded."""
    kept = []
    depth = 0
    for raw in _FOLD.sub("", ics).split("\n"):  # not splitlines: U+2028 may sit in a value
        line = raw.removesuffix("\r")
        name = _NAME_END.split(line, maxsplit=1)[0].upper()
        if name == "BEGIN":
            depth += 1
        elif name == "END":
            depth -= 1
        elif depth == 1 and name in props:
            kept.append((name, _value(line), line))
    return kept


def _value(line: str) -> str:
    """The value of a content line: after the first colon outside a quoted parameter."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ":" and not quoted:
            return line[index + 1 :]
    return ""


def _words(value: str) -> list[str]:
    """A TEXT list value split at its unescaped commas, unescaped (RFC 5545 3.3.11)."""
    words, current, escaped = [], [], False
    for char in value:
        if escaped:
            current.append("\n" if char in "nN" else char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ",":
            words.append("".join(current))
            current = []
        else:
            current.append(char)
    words.append("".join(current))
    return words


_FOLD = re.compile(r"\r?\n[ \t]")
_NAME_END = re.compile(r"[;:]")


def read_absent(name: str) -> Value:
    """What ``read`` gives for a field the VEVENT does not have."""
    item = BY_NAME[name]
    if item.multiple:
        return ()
    return False if item.kind == "flag" else None


# ---- writing into a VEVENT ----------------------------------------------------------------


def write(component: icalendar.Component, name: str, value: Value | Sequence[str]) -> None:
    """Set field ``name`` of a VEVENT, replacing what it had: a multiple field from a
    sequence of strings (one line; none when empty, blanks and repeats dropped), a flag as
    TRUE or absent, anything else as its text (absent when None or "")."""
    item = BY_NAME[name]
    if item.kind == "alarm":
        raise ValueError("alarms are written by agent.store.components.set_alarms")
    component.pop(item.prop, None)
    if item.kind == "people":
        given = value if isinstance(value, list | tuple) else [] if value is None else [value]
        for person in given:
            if isinstance(person, Person) and person.email:
                component.add(item.prop, person.address(), encode=False)
        return
    if item.multiple:
        values = tags(value if isinstance(value, list | tuple) else [] if value is None else [str(value)])
        if values:
            component.add(item.prop, list(values))
        return
    if item.kind == "flag":
        if value:
            component.add(item.prop, "TRUE")
        return
    if value is not None and value != "":
        component.add(item.prop, value)


def tags(values: Iterable[Any]) -> tuple[str, ...]:
    """A list field's values as written: stripped, blanks and repeats dropped, in order."""
    found: list[str] = []
    for value in values:
        text = str(value).strip()
        if text and text not in found:
            found.append(text)
    return tuple(found)


def split_tags(text: str) -> tuple[str, ...]:
    """Tags typed in one line: separated by commas (ASCII or full-width 、，)."""
    for mark in ("，", "、"):
        text = text.replace(mark, ",")
    return tags(text.split(","))


def as_text(name: str, value: Value) -> str:
    """Field ``name``'s value as one line a person reads or edits: a list comma-separated
    ("Work, Travel"), nothing as ""."""
    if BY_NAME[name].multiple:
        return ", ".join(str(item) for item in value or ())
    return "" if value is None else str(value)


def from_text(name: str, text: str) -> Value:
    """What a person typed for field ``name`` (``as_text``'s line) as its value: a list
    split at commas of both widths, a single value stripped."""
    return split_tags(text) if BY_NAME[name].multiple else text.strip()


def shown(component: icalendar.Component | None) -> dict[str, Value]:
    """The ``SHOWN`` fields of a VEVENT (their absent values for None), in table order: what
    the editor opens with, the card and the agenda show, and a duplicate copies."""
    if component is None:
        return {item.name: read_absent(item.name) for item, _ in SHOWN}
    return {item.name: read(component, item.name) for item, _ in SHOWN}


def drafted(values: Mapping[str, Value]) -> dict[str, Value]:
    """``values`` of ``SHOWN`` fields as a draft holds them: every such field, a list as a
    tuple of words (blanks and repeats dropped), a single value as stripped text ("" for
    none). A name that is not a ``SHOWN`` field is a TypeError, as an unknown keyword is."""
    unknown = sorted(set(values) - {item.name for item, _ in SHOWN})
    if unknown:
        raise TypeError(f"not a field an event draft holds: {', '.join(unknown)}")
    out: dict[str, Value] = {}
    for item, _ in SHOWN:
        value = values.get(item.name)
        if item.multiple:
            out[item.name] = tags(value if isinstance(value, list | tuple) else [] if value is None else [value])
        else:
            out[item.name] = "" if value is None else str(value).strip()
    return out


# ---- one stored event ---------------------------------------------------------------------


class Event:
    """One stored event as a value: a field with a column is read from the row, any other
    from the row's ICS text, parsed the first time one is asked for.

    ``row`` is a mapping with the ``events`` columns it was selected with and ``ics``
    (an ``sqlite3.Row`` or a dict)."""

    __slots__ = ("_component", "_row")

    def __init__(self, row: Mapping[str, Any]) -> None:
        self._row = row
        self._component: icalendar.Component | None = None

    def __getitem__(self, name: str) -> Value:
        item = BY_NAME[name]
        if item.column is not None and item.kind != "time" and item.column in _keys(self._row):
            value = self._row[item.column]
            return bool(value) if item.kind == "flag" else value
        ics = str(self._row["ics"])
        if item.prop not in ics:
            return read_absent(name)
        component = self._component
        if component is None:
            component = self._component = icalendar.Event.from_ical(ics)
        return read(component, name)


def _keys(row: Mapping[str, Any]) -> Iterable[str]:
    keys = getattr(row, "keys", None)
    return keys() if keys is not None else ()


def stored_values(conn: Any, event_ids: Iterable[int], names: Sequence[str]) -> dict[int, dict[str, Value]]:
    """Fields ``names`` of the events ``event_ids``, read from their stored text on demand
    (a listing's extra keys: one SELECT, and a parse only for an event that has one)."""
    ids = sorted(set(event_ids))
    out: dict[int, dict[str, Value]] = {}
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        rows = conn.execute(f"SELECT id, ics FROM events WHERE id IN ({', '.join('?' for _ in part)})", part).fetchall()
        for event_id, ics in rows:
            out[int(event_id)] = read_text(str(ics), names)
    return out


def listed(conn: Any, event_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The ``LISTED`` fields of the events ``event_ids`` as JSON values (a list for a
    multiple field), by event id: the keys a listing adds to each item."""
    values = stored_values(conn, event_ids, [item.name for item in LISTED])
    return {event_id: {name: _json(value) for name, value in fields.items()} for event_id, fields in values.items()}


def _json(value: Value) -> Any:
    """A read value as JSON: a tuple as a list, a person as its object."""
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value.to_json() if isinstance(value, Person) else value


__all__ = [
    "BY_NAME",
    "FIELDS",
    "LISTED",
    "SEARCHED_IN_TEXT",
    "SHOWN",
    "Event",
    "Field",
    "Kind",
    "Person",
    "Show",
    "Value",
    "as_text",
    "bare_address",
    "drafted",
    "from_text",
    "labels",
    "listed",
    "people",
    "prop",
    "read",
    "read_absent",
    "read_text",
    "shown",
    "split_tags",
    "stored_values",
    "tags",
    "write",
]
