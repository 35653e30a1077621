"""Receipts: what the user reads after a tool ran, written by code from the real result.

A terminal tool ends the turn with one of these instead of a second model generation, so
"已创建" can only ever appear when the store says an event was created.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from agent.services.command_types import Outcome
from agent.services.memory import Memory
from agent.services.queries import FreeSlot, RangeResult
from agent.store.occurrence import Occurrence
from agent.timesym.context import day_start

ZH_WEEKDAYS = "一二三四五六日"
EN_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(text: str, setting: str | None = None) -> str:
    """``zh`` or ``en``: the setting when there is one, else the message's script."""
    if setting in ("zh", "en"):
        return setting
    return "zh" if _CJK.search(text or "") else "en"


def day_label(day: date, lang: str, today: date | None = None, *, with_year: bool | None = None) -> str:
    """ "12月2日（周三）" / "Wed 2 Dec". A day outside ``today``'s year carries its year, so a
    query that resolved to next year never reads as this year; without ``today`` (a caller
    with no clock) the year is always shown rather than guessed. ``with_year`` forces it."""
    year = with_year if with_year is not None else today is None or day.year != today.year
    if lang == "zh":
        return f"{f'{day.year}年' if year else ''}{day.month}月{day.day}日（周{ZH_WEEKDAYS[day.weekday()]}）"
    return f"{EN_WEEKDAYS[day.weekday()]} {day.day} {day:%b}{f' {day.year}' if year else ''}"


def _pair_years(first: date, last: date) -> bool | None:
    """A span across a year boundary names both years ("2026年9月1日–2027年8月31日")."""
    return True if first.year != last.year else None


def _is_midnight(moment: datetime) -> bool:
    """Whether ``moment`` is the start of its local day (DST-safe for ZoneInfo zones)."""
    tz = moment.tzinfo
    if isinstance(tz, ZoneInfo):
        return moment == day_start(moment.date(), tz)
    return moment.time() == datetime.min.time()


def window_label(start: datetime, end: datetime, lang: str, today: date | None = None) -> str:
    """Exactly the window ``[start, end)`` that was queried: whole days as days, anything
    else with its times ("12月2日（周三）15:00–16:00"), so a receipt can never speak for a
    wider stretch than it read."""
    if _is_midnight(start) and _is_midnight(end):
        first, last = start.date(), end.date() - timedelta(days=1)
        years = _pair_years(first, last)
        if last <= first:
            return day_label(first, lang, today)
        return f"{day_label(first, lang, today, with_year=years)}–{day_label(last, lang, today, with_year=years)}"
    years = _pair_years(start.date(), end.date())
    sep = "" if lang == "zh" else " "
    head = f"{day_label(start.date(), lang, today, with_year=years)}{sep}{start:%H:%M}"
    if end.date() == start.date():
        return f"{head}–{end:%H:%M}"
    if _is_midnight(end) and end.date() == start.date() + timedelta(days=1):
        return f"{head}–24:00"
    return f"{head}–{day_label(end.date(), lang, today, with_year=years)}{sep}{end:%H:%M}"


#: A day's label: ``(day, today, with_year)``; ``with_year`` None shows the year only
#: outside ``today``'s year, True always (a span across a year boundary names both).
DayLabel = Callable[[date, date | None, bool | None], str]


def format_span(
    start: datetime | date,
    end: datetime | date | None,
    today: date | None,
    day: DayLabel,
    whole: tuple[str, str],
    join: str = "–",
) -> str:
    """The one span formatter: which days and times a span shows, for receipts and for the
    app's dialogs alike. Words differ (``day``; ``whole`` is the all-day pattern for one
    day and for a range, "{0} 全天" / "{0} · all day"); the rules do not. A timed span that
    ends at or before the next midnight reads as one day ("23:00–00:00")."""
    if isinstance(start, datetime):
        if end is None:
            return f"{day(start.date(), today, None)} {start:%H:%M}"
        if isinstance(end, datetime):
            years = _pair_years(start.date(), end.date())
            same_day = start.date() == end.date() or (end - start <= timedelta(days=1) and end.time() == datetime.min.time())
            head = f"{day(start.date(), today, years)} {start:%H:%M}"
            if same_day:
                return f"{head}–{end:%H:%M}"
            return f"{head}{join}{day(end.date(), today, years)} {end:%H:%M}"
    start_day = start.date() if isinstance(start, datetime) else start
    if end is None:
        return whole[0].format(day(start_day, today, None))
    last = (end.date() if isinstance(end, datetime) else end) - timedelta(days=1)
    if last <= start_day:
        return whole[0].format(day(start_day, today, None))
    years = _pair_years(start_day, last)
    return whole[1].format(day(start_day, today, years), day(last, today, years))


