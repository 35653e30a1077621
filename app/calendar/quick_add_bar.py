"""The quick-add field under the toolbar: one sentence, read by code, Enter adds it.

Typing underlines what code read (``app/quick_text.py``) and the line beside the field says
what Enter would create ("周三 12月2日 15:00–16:00 · 和张三开会 · 日程"), or why the
sentence is not an event yet. No model is involved, so it works on a first run.

Enter writes through the op runner's ``quick_add`` (the command layer's ``QuickAdd.create``,
like ``richeng quick``, as one op that announces what it wrote): the views reload
and Ctrl+Z takes it back like any other create. A conflict or a past time opens the
chat's ``PendingDialog`` ("Create anyway" continues the pending command with
``allow_conflict``, "Add it anyway" with ``allow_past``); whatever else is chosen, the pending command is
dropped (it is the field's, not the conversation's) and the sentence stays to be edited.
The created event is shown and flashed in the calendar (``created``), and the field clears.

The parser and the command layer are imported on first use: the first paint needs neither.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QWidget

from agent.errors import UserFacingError
from agent.store.changes import ChangeSet
from app.context import AppContext
from app.i18n import error_text
from app.quick_text import QuickReader, SpanLineEdit, preview_html, when_text
from app.worker import describe

if TYPE_CHECKING:
    from agent.services.command_types import Outcome
    from agent.services.commands import CommandService
    from agent.timesym.sentence import QuickEvent
    from app.chat.pending_dialog import PendingDialog

FIELD_MIN = 220
# Narrower than this, the preview takes a line of its own under the field (issue 32): side by
# side at 1280 px (the bar ~550 px) the field was ~220 px and the preview lost its place,
# repeat and reminder after "…". Fixed, so typing never flips the layout.
STACK_BELOW = 900
_log = logging.getLogger(__name__)


class QuickAddBar(QWidget):
    created = Signal(str, object)  # uid, start: show and flash this event
    escaped = Signal()  # Esc in an empty field: the calendar takes the keys back

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.reader = QuickReader(ctx)
        self.calendar_name = ""
        self.parsed: QuickEvent | None = None
        self.conflict_dialog: PendingDialog | None = None
        self.past_time_dialog: PendingDialog | None = None
        self.last_outcome: Outcome | None = None

        self.field = SpanLineEdit(self)
        self.field.setObjectName("quick_add")
        self.field.setPlaceholderText(self.tr("Quick add: Lunch with Tom tomorrow at noon"))
        self.field.setToolTip(self.tr("Type a day, a time and what it is; Enter adds it, Esc clears (Ctrl+L)"))
        self.field.setClearButtonEnabled(True)
        self.field.setMinimumWidth(FIELD_MIN)
        self.field.undo_passes_when_empty = True
        self.field.textChanged.connect(self._text_changed)
        self.field.returnPressed.connect(self.submit)
        self.field.installEventFilter(self)

        self.preview = QLabel(self)
        self.preview.setObjectName("quick_add_preview")
        self.preview.setTextFormat(Qt.TextFormat.RichText)
        self.preview.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.preview.setMinimumWidth(0)
        self.preview_plain = ""  # what the preview says, without markup (tests, the tooltip)
        self._rich = ""

        layout = QGridLayout(self)
        layout.setContentsMargins(8, 0, 8, 6)
        layout.setHorizontalSpacing(8)
        layout.setVerticalSpacing(2)
        self.grid = layout
        self.stacked: bool | None = None
        self._place(stacked=False)

        ctx.ops.calendars_changed.connect(self.refresh)
        ctx.ops.changed.connect(self._store_changed)
        self._refresh_calendar()

    # ---- cached settings ----------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Settings or calendars changed: re-read what each keystroke uses."""
        self.reader.refresh()
        self._refresh_calendar()
        self._text_changed(self.field.text())

    def _store_changed(self, *_: object) -> None:
        self._refresh_calendar()

    def _refresh_calendar(self) -> None:
        try:
            self.calendar_name = self.ctx.ops.calendars.choose(None).calendar.name
        except UserFacingError:
            self.calendar_name = ""

    # ---- typing -------------------------------------------------------------------------

    def focus(self) -> None:
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    @Slot(str)
    def _text_changed(self, text: str) -> None:
        if not text.strip():
            self.parsed = None
            self.field.set_spans(())
            self._say("", "")
            return
        parsed = self.reader.read(text)
        self.parsed = parsed
        self.field.set_spans(parsed.spans)
        if parsed.problem is not None:
            self._problem(parsed, strong=False)
        else:
            today = self.reader.now().date()
            line = self.tr("Enter: {0}").format(
                preview_html(parsed, self.calendar_name, self.reader.chinese, today, self.reader.tz)
            )
            self._say(line, _plain(line))

    def _problem(self, parsed: QuickEvent, strong: bool) -> None:
        line = parsed.message(self.reader.lang)
        colour = "#c62828" if strong else "palette(placeholder-text)"
        self._say(f'<span style="color:{colour}">{_escape(line)}</span>', line)

    def _say(self, rich: str, plain: str) -> None:
        self.preview_plain = plain
        self._rich = rich
        self.preview.setToolTip(plain)
        self._fit()

    def _fit(self) -> None:
        """Show what fits: whole " · " parts from the front, then "…" (never a word cut in
        half at the edge); the full line is in the tooltip."""
        rich, plain = self._rich, self.preview_plain
        metrics, width = self.preview.fontMetrics(), self.preview.contentsRect().width()
        if not plain or width <= 0 or metrics.horizontalAdvance(plain) <= width:
            self.preview.setText(rich)
            return
        rich_parts, plain_parts = rich.split(" · "), plain.split(" · ")
        if len(rich_parts) == len(plain_parts):
            for count in range(len(plain_parts) - 1, 0, -1):
                if metrics.horizontalAdvance(" · ".join(plain_parts[:count]) + " · …") <= width:
                    self.preview.setText(" · ".join(rich_parts[:count]) + " · …")
                    return
        self.preview.setText(_escape(metrics.elidedText(plain, Qt.TextElideMode.ElideRight, width)))

    def _place(self, *, stacked: bool) -> None:
        """Side by side (field 5 : preview 7), or the field across the bar and the preview
        on the line below it."""
        if stacked == self.stacked:
            return
        self.stacked = stacked
        grid = self.grid
        grid.removeWidget(self.field)
        grid.removeWidget(self.preview)
        if stacked:
            grid.addWidget(self.field, 0, 0, 1, 2)
            grid.addWidget(self.preview, 1, 0, 1, 2)
            grid.setColumnStretch(0, 1)
            grid.setColumnStretch(1, 0)
        else:
            grid.addWidget(self.field, 0, 0)
            grid.addWidget(self.preview, 0, 1)
            grid.setColumnStretch(0, 5)
            grid.setColumnStretch(1, 7)

    def resizeEvent(self, event: QResizeEvent) -> None:  # a Qt override keeps Qt's name
        self._place(stacked=event.size().width() < STACK_BELOW)
        super().resizeEvent(event)
        self._fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.field
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            if self.field.text():
                self.field.clear()
            else:
                self.escaped.emit()
            return True
        return super().eventFilter(watched, event)

    # ---- Enter --------------------------------------------------------------------------

    def _service(self) -> CommandService:
        """For the pending command's state only (cancel); writes go through ``ctx.ops``."""
        from agent.services.commands import CommandService

        self.reader.refresh()  # a write is rare: the current zone and default length
        return CommandService(self.ctx.store, self.ctx.profile_id, self.reader.time_context(), origin="user")

    @Slot()
    def submit(self) -> str | None:
        """Create what the field says; the outcome's status, or None when it is not an event."""
        text = self.field.text()
        parsed = self.reader.read(text)
        self.parsed = parsed
        self.field.set_spans(parsed.spans)
        if parsed.problem is not None:
            self._problem(parsed, strong=True)
            return None
        self.reader.refresh()  # a write is rare: the current zone and default length
        try:
            result, written = self.ctx.ops.quick_add(parsed, self.reader.time_context())
        except (UserFacingError, ValueError) as exc:
            self._say(f'<span style="color:#c62828">{_escape(error_text(exc))}</span>', error_text(exc))
            return None
        except Exception as exc:  # a bug: say so in the line (never a silent Enter); the log has the traceback
            _log.exception("quick add failed")
            line = self.tr("Could not add it: {0}").format(describe(exc))
            self._say(f'<span style="color:#c62828">{_escape(line)}</span>', line)
            return None
        assert result.outcome is not None
        return self._outcome(written, result.outcome)

    def _outcome(self, written: ChangeSet, outcome: Outcome) -> str:
        self.last_outcome = outcome
        status = outcome.status
        if status == "created":
            self._created(written, outcome)
        elif status == "conflict":
            self._ask("conflict", outcome)
        elif status == "past_time":
            self._ask("past_time", outcome)
        else:  # invalid, needs_date, unconfirmed: say why, keep the sentence, drop the stub
            self._drop_pending()
            line = outcome.message or status
            self._say(f'<span style="color:#c62828">{_escape(line)}</span>', line)
        return status

    def _created(self, changes: ChangeSet, outcome: Outcome) -> None:
        """Say what was written; the op runner has announced it already (views, Undo)."""
        title = outcome.title or (self.parsed.title if self.parsed else "")
        event = outcome.event
        when = ""
        if outcome.start is not None and outcome.end is not None:
            when = when_text(outcome.start, outcome.end, self.reader.chinese, self.reader.now().date(), self.reader.tz)
        self.field.clear()
        if changes:
            # The time first: a line cut at " · " keeps its first part (issue 32).
            line = self.tr("Added {1} · “{0}” (Ctrl+Z undoes it)").format(title, when)
        else:  # the same event was already there: nothing written, it is shown instead
            line = self.tr("Already in the calendar: {1} · “{0}”").format(title, when)
        self._say(_escape(line), line)
        if event is not None and event.uid:
            self.created.emit(event.uid, event.start)

    def _drop_pending(self) -> None:
        with contextlib.suppress(UserFacingError):
            self._service().cancel_active()

    def _continue(self, *, allow_conflict: bool = False, allow_past: bool = False) -> None:
        self.reader.refresh()
        try:
            outcome, written = self.ctx.ops.continue_command(
                self.reader.time_context(), allow_conflict=allow_conflict, allow_past=allow_past
            )
        except UserFacingError as exc:
            self._say(_escape(error_text(exc)), error_text(exc))
            return
        if outcome is None:
            return
        self._outcome(written, outcome)

    def _ask(self, kind: str, outcome: Outcome) -> None:
        """The chat's ``PendingDialog`` in ``kind``'s mode: its write answer continues the
        pending command; any other answer drops it and leaves the sentence to be edited."""
        from app.chat.pending_dialog import CONFLICT, WRITES, PendingDialog

        dialog = PendingDialog(kind, outcome, self.reader.tz, self.window())
        if kind == CONFLICT:
            self.conflict_dialog = dialog
        else:
            self.past_time_dialog = dialog
            line = self.tr("That time has already passed.")
            self._say(f'<span style="color:#c62828">{_escape(line)}</span>', line)

        def chosen(choice: str) -> None:
            self.conflict_dialog = self.past_time_dialog = None
            dialog.deleteLater()
            if choice in WRITES:  # Create anyway / Add it anyway
                self._continue(allow_conflict=kind == CONFLICT, allow_past=kind != CONFLICT)
            else:  # change time, cancel, don't add: the sentence stays to be edited
                self._drop_pending()
                self.field.setFocus(Qt.FocusReason.OtherFocusReason)

        dialog.chosen.connect(chosen)
        dialog.open()


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def _plain(rich: str) -> str:
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", rich))
