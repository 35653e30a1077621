"""Changing and deleting existing events from the chat: code finds, checks, asks, writes.

The model sends the user's words for the event and the new values (``update_schedule`` /
``delete_schedule``); it never sees or sends an id. This service:

1. finds the event (``targets.find_targets``): none → nothing changes, the receipt says what
   was searched; several → nothing changes, a pending *choice* lists them;
2. asks first (a pending *confirmation*) when the change is broad or not clearly the user's:
   deleting a series (``following``/``all``), moving more than one event (a series move),
   a target found only by the fuzzy tier, or a value the grounding latch could not find in
   the user's words this turn (``reasons`` from the toolset);
3. re-checks conflicts for a move (a pending *conflict*, overridden only when code asked);
4. writes through ``EditService`` — the editor's own path, so scopes behave as in the UI —
   in one transaction, whose ``ChangeSet`` becomes the turn's write fact only after COMMIT.

Pending edits live in the ``commands`` table with ``kind = 'edit'`` (statuses ``choose``,
``confirm``, ``edit_conflict``); the create flow never sees them. Answers — a button, a short
yes/no, "第二个", "10点那个" — are applied here with zero model calls (``answer``/``act``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

import icalendar

from agent.errors import StoreError, UserFacingError
from agent.messages.catalogue import is_code, render
from agent.services.calendars import CalendarService
from agent.services.command_types import WriteFacts
from agent.services.editing import EditService
from agent.services.invitations import answer_invitation, invitations_among
from agent.services.queries import QueryService
from agent.services.settings import SettingsService
from agent.services.targets import MAX_OPTIONS, Search, as_option, find_targets, fold, pick_choice, refind
from agent.services.text import clean_title
from agent.services.wording import confirmation_answer
from agent.store import journal_record
from agent.store.changes import ChangeSet
from agent.store.components import set_alarms
from agent.store.fields import read, write
from agent.store.occurrence import Occurrence
from agent.store.read_only import ReadOnlyCalendars
from agent.timesym.context import TimeContext, local_datetime
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve, resolve_time

PENDING = ("choose", "confirm", "edit_conflict")
#: Reasons (from the grounding latch) that are answered from the store with nothing pending:
#: a negated change (不要取消) or a question about the event (取消了吗) leaves no "yes" that
#: could write.
ANSWER_KINDS = ("negated", "question", "conditional")
#: A check of the one event found, against the user's words (the runtime's latch):
#: ``(event, scope) -> (reasons to ask first, plan values to offer instead)``. The offered
#: values (code's own reading of "推迟一小时") only ever go into a pending question.
TargetCheck = Callable[[Occurrence, str], tuple[list[str], dict[str, Any]]]
#: Short answers to "要删除整个系列吗？" beyond the grounding latch's yes/no words.
EDIT_CONFIRM_WORDS = (
    "删吧",
    "删",
    "删除",
    "删掉",
    "改吧",
    "改",
    "照改",
    "直接改",
    "挪吧",
    "就这样",
    "move it",
    "delete it",
    "go ahead",
)


@dataclass(frozen=True)
class EditOption:
    """One event a pending edit offers, typed for the app's buttons (the stored choice is
    JSON in the ``commands`` row: it is read here, once, not in the interface)."""

    title: str
    start: datetime | date | None
    all_day: bool
    calendar: str

    @classmethod
    def of(cls, option: dict[str, Any]) -> EditOption:
        text = str(option.get("start") or "")
        start: datetime | date | None
        try:
            start = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        except ValueError:
            start = None  # the button still names the event
        return cls(str(option.get("title", "")), start, bool(option.get("all_day")), str(option.get("calendar") or ""))


def offered(options: list[dict[str, Any]], target: dict[str, Any] | None) -> list[EditOption]:
    """The events a pending edit offers: its choices, or the one target it asks about."""
    return [EditOption.of(option) for option in (options or ([target] if target else []))]


@dataclass
class EditOutcome:
    """One edit round; the receipt is written from this (``edit_receipts.py``)."""

    status: str  # updated | deleted | no_match | choose | confirm | edit_conflict | cancelled | answered | none | invalid
    op: str = "update"
    title: str = ""
    scope: str = "this"
    recurring: bool = False
    before: dict[str, Any] | None = None  # the target as it was (``targets.as_option``)
    after: dict[str, Any] | None = None  # what it is now (times, title, calendar)
    changed: dict[str, Any] = field(default_factory=dict)  # fields other than times that changed
    search: Search | None = None
    options: list[dict[str, Any]] = field(default_factory=list)
    more: int = 0  # matches beyond the options listed
    conflicts: list[Occurrence] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # why it asks first
    kept: int = 0  # a declined bulk change: how many events stay as they were
    command_id: int | None = None
    message: str | None = None  # why it failed: a catalogue code (with ``message_params``) or a text that is data
    today: date | None = None
    expires_at: datetime | None = None  # when the pending question this round left expires (its row's)
    message_params: dict[str, Any] = field(default_factory=dict)
    uid: str | None = None  # the target event, once found
    at: datetime | date | None = None  # where the target is now (moved or not): the app's "Show in calendar"

    def offered(self) -> list[EditOption]:
        """What the app's bar shows for this outcome's question (choices, or the target)."""
        return offered(self.options, self.before)

    def message_text(self, lang: str = "en") -> str | None:
        """``message`` in ``lang`` (the catalogue's), or as it is when it is data."""
        if self.message is not None and is_code(self.message):
            return render(self.message, lang, **self.message_params)
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "op": self.op,
            "title": self.title,
            "scope": self.scope,
            "recurring": self.recurring,
            "before": self.before,
            "after": self.after,
            "changed": self.changed,
            "search": self.search.to_json() if self.search else None,
            "options": self.options,
            "more": self.more,
            "conflicts": [occ.to_json() for occ in self.conflicts],
            "reasons": self.reasons,
            "command_id": self.command_id,
            "message": self.message_text("en"),
            "today": self.today.isoformat() if self.today else None,
        }


