"""Messages of agent/services (codes ``services.*``); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # settings.py
    "services.unknown_zone": Message(
        "未知时区 {name!r}（应为 IANA 时区名，如 'Asia/Shanghai'）",
        "unknown time zone {name!r} (expected an IANA name such as 'Asia/Shanghai')",
    ),
    "services.unknown_setting": Message("未知设置项 '{key}'", "unknown setting '{key}'"),
    # text.py: one code per thing named, so each language says it its own way
    "services.calendar_name_not_utf8": Message("日历名称不是有效的 UTF-8 文本", "a calendar name is not valid UTF-8 text"),
    "services.calendar_name_nul": Message("日历名称含有 NUL 字符", "a calendar name contains a NUL character"),
    "services.calendar_name_too_long": Message(
        "日历名称最多 {limit} 个字符（这个有 {length} 个）",
        "a calendar name is at most {limit} characters (this one has {length})",
    ),
    "services.event_title_not_utf8": Message("事件标题不是有效的 UTF-8 文本", "an event title is not valid UTF-8 text"),
    "services.event_title_nul": Message("事件标题含有 NUL 字符", "an event title contains a NUL character"),
    "services.event_title_too_long": Message(
        "事件标题最多 {limit} 个字符（这个有 {length} 个）",
        "an event title is at most {limit} characters (this one has {length})",
    ),
    # queries.py
    "services.duration_range": Message("durationMinutes 须在 5 到 1440 之间", "durationMinutes must be between 5 and 1440"),
    # chat_edits.py: read by the model, which fixes its call
    "services.end_or_duration": Message(
        "newEndTime 和 durationMinutes 只能给一个", "give newEndTime or durationMinutes, not both"
    ),
    "services.edit_no_calendar": Message(
        "没有名为 '{name}' 的日历；现有日历：{calendars}",
        "there is no calendar named '{name}'; calendars: {calendars}",
    ),
    "services.edit_nothing": Message(
        "没有要改的内容：至少给出一个新值（newDate、newTime、newTitle 等）",
        "nothing to change: give at least one new value (newDate, newTime, newTitle, ...)",
    ),
    "services.edit_which": Message(
        "请指明是哪个事件：targetTitle（用户对它的说法）或 targetDate",
        "say which event: targetTitle (the user's words for it) or targetDate",
    ),
    "services.all_day_needs_time": Message(
        "全天事件要先有开始时间（newTime），才能设结束时间",
        "an all-day event needs a start time (newTime) before it can get an end time",
    ),
    "services.end_not_after_start": Message(
        "newEndTime {end} 不晚于开始时间 {start}", "newEndTime {end} is not after the start {start}"
    ),
    # editing.py
    "services.end_before_start": Message("事件的结束时间必须晚于开始时间", "an event must end after it starts"),
    "services.no_event_uid": Message("没有 UID 为 {uid} 的事件", "no event with UID {uid}"),
    "services.no_profile_calendar": Message("此档案中没有这个日历", "that calendar does not exist in this profile"),
    # memory.py
    "services.memory_empty": Message("没有可记住的内容：内容为空", "nothing to remember: the fact is empty"),
    "services.memory_too_long": Message("一条记忆最多 {limit} 个字符", "a memory is at most {limit} characters"),
    "services.no_memory": Message("没有 id 为 {id} 的记忆", "no memory with id {id}"),
    # calendars.py
    "services.no_calendar": Message(
        "没有名为 '{name}' 的日历；现有日历：{calendars}", "no calendar named '{name}'; calendars: {calendars}"
    ),
    "services.no_calendar_id": Message("没有 id 为 {id} 的日历", "no calendar with id {id}"),
    "services.calendar_needs_name": Message("日历需要一个名称", "a calendar needs a name"),
    "services.bad_colour": Message("颜色应形如 #RRGGBB，而不是 '{color}'", "colour must look like #RRGGBB, not '{color}'"),
    "services.calendar_exists": Message("名为 '{name}' 的日历已存在", "a calendar named '{name}' already exists"),
    "services.last_calendar": Message("不能删除最后一个日历", "the last calendar cannot be deleted"),
    "services.calendar_exists_again": Message(
        "又有了名为 '{name}' 的日历；请先给它改名，再恢复被删除的那个",
        "a calendar named '{name}' exists again; rename it to restore the deleted one",
    ),
    # archive.py
    "services.bad_role": Message("role 必须是以下之一：{roles}", "role must be one of {roles}"),
    # symbol errors (SymbolError, read by the model that fixes its call): repeat.py
    "services.repeat_choice": Message("repeat 必须是以下之一：{choices}", "repeat must be one of {choices}"),
    "services.until_or_count": Message("repeatUntil 和 repeatCount 只能给一个", "give repeatUntil or repeatCount, not both"),
    "services.until_not_day": Message("repeatUntil '{symbol}' 不是一天", "repeatUntil '{symbol}' is not a day"),
    "services.until_before_first": Message(
        "repeatUntil {last} 早于第一天 {first}", "repeatUntil {last} is before the first day {first}"
    ),
    "services.no_lunar_date": Message("给出的范围内没有这个农历日期", "no lunar date in the range given"),
    # targets.py, commands.py, chat_edits.py
    "services.target_is_time": Message(
        "'{symbol}' 是时间；targetDate 需要日期符号，如 D+1",
        "'{symbol}' is a time; targetDate needs a date symbol such as D+1",
    ),
    "services.target_not_day": Message("'{symbol}' 没有指明哪一天", "'{symbol}' does not name a day"),
    "services.target_too_wide": Message(
        "'{symbol}' 跨越超过 {days} 天；请指明哪一天",
        "'{symbol}' covers more than {days} days; name the day",
    ),
    "services.date_is_time": Message(
        "'{symbol}' 是时间；dateExpression 需要日期符号，如 D+1 或 W3",
        "'{symbol}' is a time; dateExpression needs a date symbol such as D+1 or W3",
    ),
    "services.new_date_one_day": Message("newDate 必须指明一天（D+2、W5、12-20）", "newDate must name one day (D+2, W5, 12-20)"),
    "services.edit.changed_meanwhile_all": Message("这些日程刚刚被改过", "those events changed meanwhile"),
    "services.edit.no_such_option": Message("没有这个选项", "no such option"),
    "services.edit.not_invitation": Message(
        "“{title}”不是给你的邀请（组织者是你自己，或你的邮箱地址不在参与者中），没有可以答复的",
        "“{title}” is not an invitation to you (you organise it, or none of your addresses is among its attendees);"
        " there is nothing to answer",
    ),
    "services.edit.changed_meanwhile": Message("这个日程刚刚被改过", "that event changed meanwhile"),
    "services.edit.allday_series_time": Message(
        "全天的重复日程只能一次给一次加上时间（范围：仅此一次）",
        "an all-day series gets a time one instance at a time (scope this)",
    ),
    "services.edit.series_calendar": Message(
        "重复日程只能整个系列一起换日历（范围：全部）", "a repeating event changes calendar as a whole series (scope all)"
    ),
    "services.edit.not_saved": Message("改动没能保存：{reason}", "the change could not be saved: {reason}"),
}
