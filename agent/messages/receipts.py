"""Messages of agent/runtime's receipts (codes ``receipts.*``); see catalogue.py.

What the user reads after a tool ran (``agent/runtime/receipts.py``, ``edit_receipts.py``):
whole sentences with their parameters, and the pieces they are built of (a day's label, a
weekday, a list's separator). A rule that picks a different sentence (a label that ends in
a time, a titled or untitled event) picks a different code, never a different language.
"""

from __future__ import annotations

from agent.messages.message import Message

_WEEKDAYS = (("一", "Mon"), ("二", "Tue"), ("三", "Wed"), ("四", "Thu"), ("五", "Fri"), ("六", "Sat"), ("日", "Sun"))

MESSAGES: dict[str, Message] = {
    # ---- days, times and spans ----------------------------------------------------------
    **{f"receipts.weekday.{n}": Message(zh=zh, en=en) for n, (zh, en) in enumerate(_WEEKDAYS)},
    # ``date`` is a datetime.date; ``weekday`` the rendered receipts.weekday.N
    "receipts.day": Message(zh="{date.month}月{date.day}日（周{weekday}）", en="{weekday} {date.day} {date:%b}"),
    "receipts.day_year": Message(
        zh="{date.year}年{date.month}月{date.day}日（周{weekday}）", en="{weekday} {date.day} {date:%b} {date.year}"
    ),
    "receipts.day_time": Message(zh="{day}{time:%H:%M}", en="{day} {time:%H:%M}"),
    "receipts.all_day": Message(zh="{day} 全天", en="{day} all day"),
    "receipts.all_day_range": Message(zh="{first}–{last} 全天", en="{first}–{last} all day"),
    "receipts.occurrence": Message(zh="• {when} {title}（{calendar}）", en="• {when} {title} ({calendar})"),
    "receipts.event_line": Message(zh="{when} {title}（{calendar}）", en="{when} {title} ({calendar})"),
    "receipts.days_or": Message(zh="还是", en=" or "),
    "receipts.clause_sep": Message(zh="，", en="; "),
    "receipts.needs_confirmation": Message(zh="需要你确认", en="it needs your confirmation"),
    "receipts.target": Message(zh="“{title}”", en="“{title}”"),
    "receipts.target_when": Message(zh="“{title}”（{when}）", en="“{title}” ({when})"),
    # ---- creating an event --------------------------------------------------------------
    "receipts.created": Message(
        zh="已创建：{when} {title}（日历：{calendar}）", en="Created: {when} {title} (calendar: {calendar})"
    ),
    "receipts.duplicate": Message(
        zh="这个日程已经在日历里了：{when} {title}（{calendar}），没有重复添加。",
        en="That event is already on your calendar: {when} {title} ({calendar}); nothing was added twice.",
    ),
    "receipts.calendar_fell_back": Message(
        zh="没有找到日历“{requested}”，已放入默认日历“{calendar}”。",
        en="There is no calendar named “{requested}”, so it went into the default calendar “{calendar}”.",
    ),
    "receipts.which_day_of": Message(zh="“{title}”安排在哪一天？{options}？", en="Which day for “{title}”: {options}?"),
    "receipts.which_day": Message(zh="“{title}”具体是哪一天？", en="Which day should “{title}” be on?"),
    "receipts.day_not_offered": Message(
        zh="{said}不在可选的日子里，还没有写入日历。{ask}要改到别的日子，请直接说“改到…”。",
        en="{said} is not one of the days offered, so nothing was written. {ask} To move it to another day, say so.",
    ),
    "receipts.conflict": Message(
        zh="“{title}”（{when}）和这些日程时间冲突：\n{lines}\n要换个时间，还是直接创建？还没有写入日历。",
        en="“{title}” ({when}) overlaps:\n{lines}\nChange the time, or create it anyway? Nothing has been written yet.",
    ),
    "receipts.past_time": Message(
        zh="“{title}”的时间（{when}）已经过去了，还没有写入日历。要补记到日历里吗？",
        en="The time for “{title}” ({when}) has already passed, so nothing was written. Add it anyway?",
    ),
    "receipts.cancelled": Message(zh="好的，不建“{title}”了。", en="OK, I dropped “{title}”."),
    "receipts.nothing_pending": Message(zh="现在没有待确认的日程。", en="There is no pending event to cancel."),
    "receipts.invalid_titled": Message(
        zh="我没能理解“{title}”的时间，还没有写入日历。可以换个说法告诉我日期和时间吗？",
        en="I couldn't work out the time for “{title}”, so nothing was written. Could you say the date and time another way?",
    ),
    "receipts.invalid": Message(
        zh="我没能理解这个日程的时间，还没有写入日历。可以换个说法告诉我日期和时间吗？",
        en="I couldn't work out the time for this event, so nothing was written. Could you say the date and time another way?",
    ),
    # ---- a series (its rule in agent/messages/recurrence.py's words) and its extras --------
    "receipts.repeats": Message(zh="重复：{pattern}", en="Repeats: {pattern}"),
    "receipts.next": Message(zh="接下来：{listed}……", en="Next: {listed}, …"),
    "receipts.reminder": Message(zh="提醒：提前 {minutes} 分钟", en="Reminder: {minutes} min before"),
    "receipts.location": Message(zh="地点：{location}", en="Place: {location}"),
    "receipts.cleared": Message(zh="（已清除）", en="(cleared)"),
    "receipts.notes_saved": Message(zh="备注已保存", en="Notes saved"),
    # ---- the grounding latch's question (``why.*`` are its reasons) ----------------------
    "receipts.why.past_tense": Message(
        zh="听起来这件事已经发生了（“{word}”）", en="it sounds like this already happened (“{word}”)"
    ),
    "receipts.why.date_contradicts": Message(
        zh="你说的是“{word}”，和要写入的日期对不上", en="you said “{word}”, which is not the day it would go on"
    ),
    "receipts.why.conditional": Message(
        zh="你说的是“{word}”，这要等条件成真", en="you said “{word}”, so it depends on something that has not happened yet"
    ),
    "receipts.why.title_not_from_user": Message(zh="这个标题不是你这句话里的说法", en="that title is not in your own words"),
    "receipts.why.bulk_clear": Message(
        zh="你说的是“{word}”，听起来是要删除而不是新建", en="you said “{word}”, which sounds like removing, not adding"
    ),
    "receipts.unconfirmed": Message(
        zh="还没有写入日历：{reasons}。要把{target}加到日历里吗？回复“是”添加，或“不用”。",
        en="Nothing was written yet: {reasons}. Add {target} to your calendar? Reply “yes” to add it, or “no”.",
    ),
    # ---- reading the calendar -----------------------------------------------------------
    # ``…_after_time``: the label ends in a time ("15:00–16:00 没有安排"), so Chinese spaces it
    "receipts.range_empty": Message(zh="{label}没有安排。", en="Nothing on your calendar for {label}."),
    "receipts.range_empty_after_time": Message(zh="{label} 没有安排。", en="Nothing on your calendar for {label}."),
    "receipts.range_head": Message(zh="{label}共有 {count} 项安排：", en="{count} item(s) for {label}:"),
    "receipts.range_head_after_time": Message(zh="{label} 共有 {count} 项安排：", en="{count} item(s) for {label}:"),
    "receipts.range_more": Message(zh="……还有 {more} 项", en="… and {more} more"),
    "receipts.no_free_slot": Message(
        zh="这段时间在工作时间内没有合适的空档。", en="No free slot of that length within working hours in that range."
    ),
    "receipts.free": Message(zh="这些时间有空：\n{lines}", en="You are free:\n{lines}"),
    # ---- memory, the council, the model -------------------------------------------------
    "receipts.remembered": Message(zh="记住了：{text}", en="Remembered: {text}"),
    "receipts.memory_unconfirmed": Message(
        zh="没有记住任何内容：“{fact}”不是你这句话里的内容。如果要我记住，请直接告诉我要记住什么。",
        en="Nothing was remembered: “{fact}” is not in your own words. If you want me to remember it, tell me in your words.",
    ),
    "receipts.council_offer": Message(
        zh="要不要请三位顾问从不同角度帮你看看“{topic}”这段时间的安排？回复“要”就开始。",
        en="Would you like three advisors to look at your schedule for “{topic}” from different angles? Reply “yes” to start.",
    ),
    "receipts.model_unavailable": Message(
        zh="模型现在不可用（{reason}），这次没有读写你的日历。日历本身可以照常使用。",
        en="The model is unavailable right now ({reason}); nothing was read or written. The calendar itself works as usual.",
    ),
    "receipts.no_model": Message(zh="尚未配置模型", en="no model configured"),
    "receipts.stopped": Message(zh="已停止。", en="Stopped."),
    "receipts.empty": Message(zh="……", en="…"),
    "receipts.unchanged": Message(zh="日历没有变化", en="Nothing in your calendar changed"),
    "receipts.gave_up": Message(
        zh="这次没能完成，日历没有任何改动。可以换个说法再试一次吗？",
        en="I couldn't finish that, and nothing on your calendar changed. Could you try saying it another way?",
    ),
    # ---- chat edits (``edit_receipts.py``); ``line`` is a rendered receipts.event_line ----
    "receipts.edit.scope_all": Message(zh="整个重复系列（每一次）", en="the whole repeating series (every instance)"),
    "receipts.edit.scope_following": Message(
        zh="{day}及之后的每一次，之前的不变", en="{day} and every later instance; earlier ones stay"
    ),
    "receipts.edit.scope_this": Message(
        zh="只有{day}这一次，系列的其他日子不变", en="only the {day} instance; the rest of the series stays"
    ),
    "receipts.edit.scope_note": Message(zh="（{scope}）", en="({scope})"),
    "receipts.edit.scope_suffix": Message(zh="（{scope}）", en=" ({scope})"),
    "receipts.edit.title": Message(zh="标题：{was} → {now}", en="Title: {was} → {now}"),
    "receipts.edit.calendar": Message(zh="日历：{calendar}", en="Calendar: {calendar}"),
    "receipts.edit.notes": Message(zh="备注已更新", en="Notes updated"),
    "receipts.edit.done": Message(zh="已标记为完成", en="Marked done"),
    "receipts.edit.not_done": Message(zh="已标记为未完成", en="Marked not done"),
    "receipts.edit.changed_head": Message(zh="已修改“{title}”：", en="Changed “{title}”:"),
    "receipts.edit.was": Message(zh="原来：{line}", en="Was: {line}"),
    "receipts.edit.now": Message(zh="现在：{line}", en="Now: {line}"),
    "receipts.edit.event": Message(zh="日程：{line}", en="Event: {line}"),
    "receipts.edit.scope": Message(zh="改动范围：{scope}", en="Changed: {scope}"),
    "receipts.edit.deleted_series": Message(zh="已删除“{title}”：{scope}。", en="Deleted “{title}”: {scope}."),
    "receipts.edit.deleted": Message(zh="已删除：{line}", en="Deleted: {line}"),
    "receipts.edit.verb.delete": Message(zh="删除", en="delete"),
    "receipts.edit.verb.update": Message(zh="修改", en="change"),
    "receipts.edit.more_unlisted": Message(
        zh="（还有 {more} 个没列出，请说得更具体些）", en="({more} more not listed; say which more precisely)"
    ),
    "receipts.edit.choose": Message(
        zh="有 {count} 个日程符合，还没有改动。要{verb}哪一个？\n{lines}{more}\n回复“第二个”或“10点那个”，或点下面的按钮。",
        en="{count} events match, so nothing changed yet. Which one should I {verb}?\n{lines}{more}\n"
        "Reply “the second” or “the 3pm one”, or use the buttons below.",
    ),
    "receipts.edit.conflict": Message(
        zh="把“{title}”改到 {when} 会和这些日程冲突：\n{overlaps}\n还没有改动。要照样改吗？回复“是”照改，或告诉我别的时间。",
        en="Moving “{title}” to {when} overlaps:\n{overlaps}\n"
        "Nothing changed yet. Move it anyway? Reply “yes”, or tell me another time.",
    ),
    "receipts.edit.kept_all": Message(
        zh="好的，不改了，这 {kept} 个日程都保持原样。", en="OK, nothing changed: the {kept} events stay as they were."
    ),
    "receipts.edit.kept": Message(zh="好的，不改了，“{title}”保持原样。", en="OK, “{title}” stays as it was."),
    "receipts.edit.nothing_pending": Message(zh="现在没有待确认的修改。", en="There is no pending change."),
    "receipts.edit.failed": Message(
        zh="这次没能修改，日历没有变化。", en="That change could not be made, and your calendar is unchanged."
    ),
    "receipts.edit.failed_because": Message(
        zh="这次没能修改，日历没有变化。（{message}）",
        en="That change could not be made, and your calendar is unchanged. ({message})",
    ),
    "receipts.edit.bulk_confirm_delete": Message(
        zh="还没有改动：这会删除下面 {count} 个日程：\n{lines}\n要全部删除吗？回复“是”确认（可以一次撤销），或“不用”。",
        en="Nothing changed yet: this would delete these {count} events:\n{lines}\n"
        "Delete all {count}? Reply “yes” (one Undo reverts it), or “no”.",
    ),
    "receipts.edit.bulk_confirm_update": Message(
        zh="还没有改动：这会修改下面 {count} 个日程：\n{lines}\n要全部修改吗？回复“是”确认（可以一次撤销），或“不用”。",
        en="Nothing changed yet: this would change these {count} events:\n{lines}\n"
        "Change all {count}? Reply “yes” (one Undo reverts it), or “no”.",
    ),
    "receipts.edit.bulk_deleted": Message(zh="已删除 {count} 个日程：\n{lines}", en="Deleted {count} events:\n{lines}"),
    "receipts.edit.bulk_changed": Message(zh="已修改 {count} 个日程：\n{lines}", en="Changed {count} events:\n{lines}"),
    "receipts.edit.more": Message(zh="（还有 {more} 个）", en="({more} more)"),
    "receipts.edit.answer_negated": Message(
        zh="好的，不改动（你说的是“{word}”）。日历没有变化：\n{lines}{more}\n要改的话，请直接说“删掉……”或“把……改到……”。",
        en="OK, nothing changed (you said “{word}”):\n{lines}{more}\nTo change it, say so directly (“delete …”, “move … to …”).",
    ),
    "receipts.edit.answer_conditional": Message(
        zh="这要看条件（你说的是“{word}”），条件还没有发生，所以没有改动。日历上现在是：\n{lines}{more}\n"
        "条件成真时，请直接说“删掉……”或“把……改到……”。",
        en="That depends on a condition (you said “{word}”) that has not happened, so nothing changed. "
        "Your calendar has:\n{lines}{more}\nWhen it does, say so directly (“delete …”, “move … to …”).",
    ),
    "receipts.edit.answer_question": Message(
        zh="这是在问，所以没有改动。日历上现在是：\n{lines}{more}\n要改的话，请直接说“删掉……”或“把……改到……”。",
        en="You asked, so nothing changed. Your calendar has:\n{lines}{more}\n"
        "To change it, say so directly (“delete …”, “move … to …”).",
    ),
    "receipts.edit.not_found": Message(
        zh="没有找到那个日程（它可能刚被改过），日历没有变化。",
        en="I couldn't find that event (it may have just changed); your calendar is unchanged.",
    ),
    "receipts.edit.search_words": Message(zh="标题包含“{words}”", en="title containing “{words}”"),
    "receipts.edit.search_time": Message(zh="{time:%H:%M} 的", en="at {time:%H:%M}"),
    "receipts.edit.part_sep": Message(zh="，", en=", "),
    "receipts.edit.no_match": Message(
        zh="没有找到符合的日程，日历没有改动。查找范围：{parts}。", en="No matching event, so nothing changed. Searched: {parts}."
    ),
    "receipts.edit.why.series_delete": Message(
        zh="这会删除重复日程中的多次", en="this deletes more than one instance of a repeating event"
    ),
    "receipts.edit.why.series_move": Message(
        zh="这会移动重复日程中的多次", en="this moves more than one instance of a repeating event"
    ),
    "receipts.edit.why.fuzzy": Message(zh="标题和你说的不完全一样", en="its title is not exactly what you said"),
    "receipts.edit.why.target_not_named": Message(zh="你这句话里没有提到“{title}”", en="your message does not name “{title}”"),
    "receipts.edit.why.not_from_user_time": Message(zh="这个时间不是你说的", en="you did not name that time"),
    "receipts.edit.why.not_from_user_completed": Message(zh="你没有说它已经完成", en="you did not say it is done"),
    "receipts.edit.why.bulk": Message(zh="先确认一次改动多个日程", en="a change to several events is confirmed first"),
    # English names no word here (the rule reads the same either way): see ONE_SIDED in the test
    "receipts.edit.why.bulk_said": Message(
        zh="你说的是“{word}”，一次改动多个日程前先确认", en="a change to several events is confirmed first"
    ),
    "receipts.edit.why.value_differs": Message(zh="按你说的推算是这个时间", en="this is the time your words give"),
    "receipts.edit.why.not_from_user_new": Message(zh="新的时间不是你说的", en="the new time is not one you said"),
    "receipts.edit.why.scope_wider": Message(
        zh="你没有说要改这个重复日程的其他日子", en="you did not say to change the other days of the series"
    ),
    "receipts.edit.why.unsure": Message(
        zh="你说的是“{word}”，听起来还没定", en="you said “{word}”, which does not sound settled"
    ),
    "receipts.edit.why.not_from_user_action": Message(
        zh="你这句话里没有说要{verb}", en="your message did not ask to {verb} anything"
    ),
    "receipts.edit.why.not_from_user": Message(
        zh="要改的内容不是你这句话里的说法", en="what would change is not in your own words"
    ),
    "receipts.edit.why.date_contradicts": Message(
        zh="你说的是“{word}”，日期对不上", en="you said “{word}”, which is not that day"
    ),
    "receipts.edit.series_target": Message(zh="“{title}”的{scope}", en="“{title}” — {scope}"),
    "receipts.edit.action_delete": Message(zh="删除 {target}", en="delete {target}"),
    "receipts.edit.action_delete_series": Message(zh="删除{target}", en="delete {target}"),
    "receipts.edit.action_update": Message(zh="修改 {target}", en="change {target}"),
    "receipts.edit.action_update_series": Message(zh="修改{target}", en="change {target}"),
    "receipts.edit.action_extra": Message(zh="{action}：{extra}", en="{action}: {extra}"),
    "receipts.edit.confirm": Message(
        zh="还没有改动：{reasons}。要{action}吗？回复“是”确认，或“不用”。",
        en="Nothing changed yet: {reasons}. Should I {action}? Reply “yes” to go ahead, or “no”.",
    ),
    # ---- invitations from the chat (issue 31 item 4; agent/runtime/invite_grounding.py) ----
    "receipts.invite.invited": Message(zh="邀请：{people}", en="Invited: {people}"),
    "receipts.invite.will_invite": Message(zh="将邀请：{people}", en="Will invite: {people}"),
    "receipts.invite.organizer": Message(zh="组织者：你（{email}）", en="Organizer: you ({email})"),
    "receipts.invite.no_organizer": Message(
        zh="还不知道你的邮箱地址（设置 → 常规 → 我的邮箱地址），所以没有写组织者",
        en="Your e-mail address is not known (Settings → General → My e-mail addresses), so no organizer was written",
    ),
    "receipts.invite.sending": Message(
        zh="下次同步时，服务器会给这 {count} 个人发邀请邮件", en="The server emails these {count} people with the next sync"
    ),
    "receipts.invite.quiet_unsynced": Message(
        zh="没有给任何人发邮件：这个日历不与服务器同步", en="No one was emailed: this calendar is not synced with a server"
    ),
    "receipts.invite.quiet_synced": Message(
        zh="没有给任何人发邮件：你没有同意发送邀请，上传时服务器不会发邮件",
        en="No one was emailed: you did not say to send invitations, so the upload lets the server mail no one",
    ),
    "receipts.invite.no_address": Message(
        zh="没有邀请{name}：不知道{name}的邮箱地址（告诉我地址，或让我记住它）",
        en="{name} was not invited: no e-mail address is known for them (give me the address, or ask me to remember it)",
    ),
    "receipts.invite.not_said": Message(
        zh="没有邀请 {address}：这个地址不在你这句话里，也不在这次读到的记忆里",
        en="{address} was not invited: that address is not in your words or in a memory read this turn",
    ),
    "receipts.why.reported_invitation": Message(
        zh="你说的是别人邀请了你（“{word}”），没有说要记到日历里",
        en="you said someone invited you (“{word}”), not that it should go on your calendar",
    ),
    "receipts.why.will_email": Message(zh="这会给 {count} 个人发邮件：{people}", en="This will email {count} people: {people}"),
    "receipts.invite.accepted": Message(zh="已接受“{title}”的邀请：{line}", en="Accepted the invitation to “{title}”: {line}"),
    "receipts.invite.tentative": Message(
        zh="已暂定参加“{title}”（答复：暂定）：{line}", en="Answered “tentative” to “{title}”: {line}"
    ),
    "receipts.invite.declined": Message(
        zh="已拒绝“{title}”的邀请（日程保留，不占用忙碌时间）：{line}",
        en="Declined the invitation to “{title}” (kept, out of your busy time): {line}",
    ),
    "receipts.invite.reply_sent": Message(
        zh="你的答复（{answer}）会在下次同步时上传，支持邀请的服务器会把它发给组织者 {organizer}",
        en="Your answer ({answer}) is uploaded with the next sync;"
        " a server that handles invitations sends it to the organizer, {organizer}",
    ),
    "receipts.invite.reply_not_sent": Message(
        zh="没有发出答复：这个日历不与服务器同步，组织者 {organizer} 不会收到",
        en="No reply was sent: this calendar is not synced, so the organizer, {organizer}, is not told",
    ),
    "receipts.edit.verb.respond": Message(zh="答复", en="answer"),
    "receipts.invite.action": Message(
        zh="把 {target} 的邀请答复为“{answer}”", en="answer the invitation {target} with “{answer}”"
    ),
    "receipts.edit.why.answer_not_said": Message(
        zh="你这句话里没有说要“{answer}”", en="you did not say “{answer}” in your words"
    ),
}
