"""Who is invited and what each said: the card's attendee list and Accept / Tentative /
Decline bar, and the editor's attendee list (issue 31).

The people come from the field table's ``organizer`` and ``attendees`` rows
(agent/store/fields.py, ``Person`` values); the user's place among them from
agent/services/invitations.py (the addresses in Settings and the sync accounts'). An answer
given here is one undo step (``ops.record_edit``) and stores the user's PARTSTAT; the
REPLY for the organizer's mail is ``richeng invitation respond``'s (docs/invitations.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from agent.errors import UserFacingError
from agent.messages.catalogue import render
from agent.services.invitations import ANSWER_CODES, Standing, answer, my_addresses, standing
from agent.store.fields import Person, bare_address, read
from agent.store.occurrence import Occurrence
from app.i18n import error_text, ui_lang

if TYPE_CHECKING:
    import icalendar

    from app.context import AppContext

# Each person's answer as a glyph (with its word in the tooltip): ✓ yes, ? maybe, ✗ no, … not yet.
GLYPHS = {"ACCEPTED": "✓", "TENTATIVE": "?", "DECLINED": "✗", "NEEDS-ACTION": "…", "DELEGATED": "→"}
ROLES = ("REQ-PARTICIPANT", "OPT-PARTICIPANT", "CHAIR", "NON-PARTICIPANT")


def answer_word(partstat: str) -> str:
    """The answer in the interface language, from the catalogue."""
    code = ANSWER_CODES.get(partstat, ANSWER_CODES["NEEDS-ACTION"])
    return render(code, ui_lang())


class EventPeople:
    """The organizer and attendees of the events shown, read from the stored VEVENT (an
    occurrence's own row when it was changed alone, else its series') until the store
    changes (``clear``)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._read: dict[tuple[str, str], tuple[Person | None, tuple[Person, ...]]] = {}

    def clear(self) -> None:
        self._read.clear()

    def of(self, occ: Occurrence) -> tuple[Person | None, tuple[Person, ...]]:
        own = occ.recurrence_id is not None and occ.event_id != occ.series_id
        key = (occ.uid, occ.recurrence_id or "" if own else "")
        if key not in self._read:
            component = self.ctx.ops.edits.component(*key)
            self._read[key] = _people(component)
        return self._read[key]

    def standing(self, occ: Occurrence) -> Standing:
        organizer, attendees = self.of(occ)
        return standing(organizer, attendees, my_addresses(self.ctx.store, self.ctx.profile_id))


def _people(component: icalendar.Event | None) -> tuple[Person | None, tuple[Person, ...]]:
    if component is None:
        return None, ()
    return read(component, "organizer"), read(component, "attendees")


class AttendeeList(QLabel):
    """The card's list: the organizer, then each attendee with their answer's glyph."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def set_people(self, organizer: Person | None, attendees: tuple[Person, ...]) -> None:
        lines = []
        if organizer is not None:
            lines.append(self.tr("Organizer: {0}").format(str(organizer)))
        for person in attendees:
            role = {"OPT-PARTICIPANT": self.tr(" (optional)"), "CHAIR": self.tr(" (chair)")}.get(person.role, "")
            lines.append(f"{GLYPHS.get(person.partstat, '…')} {person}{role}")
        self.setText("\n".join(lines))
        self.setToolTip("\n".join(f"{person.email}: {answer_word(person.partstat)}" for person in attendees) if attendees else "")
        self.setVisible(bool(lines))


class InvitationBar(QWidget):
    """ "X invited you" and the three answers; shown only for an invitation. The button of
    the answer given is checked."""

    answered = Signal(str)  # the PARTSTAT chosen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[str, QPushButton] = {}
        labels = (("ACCEPTED", self.tr("Accept")), ("TENTATIVE", self.tr("Tentative")), ("DECLINED", self.tr("Decline")))
        for partstat, text in labels:
            button = QPushButton(text, self)
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the card never takes focus
            button.clicked.connect(lambda _=False, value=partstat: self.answered.emit(value))
            self.buttons[partstat] = button
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.label)
        layout.addLayout(row)

    def show_for(self, place: Standing, organizer: Person | None) -> None:
        self.setVisible(place.invited)
        if not place.invited:
            return
        who = str(organizer) if organizer is not None else "?"
        answer_now = place.answer or "NEEDS-ACTION"
        self.label.setText(self.tr("{0} invited you · your answer: {1}").format(who, answer_word(answer_now)))
        for partstat, button in self.buttons.items():
            button.setChecked(partstat == answer_now)


def answer_from_card(ctx: AppContext, occ: Occurrence, place: Standing, partstat: str) -> bool:
    """Store the user's answer on the occurrence's event as one undo step; False when it
    could not be (said through ``failed``). Telling the organizer is
    ``invitations_out.tell_organizer``'s."""
    if place.me is None:
        return False
    own = occ.recurrence_id if occ.recurrence_id is not None and occ.event_id != occ.series_id else ""
    try:
        changes = answer(ctx.store, ctx.profile_id, occ.uid, own or "", place.me.email, partstat)
    except UserFacingError as exc:
        ctx.ops.failed.emit(error_text(exc))
        return False
    ctx.ops.record_edit(changes, occ.title)
    return True


