"""Messages of agent/ics (codes ``ics.*``); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    "ics.no_calendar": Message(
        "没有名为「{name}」的日历；现有日历：{calendars}", "no calendar named '{name}'; calendars: {calendars}"
    ),
    "ics.broken_utf16": Message("无法导入 {name}：UTF-16 文本已损坏", "cannot import {name}: broken UTF-16 text"),
    "ics.unknown_encoding": Message(
        "无法导入 {name}：无法识别它的文本编码", "cannot import {name}: its text encoding is unknown"
    ),
    "ics.not_icalendar": Message(
        "无法导入 {name}：它不是 iCalendar 文件（没有找到 BEGIN:VCALENDAR）",
        "cannot import {name}: it is not an iCalendar file (no BEGIN:VCALENDAR found)",
    ),
}
