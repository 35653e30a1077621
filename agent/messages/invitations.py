"""Messages of the invitation flow (codes ``invitations.*``: agent/ics/itip.py, the CLI's
``invitation`` commands and the app's invitation bar); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {
    "invitations.no_uid": Message(
        "邀请中的一个日程没有 UID，未导入（没有 UID 就无法与组织者的日程对应）",
        "an event of the invitation has no UID and was not imported (without one it cannot be matched to the organizer's event)",
    ),
    "invitations.no_method": Message(
        "{name} 不是邀请：它的日历没有 METHOD（REQUEST、REPLY、CANCEL …）；用 richeng import 导入普通日历文件",
        "{name} is not an invitation: its calendar has no METHOD (REQUEST, REPLY, CANCEL ...);"
        " use richeng import for a plain calendar file",
    ),
    "invitations.no_event": Message("邀请中没有可用的日程：{problem}", "the invitation holds no usable event: {problem}"),
    "invitations.nothing": Message("文件中没有日程", "the file has no event"),
    "invitations.not_a_request": Message(
        "只能答复邀请（METHOD:REQUEST），这个文件是 {method}",
        "only an invitation (METHOD:REQUEST) can be answered; this file is {method}",
    ),
    "invitations.not_attendee": Message(
        "{email} 不在日程 {uid} 的参与者中；没有写入任何内容",
        "{email} is not an attendee of event {uid}; nothing was written",
    ),
    "invitations.answer_needed": Message(
        "请用 --accept、--tentative 或 --decline 之一给出答复", "give one answer: --accept, --tentative or --decline"
    ),
    "invitations.no_attendees": Message(
        "日程 {uid} 没有参与者：没有邀请可写", "event {uid} has no attendees: there is no invitation to write"
    ),
    "invitations.not_organizer": Message(
        "日程 {uid} 由 {organizer} 组织：邀请和取消由组织者发出；你可以用 richeng invitation respond 答复",
        "event {uid} is organised by {organizer}: its invitations and cancellations are the organizer's to send;"
        " answer it with richeng invitation respond",
    ),
    "invitations.answer_accepted": Message("接受", "accepted"),
    "invitations.answer_tentative": Message("暂定", "tentative"),
    "invitations.answer_declined": Message("拒绝", "declined"),
    "invitations.answer_needs_action": Message("未答复", "not answered"),
}