_WHOLE = {"zh": ("{0} 全天", "{0}–{1} 全天"), "en": ("{0} all day", "{0}–{1} all day")}


def span_label(start: datetime | date, end: datetime | date, lang: str, today: date | None = None) -> str:
    """A receipt's span ("12月2日（周三） 15:00–16:00", "Wed 2 Dec all day")."""

    def label(day: date, today: date | None, with_year: bool | None) -> str:
        return day_label(day, lang, today, with_year=with_year)

    return format_span(start, end, today, label, _WHOLE["zh" if lang == "zh" else "en"])


def occurrence_line(occ: Occurrence, lang: str, today: date | None = None) -> str:
    calendar = f"（{occ.calendar}）" if lang == "zh" else f" ({occ.calendar})"
    return f"• {span_label(occ.start, occ.end, lang, today)} {occ.title}{calendar}"


def outcome_receipt(outcome: Outcome, lang: str) -> str:
    zh = lang == "zh"
    title = outcome.title
    today = outcome.today
    if outcome.status == "created" and outcome.event is not None:
        when = span_label(outcome.event.start, outcome.event.end, lang, today)
        if outcome.deduplicated:
            text = (
                f"这个日程已经在日历里了：{when} {title}（{outcome.calendar}），没有重复添加。"
                if zh
                else (f"That event is already on your calendar: {when} {title} ({outcome.calendar}); nothing was added twice.")
            )
        else:
            text = (
                f"已创建：{when} {title}（日历：{outcome.calendar}）"
                if zh
                else (f"Created: {when} {title} (calendar: {outcome.calendar})")
            )
        text += series_note(outcome, lang)
        if outcome.calendar_fell_back:
            text += (
                f"\n没有找到日历“{outcome.requested_calendar}”，已放入默认日历“{outcome.calendar}”。"
                if zh
                else f"\nThere is no calendar named “{outcome.requested_calendar}”, so it went into the default calendar "
                f"“{outcome.calendar}”."
            )
        return text
    if outcome.status == "needs_date":
        if outcome.candidates:
            options = ("还是" if zh else " or ").join(day_label(day, lang, today) for day in outcome.candidates)
            ask = f"“{title}”安排在哪一天？{options}？" if zh else f"Which day for “{title}”: {options}?"
        else:
            ask = f"“{title}”具体是哪一天？" if zh else f"Which day should “{title}” be on?"
        if outcome.rejected:  # the reply named a day the question did not offer
            named = outcome.rejected
            said = day_label(named[0], lang, today)
            if len(named) > 1:
                said = f"{said}–{day_label(named[-1], lang, today)}"
            if zh:
                return f"{said}不在可选的日子里，还没有写入日历。{ask}要改到别的日子，请直接说“改到…”。"
            return f"{said} is not one of the days offered, so nothing was written. {ask} To move it to another day, say so."
        return ask
    if outcome.status == "conflict":
        lines = "\n".join(occurrence_line(occ, lang, today) for occ in outcome.conflicts)
        when = span_label(outcome.start, outcome.end, lang, today) if outcome.start and outcome.end else ""
        if zh:
            return f"“{title}”（{when}）和这些日程时间冲突：\n{lines}\n要换个时间，还是直接创建？还没有写入日历。"
        return f"“{title}” ({when}) overlaps:\n{lines}\nChange the time, or create it anyway? Nothing has been written yet."
    if outcome.status == "past_time":
        when = span_label(outcome.start, outcome.end, lang, today) if outcome.start and outcome.end else ""
        if zh:
            return f"“{title}”的时间（{when}）已经过去了，还没有写入日历。要补记到日历里吗？"
        return f"The time for “{title}” ({when}) has already passed, so nothing was written. Add it anyway?"
    if outcome.status == "unconfirmed":
        return unconfirmed_receipt(outcome, lang)
    if outcome.status == "cancelled":
        return f"好的，不建“{title}”了。" if zh else f"OK, I dropped “{title}”."
    if outcome.status == "none":
        return "现在没有待确认的日程。" if zh else "There is no pending event to cancel."
    # invalid after the model's retries ran out (a model may not even have named the event)
    if zh:
        what = f"“{title}”的时间" if title.strip() else "这个日程的时间"
        return f"我没能理解{what}，还没有写入日历。可以换个说法告诉我日期和时间吗？"
    what = f"the time for “{title}”" if title.strip() else "the time for this event"
    return f"I couldn't work out {what}, so nothing was written. Could you say the date and time another way?"


