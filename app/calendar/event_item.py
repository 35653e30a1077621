"""Painting one event: the block in a time grid, the bar in a day row, the line in a cell.

Colours come from two places only: the calendar's own colour, and the widget's palette
for everything else. A block is the calendar colour blended into the palette's base, with
the palette's text on top, which stays readable in light and dark themes alike; only a
selected block is filled with the full colour, and then its text is black or white by
contrast, never assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen, QStaticText, QTransform

from app.calendar.event_source import ViewEvent

NOW_COLOR = QColor("#e5484d")  # the current-time line; reads on light and dark bases
HOLIDAY_COLOR = QColor("#d93f3f")
WORKDAY_COLOR = QColor("#8a6d00")
RADIUS = 3.0


def blend(color: QColor, base: QColor, amount: float) -> QColor:
    """``amount`` of ``color`` over ``base`` (opaque result, so text contrast is stable)."""
    return QColor(
        round(color.red() * amount + base.red() * (1 - amount)),
        round(color.green() * amount + base.green() * (1 - amount)),
        round(color.blue() * amount + base.blue() * (1 - amount)),
    )


def luminance(color: QColor) -> float:
    """Relative luminance (WCAG 2), 0 for black to 1 for white."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.red()) + 0.7152 * channel(color.green()) + 0.0722 * channel(color.blue())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def contrast_text(fill: QColor) -> QColor:
    """Black or white, whichever reads better on ``fill`` (relative luminance)."""
    return QColor("#000000") if luminance(fill) > 0.4 else QColor("#ffffff")


GRID_CONTRAST = 1.5  # the least contrast of a grid line against the base and the off-hours shade


def grid_pen(palette: QPalette) -> QPen:
    """A one-device-pixel pen in ``grid_line_color``: a 0.6-px pen was drawn at 60 % coverage,
    so the colour on screen was not the one chosen (and another on a HiDPI screen)."""
    return QPen(grid_line_color(palette), 0)  # width 0: cosmetic, one pixel at any scale


def grid_line_color(palette: QPalette) -> QColor:
    """The hour and day lines of the time grid and the month's cell lines.

    The palette's ``Mid`` was used, which light themes make a quiet grey but dark ones do
    not promise to: GTK's Adwaita-dark gives Mid #383838 on a #323232 base, a contrast of
    1.08, and the lines vanished (issue 23). Now the palette's text blended into its base,
    just far enough to reach ``GRID_CONTRAST`` against both the base and the off-hours shade
    (``AlternateBase``): on white #c6c6c6 (the old line showed as #d4d4d4), visible on any dark base."""
    role = QPalette.ColorRole
    colors = (palette.color(role.Base), palette.color(role.AlternateBase), palette.color(role.Text))
    return QColor.fromRgb(_grid_line(*(color.rgb() for color in colors)))


@lru_cache(maxsize=16)
def _grid_line(base_rgb: int, shade_rgb: int, text_rgb: int) -> int:
    base, shade, text = QColor.fromRgb(base_rgb), QColor.fromRgb(shade_rgb), QColor.fromRgb(text_rgb)
    for step in range(1, 41):
        line = blend(text, base, step / 40)
        if min(contrast_ratio(line, base), contrast_ratio(line, shade)) >= GRID_CONTRAST:
            return line.rgb()
    return text_rgb


@lru_cache(maxsize=64)
def _metrics(key: str) -> QFontMetrics:
    """Font metrics by QFont.toString(): building them is a large share of painting a busy week."""
    font = QFont()
    font.fromString(key)
    return QFontMetrics(font)


def metrics_for(font: QFont) -> QFontMetrics:
    return _metrics(font.toString())


def line_height(font: QFont) -> int:
    """A text line's height that also fits CJK glyphs.

    A Latin primary font reports a smaller height than the CJK fallback font actually
    draws, and ``drawText`` clips to its rectangle, so mixed titles would lose their
    bottoms; the tallest of the two is what a line needs.
    """
    return _line_height(font.toString())


@lru_cache(maxsize=64)
def _line_height(key: str) -> int:
    metrics = _metrics(key)
    return max(metrics.height(), metrics.boundingRect("日程Ág").height()) + 1


@lru_cache(maxsize=64)
def _title_font(key: str, completed: bool) -> tuple[QFont, str]:
    """The bold (struck-out when completed) title font for a base font, made once."""
    font = QFont()
    font.fromString(key)
    font.setBold(True)
    font.setStrikeOut(completed)
    return font, font.toString()


@lru_cache(maxsize=8192)
def _elided(text: str, key: str, width: int) -> str:
    return _metrics(key).elidedText(text, Qt.TextElideMode.ElideRight, width)


