"""Printed pages of the day, week, month and agenda views (issue 32: File → Print… and
``richeng print``), drawn with a QPainter on any paged device: a QPrinter behind the print
preview, a QPdfWriter for the CLI. Both draw the same ``PrintJob`` with the same ``paint``, so
the preview is the PDF.

Black on white, no fills: a page must read on a black-and-white printer. Text is drawn as
text (``drawText``), so a PDF's titles and times can be selected and found by ``pdftotext``.
Day, week and agenda are lists (a day's heading with its 农历 or 节气 in Chinese, then one
line per event: time, title, place, calendar), which keep every title whole; the month is a
grid whose lines are cut to their cell, "+N more" below the last that fits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from PySide6.QtCore import QCoreApplication, QMarginsF, QPointF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPagedPaintDevice, QPageLayout, QPageSize, QPainter, QPen
from PySide6.QtWidgets import QDialog, QWidget

from agent.services.calendars import list_calendars
from agent.services.queries import QueryService
from agent.store.db import Store
from agent.store.occurrence import Occurrence
from agent.timesym.context import TimeContext
from agent.timesym.lunar import day_label
from app.calendar.event_source import local_naive
from app.calendar.holidays import HolidayBook, prefers_chinese
from app.context import AppContext

VIEWS = ("day", "week", "month", "agenda")
AGENDA_DAYS = 28  # as the agenda view (app/calendar/agenda_view.py)
MARGIN_MM = 12.0
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _tr(text: str) -> str:
    return QCoreApplication.translate("PrintPages", text)


@dataclass(frozen=True)
class PrintLine:
    """One event on one day, in the user's zone."""

    start: datetime
    end: datetime
    all_day: bool
    title: str
    location: str
    calendar: str


@dataclass
class PrintJob:
    view: str
    first: date
    end: date  # exclusive
    anchor: date
    chinese: bool
    week_start: int
    days: dict[date, list[PrintLine]] = field(default_factory=dict)
    labels: dict[date, str] = field(default_factory=dict)  # the holiday, then 农历 / 节气 (Chinese only)

    def title(self) -> str:
        last = self.end - timedelta(days=1)
        if self.view == "month":
            return f"{self.anchor.year}年{self.anchor.month}月" if self.chinese else f"{self.anchor:%B %Y}"
        if self.view == "day":
            return self.day_heading(self.first)
        if self.chinese:
            return f"{self.first.year}年{self.first.month}月{self.first.day}日 – {last.year}年{last.month}月{last.day}日"
        return f"{self.first:%b} {self.first.day}, {self.first.year} – {last:%b} {last.day}, {last.year}"

    def day_heading(self, day: date) -> str:
        names = WEEKDAYS_ZH if self.chinese else WEEKDAYS_EN
        weekday = names[day.weekday()]
        text = f"{day.year}年{day.month}月{day.day}日 {weekday}" if self.chinese else f"{weekday} {day:%b} {day.day}, {day.year}"
        label = self.labels.get(day, "")
        return f"{text} · {label}" if label else text


def print_range(view: str, anchor: date, week_start: int) -> tuple[date, date]:
    """The days a view shows for ``anchor``: the month is its whole weeks."""
    if view == "day":
        return anchor, anchor + timedelta(days=1)
    if view == "week":
        first = anchor - timedelta(days=(anchor.isoweekday() - week_start) % 7)
        return first, first + timedelta(days=7)
    if view == "month":
        start = anchor.replace(day=1)
        following = (start + timedelta(days=32)).replace(day=1)
        first = start - timedelta(days=(start.isoweekday() - week_start) % 7)
        last = following - timedelta(days=1)
        end = last + timedelta(days=7 - (last.isoweekday() - week_start) % 7)
        return first, end
    if view == "agenda":
        return anchor, anchor + timedelta(days=AGENDA_DAYS)
    raise ValueError(view)


