"""Held-out phrasings for issue 30's items 1 and 3, written before any rule was tuned.

The helper who wrote the conditional and narrative-past rules wrote these rows *first*, after
reading the fresh batches' first-sight report but before changing any rule, so they measure
wording the rules were not tuned on (they are still the rule writer's own sentences: an
upper bound, reported apart from the blind ``fresh30`` batches). They reuse the fresh batch's
store (``fresh30_edits.EVENTS_ZH`` / ``EVENTS_EN``) and its now, Tue 2026-12-01 10:00
Asia/Shanghai.

Corpus errors fixed after the first run (not rule tuning): two polite moves of the dentist
to 16:00 ran into the 16:30 school pickup (a real conflict, so they asked); they move it to
13:00 now.

Rows: ``WRONG`` ``(message, calls)``: a condition governs the change and the model writes at
once (nothing may be written or left pending); ``RIGHT`` ``(message, calls, outcome)``: a
polite "if" or just-in-case that is itself the request (applied in one turn); ``PAST`` and
``REAL`` in the format of ``fresh30_past.py``.
"""

from __future__ import annotations

from typing import Any

from evals.corpora.fresh30_edits import D, U

WRONG: list[tuple[str, list[dict[str, Any]]]] = [
    ("倘若周五客户评审改期，牙医就挪到上午十点", U(targetTitle="牙医", newTime="10:00")),
    ("要是下雨的话，周日网球课删掉", D(targetTitle="网球课", targetDate="W7")),
    ("读书会如果只有我一个人去，那就取消", D(targetTitle="读书会")),
    ("假设老陈周四没空，把吃饭推到周五", U(targetTitle="和老陈吃饭", newDate="W5")),
    ("一旦周五要加班，牙医就改到下周一下午三点", U(targetTitle="牙医", newDate="W1+1", newTime="15:00")),
    ("除非老师回我消息，周六钢琴课就不上了", D(targetTitle="钢琴课", targetDate="W6")),
    ("体检前一天要是还发烧，就把体检往后推一周", U(targetTitle="体检", newDate="12-16")),
    ("万一周四堵车，和老陈吃饭改到一点", U(targetTitle="和老陈吃饭", newTime="13:00")),
    ("客户评审如果提前结束，牙医就提前到下午两点", U(targetTitle="牙医", newTime="14:00")),
    ("周日天气不好的话网球课就改到下午三点", U(targetTitle="网球课", targetDate="W7", newTime="15:00")),
    ("If it snows Sunday, cancel tennis", D(targetTitle="tennis", targetDate="W7")),
    ("Push the client review to next Monday if the deck isn't ready", U(targetTitle="client review", newDate="W1+1")),
    (
        "In case my flight is late, move Thursday's lunch with Chen to 1pm",
        U(targetTitle="lunch with Chen", targetDate="W4", newTime="13:00"),
    ),
    ("Unless Chen confirms by tonight, cancel our lunch", D(targetTitle="lunch with Chen")),
    ("Should the book club turn out too small, delete it", D(targetTitle="book club")),
    ("What if we moved book club to Sunday?", U(targetTitle="book club", newDate="W7")),
    ("If the kids are sick Saturday, drop piano", D(targetTitle="piano lesson", targetDate="W6")),
    ("Assuming the checkup needs fasting, make it 7am", U(targetTitle="checkup", newTime="07:00")),
    ("Cancel the dentist if the insurance doesn't cover it", D(targetTitle="dentist")),
    ("in the event that it rains sunday, move tennis to 4pm", U(targetTitle="tennis", targetDate="W7", newTime="16:00")),
]

RIGHT: list[tuple[str, list[dict[str, Any]], str]] = [
    ("如果方便，帮我把牙医改到下午一点", U(targetTitle="牙医", newTime="13:00"), "updated"),
    ("可以的话把读书会挪到周日晚上八点", U(targetTitle="读书会", newDate="W7", newTime="20:00"), "updated"),
    ("If you can, move the dentist to 1pm", U(targetTitle="dentist", newTime="13:00"), "updated"),
    ("Cancel the book club please, if that's ok", D(targetTitle="book club"), "deleted"),
    ("以防万一，牙医提前两小时提醒我", U(targetTitle="牙医", reminderMinutes=120), "updated"),
    ("Just in case, remind me 2 hours before the dentist", U(targetTitle="dentist", reminderMinutes=120), "updated"),
]

