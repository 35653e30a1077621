"""Import and export from the window: file pickers, a worker, a progress dialog, a report.

The import itself is the op runner's ``import_file`` (``agent.ics.importer.import_file``:
one transaction per file, nothing half-done). It runs on a pool thread
(``app.background_op.BackgroundOp``, which also keeps the job alive until it has finished)
so a 10 000-event file does not freeze the window; the progress dialog appears only when a
file takes longer than a moment, and it has no Cancel button because a file is imported
whole or not at all. From the window (menu or a drop) the user first picks the calendar
(``app.io.import_target``); the finished import is one undo step (``ctx.ops.record_import``
joins its files' journal entries), offered again in the calendar's toast.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Generator, Sequence
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QWidget

from agent.errors import UserFacingError
from agent.store.changes import ChangeSet
from app.background_op import BackgroundOp
from app.context import AppContext
from app.i18n import error_text
from app.io import file_dialogs
from app.io.export_options import ExportOptionsDialog
from app.io.import_target import ask_calendar
from app.io.report_dialog import ImportOutcome, ImportReportDialog
from app.worker import describe
from app.write_path import Operations

PROGRESS_DELAY_MS = 400  # quicker imports never flash a progress dialog


def _tr(text: str) -> str:
    return QCoreApplication.translate("ImportExport", text)


def import_all(
    ops: Operations, paths: Sequence[str], calendar_name: str | None = None
) -> Generator[tuple[int, str], None, list[ImportOutcome]]:
    """Each file through the op runner's ``import_file`` (backed up first when large)."""
    outcomes = []
    for index, path in enumerate(paths):
        yield index, path
        try:
            outcomes.append(ImportOutcome(path, report=ops.import_file(path, calendar_name)))
        except UserFacingError as exc:  # IcsReadError: nothing in the file could be read
            outcomes.append(ImportOutcome(path, error=error_text(exc)))
        except OSError as exc:  # unreadable file, or the backup could not be written
            outcomes.append(ImportOutcome(path, error=f"{path}: {exc.strerror or exc}"))
    return outcomes


