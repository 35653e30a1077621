"""The app's single write path: every change goes through here and announces itself once.

Views never write; they call an ``Operations`` method, which runs the ``agent`` service,
pushes the resulting ``ChangeSet`` on the undo stack and emits ``changed``. The chat
agent's writes arrive as change sets too (``record_assistant_change``), so Ctrl+Z undoes an
event the assistant created exactly like one the user dragged.

It is the app's only undo: Ctrl+Z/Ctrl+Shift+Z, a chat receipt's Undo, the calendar's
toast and the sidebar's "Deleted … — Undo" banner all take back an entry of this one stack.
An import is one entry (``record_import``), however many files and events it wrote; deleting
a calendar is one entry too (``delete_calendar``): the calendar row is not an event, so the
entry carries the ``CalendarSnapshot`` and undo restores the calendar with its events (redo
deletes it again). docs/app-calendar.md, "Undo", has the decision.

The stack is this window's; the history itself is the store's undo journal
(``agent/store/journal.py``): each stack entry names the journal rows of its change set, and
undo/redo revert those rows, so what Ctrl+Z took back shows as undone in ``richeng undo
--list`` and after a restart (``journal.is_undone``), and a change set that was edited
since elsewhere (the CLI, a sync) is refused with a message instead of half-restored.

Long steps leave the UI thread: ``undo(background=True)`` / ``redo(background=True)`` (the
window's Ctrl+Z and Ctrl+Shift+Z) and ``undo_specific(..., background=True)`` (the import
toast's Undo) run their store work (reverting journal rows) as an
``app.background_op.BackgroundOp`` on this object's one-thread ``pool``, and only the result handling (the stack, ``changed``,
``reverted``, ``failed``) comes back to the UI thread. ``busy_changed`` brackets such a step
(the window shows a busy cursor and a status line, and Undo/Redo wait for it); another
undo or redo asked for meanwhile is ignored. Without ``background`` the same steps run
synchronously and return their result: a single small edit (a drag, a delete, the chat
receipt's Undo of one change set) is a few milliseconds and its caller reads the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TypeVar

from PySide6.QtCore import QObject, QThreadPool, Signal

from agent.errors import JournalError, UserFacingError
from agent.services.calendars import Calendar, CalendarService, CalendarSnapshot
from agent.services.editing import EditService, EventDraft, Scope
from agent.store import journal
from agent.store.changes import ChangeSet
from agent.store.db import Store
from agent.store.occurrence import Occurrence
from agent.store.read_only import ReadOnlyCalendarError, ReadOnlyCalendars
from app.background_op import BackgroundOp
from app.i18n import error_text
from app.worker import describe

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class UndoEntry:
    label: str
    changes: ChangeSet
    journal_ids: list[int] = field(default_factory=list)  # the journal rows to revert, newest first
    undoes: list[int] = field(default_factory=list)  # redo entries: the rows a redo puts back in force
    title: str = ""  # the event's title, so the menu can say "Undo Delete “周会”"
    calendar: CalendarSnapshot | None = None  # a deleted calendar: undo restores it, redo deletes it again


class Operations(QObject):
    changed = Signal(object)  # ChangeSet (empty for calendar-only changes)
    calendars_changed = Signal()
    undo_state_changed = Signal(bool, bool)  # can_undo, can_redo
    failed = Signal(str)
    reverted = Signal(object)  # the original ChangeSet an undo just took back (chat receipts mark "Undone")
    busy_changed = Signal(bool)  # a background step (an undo or a redo) started / ended

    def __init__(self, store: Store, profile_id: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.profile_id = profile_id
        self.edits = EditService(store, profile_id, origin="user")
        self.calendars = CalendarService(store, profile_id)
        self.read_only = ReadOnlyCalendars(store, profile_id)
        self._undo: list[UndoEntry] = []
        self._redo: list[UndoEntry] = []
        self._keep = False  # the last journal revert failed in a way worth retrying
        self.busy = False  # a background step is running
        self.pool = QThreadPool(self)  # one thread: background steps run one after another
        self.pool.setMaxThreadCount(1)

    # ---- undo stack ----------------------------------------------------------------------

    def _push(self, label: str, changes: ChangeSet, title: str = "") -> ChangeSet:
        if changes:
            self._file(label, changes, self._journal_ids(changes), title)
        return changes

    def _file(self, label: str, changes: ChangeSet, ids: list[int], title: str = "") -> None:
        self._undo.append(UndoEntry(label, changes, ids, title=title))
        self._redo.clear()
        self.changed.emit(changes)
        self.undo_state_changed.emit(not self.busy, False)

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_text(self) -> str:
        """What Undo would take back, in words ("Delete “周会”"); "" when nothing."""
        return self._describe(self._undo[-1]) if self._undo else ""

    def redo_text(self) -> str:
        return self._describe(self._redo[-1]) if self._redo else ""

    def _describe(self, entry: UndoEntry) -> str:
        kinds = {
            "create": self.tr("Create “{0}”"),
            "edit": self.tr("Edit “{0}”"),
            "move": self.tr("Move “{0}”"),
            "resize": self.tr("Resize “{0}”"),
            "delete": self.tr("Delete “{0}”"),
            "complete": self.tr("Complete “{0}”"),
            "calendar": self.tr("Move “{0}” to another calendar"),
            "delete_calendar": self.tr("Delete calendar “{0}”"),
        }
        if entry.label in kinds and entry.title:
            return kinds[entry.label].format(entry.title)
        return {"import": self.tr("Import"), "assistant": self.tr("Assistant's change")}.get(entry.label, self.tr("Change"))

    def undo(self, *, background: bool = False) -> ChangeSet | None:
        return self._replay(self._undo, self._redo, background)

    def redo(self, *, background: bool = False) -> ChangeSet | None:
        return self._replay(self._redo, self._undo, background)

    # ---- running a step ------------------------------------------------------------------

    def _step(self, work: Callable[[], T], finish: Callable[[T | Exception], R], background: bool, name: str) -> R | None:
        """Run the store ``work``, then ``finish`` with its result (or the exception) on the UI
        thread: now (returning what ``finish`` returns), or on ``pool`` when ``background``."""
        if not background:
            try:
                result: T | Exception = work()
            except UserFacingError as exc:
                result = exc
            return finish(result)
        self._set_busy(True)
        op: BackgroundOp[None, T] = BackgroundOp(self, lambda _channel: work(), name)
        op.ended(lambda: self._set_busy(False)).success(finish).failure(finish).run_in_background(self.pool)
        return None

    def wait(self) -> None:
        """Block until a background step has finished (the window closes, the store will)."""
        self.pool.waitForDone()

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busy_changed.emit(busy)
            self.undo_state_changed.emit(bool(self._undo) and not busy, bool(self._redo) and not busy)

    def _failed(self, error: Exception) -> None:
        """A step's error: a journal refusal is final, any other worth retrying (the file was busy)."""
        self._keep = not isinstance(error, JournalError)
        self.failed.emit(error_text(error) if isinstance(error, UserFacingError) else describe(error))

    # ---- undo and redo -------------------------------------------------------------------

    def _replay(self, source: list[UndoEntry], target: list[UndoEntry], background: bool = False) -> ChangeSet | None:
        """Apply the inverse of the newest entry of ``source`` and file its inverse on ``target``."""
        if not source or self.busy:
            return None
        entry = source.pop()
        undo = source is self._undo
        if entry.calendar is not None:
            done = self._calendar_step(entry, undo=undo)
            if done is None and undo:
                source.append(entry)  # a calendar of that name exists again: rename it, then undo again
            return done[1] if done is not None else None
        if entry.journal_ids:
            ids = entry.journal_ids

            def journal_done(result: tuple[ChangeSet, list[int]] | Exception) -> ChangeSet | None:
                reverted = self._reverted(result)
                if reverted is None:
                    if self._keep:
                        source.append(entry)  # a passing failure (the file was busy): try again later
                    self.undo_state_changed.emit(bool(self._undo), bool(self._redo))
                    return None  # refused (changed since) or already undone elsewhere: the step is gone
                inverse, inverse_ids = reverted
                back = entry.undoes if not undo else []
                target.append(UndoEntry(entry.label, inverse, inverse_ids if undo else back, ids if undo else []))
                return self._replayed(entry, target, inverse, undo)

            return self._step(lambda: self._revert_rows(ids), journal_done, background, "undo" if undo else "redo")

        def edit_done(result: ChangeSet | Exception) -> ChangeSet | None:
            if isinstance(result, Exception):
                self._failed(result)
                source.append(entry)
                self.undo_state_changed.emit(bool(self._undo), bool(self._redo))
                return None
            target.append(UndoEntry(entry.label, result))
            return self._replayed(entry, target, result, undo)

        return self._step(lambda: self.edits.undo(entry.changes), edit_done, background, "undo" if undo else "redo")

    def _replayed(self, entry: UndoEntry, target: list[UndoEntry], inverse: ChangeSet, undo: bool) -> ChangeSet:
        target[-1].title = entry.title
        if undo:
            self.reverted.emit(entry.changes)
        self.changed.emit(inverse)
        self.undo_state_changed.emit(bool(self._undo), bool(self._redo))
        return inverse

    def undo_specific(self, changes: ChangeSet, *, background: bool = False) -> ChangeSet | None:
        """Undo one earlier change (a receipt's or a toast's Undo), wherever it sits on the stack."""
        if self.busy:
            return None
        ids: list[int] = []
        label, title = "undo", ""
        for index in range(len(self._undo) - 1, -1, -1):
            snapshot = self._undo[index].calendar
            if self._undo[index].changes is changes and snapshot is not None:
                restored = self.undo_calendar_delete(snapshot)
                return restored[1] if restored is not None else None
            if self._undo[index].changes is changes:
                ids = self._undo[index].journal_ids
                label, title = self._undo[index].label, self._undo[index].title
                del self._undo[index]
                break
        else:
            ids = self._journal_ids(changes)

        def done(redo: UndoEntry | None) -> ChangeSet | None:
            if redo is None:
                self.undo_state_changed.emit(bool(self._undo), bool(self._redo))
                return None
            redo.label, redo.title = label, title
            self._redo.append(redo)
            self.reverted.emit(changes)
            self.changed.emit(redo.changes)
            self.undo_state_changed.emit(bool(self._undo), True)
            return redo.changes

        if ids:

            def journal_done(result: tuple[ChangeSet, list[int]] | Exception) -> ChangeSet | None:
                reverted = self._reverted(result)
                return done(UndoEntry("undo", reverted[0], reverted[1], ids) if reverted is not None else None)

            return self._step(lambda: self._revert_rows(ids), journal_done, background, "undo")

        def edit_done(result: ChangeSet | Exception) -> ChangeSet | None:
            if isinstance(result, Exception):
                self._failed(result)
                return done(None)
            return done(UndoEntry("undo", result))

        return self._step(lambda: self.edits.undo(changes), edit_done, background, "undo")

    def undo_calendar_delete(self, snapshot: CalendarSnapshot) -> tuple[Calendar, ChangeSet] | None:
        """Undo one calendar deletion (the sidebar banner's Undo), wherever it sits on the stack."""
        for index in range(len(self._undo) - 1, -1, -1):
            entry = self._undo[index]
            if entry.calendar is snapshot:
                del self._undo[index]
                done = self._calendar_step(entry, undo=True)
                if done is None:
                    self._undo.insert(index, entry)  # refused (a name clash): the step stays where it was
                    return None
                return (done[0] or snapshot.calendar), done[1]
        return None  # undone already (Ctrl+Z) or never recorded

    def _calendar_step(self, entry: UndoEntry, undo: bool) -> tuple[Calendar | None, ChangeSet] | None:
        """Undo (restore the calendar and its events) or redo (delete it again) a calendar
        deletion; files the opposite entry and announces it. None when refused (``failed`` says why)."""
        snapshot = entry.calendar
        if snapshot is None:
            return None
        calendar: Calendar | None = None
        if undo:
            restored = self._guarded(lambda: self.calendars.restore_snapshot(snapshot))
            if restored is None:
                return None
            calendar, changes = restored
            self._redo.append(UndoEntry(entry.label, changes, title=entry.title, calendar=snapshot))
        else:
            again = self._guarded(lambda: self.calendars.delete_with_snapshot(snapshot.calendar.name))
            if again is None:
                return None
            changes = again.events
            self._undo.append(UndoEntry(entry.label, changes, title=entry.title, calendar=again))
        if undo:
            self.reverted.emit(entry.changes)
        self.calendars_changed.emit()
        self.changed.emit(changes)
        self.undo_state_changed.emit(bool(self._undo), bool(self._redo))
        return calendar, changes

    def _journal_ids(self, changes: ChangeSet) -> list[int]:
        """The journal rows that recorded ``changes`` (none found: the old in-memory undo)."""
        owned = {i for entry in (*self._undo, *self._redo) for i in (*entry.journal_ids, *entry.undoes)}
        try:
            return journal.matching(self.store, self.profile_id, changes, exclude=owned)
        except Exception:  # the journal only adds to undo; never lose the step over it
            return []

    def _revert_rows(self, ids: list[int]) -> tuple[ChangeSet, list[int]]:
        """Revert journal rows ``ids`` (newest first) in one transaction: the inverse change set
        and the rows that recorded it. Rows undone elsewhere already are skipped. Store work
        only (it may run on the pool's thread); ``_reverted`` reads the outcome."""
        inverse = ChangeSet()
        done: list[int] = []
        with self.store.transaction():
            for change_id in ids:
                if journal.is_undone(self.store, change_id):
                    continue
                inverse.extend(journal.revert(self.store, self.profile_id, change_id, origin="user").changes)
                done.append(change_id)
        found = (journal.inverse_of(self.store, c) for c in done)
        return inverse, list(dict.fromkeys(i for i in found if i is not None))  # one row may undo several

    def _reverted(self, result: tuple[ChangeSet, list[int]] | Exception) -> tuple[ChangeSet, list[int]] | None:
        """``_revert_rows``'s outcome; None (and ``failed`` says why) when nothing was reverted."""
        self._keep = False
        if isinstance(result, Exception):
            self._failed(result)
            return None
        if not result[0]:
            self.failed.emit(self.tr("Already undone"))
            return None
        return result

    def _guarded(self, action: Callable[[], T]) -> T | None:
        try:
            return action()
        except UserFacingError as exc:
            self.failed.emit(error_text(exc))
            return None

    # ---- read-only calendars (agent/store/read_only.py; the services refuse the write too) ---

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

    def record_assistant_change(self, changes: ChangeSet) -> None:
        """The assistant already committed these; make them undoable and refresh views."""
        self._push("assistant", changes)

    def record_edit(self, changes: ChangeSet, title: str, *, created: bool = False) -> None:
        """A composite edit the user made (one occurrence, this-and-following, a lunar series),
        already committed in one transaction by ``EditService``: one undo step named for it."""
        self._push("create" if created else "edit", changes, title)

    def create(self, draft: EventDraft) -> ChangeSet | None:
        changes = self._guarded(lambda: self.edits.create(draft))
        return self._push("create", changes, draft.title) if changes is not None else None

    def replace(self, uid: str, draft: EventDraft) -> ChangeSet | None:
        changes = self._guarded(lambda: self.edits.replace(uid, draft))
        return self._push("edit", changes, draft.title) if changes is not None else None

    def move(self, occ: Occurrence, start: datetime | date, end: datetime | date, scope: Scope = "all") -> ChangeSet | None:
        """A drag: named "Resize" when it changed the length (an edge), "Move" when not."""
        changes = self._guarded(lambda: self.edits.move(occ, start, end, scope))
        label = "move" if _length(start, end) == _length(occ.start, occ.end) else "resize"
        return self._push(label, changes, occ.title) if changes is not None else None

    def delete(self, occ: Occurrence, scope: Scope = "all") -> ChangeSet | None:
        changes = self._guarded(lambda: self.edits.delete(occ, scope))
        return self._push("delete", changes, occ.title) if changes is not None else None

    def move_to_calendar(self, occ: Occurrence, calendar_id: int) -> ChangeSet | None:
        """The whole event (every row of its series) into another calendar: one undo step."""
        changes = self._guarded(lambda: self.edits.move_to_calendar(occ.uid, calendar_id))
        return self._push("calendar", changes, occ.title) if changes is not None else None

    def set_completed(self, uid: str, done: bool, title: str = "") -> ChangeSet | None:
        changes = self._guarded(lambda: self.edits.set_completed(uid, done))
        return self._push("complete", changes, title) if changes is not None else None

    def imported(self, changes: ChangeSet | None = None) -> None:
        """Changes committed elsewhere that are not the user's to undo (a sync pull): refresh."""
        self.changed.emit(changes or ChangeSet())

    def record_import(self, changes: ChangeSet) -> None:
        """A GUI import committed in one transaction (on the import's own worker): one undo
        step (its before-images put updated events back, new ones go). A calendar it created
        stays, empty after undo, so redo has somewhere to put the events back. Filing it stays
        on the UI thread: finding its journal rows reads at most ``journal.matching``'s window."""
        self.calendars_changed.emit()
        self._push("import", changes)

    # ---- calendars -----------------------------------------------------------------------

    def delete_calendar(self, name: str) -> CalendarSnapshot | None:
        """Delete a calendar and its events: one step on the undo stack, like any edit.

        Its events go by cascade, outside the journal, so the entry keeps the snapshot
        (the calendar row and the events' before-images) that undo restores from."""
        snapshot = self._guarded(lambda: self.calendars.delete_with_snapshot(name))
        self.calendars_changed.emit()
        if snapshot is None:
            return None
        self._undo.append(UndoEntry("delete_calendar", snapshot.events, title=name, calendar=snapshot))
        self._redo.clear()
        self.changed.emit(snapshot.events)
        self.undo_state_changed.emit(True, False)
        return snapshot

    def external_change(self) -> None:
        """Another process (or this app's own workers) committed: reload calendars and views."""
        self.calendars_changed.emit()
        self.changed.emit(ChangeSet())

    def calendar_action(self, action: Callable[[], T]) -> T | None:
        result = self._guarded(action)
        self.calendars_changed.emit()
        self.changed.emit(ChangeSet())
        return result


def _length(start: datetime | date, end: datetime | date) -> timedelta | None:
    """An event's length; None when its ends are of different kinds (nothing to compare)."""
    try:
        return end - start  # type: ignore[operator]
    except TypeError:
        return None
