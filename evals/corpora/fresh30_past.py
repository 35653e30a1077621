"""Issue 30, item 5: a fresh batch of past remarks and real requests, written blind to the rules.

*Remarks* tell of something that already happened and ask for nothing; each is scripted with
a deliberately wrong model that turns it into a create (on a day and time still ahead, so a
past-time check alone cannot save it): nothing may be written. *Requests* ask for something
ahead but carry past-looking words (之前推掉的…重新约在…, "I signed up for…", 已经订好了…);
each is scripted with the model call a careful model sends and must be created in one turn.

Written for issue 30 before anyone tuned a rule against it, by a writer who had not read the
grounding rules or corpora (only their file format). now = Tue 2026-12-01 10:00
Asia/Shanghai for every row (the format lets each row carry its own now; this batch uses one).

Remark kinds: ``plan_done`` (本来/原本/原计划/说好 … 已经/提前 … 了; "was supposed to … but …
already"), ``diary`` (a date heading, then an account), ``reported`` (an experience told after
the fact), ``early`` (celebrated or held early).

Rows: PAST ``(kind, text, title the wrong model invents, dateExpression, time or None)``;
REAL ``(text, title, dateExpression, time or None, expected start)``.
"""

from __future__ import annotations

NOW = "2026-12-01T10:00:00+08:00"  # Tuesday morning

PAST: list[tuple[str, str, str, str, str | None]] = [
    # ---- plan, then done early -----------------------------------------------------------
    ("plan_done", "原本约在下周二的复诊，医生临时有空，昨天就看完了", "复诊", "W2+1", "10:00"),
    ("plan_done", "本来说好周五交的方案，我昨晚已经发给客户了", "交方案", "W5", None),
    ("plan_done", "原计划下周去杭州出差，结果上周就提前去过了", "杭州出差", "W1+1", None),
    ("plan_done", "说好周六一起吃饭的，结果大家昨天就聚过了", "一起吃饭", "W6", "18:00"),
    ("plan_done", "年检本来排在月底，今天一早已经弄好了", "年检", "12-28", None),
    ("plan_done", "本来明天才要搬家，东西今天上午就都搬完了", "搬家", "D+1", None),
    ("plan_done", "原本周四的面试，HR说改成线上，昨天已经面了", "面试", "W4", "14:00"),
    ("plan_done", "签证原计划下周三去办，前天已经办下来了", "办签证", "W3+1", None),
    ("plan_done", "说好的家访本来在周日，老师上周末就来过了", "家访", "W7", "15:00"),
    ("plan_done", "房租本来15号交，我已经提前转过去了", "交房租", "12-15", None),
    ("plan_done", "体检原来约的是下周，这周一就提前做完了", "体检", "W2+1", "08:00"),
    ("plan_done", "本来打算周五去取护照，昨天顺路已经拿到了", "取护照", "W5", None),
    (
        "plan_done",
        "We were supposed to meet the contractor on Friday, but he came by yesterday",
        "meet the contractor",
        "W5",
        "10:00",
    ),
    (
        "plan_done",
        "The inspection was scheduled for next week but they already did it on Monday",
        "inspection",
        "W2+1",
        None,
    ),
    ("plan_done", "I was going to renew my license on the 15th, but I already did it online", "renew license", "12-15", None),
    ("plan_done", "Our team lunch was planned for Thursday but we ended up going yesterday", "team lunch", "W4", "12:00"),
    (
        "plan_done",
        "Originally the vet visit was Saturday; they fit us in this morning instead",
        "vet visit",
        "W6",
        "10:00",
    ),
    (
        "plan_done",
        "The parent meeting was supposed to be next Tuesday but it got moved up and happened last night",
        "parent meeting",
        "W2+1",
        "18:00",
    ),
    ("plan_done", "Meant to return the rental car Sunday, dropped it off already", "return rental car", "W7", None),
    (
        "plan_done",
        "The piano tuner was booked for the 10th, but she showed up early and it's done",
        "piano tuner",
        "12-10",
        None,
    ),
    # ---- a date heading, then a diary account --------------------------------------------
    ("diary", "11月29日 周日 晴\n上午带女儿去了科技馆，下午回来包了饺子。", "带女儿去科技馆", "W7", "10:00"),
    ("diary", "【11.30 周一】\n早上开了部门例会，中午跟老刘吃了兰州拉面，晚上加班到九点。", "部门例会", "W1+1", "09:00"),
    ("diary", "12/1 日记：七点起床跑了五公里，然后去咖啡店写了两小时稿子。", "跑步", "D+1", "07:00"),
    ("diary", "周六（11月28日）\n陪爸妈去看了老房子，顺便在外婆家吃了晚饭。", "陪爸妈看老房子", "W6", "14:00"),
    ("diary", "日记 11/27 周五：下午去医院拆了线，医生说恢复得不错。", "医院拆线", "W5", "15:00"),
    ("diary", "今日记录 12.01\n早上和设计师过了一遍首页，九点半结束。", "和设计师过首页", "D+0", "14:00"),
    ("diary", "Sunday, Nov 29\nTook the kids ice skating in the morning, then pancakes at home.", "ice skating", "W7", "10:00"),
    ("diary", "Journal, Mon 11/30: dentist at 8, then a long planning meeting until lunch.", "planning meeting", "W1+1", "09:00"),
    ("diary", "Dec 1 log: ran 5k before work, met Jo for coffee at 9.", "coffee with Jo", "D+0", "15:00"),
    ("diary", "Sat 28th. Drove up to the cabin, hiked to the lake, back by dark.", "hike to the lake", "W6", "09:00"),
    # ---- reported experience -------------------------------------------------------------
    ("reported", "今天早上宠物医院让我们等了一个小时", "宠物医院", "D+0", "15:00"),
    ("reported", "昨天去银行办事，排队排了快两个钟头", "去银行办事", "D+1", "10:00"),
    ("reported", "刚才在4S店保养，师傅说刹车片该换了", "4S店保养", "D+0", "14:00"),
    ("reported", "上午的驾校课教练一直在骂人", "驾校课", "D+0", "16:00"),
    ("reported", "周一的家长会老师点名表扬了儿子", "家长会", "W1+1", "18:00"),
    ("reported", "今天早上地铁故障，我迟到了半小时", "地铁", "D+1", "08:00"),
    ("reported", "前天理发师把我的刘海剪太短了", "理发", "D+2", "11:00"),
    ("reported", "The vet kept us waiting an hour this morning", "vet", "D+0", "16:00"),
    ("reported", "My flight yesterday was delayed three hours", "flight", "D+1", "09:00"),
    ("reported", "The plumber finally showed up around noon on Sunday", "plumber", "W7", "12:00"),
    ("reported", "At Monday's standup my manager announced she's leaving", "standup", "W1+1", "09:30"),
    ("reported", "The yoga instructor didn't show up this morning, so class was cancelled", "yoga class", "D+1", "07:00"),
    ("reported", "We got stuck in traffic for two hours on the way to the wedding Saturday", "wedding", "W6", "11:00"),
    # ---- celebrated / held early ---------------------------------------------------------
    ("early", "小王的生日其实是周六，我们昨天晚上就提前给他过了", "小王生日", "W6", "19:00"),
    ("early", "结婚纪念日在下周，我们上周末已经提前庆祝过了", "结婚纪念日", "W3+1", None),
    ("early", "公司年会本来在月底，今年提前到上周五就办完了", "公司年会", "12-31", "18:00"),
    ("early", "奶奶八十大寿本来下周日办，因为表哥要出国，上周日就提前办了", "奶奶八十大寿", "W7+1", "12:00"),
    ("early", "圣诞派对我们提前在上周六开过了", "圣诞派对", "12-25", "19:00"),
    (
        "early",
        "We celebrated Mom's birthday early, on Sunday, since she's traveling on the actual day",
        "Mom's birthday",
        "12-10",
        None,
    ),
    ("early", "Had our Christmas dinner early last weekend because of everyone's flights", "Christmas dinner", "12-25", "18:00"),
    ("early", "Threw Lily's graduation party a week early, last Saturday", "Lily's graduation party", "W6+1", "15:00"),
    ("early", "Our anniversary is on the 12th but we already went out for it on Friday", "anniversary dinner", "12-12", "19:00"),
]

