"""One message in the chat history: text, a time, and for receipts a link and Undo.

A bubble is a plain widget rather than a delegate-painted row because receipts carry real
controls (a link that navigates, an Undo button) and the streaming reply grows in place;
a chat history holds at most a few hundred of them, which widgets handle fine.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from agent.runtime.turn_types import TurnResult

ROLES = ("user", "assistant", "action", "error")

# Palette roles only, so the bubbles follow the system's light or dark scheme.
STYLE = """
QFrame#bubble_assistant { background: palette(alternate-base); border: 1px solid palette(midlight); border-radius: 10px; }
QFrame#bubble_user { background: palette(highlight); border-radius: 10px; }
QFrame#bubble_user QLabel { color: palette(highlighted-text); }
QFrame#bubble_action { border: 1px dashed palette(mid); border-radius: 10px; }
QFrame#bubble_action QLabel { color: palette(placeholder-text); }
QFrame#bubble_error { border: 1px solid #c0392b; border-radius: 10px; }
QLabel#bubble_meta, QLabel#bubble_status { color: palette(placeholder-text); }
QFrame#bubble_user QLabel#bubble_meta { color: palette(highlighted-text); }
QFrame#bubble_card { background: palette(base); border: 2px solid palette(highlight); border-radius: 6px; }
QLabel#card_mark { color: palette(highlighted-text); background: palette(highlight); border-radius: 3px; padding: 1px 6px; }
QLabel#calendar_note { color: palette(placeholder-text); border-top: 1px dashed palette(mid); padding-top: 2px; }
QLabel#facts_card { background: palette(base); border: 1px solid palette(mid); border-left: 3px solid palette(mid);
                    border-radius: 4px; padding: 3px 6px; }
