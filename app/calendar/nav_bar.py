"""The bar above the views: Today, previous/next, the range title, a date picker, the view
switch and the search box. It only emits; ``CalendarArea`` owns the state it reflects."""

from __future__ import annotations

import re
from datetime import date

from PySide6.QtCore import QDate, QEvent, QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont, QKeyEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.calendar.typed_edits import TypedDateEdit

VIEWS = ("day", "workweek", "week", "month", "agenda")
TITLE_MIN = 72  # the title's minimum width: constant, so a longer title never resizes anything
SEARCH_MIN = 120
_CJK = re.compile(r"[\u3400-\u9fff]")


class ElidedLabel(QLabel):
    """A one-line label that asks for its text's width but accepts less, eliding the end.

    The range title's length changes on every step ("May 4 – 10, 2026" vs "Nov 30 – Dec 6,
    2026"); a label whose *minimum* followed the text moved the calendar/chat divider and
    even grew the window on a month → week switch. Its minimum is now a constant; the full
    title is in the tooltip when it does not fit.
    """

    short = ""  # a shorter form (no year) shown when the full one does not fit

    def minimumSizeHint(self) -> QSize:
        return QSize(TITLE_MIN, super().minimumSizeHint().height())

    def forms(self) -> list[str]:
        """The title's forms, longest first: whole, without the year, and without the week
        number after " · " (the mini month's margin shows it too)."""
        forms = [self.text()]
        if self.short:
            forms.append(self.short)
        base = forms[-1].rpartition(" · ")[0]
        if base:
            forms.append(base)
        return forms

    def shown_text(self) -> str:
        """What fits: the longest whole form, else the shortest elided. With week numbers on
        and the Work week button in the row, "Nov 30 – Dec 4 · …" cut the week number to an
        ellipsis where "Nov 30 – Dec 4" fitted whole."""
        width = self.contentsRect().width()
        metrics = self.fontMetrics()
        forms = self.forms()
        for form in forms:
            if metrics.horizontalAdvance(form) <= width:
                return form
        return metrics.elidedText(forms[-1], Qt.TextElideMode.ElideRight, width)

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self.text()) + 4, super().sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.shown_text())
        painter.end()

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()


