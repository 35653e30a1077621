"""A repeat rule in words: "Every 2 weeks on Tue and Thu, 10 times" / "每两周的周二和周四，共 10 次".

The editor shows it under the repeat fields, the event card and the agenda under the
event. It is a function of the spec and a language ("zh" or "en", the interface's:
``app.i18n.ui_lang``) rather than ``tr()`` strings because the two languages build the
sentence differently: Chinese counts with 两/三 (每两周, not 每 2 周), joins days with 、
and 和 and puts "的" between the period and the days; English pluralises and says "the
second Tuesday". Both tables are here, side by side, so one cannot grow a form the other
lacks (the tests read every form in both).

``SeriesSummaries`` is the calendar's reader: the summary of an occurrence's series, read
from the stored master once per UID until the store changes.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from agent.store.occurrence import Occurrence
from app.calendar.recurrence import WEEKDAYS, RecurrenceSpec, component_spec
from app.context import AppContext
from app.i18n import ui_lang

EN_DAYS = dict(zip(WEEKDAYS, ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), strict=True))
EN_DAY_NAMES = dict(zip(WEEKDAYS, ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"), strict=True))
EN_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
EN_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"}
EN_PERIODS = {  # interval 1, then the unit's singular and plural
    "daily": ("Daily", "day", "days"),
    "weekly": ("Weekly", "week", "weeks"),
    "monthly": ("Monthly", "month", "months"),
    "yearly": ("Annually", "year", "years"),
}
ZH_DAYS = dict(zip(WEEKDAYS, ("周一", "周二", "周三", "周四", "周五", "周六", "周日"), strict=True))
ZH_ORDINALS = {1: "第一个", 2: "第二个", 3: "第三个", 4: "第四个", -1: "最后一个"}
ZH_NUMBERS = ("", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")
ZH_PERIODS = {"daily": ("每天", "天"), "weekly": ("每周", "周"), "monthly": ("每月", "个月"), "yearly": ("每年", "年")}
WORKWEEK = WEEKDAYS[:5]


def repeat_summary(spec: RecurrenceSpec, lang: str, start: date | None = None) -> str:
    """The rule in words ("" for none); ``start`` (the first day) names the day a weekly
    rule without weekdays, a monthly or a yearly one falls on."""
    if spec.kind == "none":
        return ""
    zh = lang == "zh"
    if spec.kind == "custom":
        return "自定义重复" if zh else "Custom repeat"
    if spec.kind == "lunar":
        head = "每年（按农历）" if zh else "Annually by the lunar calendar"
    else:
        head = _zh_head(spec, start) if zh else _en_head(spec, start)
    return head + (_zh_end(spec) if zh else _en_end(spec))


def _days(spec: RecurrenceSpec, start: date | None) -> tuple[str, ...]:
    if spec.weekdays:
        return spec.weekdays
    return (WEEKDAYS[start.weekday()],) if start is not None else ()


def _en_head(spec: RecurrenceSpec, start: date | None) -> str:
    every, one, many = EN_PERIODS[spec.kind]
    period = every if spec.interval == 1 else f"Every {spec.interval} {many}"
    if spec.kind == "daily":
        return period if spec.interval > 1 else "Daily"
    if spec.kind == "weekly":
        days = _days(spec, start)
        if spec.interval == 1 and days == WORKWEEK:
            return "Every weekday"
        return f"{period} on {_en_join([EN_DAYS[day] for day in days])}" if days else period
    if spec.kind == "monthly":
        if spec.nth is not None and spec.weekdays:
            return f"{period} on the {EN_ORDINALS[spec.nth]} {EN_DAY_NAMES[spec.weekdays[0]]}"
        if spec.month_day == -1:
            return f"{period} on the last day"
        return f"{period} on day {start.day}" if start is not None else period
    return f"{period} on {EN_MONTHS[start.month - 1]} {start.day}" if start is not None else period


def _en_join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _en_end(spec: RecurrenceSpec) -> str:
    if spec.count:
        return ", once" if spec.count == 1 else f", {spec.count} times"
    if spec.until is not None:
        return f", until {EN_MONTHS[spec.until.month - 1][:3]} {spec.until.day}, {spec.until.year}"
    return ""


def _zh_number(value: int) -> str:
    return ZH_NUMBERS[value] if value < len(ZH_NUMBERS) else f" {value} "


def _zh_head(spec: RecurrenceSpec, start: date | None) -> str:
    every, unit = ZH_PERIODS[spec.kind]
    period = every if spec.interval == 1 else f"每{_zh_number(spec.interval)}{unit}"
    if spec.kind == "daily":
        return period
    if spec.kind == "weekly":
        days = _days(spec, start)
        if spec.interval == 1 and days == WORKWEEK:
            return "每个工作日"
        return f"{period}的{_zh_join([ZH_DAYS[day] for day in days])}" if days else period
    if spec.kind == "monthly":
        if spec.nth is not None and spec.weekdays:
            return f"{period}的{ZH_ORDINALS[spec.nth]}{ZH_DAYS[spec.weekdays[0]]}"
        if spec.month_day == -1:
            return f"{period}的最后一天"
        return f"{period}的 {start.day} 日" if start is not None else period
    return f"{period}的 {start.month} 月 {start.day} 日" if start is not None else period


def _zh_join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else "、".join(words[:-1]) + "和" + words[-1]


def _zh_end(spec: RecurrenceSpec) -> str:
    if spec.count:
        return f"，共 {spec.count} 次"
    if spec.until is not None:
        return f"，直到 {spec.until.year}年{spec.until.month}月{spec.until.day}日"
    return ""


def monthly_choice(spec: RecurrenceSpec, lang: str, start: date) -> str:
    """The editor's words for one monthly form ("on the second Tuesday" / "第二个周二")."""
    zh = lang == "zh"
    if spec.nth is not None and spec.weekdays:
        day = spec.weekdays[0]
        return f"{ZH_ORDINALS[spec.nth]}{ZH_DAYS[day]}" if zh else f"on the {EN_ORDINALS[spec.nth]} {EN_DAY_NAMES[day]}"
    if spec.month_day == -1:
        return "最后一天" if zh else "on the last day"
    return f"{start.day} 日" if zh else f"on day {start.day}"


class SeriesSummaries:
    """Summaries of the series the calendar shows, one master read per UID.

    ``CalendarArea`` clears it when the store changes (the same moment its event cache
    goes), so a summary is never older than the rule it describes.
    """

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._texts: dict[str, str] = {}

    def clear(self) -> None:
        self._texts.clear()

    def text(self, occ: Occurrence) -> str:
        """The repeat summary of ``occ``'s series ("" for a single event)."""
        if occ.recurrence_id is None:
            return ""
        if occ.uid not in self._texts:
            master = self.ctx.ops.edits.component(occ.uid)
            if master is None or master.get("DTSTART") is None:
                self._texts[occ.uid] = ""
            else:
                start = master.decoded("DTSTART")
                spec = component_spec(master, ZoneInfo(occ.tzid) if occ.tzid else None)
                first = start.date() if isinstance(start, datetime) else start
                self._texts[occ.uid] = repeat_summary(spec, ui_lang(), first)
        return self._texts[occ.uid]