"""


class MessageBubble(QFrame):
    navigate_clicked = Signal(str, object)  # uid, start (datetime | date)
    undo_clicked = Signal()

    def __init__(self, role: str, text: str = "", stamp: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if role not in ROLES:
            raise ValueError(f"unknown bubble role {role!r}")
        self.role = role
        self.result: TurnResult | None = None  # the turn a live receipt came from (its ChangeSet undoes it)
        self.uid: str | None = None
        self.start: datetime | date | None = None
        self._text = text
        self._max_width = 480
        self.setObjectName(f"bubble_{role}")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

        self.body = QLabel(self)
        self.body.setObjectName("bubble_body")
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setText(text)

        # A receipt card's mark: a widget of its own above the text, set only by code from the
        # turn's facts (``set_card``). Model text is plain text in the body, so whatever it
        # writes ("✓ 已创建") can never draw this frame or this mark.
        self.card_mark = QLabel(self)
        self.card_mark.setObjectName("card_mark")
        self.card_mark.hide()
        self.calendar_note = QLabel(self)
        self.calendar_note.setObjectName("calendar_note")
        self.calendar_note.setTextFormat(Qt.TextFormat.PlainText)
        self.calendar_note.setWordWrap(True)
        self.calendar_note.hide()
        # The facts card (issue 30): what code's own query read for the day the user named,
        # under a model reply that talked calendar without reading it. Code's text, set only
        # from ``TurnResult.facts_card``; no mark, since nothing changed.
        self.facts_card = QLabel(self)
        self.facts_card.setObjectName("facts_card")
        self.facts_card.setTextFormat(Qt.TextFormat.PlainText)
        self.facts_card.setWordWrap(True)
        self.facts_card.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts_card.hide()

        self.status = QLabel(self)
        self.status.setObjectName("bubble_status")
        self.status.setWordWrap(True)
        self.status.hide()

        self.meta = QLabel(stamp, self)
        self.meta.setObjectName("bubble_meta")
        font = self.meta.font()
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        self.meta.setFont(font)
        self.status.setFont(font)

        self.link = QLabel(self)
        self.link.setTextFormat(Qt.TextFormat.RichText)
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.link.linkActivated.connect(self._link_activated)
        self.link.hide()

        self.undo_button = QPushButton(self.tr("Undo"), self)
        self.undo_button.setFlat(True)
        self.undo_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.undo_button.setToolTip(self.tr("Remove the event the assistant created"))
        self.undo_button.clicked.connect(self.undo_clicked)
        self.undo_button.hide()

        footer = QHBoxLayout()
        footer.setContentsMargins(0, 0, 0, 0)
        footer.setSpacing(8)
        footer.addWidget(self.meta)
        footer.addStretch(1)
        footer.addWidget(self.link)
        footer.addWidget(self.undo_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(2)
        layout.addWidget(self.card_mark, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.body)
        layout.addWidget(self.calendar_note)
        layout.addWidget(self.facts_card)
        layout.addWidget(self.status)
        layout.addLayout(footer)

    # ---- text -----------------------------------------------------------------------------

    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        self._text = text
        self.body.setText(text)
        self._fit()

    def set_max_width(self, width: int) -> None:
        self._max_width = width
        self.setMaximumWidth(width)
        self._fit()

    def _fit(self) -> None:
        """Short messages hug their text, long ones wrap at the bubble's maximum width.

        A word-wrapped QLabel in a row with a stretch otherwise settles on a narrow "nice
        ratio" width; giving it the natural width of its longest line fixes that.
        """
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else None
        inner = self._max_width - ((margins.left() + margins.right()) if margins else 20)
        metrics = self.body.fontMetrics()
        natural = max((metrics.horizontalAdvance(line) for line in self._text.split("\n")), default=0) + 4
        if self.facts_card.text():  # the card under the reply may be wider than the reply itself
            natural = max(natural, self.facts_card.fontMetrics().horizontalAdvance(self.facts_card.text()) + 20)
        footer = self.meta.sizeHint().width() + (
            self.link.sizeHint().width() + self.undo_button.sizeHint().width() + 16 if self.link.isVisibleTo(self) else 0
        )
        self.body.setMinimumWidth(max(0, min(max(natural, footer, 24), inner)))

    def append(self, piece: str) -> None:
        """One streamed token; the label re-lays out only its own paragraph."""
        self.set_text(self._text + piece)

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def set_error(self, text: str) -> None:
        self.setObjectName("bubble_error")
        self.style().unpolish(self)
        self.style().polish(self)
        self.set_text(text)

    # ---- receipts -------------------------------------------------------------------------

    def set_card(self) -> None:
        """A code-written receipt of a committed change: the card frame and its mark. Only a
        card means the calendar changed (docs/guard.md); the pane calls this from the turn's
        ``calendar`` fact, never from the reply's words."""
        self.setObjectName("bubble_card")
        self.card_mark.setText("✓ " + self.tr("Calendar changed"))
        self.card_mark.show()
        self.style().unpolish(self)
        self.style().polish(self)

    def is_card(self) -> bool:
        return self.objectName() == "bubble_card"

    def set_calendar_note(self, text: str) -> None:
        """The second guard tier's line under a model's reply ("日历没有变化"), code's words."""
        self.calendar_note.setText(text)
        self.calendar_note.setVisible(bool(text))

    def set_facts_card(self, text: str) -> None:
        """The facts card under a model's reply ("日历里查到的：12月3日（周四）：…"), code's words."""
        self.facts_card.setText(text)
        self.facts_card.setVisible(bool(text))
        self._fit()

    def set_receipt(self, uid: str, start: datetime | date, undoable: bool, edit: bool = False) -> None:
        """``edit``: the receipt of a change to an existing event, whose Undo puts it back."""
        self.uid, self.start = uid, start
        tip = self.tr("Put the event back as it was") if edit else self.tr("Remove the event the assistant created")
        self.undo_button.setToolTip(tip)
        self.link.setText(f'<a href="event:{uid}">{self.tr("Show in calendar")}</a>')
        self.link.show()
        self.undo_button.setVisible(undoable)
        self._fit()

    def set_undone(self, ok: bool) -> None:
        self.undo_button.setEnabled(False)
        self.undo_button.setText(self.tr("Undone") if ok else self.tr("Undo failed"))
        if ok:
            self.link.hide()

    def show_undone(self) -> None:
        """A receipt reloaded from history whose change was undone: say so, offer nothing."""
        self.undo_button.show()
        self.set_undone(True)
        self._fit()

    @Slot(str)
    def _link_activated(self, _href: str) -> None:
        if self.uid is not None:
            self.navigate_clicked.emit(self.uid, self.start)
