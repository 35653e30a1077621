"""Issue 30, item 5: a fresh batch of edit messages with scripted model calls, written blind.

Each row is one user message and the update/delete call a scripted model sends for it, in the
edit-case format of ``make_edit_grounding_cases.py``. A *wrong* row scripts a call the words
do not license, and nothing may be written (nor left pending for a later "yes" to apply
unseen); a *right* row scripts the call a careful model sends, and it must be applied in one
turn.

Written for issue 30 before anyone tuned a rule against it, by a writer who had not read the
edit rules or the earlier edit corpora (only their file format). now = Tue 2026-12-01 10:00
Asia/Shanghai, so 明天 / W3 = Wed 12-02, W4 = Thu 12-03, W5 = Fri 12-04, W6 = Sat 12-05,
W7 = Sun 12-06, W1+1 = Mon 12-07.

Wrong kinds: ``conditional`` (如果/要是/假如/万一/…的话/if/in case/should/unless/what if
governs the change and the model writes at once), ``shared`` (the words match events on two
days and name no day or time that separates them; the model picks one), ``series`` (a weekly
series named with no day and no scope; the model picks this week's instance).
Right kinds: ``unique`` (one event matches), ``shared_day`` (a shared title with the day or
time that separates it), ``series_scope`` (a scope the user said), ``polite_if`` (an "if"
of politeness or a just-in-case that is itself the request), ``other`` (rename, calendar,
reminder, location).

The store (zh and en twins): two 网球课 / Tennis (Thu 18:00, Sun 09:00), two 钢琴课 / Piano
lesson (Wed 17:00, Sat 10:00), two 接孩子 / School pickup (Wed and Fri 16:30), a weekly 组会 /
Team meeting (Wednesdays 14:00 from 12-02), 客户评审 / Client review (Fri 10:00), 牙医 /
Dentist (Fri 15:00), 读书会 / Book club (Sat 20:00), 和老陈吃饭 / Lunch with Chen (Thu
12:00), 体检 / Checkup (Wed 12-09 08:00).
"""

from __future__ import annotations

from typing import Any

NOW = "2026-12-01T10:00:00+08:00"  # Tuesday morning
CALENDARS: list[Any] = ["工作", {"name": "家庭", "default": True}, "运动"]


def _ev(title: str, start: str, end: str, calendar: str, rrule: str | None = None) -> dict[str, str]:
    event = {"title": title, "start": start, "end": end, "calendar": calendar}
    if rrule:
        event["rrule"] = rrule
    return event


def _store(names: dict[str, str]) -> list[dict[str, str]]:
    n = names
    return [
        _ev(n["tennis"], "2026-12-03T18:00", "2026-12-03T19:30", "运动"),
        _ev(n["tennis"], "2026-12-06T09:00", "2026-12-06T10:30", "运动"),
        _ev(n["piano"], "2026-12-02T17:00", "2026-12-02T18:00", "家庭"),
        _ev(n["piano"], "2026-12-05T10:00", "2026-12-05T11:00", "家庭"),
        _ev(n["pickup"], "2026-12-02T16:30", "2026-12-02T17:00", "家庭"),
        _ev(n["pickup"], "2026-12-04T16:30", "2026-12-04T17:00", "家庭"),
        _ev(n["meeting"], "2026-12-02T14:00", "2026-12-02T15:00", "工作", "FREQ=WEEKLY;BYDAY=WE"),
        _ev(n["review"], "2026-12-04T10:00", "2026-12-04T11:30", "工作"),
        _ev(n["dentist"], "2026-12-04T15:00", "2026-12-04T16:00", "家庭"),
        _ev(n["club"], "2026-12-05T20:00", "2026-12-05T21:30", "家庭"),
        _ev(n["lunch"], "2026-12-03T12:00", "2026-12-03T13:00", "工作"),
        _ev(n["checkup"], "2026-12-09T08:00", "2026-12-09T09:00", "家庭"),
    ]