@dataclass(frozen=True)
class EditStub:
    id: int
    status: str
    slots: dict[str, Any]
    expires_at: datetime | None = None

    def offered(self) -> list[EditOption]:
        """What the app's bar shows for this pending question (choices, or the target)."""
        return offered(list(self.slots.get("options") or []), self.slots.get("target"))


@dataclass
class _Edit:
    """What every outcome of one edit round carries, so each ``EditOutcome`` is built with
    typed fields (the target once found, the fields that change)."""

    op: str
    scope: str
    title: str
    today: date
    search: Search | None = None
    recurring: bool = False
    before: dict[str, Any] | None = None
    changed: dict[str, Any] = field(default_factory=dict)
    uid: str | None = None
    at: datetime | date | None = None

    def outcome(
        self,
        status: str,
        *,
        message: str | None = None,
        message_params: dict[str, Any] | None = None,
        options: list[dict[str, Any]] | None = None,
        more: int = 0,
        reasons: list[str] | None = None,
        after: dict[str, Any] | None = None,
        conflicts: list[Occurrence] | None = None,
    ) -> EditOutcome:
        return EditOutcome(
            status,
            op=self.op,
            title=self.title,
            scope=self.scope,
            recurring=self.recurring,
            before=self.before,
            after=after,
            changed=dict(self.changed),
            search=self.search,
            options=list(options or []),
            more=more,
            conflicts=list(conflicts or []),
            reasons=list(reasons or []),
            message=message,
            message_params=dict(message_params or {}),
            today=self.today,
            uid=self.uid,
            at=self.at,
        )


def edit_answer(text: str) -> bool | None:
    """A short yes/no to a pending edit (the grounding latch's words plus 删吧, 照改 …)."""
    answer = confirmation_answer(text)
    if answer is not None:
        return answer
    if isinstance(text, str) and len(text) <= 20 and fold(text).strip("。.!！~") in EDIT_CONFIRM_WORDS:
        return True
    return None


