"""Invitations out from the window (issue 31 item 3): who is told, and how.

Two cases, decided per calendar (``services.invitations.synced``):

* **A synced calendar** is taken to be on a server that schedules (RFC 6638: Nextcloud,
  Fastmail, iCloud, SOGo, DAViCal mail attendees themselves when an event with attendees is
  created, moved or deleted on them). Nothing is mailed silently: a drag, a resize, a delete,
  a paste and an import of events with attendees ask first, once, with the editor's question
  ("This will email N people:" and who, ``invitation_bar.SendQuestion``). Send lets the
  event's uploads schedule; Don't send still saves, and the upload says
  ``SCHEDULE-AGENT=CLIENT`` (agent/sync/scheduling.py); Cancel does nothing, so there is
  nothing to undo. An answer to someone else's invitation goes to its organizer through the
  server too: the answer is the user's go-ahead for that event's upload.
* **Elsewhere** (a local calendar; a server that does not schedule) nobody is told unless
  the user's mail client does it: after a create, a move or a delete of the user's own
  meeting the app offers "Save invitation for your mail client" (a METHOD:REQUEST, or a
  METHOD:CANCEL for a deletion), and after an answer "Save reply" (METHOD:REPLY). The files
  are ``agent.ics.itip``'s, the same as ``richeng invitation request|cancel|respond -o``;
  the save dialog opens in the last folder used, as Export's does.

Richeng does not yet ask a server whether it schedules (its ``schedule-outbox-URL``); a
Radicale or Xandikos calendar counts as synced here, so the question is asked there too
(docs/invitations.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from agent.errors import UserFacingError
from agent.services.invitations import recipients, set_sending, synced
from agent.store.changes import ChangeSet
from agent.store.fields import Person, read
from app.calendar import invitation_bar
from app.i18n import error_text

if TYPE_CHECKING:
    import icalendar

    from agent.store.occurrence import Occurrence
    from app.context import AppContext

REQUEST, CANCEL, REPLY = "REQUEST", "CANCEL", "REPLY"
_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def _tr(text: str) -> str:
    return QCoreApplication.translate("InvitationsOut", text)


# ---- asking before a server mails anyone --------------------------------------------------


def ask_before_sending(parent: QWidget | None, people: tuple[Person, ...]) -> bool | None:
    """The editor's question for a drag, a delete, a paste or an import: True Send, False
    Don't send, None Cancel (do nothing)."""
    return invitation_bar.ask_to_send(parent, people)


@dataclass(frozen=True)
class Go:
    """The answer to "this will email N people": ``proceed`` False when cancelled (do
    nothing); ``send`` True / False for Send / Don't send, None when not asked."""

    proceed: bool = True
    send: bool | None = None

    def settle(self, ctx: AppContext, changes: ChangeSet | None) -> None:
        """After the write: a Send covers the events it made too (a "this and following"
        move starts a new series under a new UID)."""
        if self.send and changes:
            set_sending(ctx.store, ctx.profile_id, [change.uid for change in changes.created + changes.updated], True)


def ask_first(ctx: AppContext, parent: QWidget | None, calendar_id: int, uid: str, people: tuple[Person, ...]) -> Go:
    """Ask when a change of event ``uid`` ("" for one not made yet) would have the server of
    ``calendar_id`` mail ``people``. The answer is recorded for ``uid`` before the write, so a
    sync that runs in between never uploads with a go-ahead the user just refused."""
    if not people or not synced(ctx.store, calendar_id):
        return Go()
    choice = ask_before_sending(parent, people)
    if choice is None:
        return Go(proceed=False)
    if uid:
        set_sending(ctx.store, ctx.profile_id, [uid], choice)
    return Go(send=choice)


def copied_people(ctx: AppContext, component: icalendar.Event | None) -> tuple[Person, ...] | None:
    """The attendees a copy (duplicate, Ctrl+C/Ctrl+V) of the user's own meeting invites
    again, each yet to answer; None for any other event (a copy of someone else's invitation
    is a personal event)."""
    if component is None or not recipients(ctx.store, ctx.profile_id, component):
        return None
    return tuple(Person(p.email, p.name, "NEEDS-ACTION", p.role, (("RSVP", "TRUE"),)) for p in read(component, "attendees"))


