"""Week view (and day view: the same widget with one column).

The header with the all-day row is ``week_header.py``; this file holds the scrolling
time grid. Layout is computed once per data change (``relayout``) as minutes and columns,
and turned into rectangles from the current width when painting, so resizing never
re-runs the overlap layout. Dragging snaps to 15 minutes; the preview is painted as a
ghost and the write happens only on release, through ``move_requested``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen, QShowEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from app.calendar.event_item import NOW_COLOR, grid_pen, paint_block, selected_day_tint
from app.calendar.event_source import ViewEvent
from app.calendar.layout import MINUTES_PER_DAY, SNAP_MINUTES, clamp, day_segments, place_columns, snap
from app.calendar.view_base import CalendarView, EventSurface, Span, week_first_day
from app.calendar.week_header import GUTTER, HeaderState, WeekHeader

HOUR_HEIGHT = 48
MIN_BLOCK_MINUTES = 20  # short events are drawn at least this tall (and laid out so)
EDGE = 5  # pixels at a block's top/bottom that resize instead of move


@dataclass(frozen=True)
class GridItem:
    """One block the time grid draws (an event's part on one day)."""

    event: ViewEvent
    day_index: int
    start_minute: int
    end_minute: int
    column: int
    columns: int
    span: int
    starts_here: bool
    ends_here: bool
    rect: QRectF = field(default_factory=QRectF)


def time_text(start: datetime, end: datetime) -> str:
    # Plain formatting: strftime-style f-strings cost ~30 µs a block in a busy week.
    return f"{start.hour:02d}:{start.minute:02d}–{end.hour:02d}:{end.minute:02d}"


@dataclass
class _Drag:
    kind: str  # "create", "move", "resize-start", "resize-end"
    event: ViewEvent | None
    press: QPointF
    press_time: datetime
    start: datetime
    end: datetime
    moved: bool = False


class TimeGrid(EventSurface[_Drag], QWidget):
    """The 24-hour canvas inside the scroll area."""

    def __init__(self, view: WeekView) -> None:
        super().__init__(view)
        self.view = view
        self.setMouseTracking(True)
        self.setMinimumHeight(24 * HOUR_HEIGHT + 1)
        self.drag: _Drag | None = None

    def sizeHint(self) -> QSize:
        return QSize(600, 24 * HOUR_HEIGHT + 1)

    # ---- geometry ------------------------------------------------------------------------

    def column_width(self) -> float:
        return max((self.width() - GUTTER) / self.view.days, 1.0)

    def column_x(self, index: int) -> float:
        return GUTTER + index * self.column_width()

    def y_of(self, minute: float) -> float:
        return minute * HOUR_HEIGHT / 60

    def item_rect(self, item: GridItem) -> QRectF:
        width = self.column_width() - 6
        slot = width / item.columns
        left = self.column_x(item.day_index) + 1 + item.column * slot
        top = self.y_of(item.start_minute)
        bottom = self.y_of(max(item.end_minute, item.start_minute + MIN_BLOCK_MINUTES))
        return QRectF(left, top + 1, slot * item.span - 2, max(bottom - top - 2, 8))

    def time_at(self, pos: QPointF) -> datetime:
        index = clamp(int((pos.x() - GUTTER) // self.column_width()), 0, self.view.days - 1)
        minutes = clamp(int(pos.y() * 60 / HOUR_HEIGHT), 0, MINUTES_PER_DAY)
        return datetime.combine(self.view.first_day + timedelta(days=index), time(0)) + timedelta(minutes=minutes)

    def item_at(self, pos: QPointF) -> GridItem | None:
        for item in reversed(self.view.grid_items):
            if self.item_rect(item).contains(pos):
                return item
        return None

    # ---- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        view = self.view
        clip = event.rect()
        # Outside working hours (and on days off) the grid is a shade darker.
        off = palette.color(QPalette.ColorRole.AlternateBase)
        for index in range(view.days):
            day = view.first_day + timedelta(days=index)
            x, w = self.column_x(index), self.column_width()
            if not view.is_working_day(day):
                painter.fillRect(QRectF(x, 0, w, self.height()), off)
                continue
            painter.fillRect(QRectF(x, 0, w, self.y_of(view.work_minutes[0])), off)
            painter.fillRect(QRectF(x, self.y_of(view.work_minutes[1]), w, self.height()), off)
        selected = view.selected_day_index()
        if selected is not None:
            painter.fillRect(QRectF(self.column_x(selected), 0, self.column_width(), self.height()), selected_day_tint(palette))
        lines = grid_pen(palette)  # readable in dark palettes too (event_item.grid_line_color)
        label_font = QFont(self.font())
        label_font.setPointSizeF(max(label_font.pointSizeF() * 0.85, 7))
        painter.setFont(label_font)
        for hour in range(25):
            y = self.y_of(hour * 60)
            if y < clip.top() - HOUR_HEIGHT or y > clip.bottom() + HOUR_HEIGHT:
                continue
            painter.setPen(lines)
            painter.drawLine(QPointF(GUTTER - 4, y), QPointF(self.width(), y))
            if 0 < hour < 24:
                painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
                painter.drawText(
                    QRectF(0, y - 8, GUTTER - 8, 16),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                    f"{hour:02d}:00",
                )
        painter.setPen(lines)
        for index in range(view.days + 1):
            x = self.column_x(index)
            painter.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        block_font = QFont(self.font())
        block_font.setPointSizeF(max(block_font.pointSizeF() * 0.9, 7))
        dragging = self.dragging_key()
        for item in view.grid_items:
            rect = self.item_rect(item)
            if not rect.intersects(QRectF(clip)):
                continue
            paint_block(
                painter,
                rect,
                item.event,
                palette,
                block_font,
                selected=item.event.key == view.selected_key and dragging is None,
                time_text=time_text(item.event.start, item.event.end),
                ghost=item.event.key == dragging,
            )
        self._paint_drag(painter, palette, block_font)
        self._paint_now(painter)
        painter.end()

    def _paint_now(self, painter: QPainter) -> None:
        now = self.view.now
        index = (now.date() - self.view.first_day).days
        if not 0 <= index < self.view.days:
            return
        y = self.y_of(now.hour * 60 + now.minute)
        painter.setPen(QPen(NOW_COLOR, 2))
        painter.drawLine(QPointF(self.column_x(index), y), QPointF(self.column_x(index + 1), y))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(NOW_COLOR)
        painter.drawEllipse(QPointF(self.column_x(index), y), 4, 4)

    def _paint_drag(self, painter: QPainter, palette: QPalette, font: QFont) -> None:
        drag = self.drag
        if drag is None or not drag.moved:
            return
        if drag.event is None:
            color = palette.color(QPalette.ColorRole.Highlight)
            painter.save()
            painter.setOpacity(0.35)
            for segment in day_segments(drag.start, drag.end, self.view.first_day, self.view.days):
                rect = QRectF(
                    self.column_x(segment.day_index) + 1,
                    self.y_of(segment.start_minute),
                    self.column_width() - 4,
                    self.y_of(segment.end_minute - segment.start_minute),
                )
                painter.fillRect(rect, color)
            painter.restore()
            painter.setPen(palette.color(QPalette.ColorRole.Text))
            first = day_segments(drag.start, drag.end, self.view.first_day, self.view.days)
            if first:
                segment = first[0]
                painter.drawText(
                    QRectF(
                        self.column_x(segment.day_index) + 5, self.y_of(segment.start_minute) + 1, self.column_width() - 8, 16
                    ),
                    Qt.AlignmentFlag.AlignLeft,
                    time_text(drag.start, drag.end),
                )
            return
        preview = ViewEvent(drag.event.occ, drag.start, drag.end)
        for segment in day_segments(drag.start, drag.end, self.view.first_day, self.view.days):
            item = GridItem(
                preview,
                segment.day_index,
                segment.start_minute,
                segment.end_minute,
                0,
                1,
                1,
                segment.starts_here,
                segment.ends_here,
            )
            paint_block(
                painter, self.item_rect(item), preview, palette, font, selected=True, time_text=time_text(drag.start, drag.end)
            )

    # ---- mouse ---------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self.view.setFocus(Qt.FocusReason.MouseFocusReason)
        pos = event.position()
        at = self.time_at(pos)
        item = self.item_at(pos)
        if item is None:
            self.view.select(None)
            minute = (at.hour * 60 + at.minute) // SNAP_MINUTES * SNAP_MINUTES
            start = datetime.combine(at.date(), time(0)) + timedelta(minutes=minute)
            self.drag = _Drag("create", None, pos, start, start, start + timedelta(minutes=SNAP_MINUTES))
            return
        self.view.select(item.event.key)
        rect = self.item_rect(item)
        kind = "move"
        if item.ends_here and pos.y() >= rect.bottom() - EDGE and rect.height() > 3 * EDGE:
            kind = "resize-end"
        elif item.starts_here and pos.y() <= rect.top() + EDGE and rect.height() > 3 * EDGE:
            kind = "resize-start"
        self.drag = _Drag(kind, item.event, pos, at, item.event.start, item.event.end)

    def requests(self) -> WeekView:
        return self.view

    def event_at(self, pos: QPointF) -> ViewEvent | None:
        item = self.item_at(pos)
        return item.event if item is not None else None

    def hover(self, pos: QPointF) -> None:
        item = self.item_at(pos)
        shape = Qt.CursorShape.ArrowCursor
        if item is not None:
            rect = self.item_rect(item)
            near_edge = (item.ends_here and pos.y() >= rect.bottom() - EDGE) or (
                item.starts_here and pos.y() <= rect.top() + EDGE
            )
            resizing = near_edge and rect.height() > 3 * EDGE
            shape = Qt.CursorShape.SizeVerCursor if resizing else Qt.CursorShape.PointingHandCursor
        self.setCursor(shape)

    def drag_to(self, drag: _Drag, pos: QPointF) -> None:
        at = self.time_at(pos)
        step = timedelta(minutes=SNAP_MINUTES)
        if drag.kind == "create":
            cursor = _snap_datetime(at)
            if cursor >= drag.press_time + step:
                drag.start, drag.end = drag.press_time, cursor
            else:
                drag.start, drag.end = min(cursor, drag.press_time), drag.press_time + step
        elif drag.event is not None:
            original = drag.event
            if drag.kind == "move":
                start = _snap_datetime(original.start + (at - drag.press_time))
                drag.start, drag.end = start, start + (original.end - original.start)
            elif drag.kind == "resize-end":
                drag.start, drag.end = original.start, max(_snap_datetime(at), original.start + step)
            else:
                drag.start, drag.end = min(_snap_datetime(at), original.end - step), original.end

    def drag_span(self, drag: _Drag) -> Span | None:
        return drag.start, drag.end

    def create_span_at(self, pos: QPointF) -> Span | None:
        at = self.time_at(pos)
        start = datetime.combine(at.date(), time(at.hour))
        return start, start + timedelta(hours=1)


def _snap_datetime(value: datetime) -> datetime:
    midnight = datetime.combine(value.date(), time(0))
    return midnight + timedelta(minutes=snap((value - midnight).total_seconds() / 60))


class WeekView(CalendarView):
    def __init__(self, days: int = 7, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.days = days
        self.name = "week" if days == 7 else "day"
        self.first_day = self.anchor
        self.grid_items: list[GridItem] = []
        self.work_minutes = (9 * 60, 18 * 60)
        self.work_days: tuple[int, ...] = (1, 2, 3, 4, 5)
        self._scrolled_for: date | None = None
        self._opening = False  # a new range waits for its opening scroll (scroll_open)
        self.grid = TimeGrid(self)
        self.header = WeekHeader(self.grid, self)  # its columns are the grid's
        self.header.day_opened.connect(self.day_opened)
        self.header.select_requested.connect(self.select)
        self.header.create_requested.connect(self.create_requested)
        self.header.move_requested.connect(self.move_requested)
        self.header.event_activated.connect(self.event_activated)
        self.header.context_requested.connect(self.open_context_menu)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setWidget(self.grid)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        for child in (self.header, self.grid, self.scroll_area):
            child.setFocusProxy(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        layout.addWidget(self.scroll_area, 1)

    def set_anchor(self, day: date) -> None:
        super().set_anchor(day)
        self.first_day = self.date_range()[0]

    def date_range(self) -> tuple[date, date]:
        first = week_first_day(self.anchor, self.week_start) if self.days == 7 else self.anchor
        return first, first + timedelta(days=self.days)

    def step_anchor(self, delta: int) -> date:
        return self.anchor + timedelta(days=self.days * delta)

    def past_day_edge(self, step: int) -> None:
        # ↑/↓ with no further event in the day scroll the time grid by an hour.
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(bar.value() + step * HOUR_HEIGHT)

    def selected_day_index(self) -> int | None:
        """The column of the keyboard-selected day (the anchor), in a week view; None in a
        day view, whose one column needs no marking."""
        index = (self.anchor - self.first_day).days
        return index if self.days > 1 and 0 <= index < self.days else None

    def is_working_day(self, day: date) -> bool:
        mark = self.marks.get(day)
        if mark is not None and (mark.off or mark.workday):
            return mark.workday
        return day.isoweekday() in self.work_days

    def relayout(self) -> None:
        self.first_day = self.date_range()[0]
        timed = [event for event in self.events if not event.is_bar]
        segments = []
        for event in timed:
            for segment in day_segments(event.start, event.end, self.first_day, self.days):
                segments.append((event, segment))
        items: list[GridItem] = []
        for index in range(self.days):
            today = [(event, segment) for event, segment in segments if segment.day_index == index]
            placements = place_columns([(s.start_minute, s.end_minute) for _, s in today], MIN_BLOCK_MINUTES)
            for (event, segment), placement in zip(today, placements, strict=True):
                items.append(
                    GridItem(
                        event,
                        index,
                        segment.start_minute,
                        segment.end_minute,
                        placement.column,
                        placement.columns,
                        placement.span,
                        segment.starts_here,
                        segment.ends_here,
                    )
                )
        self.grid_items = items
        self._set_header_state()
        self.header.relayout([event for event in self.events if event.is_bar])
        if self.first_day != self._scrolled_for:
            self._scrolled_for = self.first_day
            self._opening = True
            self.scroll_open()
        self.repaint_all()

    def visible_items(self) -> list[GridItem | object]:
        grid = [replace(item, rect=self.grid.item_rect(item)) for item in self.grid_items]
        return [*self.header.visible_items(), *grid]

    def repaint_all(self) -> None:
        self._set_header_state()  # the clock, the selection or the anchor may have moved
        self.grid.update()

    def _set_header_state(self) -> None:
        self.header.set_state(
            HeaderState(
                self.first_day,
                self.days,
                self.marks,
                self.lunar,
                self.now.date(),
                self.selected_day_index(),
                self.selected_key,
                self.qlocale,
            )
        )

    def opening_minute(self, shown: float) -> float:
        """Where a new range opens (the minute at the top), for a viewport ``shown`` minutes tall.

        The working day's start, or earlier when something starts earlier (the after-midnight
        tail of last night's event does not count), half an hour above it. That view is kept
        when it shows what matters: in a range holding today the current-time line, in any
        other range its first event. Otherwise the now-line goes a third of the way down, or
        the first event half an hour below the top (at 02:31 the working-day view showed
        neither the line nor an 18:00 event: issue 23).
        """
        starts = [item for item in self.grid_items if item.starts_here]
        top = min([item.start_minute for item in starts] + [self.work_minutes[0]]) - 30
        today = (self.now.date() - self.first_day).days
        if 0 <= today < self.days:
            now = self.now.hour * 60 + self.now.minute
            return top if top <= now <= top + shown - 15 else now - shown / 3
        if not starts:
            return top
        first = min(starts, key=lambda item: (item.day_index, item.start_minute))
        length = min(max(first.end_minute - first.start_minute, MIN_BLOCK_MINUTES), shown - 30)
        return top if top <= first.start_minute and first.start_minute + length <= top + shown else first.start_minute - 30

    def scroll_open(self) -> None:
        """Scroll a new range to ``opening_minute`` once the viewport has its height (after
        this event-loop turn, or when the view is first shown)."""
        bar = self.scroll_area.verticalScrollBar()

        def apply() -> None:
            if not self._opening or not self.isVisible():
                return  # done, or not shown yet: showEvent comes back here
            self._opening = False
            shown = self.scroll_area.viewport().height() * 60 / HOUR_HEIGHT
            bar.setValue(int(self.grid.y_of(max(self.opening_minute(shown), 0))))
            self.selection_moved()  # an event chosen meanwhile (search, the keys) stays in view

        # Owned by the scroll bar: a view closed before the next tick drops the call instead of
        # raising "Internal C++ object already deleted" from a timer with no owner.
        QTimer.singleShot(0, bar, apply)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._opening:
            self.scroll_open()

    def selection_moved(self) -> None:
        event = self.selected_event()
        if event is None or event.is_bar:
            return
        minute = event.start.hour * 60 + event.start.minute if event.start.date() >= self.first_day else 0
        bar = self.scroll_area.verticalScrollBar()
        top, height = bar.value(), self.scroll_area.viewport().height()
        y = self.grid.y_of(minute)
        if not top <= y <= top + height - HOUR_HEIGHT:
            bar.setValue(int(max(y - HOUR_HEIGHT, 0)))