class ChatEditService:
    def __init__(self, store: Any, profile_id: int, ctx: TimeContext, facts: WriteFacts) -> None:
        self.store = store
        self.profile_id = profile_id
        self.ctx = ctx
        self.facts = facts  # shared with the command service: the exit guard reads one record
        self.edits = EditService(store, profile_id, origin="agent")
        self.queries = QueryService(store, profile_id, ctx)
        self.calendars = CalendarService(store, profile_id)
        self.settings = SettingsService(store, profile_id)
        self._reply: dict[str, Any] = {}  # the last answer to an invitation: its REPLY (``answer_invitation``)

    # ---- the tool call -------------------------------------------------------------------

    def plan(self, args: dict[str, Any]) -> dict[str, Any]:
        """The change with its symbols resolved now (a stored choice must not drift to
        another day when it is answered later). Raises ``UserFacingError`` for the model."""
        plan: dict[str, Any] = {}
        if args.get("newDate"):
            resolved = resolve(str(args["newDate"]), self.ctx)
            if not resolved.candidates or len(resolved.candidates) != 1 or resolved.kind == "time":
                raise SymbolError(str(args["newDate"]), "services.new_date_one_day")
            plan["new_day"] = resolved.candidates[0].isoformat()
        for key, name in (("newTime", "new_time"), ("newEndTime", "new_end_time")):
            if args.get(key):
                resolve_time(str(args[key]))
                plan[name] = str(args[key])
        if args.get("newEndTime") and args.get("durationMinutes"):
            raise UserFacingError("services.end_or_duration")
        if args.get("durationMinutes"):
            plan["duration"] = int(args["durationMinutes"])
        if args.get("newTitle"):
            title = clean_title(str(args["newTitle"]))
            if title:
                plan["title"] = title
        if args.get("calendarName"):
            choice = self.calendars.choose(str(args["calendarName"]))
            if choice.fell_back:
                raise UserFacingError(
                    "services.edit_no_calendar",
                    name=args["calendarName"],
                    calendars=", ".join(self.calendars.names()),
                )
            ReadOnlyCalendars(self.store, self.profile_id).check(choice.calendar.id)  # no move into one
            plan["calendar"] = choice.calendar.name
            plan["calendar_id"] = choice.calendar.id
        for key, name in (("location", "location"), ("notes", "notes")):
            if args.get(key) is not None:
                plan[name] = str(args[key]).strip()[:2000]
        if args.get("reminderMinutes") is not None:
            plan["reminder"] = int(args["reminderMinutes"])
        if args.get("completed") is not None:
            plan["completed"] = bool(args["completed"])
        if args.get("partstat"):  # the answer to an invitation (op ``respond``, agent/runtime/invite_respond.py)
            plan["partstat"] = str(args["partstat"])
        return plan

    def request(self, op: str, args: dict[str, Any], reasons: list[str], check: TargetCheck | None = None) -> EditOutcome:
        """One ``update_schedule``/``delete_schedule`` call. ``reasons`` are the grounding
        latch's reasons to ask first; ``check`` adds its reasons about the one event found
        (named by the user? a scope the words allow?). A reason of ``ANSWER_KINDS`` turns the
        call into an answer: what was found, nothing pending. Raises ``UserFacingError`` for
        arguments the model should fix (they go back to it as a retry)."""
        plan = self.plan(args) if op != "delete" else {}
        if op == "update" and not plan:
            raise UserFacingError("services.edit_nothing")
        scope = str(args.get("scope") or "this")
        words = str(args.get("targetTitle") or "")
        if not words.strip() and not args.get("targetDate"):
            raise UserFacingError("services.edit_which")
        search = find_targets(self.queries, self.ctx, words, args.get("targetDate"), args.get("targetTime"))
        self._end_pending("replaced")
        if scope in ("all", "following") and not search.day_named:
            search.matches = _one_per_series(search.matches, self.ctx.now)
        base = _Edit(op, scope, words.strip(), self.ctx.today, search)
        if not search.matches:
            return base.outcome("no_match")
        answers = [reason for reason in reasons if reason.partition(":")[0] in ANSWER_KINDS]
        if not answers:  # a change: events in read-only calendars are not offered
            search.matches = self._writable(search.matches)
        if op == "respond" and not answers:  # only an invitation to the user can be answered
            invited = invitations_among(self.store, self.profile_id, search.matches)
            if not invited:
                first = search.matches[0]
                base.title, base.before = first.title, as_option(first)
                return base.outcome("invalid", message="services.edit.not_invitation", message_params={"title": first.title})
            search.matches = invited
        if answers:  # not a request: say what is there, leave nothing a "yes" could write
            options = [as_option(occ) for occ in search.matches[:MAX_OPTIONS]]
            if len(search.matches) == 1:
                base.before, base.uid, base.at = options[0], search.matches[0].uid, search.matches[0].start
                base.title = search.matches[0].title
            return base.outcome("answered", options=options, more=max(0, len(search.matches) - MAX_OPTIONS), reasons=answers)
        if len(search.matches) > 1:
            options = [as_option(occ) for occ in search.matches[:MAX_OPTIONS]]
            # The per-event checks (target named? value the words give? scope?) are made now,
            # for each option, and applied to the one the user picks: a pick must not skip them.
            checks = [list(check(occ, scope)) for occ in search.matches[:MAX_OPTIONS]] if check is not None else []
            slots = {"op": op, "scope": scope, "plan": plan, "options": options, "reasons": reasons, "checks": checks}
            outcome = base.outcome("choose", options=options, more=max(0, len(search.matches) - MAX_OPTIONS), reasons=reasons)
            outcome.command_id, outcome.expires_at = self._save("choose", words or options[0]["title"], slots)
            return outcome
        asks = list(reasons) + (["fuzzy"] if search.fuzzy else [])
        if check is not None:
            more, offer = check(search.matches[0], scope)
            asks += more
            if more and offer:  # the question offers code's reading; "yes" applies that
                plan = {**plan, **offer}
        return self._decide(op, plan, search.matches[0], scope, asks, search=search)

    def request_bulk(self, calls: list[tuple[str, dict[str, Any]]], reasons: list[str]) -> EditOutcome:
        """A bulk message (都, 清空, everything) or a turn with more than one write call: never
        a direct write. Every event the calls would change (all of each call's matches) is
        listed in one pending confirmation; "yes" applies them all in one transaction (one
        change set, one undo). Raises ``UserFacingError`` like ``request``."""
        op, first = calls[0]
        if any(reason.partition(":")[0] in ANSWER_KINDS for reason in reasons):
            return self.request(op, first, reasons)
        items: list[dict[str, Any]] = []
        seen: set[tuple[str, str]] = set()
        search: Search | None = None
        for call_op, args in calls:
            plan = self.plan(args) if call_op == "update" else {}
            if call_op == "update" and not plan:
                continue
            scope = str(args.get("scope") or "this")
            words = str(args.get("targetTitle") or "")
            if not words.strip() and not args.get("targetDate"):
                continue
            found = find_targets(self.queries, self.ctx, words, args.get("targetDate"), args.get("targetTime"))
            found.matches = self._writable(found.matches)
            if scope in ("all", "following") and not found.day_named:
                found.matches = _one_per_series(found.matches, self.ctx.now)
            search = search or found
            for occ in found.matches:
                key = (occ.uid, occ.start.isoformat())
                if key not in seen:
                    seen.add(key)
                    items.append({"op": call_op, "plan": plan, "scope": scope, "target": as_option(occ)})
        self._end_pending("replaced")
        base = _Edit(op, "this", str(first.get("targetTitle") or "").strip(), self.ctx.today, search)
        if not items:
            return base.outcome("no_match")
        if len(items) == 1 and len(calls) == 1:  # one event: the usual question (series wording), never a write
            return self.request(op, first, reasons)
        options = [item["target"] for item in items]
        base.before, base.title = options[0], str(options[0].get("title", ""))
        outcome = base.outcome("confirm", options=options, reasons=list(reasons))
        slots = {"op": op, "scope": "this", "plan": {}, "target": options[0], "bulk": items}
        outcome.command_id, outcome.expires_at = self._save("confirm", f"{len(items)} events", slots)
        return outcome

    def _writable(self, matches: list[Occurrence]) -> list[Occurrence]:
        """``matches`` without the events of read-only calendars (agent/store/read_only.py);
        when every match is in one, ``ReadOnlyCalendarError`` tells the model why."""
        read_only = ReadOnlyCalendars(self.store, self.profile_id)
        locked = read_only.ids()
        writable = [occ for occ in matches if occ.calendar_id not in locked]
        if matches and not writable:
            read_only.check(occ.calendar_id for occ in matches)
        return writable

    def _confirm_bulk(self, stub: EditStub) -> EditOutcome:
        items = list(stub.slots.get("bulk") or [])
        self._end(stub.id, "answered")
        changes = ChangeSet()
        done: list[dict[str, Any]] = []
        ops = {str(item["op"]) for item in items}
        with journal_record.origin(self.store, "chat"), self.store.transaction():
            for item in items:
                occ = refind(self.queries, item["target"], self.ctx)
                if occ is None:
                    continue  # changed meanwhile: the receipt lists only what was done
                plan = item.get("plan") or {}
                start, end = self._times(plan, occ)
                changes.extend(self._write(str(item["op"]), plan, occ, str(item.get("scope") or "this"), start, end))
                done.append(as_option(occ))
        status = "deleted" if ops == {"delete"} else "updated"
        outcome = EditOutcome(
            status,
            op=str(stub.slots.get("op", "update")),
            title=f"{len(done)}",
            today=self.ctx.today,
            options=done,
            before=done[0] if done else None,
            after=done[0] if done else None,
        )
        if not done:
            return EditOutcome("no_match", today=self.ctx.today, message="services.edit.changed_meanwhile_all")
        self.facts.changes.extend(changes)  # after COMMIT: the exit guard's fact
        self.facts.kinds.update("deleted" if op == "delete" else "updated" for op in ops)
        outcome.changed = {"bulk": len(done)}
        return outcome

    # ---- answers (0 model calls) ---------------------------------------------------------

    def active(self) -> EditStub | None:
        now = self.ctx.now.astimezone(UTC).isoformat()
        row = self.store.conn.execute(
            "SELECT id, status, slots, expires_at FROM commands WHERE profile_id = ? AND kind = 'edit'"
            f" AND status IN ({', '.join('?' for _ in PENDING)}) AND expires_at > ? ORDER BY id DESC LIMIT 1",
            (self.profile_id, *PENDING, now),
        ).fetchone()
        if row is None:
            return None
        return EditStub(int(row["id"]), str(row["status"]), json.loads(row["slots"]), datetime.fromisoformat(row["expires_at"]))

    def answer(self, stub: EditStub, text: str) -> EditOutcome | None:
        """A reply the code can read: a pick for a choice, a yes/no for a confirmation or a
        conflict. None: not such a reply (it goes to the model)."""
        yes_no = edit_answer(text)
        if yes_no is False:
            return self.cancel(stub)
        if stub.status == "choose":
            index = pick_choice(text, list(stub.slots.get("options") or []), self.ctx)
            return None if index is None else self.pick(stub, index)
        if yes_no is True:
            return self.confirm(stub)
        return None

    def pick(self, stub: EditStub, index: int) -> EditOutcome:
        options = list(stub.slots.get("options") or [])
        if not 0 <= index < len(options):
            return EditOutcome("none", today=self.ctx.today, message="services.edit.no_such_option")
        occ = refind(self.queries, options[index], self.ctx)
        slots = stub.slots
        self._end(stub.id, "answered")
        if occ is None:
            return EditOutcome(
                "no_match",
                op=slots["op"],
                title=options[index]["title"],
                today=self.ctx.today,
                message="services.edit.changed_meanwhile",
            )
        reasons = list(slots.get("reasons") or [])
        plan = dict(slots.get("plan") or {})
        checks = list(slots.get("checks") or [])
        if index < len(checks):
            more, offer = checks[index]
            reasons += list(more)
            if more and offer:  # as for one match: the question offers code's reading
                plan = {**plan, **offer}
        return self._decide(slots["op"], plan, occ, slots.get("scope") or "this", reasons)

    def confirm(self, stub: EditStub) -> EditOutcome:
        slots = stub.slots
        if slots.get("bulk"):
            return self._confirm_bulk(stub)
        target = slots.get("target") or {}
        occ = refind(self.queries, target, self.ctx)
        self._end(stub.id, "answered")
        if occ is None:
            return EditOutcome(
                "no_match",
                op=slots.get("op", "update"),
                title=str(target.get("title", "")),
                today=self.ctx.today,
                message="services.edit.changed_meanwhile",
            )
        return self._decide(
            slots["op"],
            slots.get("plan") or {},
            occ,
            slots.get("scope") or "this",
            [],
            confirmed=True,
            allow_conflict=stub.status == "edit_conflict",
        )

    def cancel(self, stub: EditStub | None = None) -> EditOutcome:
        stub = stub or self.active()
        if stub is None:
            return EditOutcome("none", today=self.ctx.today)
        self._end(stub.id, "cancelled")
        first = (stub.slots.get("target") or (stub.slots.get("options") or [{}])[0]) or {}
        op = str(stub.slots.get("op", "update"))
        kept = len(stub.slots.get("bulk") or [])
        return EditOutcome("cancelled", op=op, title=str(first.get("title", "")), today=self.ctx.today, kept=kept)

    # ---- deciding and writing ------------------------------------------------------------

    def _decide(
        self,
        op: str,
        plan: dict[str, Any],
        occ: Occurrence,
        scope: str,
        asks: list[str],
        *,
        confirmed: bool = False,
        allow_conflict: bool = False,
        search: Search | None = None,
    ) -> EditOutcome:
        """Ask, check conflicts, or write. ``confirmed``: the user already said yes to this
        very change, so the broad-change question is not asked again (a conflict still is)."""
        recurring = occ.recurrence_id is not None
        scope = scope if recurring else "this"
        base = _Edit(op, scope, occ.title, self.ctx.today, search, recurring, as_option(occ), uid=occ.uid, at=occ.start)
        try:
            start, end = self._times(plan, occ)
        except UserFacingError as exc:
            return base.outcome("invalid", message=exc.code, message_params=exc.params)
        if recurring and scope != "this" and occ.all_day and isinstance(start, datetime):
            return base.outcome("invalid", message="services.edit.allday_series_time")
        if recurring and plan.get("calendar") and plan["calendar"] != occ.calendar and scope != "all":
            return base.outcome("invalid", message="services.edit.series_calendar")
        if recurring and scope in ("following", "all") and not confirmed:
            if op == "delete":
                asks.append("series_delete")
            elif start is not None:
                asks.append("series_move")
        after = self._after(plan, occ, start, end)
        base.at = start if start is not None else occ.start
        fields = ("title", "calendar", "location", "notes", "reminder", "completed", "partstat")
        changed: dict[str, Any] = {key: plan[key] for key in fields if key in plan}
        base.changed = changed
        slots = {"op": op, "scope": scope, "plan": plan, "target": as_option(occ)}
        if asks:
            outcome = base.outcome("confirm", reasons=sorted(set(asks), key=asks.index), after=after)
            outcome.command_id, outcome.expires_at = self._save("confirm", occ.title, slots)
            return outcome
        if op == "update" and isinstance(start, datetime) and isinstance(end, datetime) and not allow_conflict:
            conflicts = [other for other in self.queries.busy(start, end) if other.uid != occ.uid]
            if conflicts:
                outcome = base.outcome("edit_conflict", conflicts=conflicts, after=after)
                outcome.command_id, outcome.expires_at = self._save("edit_conflict", occ.title, slots)
                return outcome
        try:
            changes = self._write(op, plan, occ, scope, start, end)
        except (sqlite3.Error, StoreError, UserFacingError) as exc:
            return base.outcome("invalid", message="services.edit.not_saved", message_params={"reason": str(exc)})
        self.facts.changes.extend(changes)  # after COMMIT: the exit guard's fact
        self.facts.kinds.add("deleted" if op == "delete" else "updated")
        if op == "respond":
            base.changed["reply"] = self._reply  # what became of the REPLY, for the receipt
        return base.outcome("deleted" if op == "delete" else "updated", after=after)

    def _times(self, plan: dict[str, Any], occ: Occurrence) -> tuple[datetime | date | None, datetime | date | None]:
        if not any(key in plan for key in ("new_day", "new_time", "new_end_time", "duration")):
            return None, None
        tz = self.ctx.tz
        new_day = date.fromisoformat(plan["new_day"]) if plan.get("new_day") else None
        new_time = resolve_time(plan["new_time"]) if plan.get("new_time") else None
        end_time = resolve_time(plan["new_end_time"]) if plan.get("new_end_time") else None
        duration = plan.get("duration")
        if occ.all_day and new_time is None:
            if end_time is not None or duration is not None:
                raise UserFacingError("services.all_day_needs_time")
            first = occ.start if isinstance(occ.start, date) and not isinstance(occ.start, datetime) else occ.start.date()
            last = occ.end if isinstance(occ.end, date) and not isinstance(occ.end, datetime) else occ.end.date()
            day = new_day or first
            return day, day + max(timedelta(days=1), last - first)
        if occ.all_day:
            day = new_day or (occ.start if not isinstance(occ.start, datetime) else occ.start.date())
            length = timedelta(minutes=int(self.settings.get("default_duration_minutes")))
            assert new_time is not None
            start: datetime = local_datetime(day, new_time, tz)
        else:
            assert isinstance(occ.start, datetime) and isinstance(occ.end, datetime)
            local = occ.start.astimezone(tz) if occ.start.tzinfo else occ.start.replace(tzinfo=tz)
            length = occ.end - occ.start
            day = new_day or local.date()
            start = local_datetime(day, new_time or local.time().replace(tzinfo=None), tz)
        if end_time is not None:
            end = local_datetime(day, end_time, tz)
            if end <= start:
                raise UserFacingError("services.end_not_after_start", end=f"{end_time:%H:%M}", start=f"{start:%H:%M}")
        elif duration is not None:
            end = start + timedelta(minutes=int(duration))
        else:
            end = start + length
        return start, end

    def _after(self, plan: dict[str, Any], occ: Occurrence, start: Any, end: Any) -> dict[str, Any]:
        return {
            "title": plan.get("title", occ.title),
            "start": (start if start is not None else occ.start).isoformat(),
            "end": (end if end is not None else occ.end).isoformat(),
            "all_day": not isinstance(start if start is not None else occ.start, datetime),
            "calendar": plan.get("calendar", occ.calendar),
        }

    def _write(self, op: str, plan: dict[str, Any], occ: Occurrence, scope: str, start: Any, end: Any) -> ChangeSet:
        changes = ChangeSet()
        # One change set, one COMMIT (undo reverts all of it), journalled as the chat's own
        # change whichever entry point ran the turn (app, CLI, eval).
        with journal_record.origin(self.store, "chat"), self.store.transaction():
            if op == "delete":
                changes.extend(self.edits.delete(occ, scope))  # type: ignore[arg-type]
            elif op == "respond":
                answered, self._reply = answer_invitation(self.store, self.profile_id, occ, str(plan["partstat"]))
                changes.extend(answered)
            else:
                edit = _editor(plan)
                if start is not None or edit is not None:
                    changes.extend(self.edits.update(occ, start=start, end=end, edit=edit, scope=scope))  # type: ignore[arg-type]
                if plan.get("calendar_id") and int(plan["calendar_id"]) != occ.calendar_id:
                    changes.extend(self.edits.move_to_calendar(occ.uid, int(plan["calendar_id"])))
        return changes

    # ---- pending rows --------------------------------------------------------------------

    def _save(self, status: str, title: str, slots: dict[str, Any]) -> tuple[int, datetime]:
        """The pending question's row: its id and when it expires."""
        now = self.ctx.now.astimezone(UTC)
        ttl = timedelta(minutes=int(self.settings.get("command_ttl_minutes")))
        with self.store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO commands(profile_id, kind, title, slots, status, candidates, updated_at, expires_at, created_at)"
                " VALUES (?, 'edit', ?, ?, ?, '[]', ?, ?, ?)",
                (
                    self.profile_id,
                    title[:200] or "?",
                    json.dumps(slots, ensure_ascii=False, default=str),
                    status,
                    now.isoformat(),
                    (now + ttl).isoformat(),
                    now.isoformat(),
                ),
            )
            return int(cur.lastrowid or 0), now + ttl

    def _end(self, command_id: int, status: str) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE commands SET status = ?, updated_at = ? WHERE id = ? AND profile_id = ?",
                (status, self.ctx.now.astimezone(UTC).isoformat(), command_id, self.profile_id),
            )

    def supersede(self) -> None:
        """The conversation moved on (the model ran another tool): the question is dropped."""
        self._end_pending("superseded")

    def _end_pending(self, status: str) -> None:
        """A new edit request replaces any pending one: one question at a time."""
        with self.store.transaction() as conn:
            conn.execute(
                f"UPDATE commands SET status = ? WHERE profile_id = ? AND kind = 'edit' AND status IN "
                f"({', '.join('?' for _ in PENDING)})",
                (status, self.profile_id, *PENDING),
            )


