"""What an import did, file by file: counts, every rejected event with its reason, every
skipped one with the rule that skipped it, and every repair.

An import that silently drops a broken VEVENT is how people lose appointments, so every
problem ``agent.ics.importer`` reports (UID, line, message) gets a row here, and a file
that could not be read at all gets one too. "3 unchanged or skipped" alone left the user
guessing which three, so each skipped component is listed with its reason, from the
importer's own record (``ImportReport.skips``), never guessed from the counts. Repair notes
can be a long sentence: they are word-wrapped labels (a table cell cut them off).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QGridLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


@dataclass
class ImportOutcome:
    """One file's result: the importer's report, or the reason nothing could be read."""

    path: str
    report: Any | None = None  # agent.ics.importer.ImportReport
    error: str | None = None

    @property
    def name(self) -> str:
        return Path(self.path).name


MAX_WIDTH = 900
MAX_TABLE_HEIGHT = 320
COLUMN_MAX = 200  # a column before the reason: a longer path or UID is elided in the middle
MAX_SKIPPED_ROWS = 200  # a re-import of 10,000 unchanged events lists the first ones, then a count
NOTE_WIDTH = 460  # a repair note wraps at this width (the dialog is as wide as its tables)


def _skip(skip: Any) -> tuple[str, str, str, str, str]:
    """(line, title, uid, reason code, component) from an ImportSkip or its JSON form."""
    get = skip.get if isinstance(skip, dict) else (lambda key: getattr(skip, key, None))
    line = get("line")
    values = (get("title"), get("uid"), get("reason"), get("component") or "VEVENT")
    return ("" if line is None else str(line), *(str(value or "") for value in values))  # type: ignore[return-value]


def _problem(problem: Any) -> tuple[str, str, str]:
    """(line, uid, message) from an ImportProblem or its JSON form."""
    get = problem.get if isinstance(problem, dict) else (lambda key: getattr(problem, key, None))
    line = get("line")
    return ("" if line is None else str(line), str(get("uid") or ""), str(get("message") or ""))


class ImportReportDialog(QDialog):
    def __init__(self, outcomes: Sequence[ImportOutcome], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.outcomes = list(outcomes)
        self.setWindowTitle(self.tr("Import report"))
        self.setMinimumWidth(440)

        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setText("\n".join(self.summary_lines()))

        rows = self.rejected_rows()
        self.table = self._table([self.tr("File"), self.tr("Line"), self.tr("UID"), self.tr("Reason")], rows)
        rejected_label = QLabel(self.tr("Not imported:") if rows else self.tr("Every event was read."), self)
        self.table.setVisible(bool(rows))
        # Left out on purpose (unchanged, older, a duplicate, a task...): which, and why.
        skipped = self.skipped_rows()
        shown = skipped[:MAX_SKIPPED_ROWS]
        if len(skipped) > len(shown):
            shown.append(("", "", self.tr("… and {0} more").format(len(skipped) - len(shown)), "", ""))
        self.skipped = self._table(
            [self.tr("File"), self.tr("Line"), self.tr("Event"), self.tr("UID"), self.tr("Why it was skipped")], shown
        )
        skipped_label = QLabel(self.tr("Skipped:"), self)
        skipped_label.setVisible(bool(skipped))
        self.skipped.setVisible(bool(skipped))
        # Events imported after a repair (agent/ics/repair.py): the user sees what was changed,
        # as wrapped labels, because a note is often a whole sentence.
        fixes = self.repaired_rows()
        self.repair_labels: list[QLabel] = []
        notes = QWidget()
        self.notes_grid = grid = QGridLayout(notes)
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(8)
        for row, (name, line, uid, message) in enumerate(fixes):
            where = QLabel("\n".join(part for part in (f"{name}:{line}" if line else name, uid) if part), notes)
            where.setStyleSheet("color: palette(placeholder-text);")
            where.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            note = QLabel(message, notes)
            note.setWordWrap(True)
            note.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            note.setMinimumWidth(min(NOTE_WIDTH, note.fontMetrics().horizontalAdvance(message) + 4))
            grid.addWidget(where, row, 0)
            grid.addWidget(note, row, 1)
            self.repair_labels.append(note)
        self.repaired = QScrollArea(self)
        self.repaired.setWidget(notes)
        self.repaired.setWidgetResizable(True)
        self.repaired.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.repaired.setFrameShape(QFrame.Shape.StyledPanel)
        repaired_label = QLabel(self.tr("Imported after a repair:"), self)
        repaired_label.setVisible(bool(fixes))
        self.repaired.setVisible(bool(fixes))

        buttons = QDialogButtonBox(self)
        close = buttons.addButton(self.tr("Close"), QDialogButtonBox.ButtonRole.AcceptRole)
        close.setDefault(True)
        buttons.accepted.connect(self.accept)

        self.main_layout = layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(rejected_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(skipped_label)
        layout.addWidget(self.skipped, 1)
        layout.addWidget(repaired_label)
        layout.addWidget(self.repaired, 1)
        layout.addWidget(buttons)
        self._fit()

    def _table(self, headers: list[str], rows: Sequence[Sequence[str]]) -> QTableWidget:
        """A read-only table of ``rows``; the last column takes the room that is left."""
        table = QTableWidget(len(rows), len(headers), self)
        table.setHorizontalHeaderLabels(headers)
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setWordWrap(True)
        header = table.horizontalHeader()
        # Every column is sized in ``_fit``: the others to their text up to ``COLUMN_MAX``
        # (a long path or an Outlook UID elided in the middle, whole in its tooltip), the
        # last, the reason, to what the dialog's width leaves, then stretched (issue 32:
        # the reason was cut off at the dialog's edge behind a 90-character UID).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(value)
                table.setItem(row, column, item)
        return table

    def _fit(self) -> None:
        """As big as what it says: a clean import is a few lines, not a 560×320 blank.

        Each table is as tall as its rows (up to ``MAX_TABLE_HEIGHT``, then it scrolls), the
        dialog as wide as the widest table or summary line (up to ``MAX_WIDTH``), and the
        repair notes as tall as they wrap at that width."""
        widths = [self.summary.fontMetrics().horizontalAdvance(line) for line in self.summary_lines()]
        for table in (self.table, self.skipped):
            if not table.isVisibleTo(self):
                continue
            table.resizeColumnsToContents()
            frame = 2 * table.frameWidth()
            last = table.columnCount() - 1
            for column in range(last):
                table.setColumnWidth(column, min(table.columnWidth(column), COLUMN_MAX))
            room = MAX_WIDTH - 40 - frame - table.verticalScrollBar().sizeHint().width()
            room -= sum(table.columnWidth(column) for column in range(last))
            table.setColumnWidth(last, max(min(table.columnWidth(last), room), 120))
            table.resizeRowsToContents()
            height = table.horizontalHeader().sizeHint().height() + frame
            height += sum(table.rowHeight(row) for row in range(table.rowCount()))
            table.setFixedHeight(min(height + 2, MAX_TABLE_HEIGHT))
            widths.append(
                sum(table.columnWidth(column) for column in range(table.columnCount()))
                + frame
                + table.verticalScrollBar().sizeHint().width()
            )
        if self.repaired.isVisibleTo(self):
            frame = 2 * self.repaired.frameWidth()
            widths.append(self.notes_grid.sizeHint().width() + frame + self.repaired.verticalScrollBar().sizeHint().width())
        self.summary.setMinimumWidth(min(max(widths, default=0), MAX_WIDTH - 40))
        width = max(self.minimumWidth(), min(max(widths, default=0) + 40, MAX_WIDTH))
        self._fit_notes(width)
        self.resize(width, self.sizeHint().height())

    def _fit_notes(self, width: int) -> None:
        """The repair notes' area as tall as its labels wrap in a dialog ``width`` wide."""
        if not self.repaired.isVisibleTo(self):
            return
        margins = self.main_layout.contentsMargins()
        inner = width - margins.left() - margins.right() - 2 * self.repaired.frameWidth()
        inner -= self.repaired.verticalScrollBar().sizeHint().width()  # kept free: no reflow when it shows
        grid = self.notes_grid
        height = grid.totalHeightForWidth(inner) if grid.hasHeightForWidth() else grid.sizeHint().height()
        self.repaired.setFixedHeight(min(height + 2 * self.repaired.frameWidth(), MAX_TABLE_HEIGHT))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_notes(event.size().width())

    def summary_lines(self) -> list[str]:
        lines = []
        for outcome in self.outcomes:
            report = outcome.report
            if report is None:
                lines.append(self.tr("{0}: could not be read").format(outcome.name))
                continue
            text = self.tr("{0}: {1} imported, {2} updated, {3} unchanged or skipped, {4} rejected").format(
                outcome.name, report.imported, report.updated, report.skipped, len(report.errors)
            )
            if getattr(report, "todos", 0):
                text += self.tr(" ({0} tasks are not supported and were skipped)").format(report.todos)
            if getattr(report, "warnings", None):
                text += self.tr(" ({0} repaired)").format(len(report.warnings))
            lines.append(text)
        return lines

    def skip_reason(self, code: str, component: str) -> str:
        """The sentence for one of ``agent.ics.report.SKIP_REASONS``."""
        reasons = {
            "unchanged": self.tr("Unchanged: the same as the copy already in the calendar"),
            "older": self.tr("Older than the copy in the calendar (SEQUENCE / LAST-MODIFIED): that one was kept"),
            "duplicate": self.tr("The same event again in this file: the newer copy was imported"),
            "task": self.tr("A task (VTODO): Richeng has no tasks yet"),
            "read_only": self.tr("Already in a read-only calendar (a subscription or a read-only shared one): left as it is"),
        }
        return reasons.get(code) or self.tr("A {0}, not an event").format(component)

    def skipped_rows(self) -> list[tuple[str, str, str, str, str]]:
        """(file, line, title, UID, reason) for every component the importer skipped."""
        rows = []
        for outcome in self.outcomes:
            for skip in getattr(outcome.report, "skips", None) or []:
                line, title, uid, code, component = _skip(skip)
                rows.append((outcome.name, line, title, uid, self.skip_reason(code, component)))
        files = {outcome.name: index for index, outcome in enumerate(self.outcomes)}
        return sorted(rows, key=lambda row: (files[row[0]], int(row[1]) if row[1].isdigit() else 0))

    def repaired_rows(self) -> list[tuple[str, str, str, str]]:
        return [
            (outcome.name, *_problem(problem))
            for outcome in self.outcomes
            if outcome.report is not None
            for problem in getattr(outcome.report, "warnings", [])
        ]

    def rejected_rows(self) -> list[tuple[str, str, str, str]]:
        rows = []
        for outcome in self.outcomes:
            if outcome.report is None:
                rows.append((outcome.name, "", "", outcome.error or ""))
                continue
            for problem in outcome.report.errors:
                line, uid, message = _problem(problem)
                rows.append((outcome.name, line, uid, message))
        return rows
