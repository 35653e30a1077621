"""Short, translated labels for an event's time span, as the chat dialogs show them.

The rules (which days and times a span shows, when a year appears) are the receipts' own
``agent.runtime.receipts.format_span``: one formatter. This module only supplies the
interface's words ("Tue 12/1 09:00–10:00", "Tue 12/1 – Thu 12/3 · all day") and puts
times in the calendar's zone. A day outside the result's ``today`` year carries its year
("Mon 2027/1/4"), and a span across a year boundary shows both, so a dialog never reads
next year's date as this year's.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import QCoreApplication

from agent.runtime.receipts import format_span


def _tr(text: str) -> str:
    return QCoreApplication.translate("Spans", text)


def weekday_name(day: date) -> str:
    names = (_tr("Mon"), _tr("Tue"), _tr("Wed"), _tr("Thu"), _tr("Fri"), _tr("Sat"), _tr("Sun"))
    return names[day.weekday()]


def day_text(day: date, today: date | None = None, with_year: bool | None = False) -> str:
    if with_year or (today is not None and day.year != today.year):
        return f"{weekday_name(day)} {day.year}/{day.month}/{day.day}"
    return f"{weekday_name(day)} {day.month}/{day.day}"


def _local(moment: datetime | date | None, tz: ZoneInfo) -> datetime | date | None:
    if isinstance(moment, datetime) and moment.tzinfo is not None:
        return moment.astimezone(tz)
    return moment


def span_text(start: datetime | date | None, end: datetime | date | None, tz: ZoneInfo, today: date | None = None) -> str:
    first, last = _local(start, tz), _local(end, tz)
    if first is None:
        return ""
    whole = (_tr("{0} · all day"), _tr("{0} – {1} · all day"))
    return format_span(first, last, today, day_text, whole, join=" – ")
