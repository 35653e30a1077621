"""What code reads in a typed sentence, shown in the text field itself (issue 21, item 3).

The quick-add field and the chat input both underline the words the headless sentence parser
(``agent/timesym/sentence.py``) read, by role: the day, the time, the repeat, the reminder and
the place each get their own colour and underline style, the title stays plain. The
quick-add field also says, in one line, what Enter would create (``preview_html``).

``SpanLineEdit`` draws the underlines with the input-method attribute trick: a
``QInputMethodEvent`` with no preedit and no commit string but ``TextFormat`` attributes
sets the line edit's layout formats without touching its text, cursor, selection or undo
stack. While a real input method is composing (pinyin before its commit) no format is sent,
so the composition is never disturbed; the formats come back at the commit.

``QuickReader`` parses on every keystroke on the UI thread (about a millisecond) from what
it cached: the zone, the holiday country, the default length and the language are read
once and again on ``refresh`` (the owners call it on change flags), never per keystroke.
The parser module itself is imported on the first keystroke, not at start-up (it costs
~0.15 s to import, and the first paint does not need it).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QTimer
from PySide6.QtGui import QColor, QInputMethodEvent, QKeyEvent, QKeySequence, QTextCharFormat
from PySide6.QtWidgets import QLineEdit, QWidget

from app.calendar.holidays import prefers_chinese
from app.context import AppContext
from app.i18n import format_day

if TYPE_CHECKING:
    from agent.timesym.context import TimeContext
    from agent.timesym.sentence import QuickEvent, Span

ROLES = ("day", "time", "repeat", "reminder", "location", "tags")
_U = QTextCharFormat.UnderlineStyle
#: role → (colour, underline style). Colours readable on a light and a dark window; the
#: styles differ too, so the roles stay apart for people who do not tell the colours apart.
ROLE_STYLES: dict[str, tuple[str, QTextCharFormat.UnderlineStyle]] = {
    "day": ("#1565c0", _U.SingleUnderline),
    "time": ("#2e7d32", _U.DashUnderline),
    "repeat": ("#7b1fa2", _U.DashDotLine),
    "reminder": ("#c62828", _U.DotLine),
    "location": ("#ef6c00", _U.WaveUnderline),
    "tags": ("#00838f", _U.DashDotDotLine),  # the #tags
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("QuickText", text)


def role_format(role: str) -> QTextCharFormat:
    colour, style = ROLE_STYLES.get(role, ("#555555", _U.SingleUnderline))
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    fmt.setUnderlineStyle(style)
    fmt.setUnderlineColor(QColor(colour))
    return fmt


def _utf16(text: str, index: int) -> int:
    """Qt counts UTF-16 units; Python counts code points (they differ past the BMP, emoji)."""
    return len(text[:index].encode("utf-16-le")) // 2


class SpanLineEdit(QLineEdit):
    """A line edit that underlines spans of its text by role (``set_spans``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spans: tuple[Span, ...] = ()
        self.applied: list[tuple[int, int, str]] = []  # (start, length, role) in Qt units, for tests
        self._composing = False  # a real input method has a preedit string
        self._sending = False  # the event being processed is ours
        self._in_event = False  # inside an input method event: apply after it, not inside it
        self.undo_passes_when_empty = False  # an empty field lets Ctrl+Z reach the app's Undo

    def set_spans(self, spans: Iterable[Span]) -> None:
        self.spans = tuple(spans)
        if self._in_event:
            QTimer.singleShot(0, self, self._apply)
        else:
            self._apply()

    def formats(self) -> list[tuple[int, int, str]]:
        return list(self.applied)

    def _apply(self) -> None:
        if self._composing:
            return
        text = self.text()
        cursor = self.cursorPosition()
        attributes = []
        applied = []
        for span in self.spans:
            if span.role not in ROLE_STYLES or span.end > len(text) or text[span.start : span.end] != span.text:
                continue  # a stale span (the text changed since it was read)
            start, end = _utf16(text, span.start), _utf16(text, span.end)
            if end <= start:
                continue
            attributes.append(
                QInputMethodEvent.Attribute(
                    QInputMethodEvent.AttributeType.TextFormat, start - cursor, end - start, role_format(span.role)
                )
            )
            applied.append((start, end - start, span.role))
        if not applied and not self.applied:
            return
        self._sending = True
        try:
            QCoreApplication.sendEvent(self, QInputMethodEvent("", attributes))
        finally:
            self._sending = False
        self.applied = applied

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:  # a Qt override keeps Qt's name
        if self._sending:
            super().inputMethodEvent(event)
            return
        self._composing = bool(event.preeditString())
        self._in_event = True
        try:
            super().inputMethodEvent(event)
        finally:
            self._in_event = False
        if not self._composing:
            self._apply()

    def event(self, event: QEvent) -> bool:  # a Qt override keeps Qt's name
        if (
            self.undo_passes_when_empty
            and event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and not self.text()
            and (event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo))
        ):
            event.ignore()  # nothing to undo here: the window's Undo (the last create) runs
            return False
        return super().event(event)


