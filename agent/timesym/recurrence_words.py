"""A repeat rule in words: "每周一、三、五" / "Every Mon, Wed, Fri", "每月最后一个周五" /
"Monthly on the last Friday", "每年农历八月十五".

One summary for every reader (issue 28): the editor's line under the repeat fields, the
event card, the agenda, the chat's receipt of a created series and the quick-add preview
all call ``summary``, so a rule reads the same wherever it is shown. The words are the
catalogue's (``agent/messages/recurrence.py``); this module only picks the codes.

A rule is described from what it says, not from what the editor can show: "the last
working day of the month" (``BYDAY=MO,…,FR;BYSETPOS=-1``) reads as such although the editor
keeps it as a custom rule. Only a rule with parts no sentence here covers (a verbatim rule,
several months, BYDAY inside a daily rule …) reads "Custom repeat" / "自定义重复".
"""

from __future__ import annotations

from datetime import date, datetime

from agent.messages.catalogue import render
from agent.timesym.lunar import lunar_full_label
from agent.timesym.recurrence import WEEKDAYS, Recurrence, Weekday

WORKWEEK = WEEKDAYS[:5]
ORDINALS = (1, 2, 3, 4, 5, -1, -2)  # the Nth weekday a sentence names (catalogue recurrence.ordinal.N)

__all__ = ["day_words", "summary"]


def summary(rule: Recurrence | None, start: date | datetime | None, lang: str) -> str:
    """The rule in words, with its end ("" for no rule). ``start`` is the series' first day:
    it names the day a rule leaves to its start (weekly without BYDAY: the start's weekday;
    monthly without a day: the start's day; yearly: its month and day; 农历: its lunar day)."""
    if rule is None:
        return ""
    day = start.date() if isinstance(start, datetime) else start
    pattern = _pattern(rule, day, lang)
    if pattern is None:
        return render("recurrence.custom", lang)
    if rule.count == 1:
        return render("recurrence.once", lang, pattern=pattern)
    if rule.count:
        return render("recurrence.times", lang, pattern=pattern, count=rule.count)
    if rule.until is not None:
        return render("recurrence.until", lang, pattern=pattern, until=rule.until)
    return pattern


def day_words(rule: Recurrence, start: date, lang: str) -> str:
    """The editor's words for one monthly form ("on the second Tuesday" / "每月第二个周二");
    "" for a rule that is not a monthly one this module can word."""
    on = _month_on(rule, start, lang) if rule.freq == "MONTHLY" else None
    return render("recurrence.on_day", lang, on=on) if on else ""


def _pattern(rule: Recurrence, day: date | None, lang: str) -> str | None:
    """The rule without its end; None when no sentence covers it."""
    if rule.verbatim is not None:
        return None
    if rule.lunar:
        return render("recurrence.lunar", lang, lunar=lunar_full_label(day)) if day else render("recurrence.lunar_plain", lang)
    n = _number(rule.interval, lang)
    if rule.freq == "DAILY":
        if rule.weekdays or rule.month_days or rule.months or rule.set_positions:
            return None
        return render("recurrence.daily", lang) if rule.interval == 1 else render("recurrence.days", lang, n=n)
    if rule.freq == "WEEKLY":
        if rule.month_days or rule.months or rule.set_positions or any(item.ordinal for item in rule.weekdays):
            return None
        days = tuple(item.day for item in rule.weekdays) or ((WEEKDAYS[day.weekday()],) if day else ())
        if not days:
            return render("recurrence.weekly", lang) if rule.interval == 1 else None
        if rule.interval == 1 and sorted(days, key=WEEKDAYS.index) == list(WORKWEEK):
            return render("recurrence.workdays", lang)
        listed = _join([render(f"recurrence.day.{WEEKDAYS.index(code)}", lang) for code in _in_week_order(days)], lang)
        if rule.interval == 1:
            return render("recurrence.weekly_on", lang, days=listed)
        return render("recurrence.weeks_on", lang, n=n, days=listed)
    if rule.freq == "MONTHLY":
        on = _month_on(rule, day, lang)
        if on is None:
            return render("recurrence.monthly", lang) if day is None and _plain(rule) and rule.interval == 1 else None
        if rule.interval == 1:
            return render("recurrence.monthly_on", lang, on=on)
        return render("recurrence.months_on", lang, n=n, on=on)
    on = _year_on(rule, day, lang)
    if on is None:
        return render("recurrence.yearly", lang) if day is None and _plain(rule) and rule.interval == 1 else None
    if rule.interval == 1:
        return render("recurrence.yearly_on", lang, on=on)
    return render("recurrence.years_on", lang, n=n, on=on)