class NavBar(QWidget):
    today_clicked = Signal()
    step_requested = Signal(int)
    date_picked = Signal(object)  # date
    view_requested = Signal(str)
    search_changed = Signal(str)
    search_submitted = Signal()
    search_navigate = Signal(int)  # +1 / -1: move through the results from the box
    search_cancelled = Signal()
    date_done = Signal()  # Enter on a read date, or Esc, in the date box: the view takes the keys

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        layout = QHBoxLayout()
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)

        self.today_button = QToolButton(self)
        self.today_button.setText(self.tr("Today"))
        self.today_button.setToolTip(self.tr("Go to today (T)"))
        self.today_button.clicked.connect(self.today_clicked)
        self.prev_button = QToolButton(self)
        self.prev_button.setArrowType(Qt.ArrowType.LeftArrow)
        self.prev_button.setToolTip(self.tr("Previous"))
        self.prev_button.clicked.connect(lambda: self.step_requested.emit(-1))
        self.next_button = QToolButton(self)
        self.next_button.setArrowType(Qt.ArrowType.RightArrow)
        self.next_button.setToolTip(self.tr("Next"))
        self.next_button.clicked.connect(lambda: self.step_requested.emit(1))

        self.title = ElidedLabel(self)
        font = QFont(self.title.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        self.date_edit = TypedDateEdit(self)  # takes "2027-03-08", "0308", "3/8" typed
        self.date_edit.setCalendarPopup(True)
        self.date_edit.setDisplayFormat("yyyy-MM-dd")
        self.date_edit.setToolTip(self.tr("Go to date"))
        self.date_edit.dateChanged.connect(self._date_changed)
        self.date_edit.installEventFilter(self)

        # No QButtonGroup: a button of any group that takes the focus strips Tab from the
        # others (Qt's fixFocusPolicy), and each view button is a Tab stop (issue 32);
        # ``set_state`` keeps exactly one checked.
        self.view_buttons: dict[str, QToolButton] = {}
        labels = {
            "day": self.tr("Day"),
            "workweek": self.tr("Work week"),
            "week": self.tr("Week"),
            "month": self.tr("Month"),
            "agenda": self.tr("Agenda"),
        }
        keys = {"day": "D", "workweek": "K", "week": "W", "month": "M", "agenda": "A"}
        for name in VIEWS:
            button = QToolButton(self)
            button.setText(labels[name])
            button.setToolTip(f"{labels[name]} ({keys[name]})")
            button.setCheckable(True)
            button.clicked.connect(lambda checked=False, n=name: self.view_requested.emit(n))
            self.view_buttons[name] = button

        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search title, place, notes…"))
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(SEARCH_MIN)
        self.search.setMaximumWidth(260)
        self.search.textChanged.connect(self.search_changed)
        self.search.returnPressed.connect(self.search_submitted)
        self.search.installEventFilter(self)

        self.row = layout
        layout.addWidget(self.today_button)
        layout.addWidget(self.prev_button)
        layout.addWidget(self.next_button)
        layout.addWidget(self.title, 1)
        layout.addWidget(self.date_edit)
        for name in VIEWS:
            layout.addWidget(self.view_buttons[name])
        self.search_gap = 8
        layout.addSpacing(self.search_gap)
        layout.addWidget(self.search)
        # Narrow (half a screen with the chat open): the date picker and the search box
        # take a second row.
        self.second_row = QHBoxLayout()
        self.second_row.setContentsMargins(8, 0, 8, 6)
        outer.addLayout(layout)
        outer.addLayout(self.second_row)
        self.compact = False

    def set_state(self, view: str, anchor: date, title: str, short_title: str = "") -> None:
        """Reflect the area's state without echoing signals back."""
        for name, button in self.view_buttons.items():
            button.setChecked(name == view)
        self.title.short = short_title if short_title != title else ""
        self.title.setText(title)
        self.title.setToolTip(title)
        self.date_edit.blockSignals(True)
        self.date_edit.setDate(QDate(anchor.year, anchor.month, anchor.day))
        self.date_edit.blockSignals(False)

    # ---- one row or two -------------------------------------------------------------------

    def _width_of(self, widget: QWidget) -> int:
        return max(widget.minimumSizeHint().width(), widget.minimumWidth()) + self.row.spacing()

    def _narrow_minimum(self) -> int:
        """The first row's minimum without the search box, the date picker and the Work week
        button, whichever of them it holds now (a hidden widget takes no room in a layout)."""
        held = [] if self.compact else [self.search, self.date_edit]
        if not self.view_buttons["workweek"].isHidden():
            held.append(self.view_buttons["workweek"])
        # The row caches its minimum until the outer layout next activates it, and a button
        # just hidden or shown (``fit_work_week``) would be counted as it was: re-read it.
        self.row.invalidate()
        return self.row.minimumSize().width() - sum(self._width_of(widget) for widget in held)

    def _row_minimum(self, with_search: bool) -> int:
        """The first row's minimum width: one row (everything) or the narrow one."""
        if not with_search:
            return self._narrow_minimum()
        return self._narrow_minimum() + sum(
            self._width_of(widget) for widget in (self.search, self.date_edit, self.view_buttons["workweek"])
        )

    def minimumSizeHint(self) -> QSize:
        """The two-row minimum: the bar never forces the window wider than that."""
        return QSize(self._row_minimum(False), super().minimumSizeHint().height())

    def set_compact(self, compact: bool) -> None:
        if compact == self.compact:
            return
        self.compact = compact
        if compact:
            # The date picker goes down with the search box: the title keeps the room.
            self.row.removeWidget(self.date_edit)
            self.row.removeWidget(self.search)
            self.second_row.addWidget(self.date_edit)
            self.second_row.addWidget(self.search, 1)
            self.search.setMaximumWidth(16_777_215)
        else:
            self.second_row.removeWidget(self.date_edit)
            self.second_row.removeWidget(self.search)
            self.row.insertWidget(self.row.indexOf(self.title) + 1, self.date_edit)
            self.row.addWidget(self.search)
            self.search.setMaximumWidth(260)

    def fit_work_week(self, width: int) -> None:
        """The Work week button steps aside only where the two-row bar has no room for it
        (a window near its minimum, ~830 px with the chat open); View → Work week and K still
        reach it there. It used to go with the second row, so at 1280 px, where the bar
        already takes two rows, the mouse could not reach the work week (issue 32, round 4);
        the bar's minimum still leaves it out, so the narrowest window is no wider."""
        button = self.view_buttons["workweek"]
        shown = not self.compact or width >= self._narrow_minimum() + self._width_of(button)
        if shown == button.isHidden():
            button.setVisible(shown)

    def title_room(self) -> int:
        """Room one row keeps for the title beyond its minimum: a typical week title in the
        title's script. Fixed per language, so stepping through ranges never flips the bar
        between one row and two (which would move the views)."""
        sample = "12月30日 – 12月31日" if _CJK.search(self.title.text()) else "Sep 30 – Oct 31"
        return max(0, self.title.fontMetrics().horizontalAdvance(sample) + 4 - TITLE_MIN)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.set_compact(event.size().width() < self._row_minimum(True) + self.title_room())
        self.fit_work_week(event.size().width())
        super().resizeEvent(event)

    def set_week_start(self, week_start: int) -> None:
        day = Qt.DayOfWeek(week_start)
        self.date_edit.calendarWidget().setFirstDayOfWeek(day)

    @Slot(QDate)
    def _date_changed(self, value: QDate) -> None:
        self.date_picked.emit(date(value.year(), value.month(), value.day()))

    def focus_date(self) -> None:
        """Go to date (Ctrl+G): the date box with its text selected, so typing replaces it."""
        self.date_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.date_edit.lineEdit().selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.date_edit and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self.date_edit.finish_typing():
                    self.date_done.emit()
                else:  # a refused date keeps the keys here, its tooltip says why
                    self.date_edit.lineEdit().selectAll()
                return True
            if key == Qt.Key.Key_Escape:
                self.date_edit.finish_typing(revert=True)
                self.date_done.emit()
                return True
        if watched is self.search and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key == Qt.Key.Key_Down:
                self.search_navigate.emit(1)
                return True
            if key == Qt.Key.Key_Up:
                self.search_navigate.emit(-1)
                return True
            if key == Qt.Key.Key_Escape:
                self.search.clear()
                self.search_cancelled.emit()
                return True
        return super().eventFilter(watched, event)
