"""What an import did, file by file: counts, and every rejected event with its reason.

An import that silently drops a broken VEVENT is how people lose appointments, so every
problem ``agent.ics.importer`` reports (UID, line, message) gets a row here, and a file
that could not be read at all gets one too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
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
        self.table = QTableWidget(len(rows), 4, self)
        self.table.setHorizontalHeaderLabels([self.tr("File"), self.tr("Line"), self.tr("UID"), self.tr("Reason")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.resizeRowsToContents()
        rejected_label = QLabel(self.tr("Not imported:") if rows else self.tr("Every event was read."), self)
        self.table.setVisible(bool(rows))
        # Events imported after a repair (agent/ics/repair.py): the user sees what was changed.
        fixes = self.repaired_rows()
        self.repaired = QTableWidget(len(fixes), 4, self)
        self.repaired.setHorizontalHeaderLabels([self.tr("File"), self.tr("Line"), self.tr("UID"), self.tr("Repair")])
        self.repaired.verticalHeader().hide()
        self.repaired.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.repaired.setWordWrap(True)
        self.repaired.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.repaired.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        for row, values in enumerate(fixes):
            for column, value in enumerate(values):
                self.repaired.setItem(row, column, QTableWidgetItem(value))
        repaired_label = QLabel(self.tr("Imported after a repair:"), self)
        repaired_label.setVisible(bool(fixes))
        self.repaired.setVisible(bool(fixes))

        buttons = QDialogButtonBox(self)
        close = buttons.addButton(self.tr("Close"), QDialogButtonBox.ButtonRole.AcceptRole)
        close.setDefault(True)
        buttons.accepted.connect(self.accept)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(rejected_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(repaired_label)
        layout.addWidget(self.repaired, 1)
        layout.addWidget(buttons)
        self._fit()

    def _fit(self) -> None:
        """As big as what it says: a clean import is a few lines, not a 560×320 blank.

        Each table is as tall as its rows (up to ``MAX_TABLE_HEIGHT``, then it scrolls), the
        dialog as wide as the widest table or summary line (up to ``MAX_WIDTH``)."""
        widths = [self.summary.fontMetrics().horizontalAdvance(line) for line in self.summary_lines()]
        for table in (self.table, self.repaired):
            if not table.isVisibleTo(self):
                continue
            table.resizeColumnsToContents()
            frame = 2 * table.frameWidth()
            height = table.horizontalHeader().sizeHint().height() + frame
            height += sum(table.rowHeight(row) for row in range(table.rowCount()))
            table.setFixedHeight(min(height + 2, MAX_TABLE_HEIGHT))
            widths.append(
                sum(table.columnWidth(column) for column in range(table.columnCount()))
                + frame
                + table.verticalScrollBar().sizeHint().width()
            )
        self.summary.setMinimumWidth(min(max(widths, default=0), MAX_WIDTH - 40))
        self.resize(max(self.minimumWidth(), min(max(widths, default=0) + 40, MAX_WIDTH)), self.sizeHint().height())

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
