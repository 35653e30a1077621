"""Messages of agent/store (codes ``store.*``); see catalogue.py.

A parameter written ``{reason:zh}`` / ``{reason:en}`` is a ``Message`` (a nested error or a
phrase, ``catalogue.pair``); a plain ``{reason}`` is data, such as the operating system's text.
"""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # opening and reading the file (file_check.py, db.py)
    "store.cannot_open": Message("无法打开 {path}：{reason}", "cannot open {path}: {reason}"),
    "store.cannot_read": Message("无法读取 {path}：{reason}", "cannot read {path}: {reason}"),
    "store.cannot_read_untouched": Message(
        "无法读取 {path}：{reason}；文件未被改动", "cannot read {path}: {reason}; it was left untouched"
    ),
    "store.cannot_use": Message("无法使用 {path}：{reason}", "cannot use {path}: {reason}"),
    "store.cannot_create": Message("无法创建 {path}：{reason}", "cannot create {path}: {reason}"),
    "store.cannot_create_folder": Message("无法为 {path} 创建文件夹：{reason}", "cannot create the folder for {path}: {reason}"),
    "store.folder_read_only": Message("无法创建 {path}：所在文件夹是只读的", "cannot create {path}: its folder is read-only"),
    "store.read_only": Message(
        "{path} 是只读的，此命令无法修改它；未写入任何内容（只读的命令，如 events list 或 export，仍可使用）",
        "{path} is read-only, so this command cannot change it; nothing was written "
        "(commands that only read, such as events list or export, still work)",
    ),
    "store.disk_full": Message(
        "存放 {path} 的磁盘已满；未写入任何内容。请腾出一些空间后再试",
        "the disk holding {path} is full; nothing was written. Free some space and try again",
    ),
    "store.disk_full_read": Message(
        "存放 {path} 的磁盘已满，SQLite 连读取都需要一点空间；文件未被改动，也没有损坏。请腾出一些空间后再试",
        "the disk holding {path} is full, and SQLite needs a little room even to read; the file was left untouched "
        "and is not damaged. Free some space and try again",
    ),
    "store.closed": Message("{path} 已关闭", "{path} is closed"),
    "store.busy_or_read_only": Message("数据库正忙或为只读：{reason}", "the database is busy or read-only: {reason}"),
    "store.before_commit_outside": Message("before_commit 需要一个已打开的事务", "before_commit needs an open transaction"),
    "store.backup_refused": Message("{reason:zh}；未做任何更改（{why:zh}）", "{reason:en}; nothing was changed {why:en}"),
    "store.before_upgrade": Message("本要从结构版本 {version} 升级", "before upgrading its schema from {version}"),
    # files we refuse to open (backups.refusal)
    "store.not_sqlite": Message(
        "{path} 不是 Richeng 数据库（根本不是 SQLite 文件）；文件未被改动",
        "{path} is not a Richeng database (not an SQLite file at all); it was left untouched",
    ),
    "store.foreign": Message(
        "{path} 是其他程序的 SQLite 数据库，不是 Richeng 的；文件未被改动",
        "{path} is an SQLite database of another program, not Richeng's; it was left untouched",
    ),
    "store.newer": Message(
        "{path} 由更新版本的 Richeng 写入（结构版本 {version}，本版本只认识到 {known}；未知的迁移：{unknown}）；"
        "请更新 Richeng 后再打开。文件未被改动。",
        "{path} was written by a newer Richeng (schema {version}, this version knows {known}; unknown migrations: "
        "{unknown}); update Richeng to open it. The file was left untouched.",
    ),
    "store.damaged_backup": Message(
        "{path} 已损坏（{detail}）；文件未被改动。最新的备份是 {backup}（{created}），可用 `{hint} db restore {quoted}` "
        "恢复；也可用 `{hint} db recover` 把 SQLite 仍能读出的内容存进一个新文件。",
        "{path} is damaged ({detail}); it was left untouched. The newest backup is {backup} ({created}); restore it with "
        "`{hint} db restore {quoted}`, or save what SQLite can still read into a new file with `{hint} db recover`.",
    ),
    "store.damaged_no_backup": Message(
        "{path} 已损坏（{detail}）；文件未被改动。它没有备份；可用 `{hint} db recover` 把 SQLite 仍能读出的内容存进一个新文件。",
        "{path} is damaged ({detail}); it was left untouched. There is no backup of it; save what SQLite can still read "
        "into a new file with `{hint} db recover`.",
    ),
    # the write guard (file_guard.py)
    "store.wal_replaced": Message(
        "{db} 在 Richeng 使用期间被其他程序改动（它的预写日志被替换了）；未写入任何内容。"
        "请关闭并重新打开 Richeng，再用 `richeng db check` 检查它",
        "{db} was changed under Richeng by another program (its write-ahead log was replaced); nothing was written. "
        "Close and reopen Richeng, then check it with `richeng db check`",
    ),
    "store.db_replaced": Message(
        "{db} 在 Richeng 打开期间被另一个文件替换了（同步工具、备份工具或手动复制？）；未写入任何内容。"
        "请关闭并重新打开 Richeng 以使用新文件；关闭时，原来打开的内容会保存在它旁边，名为 …replaced-<时间>",
        "{db} was replaced by another file while Richeng had it open (a sync or backup tool, a copy by hand?); "
        "nothing was written. Close and reopen Richeng to use the new file; on closing, what was open is saved "
        "beside it as …replaced-<time>",
    ),
    "store.cannot_lock": Message(
        "无法锁定 {db} 以写入：{reason}；未写入任何内容", "cannot lock {db} for writing: {reason}; nothing was written"
    ),
    "store.busy_writer": Message(
        "{db} 正忙：另一个 Richeng 正在写入它；未写入任何内容",
        "{db} is busy: another Richeng is writing to it; nothing was written",
    ),
    # backups and restore (backups.py)
    "store.memory_no_backups": Message("内存中的数据库没有备份", "an in-memory store has no backups"),
    "store.backup_failed": Message("无法把 {path} 备份到 {folder}：{reason}", "could not back up {path} into {folder}: {reason}"),
    "store.restore_missing": Message("无法恢复 {source}：文件不存在", "cannot restore {source}: no such file"),
    "store.restore_unreadable": Message("无法恢复：{reason:zh}", "cannot restore: {reason:en}"),
    "store.restore_empty": Message("无法恢复 {source}：文件是空的", "cannot restore {source}: the file is empty"),
    "store.restore_refused": Message("无法用它恢复：{reason:zh}", "cannot restore from it: {reason:en}"),
    "store.restore_is_database": Message(
        "{source} 就是数据库本身；请选一个备份来恢复", "{source} is the database itself; pick a backup to restore"
    ),
    "store.restore_target_open": Message(
        "{target} 正在另一个 Richeng（应用或同步）中打开；请先关闭它再恢复。未做任何更改",
        "{target} is open in another Richeng (the app, a sync); close it, then restore. Nothing was changed",
    ),
    "store.restore_no_folder": Message(
        "无法恢复到 {target}：文件夹 {folder} 不存在", "cannot restore into {target}: the folder {folder} does not exist"
    ),
    "store.copy_failed": Message("无法复制 {source}：{reason}", "could not copy {source}: {reason}"),
    "store.restore_failed": Message("无法恢复到 {target}：{reason}", "could not restore into {target}: {reason}"),
    "store.restore_failed_kept": Message(
        "无法恢复到 {target}：{reason}；原来的文件保留为 {aside}",
        "could not restore into {target}: {reason}; the previous file is kept as {aside}",
    ),
    # recovering a damaged file (recover.py, salvage.py)
    "store.recover_target_exists": Message(
        "{target} 已存在；请用 --output 指定一个新文件", "{target} already exists; name a new file with --output"
    ),
    "store.recover_no_folder": Message(
        "无法创建 {target}：文件夹 {folder} 不存在（Richeng 不会在这里创建文件夹）",
        "cannot create {target}: the folder {folder} does not exist (Richeng creates no folders here)",
    ),
    "store.recover_newer": Message(
        "{source} 由更新版本的 Richeng 写入（结构版本 {version}）；请用那个版本恢复",
        "{source} was written by a newer Richeng (schema {version}); recover it with that version",
    ),
    "store.recover_names_taken": Message(
        "{source} 旁恢复出的文件太多；请用 --output 指定一个", "too many recovered files beside {source}; name one with --output"
    ),
    "store.recover_unreadable": Message("无法恢复：{reason:zh}", "cannot recover: {reason:en}"),
    "store.recover_empty": Message(
        "无法恢复 {source}：文件是空的，没有可保存的内容", "cannot recover {source}: the file is empty; there is nothing to save"
    ),
    "store.recover_foreign": Message(
        "无法恢复 {source}：它是其他程序的 SQLite 数据库，不是 Richeng 数据库；未写入任何内容",
        "cannot recover {source}: it is an SQLite database of another program, not a Richeng database; nothing was written",
    ),
    "store.recover_not_database": Message(
        "无法恢复 {source}：它不是 SQLite 能读取的数据库（或其第一页已丢失），不是 Richeng 数据库；未写入任何内容",
        "cannot recover {source}: it is not a database SQLite can read (or its first page is lost), not a Richeng "
        "database; nothing was written",
    ),
    "store.salvage_replace_failed": Message(
        "无法用恢复出的文件替换 {path}：{reason}；它在 {recovered}",
        "could not put the recovered file in place of {path}: {reason}; it is at {recovered}",
    ),
    # events (components.py, events.py)
    "store.no_dtstart": Message("该日程没有 DTSTART", "the event has no DTSTART"),
    "store.ends_before_start": Message("该日程的结束早于开始", "the event ends before it starts"),
    "store.no_uid": Message("该日程没有 UID", "the event has no UID"),
    "store.no_title": Message("日程需要一个标题", "an event needs a title"),
    "store.calendar_not_in_profile": Message(
        "日历 {calendar_id} 不属于这个档案", "calendar {calendar_id} does not belong to this profile"
    ),
    "store.series_invalid": Message("无法保存该重复日程：{problem}", "cannot save the series: {problem}"),
    # read-only calendars (read_only.py): one line for every write path that meets one
    "store.calendar_read_only": Message(
        "日历「{name}」在服务器上是只读的，不能在这里修改；未写入任何内容",
        "the calendar '{name}' is read-only on its server and cannot be changed here; nothing was written",
    ),
    "store.calendar_subscribed": Message(
        "日历「{name}」是订阅的日历（只读），只有刷新订阅会改变它；未写入任何内容",
        "the calendar '{name}' is a subscription (read-only): only a refresh changes it; nothing was written",
    ),
    # the journal (journal.py)
    "store.no_change": Message("没有第 {change_id} 号更改", "there is no change #{change_id} in this profile"),
    "store.already_undone": Message("第 {change_id} 号更改已撤销", "change #{change_id} is already undone"),
    "store.undo_changed_since": Message(
        "无法准确撤销第 {change_id} 号更改：「{title}」之后又被改过，未做任何改动",
        "cannot undo change #{change_id} exactly: '{title}' has changed since; nothing was changed",
    ),
    "store.undo_calendar_deleted": Message(
        "无法撤销第 {change_id} 号更改：它所在的日历已删除",
        "cannot undo change #{change_id}: the calendar its events were in has been deleted; nothing was changed",
    ),
    "store.undo_calendar_exists": Message(
        "无法撤销第 {change_id} 号更改：又有了名为「{name}」的日历；请先给它改名，未做任何改动",
        "cannot undo change #{change_id}: a calendar named '{name}' exists again; rename it first; nothing was changed",
    ),
    "store.undo_calendar_in_use": Message(
        "无法撤销第 {change_id} 号更改：日历「{name}」里之后又有了日程（或它是最后一个日历、或已与服务器同步），未做任何改动",
        "cannot undo change #{change_id}: the calendar '{name}' holds events added since (or is the last one,"
        " or is synced with a server); nothing was changed",
    ),
}