@lru_cache(maxsize=8192)
def _wrapped(text: str, key: str, width: int, max_lines: int) -> tuple[str, ...]:
    """Text layout is the same every paint for the same title, font and width: measure once."""
    return tuple(_wrap(text, _metrics(key), width, max_lines))


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def event_colors(event: ViewEvent, palette: QPalette, selected: bool) -> tuple[QColor, QColor, QColor]:
    """(fill, accent, text) for an event."""
    accent = QColor(event.occ.color or "#3b82f6")
    base = palette.color(QPalette.ColorRole.Base)
    if selected:
        return accent, accent.darker(130), contrast_text(accent)
    amount = 0.35 if is_dark(palette) else 0.22
    if event.occ.transp == "TRANSPARENT" or event.occ.status == "TENTATIVE":  # free, or an unanswered invitation
        amount /= 2
    text = palette.color(QPalette.ColorRole.Text)
    if event.occ.completed:
        text = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    return blend(accent, base, amount), accent, text


def selected_day_tint(palette: QPalette) -> QColor:
    """A see-through wash of the highlight colour for the keyboard-selected day; it shows
    over working and off hours alike, in light and dark palettes."""
    color = QColor(palette.color(QPalette.ColorRole.Highlight))
    color.setAlpha(70 if is_dark(palette) else 40)
    return color


def paint_ring(painter: QPainter, rect: QRectF, palette: QPalette) -> None:
    """The selected event's ring: 2 px on its edge in the palette's text colour, which stands
    out from the base around it and from the full-colour fill inside it, in light and dark
    palettes, whatever the calendar's colour (even the palette's own highlight). On the edge,
    not further in, so it never crosses the title of a 15-minute block, and not outside, so it
    never covers a neighbour."""
    painter.save()
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Text), 2.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), RADIUS, RADIUS)
    painter.restore()


def muted(palette: QPalette) -> QColor:
    """Secondary text (times, lunar labels, locations)."""
    return palette.color(QPalette.ColorRole.PlaceholderText)


def paint_block(
    painter: QPainter,
    rect: QRectF,
    event: ViewEvent,
    palette: QPalette,
    font: QFont,
    *,
    selected: bool = False,
    time_text: str = "",
    ghost: bool = False,
) -> None:
    """A timed event in the day/week grid: stripe, title, then time and place if room."""
    fill, accent, text = event_colors(event, palette, selected)
    painter.save()
    if ghost:
        painter.setOpacity(0.6)
    dashed = event.occ.transp == "TRANSPARENT" or event.occ.status == "TENTATIVE"
    painter.setPen(QPen(accent, 1.0, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine))
    painter.setBrush(fill)
    painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), RADIUS, RADIUS)
    painter.fillRect(QRectF(rect.left() + 0.5, rect.top() + 1, 3, max(rect.height() - 2, 1)), accent)
    inner = rect.adjusted(6, 1, -3, -1)
    title_font, title_key = _title_font(font.toString(), event.occ.completed)
    line = _line_height(title_key)
    painter.setPen(text)
    painter.setFont(title_font)
    if inner.height() < line * 1.8 and time_text:
        # Short block: "Title  09:00–09:15" on one line; the title is what people scan for.
        combined = f"{event.occ.title}  {time_text}"
        painter.drawText(
            inner, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, _elided(combined, title_key, int(inner.width()))
        )
        if selected:
            paint_ring(painter, rect, palette)
        painter.restore()
        return
    # Wrap the title over the lines the block has room for (CJK titles wrap anywhere).
    room = max(1, int((inner.height() - (line if time_text else 0)) // line))
    lines = _wrapped(event.occ.title, title_key, int(inner.width()), room)
    y = inner.top()
    for part in lines:
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        painter.drawText(QRectF(inner.left(), y, inner.width(), line), flags, part)
        y += line
    painter.setFont(font)
    small_key = font.toString()
    small_line = _line_height(small_key)
    if not selected:
        painter.setPen(muted(palette))
    details = [value for value in (time_text, event.occ.location) if value]
    for value in details:
        if y + small_line > inner.bottom() + 2:
            break
        painter.drawText(
            QRectF(inner.left(), y, inner.width(), small_line),
            Qt.AlignmentFlag.AlignLeft,
            _elided(value, small_key, int(inner.width())),
        )
        y += small_line
    if selected:
        paint_ring(painter, rect, palette)
    painter.restore()


def _wrap(text: str, metrics: QFontMetrics, width: int, max_lines: int) -> list[str]:
    """Wrap for narrow blocks: Chinese breaks between any characters, Latin words only at
    spaces (a word that does not fit is elided rather than split mid-word); the last line
    is elided."""
    if width <= 0:
        return []
    lines: list[str] = []
    rest = text
    while rest and len(lines) < max_lines - 1 and metrics.horizontalAdvance(rest) > width:
        cut = len(rest)
        while cut > 1 and metrics.horizontalAdvance(rest[:cut]) > width:
            cut -= 1
        if rest[cut - 1].isascii() and rest[cut].isascii() and rest[cut - 1].isalnum() and rest[cut].isalnum():
            space = rest.rfind(" ", 0, cut)
            if space <= 0:
                break  # one long Latin word: elide it below instead of splitting it
            cut = space + 1
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        lines.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width))
    return lines


