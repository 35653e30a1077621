"""What a turn left pending, and the ways the person answers it beside the chat.

A create that needs a day, a confirmation or an edit target leaves a pending command (the
agent's ``commands`` / ``chat_edits`` rows); the pane shows it as the chip in the candidate
bar until the row expires, and a conflict or a past time as a dialog. This object owns that
chip's expiry timer and those two dialogs, so the pane itself only runs turns and shows
their bubbles. Every answer goes back through the pane's ``act`` (a turn with no model
call), never to the store directly: the agent decides what a button means.

A question never opens over an unrelated modal window the person is working in (an event
editor): ``ModalWait`` holds it until that window closes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Slot
from PySide6.QtWidgets import QWidget

from agent.errors import UserFacingError
from agent.runtime.receipts import language_of
from agent.runtime.turn_types import TurnResult
from agent.services.chat_edits import ChatEditService, EditOption, EditOutcome
from agent.services.command_types import ACTIVE, Outcome, WriteFacts
from agent.services.commands import CommandService
from app.chat.bubble import MessageBubble
from app.chat.candidate_bar import CandidateBar
from app.chat.modal_wait import ModalWait
from app.chat.pending_dialog import ADD, CANCEL, CREATE, DROP, PendingDialog
from app.context import AppContext

EDIT_PENDING = ("edit_choice", "edit_confirm", "edit_conflict")  # a pending change: buttons in the bar
EDIT_DONE = ("updated", "deleted", "edit_cancelled", "edit_no_match", "edit_invalid")


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChatPane", text)


class PendingFlow(QObject):
    def __init__(
        self,
        ctx: AppContext,
        pane: QWidget,
        bar: CandidateBar,
        act: Callable[[str], Any],
        focus_input: Callable[[], None],
    ) -> None:
        super().__init__(pane)
        self.ctx = ctx
        self._pane = pane  # the dialogs' parent
        self.bar = bar
        self._act = act
        self._focus_input = focus_input
        self.conflict_dialog: PendingDialog | None = None
        self.past_time_dialog: PendingDialog | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._expired)
        self.modal_wait = ModalWait(pane, lambda widget: widget in (self.conflict_dialog, self.past_time_dialog))

    # ---- a turn's result --------------------------------------------------------------------

    def follow(self, result: TurnResult, bubble: MessageBubble | None) -> None:
        """Show what ``result`` left pending, and ask about a conflict or a past time."""
        self._track(result)
        receipt = result.receipt
        if result.outcome == "conflict" and isinstance(receipt, Outcome):
            conflict = receipt
            self._ask_when_free(lambda: self._ask_conflict(conflict), bubble)
        elif result.outcome == "past_time" and isinstance(receipt, Outcome) and receipt.start is not None:
            past = receipt
            self._ask_when_free(lambda: self._ask_past_time(past), bubble)

    def _ask_when_free(self, ask: Callable[[], None], bubble: MessageBubble | None) -> None:
        """Ask now, or after the user closes the modal window they are working in."""
        if self.modal_wait.run_or_wait(ask, lambda: bubble.set_status("") if bubble is not None else None):
            return
        if bubble is not None:
            bubble.set_status(_tr("I'll ask about this when the open window is closed."))

    def _track(self, result: TurnResult) -> None:
        receipt = result.receipt
        if result.outcome in EDIT_PENDING:
            edit = receipt if isinstance(receipt, EditOutcome) else EditOutcome(result.outcome)
            options = edit.offered()
            title = (options[0].title if options else "") or edit.title
            self._show_edit(title, result.outcome, edit.op or "update", options, result.lang, edit.expires_at)
            return
        if result.outcome in EDIT_DONE or (self.bar.status in EDIT_PENDING and self._edit_gone()):
            self.clear()
            return
        if result.outcome in ACTIVE:
            outcome = receipt if isinstance(receipt, Outcome) else Outcome(result.outcome)
            self._show_pending(outcome.title, result.outcome, outcome.candidates, result.lang, outcome.expires_at)
        elif result.outcome in ("created", "cancelled", "none"):
            self.clear()

    # ---- the chip ---------------------------------------------------------------------------

    def restore(self) -> None:
        """A command left pending by the last run (and not yet expired) gets its chip back."""
        tctx = self.ctx.time_context()
        try:
            stub = CommandService(self.ctx.store, self.ctx.profile_id, tctx).active_stub()
        except UserFacingError:
            return
        edit = ChatEditService(self.ctx.store, self.ctx.profile_id, tctx, WriteFacts()).active()
        if edit is not None and (stub is None or edit.id > stub.id):
            options = edit.offered()
            title = options[0].title if options else ""
            status = {"choose": "edit_choice", "confirm": "edit_confirm"}.get(edit.status, edit.status)
            self._show_edit(
                title,
                status,
                str(edit.slots.get("op") or "update"),
                options,
                language_of(title, self.ctx.settings.get("language")),
                edit.expires_at,
            )
            return
        if stub is None:
            return
        lang = language_of(stub.title, self.ctx.settings.get("language"))
        today = tctx.now.date()
        days = [day for day in stub.days() if day >= today]
        self._show_pending(stub.title, stub.status, days, lang, stub.expires_at)

    def clear(self) -> None:
        self.timer.stop()
        self.bar.clear()

    def _show_pending(self, title: str, status: str, candidates: list[date], lang: str, expires_at: datetime | None) -> None:
        self.bar.show_pending(title, status, candidates, lang, self.ctx.time_context().today)
        self._expire_at(expires_at)

    def _show_edit(
        self, title: str, status: str, op: str, options: list[EditOption], lang: str, expires_at: datetime | None
    ) -> None:
        self.bar.show_edit(title, status, op, options, lang, self.ctx.time_context().today)
        self._expire_at(expires_at)

    def _expire_at(self, expires_at: datetime | None) -> None:
        """The chip goes when its stub expires (the stub's own ``expires_at``); a result with
        no stub behind it keeps the chip for one command lifetime."""
        if expires_at is not None:
            ttl = expires_at - self.ctx.time_context().now
        else:
            ttl = timedelta(minutes=int(self.ctx.settings.get("command_ttl_minutes")))
        self.timer.start(max(1000, int(ttl.total_seconds() * 1000)))

    def _edit_gone(self) -> bool:
        """The pending edit the bar shows was answered or dropped by the agent meanwhile."""
        try:
            return ChatEditService(self.ctx.store, self.ctx.profile_id, self.ctx.time_context(), WriteFacts()).active() is None
        except UserFacingError:
            return True

    @Slot()
    def _expired(self) -> None:
        self.bar.clear()  # the agent expired the stub by now; its buttons would say "none"

    # ---- the dialogs ------------------------------------------------------------------------

    def _ask_conflict(self, outcome: Outcome) -> None:
        self.conflict_dialog = PendingDialog.conflict(outcome, self.ctx.tz, self._pane)
        self._open(self.conflict_dialog, {CREATE: "create_anyway", CANCEL: "cancel"})

    def _ask_past_time(self, outcome: Outcome) -> None:
        self.past_time_dialog = PendingDialog.past_time(outcome, self.ctx.tz, self._pane)
        self._open(self.past_time_dialog, {ADD: "add_anyway", DROP: "cancel"})

    def _open(self, dialog: PendingDialog, answers: dict[str, str]) -> None:
        """Open ``dialog``; its choice becomes the ``act`` that ``answers`` names, and any
        other choice (change the time) puts the cursor back in the input."""

        def chosen(choice: str) -> None:
            if self.conflict_dialog is dialog:
                self.conflict_dialog = None
            if self.past_time_dialog is dialog:
                self.past_time_dialog = None
            dialog.deleteLater()
            kind = answers.get(choice)
            if kind is not None:
                self._act(kind)
            else:
                self._focus_input()

        dialog.chosen.connect(chosen)  # the dialog's own signal: the connection dies with it
        dialog.open()
