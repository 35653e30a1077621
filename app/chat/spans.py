"""Short, translated labels for an event's time span, as the chat dialogs show them.

Receipts carry ISO strings (``Occurrence.to_json``); these turn them back into "Tue 12/1
09:00–10:00" or "Tue 12/1 – Thu 12/3 · all day" in the interface language. A day outside
the receipt's ``today`` year carries its year ("Mon 2027/1/4"), and a span across a year
boundary shows both, so a dialog never reads next year's date as this year's.
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


def day_text(day: date, today: date | None = None, *, with_year: bool = False) -> str:
    if with_year or (today is not None and day.year != today.year):
        return f"{weekday_name(day)} {day.year}/{day.month}/{day.day}"
    return f"{weekday_name(day)} {day.month}/{day.day}"


def receipt_today(receipt: dict[str, object]) -> date | None:
    """The ``today`` a receipt was written with (``Outcome.to_json``), if it says."""
    value = receipt.get("today")
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def parse_when(value: str | None) -> datetime | date | None:
    if not value:
        return None
    return datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)


def span_text(start: str | None, end: str | None, tz: ZoneInfo, today: date | None = None) -> str:
    first, last = parse_when(start), parse_when(end)
    if first is None:
        return ""
    if isinstance(first, datetime):
        local = first.astimezone(tz) if first.tzinfo else first
        if not isinstance(last, datetime):
            return f"{day_text(local.date(), today)} {local:%H:%M}"
        stop = last.astimezone(tz) if last.tzinfo else last
        if stop.date() == local.date():
            return f"{day_text(local.date(), today)} {local:%H:%M}–{stop:%H:%M}"
        both = local.year != stop.year
        return (f"{day_text(local.date(), today, with_year=both)} {local:%H:%M} – "
                f"{day_text(stop.date(), today, with_year=both)} {stop:%H:%M}")
    final = (last - timedelta(days=1)) if isinstance(last, date) and not isinstance(last, datetime) else first
    if final <= first:
        return _tr("{0} · all day").format(day_text(first, today))
    both = first.year != final.year
    return _tr("{0} – {1} · all day").format(day_text(first, today, with_year=both), day_text(final, today, with_year=both))
