"""One profile's calendar as one object whose every write returns what it changed.

Why: the app used to build ``EditService``/``CalendarService`` from ``(store, profile_id)``
in many places, write, and then announce the write with a second call; and it kept a
window-side undo stack beside the store's journal, so an edit made in the CLI or the chat
was not on the window's Ctrl+Z, and deleting a calendar was undoable only in that window.
The shape is Anki's ``Collection`` (operations return ``OpChanges``) and khal's
``CalendarCollection``: ``CalendarCollection(store, profile_id)`` owns the services of one
profile, each write runs in one transaction that the undo journal records as one entry
(labelled for people: ``move 周会``, ``delete calendar 家庭``), and returns an ``OpChanges``
that views read. Undo and redo read the journal only (``undoable``/``redoable``), so the
history is the same for the window, ``richeng undo --list`` and a restart.

No Qt here: ``app/write_path.py`` runs these operations (on the UI thread or a pool thread)
and announces each result once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from agent.services.calendars import Calendar, CalendarService
from agent.services.editing import EditService, EventDraft, Scope
from agent.store import journal, journal_record
from agent.store.changes import ChangeSet
from agent.store.db import Store
from agent.store.occurrence import Occurrence
from agent.timesym.recurrence import Recurrence

if TYPE_CHECKING:  # quick add's parser and the command layer load on first use, not at app start
    from agent.services.command_types import Outcome
    from agent.services.commands import CommandService
    from agent.services.quick_add import QuickResult
    from agent.timesym.context import TimeContext
    from agent.timesym.sentence import QuickEvent


@dataclass(frozen=True)
class OpChanges:
    """What one operation changed, for views to read and refresh on.

    ``events``: the event rows' change set (before-images; for an undo, its inverse).
    ``calendars``: calendar rows changed (the sidebar and the editor's list reload).
    ``journal_id``: the journal row that recorded this operation (None: nothing undoable
    was written, e.g. a colour change). ``reverted``: for an undo or redo, the journal rows
    it took back. ``calendar``: the calendar an operation on calendars made or changed."""

    events: ChangeSet = field(default_factory=ChangeSet)
    calendars: bool = False
    journal_id: int | None = None
    reverted: tuple[int, ...] = ()
    calendar: Calendar | None = None

    def __bool__(self) -> bool:
        return bool(self.events) or self.calendars


class CalendarCollection:
    """The calendars and events of one profile, and the one way to change them.

    ``journal_origin`` names whose writes these are in the journal (``user`` for the app,
    ``cli`` for the terminal); the event rows' own origin is ``EditService``'s."""

    def __init__(self, store: Store, profile_id: int, *, origin: str = "user", journal_origin: str = "user") -> None:
        self.store = store
        self.profile_id = profile_id
        self.journal_origin = journal_origin
        self.edits = EditService(store, profile_id, origin=origin)
        self.calendars = CalendarService(store, profile_id)

    # ---- running one operation -----------------------------------------------------------

    def _op(self, label: str, title: str, work: Callable[[], ChangeSet]) -> OpChanges:
        """Run ``work`` as one journal entry labelled ``"{label} {title}"``."""
        before = journal_record.last_recorded()
        with journal_record.origin(self.store, self.journal_origin, f"{label} {title}".strip()[:200]):
            changes = work()
        after = journal_record.last_recorded()
        return OpChanges(changes, journal_id=after if after != before else None)

    # ---- events --------------------------------------------------------------------------

    def create(self, draft: EventDraft) -> OpChanges:
        return self._op("create", draft.title, lambda: self.edits.create(draft))

    def replace(self, uid: str, draft: EventDraft) -> OpChanges:
        return self._op("edit", draft.title, lambda: self.edits.replace(uid, draft))

    def move(self, occ: Occurrence, start: datetime | date, end: datetime | date, scope: Scope = "all") -> OpChanges:
        """A drag: labelled ``resize`` when it changed the length (an edge), ``move`` when not."""
        label = "move" if _length(start, end) == _length(occ.start, occ.end) else "resize"
        return self._op(label, occ.title, lambda: self.edits.move(occ, start, end, scope))

    def delete(self, occ: Occurrence, scope: Scope = "all") -> OpChanges:
        return self._op("delete", occ.title, lambda: self.edits.delete(occ, scope))

    def move_to_calendar(self, occ: Occurrence, calendar_id: int) -> OpChanges:
        """The whole event (every row of its series) into another calendar."""
        return self._op("recalendar", occ.title, lambda: self.edits.move_to_calendar(occ.uid, calendar_id))

    def set_completed(self, uid: str, done: bool, title: str = "") -> OpChanges:
        return self._op("complete", title, lambda: self.edits.set_completed(uid, done))

    def edit_one(self, occ: Occurrence, draft: EventDraft) -> OpChanges:
        return self._op("edit", draft.title, lambda: self.edits.edit_one(occ, draft))

    def edit_following(
        self, occ: Occurrence, draft: EventDraft, *, keep_rule: bool, lunar: Recurrence | None = None
    ) -> OpChanges:
        return self._op("edit", draft.title, lambda: self.edits.edit_following(occ, draft, keep_rule=keep_rule, lunar=lunar))

    def create_with_dates(self, draft: EventDraft, lunar: Recurrence) -> OpChanges:
        return self._op("create", draft.title, lambda: self.edits.create_with_dates(draft, lunar))

    def replace_with_dates(self, uid: str, draft: EventDraft, lunar: Recurrence | None) -> OpChanges:
        return self._op("edit", draft.title, lambda: self.edits.replace_with_dates(uid, draft, lunar))

    # ---- commands: quick add and its pending questions ----------------------------------

    def quick_add(self, parsed: QuickEvent, tctx: TimeContext) -> tuple[QuickResult, OpChanges]:
        """Quick add's Enter (the command layer's create, as ``richeng quick``): the result it
        shows, and what it wrote (nothing when it asks first or the event was there)."""
        from agent.services.commands import CommandService
        from agent.services.quick_add import QuickAdd

        service = CommandService(self.store, self.profile_id, tctx, origin="user")
        before = journal_record.last_recorded()
        result = QuickAdd(service).create(parsed)
        return result, self._written(service, before)

    def continue_command(
        self, tctx: TimeContext, *, allow_conflict: bool = False, allow_past: bool = False
    ) -> tuple[Outcome | None, OpChanges]:
        """Answer the pending command's question ("Create anyway", "Add it anyway")."""
        from agent.services.commands import CommandService

        service = CommandService(self.store, self.profile_id, tctx, origin="user")
        before = journal_record.last_recorded()
        outcome = service.continue_active(allow_conflict=allow_conflict, allow_past=allow_past)
        return outcome, self._written(service, before)

    def _written(self, service: CommandService, before: int | None) -> OpChanges:
        after = journal_record.last_recorded()
        return OpChanges(service.facts.changes, journal_id=after if after != before else None)

    # ---- calendars -----------------------------------------------------------------------

    def add_calendar(self, name: str, color: str | None = None, *, default: bool = False) -> OpChanges:
        """A new calendar: journalled, so undo removes it (while it is still empty)."""
        before = journal_record.last_recorded()
        calendar = self.calendars.add(name, color, default)
        after = journal_record.last_recorded()
        return OpChanges(calendars=True, journal_id=after if after != before else None, calendar=calendar)

    def update_calendar(
        self, name: str, *, new_name: str | None = None, color: str | None = None, visible: bool | None = None
    ) -> OpChanges:
        """Name, colour or visibility: not undo steps (as before), but announced like any write."""
        calendar = self.calendars.update(name, new_name=new_name, color=color, visible=visible)
        return OpChanges(calendars=True, calendar=calendar)

    def set_default_calendar(self, name: str) -> OpChanges:
        return OpChanges(calendars=True, calendar=self.calendars.set_default(name))

    def delete_calendar(self, name: str) -> OpChanges:
        """The calendar and its events, as one journal entry: undo puts both back."""
        calendar = self.calendars.get(name)
        before = journal_record.last_recorded()
        events = self.calendars.delete(name)
        after = journal_record.last_recorded()
        return OpChanges(events, calendars=True, journal_id=after if after != before else None, calendar=calendar)

    # ---- undo and redo: the journal only -------------------------------------------------

    def undoable(self) -> journal.Entry | None:
        """What undo takes back: the newest change not undone, whoever made it (the same
        entry ``richeng undo`` takes)."""
        return journal.undoable(self.store, self.profile_id)

    def redoable(self) -> journal.Entry | None:
        """What redo puts back: the newest undo not yet redone, unless a change came since."""
        return journal.redoable(self.store, self.profile_id)

    def history(self, limit: int = journal.LIST_DEFAULT) -> list[journal.Entry]:
        """The newest journal entries, newest first (what ``richeng undo --list`` prints)."""
        return journal.recent(self.store, self.profile_id, limit)

    def undo(self) -> OpChanges | None:
        """Revert ``undoable``'s entry; None when there is nothing to undo."""
        entry = self.undoable()
        return self.revert(journal.group_of(self.store, entry.id)) if entry is not None else None

    def redo(self) -> OpChanges | None:
        """Revert ``redoable``'s undo entry (which is a redo); None when there is nothing."""
        entry = self.redoable()
        return self.revert([entry.id]) if entry is not None else None

    def revert(self, ids: Iterable[int]) -> OpChanges:
        """Revert journal rows ``ids`` (newest first) in one transaction, skipping rows undone
        elsewhere already; a refusal (changed since) raises ``JournalError`` and changes nothing."""
        inverse = ChangeSet()
        done: list[int] = []
        calendars = False
        with self.store.transaction():
            for change_id in ids:
                if journal.is_undone(self.store, change_id):
                    continue  # taken back elsewhere already (the CLI, another window)
                result = journal.revert(self.store, self.profile_id, change_id, origin=self.journal_origin)
                inverse.extend(result.changes)
                calendars = calendars or bool(result.calendars)
                done.append(change_id)
        found = [journal.inverse_of(self.store, change_id) for change_id in done]
        inverse_id = next((i for i in found if i is not None), None)
        return OpChanges(inverse, calendars=calendars, journal_id=inverse_id, reverted=tuple(done))


def _length(start: datetime | date, end: datetime | date) -> timedelta | None:
    """An event's length; None when its ends are of different kinds (nothing to compare)."""
    try:
        return end - start  # type: ignore[operator]
    except TypeError:
        return None