_REPEAT_ZH = {
    "DAILY": "每天",
    "WEEKDAYS": "每个工作日",
    "WEEKLY": "每周{w}",
    "BIWEEKLY": "每两周的{w}",
    "MONTHLY": "每月{d}日",
    "YEARLY": "每年{m}月{d}日",
    "LUNAR_YEARLY": "每年农历{lunar}",
}
_REPEAT_EN = {
    "DAILY": "every day",
    "WEEKDAYS": "every weekday",
    "WEEKLY": "every {w}",
    "BIWEEKLY": "every other {w}",
    "MONTHLY": "monthly on day {d}",
    "YEARLY": "every year on {m}/{d}",
    "LUNAR_YEARLY": "every year on lunar {lunar}",
}


def series_note(outcome: Outcome, lang: str) -> str:
    """A created series and its extras, from what code built: the pattern, its end, the
    next days of a 农历 series, the reminder and the place."""
    zh = lang == "zh"
    lines: list[str] = []
    series = outcome.series or {}
    start = outcome.event.start if outcome.event is not None else outcome.start
    if series.get("repeat") and start is not None:
        day = start.date() if isinstance(start, datetime) else start
        from agent.timesym.lunar import lunar_full_label

        fill = {
            "w": (f"{ZH_WEEKDAYS[day.weekday()]}" if zh else EN_WEEKDAYS[day.weekday()]),
            "d": day.day,
            "m": day.month,
            "lunar": lunar_full_label(day),
        }
        pattern = (_REPEAT_ZH if zh else _REPEAT_EN)[series["repeat"]].format(**fill)
        if series.get("count"):
            pattern += f"，共 {series['count']} 次" if zh else f", {series['count']} times"
        elif series.get("until"):
            until = day_label(date.fromisoformat(series["until"]), lang, outcome.today)
            pattern += f"，到{until}为止" if zh else f", until {until}"
        lines.append(f"重复：{pattern}" if zh else f"Repeats: {pattern}")
        if series["repeat"] == "LUNAR_YEARLY" and series.get("next"):
            days = [date.fromisoformat(str(value)[:10]) for value in series["next"]]
            listed = "、".join(day_label(d, lang, outcome.today, with_year=True) for d in days)
            lines.append(f"接下来：{listed}……" if zh else f"Next: {listed}, …")
    extras = outcome.extras or {}
    if extras.get("reminder") is not None:
        lines.append(f"提醒：提前 {extras['reminder']} 分钟" if zh else f"Reminder: {extras['reminder']} min before")
    if extras.get("location"):
        lines.append(f"地点：{extras['location']}" if zh else f"Place: {extras['location']}")
    if extras.get("notes"):
        lines.append("备注已保存" if zh else "Notes saved")
    return "".join("\n" + line for line in lines)


def range_receipt(result: RangeResult, lang: str, today: date | None = None) -> str:
    """What the query read, for exactly the window it read (``window_label``)."""
    zh = lang == "zh"
    today = today or getattr(result, "today", None)
    label = window_label(result.start, result.end, lang, today)
    gap = " " if label[-1:].isdigit() else ""  # "15:00–16:00 没有安排" / "12月2日（周三）没有安排"
    if not result.events:
        return f"{label}{gap}没有安排。" if zh else f"Nothing on your calendar for {label}."
    lines = "\n".join(occurrence_line(occ, lang, today) for occ in result.events[:50])
    more = len(result.events) - 50
    tail = (f"\n……还有 {more} 项" if zh else f"\n… and {more} more") if more > 0 else ""
    head = f"{label}{gap}共有 {len(result.events)} 项安排：" if zh else f"{len(result.events)} item(s) for {label}:"
    return f"{head}\n{lines}{tail}"


