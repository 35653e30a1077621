"""Messages of the facts card (codes ``facts.*``; ``agent/runtime/facts_card.py``).

The card code writes under a model reply that talked about the calendar without reading
it (issue 30, item 4): what the store holds for the day or range the user named, or the
next event code's own search found. Every piece is built from the query's rows only.
"""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    # The card's title in the chat pane and its first words in `richeng chat` text output.
    "facts.head": Message(zh="日历里查到的", en="From your calendar"),
    "facts.line": Message(zh="{head}：{body}", en="{head}: {body}"),
    "facts.range": Message(zh="{label}：{count} 个安排 · {items}", en="{label}: {count} event(s) · {items}"),
    "facts.range_empty": Message(zh="{label}：没有安排", en="{label}: nothing scheduled"),
    "facts.item_sep": Message(zh=" · ", en=" · "),
    "facts.more": Message(zh="……还有 {more} 个", en="… and {more} more"),
    "facts.all_day": Message(zh="全天", en="all day"),
    "facts.item": Message(zh="{when} {title}", en="{when} {title}"),
    "facts.next": Message(zh="下一个“{words}”：{when} {title}", en="Next “{words}”: {when} {title}"),
    "facts.next_none": Message(zh="{label}没有找到“{words}”", en="No “{words}” found for {label}"),
}
