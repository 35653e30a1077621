"""Messages of agent/timesym (codes ``timesym.*``); see catalogue.py.

A model reads these too (a tool's error), and fixes its symbol from them: the English is
the grammar's own wording. ``timesym.valid_forms`` is appended to the errors built with
``SymbolError.invalid``.
"""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # sentence.py: quick add (a day or time word it could not place is never guessed)
    "timesym.quick_unread": Message(
        "这些日期或时间词没有读懂：{words}（请改写后再添加）",
        "could not read these day or time words: {words} (reword them to add the event)",
    ),
    # app/quick_text.py and richeng quick: an event pinned to a zone the sentence named
    "timesym.quick_zone": Message("{there}（{label}）= 本地 {here}", "{there} {label} = {here} here"),
    "timesym.quick_lasts": Message("{minutes} 分钟", "{minutes} min"),
    # pretend_now.read_now: the CLI's and the app's --now
    "timesym.bad_now": Message(
        "--now 须为 ISO 8601 日期时间，如 2026-09-01T09:30+08:00，而不是 '{value}'",
        "--now must be an ISO 8601 date-time such as 2026-09-01T09:30+08:00, not '{value}'",
    ),
    "timesym.now_problem": Message("--now 不可用：{problem}", "--now {problem}"),
    "timesym.valid_forms": Message(
        "有效的日期符号：D+n、D-n、Wd、Wd+k、Wd-k、WE、WE+k、YYYY-MM-DD、MM-DD、M+n、M-n、YYYY-MM、H:name、L:MM-DD；"
        "时间 HH:MM；时刻 <单日符号>THH:MM（如 D+1T15:00）。",
        "Valid date symbols: D+n, D-n, Wd, Wd+k, Wd-k, WE, WE+k, YYYY-MM-DD, MM-DD, "
        "M+n, M-n, YYYY-MM, H:name, L:MM-DD; times HH:MM; instants <single-day symbol>THH:MM "
        "(e.g. D+1T15:00).",
    ),
    # what is wrong with the symbol itself (resolve._diagnose)
    "timesym.empty": Message("符号是空的。", "The symbol is empty."),
    "timesym.bad_weekday": Message(
        "{symbol!r} 不是有效的星期符号：d 须为 1..7（周一=1）。",
        "{symbol!r} is not a valid weekday symbol: d must be 1..7 (Monday=1).",
    ),
    "timesym.needs_sign": Message(
        "{symbol!r} 格式不对：偏移量需要明确的正负号，如 D+1、W3+1、WE+1。",
        "{symbol!r} is malformed: offsets need an explicit sign, e.g. D+1, W3+1, WE+1.",
    ),
    "timesym.offset_too_large": Message(
        "{symbol!r}：偏移量太大（D 最多 4 位，W/WE/M 最多 3 位）。",
        "{symbol!r}: the offset is too large (D up to 4 digits, W/WE/M up to 3).",
    ),
    "timesym.bad_time": Message(
        "{symbol!r} 不是有效的时间：请用 24 小时制的 00:00..23:59（不允许 24:00）。",
        "{symbol!r} is not a valid time: use 00:00..23:59 on a 24-hour clock (24:00 is not allowed).",
    ),
    "timesym.time_digits": Message(
        "{symbol!r}：时间请写成 HH:MM，各两位数字，如 {hour:02d}:{minute:02d}。",
        "{symbol!r}: write times as HH:MM with two digits each, e.g. {hour:02d}:{minute:02d}.",
    ),
    "timesym.bad_date": Message(
        "{symbol!r} 不是有效的日期：月份用两位数 01..12，日用 01..31（YYYY-MM-DD、MM-DD、YYYY-MM）。",
        "{symbol!r} is not a valid date: use two-digit months 01..12 and days 01..31 (YYYY-MM-DD, MM-DD, YYYY-MM).",
    ),
    "timesym.bad_lunar": Message(
        "{symbol!r} 不是有效的农历符号：请用 L:MM-DD，月 01..12，日 01..30。",
        "{symbol!r} is not a valid lunar symbol: use L:MM-DD with month 01..12 and day 01..30.",
    ),
    "timesym.holiday_name_missing": Message(
        "{symbol!r}：请在 'H:' 后紧接节日名，如 H:国庆。", "{symbol!r}: write a holiday name right after 'H:', e.g. H:国庆."
    ),
    "timesym.bad_instant": Message(
        "{symbol!r} 不是有效的时刻：请写 <单日符号>THH:MM，如 D+1T15:00；只有 D±n、Wd、Wd±k、YYYY-MM-DD、MM-DD 和 "
        "L:MM-DD 可以带时间。",
        "{symbol!r} is not a valid instant: write <single-day symbol>THH:MM, e.g. D+1T15:00; "
        "only D±n, Wd, Wd±k, YYYY-MM-DD, MM-DD and L:MM-DD can take a time.",
    ),
    "timesym.a_word": Message(
        "{symbol!r} 是词语，不是符号：今天用 D+0，明天用 D+1，昨天用 D-1。",
        "{symbol!r} is a word, not a symbol: use D+0 for today, D+1 for tomorrow, D-1 for yesterday.",
    ),
    "timesym.unknown": Message("{symbol!r} 不是有效的时间符号。", "{symbol!r} is not a valid time symbol."),
    "timesym.not_a_string": Message("需要符号字符串，收到的是 {type}。", "Expected a symbol string, got {type}."),
    # a well-formed symbol that names no usable day (resolve.py, lunar.py)
    "timesym.not_a_day": Message(
        "{symbol!r} 不是真实存在的日子（{month} 月没有 {day} 日）。",
        "{symbol!r} is not a real calendar day (month {month} has no day {day}).",
    ),
    "timesym.not_a_date": Message(
        "{symbol!r} 不是真实存在的日期（{year}-{month:02d} 没有 {day} 日）。",
        "{symbol!r} is not a real calendar date ({year}-{month:02d} has no day {day}).",
    ),
    "timesym.year_out_of_range": Message("{symbol!r}：年份 {year} 超出范围。", "{symbol!r}: year {year} is out of range."),
    "timesym.outside_range": Message("{symbol!r} 超出支持的日期范围。", "{symbol!r} falls outside the supported date range."),
    "timesym.outside_accepted": Message(
        "{symbol!r} 解析为 {day}，超出 Richeng 接受的日期（{earliest} 至 {latest}，往后 {years} 年）；请检查年份。",
        "{symbol!r} resolves to {day}, outside the dates Richeng accepts ({earliest} to {latest}, "
        "{years} years ahead); check the year.",
    ),
    "timesym.needs_date": Message(
        "{symbol!r} 是 {kind}，但这里需要日期符号（整天）。",
        "{symbol!r} is a {kind}, but a date symbol (whole days) is required here.",
    ),
    "timesym.bare_time_in_range": Message(
        "{symbol!r} 只是一个时间，不能作范围的 {which}：请把它接在某天后面，如 D+0T{symbol}。",
        "{symbol!r} is a bare time and cannot be a range {which}: attach it to a day, e.g. D+0T{symbol}.",
    ),
    "timesym.range_reversed": Message(
        "范围 {pair} 为空或颠倒：它解析为 [{start}, {end})，结束必须晚于开始。请交换两个符号，或选一个更晚的结束。",
        "Range {pair} is empty or reversed: it resolves to [{start}, {end}) "
        "and the end must be after the start. Swap the symbols or pick a later end.",
    ),
    "timesym.range_too_long": Message(
        "范围 {pair} 跨 {days} 天；最多允许 {max_days} 天。请拆成几次查询（如按月：M+0..M+5，再 M+6..M+11）。",
        "Range {pair} spans {days} days; at most {max_days} days are allowed. "
        "Split it into several queries (e.g. by month: M+0..M+5, then M+6..M+11).",
    ),
    "timesym.lunar_invalid": Message(
        "{symbol!r} 不是有效的农历日期：月份须为 01..12，日须为 01..30。",
        "{symbol!r} is not a valid lunar date: month must be 01..12 and day 01..30.",
    ),
    "timesym.lunar_out_of_range": Message(
        "{symbol!r}：{today} 附近的农历超出支持范围。",
        "{symbol!r}: the lunar calendar near {today} is outside the supported range.",
    ),
    "timesym.lunar_no_day": Message(
        "{symbol!r}：从 {today} 起的 {years} 个农历年里，农历 {month} 月都没有 {day} 日；"
        "请用存在的日子（如 L:{month:02d}-29）或 YYYY-MM-DD 日期。",
        "{symbol!r}: lunar month {month} has no day {day} in the {years} lunar years "
        "from {today}; use a day that exists (e.g. L:{month:02d}-29) or a YYYY-MM-DD date.",
    ),
    # holidays (holiday.py)
    "timesym.no_holiday_country": Message(
        "尚未设置公共假日所在的国家（设置 → 通用 → 公共假日）；请向用户询问确切日期，或使用 YYYY-MM-DD 符号。",
        "no public-holiday country is set (Settings → General → Public holidays); "
        "ask the user for the exact dates or use YYYY-MM-DD symbols.",
    ),
    "timesym.holiday_country_unsupported": Message(
        "holidays 包不支持假日国家 {country!r}；请在设置中填写 ISO 3166-1 代码，如 'CN'。",
        "Holiday country {country!r} is not supported by the holidays package; set an ISO 3166-1 code such as 'CN' in settings.",
    ),
    "timesym.holiday_year_missing": Message(
        "{symbol!r} 需要 {country} {year} 年的官方放假安排（含调休），但已安装的 holidays 数据里没有"
        "（已涵盖的年份：{known}）。不要猜：请向用户询问确切日期，或使用 YYYY-MM-DD 符号。",
        "{symbol!r} needs the official {country} holiday arrangement (incl. adjusted workdays/调休) "
        "for {year}, which the installed holidays data does not contain (covered years: {known}). "
        "Do not guess: ask the user for the exact dates or use YYYY-MM-DD symbols.",
    ),
    "timesym.holiday_no_time": Message(
        "{symbol!r}：假期跨好几天，不能带时间；请用单日符号，如 YYYY-MM-DDTHH:MM。",
        "{symbol!r}: a holiday period spans several days and cannot take a time; "
        "use a single-day symbol such as YYYY-MM-DDTHH:MM.",
    ),
    "timesym.holiday_unknown": Message(
        "{symbol!r}：{country} 假日数据中没有名为 {name!r} 的节日。今年已知的名称：{sample}。",
        "{symbol!r}: no holiday named {name!r} in the {country} holiday data. Known names this year: {sample}.",
    ),
    "timesym.holiday_unknown_aliases": Message(
        "{symbol!r}：{country} 假日数据中没有名为 {name!r} 的节日。今年已知的名称：{sample}。中文别名：{aliases}。",
        "{symbol!r}: no holiday named {name!r} in the {country} holiday data. Known names this year: {sample}. "
        "Chinese aliases: {aliases}.",
    ),
    "timesym.holiday_none_ahead": Message(
        "{symbol!r}：从 {today} 起 {years} 年内没有找到即将到来的 {name!r} 假期。",
        "{symbol!r}: no upcoming {name!r} period found within {years} years of {today}.",
    ),
}
