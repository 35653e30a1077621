"""One class writes the event tables (agent/store/event_sql.py, issue 12 seam 1).

Two rules: an event imported from an .ics file and the same event saved through
``EventRepo.save`` make identical rows (the importer's bulk ``save_many`` and the single save
share one column mapping), and no module but ``event_sql.py`` runs INSERT, UPDATE or DELETE
on ``events``, ``alarms``, ``occurrences`` or ``occurrences_span`` (migrations' DDL and
triggers aside).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent.ics.importer import import_bytes
from agent.services.calendars import CalendarService
from agent.store.components import EventFields, event_columns, index_fields, parse_component
from agent.store.db import Store
from agent.store.event_sql import COLUMNS, EVENT_TABLES, EventSql, column_values
from agent.store.events import EventRepo
from agent.store.profiles import ensure_profile

ROOT = Path(__file__).resolve().parents[3]

# Every kind of row the mapping has to get right: zoned with an alarm, SEQUENCE and
# LAST-MODIFIED; all-day and free; a finite series with an EXDATE and a moved instance.
# Finite on purpose: an open series' first expansion stops at a horizon read from the clock.
EVENTS = """BEGIN:VEVENT
UID:single@parity
DTSTAMP:20261101T000000Z
DTSTART;TZID=Asia/Shanghai:20261201T090000
DTEND;TZID=Asia/Shanghai:20261201T100000
SUMMARY:Standup
LOCATION:Room 1
DESCRIPTION:notes
SEQUENCE:{sequence}
LAST-MODIFIED:20261101T000000Z
BEGIN:VALARM
ACTION:DISPLAY
DESCRIPTION:Standup
TRIGGER:-PT{minutes}M
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:allday@parity
DTSTAMP:20261101T000000Z
DTSTART;VALUE=DATE:20261205
DTEND;VALUE=DATE:20261207
SUMMARY:Trip {sequence}
SEQUENCE:{sequence}
TRANSP:TRANSPARENT
X-RICHENG-COMPLETED:TRUE
END:VEVENT
BEGIN:VEVENT
UID:series@parity
DTSTAMP:20261101T000000Z
DTSTART;TZID=Asia/Shanghai:20261130T140000
DTEND;TZID=Asia/Shanghai:20261130T150000
RRULE:FREQ=WEEKLY;COUNT=5
EXDATE;TZID=Asia/Shanghai:20261207T140000
SUMMARY:Weekly
SEQUENCE:{sequence}
END:VEVENT
BEGIN:VEVENT
UID:series@parity
DTSTAMP:20261101T000000Z
RECURRENCE-ID;TZID=Asia/Shanghai:20261214T140000
DTSTART;TZID=Asia/Shanghai:20261214T160000
DTEND;TZID=Asia/Shanghai:20261214T170000
SUMMARY:Weekly (moved)
SEQUENCE:{sequence}
END:VEVENT
"""

# Left out of the comparison, each for a reason that is not the mapping's:
# created_at/updated_at are each write's own clock; ``ics`` is compared as content below,
# because the importer keeps the file's text and the repository serialises the parsed
# component (the same properties, in icalendar's order). An occurrence's own ``id`` is a
# rowid of a rebuilt instance: it depends on the order rows were rebuilt in (one batch on
# import, one save at a time here); nothing refers to it but the span index, by the same id.
EXCLUDED = {"created_at", "updated_at", "ics"}
ORDER = {"events": "id", "alarms": "id", "occurrences": "series_id, start_ts, event_id"}


def _file(sequence: int, minutes: int) -> bytes:
    body = EVENTS.format(sequence=sequence, minutes=minutes)
    text = f"BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//parity//EN\n{body}END:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


def _lines(ics: str) -> list[str]:
    """A VEVENT's content lines, unfolded and sorted: equal when the properties are."""
    return sorted(re.sub(r"\r?\n[ \t]", "", ics).splitlines())


