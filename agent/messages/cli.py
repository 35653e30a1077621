"""Messages of agent/cli (codes ``cli.*``); see catalogue.py.

The CLI prints the English ones (its output is a contract); the Chinese ones are for a
reader of the same errors in Chinese."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # common.py
    "cli.usage": Message("{prog}：{text}（见 --help）", "{prog}: {text} (see --help)"),
    # checked_path: an option names itself in both languages; a thing has its own codes
    "cli.path_empty": Message("{what} 为空；请给出文件名", "{what} is empty; give a file name"),
    "cli.path_name_too_long": Message(
        "{what} 作为文件名太长（每段最多 {limit} 字节）：{shown}…",
        "{what} is too long for a file name (at most {limit} bytes a name): {shown}…",
    ),
    "cli.path_too_long": Message(
        "{what} 作为文件名太长（总共最多 {limit} 字节）：{shown}…",
        "{what} is too long for a file name (at most {limit} bytes in all): {shown}…",
    ),
    "cli.calendar_file_empty": Message("日历文件名为空；请给出文件名", "the calendar file is empty; give a file name"),
    "cli.calendar_file_name_too_long": Message(
        "日历文件名太长（每段最多 {limit} 字节）：{shown}…",
        "the calendar file is too long for a file name (at most {limit} bytes a name): {shown}…",
    ),
    "cli.calendar_file_too_long": Message(
        "日历文件名太长（总共最多 {limit} 字节）：{shown}…",
        "the calendar file is too long for a file name (at most {limit} bytes in all): {shown}…",
    ),
    "cli.backup_file_empty": Message("要恢复的备份文件名为空；请给出文件名", "the backup to restore is empty; give a file name"),
    "cli.backup_file_name_too_long": Message(
        "要恢复的备份文件名太长（每段最多 {limit} 字节）：{shown}…",
        "the backup to restore is too long for a file name (at most {limit} bytes a name): {shown}…",
    ),
    "cli.backup_file_too_long": Message(
        "要恢复的备份文件名太长（总共最多 {limit} 字节）：{shown}…",
        "the backup to restore is too long for a file name (at most {limit} bytes in all): {shown}…",
    ),
    "cli.db_unusable": Message("无法使用 --db {path}：{text}", "cannot use --db {path}: {text}"),
    # main.py
    "cli.interrupted": Message("已中断", "interrupted"),
    "cli.file_unusable": Message("无法使用 {path}：{text}", "cannot use {path}: {text}"),
    "cli.disk_full": Message(
        "磁盘已满（{text}）；命令没有完成，已写入的内容保持原样。请腾出一些空间后再试",
        "the disk is full ({text}); the command did not finish, and what was already saved is as it was. "
        "Free some space and try again",
    ),
    "cli.internal": Message("内部错误（{error}: {text}）；请报告此问题", "internal error ({error}: {text}); please report it"),
    "cli.option_not_utf8": Message(
        "{option} 不是有效的 UTF-8 文本；请检查终端的编码", "{option} is not valid UTF-8 text; check the terminal's encoding"
    ),
    "cli.option_nul": Message("{option} 含有 NUL 字符", "{option} contains a NUL character"),
    "cli.option_too_long": Message(
        "{option} 太长（{length} 个字符；最多 {limit} 个）", "{option} is too long ({length} characters; at most {limit})"
    ),
    "cli.value_not_utf8": Message(
        "{option} 的值不是有效的 UTF-8 文本；请检查终端的编码",
        "the value of {option} is not valid UTF-8 text; check the terminal's encoding",
    ),
    "cli.value_nul": Message("{option} 的值含有 NUL 字符", "the value of {option} contains a NUL character"),
    "cli.value_too_long": Message(
        "{option} 的值太长（{length} 个字符；最多 {limit} 个）",
        "the value of {option} is too long ({length} characters; at most {limit})",
    ),
    "cli.argument_not_utf8": Message(
        "第 {position} 个参数不是有效的 UTF-8 文本；请检查终端的编码",
        "argument {position} is not valid UTF-8 text; check the terminal's encoding",
    ),
    "cli.argument_nul": Message("第 {position} 个参数含有 NUL 字符", "argument {position} contains a NUL character"),
    "cli.argument_too_long": Message(
        "第 {position} 个参数太长（{length} 个字符；最多 {limit} 个）",
        "argument {position} is too long ({length} characters; at most {limit})",
    ),
    "cli.tz_too_long": Message(
        "--tz 须为 IANA 时区名，如 Asia/Shanghai（这个有 {length} 个字符）",
        "--tz must be an IANA zone name such as Asia/Shanghai (this one is {length} characters)",
    ),
    # handlers.py
    "cli.invalid_event": Message("无效的事件", "invalid event"),
    "cli.title_required": Message("需要标题：给事件起个简短的名字", "title is required: a short name for the event"),
    "cli.date_is_time": Message(
        "'{symbol}' 是时间；--date 需要日期符号，如 D+1 或 W3（时间写在 --time）",
        "'{symbol}' is a time; --date needs a date symbol such as D+1 or W3 (the time goes in --time)",
    ),
    "cli.end_needs_time": Message("--end 需要开始时间（--time）", "--end needs a start time (--time)"),
    "cli.end_not_after_time": Message(
        "--end {end} 不晚于 --time {start}；跨过午夜的事件在这里要写成两天的两个事件",
        "--end {end} is not after --time {start}; an event past midnight needs two days' events here",
    ),
    "cli.no_such_file": Message("无法读取 {path}：文件不存在", "cannot read {path}: no such file"),
    "cli.start_and_end": Message("--start 和 --end 要么都给，要么都不给", "give both --start and --end, or neither"),
    "cli.cannot_write": Message(
        "无法写入 {path}：{text}；原有的文件（如有）保持不变",
        "cannot write {path}: {text}; the previous file, if any, is unchanged",
    ),
    "cli.export_over_store": Message(
        "{path} 是{role:zh}（{db}）；导出只写 iCalendar 文件，不会覆盖它。未写入任何内容，请换一个文件名",
        "{path} is {role:en} ({db}); export writes an iCalendar file and will not overwrite it. Nothing was written; "
        "pick another file name",
    ),
    "cli.export_over_database": Message(
        "{path} 是一个 SQLite 数据库（备份或保留的副本？）；导出只写 iCalendar 文件，不会覆盖它。未写入任何内容，请换一个文件名",
        "{path} holds an SQLite database (a backup, a copy kept aside?); export writes an iCalendar file and will not "
        "overwrite it. Nothing was written; pick another file name",
    ),
    "cli.empty_message": Message(
        "消息为空：请说出要安排或询问的事，例如 richeng chat '明天下午三点开会'",
        "the message is empty: say what to schedule or ask, e.g. richeng chat '明天下午三点开会'",
    ),
    "cli.no_model": Message(
        "未配置模型：请用 --model SPEC 指定（openai:MODEL@BASE_URL、llama:PATH.gguf 或 script:FILE.json），"
        "或在应用的设置中保存一个；托管服务的密钥来自系统钥匙串或 RICHENG_API_KEY",
        "no model is configured: pass --model SPEC (openai:MODEL@BASE_URL, llama:PATH.gguf or "
        "script:FILE.json), or save one with the app's settings; hosted keys come from the OS keyring "
        "or RICHENG_API_KEY",
    ),
    # app/print_command.py (richeng print: drawn with Qt, so it lives in app/)
    "cli.print_bad_view": Message(
        "未知视图“{view}”：可选 day、week、month 或 agenda", "unknown view '{view}': choose day, week, month or agenda"
    ),
    "cli.print_unwritable": Message(
        "无法写入 {path}：文件夹不存在或不可写，什么都没写",
        "cannot write {path}: its folder is missing or not writable; nothing written",
    ),
    "cli.print_done": Message("已写入 {pages} 页：{path}", "wrote {pages} page(s) to {path}"),
    # quick_command.py
    "cli.nothing_added": Message("未添加：{text}", "nothing added: {text}"),
    "cli.nothing_added_invalid": Message("未添加：无效的事件", "nothing added: invalid event"),
    # db_commands.py
    "cli.restore_confirm": Message(
        "恢复会替换数据库：请用 --yes 确认（标准输入不是终端，无人可问）",
        "restore replaces the database: confirm with --yes (stdin is not a terminal, so there is no one to ask)",
    ),
    "cli.restore_cancelled": Message("已取消恢复；没有任何改动", "restore cancelled; nothing was changed"),
    # eval_commands.py
    "cli.live_needs_model": Message(
        "实时评测需要真实模型；脚本化运行请用 'richeng eval offline'",
        "live evals need a real model; scripted runs are 'richeng eval offline'",
    ),
    "cli.concurrency": Message("--concurrency 至少为 1", "--concurrency must be at least 1"),
    # prompt_command.py
    "cli.no_token_count": Message("{spec}：这个后端无法计算 token 数", "{spec}: this backend cannot count tokens"),
    # sync_commands.py
    "cli.no_password": Message(
        "请用 --password-stdin 提供密码（或设置 {env}）", "give the password with --password-stdin (or set {env})"
    ),
    "cli.empty_password": Message("密码为空", "the password is empty"),
    "cli.bad_map": Message("--map 的格式是 REMOTE=LOCAL，而不是 '{spec}'", "--map wants REMOTE=LOCAL, not '{spec}'"),
    "cli.sync_what": Message(
        "请说明要同步什么：--map REMOTE=LOCAL（可重复）或 --all",
        "say what to sync: --map REMOTE=LOCAL (repeatable) or --all",
    ),
    "cli.not_synced": Message("'{remote}' 没有在账户 {account} 中同步", "'{remote}' is not synced in account {account}"),
}

STORE_ROLES: dict[str, Message] = {
    "database": Message("数据库本身", "the database itself"),
    "-wal": Message("数据库的预写日志（-wal）", "the database's write-ahead log (-wal)"),
    "-shm": Message("数据库的共享内存文件（-shm）", "the database's shared-memory file (-shm)"),
    "-journal": Message("数据库的回滚日志（-journal）", "the database's rollback journal (-journal)"),
    "backup": Message("数据库的一个备份", "one of the database's backups"),
}
"""What ``agent.store.file_check.store_file_role`` found a file to be, for ``cli.export_over_store``."""