def _plain(rule: Recurrence) -> bool:
    return not (rule.weekdays or rule.month_days or rule.months or rule.set_positions)


def _month_on(rule: Recurrence, day: date | None, lang: str) -> str | None:
    """Which day of the month: "10th" / "10日", "second Tuesday", "last day", "last weekday"."""
    if rule.months:
        return None
    if rule.month_days:
        if rule.weekdays or rule.set_positions:
            return None
        if rule.month_days == (-1,):
            return render("recurrence.last_day", lang)
        if any(not 1 <= value <= 31 for value in rule.month_days):
            return None
        return _join([_month_day(value, lang) for value in sorted(rule.month_days)], lang)
    if rule.weekdays:
        return _nth_weekday(rule.weekdays, rule.set_positions, lang)
    if rule.set_positions:
        return None
    return _month_day(day.day, lang) if day is not None else None


def _nth_weekday(weekdays: tuple[Weekday, ...], set_positions: tuple[int, ...], lang: str) -> str | None:
    """ "second Tuesday" (``2TU``, or ``TU`` with ``BYSETPOS=2``), "last weekday" (the
    working days with one ``BYSETPOS``); None for any other combination."""
    if len(weekdays) == 1:
        item = weekdays[0]
        if item.ordinal and set_positions or not item.ordinal and len(set_positions) != 1:
            return None
        nth = item.ordinal or set_positions[0]
        if nth not in ORDINALS:
            return None
        weekday = render(f"recurrence.day_name.{WEEKDAYS.index(item.day)}", lang)
        return render("recurrence.nth_weekday", lang, nth=render(f"recurrence.ordinal.{nth}", lang), weekday=weekday)
    days = sorted((item.day for item in weekdays if not item.ordinal), key=WEEKDAYS.index)
    if days == list(WORKWEEK) and len(set_positions) == 1 and set_positions[0] in ORDINALS:
        return render("recurrence.nth_workday", lang, nth=render(f"recurrence.ordinal.{set_positions[0]}", lang))
    return None


def _year_on(rule: Recurrence, day: date | None, lang: str) -> str | None:
    """Which day of the year: "December 8" / "12月8日", "the last Sunday of March"."""
    if rule.set_positions or len(rule.months) > 1 or len(rule.month_days) > 1:
        return None
    month = rule.months[0] if rule.months else (day.month if day else None)
    if month is None:
        return None
    if rule.weekdays:
        item = rule.weekdays[0]
        if len(rule.weekdays) != 1 or rule.month_days or not rule.months or item.ordinal not in ORDINALS:
            return None
        weekday = render(f"recurrence.day_name.{WEEKDAYS.index(item.day)}", lang)
        nth = render(f"recurrence.ordinal.{item.ordinal}", lang)
        return render("recurrence.year_nth", lang, month=date(2000, month, 1), nth=nth, weekday=weekday)
    mday = rule.month_days[0] if rule.month_days else (day.day if day else None)
    if mday is None or not 1 <= mday <= 31:
        return None
    try:
        return render("recurrence.year_day", lang, date=date(2000, month, mday))  # 2000: a leap year, so 2月29日 reads
    except ValueError:
        return None


def _month_day(value: int, lang: str) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th") if value not in (11, 12, 13) else "th"
    return render(f"recurrence.month_day.{suffix}", lang, d=value)


def _number(value: int, lang: str) -> str:
    return render(f"recurrence.n.{value}", lang) if 2 <= value <= 10 else render("recurrence.n", lang, n=value)


def _join(words: list[str], lang: str) -> str:
    return render("recurrence.list_sep", lang).join(words)


def _in_week_order(days: tuple[str, ...]) -> list[str]:
    return sorted(dict.fromkeys(days), key=WEEKDAYS.index)
