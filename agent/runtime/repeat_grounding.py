"""The grounding latch for a repeat's parts and a zone: what the user said this turn.

A create may carry a structured repeat (weekdays with ordinals, an interval, a month day, an
end) and a zone. The model understood the sentence; code checks that each part it filled is
in the user's own words this turn, as ``grounding.py`` does for the title and the day: a
weekday list the message never named ("每周瑜伽" → every Mon Wed Fri), an interval it never
said (every 3 weeks for "every other week"), an end, a month day, or a zone with no zone word
("Europe/Berlin" for "和柏林团队开会"), or a tag the user never gave (CATEGORIES: "Work" for
明天开会), is a reason to *ask first*. Like every grounding rule
it can only add a question before a write; it never decides to write.

A part equal to what the pending command already holds is grounded by that earlier turn
(the user answering "直接创建" to a conflict does not restate "每周二四"). The rules are in
``docs/grounding.md``; ``RULES`` names each one so a mutation test can switch it off.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from agent.services.wording import fold
from agent.timesym.clarify import date_mentions
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.recurrence import WEEKDAYS, Recurrence, Weekday
from agent.timesym.resolve import resolve
from agent.timesym.sentence_words import ZONE_ABBREVIATIONS, ZONE_CITIES_EN, ZONE_CITIES_ZH
from agent.timesym.words import cn_to_int

# ---- vocabulary (data; the readers below only look words up) -----------------------------

WEEKDAY_ZH = {"一": "MO", "二": "TU", "三": "WE", "四": "TH", "五": "FR", "六": "SA", "日": "SU", "天": "SU"}
WEEKDAY_ZH.update({str(n): day for n, day in enumerate(WEEKDAYS, 1)})
WEEKDAY_EN = {
    "mon": "MO", "monday": "MO", "tue": "TU", "tues": "TU", "tuesday": "TU", "wed": "WE", "wednesday": "WE",
    "thu": "TH", "thur": "TH", "thurs": "TH", "thursday": "TH", "fri": "FR", "friday": "FR",
    "sat": "SA", "saturday": "SA", "sun": "SU", "sunday": "SU",
}  # fmt: skip
WORKDAY_WORDS = ("工作日", "周一到周五", "周一至周五", "星期一到星期五", "weekday", "monday to friday", "mon-fri")
WEEKEND_WORDS = ("周末", "weekend")
ORDINAL_ZH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
ORDINAL_EN = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5}
LAST_ZH = ("最后一个", "倒数第一个", "最后的")
LAST_EN = ("last", "final")
#: Words that say "every second …" without a number.
EVERY_OTHER = ("隔周", "隔天", "隔日", "隔月", "隔年", "双周", "every other", "biweekly", "bi-weekly", "fortnight")
NUMBER_EN = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
NUMBER_EN.update({"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6})
COUNT_UNITS_ZH = "次回节课期周天个月"
COUNT_UNITS_EN = ("times", "sessions", "occurrences", "classes", "lessons", "meetings", "weeks", "days", "months", "years")
END_WORDS = ("到", "至", "直到", "截止", "为止", "结束", "until", "till", "through", "thru", "ending", "ends", "up to")
LAST_DAY_WORDS = ("最后一天", "月底", "月末", "last day")
ZONE_SUFFIXES_ZH = ("时间", "时区")
ZONE_SUFFIXES_EN = ("time", "timezone", "time zone")

_ZH_DAY_LIST = re.compile(
    r"(?:周|星期|礼拜)([一二三四五六日天1-7](?:[、，,和及与跟至到]*(?:周|星期|礼拜)?[一二三四五六日天1-7])*)"
)
_ZH_ORDINAL = re.compile(r"(?:(倒数)?第([一二三四五1-5])个?|最后一个|最后的)(?:周|星期|礼拜)([一二三四五六日天1-7])")
_EN_DAY = re.compile(r"(?<![a-z])(" + "|".join(sorted(WEEKDAY_EN, key=len, reverse=True)) + r")s?(?![a-z])")
_EN_ORDINAL = re.compile(
    r"(?<![a-z])("
    + "|".join(list(ORDINAL_EN) + list(LAST_EN))
    + r")\s+("
    + "|".join(sorted(WEEKDAY_EN, key=len, reverse=True))
    + r")s?(?![a-z])"
)
# "second to last Friday", "second-last Friday", "penultimate Friday": counted from the end.
_EN_FROM_END = re.compile(
    r"(?<![a-z])(?:(second|2nd|third|3rd)[\s-]+(?:to[\s-]+)?last|(penultimate))\s+("
    + "|".join(sorted(WEEKDAY_EN, key=len, reverse=True))
    + r")s?(?![a-z])"
)
_EN_RANGE = re.compile(r"(?<![a-z])([a-z]{3,9})\s*(?:-|to|through|thru)\s*([a-z]{3,9})(?![a-z])")
_NUM = r"(\d{1,3}|[一二两三四五六七八九十]{1,3})"
_ZH_EVERY = re.compile(r"每(隔)?" + _NUM + r"个?(?:天|日|周|星期|礼拜|月|年)")
_EN_EVERY = re.compile(r"every\s+(\d{1,3}|[a-z]+)\s+(?:days?|weeks?|months?|years?)")
_ZH_COUNT = re.compile(_NUM + r"\s*[" + COUNT_UNITS_ZH + "]")
_EN_COUNT = re.compile(r"(\d{1,3}|[a-z]+)\s+(?:" + "|".join(COUNT_UNITS_EN) + r")(?![a-z])")
_MONTH_DAY = re.compile(r"(\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:号|日|st|nd|rd|th)")


def _number(text: str) -> int | None:
    return NUMBER_EN.get(text) or cn_to_int(text)


# ---- what the message says ------------------------------------------------------------------


def said_weekdays(text: str) -> set[Weekday]:
    """Every weekday the message names, with its ordinal when it has one ("每月第一个周一" →
    1MO; "last Friday" → -1FR; 倒数第二个周五 / "second to last Friday" → -2FR; "每周二四" →
    TU, TH; 工作日 → MO…FR)."""
    folded = fold(text)
    found: set[Weekday] = set()
    for match in _ZH_ORDINAL.finditer(folded):  # 倒数第二个周五 is -2FR
        ordinal = ORDINAL_ZH[match.group(2)] * (-1 if match.group(1) else 1) if match.group(2) else -1
        found.add(Weekday(WEEKDAY_ZH[match.group(3)], ordinal))
    for match in _EN_FROM_END.finditer(folded):
        found.add(Weekday(WEEKDAY_EN[match.group(3)], -2 if match.group(2) else -ORDINAL_EN[match.group(1)]))
    folded = _EN_FROM_END.sub(" ", folded)  # its "last Friday" is not the last Friday
    for match in _EN_ORDINAL.finditer(folded):
        ordinal = -1 if match.group(1) in LAST_EN else ORDINAL_EN[match.group(1)]
        found.add(Weekday(WEEKDAY_EN[match.group(2)], ordinal))
    plain = _EN_ORDINAL.sub(" ", _ZH_ORDINAL.sub(" ", folded))
    for match in _ZH_DAY_LIST.finditer(plain):
        run = match.group(1)
        days = [WEEKDAY_ZH[ch] for ch in run if ch in WEEKDAY_ZH]
        found.update(Weekday(day) for day in days)
        if re.search(r"[至到]", run) and len(days) == 2:
            found.update(Weekday(day) for day in _span(days[0], days[1]))
    for match in _EN_DAY.finditer(plain):
        found.add(Weekday(WEEKDAY_EN[match.group(1)]))
    for match in _EN_RANGE.finditer(plain):
        first, last = WEEKDAY_EN.get(match.group(1)), WEEKDAY_EN.get(match.group(2))
        if first and last:
            found.update(Weekday(day) for day in _span(first, last))
    if any(word in plain for word in WORKDAY_WORDS):
        found.update(Weekday(day) for day in WEEKDAYS[:5])
    if any(word in plain for word in WEEKEND_WORDS):
        found.update(Weekday(day) for day in WEEKDAYS[5:])
    return found


def _span(first: str, last: str) -> list[str]:
    a, b = WEEKDAYS.index(first), WEEKDAYS.index(last)
    return list(WEEKDAYS[a : b + 1]) if a <= b else []


def said_intervals(text: str) -> set[int]:
    """The intervals the message says: 2 for 隔周 / "every other" / 每隔一天, N for 每N周 /
    "every N weeks" / "every third month" and for 每隔N天 with N ≥ 2, as quick add reads it
    (每隔三天 is every 3 days, docs/quick-add.md: the one reading of the words)."""
    folded = fold(text)
    found = {2} if any(word in folded for word in EVERY_OTHER) else set()
    for match in _ZH_EVERY.finditer(folded):
        number = _number(match.group(2))
        if number:
            found.add(2 if match.group(1) and number == 1 else number)
    for match in _EN_EVERY.finditer(folded):
        number = int(match.group(1)) if match.group(1).isdigit() else _number(match.group(1))
        if number:
            found.add(number)
    for word, number in NUMBER_EN.items():
        if re.search(rf"every {word} (?:day|week|month|year)", folded):
            found.add(number)
    return found


def said_counts(text: str) -> set[int]:
    """Numbers the message gives with a count word (共10次, 10 times, for 8 weeks)."""
    folded = fold(text)
    found = {n for m in _ZH_COUNT.finditer(folded) if (n := _number(m.group(1)))}
    for match in _EN_COUNT.finditer(folded):
        number = int(match.group(1)) if match.group(1).isdigit() else _number(match.group(1))
        if number:
            found.add(number)
    return found


def said_month_days(text: str) -> set[int]:
    folded = fold(text)
    found = {n for m in _MONTH_DAY.finditer(folded) if (n := _number(m.group(1)))}
    if any(word in folded for word in LAST_DAY_WORDS):
        found.add(-1)
    return found


def zone_said(zone: str, text: str, when: date) -> bool:
    """Does the message name this zone: one of its abbreviations (CET, EST …), its city with
    a zone word ("Berlin time", 纽约时间), or UTC/GMT for a UTC zone? A city alone ("call
    with the Berlin team") does not say whose clock the time is on."""
    folded = fold(text)
    try:
        info = ZoneInfo(zone)
    except (ValueError, KeyError, OSError):
        return False
    names = set()
    for month in (1, 7, when.month):
        instant = datetime(when.year, month, 15, 12, tzinfo=info)
        names.add((instant.tzname() or "").casefold())
    names = {name for name in names if name.isalpha()}  # "+08" is not a word anyone types
    names |= {short for short, key in ZONE_ABBREVIATIONS.items() if key == zone}  # quick add's table: one list of zone words
    if any(re.search(rf"(?<![a-z]){re.escape(name)}(?![a-z])", folded) for name in names):
        return True
    if zone in ("UTC", "Etc/UTC", "GMT", "Etc/GMT") or zone.startswith("Etc/"):
        return bool(re.search(r"(?<![a-z])(utc|gmt)(?![a-z])", folded))
    cities = [zone.rsplit("/", 1)[-1].replace("_", " ").casefold()]
    cities += [city for city, key in ZONE_CITIES_EN.items() if key == zone]
    if any(re.search(rf"(?<![a-z]){re.escape(city)}\s*(?:{'|'.join(ZONE_SUFFIXES_EN)})(?![a-z])", folded) for city in cities):
        return True
    return any(f"{city}{suffix}" in folded for city, key in ZONE_CITIES_ZH.items() if key == zone for suffix in ZONE_SUFFIXES_ZH)


def until_day(symbol: str, ctx: TimeContext) -> date | None:
    """The last day an until symbol names (a month symbol: its last day)."""
    try:
        resolved = resolve(symbol, ctx)
    except SymbolError:
        return None
    if resolved.end is not None:
        return (resolved.end - timedelta(days=1)).date()
    return max(resolved.candidates) if resolved.candidates else None


# ---- the rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RepeatSlots:
    """What a create would write besides its title and day: the rule (None: no repeat), its
    end as the model gave it, and the zone."""

    rule: Recurrence | None = None
    count: int | None = None
    until: str | None = None
    zone: str | None = None
    tags: tuple[str, ...] = ()  # the event's tags (CATEGORIES), each in the user's words


def _days_rule(slots: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    days = slots.rule.weekdays if slots.rule is not None else ()
    said = said_weekdays(text)
    unsaid = [day for day in days if day not in said]
    return ["repeat_days:" + ",".join(day.to_ical() for day in unsaid)] if unsaid else []


def _interval_rule(slots: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    if slots.rule is None or slots.rule.interval == 1 or slots.rule.interval in said_intervals(text):
        return []
    return [f"repeat_interval:{slots.rule.interval}/{slots.rule.freq}"]


def _month_day_rule(slots: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    days = slots.rule.month_days if slots.rule is not None else ()
    said = said_month_days(text)
    unsaid = [str(day) for day in days if day not in said]
    return ["repeat_month_day:" + ",".join(unsaid)] if unsaid else []


def _end_rule(slots: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    if slots.count is not None and slots.count not in said_counts(text):
        return [f"repeat_count:{slots.count}"]
    if slots.until is None:
        return []
    last = until_day(slots.until, ctx)
    unsaid = [f"repeat_until:{last.isoformat() if last else slots.until}"]
    if not any(word in fold(text) for word in END_WORDS):
        return unsaid
    exact = {day for mention in date_mentions(text, ctx) if mention.exact for day in mention.days}
    return unsaid if exact and last is not None and last not in exact else []


def _zone_rule(slots: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    if not slots.zone or slots.zone == ctx.tz.key:
        return []  # the user's own zone changes no clock time
    return [] if zone_said(slots.zone, text, ctx.today) else [f"zone:{slots.zone}"]


def _tags_rule(slots: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    """Each tag is words of the message ("#health", "tag it work"): a tag the user never
    gave ("Work" for 明天开会) asks first, like any other part."""
    folded = fold(text)
    unsaid = [tag for tag in slots.tags if fold(tag.strip().lstrip("#")) not in folded]
    return ["tags:" + ",".join(unsaid)] if unsaid else []


Rule = Callable[[RepeatSlots, str, TimeContext], list[str]]
#: The rules, by name (a mutation test switches one off and sees a case written).
RULES: dict[str, Rule] = {
    "days": _days_rule,
    "interval": _interval_rule,
    "month_day": _month_day_rule,
    "end": _end_rule,
    "zone": _zone_rule,
    "tags": _tags_rule,
}
#: The reason kinds these rules give (the receipt explains each: ``runtime.why.<kind>``).
KINDS = ("repeat_days", "repeat_interval", "repeat_month_day", "repeat_count", "repeat_until", "zone", "tags")


def repeat_reasons(slots: RepeatSlots, pending: RepeatSlots, text: str, ctx: TimeContext) -> list[str]:
    """Reasons to ask before writing these repeat parts and zone (none: go on). ``pending``
    holds what the pending command already has: a part equal to it was grounded before."""
    if not text:
        return []
    same_rule = slots.rule is not None and pending.rule is not None and slots.rule == pending.rule
    asked = RepeatSlots(
        rule=None if same_rule else slots.rule,
        count=None if slots.count == pending.count else slots.count,
        until=None if slots.until == pending.until else slots.until,
        zone=None if slots.zone == pending.zone else slots.zone,
        tags=() if slots.tags == pending.tags else slots.tags,
    )
    return [reason for rule in RULES.values() for reason in rule(asked, text, ctx)]