REAL: list[tuple[str, str, str, str | None, str]] = [
    ("之前推掉的面试重新约在周四上午十点", "面试", "W4", "10:00", "2026-12-03T10:00"),
    ("上次没去成的牙医，改约到下周一下午两点", "牙医", "W1+1", "14:00", "2026-12-07T14:00"),
    ("昨天说的那个饭局定了，周五晚上七点", "饭局", "W5", "19:00", "2026-12-04T19:00"),
    ("原本取消的瑜伽课又恢复了，周六早上九点", "瑜伽课", "W6", "09:00", "2026-12-05T09:00"),
    ("已经报名了周日下午的陶艺课，两点开始", "陶艺课", "W7", "14:00", "2026-12-06T14:00"),
    ("刚订好的机票，12月18号早上八点起飞", "航班", "12-18", "08:00", "2026-12-18T08:00"),
    ("上周说好的复盘会定在明天下午三点", "复盘会", "D+1", "15:00", "2026-12-02T15:00"),
    ("之前改过一次的家长会，最终定在下周三晚上七点", "家长会", "W3+1", "19:00", "2026-12-09T19:00"),
    ("去年没去成的年会，今年是24号晚上六点", "年会", "12-24", "18:00", "2026-12-24T18:00"),
    ("老板刚才通知，周四下午四点全员开会", "全员开会", "W4", "16:00", "2026-12-03T16:00"),
    ("我已经约了周五下午三点修空调", "修空调", "W5", "15:00", "2026-12-04T15:00"),
    ("昨天错过的快递，约了明天上午十一点再送", "快递再送", "D+1", "11:00", "2026-12-02T11:00"),
    ("本来以为结束了的培训还有一节，下周二上午九点", "培训", "W2+1", "09:00", "2026-12-08T09:00"),
    ("之前提过的体检，定在下周四早上八点", "体检", "W4+1", "08:00", "2026-12-10T08:00"),
    ("刚才和房东谈好了，周六上午十点去签合同", "签合同", "W6", "10:00", "2026-12-05T10:00"),
    ("上个月推迟的同学会，改到20号中午十二点", "同学会", "12-20", "12:00", "2026-12-20T12:00"),
    ("被取消的航班改签到后天下午一点", "航班", "D+2", "13:00", "2026-12-03T13:00"),
    ("早就说要去看的展，这周日下午三点去", "看展", "W7", "15:00", "2026-12-06T15:00"),
    ("之前做过的那家店的美甲，明天晚上七点再去一次", "美甲", "D+1", "19:00", "2026-12-02T19:00"),
    ("已经跟王老师约好，下周一下午四点补课", "补课", "W1+1", "16:00", "2026-12-07T16:00"),
    ("上次体检没做的胃镜，约在12月15号上午九点", "胃镜", "12-15", "09:00", "2026-12-15T09:00"),
    ("原定的周会挪到了周五上午十点，帮我记一下", "周会", "W5", "10:00", "2026-12-04T10:00"),
    ("说好的火锅改成周六晚上六点半", "火锅", "W6", "18:30", "2026-12-05T18:30"),
    ("已经交了定金的摄影，周日上午十点拍", "摄影", "W7", "10:00", "2026-12-06T10:00"),
    ("今天上午刚确认的：下午三点和供应商开会", "和供应商开会", "D+0", "15:00", "2026-12-01T15:00"),
    ("昨天挂上号了，周四上午九点半看皮肤科", "看皮肤科", "W4", "09:30", "2026-12-03T09:30"),
    ("之前聊过的那个合作，约在下周二下午两点细谈", "细谈合作", "W2+1", "14:00", "2026-12-08T14:00"),
    ("已经订好了周五晚上八点的餐厅", "餐厅", "W5", "20:00", "2026-12-04T20:00"),
    ("昨晚答应女儿了，周六下午一点出发去游乐园", "去游乐园", "W6", "13:00", "2026-12-05T13:00"),
    ("前面请假没上的钢琴课，补在周日上午十一点", "钢琴课", "W7", "11:00", "2026-12-06T11:00"),
    ("医生上次交代的复查，明天下午四点", "复查", "D+1", "16:00", "2026-12-02T16:00"),
    ("我报了下周六的马拉松，早上七点起跑", "马拉松", "W6+1", "07:00", "2026-12-12T07:00"),
    ("I signed up for a pottery class Saturday at 2pm", "pottery class", "W6", "14:00", "2026-12-05T14:00"),
    ("The interview I postponed is now Thursday at 10am", "interview", "W4", "10:00", "2026-12-03T10:00"),
    ("Already booked a massage for Sunday at 4", "massage", "W7", "16:00", "2026-12-06T16:00"),
    ("The dentist I missed last week rescheduled me for Monday at 9", "dentist", "W1+1", "09:00", "2026-12-07T09:00"),
    ("Just got tickets, concert on the 18th at 8pm", "concert", "12-18", "20:00", "2026-12-18T20:00"),
    ("We agreed yesterday: project kickoff Wednesday 2pm", "project kickoff", "W3", "14:00", "2026-12-02T14:00"),
    ("My cancelled flight was rebooked for Friday at 7am", "flight", "W5", "07:00", "2026-12-04T07:00"),
    ("I registered for the 10k on the 13th, starts at 8", "10k race", "12-13", "08:00", "2026-12-13T08:00"),
    ("The meeting we pushed last time is now next Tuesday at 3", "meeting", "W2+1", "15:00", "2026-12-08T15:00"),
    ("I've already paid for the cooking class, it's tomorrow at 6pm", "cooking class", "D+1", "18:00", "2026-12-02T18:00"),
    ("Finally got an appointment at the DMV: Thursday 11:30", "DMV appointment", "W4", "11:30", "2026-12-03T11:30"),
    ("Mom called earlier, dinner at hers on Sunday at 6", "dinner at Mom's", "W7", "18:00", "2026-12-06T18:00"),
    ("The haircut I had to skip is rebooked for tomorrow at 5", "haircut", "D+1", "17:00", "2026-12-02T17:00"),
    ("I confirmed the plumber for Friday morning at 9", "plumber", "W5", "09:00", "2026-12-04T09:00"),
    ("Booked the vet for Saturday 10am after last time's mix-up", "vet", "W6", "10:00", "2026-12-05T10:00"),
    ("Already told the team: retro on the 9th at 4pm", "retro", "12-09", "16:00", "2026-12-09T16:00"),
    ("I enrolled in a first aid course next Monday at 1pm", "first aid course", "W1+1", "13:00", "2026-12-07T13:00"),
    ("Moved my therapy session to this afternoon at 3", "therapy session", "D+0", "15:00", "2026-12-01T15:00"),
    ("I was invited to Sam's party on the 19th at 7", "Sam's party", "12-19", "19:00", "2026-12-19T19:00"),
    ("Got the job interview callback: next Wednesday 10am", "job interview", "W3+1", "10:00", "2026-12-09T10:00"),
]
