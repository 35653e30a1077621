"""Messages of agent/runtime (codes ``runtime.*``); see catalogue.py.

The guard's honest replacements (``runtime.honest.<claim kind>``), the tools' status labels
while they run (``runtime.status.<tool>``), the council's advisors, and the turn's errors.
"""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # ---- the exit guard's replacement for a reply that claimed what did not happen ------
    "runtime.honest.create": Message(
        zh="抱歉，我刚才的回复不属实：这一轮没有创建任何日程，日历没有变化。请再告诉我一次要安排什么，或者直接在日历里添加。",
        en="Sorry — my reply was not true: nothing was created this turn, and your calendar is unchanged. "
        "Tell me again what to add, or add it in the calendar directly.",
    ),
    "runtime.honest.update": Message(
        zh="抱歉，我刚才的回复不属实：这一轮没有修改任何日程，日历没有变化。要改时间，可以在日历里拖动或编辑它。",
        en="Sorry — my reply was not true: nothing was changed this turn, and your calendar is unchanged. "
        "To move an event, drag or edit it in the calendar.",
    ),
    "runtime.honest.delete": Message(
        zh="抱歉，我刚才的回复不属实：这一轮没有删除或取消任何日程，日历没有变化。要删除日程，请在日历里选中它删除。",
        en="Sorry — my reply was not true: nothing was deleted or cancelled this turn, and your calendar is unchanged. "
        "To delete an event, select it in the calendar and delete it.",
    ),
    "runtime.honest.memory": Message(
        zh="抱歉，我刚才的回复不属实：这一轮没有保存任何记忆。想让我记住什么，请说“请记住……”。",
        en="Sorry — my reply was not true: nothing was saved to memory this turn. "
        "To have me remember something, say “remember that …”.",
    ),
    "runtime.honest.state": Message(
        zh="抱歉，我还没有查看你的日历，不能说那段时间有什么安排。可以问我“明天有什么安排”这样的问题，我会去查。",
        en="Sorry — I haven't looked at your calendar, so I can't say what is on it. Ask me something like "
        "“what's on tomorrow?” and I'll check.",
    ),
    # ---- the repeat latch's lines under a grounding question (agent/runtime/repeat_slots.py):
    # what the user did not say this turn, and what would be written; ``value`` is shown as is
    "runtime.why.repeat_days": Message(zh="你没有说是这几天：{value}。", en="You did not name these days: {value}."),
    "runtime.why.repeat_interval": Message(
        zh="你没有说隔多久重复一次（会写成{value}一次）。", en="You did not say how often it repeats (it would be {value})."
    ),
    "runtime.why.repeat_month_day": Message(
        zh="你没有说是每月哪一天（会写成{value}）。", en="You did not say which day of the month (it would be {value})."
    ),
    "runtime.why.repeat_count": Message(
        zh="你没有说一共几次（会写成 {value} 次）。", en="You did not say how many times (it would be {value})."
    ),
    "runtime.why.repeat_until": Message(
        zh="你没有说到哪天为止（会写成到 {value}）。", en="You did not say when it ends (it would be {value})."
    ),
    "runtime.why.zone": Message(
        zh="你没有说这是哪个时区的时间（会按 {value} 写入）。",
        en="You did not say which time zone the time is in (it would be {value}).",
    ),
    "runtime.why.tags": Message(zh="你没有说要加这些标签：{value}。", en="You did not give these tags: {value}."),
    "runtime.why.sep": Message(zh="、", en=", "),
    "runtime.why.weekday": Message(zh="每周{w}", en="every {w}"),
    "runtime.why.nth_weekday": Message(zh="第{n}个周{w}", en="the {n}. {w}"),
    "runtime.why.last_weekday": Message(zh="最后一个周{w}", en="the last {w}"),
    "runtime.why.month_end": Message(zh="月底", en="the last day"),
    "runtime.why.every": Message(zh="每 {n} {unit}", en="every {n} {unit}"),
    "runtime.why.unit.daily": Message(zh="天", en="days"),
    "runtime.why.unit.weekly": Message(zh="周", en="weeks"),
    "runtime.why.unit.monthly": Message(zh="个月", en="months"),
    "runtime.why.unit.yearly": Message(zh="年", en="years"),
    # ---- what the UI shows while a tool runs --------------------------------------------
    "runtime.status.create": Message(zh="正在准备日程…", en="Preparing the event…"),
    "runtime.status.update": Message(zh="正在修改日程…", en="Changing the event…"),
    "runtime.status.delete": Message(zh="正在删除日程…", en="Deleting the event…"),
    "runtime.status.respond": Message(zh="正在答复邀请…", en="Answering the invitation…"),
    "runtime.status.query": Message(zh="正在查看日历…", en="Reading your calendar…"),
    "runtime.status.free_time": Message(zh="正在找空闲时间…", en="Looking for free time…"),
    "runtime.status.cancel": Message(zh="正在取消…", en="Cancelling…"),
    "runtime.status.remember": Message(zh="正在记住…", en="Remembering…"),
    "runtime.status.council": Message(zh="正在考虑…", en="Thinking it over…"),
    "runtime.status.recall": Message(zh="正在搜索记忆…", en="Searching memories…"),
    "runtime.status.search_chats": Message(zh="正在搜索以前的对话…", en="Searching earlier chats…"),
    "runtime.status.working": Message(zh="处理中…", en="Working…"),
    # ---- the council (``council.py``): each advisor's name and view ----------------------
    "runtime.council.focus": Message(zh="效率顾问", en="Focus advisor"),
    "runtime.council.wellbeing": Message(zh="健康顾问", en="Well-being advisor"),
    "runtime.council.people": Message(zh="关系顾问", en="People advisor"),
    "runtime.council.view": Message(zh="{name}：{text}", en="{name}: {text}"),
    # ---- the turn -----------------------------------------------------------------------
    "runtime.no_receipt": Message(zh="工具 {tool} 没有回执", en="no receipt for tool {tool}"),
}