def paint_bar(
    painter: QPainter,
    rect: QRectF,
    event: ViewEvent,
    palette: QPalette,
    font: QFont,
    *,
    selected: bool = False,
    prefix: str = "",
    ghost: bool = False,
) -> None:
    """An all-day or multi-day event: a rounded bar with its elided title."""
    fill, accent, text = event_colors(event, palette, selected)
    painter.save()
    if ghost:
        painter.setOpacity(0.6)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(fill)
    painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), RADIUS, RADIUS)
    painter.fillRect(QRectF(rect.left() + 1, rect.top() + 1, 3, rect.height() - 2), accent)
    label_font = QFont(font)
    label_font.setStrikeOut(event.occ.completed)
    painter.setFont(label_font)
    painter.setPen(text)
    inner = rect.adjusted(7, 0, -3, 0)
    label = f"{prefix} {event.occ.title}" if prefix else event.occ.title
    painter.drawText(
        inner,
        Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
        QFontMetrics(label_font).elidedText(label, Qt.TextElideMode.ElideRight, int(inner.width())),
    )
    if selected:
        paint_ring(painter, rect, palette)
    painter.restore()


class TextCache:
    """Elided, pre-shaped text (``QStaticText``) by (text, font, width).

    Shaping mixed Chinese/Latin text is the most expensive part of painting a busy month
    (tens of microseconds per string with font fallback); the same titles are painted
    again on every update, so they are shaped once and reused until the cache fills.
    """

    LIMIT = 6000

    def __init__(self) -> None:
        self._items: dict[tuple[str, str, int], QStaticText] = {}

    def get(self, text: str, font: QFont, width: int = 100_000, font_key: str | None = None) -> QStaticText:
        key = (text, font_key or font.toString(), width)
        found = self._items.get(key)
        if found is None:
            if len(self._items) >= self.LIMIT:
                self._items.clear()
            shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width) if width < 100_000 else text
            found = QStaticText(shown)
            found.setTextFormat(Qt.TextFormat.PlainText)
            found.prepare(QTransform(), font)
            self._items[key] = found
        return found


@dataclass
class LineStyle:
    """What every line item of one paint shares, looked up once per paint, not per item."""

    palette: QPalette
    font: QFont
    strike_font: QFont
    text: QColor
    muted: QColor
    disabled: QColor
    line: int
    cache: TextCache
    font_key: str
    strike_key: str
    colors: dict[str, QColor]

    def color(self, name: str) -> QColor:
        found = self.colors.get(name)
        if found is None:
            found = self.colors[name] = QColor(name or "#3b82f6")
        return found


def line_style(palette: QPalette, font: QFont, cache: TextCache) -> LineStyle:
    strike = QFont(font)
    strike.setStrikeOut(True)
    return LineStyle(
        palette,
        font,
        strike,
        palette.color(QPalette.ColorRole.Text),
        muted(palette),
        palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text),
        line_height(font),
        cache,
        font.toString(),
        strike.key(),
        {},
    )


NO_PEN = Qt.PenStyle.NoPen


def paint_line_item(painter: QPainter, rect: QRectF, event: ViewEvent, style: LineStyle, time_text: str, selected: bool) -> None:
    """A timed event inside a month cell: colour dot, time, title (hot path: kept lean)."""
    occ = event.occ
    left, top, right, height = rect.left(), rect.top(), rect.right(), rect.height()
    text = style.disabled if occ.completed else style.text
    dot = style.color(occ.color)
    if selected:
        fill, _, text = event_colors(event, style.palette, True)
        painter.setPen(NO_PEN)
        painter.setBrush(fill)
        painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), RADIUS, RADIUS)
        dot = contrast_text(fill)
    painter.setPen(NO_PEN)
    painter.setBrush(dot)
    painter.drawEllipse(QPointF(left + 6, top + height / 2), 3, 3)
    y = top + (height - style.line) / 2 + 1
    x = left + 12
    painter.setFont(style.font)
    if time_text:
        painter.setPen(text if selected else style.muted)
        label = style.cache.get(time_text, style.font, font_key=style.font_key)
        painter.drawStaticText(QPointF(x, y), label)
        x += label.size().width() + 4
    width = int(right - x - 2)
    if width > 4:
        if occ.completed:
            painter.setFont(style.strike_font)
        painter.setPen(text)
        font, key = (style.strike_font, style.strike_key) if occ.completed else (style.font, style.font_key)
        painter.drawStaticText(QPointF(x, y), style.cache.get(occ.title, font, width, key))
    if selected:
        paint_ring(painter, rect, style.palette)