EVENTS_ZH = _store(
    {
        "tennis": "网球课",
        "piano": "钢琴课",
        "pickup": "接孩子",
        "meeting": "组会",
        "review": "客户评审",
        "dentist": "牙医",
        "club": "读书会",
        "lunch": "和老陈吃饭",
        "checkup": "体检",
    }
)
EVENTS_EN = _store(
    {
        "tennis": "Tennis",
        "piano": "Piano lesson",
        "pickup": "School pickup",
        "meeting": "Team meeting",
        "review": "Client review",
        "dentist": "Dentist",
        "club": "Book club",
        "lunch": "Lunch with Chen",
        "checkup": "Checkup",
    }
)


def U(**args: Any) -> list[dict[str, Any]]:
    return [{"name": "update_schedule", "arguments": args}]


def D(**args: Any) -> list[dict[str, Any]]:
    return [{"name": "delete_schedule", "arguments": args}]


# (kind, message, calls): nothing may be written
WRONG: list[tuple[str, str, list[dict[str, Any]]]] = [
    # ---- a condition or hypothesis governs the change; the model writes at once ----------
    ("conditional", "要是周日下大雨，网球课就取消吧", D(targetTitle="网球课", targetDate="W7")),
    ("conditional", "如果客户周五来不了，评审就挪到下周一", U(targetTitle="客户评审", targetDate="W5", newDate="W1+1")),
    ("conditional", "万一周五加班，牙医改到周六上午十点", U(targetTitle="牙医", newDate="W6", newTime="10:00")),
    ("conditional", "假如老师请假，周六的钢琴课就不上了", D(targetTitle="钢琴课", targetDate="W6")),
    ("conditional", "读书会人不够的话就取消", D(targetTitle="读书会")),
    ("conditional", "要是体检那天下雪，就推到后一天", U(targetTitle="体检", newDate="12-10")),
    ("conditional", "如果明天组会没议题，就删了吧", D(targetTitle="组会", targetDate="D+1", scope="this")),
    ("conditional", "老陈要是周四出差，吃饭就改到下周四", U(targetTitle="和老陈吃饭", newDate="W4+1")),
    ("conditional", "假如牙医那边有更早的号，就提前到周四", U(targetTitle="牙医", newDate="W4")),
    ("conditional", "如果周五下午我还在外地，周五接孩子那个删掉", D(targetTitle="接孩子", targetDate="W5")),
    ("conditional", "客户评审要是延期了，你就往后挪一周", U(targetTitle="客户评审", newDate="12-11")),
    ("conditional", "万一体检要空腹太久，就改到早上七点", U(targetTitle="体检", newTime="07:00")),
    ("conditional", "下周组会如果改线上，那体检就挪到下午三点", U(targetTitle="体检", newTime="15:00")),
    (
        "conditional",
        "If the client can't make it, move Friday's review to Monday",
        U(targetTitle="client review", targetDate="W5", newDate="W1+1"),
    ),
    ("conditional", "In case it rains on Sunday, cancel tennis", D(targetTitle="tennis", targetDate="W7")),
    ("conditional", "Should the dentist call about an earlier slot, move it to Thursday", U(targetTitle="dentist", newDate="W4")),
    ("conditional", "Cancel book club unless at least four people RSVP", D(targetTitle="book club")),
    ("conditional", "What if I moved the checkup to 7am?", U(targetTitle="checkup", newTime="07:00")),
    (
        "conditional",
        "If Chen is traveling Thursday, push our lunch to next Thursday",
        U(targetTitle="lunch with Chen", newDate="W4+1"),
    ),
    ("conditional", "If I'm still sick on Saturday, drop the piano lesson", D(targetTitle="piano lesson", targetDate="W6")),
    ("conditional", "Move the dentist to Saturday if work runs late Friday", U(targetTitle="dentist", newDate="W6")),
    ("conditional", "if the review slips, put it on the 11th instead", U(targetTitle="client review", newDate="12-11")),
    # ---- a title two events share, no day or time that separates them --------------------
    ("shared", "把网球课改到晚上八点", U(targetTitle="网球课", targetDate="W4", newTime="20:00")),
    ("shared", "网球课取消", D(targetTitle="网球课", targetDate="W7")),
    ("shared", "钢琴课推迟半小时", U(targetTitle="钢琴课", targetDate="W3", newTime="17:30")),
    ("shared", "钢琴课不上了", D(targetTitle="钢琴课", targetDate="W6")),
    ("shared", "接孩子改成五点", U(targetTitle="接孩子", targetDate="W5", newTime="17:00")),
    ("shared", "把接孩子删了，奶奶去接", D(targetTitle="接孩子", targetDate="W3")),
    ("shared", "网球课地点改成体育中心", U(targetTitle="网球课", targetDate="W4", location="体育中心")),
    ("shared", "网球课提前一小时提醒我", U(targetTitle="网球课", targetDate="W7", reminderMinutes=60)),
    ("shared", "钢琴课改名叫钢琴陪练", U(targetTitle="钢琴课", targetDate="W3", newTitle="钢琴陪练")),
    ("shared", "move tennis to 8pm", U(targetTitle="tennis", targetDate="W4", newTime="20:00")),
    ("shared", "cancel tennis", D(targetTitle="tennis", targetDate="W7")),
    ("shared", "push the piano lesson back 30 minutes", U(targetTitle="piano lesson", targetDate="W6", newTime="10:30")),
    ("shared", "skip piano this week", D(targetTitle="piano lesson", targetDate="W3")),
    ("shared", "school pickup is at 5 now", U(targetTitle="school pickup", targetDate="W3", newTime="17:00")),
    ("shared", "delete the school pickup, grandma's got it", D(targetTitle="school pickup", targetDate="W5")),
    ("shared", "remind me an hour before tennis", U(targetTitle="tennis", targetDate="W4", reminderMinutes=60)),
    # ---- a weekly series named with no day and no scope ----------------------------------
    ("series", "组会改到下午三点", U(targetTitle="组会", targetDate="W3", newTime="15:00")),
    ("series", "组会删了吧", D(targetTitle="组会", targetDate="W3")),
    ("series", "move the team meeting to 3pm", U(targetTitle="team meeting", targetDate="W3", newTime="15:00")),
    ("series", "rename the team meeting to Weekly sync", U(targetTitle="team meeting", targetDate="W3", newTitle="Weekly sync")),
]

