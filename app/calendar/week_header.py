"""The top of the week/day view: day names, holiday/调休 marks, lunar days, all-day bars.

Bars (all-day events and timed ones of 24 hours or more) are packed into rows with
``layout.pack_rows``; beyond ``MAX_ROWS`` a "+N" per day says what did not fit. Bars drag
sideways by whole days; dragging on the empty row creates an all-day event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QContextMenuEvent, QFont, QFontMetrics, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QWidget

from app.calendar.event_item import HOLIDAY_COLOR, WORKDAY_COLOR, blend, line_height, muted, paint_bar, selected_day_tint
from app.calendar.event_source import ViewEvent
from app.calendar.holidays import DayMark
from app.calendar.layout import bar_span, clamp, pack_rows

if TYPE_CHECKING:
    from app.calendar.week_view import WeekView

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


@dataclass
class _BarDrag:
    event: ViewEvent | None  # None: creating
    press: QPointF
    press_index: int
    first: int
    end: int
    press_first: int
    moved: bool = False


class WeekHeader(QWidget):
    def __init__(self, view: WeekView) -> None:
        super().__init__(view)
        self.view = view
        self.bars: list[BarItem] = []
        self.rows = 0
        self.drag: _BarDrag | None = None

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt)
        return QSize(600, self._height())

    def _height(self) -> int:
        return LABEL_HEIGHT + max(1, min(self.rows, MAX_ROWS)) * BAR_HEIGHT + 6

    def relayout(self, bars: list[ViewEvent]) -> None:
        view = self.view
        spans: list[tuple[ViewEvent, tuple[int, int]]] = []
        for event in bars:
            span = bar_span(event.first_day, event.end_day, view.first_day, view.days)
            if span is not None:
                spans.append((event, span))
        rows = pack_rows([span for _, span in spans])
        self.bars = [BarItem(event, row, span[0], span[1]) for (event, span), row in zip(spans, rows, strict=True)]
        self.rows = max(rows, default=-1) + 1
        self.setFixedHeight(self._height())

    # ---- geometry ------------------------------------------------------------------------

    def bar_rect(self, item: BarItem) -> QRectF:
        grid = self.view.grid
        left = grid.column_x(item.first) + 1
        right = grid.column_x(item.end) - 1
        return QRectF(left, LABEL_HEIGHT + item.row * BAR_HEIGHT + 2, right - left, BAR_HEIGHT - 2)

    def shown(self, item: BarItem) -> bool:
        return item.row < MAX_ROWS - 1 or (item.row == MAX_ROWS - 1 and self.rows <= MAX_ROWS)

    def hidden_count(self, index: int) -> int:
        return sum(1 for item in self.bars if not self.shown(item) and item.first <= index < item.end)

    def index_at(self, x: float) -> int:
        grid = self.view.grid
        return clamp(int((x - GUTTER) // grid.column_width()), 0, self.view.days - 1)

    def bar_at(self, pos: QPointF) -> BarItem | None:
        for item in self.bars:
            if self.shown(item) and self.bar_rect(item).contains(pos):
                return item
        return None

    def visible_items(self) -> list[BarItem | HeaderDay]:
        days: list[BarItem | HeaderDay] = []
        for index in range(self.view.days):
            day = self.view.first_day + timedelta(days=index)
            days.append(HeaderDay(day, self.view.marks.get(day), self.view.lunar.get(day, ""), self.hidden_count(index),
                                  index == self.view.selected_day_index()))
        return [*days, *(BarItem(item.event, item.row, item.first, item.end, self.bar_rect(item))
                         for item in self.bars if self.shown(item))]

    # ---- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt)
        painter = QPainter(self)
        palette = self.palette()
        view = self.view
        grid = view.grid
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Window))
        small = QFont(self.font())
        small.setPointSizeF(max(small.pointSizeF() * 0.85, 7))
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 1.35)
        highlight = palette.color(QPalette.ColorRole.Highlight)
        today = view.now.date()
        selected = view.selected_day_index()
        for index in range(view.days):
            day = view.first_day + timedelta(days=index)
            x, width = grid.column_x(index), grid.column_width()
            if day == today:
                painter.fillRect(QRectF(x, 0, width, self.height()), blend(highlight, palette.color(QPalette.ColorRole.Window), 0.08))
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
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                                 self.tr("+{0} more").format(hidden))
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 0.6))
        for index in range(view.days + 1):
            x = grid.column_x(index)
            painter.drawLine(QPointF(x, LABEL_HEIGHT - 14), QPointF(x, self.height()))
        painter.drawLine(QPointF(0, self.height() - 1), QPointF(self.width(), self.height() - 1))
        painter.setFont(small)
        painter.setPen(muted(palette))
        painter.drawText(QRectF(0, LABEL_HEIGHT, GUTTER - 6, BAR_HEIGHT), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         self.tr("all-day"))
        dragging = self.drag.event.key if self.drag and self.drag.event and self.drag.moved else None
        for item in self.bars:
            if self.shown(item):
                paint_bar(painter, self.bar_rect(item), item.event, palette, small,
                          selected=item.event.key == view.selected_key and dragging is None,
                          ghost=item.event.key == dragging)
        self._paint_drag(painter, palette, small)
        painter.end()

    def _paint_day_label(self, painter: QPainter, rect: QRectF, day: date, small: QFont, big: QFont, is_today: bool) -> None:
        palette = self.palette()
        view = self.view
        mark = view.marks.get(day)
        weekday = view.qlocale.dayName(day.isoweekday(), view.qlocale.FormatType.ShortFormat)
        painter.setFont(small)
        small_metrics = QFontMetrics(small)
        painter.setPen(HOLIDAY_COLOR if mark is not None and mark.off else muted(palette))
        weekday_rect = QRectF(rect.left() + 6, rect.top() + 2, rect.width() - 8, 16)
        painter.drawText(weekday_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, weekday)
        if mark is not None and (mark.off or mark.workday):
            # 休/班 badge right after the weekday, so it reads as part of this day's label.
            badge = self.tr("off") if mark.off else self.tr("work")
            badge_rect = QRectF(weekday_rect.left() + small_metrics.horizontalAdvance(weekday) + 4, rect.top() + 3,
                                small_metrics.horizontalAdvance(badge) + 6, 14)
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
        text = mark.name if mark is not None and mark.name else view.lunar.get(day, "")
        if text:
            painter.setFont(small)
            painter.setPen(HOLIDAY_COLOR if mark is not None and mark.name else muted(palette))
            width = int(right - x)
            if width > 8:
                painter.drawText(QRectF(x, number_rect.top(), width, number_rect.height()),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 QFontMetrics(small).elidedText(text, Qt.TextElideMode.ElideRight, width))

    def _paint_drag(self, painter: QPainter, palette: QPalette, font: QFont) -> None:
        drag = self.drag
        if drag is None or not drag.moved:
            return
        rect = self.bar_rect(BarItem(drag.event, 0, drag.first, drag.end)) if drag.event else None  # type: ignore[arg-type]
        if drag.event is None:
            grid = self.view.grid
            painter.save()
            painter.setOpacity(0.35)
            painter.fillRect(QRectF(grid.column_x(drag.first), LABEL_HEIGHT, grid.column_x(drag.end) - grid.column_x(drag.first),
                                    BAR_HEIGHT), palette.color(QPalette.ColorRole.Highlight))
            painter.restore()
            return
        assert rect is not None
        shift = timedelta(days=drag.first - drag.press_first)
        paint_bar(painter, rect, ViewEvent(drag.event.occ, drag.event.start + shift, drag.event.end + shift),
                  palette, font, selected=True)

    # ---- mouse ---------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self.view.setFocus(Qt.FocusReason.MouseFocusReason)
        pos = event.position()
        index = self.index_at(pos.x())
        if pos.y() < LABEL_HEIGHT:
            self.drag = None
            if self.view.days > 1 and pos.x() >= GUTTER:
                self.view.day_opened.emit(self.view.first_day + timedelta(days=index))
            return
        item = self.bar_at(pos)
        if item is None:
            self.view.select(None)
            self.drag = _BarDrag(None, pos, index, index, index + 1, index)
            return
        self.view.select(item.event.key)
        self.drag = _BarDrag(item.event, pos, index, item.first, item.end, item.first)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        drag = self.drag
        if drag is None:
            return
        pos = event.position()
        if not drag.moved and (pos - drag.press).manhattanLength() < 4:
            return
        drag.moved = True
        index = self.index_at(pos.x())
        if drag.event is None:
            drag.first, drag.end = min(index, drag.press_index), max(index, drag.press_index) + 1
        else:
            width = drag.end - drag.first
            first = drag.press_first + index - drag.press_index
            drag.first, drag.end = first, first + width
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        drag, self.drag = self.drag, None
        if drag is None or event.button() != Qt.MouseButton.LeftButton:
            return
        self.update()
        if not drag.moved:
            return
        first_day = self.view.first_day
        if drag.event is None:
            self.view.create_requested.emit(first_day + timedelta(days=drag.first), first_day + timedelta(days=drag.end))
            return
        shift = timedelta(days=drag.first - drag.press_first)
        if shift:
            self.view.move_requested.emit(drag.event, drag.event.start + shift, drag.event.end + shift)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt)
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            return
        self.drag = None
        item = self.bar_at(QPointF(event.pos()))
        self.view.open_context_menu(item.event if item is not None else None, event.globalPos())

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        self.drag = None
        pos = event.position()
        if pos.y() < LABEL_HEIGHT:
            return
        item = self.bar_at(pos)
        if item is not None:
            self.view.event_activated.emit(item.event)
            return
        day = self.view.first_day + timedelta(days=self.index_at(pos.x()))
        self.view.create_requested.emit(day, day + timedelta(days=1))
