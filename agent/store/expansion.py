"""Materialising series: each recurring event's instances as rows of ``occurrences``.

Series are expanded by ``recurring-ical-events`` into the ``occurrences`` table up to a
horizon that moves forward when a query looks further ahead (``ensure_expanded``), so a
month view reads one index range instead of expanding a thousand rules on every paint.
Expansion is bounded (docs/ics.md, "Bounded recurrence"): a step writes at most
``MAX_INSTANCES_PER_CHUNK`` instances and a series never more than ``MAX_SERIES_INSTANCES``.
``EventRepo`` (agent/store/events.py) calls this after every write; the rows are written
through ``EventSql`` like every other event row.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple
from zoneinfo import ZoneInfo

from agent.lazy import lazy_module

if TYPE_CHECKING:
    import icalendar
    import recurring_ical_events
else:  # on first use: a range query needs neither (start-up, issue 14)
    icalendar = lazy_module("icalendar", __name__)
    recurring_ical_events = lazy_module("recurring_ical_events", __name__)

from agent.store.components import (
    excluded_single,
    from_wall_seconds,
    index_fields,
    parse_component,
    recurrence_key,
    span_columns,
    wall_seconds,
)
from agent.store.db import Store
from agent.store.event_sql import EventSql, OccurrenceRow
from agent.store.recurrence import Dates, InstanceBudget, Walk, bound

HORIZON = timedelta(days=2 * 365)
EXTEND_BY = timedelta(days=365)
# Bounded recurrence (docs/ics.md): one expansion step (a window) writes at most this many
# instances of a series, and a series never has more than MAX_SERIES_INSTANCES in all; the
# rest is not shown, and the event says so (``capped``). 20,000 is a daily event for 54
# years or an hourly one for 2.3, and a month view of it still paints in well under a second.
MAX_INSTANCES_PER_CHUNK = 5000
MAX_SERIES_INSTANCES = 20_000
MAX_STEPS = 64  # steps of one extension; the caps end it long before
DAY = 86400


@dataclass
class _Progress:
    """How far a series got: instances materialised, each RRULE's resume point, the cap.

    Stored as JSON in ``events.expansion`` of the master; ``rules`` holds, per RRULE, the
    last instance made before ``expanded_until`` (naive ISO) and how many came before it."""

    materialised: int = 0
    rules: list[Any] | None = None
    capped_at: int | None = None

    def to_json(self) -> str:
        return json.dumps({"n": self.materialised, "rules": self.rules, "capped_at": self.capped_at})

    @classmethod
    def from_json(cls, text: str | None) -> _Progress:
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        rules = data.get("rules")
        capped_at = data.get("capped_at")
        return cls(
            int(data.get("n") or 0),
            rules if isinstance(rules, list) else None,
            int(capped_at) if isinstance(capped_at, int) else None,
        )


@dataclass
class _Run:
    """One series being expanded in this process: its query, walks and override rows."""

    master: sqlite3.Row
    query: Any
    walks: list[Walk | Dates]
    overrides: dict[str, sqlite3.Row]
    by_adapter: dict[int, sqlite3.Row]
    floating: bool
    master_cancelled: bool
    suppressed: tuple[type[BaseException], ...]
    tzinfo: Any
    excluded: int
    removable: int  # instances EXDATEs and overrides can take away (``_reaches_cap``)
    by_rows: bool  # overrides are placed from their rows, not by recurring-ical-events
    override_keys: dict[str, sqlite3.Row]  # every form of an override's id -> its row
    placed: list[tuple[int, sqlite3.Row]]  # (start, row) of shown overrides, by start
    placed_starts: list[int]

    def moment(self, ts: int) -> datetime:
        """``ts`` (the master's kind of seconds) as the walks' kind of datetime."""
        if self.floating:
            wall = from_wall_seconds(ts)
            return wall.replace(tzinfo=self.tzinfo) if self.tzinfo is not None else wall
        instant = datetime.fromtimestamp(ts, UTC)
        return instant if self.tzinfo is not None else instant.replace(tzinfo=None)

    def seconds(self, value: datetime) -> int:
        if self.floating or value.tzinfo is None:
            return wall_seconds(value)
        return int(value.timestamp())


class CapNote(NamedTuple):
    """A capped series: how many instances exist, and the start (the master's kind of
    seconds: UTC, or wall seconds when floating) from which no more are shown."""

    shown: int
    hidden_from: int | None
    floating: bool

    def text(self, tz: ZoneInfo | None = None) -> str:
        """The English note for reports; the editor words it in zh or en itself."""
        when = ""
        if self.hidden_from is not None:
            moment = (
                from_wall_seconds(self.hidden_from)
                if self.floating or tz is None
                else (datetime.fromtimestamp(self.hidden_from, tz).replace(tzinfo=None))
            )
            when = f" (nothing from {moment:%Y-%m-%d %H:%M} on)"
        return (
            f"this series repeats more often than Richeng expands: only its first {self.shown} "
            f"instances are shown{when}; the event itself is kept whole"
        )


class Expander:
    """The instances of one profile's series; runs inside the caller's transaction
    (``ensure_expanded`` opens its own, joining an outer one)."""

    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id

    @property
    def sql(self) -> EventSql:
        return EventSql(self.store.conn)

    def _row_by_id(self, event_id: int) -> sqlite3.Row | None:
        return self.store.conn.execute(
            "SELECT * FROM events WHERE profile_id = ? AND id = ?", (self.profile_id, event_id)
        ).fetchone()

    def materialize(
        self,
        uid: str,
        horizon_ts: int | None = None,
        *,
        components: Mapping[str, icalendar.Event] | None = None,
        query: Any = None,
    ) -> None:
        """Rebuild every occurrence of ``uid`` (master, overrides, or a single event).

        ``components`` (by recurrence id) lets a caller that has just parsed the rows, the
        importer, spare parsing each stored text again; ``query`` is a recurring-ical-events
        query it already built from exactly these rows. A series is expanded up to the
        horizon in steps of at most ``MAX_INSTANCES_PER_CHUNK`` and never past
        ``MAX_SERIES_INSTANCES`` in all (see ``_advance``).
        """
        rows = self._series_rows(uid)
        self.sql.clear_occurrences(self.profile_id, uid)
        if not rows:
            return
        master = rows[0] if rows[0]["recurrence_id"] == "" else None
        if master is None or not (master["rrule"] or master["rdate"]):
            # Singles, and overrides whose master we do not have: each stands alone.
            alone: list[OccurrenceRow] = []
            for row in rows:
                # A single whose EXDATE names its DTSTART has no instance (RFC 5545).
                excluded = bool(row["exdate"]) and not row["recurrence_id"] and excluded_single(parse_component(row["ics"]))
                if row["status"] != "CANCELLED" and not excluded:
                    alone.append((self.profile_id, row["id"], row["id"], row["floating"], row["start_ts"], row["end_ts"], None))
            self.sql.insert_occurrences(alone)
            self.sql.reset_expansion(row["id"] for row in rows)
            return
        if horizon_ts is None:
            horizon_ts = max(int(time.time()), master["start_ts"]) + int(HORIZON.total_seconds())
        # An override may be moved before the series starts or past the horizon; its
        # instance must still be found (the day of slack also covers floating vs UTC).
        horizon_ts = max(horizon_ts, max(row["start_ts"] for row in rows) + DAY)
        start_ts = min(row["start_ts"] for row in rows) - DAY
        run = self._run(master, rows, components, query, None)
        self._advance(run, _Progress(), start_ts, horizon_ts, lazy=True)

    def _series_rows(self, uid: str) -> list[sqlite3.Row]:
        """The rows of ``uid`` as expansion reads them (``_SERIES_ROWS``)."""
        return self.store.conn.execute(_SERIES_ROWS, (self.profile_id, uid)).fetchall()

    def _text(self, row: sqlite3.Row) -> str:
        """A series row's stored text (``_SERIES_ROWS`` leaves out plain overrides')."""
        if row["ics"] is not None:
            return str(row["ics"])
        (text,) = self.store.conn.execute("SELECT ics FROM events WHERE id = ?", (row["id"],)).fetchone()
        return str(text)

    def _run(
        self,
        master: sqlite3.Row,
        rows: list[sqlite3.Row],
        components: Mapping[str, icalendar.Event] | None,
        query: Any,
        resume: list[Any] | None,
    ) -> _Run:
        """Everything one series' expansion needs, built once per process and series.

        Overrides that only move or change one instance (the usual kind) are not given to
        recurring-ical-events: their rows already hold their times and status, and a query
        holding 100,000 of them would loop over all of them for every window. Only a
        THISANDFUTURE override or one with its own rule goes through the library.
        """
        plain = all(_plain_override(row) for row in rows if row["recurrence_id"])
        if query is None:
            calendar = icalendar.Calendar()
            parsed = components or {}
            for row in rows:
                if plain and row["recurrence_id"]:
                    continue
                calendar.add_component(parsed.get(row["recurrence_id"]) or parse_component(self._text(row)))
            query = recurring_ical_events.of(calendar, skip_bad_series=True)
        overrides = {row["recurrence_id"]: row for row in rows if row["recurrence_id"]}
        by_rows = not any(series.modifications for series in query.series)
        placed: list[tuple[int, sqlite3.Row]] = []
        keys: dict[str, sqlite3.Row] = {}
        if by_rows and overrides:
            # An instance is overridden when any form of its id matches, as in the library:
            # the UTC key, or the override's RECURRENCE-ID as written (local wall time, and
            # the bare day of a midnight one, which is how an all-day master's id reads).
            for rid, row in overrides.items():
                keys[rid] = row
                written = _RID_VALUE.search(row["rid_line"] or "")
                if written:
                    value = written.group(1).rstrip("Z")
                    keys.setdefault(value, row)
                    if value.endswith("T000000"):
                        keys.setdefault(value[:8], row)
            cut = _exdate_keys(query)
            placed = sorted(
                ((row["start_ts"], row) for rid, row in overrides.items()
                 if row["status"] != "CANCELLED" and rid not in cut and rid[:8] not in cut),
                key=lambda pair: pair[0],
            )  # fmt: skip
        # Instances an EXDATE or an override takes away still cost a step of the walk.
        exdates = sum(len(line.split(",")) for line in (master["exdate"] or "").splitlines())
        excluded = len(overrides) + exdates
        # Of those, what can make fewer instances: an override placed from its row stands in
        # for its instance one for one, so only a cancelled one takes an instance away.
        removable = excluded
        if by_rows:
            removable = exdates + sum(1 for row in overrides.values() if row["status"] == "CANCELLED")
        walks = bound(query, MAX_SERIES_INSTANCES + excluded + 2 * MAX_INSTANCES_PER_CHUNK, resume)
        by_adapter: dict[int, sqlite3.Row] = {}
        tzinfo = None
        for series in query.series:
            tzinfo = tzinfo or getattr(series.recurrence, "tzinfo", None)
            for adapter in series.modifications:
                component = adapter._component
                if component.get("RECURRENCE-ID") is None:
                    continue
                found = overrides.get(recurrence_key(component.decoded("RECURRENCE-ID")))
                if found is not None:
                    by_adapter[id(adapter)] = found
        return _Run(
            master=master,
            query=query,
            walks=walks,
            overrides=overrides,
            by_adapter=by_adapter,
            floating=bool(master["floating"]),
            master_cancelled=str(master["status"]).upper() == "CANCELLED",
            suppressed=tuple(query.suppressed_errors),
            tzinfo=tzinfo,
            excluded=excluded,
            removable=removable,
            by_rows=by_rows,
            override_keys=keys,
            placed=placed,
            placed_starts=[start for start, _ in placed],
        )

    def _advance(self, run: _Run, progress: _Progress, from_ts: int, to_ts: int, *, lazy: bool = False) -> None:
        """Expand ``run``'s series over [from_ts, to_ts) step by step and record where it got.

        Each step writes at most ``MAX_INSTANCES_PER_CHUNK`` instances; the series stops
        for good (``capped``) at ``MAX_SERIES_INSTANCES``, or when its walks exceed their
        budget. Otherwise ``expanded_until`` and the walks' resume points are stored so that
        a later query extends the series from there, not from DTSTART. ``lazy`` (a first
        expansion, e.g. on import) stops after one step unless the series would reach the
        cap before ``to_ts`` anyway: then it is capped now, so the import can say so.
        """
        reached, capped = from_ts, False
        for _ in range(MAX_STEPS):
            reached, capped = self._step(run, progress, reached, to_ts)
            if capped or reached >= to_ts:
                break
            if lazy and not _reaches_cap(run, to_ts):
                break
        master = run.master
        if capped:
            self.sql.set_expansion(master["id"], None, progress.to_json(), capped=True)
            return
        complete = False
        if reached >= to_ts and _series_is_finite(master):
            moment = run.moment(to_ts - DAY)
            try:
                complete = not any(walk.has_after(moment) for walk in run.walks)
            except InstanceBudget:
                complete = False
        if complete:
            self.sql.reset_expansion([master["id"]])
            return
        before = run.moment(reached - DAY)
        progress.rules = [walk.progress(before) for walk in run.walks[1:]]
        self.sql.set_expansion(master["id"], reached, progress.to_json(), capped=False)

    def _step(self, run: _Run, progress: _Progress, from_ts: int, to_ts: int) -> tuple[int, bool]:
        """Materialise up to one chunk of instances starting at ``from_ts``.

        Windows are sized by the walks (up to the instance that fills the chunk), so a
        dense rule costs one pass per chunk instead of a search. Returns how far instances
        now exist and whether the series is capped.
        """
        room = min(MAX_INSTANCES_PER_CHUNK, MAX_SERIES_INSTANCES - progress.materialised)
        if room <= 0:
            moment = run.moment(from_ts)
            try:
                following = [found for found in (walk.nth_from(moment, 1) for walk in run.walks) if found is not None]
            except InstanceBudget:
                following = [moment]
            if following:
                progress.capped_at = max(from_ts, run.seconds(min(following)))
                return from_ts, True
            return to_ts, False
        batch: list[tuple[int, int, int, int, int, int, str | None]] = []
        low, capped = from_ts, False
        while low < to_ts and len(batch) < room:
            try:
                high = self._window_end(run, low, to_ts, room - len(batch))
                batch.extend(self._window(run, low, high))
            except InstanceBudget:
                progress.capped_at, capped = low, True
                break
            low = high
        left = MAX_SERIES_INSTANCES - progress.materialised
        if len(batch) > left:
            batch.sort(key=lambda row: row[4])
            progress.capped_at, capped = batch[left][4], True
            del batch[left:]
        self.sql.insert_occurrences(batch)
        progress.materialised += len(batch)
        return low, capped

    @staticmethod
    def _window_end(run: _Run, low: int, to_ts: int, room: int) -> int:
        """The end of a window from ``low`` holding about ``room`` generated instances."""
        moment, stop = run.moment(low), run.moment(to_ts)
        ends = [end for end in (walk.nth_from(moment, room, stop) for walk in run.walks) if end is not None]
        if not ends:
            return to_ts
        return min(to_ts, max(low + 1, run.seconds(min(ends)) + 1))

    def _window(self, run: _Run, low: int, high: int) -> list[tuple[int, int, int, int, int, int, str | None]]:
        """Occurrence rows starting in [low, high).

        Reads recurring-ical-events' occurrences (start, end) instead of asking it for a
        copied component per instance; an instance that is an override takes its times and
        status from the override's own row, and only instances shaped by a THISANDFUTURE
        override become components.
        """
        if run.floating:
            span = (from_wall_seconds(low), from_wall_seconds(high))
        else:
            span = (datetime.fromtimestamp(low, UTC), datetime.fromtimestamp(high, UTC))
        out: list[tuple[int, int, int, int, int, int, str | None]] = []
        master_id = run.master["id"]
        for series in run.query.series:
            try:
                for occurrence in series.between(*span):
                    adapter = occurrence._adapter
                    row = run.by_adapter.get(id(adapter))
                    if row is not None and occurrence.start is adapter.start:
                        if not low <= row["start_ts"] < high or row["status"] == "CANCELLED":
                            continue
                        out.append(
                            (
                                self.profile_id,
                                master_id,
                                row["id"],
                                row["floating"],
                                row["start_ts"],
                                row["end_ts"],
                                row["recurrence_id"],
                            )
                        )
                        continue
                    if occurrence.recurrence_ids:
                        instance = occurrence.as_component(False)
                        fields = index_fields(instance)
                        is_floating, start_ts, end_ts = fields.floating, fields.start_ts, fields.end_ts
                        cancelled = str(instance.get("STATUS") or "").upper() == "CANCELLED"
                        rid_value = instance.decoded("RECURRENCE-ID") if instance.get("RECURRENCE-ID") else None
                        rid = recurrence_key(rid_value) if rid_value is not None else None
                    else:
                        _, is_floating, start_ts, end_ts, _ = span_columns(occurrence.start, occurrence.end)
                        cancelled = run.master_cancelled
                        rid = recurrence_key(occurrence.start)
                        if run.override_keys and (rid in run.override_keys or _wall_key(occurrence.start) in run.override_keys):
                            continue  # the override's own row stands in for it, below
                    if not low <= start_ts < high or cancelled:
                        continue
                    row = run.overrides.get(rid or "")
                    event_id = row["id"] if row is not None else master_id
                    out.append((self.profile_id, master_id, event_id, int(is_floating), start_ts, end_ts, rid))
            except run.suppressed:
                continue
        if run.placed:
            for _, row in run.placed[bisect_left(run.placed_starts, low) : bisect_left(run.placed_starts, high)]:
                out.append((self.profile_id, master_id, row["id"], row["floating"], row["start_ts"], row["end_ts"],
                            row["recurrence_id"]))  # fmt: skip
        return out

    def ensure_expanded(self, until_utc: int) -> None:
        """Extend open-ended series whose occurrences stop before ``until_utc``.

        Each series resumes where its last expansion stopped (its walks restart at the last
        instance they had made), so a query far ahead costs the instances in between, not a
        walk from DTSTART; a capped series is never extended. Floating series compare wall
        seconds with UTC seconds; a day of slack covers every zone offset, and expanding a
        little further than needed is harmless.
        """
        conn = self.store.conn
        limit = until_utc + DAY
        stale = conn.execute(
            "SELECT id FROM events WHERE profile_id = ? AND expanded_until IS NOT NULL AND expanded_until < ?",
            (self.profile_id, limit),
        ).fetchall()
        if not stale:
            return
        target = limit + int(EXTEND_BY.total_seconds())
        with self.store.transaction():
            for (master_id,) in stale:
                master = self._row_by_id(master_id)
                if master is None or master["expanded_until"] is None:
                    continue
                rows = self._series_rows(master["uid"])
                progress = _Progress.from_json(master["expansion"])
                if progress.materialised == 0:  # a row expanded before progress was recorded
                    (progress.materialised,) = conn.execute(
                        "SELECT COUNT(*) FROM occurrences WHERE series_id = ?", (master_id,)
                    ).fetchone()
                run = self._run(master, rows, None, None, progress.rules)
                self._advance(run, progress, master["expanded_until"], target)

    def capped(self, uid: str) -> CapNote | None:
        """Whether the series ``uid`` stopped at the cap, and from when nothing is shown.

        For the editor and the import report: a capped series has more instances than
        Richeng materialises (``MAX_SERIES_INSTANCES``)."""
        row = self.store.conn.execute(
            "SELECT capped, expansion, floating FROM events WHERE profile_id = ? AND uid = ? AND recurrence_id = ''",
            (self.profile_id, uid),
        ).fetchone()
        if row is None or not row["capped"]:
            return None
        progress = _Progress.from_json(row["expansion"])
        return CapNote(progress.materialised, progress.capped_at, bool(row["floating"]))


_RID_VALUE = re.compile(r"^RECURRENCE-ID[^:\r\n]*:([0-9TZ]+)", re.MULTILINE | re.IGNORECASE)
# The rows of one UID as its expansion reads them. Texts are loaded only where expansion
# may parse them (the master, singles with EXDATE, overrides with a rule or THISANDFUTURE;
# ``_text`` fetches any other if a series needs it): 100,000 plain overrides' full rows were
# 150 MB. Of a plain override's text only its RECURRENCE-ID line is read, cut out here.
_RID_AT = "instr(upper(ics), char(10) || 'RECURRENCE-ID') + 1"
_SERIES_ROWS = (
    "SELECT id, uid, recurrence_id, rrule, rdate, exdate, status, floating, start_ts, end_ts, expanded_until,"
    " expansion, CASE WHEN recurrence_id = '' OR rrule IS NOT NULL OR rdate IS NOT NULL OR exdate IS NOT NULL"
    " OR instr(upper(ics), 'THISANDFUTURE') > 0 THEN ics END AS ics,"
    f" CASE WHEN recurrence_id != '' THEN substr(ics, {_RID_AT}, instr(substr(ics, {_RID_AT}), char(10))) END"
    " AS rid_line FROM events WHERE profile_id = ? AND uid = ? ORDER BY recurrence_id"
)


def _wall_key(value: date | datetime) -> str:
    """An instance's id as its own wall clock reads it (the library's second form)."""
    if isinstance(value, datetime):
        return f"{value.year:04d}{value.month:02d}{value.day:02d}T{value.hour:02d}{value.minute:02d}{value.second:02d}"
    return f"{value.year:04d}{value.month:02d}{value.day:02d}"


def _plain_override(row: sqlite3.Row) -> bool:
    """An override that changes only its own instance: no rule of its own, no RANGE."""
    return not (row["rrule"] or row["rdate"]) and "THISANDFUTURE" not in (row["ics"] or "").upper()


def _exdate_keys(query: Any) -> set[str]:
    """The master's EXDATEs as recurrence keys (and bare days for date EXDATEs): an
    override of an excluded instance is not shown, as recurring-ical-events has it."""
    keys: set[str] = set()
    for series in query.series:
        recurrence = series.recurrence
        for value in getattr(recurrence, "exdates", ()):
            keys.add(recurrence_key(value))
        for value in getattr(recurrence, "check_exdates_date", ()):
            keys.add(recurrence_key(value))
    return keys


def _reaches_cap(run: _Run, to_ts: int) -> bool:
    """Whether the series makes more than ``MAX_SERIES_INSTANCES`` instances before ``to_ts``
    (counting what EXDATEs and cancelling overrides may take away as made), generating at
    most that. Overrides placed from their rows replace their instances and are not counted:
    100,000 of them would otherwise make it walk 120,000 instances to learn what 20,001 tell."""
    limit = MAX_SERIES_INSTANCES + run.removable + 1
    moment = run.moment(to_ts)
    try:
        return sum(walk.count_before(moment, limit) for walk in run.walks) >= limit
    except InstanceBudget:
        return True


def _series_is_finite(master: sqlite3.Row) -> bool:
    """A series ends when every RRULE has COUNT or UNTIL (RDATE-only series always end)."""
    rules = (master["rrule"] or "").splitlines()
    return all("COUNT=" in rule.upper() or "UNTIL=" in rule.upper() for rule in rules)