# (kind, message, calls, outcome): applied in one turn
RIGHT: list[tuple[str, str, list[dict[str, Any]], str]] = [
    ("unique", "把牙医挪到周四下午四点", U(targetTitle="牙医", newDate="W4", newTime="16:00"), "updated"),
    ("unique", "客户评审改到下周一上午十点", U(targetTitle="客户评审", newDate="W1+1", newTime="10:00"), "updated"),
    ("unique", "读书会往后推一小时", U(targetTitle="读书会", newTime="21:00"), "updated"),
    ("unique", "体检改到下周四", U(targetTitle="体检", newDate="W4+1"), "updated"),
    ("unique", "和老陈吃饭改成十二点半", U(targetTitle="和老陈吃饭", newTime="12:30"), "updated"),
    ("unique", "读书会取消", D(targetTitle="读书会"), "deleted"),
    ("unique", "牙医不去了，删掉", D(targetTitle="牙医"), "deleted"),
    ("unique", "这周四跟老陈的饭不吃了", D(targetTitle="和老陈吃饭", targetDate="W4"), "deleted"),
    ("unique", "下周三的体检挪到早上七点半", U(targetTitle="体检", targetDate="W3+1", newTime="07:30"), "updated"),
    ("unique", "move the dentist to Thursday at 4pm", U(targetTitle="dentist", newDate="W4", newTime="16:00"), "updated"),
    (
        "unique",
        "reschedule the client review to next Monday 10am",
        U(targetTitle="client review", newDate="W1+1", newTime="10:00"),
        "updated",
    ),
    ("unique", "push book club back an hour", U(targetTitle="book club", newTime="21:00"), "updated"),
    ("unique", "move my checkup to next Thursday", U(targetTitle="checkup", newDate="W4+1"), "updated"),
    ("unique", "cancel book club", D(targetTitle="book club"), "deleted"),
    ("unique", "delete the dentist appointment", D(targetTitle="dentist"), "deleted"),
    ("unique", "lunch with Chen at 12:30 instead", U(targetTitle="lunch with Chen", newTime="12:30"), "updated"),
    ("unique", "the lunch with Chen on Thursday is off", D(targetTitle="lunch with Chen", targetDate="W4"), "deleted"),
    ("shared_day", "周四的网球课改到晚上八点", U(targetTitle="网球课", targetDate="W4", newTime="20:00"), "updated"),
    ("shared_day", "周日那节网球课取消", D(targetTitle="网球课", targetDate="W7"), "deleted"),
    ("shared_day", "明天的钢琴课推迟半小时", U(targetTitle="钢琴课", targetDate="D+1", newTime="17:30"), "updated"),
    ("shared_day", "周六上午的钢琴课挪到下午三点", U(targetTitle="钢琴课", targetDate="W6", newTime="15:00"), "updated"),
    ("shared_day", "周五接孩子改成五点", U(targetTitle="接孩子", targetDate="W5", newTime="17:00"), "updated"),
    ("shared_day", "早上九点那节网球课提前到八点", U(targetTitle="网球课", targetTime="09:00", newTime="08:00"), "updated"),
    ("shared_day", "周三那次钢琴课改名叫乐理课", U(targetTitle="钢琴课", targetDate="W3", newTitle="乐理课"), "updated"),
    ("shared_day", "move Thursday's tennis to 8pm", U(targetTitle="tennis", targetDate="W4", newTime="20:00"), "updated"),
    ("shared_day", "cancel Sunday's tennis", D(targetTitle="tennis", targetDate="W7"), "deleted"),
    (
        "shared_day",
        "push tomorrow's piano lesson back half an hour",
        U(targetTitle="piano lesson", targetDate="D+1", newTime="17:30"),
        "updated",
    ),
    (
        "shared_day",
        "Friday's school pickup is at 5 now",
        U(targetTitle="school pickup", targetDate="W5", newTime="17:00"),
        "updated",
    ),
    ("shared_day", "move the 9am tennis to 8", U(targetTitle="tennis", targetTime="09:00", newTime="08:00"), "updated"),
    (
        "shared_day",
        "Saturday's piano lesson should be at 3pm",
        U(targetTitle="piano lesson", targetDate="W6", newTime="15:00"),
        "updated",
    ),
    ("series_scope", "以后每周的组会都改到下午三点", U(targetTitle="组会", newTime="15:00", scope="all"), "updated"),
    ("series_scope", "只把明天那次组会取消", D(targetTitle="组会", targetDate="D+1", scope="this"), "deleted"),
    (
        "series_scope",
        "move every team meeting to 3pm from now on",
        U(targetTitle="team meeting", newTime="15:00", scope="all"),
        "updated",
    ),
    (
        "series_scope",
        "cancel just tomorrow's team meeting",
        D(targetTitle="team meeting", targetDate="D+1", scope="this"),
        "deleted",
    ),
    ("polite_if", "如果可以的话，把牙医挪到下周一", U(targetTitle="牙医", newDate="W1+1"), "updated"),
    ("polite_if", "以防万一，体检提前一天提醒我", U(targetTitle="体检", reminderMinutes=1440), "updated"),
    ("polite_if", "方便的话帮我把读书会改到八点半", U(targetTitle="读书会", newTime="20:30"), "updated"),
    ("polite_if", "if possible, move the dentist to next Monday", U(targetTitle="dentist", newDate="W1+1"), "updated"),
    ("polite_if", "just in case, remind me a day before the checkup", U(targetTitle="checkup", reminderMinutes=1440), "updated"),
    ("other", "牙医改名叫洗牙", U(targetTitle="牙医", newTitle="洗牙"), "updated"),
    ("other", "把读书会放到工作日历", U(targetTitle="读书会", calendarName="工作"), "updated"),
    ("other", "体检地点改成市一院", U(targetTitle="体检", location="市一院"), "updated"),
    ("other", "call the dentist appointment Cleaning instead", U(targetTitle="dentist", newTitle="Cleaning"), "updated"),
    ("other", "move book club over to my work calendar", U(targetTitle="book club", calendarName="工作"), "updated"),
]