class SendQuestion(QMessageBox):
    """ "This will email N people", and who: asked once when a change would let the server
    mail the attendees (agent/sync/scheduling.py): the editor's save, a drag, a delete, a
    paste, an import. Don't send still saves, quietly; Cancel (Esc) changes nothing."""

    def __init__(self, parent: QWidget | None, people: tuple[Person, ...]) -> None:
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Question)
        self.setWindowTitle(self.tr("Send invitations?"))
        self.setText(self.tr("This will email {0} people:").format(len(people)))
        self.setInformativeText(listed(people))
        self.send = self.addButton(self.tr("Send"), QMessageBox.ButtonRole.AcceptRole)
        self.quiet = self.addButton(self.tr("Don't send"), QMessageBox.ButtonRole.DestructiveRole)
        self.cancel = self.addButton(QMessageBox.StandardButton.Cancel)
        self.setDefaultButton(self.send)
        self.setEscapeButton(self.cancel)


def ask_to_send(parent: QWidget | None, people: tuple[Person, ...]) -> bool | None:
    """True Send (the go-ahead for this event's uploads), False Don't send, None Cancel."""
    box = SendQuestion(parent, people)
    box.exec()
    clicked = box.clickedButton()
    return True if clicked is box.send else False if clicked is box.quiet else None


MAX_LISTED = 20  # a question lists this many people, then "and N more"


def listed(people: tuple[Person, ...]) -> str:
    """One person a line, at most ``MAX_LISTED``, then "and N more" (an import may name hundreds)."""
    lines = [str(person) for person in people[:MAX_LISTED]]
    if len(people) > MAX_LISTED:
        lines.append(QCoreApplication.translate("SendQuestion", "and {0} more").format(len(people) - MAX_LISTED))
    return "\n".join(lines)


class AttendeeEditor(QWidget):
    """The editor's attendees: a list (each with the answer's glyph) and a row to add one by
    address, an optional name and a role; Remove drops the selected. Answers already given
    are kept; a new person starts NEEDS-ACTION with RSVP."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setMaximumHeight(96)
        self.address = QLineEdit(self)
        self.address.setPlaceholderText(self.tr("name@example.com"))
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("Name (optional)"))
        self.role = QComboBox(self)
        names = (self.tr("Required"), self.tr("Optional"), self.tr("Chair"), self.tr("For information"))
        for role, text in zip(ROLES, names, strict=True):
            self.role.addItem(text, role)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.remove_button = QPushButton(self.tr("Remove selected"), self)
        self.add_button.clicked.connect(self.add_typed)
        # Enter in the address adds the person; it must not also press the dialog's Save.
        self.address.installEventFilter(self)
        self.remove_button.clicked.connect(self.remove_selected)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.address, 3)
        row.addWidget(self.name, 2)
        row.addWidget(self.role, 1)
        row.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(row)
        layout.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._people: list[Person] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.address
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self.add_typed()
            return True
        return super().eventFilter(watched, event)

    def set_people(self, attendees: tuple[Person, ...]) -> None:
        self._people = list(attendees)
        self._refill()

    def people(self) -> tuple[Person, ...]:
        return tuple(self._people)

    def add(self, email: str, name: str = "", role: str = "REQ-PARTICIPANT") -> bool:
        """Add a person; False (nothing added) for a blank, malformed or repeated address."""
        email = bare_address(email)
        if "@" not in email or " " in email or any(person.same(email) for person in self._people):
            return False
        self._people.append(Person(email, name.strip(), "NEEDS-ACTION", role, (("RSVP", "TRUE"),)))
        self._refill()
        return True

    def add_typed(self) -> None:
        if self.add(self.address.text(), self.name.text(), str(self.role.currentData())):
            self.address.clear()
            self.name.clear()

    def remove_selected(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._people):
            del self._people[row]
            self._refill()

    def _refill(self) -> None:
        self.list.clear()
        for person in self._people:
            item = QListWidgetItem(f"{GLYPHS.get(person.partstat, '…')} {person}")
            item.setToolTip(answer_word(person.partstat))
            self.list.addItem(item)