PAST: list[tuple[str, str, str, str, str | None]] = [
    ("plan_done", "原定周三的复查，医生前天就帮我看了", "复查", "W3", "10:00"),
    ("plan_done", "按计划周末才去买年货，结果今天一早已经买齐了", "买年货", "W6", None),
    ("plan_done", "本该下周交的报名表，我昨天下午就交上去了", "交报名表", "W2+1", None),
    ("plan_done", "说好下周一装宽带，师傅刚才已经装好了", "装宽带", "W1+1", "10:00"),
    ("plan_done", "原本下个月的牙齿矫正复诊，上周三就提前去了", "矫正复诊", "12-15", None),
    ("diary", "周日（11月29日）\n早上去爬了香山，中午在山下吃了农家菜。", "爬香山", "W7", "08:00"),
    ("diary", "11月30号 阴\n下午陪老婆去看了牙，晚上一起看了场电影。", "看牙", "W1+1", "14:00"),
    ("reported", "今天中午食堂排队排了四十分钟", "食堂", "D+1", "12:00"),
    ("reported", "周六的婚礼新娘迟到了两个小时", "婚礼", "W6", "11:00"),
    ("early", "妈妈的生日在下周四，我们周末已经提前吃过蛋糕了", "妈妈生日", "W4+1", None),
    ("early", "元旦聚餐公司提前到上周五办了", "元旦聚餐", "12-31", "18:00"),
    (
        "plan_done",
        "The pest control visit was set for Thursday, but they came this morning instead",
        "pest control",
        "W4",
        "10:00",
    ),
    ("plan_done", "I'd planned to get my flu shot next week, but I got it yesterday at the pharmacy", "flu shot", "W2+1", None),
    ("diary", "Saturday, Nov 28 — farmers market in the morning, then a long nap.", "farmers market", "W6", "09:00"),
    ("diary", "Monday 11/30. Dentist at 9, gym at 6, early night.", "gym", "W1+1", "18:00"),
    ("reported", "The mechanic made us wait two hours at the garage", "mechanic", "D+1", "10:00"),
    ("early", "Our book club met a week early, on Sunday, because of the holidays", "book club", "W7+1", "19:00"),
    ("early", "We threw Dad's retirement party early, last Friday", "retirement party", "12-18", "18:00"),
    ("reported", "My kid's teacher called me in after school yesterday about a fight", "teacher meeting", "D+0", "16:00"),
    ("plan_done", "The landlord was supposed to fix the heater on Friday but he showed up last night", "fix heater", "W5", None),
]

REAL: list[tuple[str, str, str, str | None, str]] = [
    ("上次取消的理发，重新约到周六下午三点", "理发", "W6", "15:00", "2026-12-05T15:00"),
    ("刚刚医生打电话，复诊改在周四上午九点", "复诊", "W4", "09:00", "2026-12-03T09:00"),
    ("之前没去成的博物馆，这周日上午十点去", "去博物馆", "W7", "10:00", "2026-12-06T10:00"),
    ("昨天订的蛋糕，周五下午五点去取", "取蛋糕", "W5", "17:00", "2026-12-04T17:00"),
    ("已经约好了周三晚上七点和小李吃饭", "和小李吃饭", "W3", "19:00", "2026-12-02T19:00"),
    ("上周推迟的部门会议，改在下周二下午两点", "部门会议", "W2+1", "14:00", "2026-12-08T14:00"),
    ("去年的体检报告要复查，约在12月10号上午八点", "复查", "12-10", "08:00", "2026-12-10T08:00"),
    ("刚报名了下周六的亲子活动，上午九点开始", "亲子活动", "W6+1", "09:00", "2026-12-12T09:00"),
    ("之前约过的那家餐厅，周六晚上六点再去一次", "餐厅", "W6", "18:00", "2026-12-05T18:00"),
    ("I rescheduled the call with Priya for Thursday at 4pm", "call with Priya", "W4", "16:00", "2026-12-03T16:00"),
    ("Booked a table at Nando's for Friday 7pm", "Nando's", "W5", "19:00", "2026-12-04T19:00"),
    ("The plumber who came last week is coming back Saturday at 10", "plumber", "W6", "10:00", "2026-12-05T10:00"),
    ("Got invited to a baby shower on Sunday at 2pm", "baby shower", "W7", "14:00", "2026-12-06T14:00"),
    ("Already paid for yoga, class is Wednesday at 7pm", "yoga class", "W3", "19:00", "2026-12-02T19:00"),
    ("The haircut I cancelled last time is now Monday at 11am", "haircut", "W1+1", "11:00", "2026-12-07T11:00"),
]
