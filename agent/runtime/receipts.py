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

from agent.messages.catalogue import render
from agent.runtime.invite_grounding import invite_lines, people_text
from agent.services.command_types import Outcome
from agent.services.memory import Memory
from agent.services.queries import FreeSlot, RangeResult
from agent.store.occurrence import Occurrence
from agent.timesym.context import day_start
from agent.timesym.recurrence import LUNAR_YEARLY, Recurrence
from agent.timesym.recurrence_words import summary

_CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(text: str, setting: str | None = None) -> str:
    """``zh`` or ``en``: the setting when there is one, else the message's script."""
    if setting in ("zh", "en"):
        return setting
    return "zh" if _CJK.search(text or "") else "en"


def weekday_name(day: date, lang: str) -> str:
    """ "三" / "Wed" (the catalogue's ``receipts.weekday.N``)."""
    return render(f"receipts.weekday.{day.weekday()}", lang)


def day_label(day: date, lang: str, today: date | None = None, *, with_year: bool | None = None) -> str:
    """ "12月2日（周三）" / "Wed 2 Dec". A day outside ``today``'s year carries its year, so a
    query that resolved to next year never reads as this year; without ``today`` (a caller
    with no clock) the year is always shown rather than guessed. ``with_year`` forces it."""
    year = with_year if with_year is not None else today is None or day.year != today.year
    return render("receipts.day_year" if year else "receipts.day", lang, date=day, weekday=weekday_name(day, lang))


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
    head = render("receipts.day_time", lang, day=day_label(start.date(), lang, today, with_year=years), time=start)
    if end.date() == start.date():
        return f"{head}–{end:%H:%M}"
    if _is_midnight(end) and end.date() == start.date() + timedelta(days=1):
        return f"{head}–24:00"
    tail = render("receipts.day_time", lang, day=day_label(end.date(), lang, today, with_year=years), time=end)
    return f"{head}–{tail}"


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


def _whole(lang: str) -> tuple[str, str]:
    """``format_span``'s positional all-day patterns, from the catalogue's named ones."""
    return render("receipts.all_day", lang, day="{0}"), render("receipts.all_day_range", lang, first="{0}", last="{1}")


def span_label(start: datetime | date, end: datetime | date, lang: str, today: date | None = None) -> str:
    """A receipt's span ("12月2日（周三） 15:00–16:00", "Wed 2 Dec all day")."""

    def label(day: date, today: date | None, with_year: bool | None) -> str:
        return day_label(day, lang, today, with_year=with_year)

    return format_span(start, end, today, label, _whole(lang))


def occurrence_line(occ: Occurrence, lang: str, today: date | None = None) -> str:
    when = span_label(occ.start, occ.end, lang, today)
    return render("receipts.occurrence", lang, when=when, title=occ.title, calendar=occ.calendar)


def _when_or_blank(outcome: Outcome, lang: str) -> str:
    return span_label(outcome.start, outcome.end, lang, outcome.today) if outcome.start and outcome.end else ""


def outcome_receipt(outcome: Outcome, lang: str) -> str:
    title = outcome.title
    today = outcome.today
    if outcome.status == "created" and outcome.event is not None:
        when = span_label(outcome.event.start, outcome.event.end, lang, today)
        code = "receipts.duplicate" if outcome.deduplicated else "receipts.created"
        text = render(code, lang, when=when, title=title, calendar=outcome.calendar)
        text += series_note(outcome, lang)
        text += "".join("\n" + line for line in invite_lines(outcome.extras or {}, lang, created=True))
        if outcome.calendar_fell_back:
            fell_back = render(
                "receipts.calendar_fell_back", lang, requested=outcome.requested_calendar, calendar=outcome.calendar
            )
            text += "\n" + fell_back
        return text
    if outcome.status == "needs_date":
        if outcome.candidates:
            options = render("receipts.days_or", lang).join(day_label(day, lang, today) for day in outcome.candidates)
            ask = render("receipts.which_day_of", lang, title=title, options=options)
        else:
            ask = render("receipts.which_day", lang, title=title)
        if outcome.rejected:  # the reply named a day the question did not offer
            named = outcome.rejected
            said = day_label(named[0], lang, today)
            if len(named) > 1:
                said = f"{said}–{day_label(named[-1], lang, today)}"
            return render("receipts.day_not_offered", lang, said=said, ask=ask)
        return ask
    if outcome.status == "conflict":
        lines = "\n".join(occurrence_line(occ, lang, today) for occ in outcome.conflicts)
        return render("receipts.conflict", lang, title=title, when=_when_or_blank(outcome, lang), lines=lines)
    if outcome.status == "past_time":
        return render("receipts.past_time", lang, title=title, when=_when_or_blank(outcome, lang))
    if outcome.status == "unconfirmed":
        return unconfirmed_receipt(outcome, lang)
    if outcome.status == "cancelled":
        return render("receipts.cancelled", lang, title=title)
    if outcome.status == "none":
        return render("receipts.nothing_pending", lang)
    # invalid after the model's retries ran out (a model may not even have named the event)
    if title.strip():
        return render("receipts.invalid_titled", lang, title=title)
    return render("receipts.invalid", lang)


