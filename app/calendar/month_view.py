"""Month view: six weeks of day cells, painted in one widget.

Each cell has a number of line slots (from its height). Day bars (all-day and multi-day
events) are packed per week row with ``layout.pack_rows`` and keep their row across the
days they cover; timed events fill the free slots in start order; what does not fit
becomes "+N more", which opens the day. The per-day sorting runs when data changes, the
slot assignment when the size changes, and ``paintEvent`` only draws the result, which is
how 2,000 events in a month paint in a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QFont,
    QFontMetrics,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import QToolTip, QWidget

from agent.timesym.holiday_forms import fitting_form, holiday_forms
from app.calendar.event_item import (
    HOLIDAY_COLOR,
    WORKDAY_COLOR,
    LineStyle,
    TextCache,
    blend,
    grid_pen,
    line_style,
    metrics_for,
    paint_bar,
    paint_line_item,
)
from app.calendar.event_source import ViewEvent
from app.calendar.holidays import DayMark
from app.calendar.layout import bar_span, clamp, pack_rows
from app.calendar.view_base import CalendarView, EventSurface, Span, week_first_day
from app.i18n import format_day

WEEKS = 6
HEAD = 24
DAY_LINE = 22
LINE_HEIGHT = 19
TITLE_KEEP = "周会例会"  # a line shows its start time only when this much title still fits after it
LINE_DOT = 12  # a month line's colour dot and its gap (event_item.paint_line_item)


@dataclass(frozen=True)
class MonthItem:
    """Something drawn in a cell: an event bar or line, or a "+N more"."""

    kind: str  # "bar", "timed" or "more"
    event: ViewEvent | None
    day: date  # first day drawn
    week: int
    first: int  # first column
    end: int  # exclusive column
    slot: int
    count: int = 0  # for "more"
    rect: QRectF = field(default_factory=QRectF)


@dataclass(frozen=True)
class MonthCell:
    day: date
    in_month: bool
    mark: DayMark | None
    lunar: str


@dataclass
class _Drag:
    event: ViewEvent | None
    press: QPointF
    press_day: date
    day: date
    moved: bool = False


class MonthView(EventSurface[_Drag], CalendarView):
    name = "month"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.first_day = self.anchor
        self.items: list[MonthItem] = []
        self._bars: list[list[tuple[ViewEvent, int, int, int]]] = [[] for _ in range(WEEKS)]
        self._timed: dict[date, list[ViewEvent]] = {}
        self.drag: _Drag | None = None
        self.show_lunar = False
        self.week_numbers = False  # ISO week numbers on each row's first day (Settings, issue 32)
        self.drawn_weeks: list[str] = []  # the week labels the last paint drew (tests)
        self.drawn_labels: dict[date, str] = {}  # the word beside each day's number, as last drawn
        self.texts = TextCache()
        self._rects: list[QRectF] = []
        self._bold_font = QFont(self.font())
        self._bold_font.setBold(True)

    def sizeHint(self) -> QSize:
        return QSize(900, 700)

    # ---- range ---------------------------------------------------------------------------

    def date_range(self) -> tuple[date, date]:
        first = week_first_day(self.anchor.replace(day=1), self.week_start)
        return first, first + timedelta(days=7 * WEEKS)

    def step_anchor(self, delta: int) -> date:
        month = self.anchor.month - 1 + delta
        year = self.anchor.year + month // 12
        month = month % 12 + 1
        last = (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)).day
        return date(year, month, min(self.anchor.day, last))

    # ---- layout --------------------------------------------------------------------------

    def relayout(self) -> None:
        """Sort events into week rows (bars) and days (timed); sizes come later."""
        self.first_day, end = self.date_range()
        self._bars = [[] for _ in range(WEEKS)]
        self._timed = {}
        bar_events: list[ViewEvent] = []
        for event in self.events:
            if event.is_bar or event.end_day - event.first_day > timedelta(days=1):
                bar_events.append(event)
            elif self.first_day <= event.first_day < end:
                self._timed.setdefault(event.first_day, []).append(event)
        for week in range(WEEKS):
            week_first = self.first_day + timedelta(days=7 * week)
            spans = []
            for event in bar_events:
                span = bar_span(event.first_day, event.end_day, week_first, 7)
                if span is not None:
                    spans.append((event, span))
            rows = pack_rows([span for _, span in spans])
            self._bars[week] = [(event, span[0], span[1], row) for (event, span), row in zip(spans, rows, strict=True)]
        self._place()
        self.update()

    def cell_size(self) -> tuple[float, float]:
        return max(self.width() / 7, 1.0), max((self.height() - HEAD) / WEEKS, 1.0)

    def item_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(font.pointSizeF() * 0.9, 7))
        return font

    def time_shown(self) -> bool:
        """A timed line says its start time only when four characters of its title still fit
        after it: with the chat open at 960 px a cell is ~80 px, and "15:00" left the title one
        or two characters (issue 32); the time is in the event's card and tooltip. Measured as
        the line is painted (``paint_line_item``'s margins, the ellipsis of a cut title, whole
        pixels as the elision counts them): margins of its own let "和张…" through at 94 px."""
        metrics = QFontMetrics(self.item_font())
        room = self._line_text_room() - (metrics.horizontalAdvance("00:00") + 4)
        return room >= metrics.horizontalAdvance(TITLE_KEEP + "…")

    def _line_text_room(self) -> float:
        """A timed line's width for its time and title: the item's rectangle (the cell less
        2 px each side) less the colour dot (12 px) and the title's 2 px at the right."""
        return int(self.cell_size()[0]) - 4 - LINE_DOT - 2

    def title_room(self) -> float:
        """The width a timed line's title gets (after the dot, and the time when shown)."""
        metrics = QFontMetrics(self.item_font())
        taken = metrics.horizontalAdvance("00:00") + 4 if self.time_shown() else 0.0
        return self._line_text_room() - taken

    def slots(self) -> int:
        return max(int((self.cell_size()[1] - DAY_LINE - 2) // LINE_HEIGHT), 0)

    def _place(self) -> None:
        """Assign slots for the current cell height (see module docstring for the rules)."""
        slots = self.slots()
        items: list[MonthItem] = []
        for week in range(WEEKS):
            week_first = self.first_day + timedelta(days=7 * week)
            bars = self._bars[week]
            covering: list[list[tuple[ViewEvent, int, int, int]]] = [[] for _ in range(7)]
            for bar in bars:
                for column in range(bar[1], bar[2]):
                    covering[column].append(bar)
            timed = [self._timed.get(week_first + timedelta(days=column), []) for column in range(7)]
            overflow = [len(covering[c]) + len(timed[c]) > slots or any(bar[3] >= slots for bar in covering[c]) for c in range(7)]
            shown = {
                id(bar) for bar in bars if bar[3] < slots - 1 or (bar[3] == slots - 1 and not any(overflow[bar[1] : bar[2]]))
            }
            for bar in bars:
                if id(bar) in shown:
                    event, first, end, row = bar
                    items.append(MonthItem("bar", event, week_first + timedelta(days=first), week, first, end, row))
            for column in range(7):
                day = week_first + timedelta(days=column)
                hidden_bars = [bar for bar in covering[column] if id(bar) not in shown]
                limit = slots - 1 if (overflow[column] or hidden_bars) else slots
                used = {bar[3] for bar in covering[column] if id(bar) in shown}
                free = [slot for slot in range(max(limit, 0)) if slot not in used]
                for event, slot in zip(timed[column], free, strict=False):
                    items.append(MonthItem("timed", event, day, week, column, column + 1, slot))
                hidden = len(hidden_bars) + max(len(timed[column]) - len(free), 0)
                if hidden and slots >= 1:
                    items.append(MonthItem("more", None, day, week, column, column + 1, slots - 1, hidden))
        self.items = items
        self._rects = [self.item_rect(item) for item in items]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place()

    # ---- geometry ------------------------------------------------------------------------

    def item_rect(self, item: MonthItem) -> QRectF:
        width, height = self.cell_size()
        top = HEAD + item.week * height + DAY_LINE + item.slot * LINE_HEIGHT
        return QRectF(item.first * width + 2, top, (item.end - item.first) * width - 4, LINE_HEIGHT - 1)

    def day_at(self, pos: QPointF) -> date:
        width, height = self.cell_size()
        column = clamp(int(pos.x() // width), 0, 6)
        week = clamp(int((pos.y() - HEAD) // height), 0, WEEKS - 1)
        return self.first_day + timedelta(days=7 * week + column)

    def item_at(self, pos: QPointF) -> MonthItem | None:
        for item, rect in zip(self.items, self._rects, strict=True):
            if rect.contains(pos):
                return item
        return None

    def visible_items(self) -> list[MonthItem | MonthCell]:
        cells: list[MonthItem | MonthCell] = []
        for index in range(7 * WEEKS):
            day = self.first_day + timedelta(days=index)
            cells.append(MonthCell(day, day.month == self.anchor.month, self.marks.get(day), self.lunar.get(day, "")))
        return [*cells, *(replace(item, rect=rect) for item, rect in zip(self.items, self._rects, strict=True))]

    # ---- keyboard selection ----------------------------------------------------------------

    def day_order(self, day: date) -> list[ViewEvent]:
        """The cell's events as drawn, top to bottom (one behind "+N more" is not reached:
        D opens the day with everything)."""
        index = (day - self.first_day).days
        if not 0 <= index < 7 * WEEKS:
            return []
        week, column = divmod(index, 7)
        drawn = [item for item in self.items if item.event is not None and item.week == week and item.first <= column < item.end]
        return [item.event for item in sorted(drawn, key=lambda item: item.slot) if item.event is not None]

    def keyboard_days(self) -> tuple[date, date]:
        first = self.anchor.replace(day=1)
        return first, self.step_anchor(1).replace(day=1)

    def past_day_edge(self, step: int) -> None:
        # Past a cell's first/last event, ↑/↓ go on into the cell above/below.
        self.move_day(7 * step, last=step < 0)

    # ---- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        clip = QRectF(event.rect())
        base = palette.color(QPalette.ColorRole.Base)
        painter.fillRect(self.rect(), base)
        width, height = self.cell_size()
        small = QFont(self.font())
        small.setPointSizeF(max(small.pointSizeF() * 0.85, 7))
        item_font = self.item_font()
        with_time = self.time_shown()
        small_style = line_style(palette, small, self.texts)
        painter.fillRect(QRectF(0, 0, self.width(), HEAD), palette.color(QPalette.ColorRole.Window))
        painter.setFont(small)
        painter.setPen(small_style.muted)
        for column in range(7):
            weekday = (self.week_start - 1 + column) % 7 + 1
            label = self.texts.get(self.qlocale.dayName(weekday, self.qlocale.FormatType.ShortFormat), small)
            painter.drawStaticText(QPointF(column * width + 6, (HEAD - small_style.line) / 2 + 1), label)
        today = self.now.date()
        self.drawn_weeks = []
        outside = palette.color(QPalette.ColorRole.AlternateBase)
        selected_day = blend(palette.color(QPalette.ColorRole.Highlight), base, 0.10)
        for index in range(7 * WEEKS):
            day = self.first_day + timedelta(days=index)
            rect = QRectF((index % 7) * width, HEAD + (index // 7) * height, width, height)
            if not rect.intersects(clip):
                continue
            if day.month != self.anchor.month:
                painter.fillRect(rect, outside)
            if day == self.anchor:
                painter.fillRect(rect, selected_day)
            self._paint_day_line(painter, rect, day, small_style, day == today)
            if self.week_numbers and index % 7 == 0:
                self._paint_week_number(painter, rect, day, small_style)
        painter.setPen(grid_pen(palette))
        for column in range(1, 7):
            painter.drawLine(QPointF(column * width, HEAD), QPointF(column * width, self.height()))
        for week in range(WEEKS + 1):
            y = HEAD + week * height
            painter.drawLine(QPointF(0, y), QPointF(self.width(), y))
        dragging = self.dragging_key()
        style = line_style(palette, item_font, self.texts)
        for item, rect in zip(self.items, self._rects, strict=True):
            if not rect.intersects(clip):
                continue
            if item.kind == "more":
                painter.setFont(small)
                painter.setPen(small_style.muted)
                painter.drawStaticText(
                    QPointF(rect.left() + 6, rect.top() + (rect.height() - small_style.line) / 2 + 1),
                    self.texts.get(self.tr("+{0} more").format(item.count), small),
                )
                continue
            assert item.event is not None
            selected = item.event.key == self.selected_key and dragging is None
            ghost = item.event.key == dragging
            if item.kind == "bar":
                prefix = "" if item.event.all_day or item.day != item.event.first_day else f"{item.event.start:%H:%M}"
                paint_bar(painter, rect, item.event, palette, item_font, selected=selected, prefix=prefix, ghost=ghost)
                continue
            if ghost:
                painter.setOpacity(0.5)
            paint_line_item(painter, rect, item.event, style, f"{item.event.start:%H:%M}" if with_time else "", selected)
            if ghost:
                painter.setOpacity(1.0)
        self._paint_drag(painter, palette)
        painter.end()

    def _paint_day_line(self, painter: QPainter, rect: QRectF, day: date, style: LineStyle, is_today: bool) -> None:
        palette = style.palette
        small = style.font
        mark = self.marks.get(day)
        font = self._bold_font if is_today else self.font()
        badge = None
        badge_room = 0.0
        if mark is not None and (mark.off or mark.workday):
            badge = self.texts.get(self.tr("off") if mark.off else self.tr("work"), small)
            badge_room = badge.size().width() + 9
        # Holiday name wins the remaining room; the lunar day (zh only) is grey and smaller.
        holiday = mark.name if mark is not None and mark.name else ""
        label = self.texts.get(self._day_number(day, holiday, font, small, rect.width() - 20 - badge_room), font)
        size = label.size()
        number_rect = QRectF(rect.left() + 4, rect.top() + 3, size.width() + 8, DAY_LINE - 4)
        text, keep_badge = self.side_label(day, small, rect.right() - 4 - number_rect.right() - 4, badge_room)
        right = rect.right() - 4 - (badge_room if badge is not None and keep_badge else 0.0)
        self.drawn_labels[day] = text
        painter.setFont(font)
        if is_today:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
            painter.drawRoundedRect(number_rect, number_rect.height() / 2, number_rect.height() / 2)
            painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        elif mark is not None and mark.off:
            painter.setPen(HOLIDAY_COLOR)
        elif day.month != self.anchor.month:
            painter.setPen(style.muted)
        else:
            painter.setPen(style.text)
        painter.drawStaticText(
            QPointF(number_rect.left() + 4, number_rect.top() + (number_rect.height() - size.height()) / 2), label
        )
        painter.setFont(small)
        if badge is not None and mark is not None and keep_badge:
            badge_size = badge.size()
            badge_rect = QRectF(right + 3, rect.top() + 4, badge_size.width() + 6, 15)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(HOLIDAY_COLOR if mark.off else WORKDAY_COLOR)
            painter.drawRoundedRect(badge_rect, 3, 3)
            painter.setPen(Qt.GlobalColor.white)
            painter.drawStaticText(QPointF(badge_rect.left() + 3, badge_rect.top() + (15 - badge_size.height()) / 2), badge)
        if text:
            shown = self.texts.get(text, small)
            painter.setPen(HOLIDAY_COLOR if holiday else style.muted)
            painter.drawStaticText(
                QPointF(right - shown.size().width(), rect.top() + 3 + (DAY_LINE - 4 - shown.size().height()) / 2), shown
            )

    def side_label(self, day: date, small: QFont, room: float, badge_room: float) -> tuple[str, bool]:
        """The word beside a day's number, whole, and whether the badge keeps its place.

        A holiday shows the longest of its forms (``holiday_forms``: "Chinese New Year",
        "Lunar NY", "CNY") that fits beside the badge; where none does, the badge yields to
        one that fits without it (the red number and name still say "day off"); where none
        fits at all, no name: the tooltip has it. The lunar day or term is one short word,
        shown whole or not at all. Never an elided cut: "Chine…" said nothing (issue 32)."""
        mark = self.marks.get(day)
        holiday = mark.name if mark is not None and mark.name else ""
        if holiday:
            forms = holiday_forms(holiday)
        elif self.show_lunar and self.lunar.get(day):
            forms = (self.lunar[day],)
        else:
            return "", True
        measure = metrics_for(small).horizontalAdvance
        beside = fitting_form(forms, room - badge_room, measure)
        if beside or not (holiday and badge_room):
            return beside, True
        alone = fitting_form(forms, room, measure)
        return alone, not alone

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            tip = self.tooltip_at(QPointF(event.pos()))
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_at(self, pos: QPointF) -> str:
        """Over a day's number line: its holiday's whole name (the cell may show a short form)."""
        if pos.y() <= HEAD:
            return ""
        height = self.cell_size()[1]
        if (pos.y() - HEAD) % height > DAY_LINE:
            return ""
        mark = self.marks.get(self.day_at(pos))
        return mark.name if mark is not None else ""

    def week_label(self, day: date) -> str:
        week = day.isocalendar().week
        return f"{week}周" if self.show_lunar else f"W{week}"

    def _paint_week_number(self, painter: QPainter, rect: QRectF, day: date, style: LineStyle) -> None:
        """The row's ISO week, small and grey at the first cell's bottom left, under its lines."""
        label = self.texts.get(self.week_label(day), style.font)
        size = label.size()
        painter.setFont(style.font)
        painter.setPen(style.muted)
        painter.drawStaticText(QPointF(rect.left() + 4, rect.bottom() - size.height() - 2), label)
        self.drawn_weeks.append(self.week_label(day))

    def _day_number(self, day: date, holiday: str, font: QFont, small: QFont, room: float) -> str:
        """The day's number; on the first of a month with the month ("10月 1", "Oct 1"), unless
        a holiday's name would then not fit beside it: the name wins, and the title says the
        month. The Chinese "10月 1" left 国庆节 a few pixels: "国…" (issue 23)."""
        if day.day != 1:
            return str(day.day)
        full = format_day(self.qlocale, day, "MMM d")
        if not holiday:
            return full
        need = self.texts.get(full, font).size().width() + metrics_for(small).horizontalAdvance(holiday) + 1
        return full if need <= room else str(day.day)

    def _paint_drag(self, painter: QPainter, palette: QPalette) -> None:
        drag = self.drag
        if drag is None or not drag.moved:
            return
        width, height = self.cell_size()
        lo, hi = sorted((drag.press_day, drag.day))
        if drag.event is not None:
            shift = drag.day - drag.press_day
            lo, hi = drag.event.first_day + shift, drag.event.end_day + shift - timedelta(days=1)
        painter.save()
        painter.setOpacity(0.3)
        day = max(lo, self.first_day)
        while day <= hi and (day - self.first_day).days < 7 * WEEKS:
            index = (day - self.first_day).days
            painter.fillRect(
                QRectF((index % 7) * width, HEAD + (index // 7) * height, width, height),
                palette.color(QPalette.ColorRole.Highlight),
            )
            day += timedelta(days=1)
        painter.restore()

    # ---- mouse ---------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        pos = event.position()
        day = self.day_at(pos)
        item = self.item_at(pos)
        if item is not None and item.kind == "more":
            self.drag = None
            self.day_opened.emit(item.day)
            return
        if item is not None and item.event is not None:
            self.select(item.event.key)
            self.drag = _Drag(item.event, pos, day, day)
            return
        self.select(None)
        self.drag = _Drag(None, pos, day, day)
        if pos.y() > HEAD and day != self.anchor:
            self.anchor_moved.emit(day)

    def requests(self) -> MonthView:
        return self

    def event_at(self, pos: QPointF) -> ViewEvent | None:
        item = self.item_at(pos)
        return item.event if item is not None else None

    def hover(self, pos: QPointF) -> None:
        self.setCursor(Qt.CursorShape.PointingHandCursor if self.item_at(pos) is not None else Qt.CursorShape.ArrowCursor)

    def drag_to(self, drag: _Drag, pos: QPointF) -> None:
        drag.day = self.day_at(pos)

    def drag_span(self, drag: _Drag) -> Span | None:
        if drag.event is None:
            lo, hi = sorted((drag.press_day, drag.day))
            return (lo, hi + timedelta(days=1)) if hi > lo else None
        shift = drag.day - drag.press_day
        return drag.event.start + shift, drag.event.end + shift

    def create_span_at(self, pos: QPointF) -> Span | None:
        if pos.y() <= HEAD or self.item_at(pos) is not None:
            return None
        day = self.day_at(pos)
        return day, day + timedelta(days=1)
