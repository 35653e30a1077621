"""Short, translated labels for an event's time span, as the chat dialogs show them.

Receipts carry ISO strings (``Occurrence.to_json``); these turn them back into "Tue 12/1
09:00–10:00" or "Tue 12/1 – Thu 12/3 · all day" in the interface language.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from PySide6.QtCore import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("Spans", text)


def weekday_name(day: date) -> str:
    names = (_tr("Mon"), _tr("Tue"), _tr("Wed"), _tr("Thu"), _tr("Fri"), _tr("Sat"), _tr("Sun"))
    return names[day.weekday()]


def day_text(day: date) -> str:
    return f"{weekday_name(day)} {day.month}/{day.day}"


def parse_when(value: str | None) -> datetime | date | None:
    if not value:
        return None
    return datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)


def span_text(start: str | None, end: str | None, tz: ZoneInfo) -> str:
    first, last = parse_when(start), parse_when(end)
    if first is None:
        return ""
    if isinstance(first, datetime):
        local = first.astimezone(tz) if first.tzinfo else first
        if not isinstance(last, datetime):
            return f"{day_text(local.date())} {local:%H:%M}"
        stop = last.astimezone(tz) if last.tzinfo else last
        if stop.date() == local.date():
            return f"{day_text(local.date())} {local:%H:%M}–{stop:%H:%M}"
        return f"{day_text(local.date())} {local:%H:%M} – {day_text(stop.date())} {stop:%H:%M}"
    final = (last - timedelta(days=1)) if isinstance(last, date) and not isinstance(last, datetime) else first
    if final <= first:
        return _tr("{0} · all day").format(day_text(first))
    return _tr("{0} – {1} · all day").format(day_text(first), day_text(final))
