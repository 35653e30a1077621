"""Words a quick-add sentence carries besides the slot words of ``words.py``.

The quick-add parser (``sentence.py``) reads a whole sentence ("每周一上午十点在会议室A开周会，
提前十分钟提醒"), so it needs vocabulary a short clarification reply never has: repeats,
reminders, place markers, range separators, fixed-date festivals, lunar month and day names,
the default hour a bare period word stands for, and the words that look like dates but are
titles (下午茶, 双十一). Like ``words.py`` this module only holds data; nothing here matches
text, so a new word is one line here and the corpus in ``evals/quick_add.jsonl`` says whether
it helped.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from agent.timesym.words import CN_DIGITS, CN_TEN

# --------------------------------------------------------------------------
# Periods without an hour
# --------------------------------------------------------------------------

#: "明天下午开会" names a part of the day and no hour; quick add starts the event at this
#: hour (shown in the preview before Enter, so the user sees the convention and can type an
#: hour instead). The keys are ``words.Period.name`` values.
PERIOD_DEFAULT_HOUR: Final[Mapping[str, int]] = MappingProxyType(
    {"early": 6, "morning": 9, "noon": 12, "afternoon": 14, "evening": 19}
)
#: 傍晚 reads as an afternoon hour ("傍晚六点" = 18:00) but alone starts at 18:00.
PERIOD_WORD_DEFAULT_HOUR: Final[Mapping[str, int]] = MappingProxyType({"傍晚": 18})

# --------------------------------------------------------------------------
# Ranges
# --------------------------------------------------------------------------

RANGE_SEPARATORS_ZH: Final[tuple[str, ...]] = (
    "到", "至", "~", "-", "–", "—", "－", "～", "直到", "一直到", "截止到", "截止", "截至", "持续到",
)  # fmt: skip
#: A repeat's last day follows one of the range words and may be closed by one of these (到3月底为止).
UNTIL_CLOSE_ZH: Final[tuple[str, ...]] = ("为止", "结束", "截止")
RANGE_SEPARATORS_EN: Final[tuple[str, ...]] = ("to", "until", "till", "through", "thru", "-", "–", "—", "~")
#: English words that open a range or lead into a day or time and mean nothing on their own
#: once it is read ("from Dec 21 to Dec 27", "on Friday", "at 3pm"): they leave the title with it.
LEADS_EN: Final[tuple[str, ...]] = ("from", "on", "at", "by", "@", "starting", "this coming")
LEADS_ZH: Final[tuple[str, ...]] = ("在", "于", "从")

# --------------------------------------------------------------------------
# Days the holiday data does not hold
# --------------------------------------------------------------------------

#: Fixed-date festivals and their month-day: people schedule by them in both languages,
#: and the CN holiday data (which names days off) knows none of them.
FIXED_FESTIVALS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "圣诞节": (12, 25),
        "圣诞": (12, 25),
        "平安夜": (12, 24),
        "情人节": (2, 14),
        "万圣节": (10, 31),
        "妇女节": (3, 8),
        "三八节": (3, 8),
        "植树节": (3, 12),
        "愚人节": (4, 1),
        "青年节": (5, 4),
        "儿童节": (6, 1),
        "六一": (6, 1),
        "建军节": (8, 1),
        "教师节": (9, 10),
        "christmas day": (12, 25),
        "christmas": (12, 25),
        "xmas": (12, 25),
        "christmas eve": (12, 24),
        "valentine's day": (2, 14),
        "valentines day": (2, 14),
        "halloween": (10, 31),
        "new year's eve": (12, 31),
        "new years eve": (12, 31),
        "new year's day": (1, 1),
        "new years day": (1, 1),
    }
)
#: Festivals kept by the lunar calendar, as the ``L:MM-DD`` they fall on (除夕 is the day
#: before 春节 and has its own rule). 春节 is 正月初一 itself, not the first day off before it.
LUNAR_FESTIVALS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "春节": (1, 1),
        "农历新年": (1, 1),
        "大年初一": (1, 1),
        "过年": (1, 1),
        "元宵节": (1, 15),
        "元宵": (1, 15),
        "端午节": (5, 5),
        "端午": (5, 5),
        "七夕节": (7, 7),
        "七夕": (7, 7),
        "中元节": (7, 15),
        "中秋节": (8, 15),
        "中秋": (8, 15),
        "重阳节": (9, 9),
        "重阳": (9, 9),
        "腊八节": (12, 8),
        "腊八": (12, 8),
        "chinese new year": (1, 1),
        "lunar new year": (1, 1),
        "spring festival": (1, 1),
        "lantern festival": (1, 15),
        "dragon boat festival": (5, 5),
        "mid-autumn festival": (8, 15),
        "mid autumn festival": (8, 15),
        "moon festival": (8, 15),
    }
)
LUNAR_NEW_YEARS_EVE: Final[tuple[str, ...]] = ("除夕", "大年三十", "年三十", "chinese new year's eve", "lunar new year's eve")
#: 大年初X: the Xth day of the first lunar month.
LUNAR_NEW_YEAR_DAYS: Final[str] = "大年初"
#: Relative days beyond ``words.RELATIVE_DAYS``.
MORE_RELATIVE_DAYS: Final[Mapping[str, int]] = MappingProxyType(
    {
        "大大后天": 4,
        "大前天": -3,
        "本日": 0,
        "今儿个": 0,
        "明儿个": 1,
        "后儿": 2,
        "the day before yesterday": -2,
        "day before yesterday": -2,
        "the day after tomorrow": 2,
    }
)
#: Dated periods beyond ``words.DATED_PERIOD_WORDS``: (day offset, period word).
MORE_DATED_PERIODS: Final[Mapping[str, tuple[int, str]]] = MappingProxyType(
    {"当晚": (0, "晚上"), "今天晚上": (0, "晚上"), "明天晚上": (1, "晚上"), "明天早上": (1, "早上")}
)
#: Words for the present moment: quick add starts the event now ("现在开会").
NOW_WORDS: Final[tuple[str, ...]] = ("现在", "马上", "right now", "now")
#: Traditional characters a date or time word may be typed with, folded one for one.
TRADITIONAL: Final[Mapping[str, str]] = MappingProxyType(
    dict(
        zip(
            "個號點後週禮鐘時兩農曆節慶臘陰過會與開見這聖誕國陽",
            "个号点后周礼钟时两农历节庆腊阴过会与开见这圣诞国阳",
            strict=True,
        )
    )
)

#: Holiday names read from the sentence and resolved through ``H:``; the aliases of
#: ``holiday.py`` minus those that are also ordinary words in a sentence (十一 is eleven).
#: Each is the holiday's own day, not the first day off of its 调休 period ("劳动节" is 5月1日).
HOLIDAY_WORDS_ZH: Final[tuple[str, ...]] = ("元旦", "元旦节", "清明节", "清明")
HOLIDAY_DAYS_ZH: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "劳动节": (5, 1),
        "五一": (5, 1),
        "国庆节": (10, 1),
        "国庆": (10, 1),
        "national day": (10, 1),
        "labor day": (5, 1),
        "labour day": (5, 1),
    }
)
#: 十一 is 国庆 only as "十一假期" / "十一长假" / "十一黄金周".
NATIONAL_DAY_ELEVEN: Final[tuple[str, ...]] = ("十一假期", "十一长假", "十一黄金周", "十一期间")
HOLIDAY_WORDS_EN: Final[tuple[str, ...]] = ("qingming festival", "tomb-sweeping day")

# --------------------------------------------------------------------------
# 农历
# --------------------------------------------------------------------------

LUNAR_PREFIXES: Final[tuple[str, ...]] = ("农历", "阴历", "旧历")
#: 正月 … 腊月: the digit months (一月 … 十二月 read as 一 … 十二) and the three month names
#: only the lunar calendar has.
LUNAR_ONLY_MONTHS: Final[Mapping[str, int]] = MappingProxyType({"正": 1, "冬": 11, "腊": 12})
LUNAR_MONTHS: Final[Mapping[str, int]] = MappingProxyType(
    {
        **{digit: value for digit, value in CN_DIGITS.items() if 1 <= value <= 9 and digit != "两"},
        CN_TEN: 10,
        CN_TEN + "一": 11,
        CN_TEN + "二": 12,
        **LUNAR_ONLY_MONTHS,
    }
)
#: 初一..初十, then 十一..二十, 廿一..廿九, 三十.
LUNAR_DAY_PREFIXES: Final[Mapping[str, int]] = MappingProxyType({"初": 0, "廿": 20})

# --------------------------------------------------------------------------
# Repeats (the command layer's words: DAILY, WEEKDAYS, WEEKLY, BIWEEKLY, MONTHLY, YEARLY)
# --------------------------------------------------------------------------

EVERY_ZH: Final[tuple[str, ...]] = ("每个", "每")
DAILY_ZH: Final[tuple[str, ...]] = ("每天", "每日", "天天", "每一天")
WEEKDAYS_ZH: Final[tuple[str, ...]] = ("每个工作日", "每工作日", "工作日每天", "工作日")
WEEK_WORDS_ZH: Final[tuple[str, ...]] = ("星期", "礼拜", "周")
BIWEEKLY_ZH: Final[tuple[str, ...]] = ("每两周", "每隔一周", "隔周", "双周", "每两个星期", "每隔两周")
MONTH_WORDS_ZH: Final[tuple[str, ...]] = ("每个月", "每月")
YEAR_WORDS_ZH: Final[tuple[str, ...]] = ("每年", "每一年")
DAILY_EN: Final[tuple[str, ...]] = ("every day", "everyday", "each day", "daily")
WEEKDAYS_EN: Final[tuple[str, ...]] = ("every weekday", "each weekday", "on weekdays", "weekdays", "every workday")
WEEKLY_EN: Final[tuple[str, ...]] = ("every week", "each week", "weekly")
BIWEEKLY_EN: Final[tuple[str, ...]] = ("every other week", "every two weeks", "every 2 weeks", "biweekly", "fortnightly")
MONTHLY_EN: Final[tuple[str, ...]] = ("every month", "each month", "monthly")
YEARLY_EN: Final[tuple[str, ...]] = ("every year", "each year", "yearly", "annually")
EVERY_EN: Final[tuple[str, ...]] = ("every", "each")
EVERY_OTHER_EN: Final[tuple[str, ...]] = ("every other", "every second", "every 2nd")
#: "Weekly review", "Daily standup", "Monthly report": an English repeat adjective that opens
#: the sentence and runs straight into a word names the event; it is not a repeat.
ADJECTIVE_REPEATS_EN: Final[Mapping[str, str]] = MappingProxyType(
    {
        "daily": "DAILY",
        "weekly": "WEEKLY",
        "monthly": "MONTHLY",
        "yearly": "YEARLY",
        "annually": "YEARLY",
        "biweekly": "BIWEEKLY",
        "fortnightly": "BIWEEKLY",
    }
)

# --------------------------------------------------------------------------
# Reminders
# --------------------------------------------------------------------------

AHEAD_ZH: Final[tuple[str, ...]] = ("提前",)
UNIT_MINUTES_ZH: Final[Mapping[str, int]] = MappingProxyType(
    {"分钟": 1, "分": 1, "个小时": 60, "小时": 60, "个钟头": 60, "钟头": 60, "天": 1440, "日": 1440, "周": 10080}
)
HALF_HOUR_ZH: Final[tuple[str, ...]] = ("半小时", "半个小时", "半个钟头")
UNIT_MINUTES_EN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "minutes": 1,
        "minute": 1,
        "mins": 1,
        "min": 1,
        "m": 1,
        "hours": 60,
        "hour": 60,
        "hrs": 60,
        "hr": 60,
        "h": 60,
        "days": 1440,
        "day": 1440,
        "d": 1440,
        "weeks": 10080,
        "week": 10080,
    }
)
NUMBERS_EN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
        "forty-five": 45, "forty five": 45, "twenty-five": 25, "twenty five": 25, "ninety": 90,
    }
)  # fmt: skip
#: The hours "half past two" and "quarter to five" are said with.
HOURS_EN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "eleven": 11, "twelve": 12,
    }
)  # fmt: skip
#: The most a reminder may be ahead: four weeks, what the editor offers.
MAX_REMINDER_MINUTES: Final[int] = 4 * 10080

# --------------------------------------------------------------------------
# Places
# --------------------------------------------------------------------------

#: 在 is a place marker except inside these words (现在, 正在, 在线 ...).
NOT_PLACE_BEFORE_ZAI: Final[str] = "现正实存自所好还总"
NOT_PLACE_AFTER_ZAI: Final[tuple[str, ...]] = ("线", "内", "于", "乎", "意", "场的")
#: A Chinese place ends where one of these begins: a companion, a verb, a particle.
PLACE_STOPS_ZH: Final[tuple[str, ...]] = (
    "和",
    "跟",
    "与",
    "同",
    "陪",
    "给",
    "找",
    "见",
    "开",
    "吃",
    "喝",
    "参加",
    "讨论",
    "打",
    "看",
    "买",
    "办",
    "聊",
    "学",
    "练",
    "面试",
    "面谈",
    "拿",
    "取",
    "接",
    "送",
    "考",
    "上课",
    "上班",
    "加班",
    "值班",
    "做",
    "过",
    "玩",
    "逛",
    "聚",
    "约",
    "请",
    "碰头",
    "集合",
    "等",
    "办公",
    "健身",
    "跑步",
    "游泳",
    "唱",
    "录",
    "拍",
    "签",
    "交",
    "还",
    "修",
    "剪",
    "理发",
    "检查",
    "体检",
    "复查",
    "答辩",
    "汇报",
    "培训",
    "演讲",
    "举行",
    "举办",
    "召开",
    "进行",
    "有",
    "的",
    "，",
    ",",
    "。",
    " ",
)
MAX_PLACE_CHARS_ZH: Final[int] = 16
#: 和/同/与/跟 end a place ("在家和家人吃饭") unless a place word follows them (在协和医院).
COMPANION_STOPS_ZH: Final[tuple[str, ...]] = ("和", "跟", "与", "同")
PLACE_SUFFIXES_ZH: Final[tuple[str, ...]] = (
    "医院",
    "中心",
    "大厦",
    "大楼",
    "公园",
    "酒店",
    "宾馆",
    "饭店",
    "广场",
    "商场",
    "大学",
    "学校",
    "小学",
    "中学",
    "路",
    "街",
    "店",
    "馆",
    "楼",
    "堂",
    "园",
    "府",
    "院",
)
#: An English place ends before one of these words.
PLACE_STOPS_EN: Final[tuple[str, ...]] = ("with", "for", "to", "and", "about", "re", "on", "at", "in", "from", "until")
MAX_PLACE_WORDS_EN: Final[int] = 5

# --------------------------------------------------------------------------
# Titles
# --------------------------------------------------------------------------

#: Words that contain a day or time word but name the event: kept whole in the title.
TITLE_WORDS_ZH: Final[tuple[str, ...]] = (
    "下午茶",
    "早茶",
    "晚茶",
    "上午茶",
    "一点点",
    "双十一",
    "双十二",
    "五月天",
    "周年",
    "周报",
    "日报",
    "月报",
    "年报",
    "春晚",
    "晚上好",
    "早上好",
    "中午饭",
)
#: A name in quotes or book-title marks is a title even when it is a date word (看《后天》).
QUOTES: Final[Mapping[str, str]] = MappingProxyType({"《": "》", "“": "”", "「": "」", "『": "』", '"': '"', "〈": "〉"})
#: 3号楼, 2号线: a number before 号 and one of these is a name, not a day of the month.
NOT_DAY_AFTER_HAO: Final[tuple[str, ...]] = (
    "楼", "线", "门", "馆", "房", "床", "位", "桌", "厅", "窗", "机", "车", "店", "院", "铺", "柜", "台", "口", "码", "厂", "仓",
    "展", "会议室", "教室", "航站楼",
)  # fmt: skip
#: "the 7th grade", "5th floor", "21st birthday": an ordinal before one of these is not a day.
NOT_DAY_AFTER_ORDINAL: Final[tuple[str, ...]] = (
    "grade", "grader", "graders", "floor", "street", "st", "avenue", "ave", "birthday", "anniversary", "place", "edition",
    "round", "period", "class", "inning", "century", "row", "gate", "time",
)  # fmt: skip

#: Glue at a title's edges once the date and time words are out.
TITLE_EDGE_ZH: Final[tuple[str, ...]] = ("的", "在", "了", "吧", "于", "从", "，", ",", "。", "、", "：", ":", "-", "~")
TITLE_LEAD_ZH: Final[tuple[str, ...]] = ("需要", "要", "得")
TITLE_EDGE_EN: Final[tuple[str, ...]] = (
    "at",
    "on",
    "in",
    "from",
    "for",
    "by",
    "to",
    "the",
    "this",
    "next",
    "every",
    "each",
    "and",
    "of",
    "starting",
    "@",
    ",",
    "-",
    "–",
    ":",
)

# --------------------------------------------------------------------------
# Repeats in full (sentence_repeat.py): intervals, ordinals, ends
# --------------------------------------------------------------------------

#: 每两周, 每三个月: the unit after a number, as a frequency.
UNIT_FREQ_ZH: Final[Mapping[str, str]] = MappingProxyType(
    {"天": "DAILY", "日": "DAILY", "周": "WEEKLY", "星期": "WEEKLY", "礼拜": "WEEKLY", "月": "MONTHLY", "年": "YEARLY"}
)
UNIT_FREQ_EN: Final[Mapping[str, str]] = MappingProxyType(
    {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}
)
#: 每季度 (every three months), 每半年 (every six months).
MONTH_INTERVALS_ZH: Final[Mapping[str, int]] = MappingProxyType({"每季度": 3, "每个季度": 3, "每半年": 6})
MONTH_INTERVALS_EN: Final[Mapping[str, int]] = MappingProxyType({"every quarter": 3, "each quarter": 3})
#: first … fifth, last: the Nth weekday of a month.
ORDINALS_EN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
        "last": -1, "final": -1,
    }
)  # fmt: skip
ORDINALS_ZH: Final[Mapping[str, int]] = MappingProxyType(
    {"第一": 1, "第二": 2, "第三": 3, "第四": 4, "第五": 5, "第1": 1, "第2": 2, "第3": 3, "第4": 4, "第5": 5,
     "最后一": -1, "最后": -1, "倒数第一": -1, "倒数第二": -2, "倒数第三": -3}
)  # fmt: skip
#: Words that end a repeat after a number of times (共10次, 10 times).
COUNT_LEADS_ZH: Final[tuple[str, ...]] = ("共", "一共", "总共", "重复", "连续", "共计")
COUNT_NOUNS_EN: Final[tuple[str, ...]] = ("times", "occurrences", "sessions", "classes", "lessons", "meetings")
#: 为期三个月, "for 10 weeks": a span after the first day.
SPAN_LEADS_ZH: Final[tuple[str, ...]] = ("共", "一共", "为期", "连续", "持续")
SPAN_UNITS_ZH: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {"天": (1, 0), "周": (7, 0), "个星期": (7, 0), "星期": (7, 0), "个礼拜": (7, 0), "个月": (0, 1), "年": (0, 12)}
)
SPAN_UNITS_EN: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {"day": (1, 0), "days": (1, 0), "week": (7, 0), "weeks": (7, 0), "month": (0, 1), "months": (0, 1),
     "year": (0, 12), "years": (0, 12)}
)  # fmt: skip

# --------------------------------------------------------------------------
# Durations and meals
# --------------------------------------------------------------------------

DURATION_LEADS_ZH: Final[tuple[str, ...]] = (
    "持续", "为时", "时长", "历时", "共", "大概", "大约", "约", "差不多", "持续大概", "持续约", "大概要", "要",
)  # fmt: skip
DURATION_UNITS_ZH: Final[Mapping[str, int]] = MappingProxyType({"小时": 60, "钟头": 60, "分钟": 1})
DURATION_UNITS_EN: Final[Mapping[str, int]] = MappingProxyType(
    {"minutes": 1, "minute": 1, "mins": 1, "min": 1, "hours": 60, "hour": 60, "hrs": 60, "hr": 60, "h": 60}
)
#: The longest an event may be said to last (a duration beyond is not one: "for 30 days").
MAX_DURATION_MINUTES: Final[int] = 24 * 60
#: A bare hour next to a meal is that meal's: dinner at 7 is 19:00, breakfast at 6 is 06:00.
#: Lunch needs no word: the bare-hour rule already reads 11 and 1 as lunch hours.
#: "every morning", 每天早上 say a daily repeat and a period at once.
EVERY_PERIOD_EN: Final[tuple[str, ...]] = ("morning", "afternoon", "evening", "night")
EVENING_MEALS: Final[tuple[str, ...]] = ("dinner", "supper", "晚饭", "晚餐", "夜宵", "宵夜")
MORNING_MEALS: Final[tuple[str, ...]] = ("breakfast", "早饭", "早餐", "早点")

# --------------------------------------------------------------------------
# Time zones said in a sentence
# --------------------------------------------------------------------------

#: Abbreviations, read only right beside a clock time ("4pm CET"): a summer one names the
#: same zone as its winter one (the zone's rules decide the offset on the day).
ZONE_ABBREVIATIONS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "cet": "Europe/Berlin", "cest": "Europe/Berlin",
        "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles", "pt": "America/Los_Angeles",
        "est": "America/New_York", "edt": "America/New_York", "et": "America/New_York",
        "cdt": "America/Chicago", "ct": "America/Chicago",
        "mst": "America/Denver", "mdt": "America/Denver",
        "gmt": "Europe/London", "bst": "Europe/London", "utc": "UTC",
        "jst": "Asia/Tokyo", "kst": "Asia/Seoul", "ist": "Asia/Kolkata", "sgt": "Asia/Singapore",
        "hkt": "Asia/Hong_Kong", "aest": "Australia/Sydney", "aedt": "Australia/Sydney",
    }
)  # fmt: skip
#: Cities people name a zone by ("9am New York time", 纽约时间上午9点).
ZONE_CITIES_EN: Final[Mapping[str, str]] = MappingProxyType(
    {
        "new york": "America/New_York", "nyc": "America/New_York", "ny": "America/New_York",
        "boston": "America/New_York", "washington": "America/New_York", "toronto": "America/Toronto",
        "chicago": "America/Chicago", "denver": "America/Denver",
        "los angeles": "America/Los_Angeles", "la": "America/Los_Angeles", "san francisco": "America/Los_Angeles",
        "sf": "America/Los_Angeles", "seattle": "America/Los_Angeles", "vancouver": "America/Vancouver",
        "pacific": "America/Los_Angeles", "eastern": "America/New_York", "central": "America/Chicago",
        "london": "Europe/London", "uk": "Europe/London", "berlin": "Europe/Berlin", "paris": "Europe/Paris",
        "amsterdam": "Europe/Amsterdam", "madrid": "Europe/Madrid", "rome": "Europe/Rome", "munich": "Europe/Berlin",
        "frankfurt": "Europe/Berlin", "zurich": "Europe/Zurich", "moscow": "Europe/Moscow", "dubai": "Asia/Dubai",
        "tokyo": "Asia/Tokyo", "japan": "Asia/Tokyo", "seoul": "Asia/Seoul", "singapore": "Asia/Singapore",
        "hong kong": "Asia/Hong_Kong", "beijing": "Asia/Shanghai", "shanghai": "Asia/Shanghai",
        "china": "Asia/Shanghai", "taipei": "Asia/Taipei", "sydney": "Australia/Sydney",
        "melbourne": "Australia/Melbourne", "india": "Asia/Kolkata", "utc": "UTC", "berlin local": "Europe/Berlin",
    }
)  # fmt: skip
ZONE_CITIES_ZH: Final[Mapping[str, str]] = MappingProxyType(
    {
        "纽约": "America/New_York", "美东": "America/New_York", "美国东部": "America/New_York",
        "波士顿": "America/New_York", "华盛顿": "America/New_York", "多伦多": "America/Toronto",
        "芝加哥": "America/Chicago", "洛杉矶": "America/Los_Angeles", "旧金山": "America/Los_Angeles",
        "西雅图": "America/Los_Angeles", "美西": "America/Los_Angeles", "美国西部": "America/Los_Angeles",
        "温哥华": "America/Vancouver", "伦敦": "Europe/London", "英国": "Europe/London", "柏林": "Europe/Berlin",
        "德国": "Europe/Berlin", "巴黎": "Europe/Paris", "法国": "Europe/Paris", "阿姆斯特丹": "Europe/Amsterdam",
        "莫斯科": "Europe/Moscow", "迪拜": "Asia/Dubai", "东京": "Asia/Tokyo", "日本": "Asia/Tokyo",
        "首尔": "Asia/Seoul", "韩国": "Asia/Seoul", "新加坡": "Asia/Singapore", "香港": "Asia/Hong_Kong",
        "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "台北": "Asia/Taipei", "悉尼": "Australia/Sydney",
        "墨尔本": "Australia/Melbourne", "印度": "Asia/Kolkata", "欧洲中部": "Europe/Berlin", "格林尼治": "Europe/London",
        "太平洋": "America/Los_Angeles", "美国太平洋": "America/Los_Angeles",
        "东部": "America/New_York", "中欧": "Europe/Berlin", "欧洲": "Europe/Berlin",
    }
)  # fmt: skip