def _rows(store: Store, table: str) -> list[dict[str, Any]]:
    rows = [dict(row) for row in store.conn.execute(f"SELECT * FROM {table} ORDER BY {ORDER[table]}")]
    if table == "occurrences":
        for row in rows:
            del row["id"]
    return rows


def _save_like_import(store: Store, profile_id: int, imported: Store) -> None:
    """Save each row the import made, from the same text, through ``EventRepo.save``."""
    repo = EventRepo(store, profile_id)
    calendar_id = CalendarService(store, profile_id).default().id
    with store.transaction():
        for row in imported.conn.execute("SELECT source FROM events ORDER BY id").fetchall():
            repo.save(parse_component(row["source"]), calendar_id, "import", source=row["source"])


def _assert_same_rows(imported: Store, saved: Store) -> None:
    for table in ("events", "alarms", "occurrences"):
        left, right = _rows(imported, table), _rows(saved, table)
        assert len(left) == len(right) > 0, table
        for a, b in zip(left, right, strict=True):
            assert set(a) == set(b)
            differing = {name for name in a if a[name] != b[name]} - EXCLUDED
            assert not differing, (table, a.get("uid"), {name: (a[name], b[name]) for name in differing})
            if table == "events":
                assert _lines(a["ics"]) == _lines(b["ics"]), a["uid"]


def test_an_imported_event_and_the_same_event_saved_make_identical_rows() -> None:
    imported, saved = Store(":memory:"), Store(":memory:")
    import_bytes(imported, ensure_profile(imported), _file(sequence=2, minutes=15))
    _save_like_import(saved, ensure_profile(saved), imported)
    _assert_same_rows(imported, saved)


def test_an_import_that_updates_rows_writes_them_as_a_save_over_them_does() -> None:
    """The update path: a newer copy (higher SEQUENCE, another alarm and title) over the rows."""
    imported, saved = Store(":memory:"), Store(":memory:")
    first, newer = ensure_profile(imported), ensure_profile(saved)
    import_bytes(imported, first, _file(sequence=2, minutes=15))
    _save_like_import(saved, newer, imported)
    report = import_bytes(imported, first, _file(sequence=3, minutes=30))
    assert report.updated == 4
    _save_like_import(saved, newer, imported)
    _assert_same_rows(imported, saved)


# ---- no other writer ---------------------------------------------------------------------

_WRITE = re.compile(
    r"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM|REPLACE\s+INTO)\s+[\"'`\[]?("
    + "|".join(EVENT_TABLES)
    + r")\b",
    re.IGNORECASE,
)
OWNER = Path("agent/store/event_sql.py")
# Schema DDL: migration 6 fills occurrences_span once and its triggers keep it in step.
DDL = Path("agent/store/migrations.py")


