"""Creating events from slots, with the rules that have one right answer kept in code.

``prepare_or_create`` either writes the event or parks the request as a *command stub*
(needs a date, conflicts, lies in the past, or is invalid) that later replies patch. The
write fact (``facts``) is set only after the transaction commits, because the agent's exit
guard trusts it over anything the model says.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agent.errors import StoreError
from agent.services.calendars import CalendarChoice, CalendarService
from agent.services.command_types import (
    ACTIVE,
    IDEMPOTENCY_WINDOW,
    MAX_DURATION_MINUTES,
    GroundingCheck,
    Outcome,
    Round,
    Stub,
    WriteFacts,
    same_title,
    stub_days,
    stub_from_row,
)
from agent.services.invitations import invite_people
from agent.services.queries import QueryService
from agent.services.repeat import Series, build_series, series_from_rule
from agent.services.settings import SettingsService
from agent.services.stub_rules import CHOOSING, Fit, fit_reply, map_loose
from agent.services.text import clean_title
from agent.store.changes import ChangeSet
from agent.store.components import build_event, wall_seconds
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.fields import Person, drafted, write
from agent.store.occurrence import Occurrence
from agent.store.read_only import ReadOnlyCalendars
from agent.timesym.context import TimeContext, day_start, local_datetime
from agent.timesym.grammar import SymbolError
from agent.timesym.recurrence import LUNAR_MARK, LUNAR_YEARLY, MARK_PROPERTY, Recurrence
from agent.timesym.resolve import resolve, resolve_time

__all__ = ["CommandService"]


MAX_SPAN_DAYS = 366  # an all-day event over more days than a year is a typo


class CommandService:
    def __init__(self, store: Store, profile_id: int, ctx: TimeContext, origin: str = "agent") -> None:
        self.store = store
        self.profile_id = profile_id
        self.ctx = ctx
        self.origin = origin
        self.facts = WriteFacts()
        self._staged: list[ChangeSet] = []  # written in the open transaction, not yet facts
        self._failed_base: Round | None = None
        self.calendars = CalendarService(store, profile_id)
        self.queries = QueryService(store, profile_id, ctx)
        self.settings = SettingsService(store, profile_id)
        self.events = EventRepo(store, profile_id)

    # ---- stubs --------------------------------------------------------------------------

    def expire_stale(self) -> None:
        now = self.ctx.now.astimezone(UTC).isoformat()
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE commands SET status = 'expired', updated_at = ? WHERE profile_id = ?"
                f" AND status IN ({', '.join('?' for _ in ACTIVE)}) AND expires_at <= ?",
                (now, self.profile_id, *ACTIVE, now),
            )

    def active_stub(self) -> Stub | None:
        """The one pending command, if it has not expired by this service's clock. Only
        reads: marking stale commands expired is ``expire_stale``, which the write paths
        below (and the start of a turn) call."""
        now = self.ctx.now.astimezone(UTC).isoformat()
        row = self.store.conn.execute(
            f"SELECT * FROM commands WHERE profile_id = ? AND status IN ({', '.join('?' for _ in ACTIVE)})"
            " AND expires_at > ? ORDER BY id DESC LIMIT 1",
            (self.profile_id, *ACTIVE, now),
        ).fetchone()
        return stub_from_row(row) if row else None

    def stub(self, command_id: int) -> Stub | None:
        row = self.store.conn.execute(
            "SELECT * FROM commands WHERE profile_id = ? AND id = ?", (self.profile_id, command_id)
        ).fetchone()
        return stub_from_row(row) if row else None

    def cancel_active(self) -> Outcome:
        self.expire_stale()
        stub = self.active_stub()
        if stub is None:
            return Outcome("none", message="there is no pending command to cancel")
        self._end_stub(stub.id, "cancelled")
        return Outcome("cancelled", title=stub.title, command_id=stub.id)

    def _end_stub(self, command_id: int, status: str, event_id: int | None = None) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE commands SET status = ?, event_id = COALESCE(?, event_id), updated_at = ? WHERE id = ?",
                (status, event_id, self.ctx.now.astimezone(UTC).isoformat(), command_id),
            )

    def _save_stub(self, stub_id: int | None, title: str, slots: dict[str, Any], outcome: Outcome) -> int:
        now = self.ctx.now.astimezone(UTC)
        ttl = timedelta(minutes=int(self.settings.get("command_ttl_minutes")))
        values = (
            title,
            json.dumps(slots, ensure_ascii=False),
            outcome.status,
            json.dumps([day.isoformat() for day in outcome.candidates]),
            now.isoformat(),
            (now + ttl).isoformat(),
        )
        with self.store.transaction() as conn:
            if stub_id is None:
                cur = conn.execute(
                    "INSERT INTO commands(profile_id, title, slots, status, candidates, updated_at, expires_at, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (self.profile_id, *values, now.isoformat()),
                )
                saved = int(cur.lastrowid or 0)
            else:
                conn.execute(
                    "UPDATE commands SET title = ?, slots = ?, status = ?, candidates = ?, updated_at = ?,"
                    " expires_at = ? WHERE id = ?",
                    (*values, stub_id),
                )
                saved = stub_id
        outcome.expires_at = now + ttl  # the stub's own expiry: the app's chip ends with it
        return saved

    # ---- the create round ---------------------------------------------------------------

    def prepare_or_create(
        self,
        title: str | None,
        date_expression: str | None,
        time: str | None = None,
        end_time: str | None = None,
        duration_minutes: int | None = None,
        calendar_name: str | None = None,
        allow_conflict: bool = False,
        check: GroundingCheck | None = None,
        *,
        repeat: str | None = None,
        repeat_until: str | None = None,
        repeat_count: int | None = None,
        rrule: str | None = None,
        zone: str | None = None,
        reminder_minutes: int | None = None,
        location: str | None = None,
        notes: str | None = None,
        last_day: date | None = None,
        fresh: bool = False,
        fields: Mapping[str, Any] | None = None,
        people: Sequence[Person] | None = None,
    ) -> Outcome:
        """First round, or a continuation of the active stub when the title matches (or is
        omitted). ``allow_conflict`` only counts when that stub is in ``conflict``; ``check``
        (the agent's grounding latch) may turn the write into an ``unconfirmed`` stub.
        ``fresh`` (quick add: a whole sentence that says everything) never continues a stub,
        so a pending "开会" at 15:00 cannot lend its time to a new "明天开会".

        ``rrule`` is a structured repeat (``Recurrence.to_rrule`` text, without its end when
        ``repeat_until``/``repeat_count`` say it) and wins over the ``repeat`` word; ``zone``
        (an IANA name) pins a timed event's clock times to that zone ("4pm CET"). ``fields``
        are the field table's fields without a column the event is written with, by name
        (quick add's ``#tags`` as ``{"categories": [...]}``; agent/store/fields.py). ``people``: the
        attendees the chat grounded (``services.invitations.invite_people`` writes them)."""
        given = {
            "date": date_expression,
            "time": time,
            "end_time": end_time,
            "duration_minutes": duration_minutes,
            "calendar": calendar_name,
            "repeat": repeat,
            "repeat_until": repeat_until,
            "repeat_count": repeat_count,
            "rrule": rrule,
            "zone": zone,
            "reminder": reminder_minutes,
            "location": clean_title(location) or None,
            "notes": (notes or "").strip()[:2000] or None,
            "last_day": last_day.isoformat() if last_day is not None else None,
            "fields": _given_fields(fields),
            "people": [{"email": p.email, "name": p.name} for p in people] if people else None,
        }
        self.expire_stale()
        stub = self.active_stub()
        if stub is not None and not fresh and (not title or same_title(title, stub.title)):
            slots = dict(stub.slots)
            if stub.status in CHOOSING:  # "W7" for a next-weekend stub is its Sunday
                given["date"] = map_loose(stub_days(stub.candidates), date_expression)
            for key, value in given.items():
                if value is not None:
                    slots[key] = value
            if given["date"] is not None:
                slots.pop("days", None)
            if end_time is not None and duration_minutes is None:
                slots.pop("duration_minutes", None)
            if duration_minutes is not None and end_time is None:
                slots.pop("end_time", None)
            return self._round(stub.id, stub.title, slots, allow_conflict and stub.status == "conflict", False, check=check)
        if stub is not None:
            self._end_stub(stub.id, "cancelled")
        slots = {key: value for key, value in given.items() if value is not None}
        return self._round(None, clean_title(title), slots, False, False, check=check)

    def continue_active(
        self,
        date: str | None = None,
        time: str | None = None,
        *,
        allow_conflict: bool = False,
        allow_past: bool = False,
    ) -> Outcome | None:
        """Merge a slot patch (from the clarification parser or a UI button) into the stub.

        Only the user's own input reaches this (a reply code parsed, a button), so it runs no
        grounding check: for an ``unconfirmed`` stub it *is* the confirmation."""
        self.expire_stale()
        stub = self.active_stub()
        if stub is None:
            return None
        slots = dict(stub.slots)
        if stub.status == "unconfirmed" and slots.get("people") and date is None and time is None:
            slots["send"] = True  # a plain yes to a question that listed who would be emailed (the go-ahead)
        if time is not None:
            slots["time"] = time
        if date is not None:
            # A reply may only choose among the days the stub offered (stub_rules.py).
            offered = stub_days(stub.candidates) or self._month_days(stub)
            fit = fit_reply(stub.status, offered, date, self.ctx)
            if fit.ask:
                return self._ask_again(stub, slots, fit, offered)
            if fit.symbol is not None:
                slots["date"] = fit.symbol
                slots.pop("days", None)
        return self._round(
            stub.id,
            stub.title,
            slots,
            allow_conflict and stub.status == "conflict",
            allow_past and stub.status == "past_time",
        )

    def _month_days(self, stub: Stub) -> list[date]:
        """A ``needs_date`` stub for a whole month (下个月体检) offers that month's days from
        today on, so "15号" cannot land in another month."""
        if stub.status != "needs_date" or not stub.slots.get("date"):
            return []
        try:
            resolved = resolve(str(stub.slots["date"]), self.ctx)
        except SymbolError:
            return []
        if resolved.kind != "month" or resolved.start is None or resolved.end is None:
            return []
        first = max(resolved.start.date(), self.ctx.today)
        return [first + timedelta(days=i) for i in range((resolved.end.date() - first).days)]

    def _ask_again(self, stub: Stub, slots: dict[str, Any], fit: Fit, offered: list[date]) -> Outcome:
        """The reply named no day the stub offered (or had two readings): nothing is
        written; the stub asks among ``fit.ask``, keeping any time the reply gave. A whole
        month is asked about again without listing its days."""
        whole = set(fit.ask) == set(offered)
        if not whole:
            slots.pop("date", None)
            slots["days"] = [day.isoformat() for day in fit.ask]
        choice = self.calendars.choose(slots.get("calendar"))
        future = [day for day in fit.ask if day >= self.ctx.today]
        outcome = Outcome(
            "needs_date",
            title=stub.title,
            candidates=[] if whole and not stub.candidates else future or list(fit.ask),
            rejected=list(fit.rejected),
            calendar=choice.calendar.name,
            requested_calendar=choice.requested,
            calendar_fell_back=choice.fell_back,
            today=self.ctx.today,
        )
        outcome.command_id = self._save_stub(stub.id, stub.title, slots, outcome)
        return outcome

    def _round(
        self,
        stub_id: int | None,
        title: str,
        slots: dict[str, Any],
        allow_conflict: bool,
        allow_past: bool,
        check: GroundingCheck | None = None,
    ) -> Outcome:
        """One create round as one transaction. The duplicate and conflict checks run inside
        the write's ``BEGIN IMMEDIATE``, so they see every write that committed before this
        one (four processes creating at once wrote duplicates when they ran outside it). The
        write fact is set only after COMMIT: the exit guard trusts it."""
        self._staged = []
        self._failed_base = None
        try:
            with self.store.transaction():
                outcome = self._round_in(stub_id, title, slots, allow_conflict, allow_past, check)
        except (sqlite3.Error, StoreError) as exc:
            self._staged = []
            return self._unsaved(stub_id, title, slots, exc)
        for changes in self._staged:  # reached only after COMMIT succeeded
            self.facts.changes.extend(changes)
            self.facts.event_ids += [change.event_id for change in changes.created if change.event_id]
        self._staged = []
        return outcome

    def _unsaved(self, stub_id: int | None, title: str, slots: dict[str, Any], exc: Exception) -> Outcome:
        """The round's transaction rolled back: nothing of it stands. Say so, keep the stub."""
        base = self._failed_base or Round(title, self.ctx.today)
        outcome = base.outcome("invalid", message=f"the event could not be saved: {exc}")
        try:
            outcome.command_id = self._save_stub(stub_id, title, slots, outcome)
        except (sqlite3.Error, StoreError):
            outcome.command_id = stub_id
        return outcome

    def _round_in(
        self,
        stub_id: int | None,
        title: str,
        slots: dict[str, Any],
        allow_conflict: bool,
        allow_past: bool,
        check: GroundingCheck | None,
    ) -> Outcome:
        outcome = self._evaluate(title, slots, allow_conflict, allow_past, stub_id, check)
        if outcome.status == "created":
            if stub_id is not None and outcome.deduplicated:
                self._end_stub(stub_id, "created", outcome.event.event_id if outcome.event else None)
            outcome.command_id = stub_id
            return outcome
        if slots.get("end_time") is not None and slots.get("duration_minutes") is not None:
            # Keeping both would make every later round invalid; the next round restates one.
            slots = {key: value for key, value in slots.items() if key not in ("end_time", "duration_minutes")}
        outcome.command_id = self._save_stub(stub_id, title, slots, outcome)
        return outcome

    def _evaluate(
        self,
        title: str,
        slots: dict[str, Any],
        allow_conflict: bool,
        allow_past: bool,
        stub_id: int | None = None,
        check: GroundingCheck | None = None,
    ) -> Outcome:
        choice = self.calendars.choose(slots.get("calendar"))
        # A read-only calendar is refused before any question is asked about the event (the
        # store would refuse the write anyway: agent/store/read_only.py).
        ReadOnlyCalendars(self.store, self.profile_id).check(choice.calendar.id)
        base = Round(title, self.ctx.today, choice.calendar.name, choice.requested, choice.fell_back)
        if not title:
            return base.outcome("invalid", message="title is required: a short name for the event")
        try:
            day, day_candidates, start_time = self._date(slots.get("date"))
            if day is None and not day_candidates and slots.get("days"):
                day_candidates = stub_days(slots["days"])  # the days a re-ask offered
            if slots.get("time") is not None:
                start_time = resolve_time(str(slots["time"]))
            end_time = resolve_time(str(slots["end_time"])) if slots.get("end_time") is not None else None
        except SymbolError as exc:
            return base.outcome("invalid", message=str(exc))
        base.extras = {"people": slots["people"]} if slots.get("people") else {}  # a question lists them too
        if check is not None:
            reasons = check(title, day, start_time)
            if reasons:
                # Ask first: the user's words this turn do not support this write.
                asked = [day] if day is not None else [d for d in day_candidates if d >= self.ctx.today]
                return base.outcome("unconfirmed", candidates=asked, message="; ".join(reasons), reasons=reasons)
        if day is None:
            future = [d for d in day_candidates if d >= self.ctx.today]
            if len(future) == 1:
                day = future[0]
            elif not future and day_candidates:
                return base.outcome("past_time", candidates=day_candidates, message="every candidate day has passed")
            else:
                return base.outcome("needs_date", candidates=future)
        duration = slots.get("duration_minutes")
        if end_time is not None and duration is not None:
            return base.outcome("invalid", message="give endTime or durationMinutes, not both")
        if duration is not None and not (isinstance(duration, int) and 1 <= duration <= MAX_DURATION_MINUTES):
            return base.outcome("invalid", message=f"durationMinutes must be a whole number from 1 to {MAX_DURATION_MINUTES}")
        start: datetime | date
        end: datetime | date
        if start_time is None:
            if end_time is not None:
                return base.outcome("invalid", message="endTime needs a start time")
            start, end = day, day + timedelta(days=1)
            if slots.get("last_day"):  # an all-day span over several days (quick add's 下周一到下周三)
                last = date.fromisoformat(str(slots["last_day"]))
                if not day <= last <= day + timedelta(days=MAX_SPAN_DAYS - 1):
                    message = f"the last day must be on or after the first, at most {MAX_SPAN_DAYS} days"
                    return base.outcome("invalid", message=message)
                end = last + timedelta(days=1)
        else:
            try:
                zone = ZoneInfo(str(slots["zone"])) if slots.get("zone") else self.ctx.tz
            except (ZoneInfoNotFoundError, ValueError):
                return base.outcome("invalid", message=f"unknown time zone {slots['zone']!r}")
            start = local_datetime(day, start_time, zone)
            if end_time is not None:
                end = local_datetime(day, end_time, zone)
                if end <= start:
                    return base.outcome(
                        "invalid",
                        message=f"endTime {end_time:%H:%M} is not after time {start_time:%H:%M}; "
                        "for an event past midnight give durationMinutes instead",
                    )
            else:
                minutes = duration or int(self.settings.get("default_duration_minutes"))
                end = start + timedelta(minutes=minutes)
        series: Series | None = None
        if slots.get("rrule") or slots.get("repeat"):
            try:
                if slots.get("rrule"):
                    rule = Recurrence.from_rrule(str(slots["rrule"]), self.ctx.tz)
                    series = series_from_rule(rule, start, self.ctx, slots.get("repeat_until"), slots.get("repeat_count"))
                else:
                    series = build_series(
                        str(slots["repeat"]), start, self.ctx, slots.get("repeat_until"), slots.get("repeat_count")
                    )
            except (SymbolError, ValueError) as exc:
                return base.outcome("invalid", message=str(exc))
            if series.start is not None and series.start != start:  # moved onto the pattern's first day
                end = series.start + (end - start)
                start = series.start
            base.series = series.to_json()
        kept = ("reminder", "location", "notes", "fields", "people", "send")
        base.extras = {key: slots[key] for key in kept if slots.get(key) is not None}
        base.start, base.end = start, end
        existing = self._duplicate(title, start, end, choice)
        if existing is not None:
            return base.outcome("created", event=existing, deduplicated=True)
        if not allow_past and self._in_past(start):
            return base.outcome("past_time", candidates=[day])
        if isinstance(start, datetime) and not allow_conflict:
            assert isinstance(end, datetime)
            conflicts = self.queries.busy(start, end)
            if conflicts:
                return base.outcome("conflict", candidates=[day], conflicts=conflicts)
        return self._write(title, start, end, choice, base, stub_id, series)

    def _date(self, symbol: Any) -> tuple[date | None, list[date], time | None]:
        """(the day if exactly one, else None; candidate days; the time an instant carried)."""
        if symbol is None or not str(symbol).strip():
            return None, [], None
        resolved = resolve(str(symbol), self.ctx)
        if resolved.kind == "time":
            raise SymbolError(str(symbol), "services.date_is_time", symbol=symbol)
        if resolved.kind == "instant":
            assert resolved.start is not None
            local = resolved.start.astimezone(self.ctx.tz)
            return local.date(), [local.date()], resolved.time
        if resolved.kind == "day":
            return resolved.candidates[0], list(resolved.candidates), None
        if resolved.kind == "month":
            return None, [], None
        return None, list(resolved.candidates), None

    def _stamp(self) -> str:
        """``created_at`` of an event this service writes: its clock, like ``_duplicate``."""
        return self.ctx.now.astimezone(UTC).isoformat(timespec="microseconds")

    def _in_past(self, start: datetime | date) -> bool:
        if isinstance(start, datetime):
            return start < self.ctx.now
        return start < self.ctx.today

    def _duplicate(self, title: str, start: datetime | date, end: datetime | date, choice: CalendarChoice) -> Occurrence | None:
        """The same create within ten minutes returns the event already written."""
        floating = not isinstance(start, datetime)
        start_ts = wall_seconds(start) if floating else int(start.timestamp())  # type: ignore[union-attr]
        end_ts = wall_seconds(end) if floating else int(end.timestamp())  # type: ignore[union-attr]
        # The service's clock, as for the stamp ``_write`` puts on the event: one clock, so
        # the window never depends on the machine's real time (tests fix ``ctx.now``).
        since = (self.ctx.now.astimezone(UTC) - IDEMPOTENCY_WINDOW).isoformat(timespec="microseconds")
        row = self.store.conn.execute(
            "SELECT id FROM events WHERE profile_id = ? AND title = ? AND start_ts = ? AND end_ts = ?"
            " AND floating = ? AND calendar_id = ? AND created_at >= ? AND recurrence_id = ''",
            (self.profile_id, title, start_ts, end_ts, int(floating), choice.calendar.id, since),
        ).fetchone()
        return self._occurrence(int(row["id"]), start, end) if row else None

    def _occurrence(self, event_id: int, start: datetime | date, end: datetime | date) -> Occurrence | None:
        lo = start if isinstance(start, datetime) else day_start(start, self.ctx.tz)
        hi = end if isinstance(end, datetime) else day_start(end, self.ctx.tz)
        hi = max(hi, lo + timedelta(seconds=1))
        for occ in self.queries.between(lo, hi, include_cancelled=True):
            if occ.event_id == event_id:
                return occ
        return None

    def _write(
        self,
        title: str,
        start: datetime | date,
        end: datetime | date,
        choice: CalendarChoice,
        base: Round,
        stub_id: int | None = None,
        series: Series | None = None,
    ) -> Outcome:
        extras = base.extras
        reminder = extras.get("reminder")
        component = build_event(
            title,
            start,
            end,
            description=str(extras.get("notes") or ""),
            location=str(extras.get("location") or ""),
            rrule=series.rrule if series is not None else None,
            alarm_minutes=[int(reminder)] if reminder is not None else None,
        )
        for name, value in dict(extras.get("fields") or {}).items():  # the tags …, under the table's property
            write(component, name, value)
        if extras.get("people"):
            people = [Person(str(p["email"]), str(p.get("name") or "")) for p in extras["people"]]
            send = bool(extras.get("send"))
            extras["invite"] = invite_people(self.store, self.profile_id, component, people, choice.calendar.id, send)
        if series is not None and series.rdates:
            component.add("RDATE", series.rdates)
        if series is not None and series.kind == LUNAR_YEARLY:
            component.add(MARK_PROPERTY, LUNAR_MARK)  # every reader (the editor too) knows it is 农历
        self._failed_base = base
        # Joins the round's transaction: the event, the end of the stub it completes and the
        # checks that allowed them commit as one; an error rolls all of it back (``_round``).
        with self.store.transaction():
            changes = self.events.save(component, choice.calendar.id, self.origin, created_at=self._stamp())
            if stub_id is not None:
                created = changes.created[0].event_id if changes.created else None
                self._end_stub(stub_id, "created", created)
        self._staged.append(changes)  # becomes the write fact after COMMIT
        event_id = changes.created[0].event_id if changes.created else None
        event = self._occurrence(int(event_id), start, end) if event_id else None
        return base.outcome("created", event=event)


def _given_fields(fields: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The table fields a create was given, as a stub's slots keep them (JSON: a list for a
    list field), without the empty ones; None for none. An unknown name is a TypeError."""
    values = {name: list(value) if isinstance(value, tuple) else value for name, value in drafted(fields or {}).items() if value}
    return values or None