def _one_per_series(matches: list[Occurrence], now: datetime) -> list[Occurrence]:
    """For a whole-series change with no day named, a series is one target: its next
    instance (or its first in the window when none is ahead)."""
    kept: dict[str, Occurrence] = {}
    order: list[str] = []
    for occ in matches:
        key = occ.uid if occ.recurrence_id is not None else f"{occ.uid}#{occ.start.isoformat()}"
        if key not in kept:
            kept[key] = occ
            order.append(key)
        elif not _ahead(kept[key], now) and _ahead(occ, now):
            kept[key] = occ
    return [kept[key] for key in order]


def _ahead(occ: Occurrence, now: datetime) -> bool:
    start = occ.start
    if isinstance(start, datetime):
        return start >= now if start.tzinfo else start >= now.replace(tzinfo=None)
    return start >= now.date()


def _editor(plan: dict[str, Any]) -> Any:
    """The component edit for the plan's non-time fields, or None when there are none."""
    keys = [key for key in ("title", "location", "notes", "reminder", "completed") if key in plan]
    if not keys:
        return None

    def edit(component: icalendar.Event) -> None:
        for key, name in _PLAN_FIELDS.items():  # each written under the table's property
            if key in plan:
                write(component, name, plan[key])
        if "reminder" in plan:
            set_alarms(component, [int(plan["reminder"])], str(read(component, "title") or ""))

    return edit


# A plan's keys (the chat tool's words) -> the field table's names (agent/store/fields.py).
_PLAN_FIELDS = {"title": "title", "location": "location", "notes": "description", "completed": "completed"}


__all__ = ["ANSWER_KINDS", "ChatEditService", "TargetCheck", "EditOption", "EditOutcome", "EditStub", "PENDING", "edit_answer"]
