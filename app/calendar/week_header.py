"""The top of the week/day view: day names, holiday/调休 marks, lunar days, all-day bars.

Bars (all-day events and timed ones of 24 hours or more) are packed into rows with
``layout.pack_rows``; beyond ``MAX_ROWS`` a "+N" per day says what did not fit. Bars drag
sideways by whole days; dragging on the empty row creates an all-day event.

The header knows nothing of ``WeekView``: the view hands it what to draw (``set_state`` for
the days, ``relayout`` for the bars) and the column geometry it shares with the time grid
(``ColumnGeometry``), and listens to its requests (the signals below), as it does the grid's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Protocol

from PySide6.QtCore import QEvent, QLocale, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QToolTip, QWidget

from agent.timesym.holiday_forms import fitting_form, holiday_forms
from app.calendar.event_item import (
    HOLIDAY_COLOR,
    WORKDAY_COLOR,
    blend,
    grid_pen,
    line_height,
    muted,
    paint_bar,
    selected_day_tint,
)
from app.calendar.event_source import ViewEvent
from app.calendar.holidays import DayMark
from app.calendar.layout import bar_span, clamp, pack_rows
from app.calendar.view_base import EventSurface, Span

GUTTER = 56
LABEL_HEIGHT = 48
BAR_HEIGHT = 22
MAX_ROWS = 3


@dataclass(frozen=True)
class BarItem:
    event: ViewEvent
    row: int
    first: int  # day index
    end: int  # exclusive day index
    rect: QRectF = field(default_factory=QRectF)


@dataclass(frozen=True)
class HeaderDay:
    day: date
    mark: DayMark | None
    lunar: str
    hidden_bars: int  # bars that did not fit this day's all-day row
    selected: bool = False  # the keyboard-selected day (the anchor)


class ColumnGeometry(Protocol):
    """Where the day columns are: the time grid owns them, so header and grid line up."""

    def column_x(self, index: int) -> float: ...

    def column_width(self) -> float: ...


@dataclass(frozen=True)
class HeaderState:
    """What the header draws besides the bars; the view sets it whenever it changes."""

    first_day: date
    days: int
    marks: Mapping[date, DayMark]
    lunar: Mapping[date, str]
    today: date
    selected_index: int | None  # the keyboard-selected day's column, None when not marked
    selected_key: tuple[str, str] | None  # the selected event
    locale: QLocale  # day names


@dataclass
class _BarDrag:
    event: ViewEvent | None  # None: creating
    press: QPointF
    press_index: int
    first: int
    end: int
    press_first: int
    moved: bool = False


class WeekHeader(EventSurface[_BarDrag], QWidget):
    """Day labels and the all-day row. It never writes and never reaches into its view: it
    emits requests, which the week view forwards as its own (``CalendarView``'s signals)."""

    day_opened = Signal(object)  # date: a click on a day's label
    select_requested = Signal(object)  # event key, or None: a press on a bar or on empty space
    create_requested = Signal(object, object)  # first day, end day (exclusive): a new all-day event
    move_requested = Signal(object, object, object)  # ViewEvent, new start, new end
    event_activated = Signal(object)  # ViewEvent: a double-click on a bar
    context_requested = Signal(object, object)  # ViewEvent or None, QPoint (global): a right-click

    def __init__(self, columns: ColumnGeometry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns = columns
        self.state = HeaderState(date.today(), 7, {}, {}, date.today(), None, None, QLocale())
        self.bars: list[BarItem] = []
        self.rows = 0
        self.drag: _BarDrag | None = None
        self.drawn_labels: dict[date, str] = {}  # the word beside each day's number, as last drawn

    def event(self, event: QEvent) -> bool:
        # Over a day's label: its holiday's whole name (the label may show a short form).
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            mark = None
            if event.pos().y() < LABEL_HEIGHT:
                mark = self.state.marks.get(self.state.first_day + timedelta(days=self.index_at(event.pos().x())))
            if mark is not None and mark.name:
                QToolTip.showText(event.globalPos(), mark.name, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def sizeHint(self) -> QSize:
        return QSize(600, self._height())

    def _height(self) -> int:
        return LABEL_HEIGHT + max(1, min(self.rows, MAX_ROWS)) * BAR_HEIGHT + 6

    def set_state(self, state: HeaderState) -> None:
        """New days, marks, clock or selection; ``relayout`` follows when the bars change."""
        self.state = state
        self.update()

    def relayout(self, bars: list[ViewEvent]) -> None:
        """Pack the bars into rows for the days of the current state."""
        state = self.state
        spans: list[tuple[ViewEvent, tuple[int, int]]] = []
        for event in bars:
            span = bar_span(event.first_day, event.end_day, state.first_day, state.days)
            if span is not None:
                spans.append((event, span))
        rows = pack_rows([span for _, span in spans])
        self.bars = [BarItem(event, row, span[0], span[1]) for (event, span), row in zip(spans, rows, strict=True)]
        self.rows = max(rows, default=-1) + 1
        self.setFixedHeight(self._height())

    # ---- geometry ------------------------------------------------------------------------

    def bar_rect(self, item: BarItem) -> QRectF:
        return self._span_rect(item.first, item.end, item.row)

    def _span_rect(self, first: int, end: int, row: int) -> QRectF:
        left = self.columns.column_x(first) + 1
        right = self.columns.column_x(end) - 1
        return QRectF(left, LABEL_HEIGHT + row * BAR_HEIGHT + 2, right - left, BAR_HEIGHT - 2)

    def shown(self, item: BarItem) -> bool:
        return item.row < MAX_ROWS - 1 or (item.row == MAX_ROWS - 1 and self.rows <= MAX_ROWS)

    def hidden_count(self, index: int) -> int:
        return sum(1 for item in self.bars if not self.shown(item) and item.first <= index < item.end)

    def index_at(self, x: float) -> int:
        return clamp(int((x - GUTTER) // self.columns.column_width()), 0, self.state.days - 1)

    def bar_at(self, pos: QPointF) -> BarItem | None:
        for item in self.bars:
            if self.shown(item) and self.bar_rect(item).contains(pos):
                return item
        return None

    def visible_items(self) -> list[BarItem | HeaderDay]:
        state = self.state
        days: list[BarItem | HeaderDay] = []
        for index in range(state.days):
            day = state.first_day + timedelta(days=index)
            days.append(
                HeaderDay(
                    day, state.marks.get(day), state.lunar.get(day, ""), self.hidden_count(index), index == state.selected_index
                )
            )
        return [
            *days,
            *(BarItem(item.event, item.row, item.first, item.end, self.bar_rect(item)) for item in self.bars if self.shown(item)),
        ]

    # ---- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        state = self.state
        grid = self.columns
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Window))
        small = QFont(self.font())
        small.setPointSizeF(max(small.pointSizeF() * 0.85, 7))
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 1.35)
        highlight = palette.color(QPalette.ColorRole.Highlight)
        today = state.today
        selected = state.selected_index
        for index in range(state.days):
            day = state.first_day + timedelta(days=index)
            x, width = grid.column_x(index), grid.column_width()
            if day == today:
                today_tint = blend(highlight, palette.color(QPalette.ColorRole.Window), 0.08)
                painter.fillRect(QRectF(x, 0, width, self.height()), today_tint)
            if index == selected:
                # The keyboard-selected day: tinted, with a highlight-coloured bar under its label.
                painter.fillRect(QRectF(x, 0, width, self.height()), selected_day_tint(palette))
                painter.fillRect(QRectF(x + 1, LABEL_HEIGHT - 3, width - 2, 3), highlight)
            self._paint_day_label(painter, QRectF(x, 0, width, LABEL_HEIGHT), day, small, big, day == today)
            hidden = self.hidden_count(index)
            if hidden:
                painter.setFont(small)
                painter.setPen(muted(palette))
                rect = QRectF(x + 4, LABEL_HEIGHT + (MAX_ROWS - 1) * BAR_HEIGHT + 2, width - 8, BAR_HEIGHT - 2)
                painter.drawText(
                    rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.tr("+{0} more").format(hidden)
                )
        painter.setPen(grid_pen(palette))  # the time grid's lines, continued
        for index in range(state.days + 1):
            x = grid.column_x(index)
            painter.drawLine(QPointF(x, LABEL_HEIGHT - 14), QPointF(x, self.height()))
        painter.drawLine(QPointF(0, self.height() - 1), QPointF(self.width(), self.height() - 1))
        painter.setFont(small)
        painter.setPen(muted(palette))
        painter.drawText(
            QRectF(0, LABEL_HEIGHT, GUTTER - 6, BAR_HEIGHT),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            self.tr("all-day"),
        )
        dragging = self.dragging_key()
        for item in self.bars:
            if self.shown(item):
                paint_bar(
                    painter,
                    self.bar_rect(item),
                    item.event,
                    palette,
                    small,
                    selected=item.event.key == state.selected_key and dragging is None,
                    ghost=item.event.key == dragging,
                )
        self._paint_drag(painter, palette, small)
        painter.end()

    def _paint_day_label(self, painter: QPainter, rect: QRectF, day: date, small: QFont, big: QFont, is_today: bool) -> None:
        palette = self.palette()
        state = self.state
        mark = state.marks.get(day)
        weekday = state.locale.dayName(day.isoweekday(), QLocale.FormatType.ShortFormat)
        painter.setFont(small)
        small_metrics = QFontMetrics(small)
        painter.setPen(HOLIDAY_COLOR if mark is not None and mark.off else muted(palette))
        weekday_rect = QRectF(rect.left() + 6, rect.top() + 2, rect.width() - 8, 16)
        painter.drawText(weekday_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, weekday)
        if mark is not None and (mark.off or mark.workday):
            # 休/班 badge right after the weekday, so it reads as part of this day's label.
            badge = self.tr("off") if mark.off else self.tr("work")
            badge_rect = QRectF(
                weekday_rect.left() + small_metrics.horizontalAdvance(weekday) + 4,
                rect.top() + 3,
                small_metrics.horizontalAdvance(badge) + 6,
                14,
            )
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(HOLIDAY_COLOR if mark.off else WORKDAY_COLOR)
            painter.drawRoundedRect(badge_rect, 3, 3)
            painter.setPen(Qt.GlobalColor.white)
            painter.drawText(badge_rect, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextDontClip, badge)
        painter.setFont(big)
        number = str(day.day)
        metrics = QFontMetrics(big)
        number_rect = QRectF(rect.left() + 4, rect.top() + 19, metrics.horizontalAdvance(number) + 8, line_height(big))
        if is_today:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
            painter.drawRoundedRect(number_rect, number_rect.height() / 2, number_rect.height() / 2)
            painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        else:
            painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        painter.drawText(number_rect, Qt.AlignmentFlag.AlignCenter, number)
        # Beside the number: the holiday name (red) or the lunar day (grey).
        x = number_rect.right() + 4
        right = rect.right() - 4
        # A holiday's longest whole form ("Chinese New Year", "Lunar NY", "CNY"), never a cut
        # ("Chine…"); the tooltip has the name (issue 32, defect 13).
        forms = holiday_forms(mark.name) if mark is not None and mark.name else (state.lunar.get(day, ""),)
        text = fitting_form(forms, right - x, QFontMetrics(small).horizontalAdvance) if forms[0] else ""
        self.drawn_labels[day] = text
        if text:
            painter.setFont(small)
            painter.setPen(HOLIDAY_COLOR if mark is not None and mark.name else muted(palette))
            painter.drawText(
                QRectF(x, number_rect.top(), right - x, number_rect.height()),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                text,
            )

    def _paint_drag(self, painter: QPainter, palette: QPalette, font: QFont) -> None:
        drag = self.drag
        if drag is None or not drag.moved:
            return
        if drag.event is None:
            grid = self.columns
            painter.save()
            painter.setOpacity(0.35)
            painter.fillRect(
                QRectF(grid.column_x(drag.first), LABEL_HEIGHT, grid.column_x(drag.end) - grid.column_x(drag.first), BAR_HEIGHT),
                palette.color(QPalette.ColorRole.Highlight),
            )
            painter.restore()
            return
        rect = self._span_rect(drag.first, drag.end, 0)
        shift = timedelta(days=drag.first - drag.press_first)
        paint_bar(
            painter,
            rect,
            ViewEvent(drag.event.occ, drag.event.start + shift, drag.event.end + shift),
            palette,
            font,
            selected=True,
        )

    # ---- mouse ---------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self.setFocus(Qt.FocusReason.MouseFocusReason)  # the view, when it made itself the focus proxy
        pos = event.position()
        index = self.index_at(pos.x())
        if pos.y() < LABEL_HEIGHT:
            self.drag = None
            if self.state.days > 1 and pos.x() >= GUTTER:
                self.day_opened.emit(self.state.first_day + timedelta(days=index))
            return
        item = self.bar_at(pos)
        if item is None:
            self.select_requested.emit(None)
            self.drag = _BarDrag(None, pos, index, index, index + 1, index)
            return
        self.select_requested.emit(item.event.key)
        self.drag = _BarDrag(item.event, pos, index, item.first, item.end, item.first)

    def requests(self) -> WeekHeader:
        return self

    def open_context_menu(self, event: ViewEvent | None, global_pos: QPoint) -> None:
        """A right-click: the view, which owns the selection, opens the menu (``context_requested``)."""
        self.context_requested.emit(event, global_pos)

    def event_at(self, pos: QPointF) -> ViewEvent | None:
        item = self.bar_at(pos)
        return item.event if item is not None else None

    def drag_to(self, drag: _BarDrag, pos: QPointF) -> None:
        index = self.index_at(pos.x())
        if drag.event is None:
            drag.first, drag.end = min(index, drag.press_index), max(index, drag.press_index) + 1
        else:
            width = drag.end - drag.first
            first = drag.press_first + index - drag.press_index
            drag.first, drag.end = first, first + width

    def drag_span(self, drag: _BarDrag) -> Span | None:
        first_day = self.state.first_day
        if drag.event is None:
            return first_day + timedelta(days=drag.first), first_day + timedelta(days=drag.end)
        shift = timedelta(days=drag.first - drag.press_first)
        return drag.event.start + shift, drag.event.end + shift

    def create_span_at(self, pos: QPointF) -> Span | None:
        if pos.y() < LABEL_HEIGHT:
            return None
        day = self.state.first_day + timedelta(days=self.index_at(pos.x()))
        return day, day + timedelta(days=1)