def gather(
    store: Store, profile_id: int, ctx: TimeContext, view: str, anchor: date, *, chinese: bool, week_start: int,
    solar_terms: bool = True, lunar_days: bool = True,
) -> PrintJob:  # fmt: skip
    """The visible calendars' events of the view's days, each under every day it touches."""
    first, end = print_range(view, anchor, week_start)
    tz = ctx.tz if isinstance(ctx.tz, ZoneInfo) else ZoneInfo(str(ctx.tz))
    job = PrintJob(view, first, end, anchor, chinese, week_start)
    visible = {calendar.id for calendar in list_calendars(store, profile_id) if calendar.visible}
    start_at = datetime.combine(first, datetime.min.time(), tzinfo=tz)
    end_at = datetime.combine(end, datetime.min.time(), tzinfo=tz)
    occurrences = QueryService(store, profile_id, ctx).between(start_at, end_at)
    day = first
    while day < end:
        job.days[day] = []
        if chinese:
            try:
                job.labels[day] = day_label(day, solar_terms, lunar_days)
            except Exception:  # outside lunar-python's tables: no label
                job.labels[day] = ""
        day += timedelta(days=1)
    # The holiday's name first, as the month view shows it (the printed month read as an
    # ordinary October without 国庆节); then the 农历 / 节气 label.
    for day, mark in HolidayBook(str(ctx.holiday_country or ""), chinese).marks(first, end).items():
        if mark.name:
            job.labels[day] = " · ".join(part for part in (mark.name, job.labels.get(day, "")) if part)
    for occ in occurrences:
        if occ.calendar_id in visible:
            _place(job, occ, tz)
    for lines in job.days.values():
        lines.sort(key=lambda line: (not line.all_day, line.start, line.title))
    return job


def _place(job: PrintJob, occ: Occurrence, tz: ZoneInfo) -> None:
    start, end = local_naive(occ.start, tz), local_naive(occ.end, tz)
    line = PrintLine(start, end, occ.all_day, occ.title, occ.location, occ.calendar)
    day = max(start.date(), job.first)
    last = end.date() if end.time() != datetime.min.time() or end.date() == start.date() else end.date() - timedelta(days=1)
    while day <= last and day < job.end:
        job.days[day].append(line)
        day += timedelta(days=1)


def time_text(line: PrintLine, day: date, chinese: bool) -> str:
    if line.all_day:
        return _tr("All day")
    start = f"{line.start:%H:%M}" if line.start.date() == day else "…"
    end = f"{line.end:%H:%M}" if line.end.date() == day else "…"
    return f"{start}–{end}"


# ---- painting ------------------------------------------------------------------------------


def page_layout(view: str) -> QPageLayout:
    """A4, the month in landscape (seven columns want the width)."""
    orientation = QPageLayout.Orientation.Landscape if view == "month" else QPageLayout.Orientation.Portrait
    margins = QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM)
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orientation, margins, QPageLayout.Unit.Millimeter)


class _Pages:
    """A painter over a paged device, with a cursor going down the page."""

    def __init__(self, device: QPagedPaintDevice, painter: QPainter) -> None:
        self.device = device
        self.painter = painter
        rect = device.pageLayout().paintRectPixels(device.logicalDpiX())
        self.width, self.height = float(rect.width()), float(rect.height())
        self.y = 0.0
        self.pages = 1
        painter.setPen(QPen(Qt.GlobalColor.black))

    def font(self, points: float, bold: bool = False) -> QFont:
        font = QFont()
        font.setPointSizeF(points)
        font.setBold(bold)
        return font

    def metrics(self, font: QFont) -> QFontMetricsF:
        return QFontMetricsF(font, self.device)

    def new_page(self) -> None:
        self.device.newPage()
        self.pages += 1
        self.y = 0.0

    def room(self, height: float) -> None:
        if self.y + height > self.height and self.y > 0:
            self.new_page()

    def text(self, x: float, width: float, text: str, font: QFont, *, elide: bool = True) -> float:
        """One line at the cursor; returns its height (the cursor does not move)."""
        metrics = self.metrics(font)
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width) if elide else text
        self.painter.setFont(font)
        self.painter.drawText(QPointF(x, self.y + metrics.ascent()), shown)
        return metrics.height()


def paint(job: PrintJob, device: QPagedPaintDevice) -> int:
    """Draw ``job`` on ``device`` (its page layout set by the caller); returns the pages."""
    painter = QPainter(device)
    try:
        pages = _Pages(device, painter)
        title_font = pages.font(16, bold=True)
        pages.y += pages.text(0, pages.width, job.title(), title_font) * 1.4
        if job.view == "month":
            _paint_month(job, pages)
        else:
            _paint_list(job, pages)
        return pages.pages
    finally:
        painter.end()


