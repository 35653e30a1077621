"""Agenda view: the next four weeks as a list of days and their events.

One painted canvas in a scroll area (rows are computed once per data change), so a busy
month is still a single widget. Days without events are skipped, except today, which is
always there as the reader's landmark. Up/Down walk the events; Left/Right move the day.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QContextMenuEvent, QFont, QFontMetrics, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from agent.store.occurrence import Occurrence
from app.calendar.event_item import HOLIDAY_COLOR, WORKDAY_COLOR, blend, muted
from app.calendar.event_source import ViewEvent
from app.calendar.view_base import CalendarView
from app.i18n import format_day

AGENDA_DAYS = 28
DAY_ROW = 30
EVENT_ROW = 40
TIME_COLUMN = 130


@dataclass(frozen=True)
class AgendaRow:
    kind: str  # "day", "event" or "empty"
    day: date
    event: ViewEvent | None
    top: int
    height: int
    time_text: str = ""
    rect: QRectF = field(default_factory=QRectF)
    details: str = ""  # the line under the title: place · tags … · calendar · how the series repeats


class AgendaCanvas(QWidget):
    def __init__(self, view: AgendaView) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self) -> QSize:
        return QSize(600, self.view.content_height())

    def row_at(self, pos: QPointF) -> AgendaRow | None:
        for row in self.view.rows:
            if row.top <= pos.y() < row.top + row.height:
                return row
        return None

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        painter.fillRect(self.rect(), base)
        view = self.view
        clip = event.rect()
        small = QFont(self.font())
        small.setPointSizeF(max(small.pointSizeF() * 0.88, 7))
        bold = QFont(self.font())
        bold.setBold(True)
        width = self.width()
        if not view.rows:
            painter.setPen(muted(palette))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("No events in these four weeks"))
        for row in view.rows:
            if row.top + row.height < clip.top() or row.top > clip.bottom():
                continue
            rect = QRectF(0, row.top, width, row.height)
            if row.kind == "day":
                self._paint_day(painter, rect, row.day, bold, small)
            elif row.kind == "empty":
                painter.setFont(small)
                painter.setPen(muted(palette))
                painter.drawText(rect.adjusted(TIME_COLUMN, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, self.tr("No events"))
            else:
                assert row.event is not None
                self._paint_event(painter, rect, row, small)
        painter.end()

    def _paint_day(self, painter: QPainter, rect: QRectF, day: date, bold: QFont, small: QFont) -> None:
        palette = self.palette()
        view = self.view
        painter.fillRect(rect, palette.color(QPalette.ColorRole.Window))
        is_today = day == view.now.date()
        painter.setFont(bold)
        painter.setPen(palette.color(QPalette.ColorRole.Highlight) if is_today else palette.color(QPalette.ColorRole.WindowText))
        label = format_day(view.qlocale, day, view.qlocale.dateFormat(view.qlocale.FormatType.LongFormat))
        if is_today:
            label = self.tr("Today") + " · " + label
        painter.drawText(rect.adjusted(12, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, label)
        x = rect.left() + 12 + QFontMetrics(bold).horizontalAdvance(label) + 12
        painter.setFont(small)
        mark = view.marks.get(day)
        if mark is not None and (mark.name or mark.workday):
            painter.setPen(HOLIDAY_COLOR if mark.off else WORKDAY_COLOR)
            text = mark.name if mark.name else self.tr("work")
            painter.drawText(QRectF(x, rect.top(), rect.width() - x, rect.height()), Qt.AlignmentFlag.AlignVCenter, text)
            x += QFontMetrics(small).horizontalAdvance(text) + 10
        lunar = view.lunar.get(day, "")
        if lunar:
            painter.setPen(muted(palette))
            painter.drawText(QRectF(x, rect.top(), rect.width() - x, rect.height()), Qt.AlignmentFlag.AlignVCenter, lunar)

    def _paint_event(self, painter: QPainter, rect: QRectF, row: AgendaRow, small: QFont) -> None:
        palette = self.palette()
        event = row.event
        assert event is not None
        selected = event.key == self.view.selected_key
        if selected:
            highlight = blend(palette.color(QPalette.ColorRole.Highlight), palette.color(QPalette.ColorRole.Base), 0.18)
            painter.fillRect(rect, highlight)
        text = palette.color(QPalette.ColorRole.Text)
        if event.occ.completed:
            text = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        painter.setFont(small)
        painter.setPen(muted(palette))
        painter.drawText(
            QRectF(rect.left() + 12, rect.top(), TIME_COLUMN - 16, rect.height()),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            row.time_text,
        )
        painter.fillRect(QRectF(TIME_COLUMN - 8, rect.top() + 6, 4, rect.height() - 12), QColor(event.occ.color or "#3b82f6"))
        title_font = QFont(self.font())
        title_font.setStrikeOut(event.occ.completed)
        available = int(rect.width() - TIME_COLUMN - 12)
        painter.setFont(title_font)
        painter.setPen(text)
        metrics = QFontMetrics(title_font)
        details = row.details
        if details:
            painter.drawText(
                QRectF(TIME_COLUMN, rect.top() + 3, available, rect.height() / 2),
                Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft,
                metrics.elidedText(event.occ.title, Qt.TextElideMode.ElideRight, available),
            )
            painter.setFont(small)
            painter.setPen(muted(palette))
            painter.drawText(
                QRectF(TIME_COLUMN, rect.center().y() + 1, available, rect.height() / 2 - 3),
                Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
                QFontMetrics(small).elidedText(details, Qt.TextElideMode.ElideRight, available),
            )
        else:
            painter.drawText(
                QRectF(TIME_COLUMN, rect.top(), available, rect.height()),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                metrics.elidedText(event.occ.title, Qt.TextElideMode.ElideRight, available),
            )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.view.setFocus(Qt.FocusReason.MouseFocusReason)
        row = self.row_at(event.position())
        self.view.select(row.event.key if row is not None and row.event is not None else None)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            return
        row = self.row_at(QPointF(event.pos()))
        self.view.open_context_menu(row.event if row is not None else None, event.globalPos())

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(event.position())
        if row is not None and row.event is not None:
            self.view.event_activated.emit(row.event)
        elif row is not None:
            self.view.create_requested.emit(row.day, row.day + timedelta(days=1))


class AgendaView(CalendarView):
    name = "agenda"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[AgendaRow] = []
        # The repeat summary of an occurrence's series (CalendarArea's SeriesSummaries.text).
        self.repeat_text: Callable[[Occurrence], str] = lambda occ: ""
        # The field table's shown fields in one line, the tags … (the event card's
        # ShownFields.agenda_text, set by EventPopover.watch).
        self.shown_text: Callable[[Occurrence], str] = lambda occ: ""
        self.canvas = AgendaCanvas(self)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setWidget(self.canvas)
        self.scroll_area.setFocusProxy(self)
        self.canvas.setFocusProxy(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll_area)

    def date_range(self) -> tuple[date, date]:
        return self.anchor, self.anchor + timedelta(days=AGENDA_DAYS)

    def step_anchor(self, delta: int) -> date:
        return self.anchor + timedelta(days=7 * delta)

    def content_height(self) -> int:
        return self.rows[-1].top + self.rows[-1].height if self.rows else 200

    def relayout(self) -> None:
        first, end = self.date_range()
        rows: list[AgendaRow] = []
        top = 0
        today = self.now.date()
        for offset in range((end - first).days):
            day = first + timedelta(days=offset)
            events = [event for event in self.day_events(day) if event.end > event.start or event.start.date() == day]
            if not events and day != today:
                continue
            rows.append(AgendaRow("day", day, None, top, DAY_ROW))
            top += DAY_ROW
            if not events:
                rows.append(AgendaRow("empty", day, None, top, EVENT_ROW))
                top += EVENT_ROW
            for event in sorted(events, key=lambda e: (not e.is_bar, e.start, e.occ.title)):
                occ = event.occ
                details = (occ.location, self.shown_text(occ), occ.calendar, self.repeat_text(occ))
                text = " · ".join(value for value in details if value)
                rows.append(AgendaRow("event", day, event, top, EVENT_ROW, self._time_text(event, day), details=text))
                top += EVENT_ROW
        self.rows = rows
        self.canvas.setMinimumHeight(self.content_height())
        self.canvas.updateGeometry()
        self.canvas.update()

    def _time_text(self, event: ViewEvent, day: date) -> str:
        if event.all_day:
            return self.tr("all-day")
        starts, ends = event.start.date() == day, (event.end - timedelta(microseconds=1)).date() == day
        if starts and ends:
            return f"{event.start:%H:%M}–{event.end:%H:%M}"
        if starts:
            return f"{event.start:%H:%M} →"
        if ends:
            return f"→ {event.end:%H:%M}"
        return self.tr("all-day")

    def repaint_all(self) -> None:
        self.canvas.update()

    def visible_items(self) -> list[AgendaRow]:
        width = self.canvas.width()
        return [replace(row, rect=QRectF(0, row.top, width, row.height)) for row in self.rows]

    def selection_moved(self) -> None:
        for row in self.rows:
            if row.event is not None and row.event.key == self.selected_key:
                self.scroll_area.ensureVisible(0, row.top + row.height // 2, 0, row.height)
                return

    def arrow_days(self, key: Qt.Key) -> int | None:
        return {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(key)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            events = [row for row in self.rows if row.event is not None]
            if not events:
                return
            keys = [row.event.key for row in events if row.event is not None]
            if self.selected_key in keys:
                index = keys.index(self.selected_key) + (1 if key == Qt.Key.Key_Down else -1)
            else:
                index = 0 if key == Qt.Key.Key_Down else len(keys) - 1
            self.select(keys[max(0, min(index, len(keys) - 1))])
            return
        super().keyPressEvent(event)