class QuickReader:
    """Parse sentences for one app context from cached settings (no store read per call)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.refresh()

    def refresh(self) -> None:
        settings = self.ctx.settings
        self.tz = self.ctx.tz
        self.holiday_country = str(settings.get("holiday_country") or "CN")
        self.minutes = int(settings.get("default_duration_minutes") or 60)
        self.chinese = prefers_chinese(settings.get("language"))

    @property
    def lang(self) -> str:
        return "zh" if self.chinese else "en"

    def now(self) -> datetime:
        clock = self.ctx.clock
        return clock().astimezone(self.tz) if clock else datetime.now(self.tz)

    def time_context(self) -> TimeContext:
        from agent.timesym.context import TimeContext

        return TimeContext(now=self.now(), tz=self.tz, holiday_country=self.holiday_country)

    def read(self, text: str) -> QuickEvent:
        from agent.timesym.sentence import parse_quick

        return parse_quick(text, self.time_context(), default_minutes=self.minutes)


# ---- the one-line preview -------------------------------------------------------------------

REPEAT_WORDS = {
    "DAILY": "daily",
    "WEEKDAYS": "every weekday",
    "WEEKLY": "weekly",
    "BIWEEKLY": "every 2 weeks",
    "MONTHLY": "monthly",
    "YEARLY": "yearly",
    "LUNAR_YEARLY": "yearly (lunar)",
}


def _repeat_text(repeat: str) -> str:
    words = {
        "daily": _tr("daily"),
        "every weekday": _tr("every weekday"),
        "weekly": _tr("weekly"),
        "every 2 weeks": _tr("every 2 weeks"),
        "monthly": _tr("monthly"),
        "yearly": _tr("yearly"),
        "yearly (lunar)": _tr("yearly (lunar)"),
    }
    return words.get(REPEAT_WORDS.get(repeat, ""), repeat.lower())


def _reminder_text(minutes: int) -> str:
    if minutes <= 0:
        return _tr("reminder at the start")
    if minutes % 1440 == 0:
        return _tr("reminder {0} d before").format(minutes // 1440)
    if minutes % 60 == 0:
        return _tr("reminder {0} h before").format(minutes // 60)
    return _tr("reminder {0} min before").format(minutes)


def _day(locale: QLocale, chinese: bool, day: date, today: date) -> str:
    if chinese:
        return format_day(locale, day, "ddd M月d日" if day.year == today.year else "ddd yyyy年M月d日")
    return format_day(locale, day, "ddd MMM d" if day.year == today.year else "ddd MMM d, yyyy")


def when_parts(start: date | datetime, end: date | datetime, chinese: bool, today: date, tz: Any = None) -> list[tuple[str, str]]:
    """(text, role) pieces joined by spaces: "周三 12月2日" (day) "15:00–16:00" (time);
    "Wed Dec 2 · all day"; "Wed Dec 2 – Fri Dec 4 · all day"."""
    locale = (
        QLocale(QLocale.Language.Chinese, QLocale.Country.China)
        if chinese
        else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    )
    if isinstance(start, datetime) and isinstance(end, datetime):
        if tz is not None:
            start, end = start.astimezone(tz), end.astimezone(tz)
        head = _day(locale, chinese, start.date(), today)
        if end.date() == start.date() or (end.time() == datetime.min.time() and end.date() == start.date() + timedelta(days=1)):
            return [(head, "day"), (f"{start:%H:%M}–{end:%H:%M}", "time")]
        return [
            (head, "day"),
            (f"{start:%H:%M} –", "time"),
            (_day(locale, chinese, end.date(), today), "day"),
            (f"{end:%H:%M}", "time"),
        ]
    first = start.date() if isinstance(start, datetime) else start
    last = (end.date() if isinstance(end, datetime) else end) - timedelta(days=1)
    if last <= first:
        return [(_tr("{0} · all day").format(_day(locale, chinese, first, today)), "day")]
    return [(_tr("{0} – {1} · all day").format(_day(locale, chinese, first, today), _day(locale, chinese, last, today)), "day")]


def when_text(start: date | datetime, end: date | datetime, chinese: bool, today: date, tz: Any = None) -> str:
    """ "周三 12月2日 15:00–16:00", "Wed Dec 2 · all day"."""
    return " ".join(text for text, _role in when_parts(start, end, chinese, today, tz))


def _coloured(text: str, role: str) -> str:
    colour = ROLE_STYLES[role][0]
    return f'<span style="color:{colour}">{html.escape(text)}</span>'


def preview_parts(parsed: QuickEvent, calendar: str, chinese: bool, today: date, tz: Any = None) -> list[tuple[str, str | None]]:
    """(text, role or None) pieces of the preview line, in order; the first is the when. A
    repeat is said by the catalogue's summary (the editor's and the card's words); an event
    pinned to a zone the sentence named adds both clocks ("16:00 CET = 23:00 here")."""
    from agent.services.quick_add import zone_line
    from agent.timesym.recurrence_words import summary

    assert parsed.start is not None and parsed.end is not None
    lang = "zh" if chinese else "en"
    when = when_parts(parsed.start, parsed.end, chinese, today)
    parts: list[tuple[str, str | None]] = [(" ".join(text for text, _r in when), None), (parsed.title, None)]
    zone = zone_line(parsed, tz, lang) if tz is not None else None
    if zone:
        parts.append((zone, "time"))
    if parsed.location:
        parts.append((_tr("at {0}").format(parsed.location), "location"))
    if parsed.rule is not None:
        parts.append((summary(parsed.rule, parsed.start, lang) or _repeat_text(parsed.repeat or ""), "repeat"))
    elif parsed.repeat:
        parts.append((_repeat_text(parsed.repeat), "repeat"))
    if parsed.reminder_minutes is not None:
        parts.append((_reminder_text(parsed.reminder_minutes), "reminder"))
    if parsed.categories:  # the #tags, as typed: the event's tags
        parts.append((" ".join("#" + tag for tag in parsed.categories), None))
    if calendar:
        parts.append((calendar, None))
    return parts


def preview_text(parsed: QuickEvent, calendar: str, chinese: bool, today: date, tz: Any = None) -> str:
    """The plain line: "周三 12月2日 15:00–16:00 · 和张三开会 · 日程"."""
    return " · ".join(text for text, _role in preview_parts(parsed, calendar, chinese, today, tz))


def preview_html(parsed: QuickEvent, calendar: str, chinese: bool, today: date, tz: Any = None) -> str:
    """The same line with the read parts in their underline colours."""
    assert parsed.start is not None and parsed.end is not None
    when = " ".join(_coloured(text, role) for text, role in when_parts(parsed.start, parsed.end, chinese, today))
    rest = preview_parts(parsed, calendar, chinese, today, tz)[1:]
    return " · ".join([when, *(_coloured(text, role) if role else html.escape(text) for text, role in rest)])