def _paint_list(job: PrintJob, pages: _Pages) -> None:
    heading, body = pages.font(11, bold=True), pages.font(10)
    small = pages.font(9)
    line_height = pages.metrics(body).height() * 1.25
    time_width = pages.metrics(body).horizontalAdvance("00:00–00:00") + pages.metrics(body).averageCharWidth() * 2
    shown_any = False
    for day, lines in job.days.items():
        if job.view == "agenda" and not lines:
            continue  # the agenda lists the days that have something
        shown_any = True
        pages.room(pages.metrics(heading).height() * 1.3 + line_height)
        pages.y += pages.metrics(heading).height() * 0.3
        pages.y += pages.text(0, pages.width, job.day_heading(day), heading) * 1.15
        pages.painter.drawLine(QPointF(0, pages.y), QPointF(pages.width, pages.y))
        pages.y += line_height * 0.2
        if not lines:
            pages.text(time_width, pages.width - time_width, "—", small)
            pages.y += line_height
        for line in lines:
            pages.room(line_height)
            pages.text(0, time_width, time_text(line, day, job.chinese), body)
            details = " · ".join(part for part in (line.location, line.calendar) if part)
            title_width = pages.width - time_width
            pages.text(time_width, title_width, f"{line.title}   {details}" if details else line.title, body)
            pages.y += line_height
    if not shown_any:
        pages.text(0, pages.width, _tr("No events"), body)


def _paint_month(job: PrintJob, pages: _Pages) -> None:
    days = list(job.days)
    weeks = len(days) // 7
    top = pages.y
    head = pages.font(9, bold=True)
    number_font, body, small = pages.font(10, bold=True), pages.font(8), pages.font(7)
    head_height = pages.metrics(head).height() * 1.3
    cell_w = pages.width / 7
    cell_h = (pages.height - top - head_height) / max(weeks, 1)
    names = WEEKDAYS_ZH if job.chinese else WEEKDAYS_EN
    painter = pages.painter
    for column in range(7):
        pages.y = top
        pages.text(column * cell_w + 4, cell_w - 8, names[(job.week_start - 1 + column) % 7], head)
    grid_top = top + head_height
    painter.setPen(QPen(Qt.GlobalColor.black, max(1.0, pages.device.logicalDpiX() / 200)))
    for week in range(weeks + 1):
        painter.drawLine(QPointF(0, grid_top + week * cell_h), QPointF(pages.width, grid_top + week * cell_h))
    for column in range(8):
        painter.drawLine(QPointF(column * cell_w, grid_top), QPointF(column * cell_w, grid_top + weeks * cell_h))
    line_h = pages.metrics(body).height() * 1.1
    for index, day in enumerate(days):
        x, y = (index % 7) * cell_w, grid_top + (index // 7) * cell_h
        pages.y = y + 3
        outside = day.month != job.anchor.month
        number = f"{day.day}" + (f"  {job.labels[day]}" if job.labels.get(day) else "")
        pages.text(x + 4, cell_w - 8, number, small if outside else number_font)
        pages.y += pages.metrics(number_font).height() * 1.1
        lines = job.days[day]
        fits = max(int((y + cell_h - pages.y - 2) // line_h), 0)
        shown = lines if len(lines) <= fits else lines[: max(fits - 1, 0)]
        for line in shown:
            prefix = "" if line.all_day or line.start.date() != day else f"{line.start:%H:%M} "
            pages.text(x + 4, cell_w - 8, prefix + line.title, body)
            pages.y += line_h
        if len(shown) < len(lines):
            pages.text(x + 4, cell_w - 8, _tr("+{0} more").format(len(lines) - len(shown)), small)


def preview_dialog(parent: QWidget, ctx: AppContext, view: str, anchor: date) -> QDialog:
    """File → Print…: Qt's print preview of the shown view's pages (its Print button prints
    them); the same ``gather`` and ``paint`` as ``richeng print``."""
    from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

    settings = ctx.settings
    job = gather(
        ctx.store, ctx.profile_id, ctx.time_context(), view, anchor,
        chinese=prefers_chinese(settings.get("language")), week_start=int(settings.get("week_start") or 1),
        solar_terms=bool(settings.get("solar_terms")), lunar_days=bool(settings.get("lunar_days")),
    )  # fmt: skip
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(page_layout(view))
    printer.setDocName(job.title())

    class PrintPreview(QPrintPreviewDialog):
        """Holds its printer (Qt does not own one it is given) and the job it paints."""

        def __init__(self) -> None:
            super().__init__(printer, parent)
            self.held_printer = printer
            self.job = job
            self.setWindowTitle(_tr("Print preview"))
            self.paintRequested.connect(lambda device: paint(job, device))

    return PrintPreview()