def people_of(ctx: AppContext, occ: Occurrence) -> tuple[Person, ...]:
    """Who a change of this occurrence's event would tell (the user's own meeting only)."""
    return recipients(ctx.store, ctx.profile_id, component_of(ctx, occ))


def component_of(ctx: AppContext, occ: Occurrence) -> icalendar.Event | None:
    own = occ.recurrence_id if occ.recurrence_id is not None and occ.event_id != occ.series_id else ""
    return ctx.ops.edits.component(occ.uid, own or "") or ctx.ops.edits.component(occ.uid)


# ---- files for the mail client ------------------------------------------------------------


def ask_to_save(parent: QWidget | None, method: str, people: tuple[Person, ...]) -> bool:
    """ "Save … for your mail client?": True to pick where."""
    box = SaveOffer(parent, method, people)
    box.exec()
    return box.clickedButton() is box.save


def pick_path(parent: QWidget | None, ctx: AppContext, suggested: str) -> str:
    """Where to save ("" when cancelled), starting in the last import/export folder."""
    from app.io import file_dialogs
    from app.io.import_export import last_folder, remember_folder

    path = file_dialogs.save_file_name(
        parent, _tr("Save for your mail client"), str(Path(last_folder(ctx)) / suggested), _tr("iCalendar files (*.ics)")
    )
    if path:
        remember_folder(ctx, path)
        if not path.lower().endswith(".ics"):
            path += ".ics"
    return path


def offer_file(
    parent: QWidget | None, ctx: AppContext, method: str, people: tuple[Person, ...], title: str, text: str, *, ask: bool = True
) -> str | None:
    """Offer to save ``text`` (an iTIP calendar) for the user's mail client; the path
    written, or None (declined, cancelled, or the write failed and was said). ``ask``
    False: the user asked for it (the event menu), straight to the save dialog."""
    if ask and not ask_to_save(parent, method, people):
        return None
    suffix = {REQUEST: _tr("invitation"), CANCEL: _tr("cancellation"), REPLY: _tr("reply")}[method]
    name = (_UNSAFE.sub("_", title).strip(" .") or "richeng")[:60]
    path = pick_path(parent, ctx, f"{name} – {suffix}.ics")
    if not path:
        return None
    from agent.files import write_replacing

    try:
        write_replacing(Path(path), text.encode("utf-8"))
    except OSError as exc:
        ctx.ops.failed.emit(_tr("Could not save {0}: {1}").format(path, exc.strerror or exc))
        return None
    return path


def offers_files(ctx: AppContext, occ: Occurrence) -> bool:
    """Whether the event menu offers "Save invitation for your mail client…": the user's
    own meeting, on a calendar no server schedules."""
    return not synced(ctx.store, occ.calendar_id) and bool(people_of(ctx, occ))


def offer_outgoing(
    parent: QWidget | None, ctx: AppContext, uid: str, method: str, calendar_id: int, recurrence_id: str = "", *, ask: bool = True
) -> str | None:
    """After a create or move (REQUEST) of the user's own meeting in a calendar no server
    schedules: offer its invitation file. Nothing for a synced calendar, someone else's
    invitation or an event without attendees."""
    if synced(ctx.store, calendar_id):
        return None
    from agent.ics.itip import outgoing

    component = ctx.ops.edits.component(uid)
    people = recipients(ctx.store, ctx.profile_id, component)
    if component is None or not people:
        return None
    try:
        text = outgoing(ctx.store, ctx.profile_id, uid, method, ctx.now(), recurrence_id)
    except UserFacingError:
        return None
    return offer_file(parent, ctx, method, people, str(component.get("SUMMARY") or ""), text, ask=ask)


def cancellation(ctx: AppContext, occ: Occurrence, scope: str) -> tuple[tuple[Person, ...], str] | None:
    """Before a delete: who the CANCEL would tell and its text (built now, while the event is
    still stored); None when nobody (someone else's invitation, no attendees, a synced
    calendar whose server tells them). "This and following" is an update of the series:
    its REQUEST is offered after the delete instead."""
    if synced(ctx.store, occ.calendar_id) or scope == "following":
        return None
    people = people_of(ctx, occ)
    if not people:
        return None
    from agent.ics.itip import outgoing

    recurrence_id = occ.recurrence_id or "" if scope == "this" else ""
    try:
        return people, outgoing(ctx.store, ctx.profile_id, occ.uid, CANCEL, ctx.now(), recurrence_id)
    except UserFacingError:
        return None