class ImportJob(QObject):
    """One import run: worker, progress dialog, then the report. ``done`` carries outcomes."""

    done = Signal(object)  # list[ImportOutcome]

    def __init__(self, parent: QWidget | None, ctx: AppContext, paths: Sequence[str], calendar_name: str | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.calendar_name = calendar_name
        self.parent_widget = parent
        self.paths = list(paths)
        self.outcomes: list[ImportOutcome] = []
        self.report_dialog: ImportReportDialog | None = None
        self.progress = QProgressDialog(_tr("Importing…"), "", 0, len(self.paths) if len(self.paths) > 1 else 0, parent)
        self.progress.setWindowTitle(_tr("Import .ics"))
        self.progress.setCancelButton(None)
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(PROGRESS_DELAY_MS)
        self.progress.setAutoClose(False)
        self.progress.setAutoReset(False)
        # The op's callbacks hold this job, and the op holds itself until its worker has
        # finished, so a job whose parent is None is not collected mid-import.
        self.op = BackgroundOp(self, import_all(ctx.ops, self.paths, calendar_name), "import")
        self.op.progress(self._step).ended(self._ended).success(self._returned).failure(self._errored)
        self.worker = self.op.worker

    def start(self) -> None:
        self.op.run_in_background()

    @Slot(object)
    def _step(self, step: tuple[int, str]) -> None:
        index, path = step
        self.progress.setLabelText(_tr("Importing {0}…").format(Path(path).name))
        if len(self.paths) > 1:
            self.progress.setValue(index)

    def _ended(self) -> None:
        self.progress.close()
        self.progress.deleteLater()

    def _returned(self, outcomes: list[ImportOutcome]) -> None:
        self.outcomes = outcomes
        self._report()

    def _errored(self, error: Exception) -> None:
        """A bug mid-run: every file not reported gets the one line (the log has the rest)."""
        done = {outcome.path for outcome in self.outcomes}
        self.outcomes += [ImportOutcome(path, error=describe(error)) for path in self.paths if path not in done]
        self._report()

    def _report(self) -> None:
        changes = ChangeSet()
        for outcome in self.outcomes:
            if outcome.report is not None:
                changes.extend(getattr(outcome.report, "changes", None) or ChangeSet())
        if changes:
            self.ctx.ops.record_import(changes)  # one undo step for the whole run
            self._toast(changes)
        else:
            self.ctx.ops.calendars_changed.emit()  # a new, still empty calendar shows in the sidebar
        self.report_dialog = ImportReportDialog(self.outcomes, self.parent_widget)
        self.report_dialog.open()
        self.done.emit(self.outcomes)

    def _toast(self, changes: ChangeSet) -> None:
        """The calendar's toast (when this job belongs to the main window) offers Undo too."""
        host = getattr(self.parent_widget, "calendar", self.parent_widget)
        toast = getattr(host, "toast", None)
        if toast is None:
            return
        count = len({change.uid for change in changes.created + changes.updated})
        where = self.calendar_name or ""
        text = _tr("Imported {0} events into “{1}”").format(count, where) if where else _tr("Imported {0} events").format(count)
        # An import's undo is long (half a second of CPU for 10 000 events): off the UI thread.
        toast.show_message(text, lambda: self.ctx.ops.undo_specific(changes, background=True))


def import_dialog(parent: QWidget | None, ctx: AppContext) -> ImportJob | None:
    paths = file_dialogs.open_file_names(parent, _tr("Import .ics"), last_folder(ctx), _tr("iCalendar files (*.ics)"))
    if paths:
        remember_folder(ctx, paths[0])
    return import_with_choice(parent, ctx, paths) if paths else None


def last_folder(ctx: AppContext) -> str:
    """The folder the last import or export used (per profile), else the home folder: Export
    opened in the home folder however often the same folder was chosen (issue 32)."""
    folder = ctx.settings.get("last_folder")
    if folder and Path(str(folder)).is_dir():
        return str(folder)
    return str(Path.home())


def remember_folder(ctx: AppContext, path: str) -> None:
    with contextlib.suppress(UserFacingError, sqlite3.Error):  # a read-only store: only not remembered
        ctx.settings.set("last_folder", str(Path(path).parent))


def import_with_choice(parent: QWidget | None, ctx: AppContext, paths: list[str]) -> ImportJob | None:
    """Ask which calendar (menu, drag-and-drop, a file the OS hands over), then import;
    None when cancelled. A file with an iTIP METHOD opens the invitation view instead
    (app/calendar/invitation_view.py), and an import whose events invite people into a
    synced calendar asks first who would be mailed (app/calendar/invitations_out.py)."""
    if not paths:
        return None
    from app.calendar.invitation_view import open_invitation, split_invitations
    from app.calendar.invitations_out import ask_before_import

    invitations, paths = split_invitations(list(paths))
    for path in invitations:
        open_invitation(parent, ctx, path)
    if not paths:
        return None
    name = ask_calendar(parent, ctx, paths)
    if not name or not ask_before_import(parent, ctx, paths, name):
        return None
    return import_paths(parent, ctx, paths, name)


def import_paths(parent: QWidget | None, ctx: AppContext, paths: list[str], calendar_name: str | None = None) -> ImportJob | None:
    """Import ``paths`` in the background; a report dialog opens when done. Returns the job.

    ``calendar_name`` None keeps the file's own calendar name (X-WR-CALNAME) or the default.
    """
    if not paths:
        return None
    job = ImportJob(parent, ctx, paths, calendar_name)
    job.start()
    return job


def export_to(
    ctx: AppContext, path: str, calendar_name: str | None = None, start: datetime | None = None, end: datetime | None = None
) -> int:
    """Write the chosen events to ``path``; returns how many VEVENTs were written."""
    from agent.files import write_replacing
    from agent.ics.exporter import export_calendar

    data = export_calendar(ctx.store, ctx.profile_id, calendar_name, start, end, tz=ctx.tz)
    write_replacing(Path(path), data)  # temp file, fsync, rename: a full disk keeps the previous file (issue 29)
    return data.count(b"BEGIN:VEVENT")


def export_dialog(parent: QWidget | None, ctx: AppContext) -> str | None:
    options = ExportOptionsDialog(ctx, parent)
    if not options.exec():
        return None
    name = options.calendar_name()
    suggested = str(Path(last_folder(ctx)) / f"{name or 'richeng'}.ics")
    path = file_dialogs.save_file_name(parent, _tr("Export .ics"), suggested, _tr("iCalendar files (*.ics)"))
    if not path:
        return None
    remember_folder(ctx, path)
    if not path.lower().endswith(".ics"):
        path += ".ics"
    start, end = options.bounds()
    try:
        count = export_to(ctx, path, name, start, end)
    except (UserFacingError, OSError) as exc:
        QMessageBox.warning(parent, _tr("Export .ics"), _tr("Could not export: {0}").format(exc))
        return None
    QMessageBox.information(parent, _tr("Export .ics"), _tr("Exported {0} events to {1}.").format(count, path))
    return path