def free_receipt(slots: list[FreeSlot], lang: str, today: date | None = None) -> str:
    zh = lang == "zh"
    if not slots:
        return "这段时间在工作时间内没有合适的空档。" if zh else "No free slot of that length within working hours in that range."
    lines = "\n".join(f"• {span_label(slot.start, slot.end, lang, today)}" for slot in slots[:10])
    return ("这些时间有空：\n" if zh else "You are free:\n") + lines


def memory_receipt(memory: Memory, lang: str) -> str:
    return f"记住了：{memory.text}" if lang == "zh" else f"Remembered: {memory.text}"


def memory_unconfirmed_receipt(fact: str, lang: str) -> str:
    """The remember tool was asked to save words the user did not write this turn."""
    if lang == "zh":
        return f"没有记住任何内容：“{fact}”不是你这句话里的内容。如果要我记住，请直接告诉我要记住什么。"
    return f"Nothing was remembered: “{fact}” is not in your own words. If you want me to remember it, tell me in your words."


def council_offer_receipt(topic: str, lang: str) -> str:
    if lang == "zh":
        return f"要不要请三位顾问从不同角度帮你看看“{topic}”这段时间的安排？回复“要”就开始。"
    return f"Would you like three advisors to look at your schedule for “{topic}” from different angles? Reply “yes” to start."


def unavailable_reply(reason: str, lang: str) -> str:
    if lang == "zh":
        return f"模型现在不可用（{reason}），这次没有读写你的日历。日历本身可以照常使用。"
    return f"The model is unavailable right now ({reason}); nothing was read or written. The calendar itself works as usual."


def no_model_reason(lang: str) -> str:
    """Why the model is unavailable when none is configured (inside ``unavailable_reply``)."""
    return "尚未配置模型" if lang == "zh" else "no model configured"


def stopped_reply(lang: str) -> str:
    """The user pressed Stop before the model answered."""
    return "已停止。" if lang == "zh" else "Stopped."


def empty_reply(lang: str) -> str:
    """A model reply that said nothing at all (the bubble is never left empty)."""
    return "……" if lang == "zh" else "…"


UNCHANGED_LINE = ("日历没有变化", "Nothing in your calendar changed")


def unchanged_line(lang: str) -> str:
    """The second guard tier's status line (``calendar_status.py``): code-written, shown
    under a model's reply when this turn neither wrote nor read the calendar."""
    zh, en = UNCHANGED_LINE
    return zh if lang == "zh" else en


def gave_up_reply(lang: str) -> str:
    if lang == "zh":
        return "这次没能完成，日历没有任何改动。可以换个说法再试一次吗？"
    return "I couldn't finish that, and nothing on your calendar changed. Could you try saying it another way?"


def to_payload(value: Any) -> Any:
    """A typed result as JSON-ready data (the CLI and eval boundary; the app reads types)."""
    if isinstance(value, list):
        return [to_payload(item) for item in value]
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value


def unconfirmed_receipt(outcome: Outcome, lang: str) -> str:
    """The grounding latch's question: why it asks, what would be written, how to answer."""
    zh = lang == "zh"
    why: list[str] = []
    for reason in outcome.reasons:
        kind, _, word = reason.partition(":")
        if kind == "past_tense":
            why.append(f"听起来这件事已经发生了（“{word}”）" if zh else f"it sounds like this already happened (“{word}”)")
        elif kind == "date_contradicts":
            why.append(
                f"你说的是“{word}”，和要写入的日期对不上" if zh else f"you said “{word}”, which is not the day it would go on"
            )
        elif kind == "title_not_from_user":
            why.append("这个标题不是你这句话里的说法" if zh else "that title is not in your own words")
        elif kind == "bulk_clear":
            why.append(
                f"你说的是“{word}”，听起来是要删除而不是新建"
                if zh
                else f"you said “{word}”, which sounds like removing, not adding"
            )
    when = ""
    if outcome.candidates and len(outcome.candidates) == 1:
        when = day_label(outcome.candidates[0], lang, outcome.today)
    reason_text = ("，".join(why) if zh else "; ".join(why)) or ("需要你确认" if zh else "it needs your confirmation")
    if zh:
        target = f"“{outcome.title}”（{when}）" if when else f"“{outcome.title}”"
        return f"还没有写入日历：{reason_text}。要把{target}加到日历里吗？回复“是”添加，或“不用”。"
    target = f"“{outcome.title}” ({when})" if when else f"“{outcome.title}”"
    return f"Nothing was written yet: {reason_text}. Add {target} to your calendar? Reply “yes” to add it, or “no”."
