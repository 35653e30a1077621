"""The create tool's structured repeat: the model's small slots, made a ``Recurrence`` by code.

The model says what it understood in a few words — the frequency word it always had
(``repeat``: DAILY … LUNAR_YEARLY), the weekdays with an optional ordinal (``repeatDays``:
TU,TH; 1MO; -1FR), an interval and a month day — and code builds the rule and its RRULE text
(``agent.timesym.recurrence``). The model never writes RRULE text: a rule it cannot make
from these slots is one it cannot write. A combination with no meaning (an ordinal weekday in
a weekly rule, a month day in a yearly one, anything with LUNAR_YEARLY) goes back to the
model as a retry with the reason.

Also here: what the pending command already holds (a part equal to it was grounded in an
earlier turn) and the lines a grounding question adds for the repeat latch's reasons.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from agent.messages.catalogue import render
from agent.runtime.repeat_grounding import KINDS, RepeatSlots
from agent.services.command_types import Stub
from agent.timesym.context import TimeContext
from agent.timesym.recurrence import LUNAR_YEARLY, WEEKDAYS, Recurrence, Weekday

#: The frequency words as rules (the plain-word path still writes them as it always did).
WORDS = {
    "DAILY": Recurrence("DAILY"),
    "WEEKDAYS": Recurrence("WEEKLY", weekdays=tuple(Weekday(day) for day in WEEKDAYS[:5])),
    "WEEKLY": Recurrence("WEEKLY"),
    "BIWEEKLY": Recurrence("WEEKLY", interval=2),
    "MONTHLY": Recurrence("MONTHLY"),
    "YEARLY": Recurrence("YEARLY"),
    LUNAR_YEARLY: Recurrence(LUNAR_YEARLY),
}
_NO_END = date(1970, 1, 1)  # ``to_rrule``'s start only formats an UNTIL; these rules have none


def create_rule(
    repeat: str | None, days: list[str] | None, interval: int | None, month_day: int | None
) -> tuple[Recurrence | None, str | None]:
    """The rule the slots say, and its RRULE text when they say more than the word (None:
    the word alone, or no repeat). Raises ``ValueError`` with a reason the model can act on."""
    weekdays = tuple(Weekday.parse(day) for day in days or ())
    structured = bool(weekdays) or month_day is not None or (interval or 1) > 1
    if repeat is None and not structured:
        return None, None
    if repeat is None:
        if not weekdays and month_day is None:
            raise ValueError("repeatInterval needs repeat (DAILY, WEEKLY, MONTHLY or YEARLY)")
        ordinal = any(day.ordinal for day in weekdays)
        base = Recurrence("MONTHLY" if ordinal or month_day is not None else "WEEKLY")
    else:
        base = WORDS[repeat]
    if not structured:
        return base, None
    if base.lunar:
        raise ValueError("LUNAR_YEARLY takes no repeatDays, repeatInterval or repeatMonthDay")
    if any(day.ordinal for day in weekdays) and base.freq != "MONTHLY":
        raise ValueError("an ordinal weekday (1MO, -1FR) needs repeat MONTHLY")
    if month_day is not None and base.freq != "MONTHLY":
        raise ValueError("repeatMonthDay needs repeat MONTHLY")
    if weekdays and base.freq == "DAILY":
        raise ValueError("repeatDays needs repeat WEEKLY or MONTHLY")
    rule = replace(
        base,
        weekdays=weekdays or base.weekdays,
        interval=interval or base.interval,
        month_days=(month_day,) if month_day is not None else (),
    )
    text = rule.to_rrule(_NO_END)
    assert text is not None  # not lunar
    return Recurrence.from_rrule(text), text  # read back: the same rule whatever the slots' order


def pending_slots(stub: Stub | None, ctx: TimeContext) -> RepeatSlots:
    """What the pending command already holds (a part equal to it needs no new words)."""
    if stub is None:
        return RepeatSlots()
    slots = stub.slots
    rule: Recurrence | None = None
    try:
        if slots.get("rrule"):
            rule = Recurrence.from_rrule(str(slots["rrule"]), ctx.tz)
        elif slots.get("repeat"):
            rule = WORDS.get(str(slots["repeat"]))
    except ValueError:
        rule = None
    count = slots.get("repeat_count")
    return RepeatSlots(
        rule=rule,
        count=int(count) if count is not None else None,
        until=str(slots["repeat_until"]) if slots.get("repeat_until") else None,
        zone=str(slots["zone"]) if slots.get("zone") else None,
        tags=tuple(str(tag) for tag in dict(slots.get("fields") or {}).get("categories") or ()),
    )


def slot_notes(reasons: list[str], lang: str) -> list[str]:
    """One line per reason of the repeat latch: what the user did not say, and what would
    be written."""
    notes = []
    for reason in reasons:
        kind, _, value = reason.partition(":")
        if kind in KINDS:
            notes.append(render(f"runtime.why.{kind}", lang, value=_shown(kind, value, lang)))
    return notes


def _shown(kind: str, value: str, lang: str) -> str:
    if kind == "repeat_days":
        return render("runtime.why.sep", lang).join(_weekday(Weekday.parse(code), lang) for code in value.split(","))
    if kind == "repeat_interval":
        number, _, freq = value.partition("/")
        return render("runtime.why.every", lang, n=number, unit=render(f"runtime.why.unit.{freq.lower()}", lang))
    if kind == "repeat_month_day":
        days = [render("runtime.why.month_end", lang) if day == "-1" else day for day in value.split(",")]
        return render("runtime.why.sep", lang).join(days)
    if kind == "tags":
        return render("runtime.why.sep", lang).join(value.split(","))
    return value


def _weekday(day: Weekday, lang: str) -> str:
    name = render(f"receipts.weekday.{WEEKDAYS.index(day.day)}", lang)
    if day.ordinal == -1:
        return render("runtime.why.last_weekday", lang, w=name)
    if day.ordinal:
        return render("runtime.why.nth_weekday", lang, n=day.ordinal, w=name)
    return render("runtime.why.weekday", lang, w=name)
