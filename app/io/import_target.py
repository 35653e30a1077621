"""Which calendar an import goes into: an existing one, or a new one named after the file.

Asked before anything is imported, because an import of 677 Google events into the default
calendar cannot be told apart from the user's own events afterwards. A new calendar named
after the file (its own ``X-WR-CALNAME`` when it has one, else the file name) keeps them
together (hide it, export it, delete it as a group); when a calendar of that name already
exists it is preselected, so re-importing an updated export updates it in place instead of
making "Work (2)". The whole import is then one
undo step (``Operations.record_import``), which the dialog says.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from agent.services.text import MAX_CALENDAR_NAME
from app.calendar.search_panel import swatch
from app.context import AppContext


def suggested_name(paths: Sequence[str]) -> str:
    """The first file's own calendar name (``X-WR-CALNAME``), else its name without ``.ics``,
    trimmed to a calendar name's limit: an export called "basic.ics" (Google) still says
    which calendar it is."""
    if not paths:
        return ""
    from agent.ics.importer import file_calendar_name  # icalendar: not at the window's start

    name = (file_calendar_name(paths[0]) or "").strip() or Path(paths[0]).stem.strip()
    return name[:MAX_CALENDAR_NAME]


class ImportTargetDialog(QDialog):
    def __init__(self, ctx: AppContext, paths: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import .ics"))
        self.setMinimumWidth(420)
        calendars = ctx.ops.writable_calendars()  # never into a subscription or a read-only shared calendar
        if len(paths) == 1:
            heading = self.tr("Import “{0}” into:").format(Path(paths[0]).name)
        else:
            heading = self.tr("Import {0} files into:").format(len(paths))
        self.heading = QLabel(heading, self)
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)

        self.new_button = QRadioButton(self.tr("A new calendar"), self)
        self.new_name = QLineEdit(suggested_name(paths), self)
        self.new_name.setMaxLength(MAX_CALENDAR_NAME)
        self.existing_button = QRadioButton(self.tr("An existing calendar"), self)
        self.existing = QComboBox(self)
        for calendar in calendars:
            self.existing.addItem(swatch(calendar.color), calendar.name, calendar.id)
        group = QButtonGroup(self)
        group.addButton(self.new_button)
        group.addButton(self.existing_button)

        note = QLabel(self.tr("The import is one step: Edit → Undo (Ctrl+Z) takes all of it back."), self)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(placeholder-text);")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.import_button.setText(self.tr("Import"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.addWidget(self.new_button, 0, 0)
        grid.addWidget(self.new_name, 0, 1)
        grid.addWidget(self.existing_button, 1, 0)
        grid.addWidget(self.existing, 1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(grid)
        layout.addWidget(note)
        layout.addWidget(buttons)

        wanted = self.new_name.text().casefold()
        same = next((index for index, calendar in enumerate(calendars) if calendar.name.casefold() == wanted), None)
        if same is not None or not wanted:
            self.existing_button.setChecked(True)
            self.existing.setCurrentIndex(
                same if same is not None else max(self.existing.findData(ctx.ops.calendars.default().id), 0)
            )
        else:
            self.new_button.setChecked(True)
        self.new_button.toggled.connect(self._update)
        self.new_name.textChanged.connect(self._update)
        self.new_name.textEdited.connect(lambda _text: self.new_button.setChecked(True))
        self.existing.activated.connect(lambda _index: self.existing_button.setChecked(True))
        self._update()

    def calendar_name(self) -> str:
        """The calendar to import into (the importer creates it when it is new)."""
        if self.new_button.isChecked():
            return self.new_name.text().strip()
        return self.existing.currentText()

    @Slot()
    def _update(self) -> None:
        self.import_button.setEnabled(bool(self.calendar_name()))


def ask_calendar(parent: QWidget | None, ctx: AppContext, paths: Sequence[str]) -> str | None:
    """Ask where ``paths`` go; None when the user cancelled (then nothing is imported)."""
    dialog = ImportTargetDialog(ctx, paths, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.calendar_name() or None
    finally:
        dialog.deleteLater()