# ---- answering an invitation --------------------------------------------------------------


def tell_organizer(
    parent: QWidget | None, ctx: AppContext, uid: str, recurrence_id: str, calendar_id: int, title: str, email: str
) -> str | None:
    """After the user answered the invitation (uid, recurrence_id) as ``email``: on a synced
    calendar the server carries the answer (the upload may schedule: the answer is the
    go-ahead); elsewhere offer the METHOD:REPLY for the mail client. Returns the file written."""
    if synced(ctx.store, calendar_id):
        set_sending(ctx.store, ctx.profile_id, [uid], True)
        return None
    from agent.ics.itip import stored_reply

    try:
        text = stored_reply(ctx.store, ctx.profile_id, uid, recurrence_id, email, ctx.now())
    except UserFacingError as exc:
        ctx.ops.failed.emit(error_text(exc))
        return None
    component = ctx.ops.edits.component(uid, recurrence_id) or ctx.ops.edits.component(uid)
    organizer = read(component, "organizer") if component is not None else None
    return offer_file(parent, ctx, REPLY, (organizer,) if organizer is not None else (), title, text)


def tell_organizer_of(parent: QWidget | None, ctx: AppContext, occ: Occurrence, email: str) -> str | None:
    """``tell_organizer`` for an occurrence answered from its card."""
    own = occ.recurrence_id if occ.recurrence_id is not None and occ.event_id != occ.series_id else ""
    return tell_organizer(parent, ctx, occ.uid, own or "", occ.calendar_id, occ.title, email)


def ask_before_import(parent: QWidget | None, ctx: AppContext, paths: list[str], calendar_name: str) -> bool:
    """An import into a synced calendar of files whose events invite people: asked once for
    the whole import, listing who; Send lets those events' uploads schedule. False: cancelled."""
    calendar_id = next((c.id for c in ctx.ops.calendars.list() if c.name == calendar_name), None)
    if calendar_id is None or not synced(ctx.store, calendar_id):
        return True  # a new calendar is no server's yet
    from agent.files import read_limited
    from agent.ics.importer import MAX_FILE_BYTES
    from agent.ics.itip import file_recipients

    found: dict[str, tuple[Person, ...]] = {}
    for path in paths:
        try:
            found |= file_recipients(ctx.store, ctx.profile_id, read_limited(Path(path), MAX_FILE_BYTES, "calendar file"), path)
        except (OSError, UserFacingError):  # the import says what is wrong with the file
            continue
    people: dict[str, Person] = {}
    for group in found.values():
        for person in group:
            people.setdefault(person.email.casefold(), person)
    go = ask_first(ctx, parent, calendar_id, "", tuple(people.values()))
    if go.proceed and go.send is not None:
        set_sending(ctx.store, ctx.profile_id, list(found), go.send)
    return go.proceed


class SaveOffer(QMessageBox):
    """ "Save invitation for your mail client": the calendar's server sends nothing, so the
    file is the user's to attach; lists who it is for."""

    def __init__(self, parent: QWidget | None, method: str, people: tuple[Person, ...]) -> None:
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Question)
        titles = {
            REQUEST: self.tr("Save invitation for your mail client"),
            CANCEL: self.tr("Save cancellation for your mail client"),
            REPLY: self.tr("Save reply for your mail client"),
        }
        texts = {
            REQUEST: self.tr(
                "This calendar does not send invitations. Save this one as a file to attach to an e-mail to {0} people:"
            ),
            CANCEL: self.tr(
                "This calendar does not send cancellations. Save this one as a file to attach to an e-mail to {0} people:"
            ),
            REPLY: self.tr("This calendar does not send your answer. Save it as a file to attach to an e-mail to the organizer:"),
        }
        self.setWindowTitle(titles[method])
        self.setText(texts[method].format(len(people)))
        self.setInformativeText(invitation_bar.listed(people))
        self.save = self.addButton(self.tr("Save…"), QMessageBox.ButtonRole.AcceptRole)
        self.addButton(self.tr("Not now"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.save)
