"""The chat pane: the conversation, the pending command, and the input, on the right.

Turns run on a one-thread pool as ``app.background_op.BackgroundOp``s so the calendar never freezes
while a model thinks; tokens stream into the reply bubble as they arrive.

One turn at a time, and the next message is *not* queued: while a turn runs the Send
button becomes Stop and Enter does nothing, but the input stays editable so the next
message can be typed. A queued message would be read against a state the user has not
seen yet (a pending "which day?" it might accidentally answer), so we wait instead.

Results are handled once the worker has finished (the op keeps them until then): by then
the pane is idle again, so a dialog the result opens (conflict, past time) can act at once.
What a result leaves pending (the chip, its expiry, those dialogs) is ``PendingFlow``'s
(``app/chat/pending_flow.py``); its answers come back here as ``act`` turns.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from datetime import timedelta
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from agent.runtime.session import ChatSession
from agent.runtime.turn_types import TurnEvent, TurnResult
from agent.services.archive import ArchiveService
from agent.services.chat_edits import ChatEditService, EditOutcome
from agent.services.command_types import Outcome, WriteFacts
from agent.services.commands import CommandService
from agent.timesym.context import TimeContext
from app.background_op import BackgroundOp
from app.chat.bubble import MessageBubble
from app.chat.candidate_bar import CandidateBar
from app.chat.guard_dialog import GuardBanner
from app.chat.message_view import MessageView
from app.chat.no_model_panel import NoModelPanel
from app.chat.pending_dialog import PendingDialog
from app.chat.pending_flow import PendingFlow
from app.chat.progress import TurnProgress
from app.context import AppContext
from app.i18n import system_language
from app.quick_text import QuickReader, SpanLineEdit
from app.worker import GeneratorWorker, describe


def _honour_stop(
    turn: Generator[TurnEvent, None, TurnResult], stop_requested: Callable[[], bool], stop: Callable[[], None]
) -> Generator[TurnEvent, None, TurnResult]:
    """Re-send a Stop that arrived before the turn started (``send`` clears the flag on entry)."""
    while True:
        try:
            event = next(turn)
        except StopIteration as done:
            return done.value
        if stop_requested():
            stop()
        yield event


def _act_turn(session: ChatSession, kind: str, date: str | None, ctx: TimeContext) -> Generator[TurnEvent, None, TurnResult]:
    """A button press as a one-step turn, so it runs on the worker like everything else."""
    result = session.act(kind, date=date, ctx=ctx)
    yield TurnEvent("done", result.reply, payload=result)
    return result


def _warm_up(ctx: TimeContext) -> Generator[None, None, None]:
    """Pay the agent's one-time costs (lazy imports, pydantic schema machinery, holiday
    tables) on the worker at start-up, so the first message does not stall the window."""
    yield from ()
    from agent.runtime.tools import tool_schemas
    from agent.timesym.clarify import parse_slot_reply

    tool_schemas([])
    parse_slot_reply("这个周末下午三点", ctx)


class ChatPane(QWidget):
    navigate = Signal(str, object)  # uid, start: show this event in the calendar
    turn_finished = Signal(object)  # the TurnResult, or None when the turn failed
    quick_add_requested = Signal()  # the no-model panel's button: the calendar's quick-add field

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.worker: GeneratorWorker[TurnEvent, TurnResult] | None = None
        self._op: BackgroundOp[TurnEvent, TurnResult] | None = None
        self.last_reply: MessageBubble | None = None
        self._stop_requested = False
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # one turn at a time, in order

        title = QLabel(self.tr("Assistant"), self)
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        self.model_label = QLabel(self)
        self.model_label.setStyleSheet("color: palette(placeholder-text);")
        header = QHBoxLayout()
        header.setContentsMargins(8, 6, 8, 0)
        header.addWidget(title)
        header.addStretch(1)
        header.addWidget(self.model_label)
        self.new_button = QToolButton(self)
        self.new_button.setText(self.tr("New conversation"))
        self.new_button.setToolTip(
            self.tr(
                "Start a fresh conversation: the assistant forgets the talk so far "
                "(it stays searchable) and the pending request is dropped"
            )
        )
        self.new_button.setAutoRaise(True)
        self.new_button.clicked.connect(self.new_conversation)
        header.addWidget(self.new_button)

        self.guard_banner = GuardBanner(self)
        self.view = MessageView(ctx.tz, self)
        self.view.navigate.connect(self.navigate)
        self.view.undo_requested.connect(self._undo)
        ctx.ops.reverted.connect(self._reverted)
        self.no_model_panel = NoModelPanel(self)
        self.no_model_panel.settings_requested.connect(self._open_settings)
        self.no_model_panel.quick_add_requested.connect(self.quick_add_requested)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.no_model_panel)

        self.candidate_bar = CandidateBar(self)
        self.candidate_bar.date_picked.connect(self._date_picked)
        self.candidate_bar.cancel_requested.connect(self._cancel_pending)
        self.candidate_bar.confirm_requested.connect(lambda: self.act("confirm"))
        self.candidate_bar.target_picked.connect(lambda index, label: self.act("pick_target", date=str(index), label=label))
        self.candidate_bar.edit_confirm_requested.connect(lambda: self.act("confirm_edit"))
        self.progress = TurnProgress(self)  # phase, prompt tokens read, seconds (Stop: send_button)
        # The chip's expiry and the conflict / past-time questions (which never open over an
        # unrelated modal editor).
        self.pending = PendingFlow(ctx, self, self.candidate_bar, self.act, lambda: self.input.setFocus())

        # What code reads is underlined while typing (information only: the model still reads it).
        self.input = SpanLineEdit(self)
        self.reader = QuickReader(ctx)
        self.input.textChanged.connect(self._underline)
        self.input.setClearButtonEnabled(True)
        self.input.installEventFilter(self)  # a click on it while disabled says why (issue 32)
        self.input.returnPressed.connect(self._submit)
        self.send_button = QPushButton(self)
        self.send_button.clicked.connect(self._send_or_stop)
        entry = QHBoxLayout()
        entry.setContentsMargins(8, 4, 8, 8)
        entry.addWidget(self.input, 1)
        entry.addWidget(self.send_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(header)
        layout.addWidget(self.guard_banner)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.candidate_bar)
        layout.addWidget(self.progress)
        layout.addLayout(entry)

        self._set_busy(False)
        self._load_history()
        self.pending.restore()
        self.model_changed()
        app = QCoreApplication.instance()
        if app is not None:
            # One slot of this widget, never a plain callable: Qt drops a QObject's connections
            # when it is destroyed, while a bound method of the (non-Qt) session stayed on the
            # process-wide signal after the pane was gone, and a later quit called into freed
            # memory (a segfault in the next app run of the same process).
            app.aboutToQuit.connect(self._on_about_to_quit)
        self._warm = BackgroundOp(self, _warm_up(ctx.time_context()), "warm-up")
        self._warm.run_in_background(self._pool)  # queued ahead of any turn on the one-thread pool
        # A local model starts loading and reading its prompt prefix once the window is up.
        warm_model = getattr(ctx.session, "warm_up", None)
        if callable(warm_model):
            QTimer.singleShot(0, self, warm_model)  # dies with the pane

    # ---- public -----------------------------------------------------------------------------

    def model_changed(self) -> None:
        """The configured model changed (settings): swap the no-model panel and the chat."""
        self.reader.refresh()
        model = self.ctx.session.model
        has_model = model is not None
        self.stack.setCurrentWidget(self.view if has_model else self.no_model_panel)
        self.input.setEnabled(has_model)
        # Disabled, it must not invite typing (issue 32): it says why, and the way without a model.
        # Short enough for the pane's minimum width; the whole hint is the tooltip and the click's.
        self.input.setPlaceholderText(
            self.tr("Tell me what to schedule, or ask about your week…")
            if has_model
            else self.tr("No model · Ctrl+L adds events")
        )
        self.input.setToolTip("" if has_model else self.no_model_hint())
        self.send_button.setEnabled(has_model or self.is_busy())
        self.model_label.setText(_short_model_name(getattr(model, "name", "")) if has_model else self.tr("no model"))

    def no_model_hint(self) -> str:
        return self.tr("Chat needs a model (Settings → Model); Ctrl+L adds an event without one")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.input and event.type() == QEvent.Type.MouseButtonPress and not self.input.isEnabled():
            QToolTip.showText(self.input.mapToGlobal(QPoint(0, -self.input.height())), self.no_model_hint(), self.input)
        return super().eventFilter(watched, event)

    @property
    def conflict_dialog(self) -> PendingDialog | None:
        return self.pending.conflict_dialog

    @property
    def past_time_dialog(self) -> PendingDialog | None:
        return self.pending.past_time_dialog

    def warmed_up(self) -> bool:
        """True once the start-up warm-up has run (tests wait for it before timing turns)."""
        return self._warm.done

    def is_busy(self) -> bool:
        return self.worker is not None

    def send_message(self, text: str) -> GeneratorWorker[TurnEvent, TurnResult] | None:
        worker = self.prepare_send(text)
        if worker is not None:
            self.run_worker(worker)
        return worker

    def prepare_send(self, text: str) -> GeneratorWorker[TurnEvent, TurnResult] | None:
        """Show the message and build its worker, not yet started (tests connect first)."""
        text = text.strip()
        if not text or self.is_busy():
            return None
        self.guard_banner.dismiss()
        self.pending.modal_wait.cancel()  # this message supersedes a question still waiting
        self._maybe_session_break()
        self.view.add_bubble("user", text, self.ctx.now())
        self._begin_reply(self.tr("Thinking…"))
        self.progress.start()
        session = self.ctx.session
        turn = _honour_stop(session.send(text, self.ctx.time_context()), lambda: self._stop_requested, session.stop)
        return self._make_worker(turn, "chat turn")

    def act(self, kind: str, date: str | None = None, label: str = "") -> GeneratorWorker[TurnEvent, TurnResult] | None:
        """A button on the pending command: pick_date, create_anyway, add_anyway, confirm, cancel (no model)."""
        if self.is_busy():
            return None
        self.pending.modal_wait.cancel()
        self.view.add_bubble("action", label or self.view.action_text(kind, date), self.ctx.now())
        self._begin_reply("")
        worker = self._make_worker(_act_turn(self.ctx.session, kind, date, self.ctx.time_context()), f"act {kind}")
        self.run_worker(worker)
        return worker

    def run_worker(self, worker: GeneratorWorker[TurnEvent, TurnResult]) -> None:
        """Start the turn ``prepare_send``/``act`` built (its op is the pane's current one)."""
        if self._op is not None and self._op.worker is worker:
            self._op.run_in_background(self._pool)

    @Slot()
    def stop(self) -> None:
        """Stop the running turn at its next token; what it already committed stays committed."""
        if self.worker is None:
            return
        self._stop_requested = True
        self.worker.quit()
        self.ctx.session.stop()
        self.progress.stopping()
        if self.last_reply is not None:
            self.last_reply.set_status(self.tr("Stopping…"))

    @Slot()
    def _on_about_to_quit(self) -> None:
        """Quitting waits neither for a model to finish talking nor for it to finish reading
        its prompt prefix; a finished read-ahead of the conversation is saved for the next
        start (``ChatSession.cancel_warm_up``)."""
        self.stop()
        cancel_warm_up = getattr(self.ctx.session, "cancel_warm_up", None)
        if callable(cancel_warm_up):
            cancel_warm_up()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop and wait for the worker (window close, tests); True when it ended in time."""
        self.stop()
        return self._pool.waitForDone(timeout_ms)

    # ---- worker -----------------------------------------------------------------------------

    def _begin_reply(self, status: str) -> None:
        self.last_reply = self.view.add_bubble("assistant", "")
        self.last_reply.set_status(status)

    def _make_worker(self, generator: Generator[TurnEvent, Any, TurnResult], name: str) -> GeneratorWorker[TurnEvent, TurnResult]:
        op = BackgroundOp(self, generator, name)
        op.progress(self._on_yielded).ended(self._turn_ended).success(self._turn_succeeded).failure(self._turn_failed)
        self._op, self.worker = op, op.worker
        self._stop_requested = False
        self._set_busy(True)
        return op.worker

    @Slot(object)
    def _on_yielded(self, event: TurnEvent) -> None:
        self.progress.on_event(event, self._tool_status(event.name) if event.kind == "tool_call" else "")
        bubble = self.last_reply
        if bubble is None:
            return
        if event.kind == "token":
            if bubble.status.isVisible():
                bubble.set_status("")
            bubble.append(event.text)
        elif event.kind == "reset":
            bubble.set_text("")  # tool-call preamble or a guarded claim: not what the user reads
        elif event.kind == "tool_call":
            bubble.set_status(self._tool_status(event.name))

    def _turn_ended(self) -> None:
        """The worker has finished: the pane is idle before the result is shown."""
        self.worker = self._op = None
        self.progress.finish()
        self._set_busy(False)
        bubble = self.last_reply
        if bubble is not None:
            bubble.meta.setText(f"{self.ctx.now():%H:%M}")
            bubble.set_status("")

    def _turn_succeeded(self, result: TurnResult) -> None:
        if isinstance(result, TurnResult):
            self._show_result(result)
        self.turn_finished.emit(result if isinstance(result, TurnResult) else None)

    def _turn_failed(self, error: Exception) -> None:
        """A bug or a backend's surprise: one line in the bubble, the traceback in the log."""
        if self.last_reply is not None:
            self.last_reply.set_error(self.tr("Something went wrong in the assistant: {0}").format(describe(error)))
        self.turn_finished.emit(None)

    def _set_busy(self, busy: bool) -> None:
        if busy:
            self.send_button.setText(self.tr("Stop"))
            self.send_button.setToolTip(self.tr("Stop the assistant"))
            self.send_button.setEnabled(True)
        else:
            self.send_button.setText(self.tr("Send"))
            self.send_button.setToolTip(self.tr("Send (Enter)"))
            self.send_button.setEnabled(self.ctx.session.model is not None)
        self.candidate_bar.setEnabled(not busy)

    def _tool_status(self, name: str) -> str:
        """The running tool's label, from its ``Tool`` object in the session's registry, in
        the interface's language (the setting, else the system's: what ``app.application``
        installs)."""
        setting = self.ctx.settings.get("language")
        lang = str(setting) if setting in ("zh", "en") else ("zh" if system_language() == "zh_CN" else "en")
        return self.ctx.session.tools.status(name, lang)

    # ---- results ----------------------------------------------------------------------------

    def _show_result(self, result: TurnResult) -> None:
        bubble = self.last_reply
        receipt = result.receipt  # typed: the Outcome / EditOutcome ... the receipt was written from
        if bubble is not None:
            bubble.set_text(result.reply)
            bubble.result = result
            if result.calendar == "changed" and not result.from_model:
                bubble.set_card()
            bubble.set_calendar_note(result.calendar_note or "")
            bubble.set_facts_card(result.facts_card or "")
            event = receipt.event if result.outcome == "created" and isinstance(receipt, Outcome) else None
            if event is not None and event.uid:
                bubble.set_receipt(event.uid, event.start, undoable=bool(result.changes))
            elif result.outcome in ("updated", "deleted") and isinstance(receipt, EditOutcome) and receipt.at is not None:
                # An edit's receipt: Show in calendar goes to where it is now; Undo puts it back.
                bubble.set_receipt(receipt.uid or "", receipt.at, undoable=bool(result.changes), edit=True)
        if result.changes:
            self.ctx.ops.record_assistant_change(result.changes)
        if result.guard:
            self.guard_banner.show_guard(result.guard, result.outcome)
        self.pending.follow(result, bubble)

    # ---- user actions -----------------------------------------------------------------------

    @Slot()
    def _submit(self) -> None:
        if self.is_busy():
            return  # the text stays in the box; Enter works again when the turn ends
        if self.send_message(self.input.text()) is not None:
            self.input.clear()

    @Slot(str)
    def _underline(self, text: str) -> None:
        self.input.set_spans(self.reader.read(text).spans if text.strip() else ())

    @Slot()
    def _send_or_stop(self) -> None:
        if self.is_busy():
            self.stop()
        else:
            self._submit()

    @Slot(str, str)
    def _date_picked(self, iso: str, label: str) -> None:
        self.act("pick_date", date=iso, label=label)

    @Slot()
    def _cancel_pending(self) -> None:
        self.act("cancel")

    @Slot(object)
    def _undo(self, bubble: MessageBubble) -> None:
        result = bubble.result
        if not isinstance(result, TurnResult) or not result.changes:
            return
        if self.ctx.ops.undo_specific(result.changes) is None:  # on success, _reverted marks it
            bubble.set_undone(False)

    @Slot(object)
    def _reverted(self, changes: object) -> None:
        """An assistant change was undone (receipt Undo or Ctrl+Z): its receipt says so,
        now and after a restart (the archived message is marked)."""
        for bubble in self.view.bubbles():
            result = bubble.result
            if isinstance(result, TurnResult) and result.changes is changes:
                bubble.set_undone(True)
                if result.message_id is not None:
                    ArchiveService(self.ctx.store, self.ctx.profile_id).mark(result.message_id, undone=True)

    @Slot()
    def new_conversation(self) -> None:
        """A clean slate: the archive gets a marker the model's context stops at, and a
        pending request is dropped (it belonged to the conversation being closed)."""
        if self.is_busy():
            return
        tctx = self.ctx.time_context()
        CommandService(self.ctx.store, self.ctx.profile_id, tctx).cancel_active()
        ChatEditService(self.ctx.store, self.ctx.profile_id, tctx, WriteFacts()).supersede()
        ArchiveService(self.ctx.store, self.ctx.profile_id, clock=tctx.now).new_conversation()
        self.pending.clear()
        self.guard_banner.dismiss()
        self.view.add_divider(self.ctx.now())
        self.input.setFocus()

    @Slot()
    def _open_settings(self) -> None:
        window = self.window()
        opener = getattr(window, "open_settings", None)
        if window is not self and callable(opener):
            opener(page="model")  # the main window refreshes the calendar and calls model_changed()
            return
        from app.settings.settings_dialog import SettingsDialog

        if SettingsDialog(self.ctx, self, page="model").exec():
            self.model_changed()

    # ---- start-up ---------------------------------------------------------------------------

    def _load_history(self) -> None:
        archive = ArchiveService(self.ctx.store, self.ctx.profile_id)
        messages = archive.recent()
        gap = int(self.ctx.settings.get("session_gap_minutes"))
        self.view.load_history(messages, archive.segment_breaks(messages, gap))

    def _maybe_session_break(self) -> None:
        last = self.view.last_time
        gap = timedelta(minutes=int(self.ctx.settings.get("session_gap_minutes")))
        now = self.ctx.now()
        if last is not None and now - last > gap:
            self.view.add_divider(now)


def _short_model_name(name: str) -> str:
    if name.startswith("openai:"):
        model, _, url = name[len("openai:") :].partition("@")
        host = url.split("//", 1)[-1].split("/", 1)[0]
        return f"{model} · {host}" if host else model
    if name.startswith("llama:"):
        return name.rsplit("/", 1)[-1]
    return name
