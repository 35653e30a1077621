"""The app's one write path: every write runs here as one op, which is recorded and announced once.

The shape is Anki's ``CollectionOp``: a view or dialog asks ``Operations`` for a write
(``create``, ``move``, ``delete_calendar`` ...); ``run`` calls the profile's
``CalendarCollection`` (``agent/services/collection.py``, no Qt), whose operation commits
one transaction that the store's undo journal records as one entry and returns an
``OpChanges``; ``_announce`` then emits ``changed`` (and ``calendars_changed``) and the
new undo state. Writes committed elsewhere (the assistant's turn, quick add's command, an
import on its worker, another process) were journalled by the store too; ``record_*`` and
``external_change`` only announce them.

Undo reads the journal only. Ctrl+Z takes back ``journal.undoable`` (the newest change
not undone, whoever made it: the window, the chat, ``richeng`` in a terminal) and
Ctrl+Shift+Z ``journal.redoable``, exactly what ``richeng undo`` and ``undo --list`` see;
the window keeps no stack of its own (docs/architecture.md, "The op runner"). A receipt's
or a toast's Undo reverts the journal rows of its change set wherever they sit. Creating and
deleting a calendar are journal entries too, so a deleted calendar comes back with its
events from Ctrl+Z, the sidebar banner or the CLI alike.

``reverted`` tells receipts and banners which of their change sets was taken back: the
runner remembers which ``ChangeSet`` object it announced with each journal id (a lookup for
those listeners, never consulted to decide what undo does).

Long steps leave the UI thread: ``undo(background=True)`` / ``redo(background=True)`` and
``undo_specific(..., background=True)`` revert on this object's one-thread ``pool`` as an
``app.background_op.BackgroundOp``; only the announcement comes back to the UI thread.
``busy_changed`` brackets such a step, and another undo or redo asked for meanwhile is
ignored. Without ``background`` the same steps run synchronously and return their result.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, QThreadPool, Signal

from agent.errors import UserFacingError
from agent.services.calendars import Calendar, CalendarService
from agent.services.collection import CalendarCollection, OpChanges
from agent.services.editing import EditService, EventDraft, Scope
from agent.store import journal
from agent.store.changes import ChangeSet
from agent.store.db import Store
from agent.store.occurrence import Occurrence
from agent.store.read_only import ReadOnlyCalendarError, ReadOnlyCalendars
from agent.timesym.recurrence import Recurrence
from app.background_op import BackgroundOp
from app.i18n import error_text
from app.worker import describe

if TYPE_CHECKING:
    from agent.ics.report import ImportReport
    from agent.services.command_types import Outcome
    from agent.services.quick_add import QuickResult
    from agent.timesym.context import TimeContext
    from agent.timesym.sentence import QuickEvent

T = TypeVar("T")
_REMEMBERED = 500  # journal ids whose announced ChangeSet the runner still knows (receipts' identity)


class Operations(QObject):
    changed = Signal(object)  # ChangeSet (empty for calendar-only changes)
    calendars_changed = Signal()
    undo_state_changed = Signal(bool, bool)  # can_undo, can_redo
    failed = Signal(str)
    reverted = Signal(object)  # the ChangeSet an undo just took back (receipts and banners match on it)
    busy_changed = Signal(bool)  # a background step (an undo or a redo) started / ended

    def __init__(self, store: Store, profile_id: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.profile_id = profile_id
        self.collection = CalendarCollection(store, profile_id)
        self.read_only = ReadOnlyCalendars(store, profile_id)
        self._announced: dict[int, ChangeSet] = {}  # journal id -> the ChangeSet announced with it
        self.busy = False  # a background step is running
        self.pool = QThreadPool(self)  # one thread: background steps run one after another
        self.pool.setMaxThreadCount(1)

    @property
    def edits(self) -> EditService:
        """For reading (``component``, ``capped``, ``series_draft``); writes go through ``run``."""
        return self.collection.edits

    @property
    def calendars(self) -> CalendarService:
        """For reading (``list``, ``default``, ``get``); writes go through ``run``."""
        return self.collection.calendars

    # ---- the one place a write runs and is announced -------------------------------------

    def run(
        self, work: Callable[[CalendarCollection], OpChanges | None], *, background: bool = False,
        name: str = "write", undoing: bool = False,
    ) -> OpChanges | None:  # fmt: skip
        """Run one operation of the collection and announce its ``OpChanges``; a refusal
        (``UserFacingError``) is said through ``failed`` and returns None. ``background``: on
        ``pool`` (returns None; the announcement follows on the UI thread). ``undoing``: the op
        takes back journal rows, so ``reverted`` names what it undid."""
        collection = self.collection

        def finish(result: OpChanges | None | Exception) -> OpChanges | None:
            if isinstance(result, Exception):
                self.failed.emit(error_text(result) if isinstance(result, UserFacingError) else describe(result))
                self._emit_state()
                return None
            if result is None:
                self._emit_state()
                return None
            self._announce(result, undoing=undoing)
            return result

        if not background:
            try:
                outcome: OpChanges | None | Exception = work(collection)
            except UserFacingError as exc:
                outcome = exc
            return finish(outcome)
        if self.busy:
            return None
        self._set_busy(True)
        op: BackgroundOp[None, OpChanges | None] = BackgroundOp(self, lambda _channel: work(collection), name)
        op.ended(lambda: self._set_busy(False)).success(finish).failure(finish).run_in_background(self.pool)
        return None

    def _announce(self, op: OpChanges, *, undoing: bool = False) -> None:
        originals = [self._announced.pop(change_id, None) for change_id in op.reverted]
        if undoing and op.reverted:  # each change set taken back once (an import's files share one)
            known = list({id(found): found for found in originals if found is not None}.values())
            for original in known or [ChangeSet()]:
                self.reverted.emit(original)
        if op.journal_id is not None:
            self._remember([op.journal_id], op.events)
        if op.calendars:
            self.calendars_changed.emit()
        self.changed.emit(op.events)
        if op.journal_id is not None and not op.reverted:  # a new change: it is what Undo takes, no Redo
            self._emit_state(True, False)
        else:
            self._emit_state(redo=True if op.reverted and undoing else None)

    def _remember(self, ids: list[int], changes: ChangeSet) -> None:
        for change_id in ids:
            self._announced[change_id] = changes
        while len(self._announced) > _REMEMBERED:
            del self._announced[next(iter(self._announced))]

    def _emit_state(self, undo: bool | None = None, redo: bool | None = None) -> None:
        """The Undo/Redo state; a value the caller knows already spares reading the journal."""
        undo = self.can_undo() if undo is None else undo and not self.busy
        redo = self.can_redo() if redo is None else redo and not self.busy
        self.undo_state_changed.emit(undo, redo)

    def wait(self) -> None:
        """Block until a background step has finished (the window closes, the store will)."""
        self.pool.waitForDone()

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busy_changed.emit(busy)
            self._emit_state()

    # ---- undo and redo: the journal ------------------------------------------------------

    def can_undo(self) -> bool:
        return not self.busy and self.collection.undoable() is not None

    def can_redo(self) -> bool:
        return not self.busy and self.collection.redoable() is not None

    def undo_text(self) -> str:
        """What Undo would take back, in words ("Delete “周会”"); "" when nothing."""
        entry = self.collection.undoable()
        return self._describe(entry) if entry is not None else ""

    def redo_text(self) -> str:
        entry = self.collection.redoable()
        original = journal.get(self.store, entry.reverts) if entry is not None and entry.reverts is not None else None
        return self._describe(original) if original is not None else ""

    def history(self, limit: int = journal.LIST_DEFAULT) -> list[journal.Entry]:
        """The journal's newest entries: the same list as ``richeng undo --list``."""
        return self.collection.history(limit)

    def _describe(self, entry: journal.Entry) -> str:
        """A journal entry in the interface language, from its label (``move 周会``)."""
        if entry.origin == "import":
            return self.tr("Import")
        if entry.origin == "chat":
            return self.tr("Assistant's change")
        kinds = (
            ("create calendar ", self.tr("Create calendar “{0}”")),
            ("delete calendar ", self.tr("Delete calendar “{0}”")),
            ("create ", self.tr("Create “{0}”")),
            ("edit ", self.tr("Edit “{0}”")),
            ("move ", self.tr("Move “{0}”")),
            ("resize ", self.tr("Resize “{0}”")),
            ("delete ", self.tr("Delete “{0}”")),
            ("complete ", self.tr("Complete “{0}”")),
            ("recalendar ", self.tr("Move “{0}” to another calendar")),
        )
        for prefix, text in kinds:
            if entry.label.startswith(prefix) and entry.label[len(prefix) :].strip():
                return text.format(entry.label[len(prefix) :].strip())
        return self.tr("Change")

    def undo(self, *, background: bool = False) -> ChangeSet | None:
        """Ctrl+Z: the journal's newest change not undone, whoever made it."""
        if self.busy:
            return None
        done = self.run(lambda c: c.undo(), background=background, name="undo", undoing=True)
        return done.events if done is not None else None

    def redo(self, *, background: bool = False) -> ChangeSet | None:
        """Ctrl+Shift+Z: the newest undo not redone, unless a change came since."""
        if self.busy:
            return None
        done = self.run(lambda c: c.redo(), background=background, name="redo")
        return done.events if done is not None else None

    def undo_specific(self, changes: ChangeSet, *, background: bool = False) -> ChangeSet | None:
        """Undo one earlier change (a receipt's, a toast's or a banner's Undo): the journal rows
        announced with ``changes`` (else found by its rows), wherever they sit."""
        if self.busy:
            return None
        ids = [change_id for change_id, known in self._announced.items() if known is changes]
        if not ids:
            ids = journal.matching(self.store, self.profile_id, changes)
        if not ids or all(journal.is_undone(self.store, change_id) for change_id in ids):
            self.failed.emit(self.tr("Already undone"))
            self._emit_state()
            return None
        ids.sort(reverse=True)
        done = self.run(lambda c: c.revert(ids), background=background, name="undo", undoing=True)
        return done.events if done is not None else None

    # ---- read-only calendars (agent/store/read_only.py; the store refuses the write too) ----

    def writable_calendars(self) -> list[Calendar]:
        """The calendars a new event, a move or a duplicate may go to: not a subscription,
        not one its server shares read-only."""
        locked = self.read_only.ids()
        return [calendar for calendar in self.calendars.list() if calendar.id not in locked]

    def read_only_refusal(self, calendar_id: int) -> ReadOnlyCalendarError | None:
        """The refusal a write into ``calendar_id`` would meet, or None when it is writable."""
        try:
            self.read_only.check(calendar_id)
        except ReadOnlyCalendarError as exc:
            return exc
        return None

    def refuse_read_only(self, occ: Occurrence) -> bool:
        """True (and the one message shown) when ``occ`` is in a read-only calendar: a drag,
        a resize or a delete stops here, before a scope is even asked."""
        refusal = self.read_only_refusal(occ.calendar_id)
        if refusal is not None:
            self.failed.emit(error_text(refusal))
        return refusal is not None

    def unsubscribe(self, name: str) -> bool:
        """Stop the subscription ``name`` and remove its calendar with its events (a refresh
        would only bring them back; subscribing again does): not an undo step, like a sync."""
        from agent.sync.subscriptions import SubscriptionService

        service = SubscriptionService(self.store, self.profile_id)
        return self.calendar_action(lambda: service.remove(name)) is not None

    # ---- events --------------------------------------------------------------------------

    def create(self, draft: EventDraft) -> ChangeSet | None:
        return _events(self.run(lambda c: c.create(draft)))

    def replace(self, uid: str, draft: EventDraft) -> ChangeSet | None:
        return _events(self.run(lambda c: c.replace(uid, draft)))

    def move(self, occ: Occurrence, start: datetime | date, end: datetime | date, scope: Scope = "all") -> ChangeSet | None:
        """A drag: named "Resize" when it changed the length (an edge), "Move" when not."""
        return _events(self.run(lambda c: c.move(occ, start, end, scope)))

    def delete(self, occ: Occurrence, scope: Scope = "all") -> ChangeSet | None:
        return _events(self.run(lambda c: c.delete(occ, scope)))

    def move_to_calendar(self, occ: Occurrence, calendar_id: int) -> ChangeSet | None:
        """The whole event (every row of its series) into another calendar: one undo step."""
        return _events(self.run(lambda c: c.move_to_calendar(occ, calendar_id)))

    def set_completed(self, uid: str, done: bool, title: str = "") -> ChangeSet | None:
        return _events(self.run(lambda c: c.set_completed(uid, done, title)))

    def edit_one(self, occ: Occurrence, draft: EventDraft) -> ChangeSet | None:
        """Only this occurrence, with the editor's fields (one transaction, one undo step)."""
        return _events(self.run(lambda c: c.edit_one(occ, draft)))

    def edit_following(
        self, occ: Occurrence, draft: EventDraft, *, keep_rule: bool, lunar: Recurrence | None = None
    ) -> ChangeSet | None:
        return _events(self.run(lambda c: c.edit_following(occ, draft, keep_rule=keep_rule, lunar=lunar)))

    def create_with_dates(self, draft: EventDraft, lunar: Recurrence) -> ChangeSet | None:
        return _events(self.run(lambda c: c.create_with_dates(draft, lunar)))

    def replace_with_dates(self, uid: str, draft: EventDraft, lunar: Recurrence | None) -> ChangeSet | None:
        return _events(self.run(lambda c: c.replace_with_dates(uid, draft, lunar)))

    # ---- quick add's command ---------------------------------------------------------------

    def quick_add(self, parsed: QuickEvent, tctx: TimeContext) -> tuple[QuickResult, ChangeSet]:
        """Quick add's Enter as one op: its result and what it wrote (empty when it asks first
        or the event was there). Errors are raised, not said through ``failed``: the field
        shows them in its own line."""
        result, done = self.collection.quick_add(parsed, tctx)
        if done:
            self._announce(done)
        return result, done.events

    def continue_command(
        self, tctx: TimeContext, *, allow_conflict: bool = False, allow_past: bool = False
    ) -> tuple[Outcome | None, ChangeSet]:
        """The pending command's answer ("Create anyway"), as one op; errors raised as above."""
        outcome, done = self.collection.continue_command(tctx, allow_conflict=allow_conflict, allow_past=allow_past)
        if done:
            self._announce(done)
        return outcome, done.events

    # ---- import -------------------------------------------------------------------------

    def import_file(self, path: str, calendar_name: str | None = None) -> ImportReport:
        """One file's import (one transaction, one journal entry), backed up first when large
        (docs/backups.md). Store work only, safe on the import job's worker: the job announces
        the whole run with ``record_import`` on the UI thread. Here rather than in
        ``CalendarCollection`` because ``agent.ics`` sits above ``agent.services``."""
        from agent.ics.importer import import_file
        from agent.store.backups import backup_before_import, count_vevents

        backup_before_import(self.store, count_vevents(Path(path)))
        return import_file(self.store, self.profile_id, path, calendar_name)

    # ---- writes committed elsewhere: announce them ---------------------------------------

    def record_assistant_change(self, changes: ChangeSet) -> None:
        """The assistant's turn committed these (journalled as ``chat``): announce them."""
        self._recorded(changes)

    def record_edit(self, changes: ChangeSet, title: str = "", *, created: bool = False) -> None:
        """Quick add's command committed these (journalled, ``create …``): announce them."""
        self._recorded(changes)

    def record_import(self, changes: ChangeSet) -> None:
        """A GUI import committed on its own worker (one journal entry per file): announce it;
        the toast's Undo takes back all of its entries."""
        self.calendars_changed.emit()
        self._recorded(changes, join=True)

    def _recorded(self, changes: ChangeSet, *, join: bool = False) -> None:
        if changes:  # which journal rows they are, so a receipt's Undo and "Undone" find them
            ids = journal.matching(self.store, self.profile_id, changes, exclude=self._announced)
            self._remember(ids, changes)
            if join:
                journal.join(self.store, ids)  # one import of several files: one undo step
        self.changed.emit(changes)
        self._emit_state()

    def imported(self, changes: ChangeSet | None = None) -> None:
        """Changes committed elsewhere that are not the user's to undo (a sync pull): refresh."""
        self.changed.emit(changes or ChangeSet())
        self._emit_state()

    def external_change(self) -> None:
        """Another process (or this app's own workers) committed: reload calendars and views;
        its journal entries are now what Undo offers."""
        self.calendars_changed.emit()
        self.changed.emit(ChangeSet())
        self._emit_state()

    # ---- calendars -----------------------------------------------------------------------

    def add_calendar(self, name: str, color: str | None = None) -> Calendar | None:
        return _calendar(self.run(lambda c: c.add_calendar(name, color)))

    def update_calendar(
        self, name: str, *, new_name: str | None = None, color: str | None = None, visible: bool | None = None
    ) -> Calendar | None:
        return _calendar(self.run(lambda c: c.update_calendar(name, new_name=new_name, color=color, visible=visible)))

    def set_default_calendar(self, name: str) -> Calendar | None:
        return _calendar(self.run(lambda c: c.set_default_calendar(name)))

    def calendar_action(self, action: Callable[[], T]) -> T | None:
        """A calendar setting that is not an undo step, run by the caller's ``action``; kept
        for callers not yet on ``add_calendar``/``update_calendar``: announced like any write."""
        try:
            result: T | None = action()
        except UserFacingError as exc:
            self.failed.emit(error_text(exc))
            result = None
        self._announce(OpChanges(calendars=True))
        return result

    def delete_calendar(self, name: str) -> OpChanges | None:
        """Delete a calendar and its events: one journal entry, undone like any edit."""
        done = self.run(lambda c: c.delete_calendar(name))
        if done is None:
            self.calendars_changed.emit()
        return done


def _events(done: OpChanges | None) -> ChangeSet | None:
    return done.events if done is not None else None


def _calendar(done: OpChanges | None) -> Calendar | None:
    return done.calendar if done is not None else None
