"""Messages of a repeat rule in words (codes ``recurrence.*``); see catalogue.py.

``agent/timesym/recurrence_words.py`` builds one summary from these pieces for the editor,
the event card, the agenda, the chat's receipt and the quick-add preview, so all of them
say the same words. The two languages build the sentence differently (每周一、三、五 puts
the days straight after 周, "Every Mon, Wed, Fri" does not; 每两周的周二 counts with 两),
so a form is a whole pattern per language and a choice of form is a choice of code:
``weekly_on`` for every week, ``weeks_on`` for every N weeks.
"""

from __future__ import annotations

from agent.messages.message import Message

_DAYS = (("一", "Mon"), ("二", "Tue"), ("三", "Wed"), ("四", "Thu"), ("五", "Fri"), ("六", "Sat"), ("日", "Sun"))
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ORDINALS = {
    "1": ("第一个", "first"),
    "2": ("第二个", "second"),
    "3": ("第三个", "third"),
    "4": ("第四个", "fourth"),
    "5": ("第五个", "fifth"),
    "-1": ("最后一个", "last"),
    "-2": ("倒数第二个", "second-to-last"),
}
_NUMBERS = ("两", "三", "四", "五", "六", "七", "八", "九", "十")  # 2 … 10

MESSAGES: dict[str, Message] = {
    # ---- pieces ----------------------------------------------------------------------------
    # a weekday in a list ("每周一、三" / "Every Mon, Wed"), and named alone ("第二个周二" / "second Tuesday")
    **{f"recurrence.day.{n}": Message(zh=zh, en=en) for n, (zh, en) in enumerate(_DAYS)},
    **{f"recurrence.day_name.{n}": Message(zh="周" + zh, en=_DAY_NAMES[n]) for n, (zh, _) in enumerate(_DAYS)},
    **{f"recurrence.ordinal.{key}": Message(zh=zh, en=en) for key, (zh, en) in _ORDINALS.items()},
    # an interval: 每两周 / Every 2 weeks (above ten both write digits: recurrence.n)
    **{f"recurrence.n.{n}": Message(zh=zh, en=str(n)) for n, zh in enumerate(_NUMBERS, start=2)},
    "recurrence.n": Message(zh=" {n} ", en="{n}"),
    "recurrence.list_sep": Message(zh="、", en=", "),
    # a day of the month by its English suffix (the Chinese is the same for all four)
    "recurrence.month_day.st": Message(zh="{d}日", en="{d}st"),
    "recurrence.month_day.nd": Message(zh="{d}日", en="{d}nd"),
    "recurrence.month_day.rd": Message(zh="{d}日", en="{d}rd"),
    "recurrence.month_day.th": Message(zh="{d}日", en="{d}th"),
    "recurrence.last_day": Message(zh="最后一天", en="last day"),
    "recurrence.nth_weekday": Message(zh="{nth}{weekday}", en="{nth} {weekday}"),
    "recurrence.nth_workday": Message(zh="{nth}工作日", en="{nth} weekday"),
    # ``date`` a datetime.date: its month and day; ``month`` a date in the month named
    "recurrence.year_day": Message(zh="{date.month}月{date.day}日", en="{date:%B} {date.day}"),
    "recurrence.year_nth": Message(zh="{month.month}月{nth}{weekday}", en="the {nth} {weekday} of {month:%B}"),
    # ---- whole patterns ---------------------------------------------------------------------
    "recurrence.daily": Message(zh="每天", en="Daily"),
    "recurrence.days": Message(zh="每{n}天", en="Every {n} days"),
    "recurrence.weekly": Message(zh="每周", en="Weekly"),
    "recurrence.workdays": Message(zh="每个工作日", en="Every weekday"),
    "recurrence.weekly_on": Message(zh="每周{days}", en="Every {days}"),
    "recurrence.weeks_on": Message(zh="每{n}周的周{days}", en="Every {n} weeks on {days}"),
    "recurrence.monthly": Message(zh="每月", en="Monthly"),
    "recurrence.monthly_on": Message(zh="每月{on}", en="Monthly on the {on}"),
    "recurrence.months_on": Message(zh="每{n}个月的{on}", en="Every {n} months on the {on}"),
    "recurrence.yearly": Message(zh="每年", en="Annually"),
    "recurrence.yearly_on": Message(zh="每年{on}", en="Annually on {on}"),
    "recurrence.years_on": Message(zh="每{n}年的{on}", en="Every {n} years on {on}"),
    "recurrence.lunar": Message(zh="每年农历{lunar}", en="Annually on lunar {lunar}"),
    "recurrence.lunar_plain": Message(zh="每年（按农历）", en="Annually by the lunar calendar"),
    "recurrence.custom": Message(zh="自定义重复", en="Custom repeat"),
    # ---- the end ------------------------------------------------------------------------------
    "recurrence.times": Message(zh="{pattern}，共 {count} 次", en="{pattern}, {count} times"),
    "recurrence.once": Message(zh="{pattern}，仅一次", en="{pattern}, once"),
    "recurrence.until": Message(
        zh="{pattern}，直到 {until.year}年{until.month}月{until.day}日",
        en="{pattern}, until {until:%b} {until.day}, {until.year}",
    ),
    # ---- the editor's monthly choices ("on the second Tuesday" / "每月第二个周二") -------------------
    "recurrence.on_day": Message(zh="每月{on}", en="on the {on}"),
}