def series_note(outcome: Outcome, lang: str) -> str:
    """A created series and its extras, from what code built: the rule in the one summary's
    words (``recurrence_words.summary``: what the editor, the card and the agenda say, so
    "every Mon, Wed, Fri" is never told as "weekly on Wednesday"), the next days of a 农历
    series, the reminder and the place."""
    lines: list[str] = []
    series = outcome.series or {}
    start = outcome.event.start if outcome.event is not None else outcome.start
    if series.get("repeat") and start is not None:
        pattern = summary(series_recurrence(series, start), start, lang)
        lines.append(render("receipts.repeats", lang, pattern=pattern))
        if series["repeat"] == LUNAR_YEARLY and series.get("next"):
            days = [date.fromisoformat(str(value)[:10]) for value in series["next"]]
            listed = "、".join(day_label(d, lang, outcome.today, with_year=True) for d in days)
            lines.append(render("receipts.next", lang, listed=listed))
    extras = outcome.extras or {}
    if extras.get("reminder") is not None:
        lines.append(render("receipts.reminder", lang, minutes=extras["reminder"]))
    if extras.get("location"):
        lines.append(render("receipts.location", lang, location=extras["location"]))
    if extras.get("notes"):
        lines.append(render("receipts.notes_saved", lang))
    return "".join("\n" + line for line in lines)


def series_recurrence(series: dict[str, Any], start: date | datetime) -> Recurrence:
    """The rule a create wrote (``Series.to_json``): its RRULE read back in the event's
    zone, or 农历 yearly with its end."""
    if series.get("repeat") == LUNAR_YEARLY or not series.get("rrule"):
        until = date.fromisoformat(series["until"]) if series.get("until") else None
        return Recurrence(LUNAR_YEARLY, count=series.get("count"), until=until)
    zone = start.tzinfo if isinstance(start, datetime) and isinstance(start.tzinfo, ZoneInfo) else None
    return Recurrence.read(str(series["rrule"]), zone)


def range_receipt(result: RangeResult, lang: str, today: date | None = None) -> str:
    """What the query read, for exactly the window it read (``window_label``)."""
    today = today or getattr(result, "today", None)
    label = window_label(result.start, result.end, lang, today)
    after_time = "_after_time" if label[-1:].isdigit() else ""  # "15:00–16:00 没有安排" / "12月2日（周三）没有安排"
    if not result.events:
        return render(f"receipts.range_empty{after_time}", lang, label=label)
    lines = "\n".join(occurrence_line(occ, lang, today) for occ in result.events[:50])
    more = len(result.events) - 50
    tail = "\n" + render("receipts.range_more", lang, more=more) if more > 0 else ""
    head = render(f"receipts.range_head{after_time}", lang, label=label, count=len(result.events))
    return f"{head}\n{lines}{tail}"


def free_receipt(slots: list[FreeSlot], lang: str, today: date | None = None) -> str:
    if not slots:
        return render("receipts.no_free_slot", lang)
    lines = "\n".join(f"• {span_label(slot.start, slot.end, lang, today)}" for slot in slots[:10])
    return render("receipts.free", lang, lines=lines)


def memory_receipt(memory: Memory, lang: str) -> str:
    return render("receipts.remembered", lang, text=memory.text)


def memory_unconfirmed_receipt(fact: str, lang: str) -> str:
    """The remember tool was asked to save words the user did not write this turn."""
    return render("receipts.memory_unconfirmed", lang, fact=fact)


def council_offer_receipt(topic: str, lang: str) -> str:
    return render("receipts.council_offer", lang, topic=topic)


def unavailable_reply(reason: str, lang: str) -> str:
    return render("receipts.model_unavailable", lang, reason=reason)


def no_model_reason(lang: str) -> str:
    """Why the model is unavailable when none is configured (inside ``unavailable_reply``)."""
    return render("receipts.no_model", lang)


def stopped_reply(lang: str) -> str:
    """The user pressed Stop before the model answered."""
    return render("receipts.stopped", lang)


def empty_reply(lang: str) -> str:
    """A model reply that said nothing at all (the bubble is never left empty)."""
    return render("receipts.empty", lang)


def unchanged_line(lang: str) -> str:
    """The second guard tier's status line (``calendar_status.py``): code-written, shown
    under a model's reply when this turn neither wrote nor read the calendar."""
    return render("receipts.unchanged", lang)


def gave_up_reply(lang: str) -> str:
    return render("receipts.gave_up", lang)


def to_payload(value: Any) -> Any:
    """A typed result as JSON-ready data (the CLI and eval boundary; the app reads types)."""
    if isinstance(value, list):
        return [to_payload(item) for item in value]
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value


def unconfirmed_receipt(outcome: Outcome, lang: str) -> str:
    """The grounding latch's question: why it asks, what would be written, how to answer."""
    why: list[str] = []
    for reason in outcome.reasons:
        kind, _, word = reason.partition(":")
        if kind in ("past_tense", "date_contradicts", "title_not_from_user", "bulk_clear", "conditional"):
            why.append(render(f"receipts.why.{kind}", lang, word=word))
        elif kind == "reported_invitation":
            why.append(render("receipts.why.reported_invitation", lang, word=word))
        elif kind == "will_email":  # the app's "this will email N people", with who
            people = people_text(list((outcome.extras or {}).get("people") or []), lang)
            why.append(render("receipts.why.will_email", lang, count=word, people=people))
    when = ""
    if outcome.candidates and len(outcome.candidates) == 1:
        when = day_label(outcome.candidates[0], lang, outcome.today)
    reasons = render("receipts.clause_sep", lang).join(why) or render("receipts.needs_confirmation", lang)
    if when:
        target = render("receipts.target_when", lang, title=outcome.title, when=when)
    else:
        target = render("receipts.target", lang, title=outcome.title)
    text = render("receipts.unconfirmed", lang, reasons=reasons, target=target)
    if not any(reason.startswith("will_email") for reason in outcome.reasons):  # else the reason lists them
        text += "".join("\n" + line for line in invite_lines(outcome.extras or {}, lang, created=False))
    return text
