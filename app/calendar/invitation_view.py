"""The invitation view: an iTIP file opened in the window (issue 32, "Opening .ics files";
issue 31 item 2).

A .ics whose calendar says METHOD:REQUEST, CANCEL, REPLY … (double-clicked and handed over
by app/single_instance.py, opened with File → Import, dropped, or given on the command line)
is an invitation, not a plain import: ``import_export.import_with_choice`` sends it here.
The file is applied at once by the op runner's import, which hands it to the invitation
flow (agent/ics/itip.py: a new
invitation is stored and drawn tentative until answered, an update replaces the stored copy,
a stale copy changes nothing), as one undo step. Then a window shows the event: its title,
time, organizer and each attendee's answer, what the file did, and for an invitation the
card's Accept / Tentative / Decline bar. An answer is stored (one undo step) and goes to the
organizer as an answer from the card does (``invitations_out.tell_organizer``: through the
server, or as a REPLY file for the mail client). A CANCEL or a REPLY shows what it changed.

When none of the user's addresses (Settings) is among the attendees, an "Answer as" list of
the attendees comes with the bar; answering as one adds it to the user's addresses, as
``richeng invitation respond --as`` does.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from agent.errors import UserFacingError
from agent.services.invitations import answer, calendar_of, event_standing, me_among, my_addresses, remember_address
from agent.store.fields import read
from app.calendar.invitation_bar import AttendeeList, InvitationBar, answer_word
from app.calendar.invitations_out import tell_organizer
from app.i18n import error_text

if TYPE_CHECKING:
    import icalendar

    from app.context import AppContext

_OPEN: set[InvitationView] = set()
ITIP_SNIFF = 64 * 1024  # METHOD sits in the VCALENDAR's header, before its first component


def is_invitation(path: str) -> bool:
    """Whether the file's calendar has an iTIP METHOD (REQUEST, CANCEL, REPLY …; PUBLISH is
    a plain export). Unreadable files are not: the import reports them."""
    from agent.files import read_limited
    from agent.ics.importer import MAX_FILE_BYTES
    from agent.ics.itip import file_method

    try:
        with open(path, "rb") as handle:
            head = handle.read(ITIP_SNIFF)
        if b"METHOD" not in head.upper():
            return False
        return file_method(read_limited(Path(path), MAX_FILE_BYTES, "calendar file"), path) is not None
    except (OSError, UserFacingError):
        return False


def split_invitations(paths: list[str]) -> tuple[list[str], list[str]]:
    """(the invitations, the plain calendar files) of ``paths``, each in its order."""
    invitations = [path for path in paths if is_invitation(path)]
    return invitations, [path for path in paths if path not in invitations]


def open_invitation(parent: QWidget | None, ctx: AppContext, path: str) -> InvitationView | None:
    """Apply the file and show the view (not modal); None when the file could not be read
    or applied (said through ``ops.failed``, nothing written)."""
    from agent.ics.itip import Flow, read_file

    try:
        message = read_file(path)
        shown = Flow(ctx.store, ctx.profile_id, ctx.tz, ctx.now()).show(message)  # before: new, update, stale …
        report = ctx.ops.import_file(path)  # the runner's import, which hands a METHOD file to the flow
    except (OSError, UserFacingError) as exc:
        ctx.ops.failed.emit(error_text(exc) if isinstance(exc, UserFacingError) else f"{path}: {exc.strerror or exc}")
        return None
    if report.changes:
        ctx.ops.record_import(report.changes)  # one undo step, as an import's
    changed = bool(report.imported or report.updated)
    view = InvitationView(ctx, message, shown, changed, parent, problem=report.errors[0].message if report.errors else "")
    _OPEN.add(view)  # a view without a parent (no window yet) is kept until it closes
    view.finished.connect(lambda _code: _OPEN.discard(view))
    view.open()
    return view


class InvitationView(QDialog):
    """One invitation file after it was applied: the event, who is invited and what each
    said, what the file did, and the answers."""

    def __init__(
        self,
        ctx: AppContext,
        message: Any,
        shown: dict[str, Any],
        changed: bool,
        parent: QWidget | None = None,
        problem: str = "",
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.shown = shown
        self.method = str(message.method)
        self.item = message.items[0]
        self.recurrence_id = str(self.item.fields.recurrence_id or "")
        self.setWindowTitle(self.tr("Invitation"))
        self.setMinimumWidth(420)
        self.title = QLabel(str(shown["summary"] or ""), self)
        font = QFont(self.title.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.when = QLabel(self._when(), self)
        self.status = QLabel(self._status_text(changed, problem), self)
        self.status.setWordWrap(True)
        self.people = AttendeeList(self)
        self.invitation = InvitationBar(self)
        self.invitation.answered.connect(self.answer)
        self.as_label = QLabel(self.tr("Answer as:"), self)
        self.as_box = QComboBox(self)
        row = QHBoxLayout()
        row.addWidget(self.as_label)
        row.addWidget(self.as_box, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        self.show_button = self.buttons.addButton(self.tr("Show in calendar"), QDialogButtonBox.ButtonRole.ActionRole)
        self.show_button.clicked.connect(self.show_in_calendar)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.when, self.status, self.people):
            layout.addWidget(widget)
        layout.addLayout(row)
        layout.addWidget(self.invitation)
        layout.addWidget(self.buttons)
        self.refresh()

    # ---- what is shown -------------------------------------------------------------------

    def component(self) -> icalendar.Event | None:
        """The stored copy (the occurrence's own, else its series'), after the file applied."""
        edits = self.ctx.ops.edits
        return edits.component(str(self.shown["uid"]), self.recurrence_id) or edits.component(str(self.shown["uid"]))

    def refresh(self) -> None:
        component = self.component()
        source = component if component is not None else self.item.parsed()
        organizer, attendees = read(source, "organizer"), read(source, "attendees")
        self.people.set_people(organizer, attendees)
        stored = component is not None and str(component.get("STATUS") or "").upper() != "CANCELLED"
        self.show_button.setVisible(stored)
        answerable = stored and self.method in ("REQUEST", "ADD")
        place = event_standing(source, my_addresses(self.ctx.store, self.ctx.profile_id))
        choosing = answerable and place.me is None and not place.organizer and bool(attendees)
        if choosing and self.as_box.count() == 0:
            for person in attendees:
                if organizer is None or not person.same(organizer.email):
                    self.as_box.addItem(str(person), person.email)
        self.as_label.setVisible(choosing)
        self.as_box.setVisible(choosing)
        if choosing:  # the bar as for an invitation, yet unanswered
            self.invitation.setVisible(True)
            self.invitation.label.setText(self.tr("{0} invited you").format(str(organizer) if organizer else "?"))
            for button in self.invitation.buttons.values():
                button.setChecked(False)
        elif answerable:
            self.invitation.show_for(place, organizer)
        else:
            self.invitation.setVisible(False)

    def _when(self) -> str:
        start, end = _parse(self.shown["start"]), _parse(self.shown["end"])
        if start is None:
            return ""
        if not isinstance(start, datetime):
            last = end.isoformat() if isinstance(end, date) and end != start else ""
            return f"{start.isoformat()} – {last}" if last else start.isoformat()
        text = start.strftime("%Y-%m-%d %H:%M")
        if isinstance(end, datetime):
            text += " – " + end.strftime("%H:%M" if end.date() == start.date() else "%Y-%m-%d %H:%M")
        return text

    def _status_text(self, changed: bool, problem: str = "") -> str:
        status = str(self.shown["status"])
        if problem and not changed:  # refused (a read-only calendar, a broken event): said, nothing written
            return self.tr("Not added to your calendar: {0}").format(problem)
        if self.method == "COUNTER":
            return self.tr("A proposal of another time from an attendee: nothing changed. To take it, move the event.")
        if self.method in ("REFRESH", "DECLINECOUNTER"):
            return self.tr("Nothing to change in your calendar.")
        if status == "stale":
            return self.tr("An older copy of an invitation you have already: nothing changed.")
        if status == "cancel":
            if changed:
                return self.tr("The organizer cancelled it: taken out of your calendar (Ctrl+Z puts it back).")
            return self.tr("A cancellation of an event not in your calendar, or cancelled already: nothing changed.")
        if status == "reply":
            who = [person for person in read(self.item.parsed(), "attendees")]
            if changed and who:
                return self.tr("{0} answered: {1}.").format(str(who[0]), answer_word(who[0].partstat))
            return self.tr("An answer for an event not in your calendar, or known already: nothing changed.")
        if status == "update":
            return self.tr("An update of an invitation you have: your calendar shows it now.")
        return self.tr("Added to your calendar, shown as tentative until you answer.")

    # ---- actions -------------------------------------------------------------------------

    def answer(self, partstat: str) -> None:
        """Store the answer (one undo step) and tell the organizer (server or REPLY file)."""
        component = self.component()
        if component is None:
            return
        mine = my_addresses(self.ctx.store, self.ctx.profile_id)
        me = me_among(read(component, "attendees"), mine)
        email = me.email if me is not None else str(self.as_box.currentData() or "")
        if not email:
            return
        uid = str(self.shown["uid"])
        row = self.ctx.ops.edits.component(uid, self.recurrence_id)
        own = self.recurrence_id if row is not None else ""
        try:
            if me is None:
                remember_address(self.ctx.store, self.ctx.profile_id, email)
            changes = answer(self.ctx.store, self.ctx.profile_id, uid, own, email, partstat)
        except UserFacingError as exc:
            self.ctx.ops.failed.emit(error_text(exc))
            return
        title = str(self.shown["summary"] or "")
        self.ctx.ops.record_edit(changes, title)
        self.status.setText(_tr("Your answer: {0}.").format(answer_word(partstat)))
        self.refresh()
        calendar_id = calendar_of(self.ctx.store, self.ctx.profile_id, uid)
        if calendar_id is not None:
            tell_organizer(self, self.ctx, uid, own, calendar_id, title, email)

    def show_in_calendar(self) -> None:
        host = self.parentWidget()
        area = getattr(host, "calendar", host)
        show_event = getattr(area, "show_event", None)
        if show_event is not None:
            show_event(str(self.shown["uid"]), self.shown["start"])
        self.accept()


def _parse(value: object) -> date | datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    except ValueError:
        return None


def _tr(text: str) -> str:
    return QCoreApplication.translate("InvitationView", text)


__all__ = ["InvitationView", "is_invitation", "open_invitation", "split_invitations"]