def _writes(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [f"{path}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in _WRITE.finditer(text)]


def test_no_module_but_event_sql_writes_the_event_tables() -> None:
    # The pattern must see the owner's own statements, or the scan below proves nothing.
    owner = _writes(ROOT / OWNER)
    assert {m.split(": ", 1)[1].split()[-1].strip("\"'`[").lower() for m in owner} >= {"events", "alarms", "occurrences"}
    found: list[str] = []
    for folder in ("agent", "app"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative not in (OWNER, DDL):
                found += _writes(path)
    assert not found, "event-table SQL outside agent/store/event_sql.py (add a method there):\n" + "\n".join(found)


def test_recovery_takes_its_event_table_statement_from_the_class() -> None:
    assert EventSql.salvage_insert("events", ["id", "uid"]) == 'INSERT INTO "events" (id, uid) VALUES (?, ?)'
    with pytest.raises(ValueError):
        EventSql.salvage_insert("memories", ["id"])  # not an event table: recovery's own


# ---- one declaration of the columns ----------------------------------------------------------

# The events columns that are not read from the VEVENT: the row's own (EventSql writes them
# beside the declared ones) and a series' expansion state (set_expansion).
NOT_DERIVED = {"id", "profile_id", "calendar_id", "origin", "created_at", "updated_at", "ics", "source"} | {
    "expanded_until",
    "expansion",
    "capped",
}


MOOD = (
    "BEGIN:VEVENT\r\nUID:mood@test\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:20261201\r\n"
    "SUMMARY:Mood\r\nX-RICHENG-COMPLETED:TRUE\r\nEND:VEVENT\r\n"
)


def test_the_columns_written_are_the_fields_marked_column() -> None:
    fields = index_fields(parse_component(MOOD))
    assert (
        COLUMNS
        == tuple(name for name, _ in event_columns())
        == tuple(item.name for item in dataclasses.fields(EventFields) if item.name != "alarms")
    )
    assert column_values(fields) == tuple(getattr(fields, name) for name in COLUMNS)


def test_each_declared_column_is_in_a_new_file_with_its_declared_type() -> None:
    """The declaration and the migrations agree: a field marked ``Column`` without the
    migration that adds it (or with another type) fails here by name."""
    with Store(":memory:") as store:
        table = {row["name"]: row for row in store.conn.execute("PRAGMA table_info(events)")}
    for name, spec in event_columns():
        assert name in table, f"{name} is declared in EventFields but no migration adds it to events"
        row = table[name]
        assert f"{row['type']}{' NOT NULL' if row['notnull'] else ''}" == spec.sql, name
    assert set(table) == NOT_DERIVED | set(COLUMNS)


def test_a_new_column_is_one_marked_field_and_its_migration(tmp_path: Path) -> None:
    """Add one field to EventFields in a copy of the package and a migration that adds the
    column; save, import and read back with nothing else changed: event_sql picks it up."""
    copy = tmp_path / "agent"
    shutil.copytree(ROOT / "agent", copy, ignore=shutil.ignore_patterns("__pycache__"))
    components = copy / "store" / "components.py"
    text = components.read_text(encoding="utf-8")
    marker = "    alarms: list[tuple[str, str]]\n"
    assert text.count(marker) == 1
    components.write_text(text.replace(marker, marker + '    mood: Annotated[str | None, Column("TEXT")] = None\n'), "utf-8")
    migrations = copy / "store" / "migrations.py"
    migrations.write_text(
        migrations.read_text(encoding="utf-8")
        + "\n\n@migration\ndef m900_mood(conn: sqlite3.Connection) -> None:\n"
        + '    run_sql(conn, "ALTER TABLE events ADD COLUMN mood TEXT;")\n',
        "utf-8",
    )
    script = """
import dataclasses
from agent.store.components import index_fields, parse_component
from agent.store.db import Store, utc_now_iso
from agent.store.event_sql import COLUMNS, EventSql
from agent.store.profiles import ensure_profile
import sys
assert COLUMNS[-1] == "mood", COLUMNS
store = Store(":memory:")
profile = ensure_profile(store)
calendar = store.conn.execute("SELECT id FROM calendars").fetchone()[0]
text = sys.argv[1]
fields = dataclasses.replace(index_fields(parse_component(text)), mood="calm")
now = utc_now_iso()
with store.transaction() as conn:
    event_id = EventSql(conn).insert(profile, calendar, "user", fields, text, None, created_at=now, updated_at=now)
    assert conn.execute("SELECT mood FROM events WHERE id = ?", (event_id,)).fetchone()[0] == "calm"
    EventSql(conn).update(event_id, calendar, dataclasses.replace(fields, mood="busy"), text, None, updated_at=now)
    new = dataclasses.replace(fields, uid="x", mood="new")
    EventSql(conn).save_many(profile, "import", [(calendar, text, None, new)], [], now)
print(sorted(row[0] for row in store.conn.execute("SELECT mood FROM events")))
"""
    done = subprocess.run(
        [sys.executable, "-c", script, MOOD],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['busy',", "'new']"]
