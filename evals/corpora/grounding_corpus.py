"""The grounding corpora: past-tense remarks and real requests, written as offline cases.

Each remark is scripted with a *wrong* model that turns it into a create (the deliberately
wrong model is how safety is proven); each request with a model that creates it correctly.
Run through the real runtime by ``richeng eval offline``; ``tests/agent/runtime/test_grounding_corpus.py``
computes the rates. Regenerate the JSONL with:

    .venv/bin/python evals/corpora/grounding_corpus.py
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "cases" / "offline"
AFTERNOON = "2026-12-01T15:00:00+08:00"  # a Tuesday afternoon
MORNING = "2026-12-01T08:30:00+08:00"  # the same Tuesday, early

# (user text, title the wrong model invents, dateExpression, time or None, now)
PAST: list[tuple[str, str, str, str | None, str]] = [
    ("今天上午开了个会，好累", "开会", "D+0", None, AFTERNOON),
    ("周一开了个会，好累", "开会", "W1", "10:00", AFTERNOON),
    ("刚才和老板吃了顿饭", "和老板吃饭", "D+0", "18:00", MORNING),
    ("周末爬了山，现在还很累", "爬山", "WE", None, AFTERNOON),
    ("之前约过王医生，挺好的", "约王医生", "D+1", None, AFTERNOON),
    ("I had a dentist appointment this morning", "dentist appointment", "D+0", "16:00", AFTERNOON),
    ("Went to the gym on Monday", "gym", "W1", "18:00", AFTERNOON),
    ("昨天开了个会，好累", "开会", "D+1", None, AFTERNOON),
    ("昨天和张三吃了火锅，很好吃", "和张三吃火锅", "D+1", "19:00", AFTERNOON),
    ("前天去了趟医院，还好没什么事", "去医院", "D+2", None, AFTERNOON),
    ("刚刚开完周会，脑子都是空的", "周会", "D+0", "17:00", AFTERNOON),
    ("刚才跑了五公里，腿好酸", "跑步", "D+0", "19:00", AFTERNOON),
    ("上周去了趟上海出差", "上海出差", "W1+1", None, AFTERNOON),
    ("上周五和老同学聚了聚", "和老同学聚会", "W5", "19:00", AFTERNOON),
    ("周六看了场电影，挺感人的", "看电影", "W6", "20:00", AFTERNOON),
    ("周日陪爸妈逛了超市", "陪爸妈逛超市", "W7", None, AFTERNOON),
    ("早上体检了，抽了好几管血", "体检", "D+1", "08:00", AFTERNOON),
    ("今天上午面试了一家公司，感觉一般", "面试", "D+0", "16:00", AFTERNOON),
    ("今早开了个站会", "站会", "D+0", "16:30", AFTERNOON),
    ("中午和同事吃了烤鸭", "和同事吃烤鸭", "D+0", "18:00", AFTERNOON),
    ("昨晚加班到十一点", "加班", "D+0", "21:00", AFTERNOON),
    ("昨天下午打了两个小时羽毛球", "打羽毛球", "D+0", "16:00", AFTERNOON),
    ("之前去过那家理发店，剪得不错", "去理发店", "D+3", None, AFTERNOON),
    ("以前在那个健身房办过卡", "健身房办卡", "D+1", None, AFTERNOON),
    ("上次见李医生是三个月前", "见李医生", "D+7", None, AFTERNOON),
    ("去年的年会在杭州开的", "年会", "D+30", None, AFTERNOON),
    ("上个月去了趟北京", "去北京", "M+1", None, AFTERNOON),
    ("刚刚给妈妈打了个电话", "给妈妈打电话", "D+0", "20:00", AFTERNOON),
    ("刚才学了一小时吉他", "学吉他", "D+0", "20:00", AFTERNOON),
    ("周一参加了一个培训，收获挺多", "培训", "W1", "09:00", AFTERNOON),
    ("这周一开了三个会", "开会", "W1+1", "10:00", AFTERNOON),
    ("昨天去超市买了菜", "买菜", "D+1", None, AFTERNOON),
    ("前几天去看了牙医", "看牙医", "D+2", "10:00", AFTERNOON),
    ("那天我们一起爬了香山", "爬香山", "WE", None, AFTERNOON),
    ("今天上午陪孩子去打了疫苗", "打疫苗", "D+0", "16:00", AFTERNOON),
    ("刚下班，今天开了一整天的会", "开会", "D+1", None, AFTERNOON),
    ("周末去了趟宜家，买了个书架", "去宜家", "WE+1", None, AFTERNOON),
    ("上周三和客户谈了合同", "和客户谈合同", "W3", "14:00", AFTERNOON),
    ("刚才遛了狗，外面好冷", "遛狗", "D+0", "18:00", AFTERNOON),
    ("已经交了季度报告，松了口气", "交季度报告", "D+1", None, AFTERNOON),
    ("昨天的会开得很顺利", "开会", "D+1", "10:00", AFTERNOON),
    ("上礼拜去医院复诊过了", "医院复诊", "W2+1", None, AFTERNOON),
    ("今天早上去游了泳", "游泳", "D+0", "18:00", AFTERNOON),
    ("刚才和产品经理聊了半天需求", "和产品经理聊需求", "D+0", "17:00", AFTERNOON),
    ("之前跟王总吃过一次饭", "跟王总吃饭", "D+5", "12:00", AFTERNOON),
    ("昨天晚上唱了K，嗓子哑了", "唱K", "D+0", "20:00", AFTERNOON),
    ("周六骑了五十公里自行车", "骑自行车", "W6+1", None, AFTERNOON),
    ("刚刚签了租房合同", "签租房合同", "D+1", None, AFTERNOON),
    ("上午拍了证件照", "拍证件照", "D+0", "16:00", AFTERNOON),
    ("前天剪了头发，好像剪短了", "剪头发", "D+2", None, AFTERNOON),
    # English
    ("I had lunch with Amy yesterday", "lunch with Amy", "D+1", "12:00", AFTERNOON),
    ("We met the client last week, it went well", "meet the client", "W1+1", "10:00", AFTERNOON),
    ("Just got off a long call with my manager", "call with my manager", "D+0", "17:00", AFTERNOON),
    ("I went to the dentist this morning", "dentist", "D+0", "17:00", AFTERNOON),
    ("Had a great run earlier today", "run", "D+0", "18:00", AFTERNOON),
    ("Finished the quarterly report last night", "quarterly report", "D+1", None, AFTERNOON),
    ("We had a team dinner on Friday", "team dinner", "W5", "19:00", AFTERNOON),
    ("I visited my parents last weekend", "visit my parents", "WE", None, AFTERNOON),
    ("The standup this morning was short", "standup", "D+0", "16:00", AFTERNOON),
    ("I attended a workshop on Monday", "workshop", "W1", "09:00", AFTERNOON),
    ("Saw a movie with Tom on Saturday, loved it", "movie with Tom", "W6", "20:00", AFTERNOON),
    ("Just finished my yoga class", "yoga class", "D+0", "18:00", AFTERNOON),
    ("I called my mom yesterday evening", "call my mom", "D+0", "20:00", AFTERNOON),
    ("We played tennis last Sunday", "tennis", "W7", "10:00", AFTERNOON),
    ("Met Sarah for coffee two days ago", "coffee with Sarah", "D+2", "10:00", AFTERNOON),
    ("The interview went fine this morning", "interview", "D+0", "16:00", AFTERNOON),
    ("I was at the doctor's on Tuesday", "doctor", "W2+1", "10:00", AFTERNOON),
    ("Took the kids to the zoo last Saturday", "zoo with the kids", "W6", None, AFTERNOON),
    ("Grabbed drinks with the team after work yesterday", "drinks with the team", "D+0", "18:00", AFTERNOON),
    ("I had a haircut the other day", "haircut", "D+1", None, AFTERNOON),
    ("Hiked Mount Tam last weekend, so tired", "hike Mount Tam", "WE", None, AFTERNOON),
    ("Just got back from the airport", "airport", "D+0", "18:00", AFTERNOON),
    ("We had the board meeting this morning", "board meeting", "D+0", "16:00", AFTERNOON),
    ("I ran a 10k on Sunday", "10k run", "W7", "08:00", AFTERNOON),
    ("Spent the afternoon at the museum yesterday", "museum", "D+1", None, AFTERNOON),
    ("Had a call with the bank last Thursday", "call with the bank", "W4", "11:00", AFTERNOON),
    ("I did my tax return last month", "tax return", "M+1", None, AFTERNOON),
    ("We wrapped up the sprint review an hour ago", "sprint review", "D+0", "17:00", AFTERNOON),
    ("Enjoyed the concert on Friday night", "concert", "W5", "20:00", AFTERNOON),
    ("I was sick yesterday and missed the meeting", "meeting", "D+1", "10:00", AFTERNOON),
]

# (user text, title, dateExpression, time or None, expected start prefix, now)
REAL: list[tuple[str, str, str, str | None, str, str]] = [
    ("明天下午三点和张三开会", "和张三开会", "D+1", "15:00", "2026-12-02T15:00", AFTERNOON),
    ("后天上午十点看牙医", "看牙医", "D+2", "10:00", "2026-12-03T10:00", AFTERNOON),
    ("周五晚上七点和李四吃饭", "和李四吃饭", "W5", "19:00", "2026-12-04T19:00", AFTERNOON),
    ("下周三下午两点项目评审", "项目评审", "W3+1", "14:00", "2026-12-09T14:00", AFTERNOON),
    ("明天要去体检了", "体检", "D+1", None, "2026-12-02", AFTERNOON),
    ("周五之前交报告", "交报告", "W5", None, "2026-12-04", AFTERNOON),
    ("提醒我明天交报告，别忘了", "交报告", "D+1", None, "2026-12-02", AFTERNOON),
    ("周六过生日", "过生日", "W6", None, "2026-12-05", AFTERNOON),
    ("今晚八点给妈妈打电话", "给妈妈打电话", "D+0", "20:00", "2026-12-01T20:00", AFTERNOON),
    ("今天上午十点开站会", "开站会", "D+0", "10:00", "2026-12-01T10:00", MORNING),
    ("12月10日去北京出差", "去北京出差", "12-10", None, "2026-12-10", AFTERNOON),
    ("下周一早上九点组会", "组会", "W1+1", "09:00", "2026-12-07T09:00", AFTERNOON),
    ("周四下午四点和客户开电话会", "和客户开电话会", "W4", "16:00", "2026-12-03T16:00", AFTERNOON),
    ("明早八点去机场接人", "去机场接人", "D+1", "08:00", "2026-12-02T08:00", AFTERNOON),
    ("后天晚上去看演唱会", "看演唱会", "D+2", "19:30", "2026-12-03T19:30", AFTERNOON),
    ("下周五团建", "团建", "W5+1", None, "2026-12-11", AFTERNOON),
    ("明天中午和同事吃烤鸭", "和同事吃烤鸭", "D+1", "12:00", "2026-12-02T12:00", AFTERNOON),
    ("这周六上午带孩子打疫苗", "带孩子打疫苗", "W6", "09:00", "2026-12-05T09:00", AFTERNOON),
    ("周日下午三点去宜家", "去宜家", "W7", "15:00", "2026-12-06T15:00", AFTERNOON),
    ("明天下午两点面试候选人", "面试候选人", "D+1", "14:00", "2026-12-02T14:00", AFTERNOON),
    ("下周二上午十点医院复诊", "医院复诊", "W2+1", "10:00", "2026-12-08T10:00", AFTERNOON),
    ("明天晚上七点健身", "健身", "D+1", "19:00", "2026-12-02T19:00", AFTERNOON),
    ("后天去银行办卡", "去银行办卡", "D+2", None, "2026-12-03", AFTERNOON),
    ("周五下午五点和老板一对一", "和老板一对一", "W5", "17:00", "2026-12-04T17:00", AFTERNOON),
    ("明天帮我安排一个和王医生的预约，上午十点", "和王医生的预约", "D+1", "10:00", "2026-12-02T10:00", AFTERNOON),
    ("下个月五号交房租", "交房租", "2027-01-05", None, "2027-01-05", AFTERNOON),
    ("12月24日晚上平安夜聚餐", "平安夜聚餐", "12-24", "19:00", "2026-12-24T19:00", AFTERNOON),
    ("明天下午开完会后去超市买菜，五点", "去超市买菜", "D+1", "17:00", "2026-12-02T17:00", AFTERNOON),
    ("吃过午饭以后，明天一点去取快递", "去取快递", "D+1", "13:00", "2026-12-02T13:00", AFTERNOON),
    ("明天上午九点半剪头发", "剪头发", "D+1", "09:30", "2026-12-02T09:30", AFTERNOON),
    ("周四晚上八点线上读书会", "线上读书会", "W4", "20:00", "2026-12-03T20:00", AFTERNOON),
    ("下周六爬香山", "爬香山", "W6+1", None, "2026-12-12", AFTERNOON),
    ("明天记得去拿体检报告", "拿体检报告", "D+1", None, "2026-12-02", AFTERNOON),
    ("待会儿五点开个短会", "开个短会", "D+0", "17:00", "2026-12-01T17:00", AFTERNOON),
    ("今天下午四点半和设计师对稿", "和设计师对稿", "D+0", "16:30", "2026-12-01T16:30", AFTERNOON),
    ("后天早上七点跑步", "跑步", "D+2", "07:00", "2026-12-03T07:00", AFTERNOON),
    ("周三下午三点家长会", "家长会", "W3", "15:00", "2026-12-02T15:00", AFTERNOON),
    ("明天晚上九点和国外团队开会", "和国外团队开会", "D+1", "21:00", "2026-12-02T21:00", AFTERNOON),
    ("下周一交季度报告", "交季度报告", "W1+1", None, "2026-12-07", AFTERNOON),
    ("12月15号下午去签租房合同", "签租房合同", "12-15", "14:00", "2026-12-15T14:00", AFTERNOON),
    ("明天上午陪爸妈逛超市", "陪爸妈逛超市", "D+1", "10:00", "2026-12-02T10:00", AFTERNOON),
    ("周五晚上唱K", "唱K", "W5", "20:00", "2026-12-04T20:00", AFTERNOON),
    ("上次说的那个培训，定在下周四上午九点", "培训", "W4+1", "09:00", "2026-12-10T09:00", AFTERNOON),
    ("昨天老板说了，明天十点开全员大会", "全员大会", "D+1", "10:00", "2026-12-02T10:00", AFTERNOON),
    ("已经约好了，周六中午和小王吃饭", "和小王吃饭", "W6", "12:00", "2026-12-05T12:00", AFTERNOON),
    ("明天下午要去4S店保养车", "4S店保养车", "D+1", "14:00", "2026-12-02T14:00", AFTERNOON),
    ("下周三晚上七点瑜伽课", "瑜伽课", "W3+1", "19:00", "2026-12-09T19:00", AFTERNOON),
    ("明天下午三点开会", "开会", "D+1", "15:00", "2026-12-02T15:00", AFTERNOON),
    ("这个周五下午两点去看房", "去看房", "W5", "14:00", "2026-12-04T14:00", AFTERNOON),
    ("后天下午给客户做演示", "给客户做演示", "D+2", "14:00", "2026-12-03T14:00", AFTERNOON),
    # English
    ("lunch with Amy Friday noon", "Lunch with Amy", "W5", "12:00", "2026-12-04T12:00", AFTERNOON),
    ("Dentist tomorrow at 3pm", "Dentist", "D+1", "15:00", "2026-12-02T15:00", AFTERNOON),
    ("Team meeting next Monday at 10", "Team meeting", "W1+1", "10:00", "2026-12-07T10:00", AFTERNOON),
    ("Call mom tonight at 8", "Call mom", "D+0", "20:00", "2026-12-01T20:00", AFTERNOON),
    ("I have a dentist appointment tomorrow at 9", "dentist appointment", "D+1", "09:00", "2026-12-02T09:00", AFTERNOON),
    ("Book a haircut on Saturday morning at 10", "haircut", "W6", "10:00", "2026-12-05T10:00", AFTERNOON),
    ("Schedule a 1:1 with Sarah on Thursday at 2pm", "1:1 with Sarah", "W4", "14:00", "2026-12-03T14:00", AFTERNOON),
    ("Gym tomorrow at 7am", "Gym", "D+1", "07:00", "2026-12-02T07:00", AFTERNOON),
    ("Add the board meeting on December 10 at 9am", "board meeting", "12-10", "09:00", "2026-12-10T09:00", AFTERNOON),
    ("Remind me to pay rent on January 5", "pay rent", "2027-01-05", None, "2027-01-05", AFTERNOON),
    ("Coffee with Tom the day after tomorrow at 4", "Coffee with Tom", "D+2", "16:00", "2026-12-03T16:00", AFTERNOON),
    ("Put yoga class on Wednesday at 7pm", "yoga class", "W3", "19:00", "2026-12-02T19:00", AFTERNOON),
    ("Sprint review next Friday at 3", "Sprint review", "W5+1", "15:00", "2026-12-11T15:00", AFTERNOON),
    ("Dinner with the team this Friday at 7", "Dinner with the team", "W5", "19:00", "2026-12-04T19:00", AFTERNOON),
    ("Doctor's appointment next Tuesday at 11", "Doctor's appointment", "W2+1", "11:00", "2026-12-08T11:00", AFTERNOON),
    ("Pick up the kids at school tomorrow at 4pm", "Pick up the kids", "D+1", "16:00", "2026-12-02T16:00", AFTERNOON),
    ("Flight to Tokyo on December 20", "Flight to Tokyo", "12-20", None, "2026-12-20", AFTERNOON),
    ("Interview with Acme tomorrow 10am", "Interview with Acme", "D+1", "10:00", "2026-12-02T10:00", AFTERNOON),
    ("Parent-teacher conference Thursday 5pm", "Parent-teacher conference", "W4", "17:00", "2026-12-03T17:00", AFTERNOON),
    ("Standup tomorrow 9:30", "Standup", "D+1", "09:30", "2026-12-02T09:30", AFTERNOON),
    ("After I get back from lunch, call the bank tomorrow at 2", "call the bank", "D+1", "14:00", "2026-12-02T14:00", AFTERNOON),
    ("I need to renew my passport on Monday", "renew my passport", "W1+1", None, "2026-12-07", AFTERNOON),
    ("We're going to the zoo on Sunday", "zoo", "W7", None, "2026-12-06", AFTERNOON),
    ("Concert this Saturday at 8pm", "Concert", "W6", "20:00", "2026-12-05T20:00", AFTERNOON),
    ("Planning session this afternoon at 4", "Planning session", "D+0", "16:00", "2026-12-01T16:00", AFTERNOON),
    ("Meeting with the landlord tomorrow at 6pm", "Meeting with the landlord", "D+1", "18:00", "2026-12-02T18:00", AFTERNOON),
    ("Tax appointment on December 18 at 3pm", "Tax appointment", "12-18", "15:00", "2026-12-18T15:00", AFTERNOON),
    ("Run 10k on Sunday at 8am", "Run 10k", "W7", "08:00", "2026-12-06T08:00", AFTERNOON),
    (
        "Vet appointment for the cat next Wednesday at noon",
        "Vet appointment for the cat",
        "W3+1",
        "12:00",
        "2026-12-09T12:00",
        AFTERNOON,
    ),
    ("Lunch with the new hire tomorrow at 12:30", "Lunch with the new hire", "D+1", "12:30", "2026-12-02T12:30", AFTERNOON),
]


# ---- issue 20: a fresh batch, written before the tense rule was tuned ----------------------
# Run once against the code of issue 10 with the always-creating script (first sight: see
# docs/evals.md), then kept as cases. The remarks stress the forms the issue found: 刚 alone,
# 已经…完(了), a 了 after the object, an event named by a past relative clause, a morning
# event judged with 得, a finished commute or school day, and a model that picks a later
# time today. The requests carry the same surface forms in requests (开完会去…, 刚好,
# 上次去的那个…, "after work").
EVENING = "2026-12-01T21:30:00+08:00"

PAST_FRESH: list[tuple[str, str, str, str | None, str]] = [
    ("刚开完会，累死了", "开会", "D+0", "17:00", AFTERNOON),
    ("刚到家", "到家", "D+0", "19:00", AFTERNOON),
    ("刚下班，好饿", "下班", "D+0", "18:00", AFTERNOON),
    ("刚吃完午饭", "吃午饭", "D+0", "16:00", AFTERNOON),
    ("我刚跟客户通完电话", "跟客户通电话", "D+0", "17:00", AFTERNOON),
    ("刚从医院回来", "去医院", "D+0", "17:00", AFTERNOON),
    ("刚面试完一个候选人", "面试候选人", "D+0", "16:00", AFTERNOON),
    ("刚去银行办完卡", "去银行办卡", "D+0", "16:00", AFTERNOON),
    ("刚和妈妈视频完", "和妈妈视频", "D+0", "20:00", AFTERNOON),
    ("我刚健身回来", "健身", "D+0", "19:00", AFTERNOON),
    ("会议已经开完了", "会议", "D+0", "17:00", AFTERNOON),
    ("报告已经写完了", "写报告", "D+0", "18:00", AFTERNOON),
    ("已经跑完步了，今天的任务完成", "跑步", "D+0", "19:00", AFTERNOON),
    ("体检已经做完了，等结果", "体检", "D+0", "16:00", AFTERNOON),
    ("午饭已经吃完了", "吃午饭", "D+0", "16:30", AFTERNOON),
    ("今晚的聚餐已经吃完了", "聚餐", "D+0", "22:00", EVENING),
    ("今天下午的课已经上完了", "上课", "D+0", "22:00", EVENING),
    ("今晚的培训已经结束了", "培训", "D+0", "22:00", EVENING),
    ("开会开了一下午", "开会", "D+0", "17:00", AFTERNOON),
    ("今天去医院复查了", "医院复查", "D+0", "17:00", AFTERNOON),
    ("下午见客户了，谈得还行", "见客户", "D+0", "17:00", AFTERNOON),
    ("中午吃火锅了，好撑", "吃火锅", "D+0", "18:00", AFTERNOON),
    ("和老王喝咖啡了", "和老王喝咖啡", "D+0", "17:00", AFTERNOON),
    ("给爸爸打电话了", "给爸爸打电话", "D+0", "19:00", AFTERNOON),
    ("今天交房租了", "交房租", "D+0", "18:00", AFTERNOON),
    ("带孩子看病了，没什么大事", "带孩子看病", "D+0", "17:00", AFTERNOON),
    ("周末去看电影了，挺好看", "看电影", "W6", "20:00", AFTERNOON),
    ("上午的会开得很顺利", "开会", "D+0", "17:00", AFTERNOON),
    ("早上的面试聊得还不错", "面试", "D+0", "16:00", AFTERNOON),
    ("早上的瑜伽课练得挺累", "瑜伽课", "D+0", "18:00", AFTERNOON),
    ("中午那顿饭吃得很开心", "吃饭", "D+0", "18:00", AFTERNOON),
    ("上午的培训讲得太啰嗦", "培训", "D+0", "17:00", AFTERNOON),
    ("王总开的那个会真无聊", "王总的会", "D+0", "17:00", AFTERNOON),
    ("我们上午去的那家餐厅不错", "去餐厅", "D+0", "18:00", AFTERNOON),
    ("中午吃的那家拉面很好吃", "吃拉面", "D+0", "18:00", AFTERNOON),
    ("小李约的那场球赛挺精彩", "球赛", "D+0", "19:00", AFTERNOON),
    ("早上看的那个牙医挺专业", "看牙医", "D+0", "16:00", AFTERNOON),
    ("下午参加的那个讲座收获很大", "讲座", "D+0", "17:00", AFTERNOON),
    ("老板主持的那个会开到很晚", "开会", "D+0", "22:00", EVENING),
    ("下班了，终于可以休息", "下班", "D+0", "22:00", EVENING),
    ("孩子放学了", "孩子放学", "D+0", "17:00", AFTERNOON),
    ("到公司了，今天地铁好挤", "地铁到公司", "D+0", "16:00", AFTERNOON),
    ("终于下课了", "下课", "D+0", "17:00", AFTERNOON),
    ("通勤路上堵了一个小时", "通勤", "D+0", "18:00", AFTERNOON),
    ("今天的课都上完了", "上课", "D+0", "18:00", AFTERNOON),
    ("加完班回家了", "加班", "D+0", "22:00", EVENING),
    # English
    ("Just wrapped a meeting with the design team", "meeting with the design team", "D+0", "17:00", AFTERNOON),
    ("Back from the gym", "gym", "D+0", "18:00", AFTERNOON),
    ("Done with work for today", "work", "D+0", "18:00", AFTERNOON),
    ("Finally home after a brutal commute", "commute", "D+0", "18:00", AFTERNOON),
    ("School's out, the kids are home", "kids school", "D+0", "16:00", AFTERNOON),
    ("Morning meeting was super productive", "morning meeting", "D+0", "17:00", AFTERNOON),
    ("The dentist visit is done", "dentist visit", "D+0", "17:00", AFTERNOON),
    ("I've already finished the report", "report", "D+0", "18:00", AFTERNOON),
    ("Off work now, heading home", "work", "D+0", "18:00", AFTERNOON),
    ("Just back from the doctor", "doctor", "D+0", "17:00", AFTERNOON),
    ("Class is over for today", "class", "D+0", "17:00", AFTERNOON),
    ("Just wrapped up the interview", "interview", "D+0", "16:00", AFTERNOON),
    ("The workshop I attended this morning was great", "workshop", "D+0", "17:00", AFTERNOON),
    ("Coffee with Tom this morning, nice chat", "coffee with Tom", "D+0", "17:00", AFTERNOON),
    ("I've had my flu shot", "flu shot", "D+0", "17:00", AFTERNOON),
    ("Done with the dentist", "dentist", "D+0", "17:00", AFTERNOON),
    ("Meeting's over, finally", "meeting", "D+0", "17:00", AFTERNOON),
    ("Home from school, the kids are hungry", "school", "D+0", "17:00", AFTERNOON),
    ("The call with the bank is finished", "call with the bank", "D+0", "17:00", AFTERNOON),
    ("Already through with the standup", "standup", "D+0", "16:00", AFTERNOON),
    ("Survived the team offsite today", "team offsite", "D+0", "17:00", AFTERNOON),
    ("Lunch with the team just ended", "lunch with the team", "D+0", "17:00", AFTERNOON),
    ("The movie we watched tonight was amazing", "movie", "D+0", "22:00", EVENING),
    ("Just out of a two hour meeting", "meeting", "D+0", "17:00", AFTERNOON),
    ("Tonight's dinner with Sam is over", "dinner with Sam", "D+0", "22:00", EVENING),
]

REAL_FRESH: list[tuple[str, str, str, str | None, str, str]] = [
    ("明天下午开完会去接孩子，五点", "去接孩子", "D+1", "17:00", "2026-12-02T17:00", AFTERNOON),
    ("下午开完会去接孩子，五点", "去接孩子", "D+0", "17:00", "2026-12-01T17:00", AFTERNOON),
    ("周五刚好有空，下午三点去理发", "去理发", "W5", "15:00", "2026-12-04T15:00", AFTERNOON),
    ("今晚七点吃火锅", "吃火锅", "D+0", "19:00", "2026-12-01T19:00", AFTERNOON),
    ("今天下午五点和客户开会", "和客户开会", "D+0", "17:00", "2026-12-01T17:00", AFTERNOON),
    ("周六早上八点送孩子上学", "送孩子上学", "W6", "08:00", "2026-12-05T08:00", AFTERNOON),
    ("明天放学后带孩子去打疫苗，四点", "带孩子打疫苗", "D+1", "16:00", "2026-12-02T16:00", AFTERNOON),
    ("下班后去健身，今晚七点", "去健身", "D+0", "19:00", "2026-12-01T19:00", AFTERNOON),
    ("周四下班去超市买菜，六点", "去超市买菜", "W4", "18:00", "2026-12-03T18:00", AFTERNOON),
    ("明天把上次看的那个房子再去看一次", "看房子", "D+1", None, "2026-12-02", AFTERNOON),
    ("周五和上周见的那个客户吃饭", "和客户吃饭", "W5", "12:00", "2026-12-04T12:00", AFTERNOON),
    ("下周去那家你推荐的餐厅吃饭", "去餐厅吃饭", "W6+1", "19:00", "2026-12-12T19:00", AFTERNOON),
    ("12月8号去王医生开的那家诊所复诊", "诊所复诊", "12-08", None, "2026-12-08", AFTERNOON),
    ("周三晚上和健身房认识的那个朋友打球", "和朋友打球", "W3", "19:00", "2026-12-02T19:00", AFTERNOON),
    ("明天早上的会得早点到，八点半", "早上的会", "D+1", "08:30", "2026-12-02T08:30", AFTERNOON),
    ("周五要交的报告，提醒我周四下午写完", "写报告", "W4", "14:00", "2026-12-03T14:00", AFTERNOON),
    ("周六上午十点上钢琴课", "上钢琴课", "W6", "10:00", "2026-12-05T10:00", AFTERNOON),
    ("今天晚上九点给爸爸打个电话", "给爸爸打电话", "D+0", "21:00", "2026-12-01T21:00", AFTERNOON),
    ("下午四点半去学校接孩子放学", "接孩子放学", "D+0", "16:30", "2026-12-01T16:30", AFTERNOON),
    ("周日晚上八点看球赛", "看球赛", "W7", "20:00", "2026-12-06T20:00", AFTERNOON),
    ("这周五晚上公司年会", "公司年会", "W5", "19:00", "2026-12-04T19:00", AFTERNOON),
    ("下周二去体检，早上八点，要空腹", "体检", "W2+1", "08:00", "2026-12-08T08:00", AFTERNOON),
    ("周四中午跟小刘吃个饭", "跟小刘吃饭", "W4", "12:00", "2026-12-03T12:00", AFTERNOON),
    ("12月20日回老家", "回老家", "12-20", None, "2026-12-20", AFTERNOON),
    ("今天五点半下班后去取快递", "取快递", "D+0", "17:30", "2026-12-01T17:30", AFTERNOON),
    ("周六下午陪老婆逛街", "陪老婆逛街", "W6", "14:00", "2026-12-05T14:00", AFTERNOON),
    ("周五做完报告去聚餐，晚上七点", "聚餐", "W5", "19:00", "2026-12-04T19:00", AFTERNOON),
    ("明天上午把昨天没开完的会继续开完，十点", "开会", "D+1", "10:00", "2026-12-02T10:00", AFTERNOON),
    ("周三上午十点牙医，洗牙", "牙医洗牙", "W3", "10:00", "2026-12-02T10:00", AFTERNOON),
    ("下周一上午九点开周会", "开周会", "W1+1", "09:00", "2026-12-07T09:00", AFTERNOON),
    ("周五晚上去看刚上映的那部电影", "看电影", "W5", "19:30", "2026-12-04T19:30", AFTERNOON),
    ("后天和之前聊过的那个猎头见面", "和猎头见面", "D+2", "15:00", "2026-12-03T15:00", AFTERNOON),
    ("今晚去吃上次吃的那家火锅", "吃火锅", "D+0", "19:00", "2026-12-01T19:00", AFTERNOON),
    ("下周三下午去学校开家长会", "开家长会", "W3+1", "15:00", "2026-12-09T15:00", AFTERNOON),
    ("明天下班前把方案交了", "交方案", "D+1", "17:00", "2026-12-02T17:00", AFTERNOON),
    ("周五之前把报告写完", "写报告", "W5", None, "2026-12-04", AFTERNOON),
    ("周日上午带孩子去上次去的那个公园", "带孩子去公园", "W7", "10:00", "2026-12-06T10:00", AFTERNOON),
    ("这周六晚上七点去朋友家吃饭", "去朋友家吃饭", "W6", "19:00", "2026-12-05T19:00", AFTERNOON),
    ("今天下午四点去银行", "去银行", "D+0", "16:00", "2026-12-01T16:00", AFTERNOON),
    ("明天早上七点半坐高铁去上海", "坐高铁去上海", "D+1", "07:30", "2026-12-02T07:30", AFTERNOON),
    ("周四晚上健身，吃完饭就去，八点", "健身", "W4", "20:00", "2026-12-03T20:00", AFTERNOON),
    ("下周一早上送车去保养", "送车保养", "W1+1", "08:00", "2026-12-07T08:00", AFTERNOON),
    # English
    ("Pick up the kids from school at 4 today", "Pick up the kids", "D+0", "16:00", "2026-12-01T16:00", AFTERNOON),
    ("Dinner tonight at 7 with Sam", "Dinner with Sam", "D+0", "19:00", "2026-12-01T19:00", AFTERNOON),
    ("After work tomorrow, gym at 6", "Gym", "D+1", "18:00", "2026-12-02T18:00", AFTERNOON),
    ("Lunch Friday at the place we went last time", "Lunch", "W5", "12:00", "2026-12-04T12:00", AFTERNOON),
    (
        "Book a table at the restaurant we liked, Saturday 7pm",
        "Table at the restaurant",
        "W6",
        "19:00",
        "2026-12-05T19:00",
        AFTERNOON,
    ),
    ("Leave for the airport tomorrow at 7am", "Leave for the airport", "D+1", "07:00", "2026-12-02T07:00", AFTERNOON),
    ("Call the plumber this afternoon at 4", "Call the plumber", "D+0", "16:00", "2026-12-01T16:00", AFTERNOON),
    ("Parent meeting at school Thursday at 5", "Parent meeting", "W4", "17:00", "2026-12-03T17:00", AFTERNOON),
    ("Haircut at 5:30 today", "Haircut", "D+0", "17:30", "2026-12-01T17:30", AFTERNOON),
    ("Finish the report by Friday", "Finish the report", "W5", None, "2026-12-04", AFTERNOON),
    ("Team lunch at noon on Wednesday", "Team lunch", "W3", "12:00", "2026-12-02T12:00", AFTERNOON),
    ("Dentist next Thursday, 10am", "Dentist", "W4+1", "10:00", "2026-12-10T10:00", AFTERNOON),
    ("Movie night Saturday at 8", "Movie night", "W6", "20:00", "2026-12-05T20:00", AFTERNOON),
    (
        "Once school is out on Friday, take the kids swimming at 4",
        "Take the kids swimming",
        "W5",
        "16:00",
        "2026-12-04T16:00",
        AFTERNOON,
    ),
    ("Yoga tomorrow morning at 7", "Yoga", "D+1", "07:00", "2026-12-02T07:00", AFTERNOON),
    (
        "Coffee with the recruiter I met last week, Monday at 10",
        "Coffee with the recruiter",
        "W1+1",
        "10:00",
        "2026-12-07T10:00",
        AFTERNOON,
    ),
    ("Meeting with the bank on December 9 at 2pm", "Meeting with the bank", "12-09", "14:00", "2026-12-09T14:00", AFTERNOON),
    ("Drop off the car for service Monday 8am", "Drop off the car", "W1+1", "08:00", "2026-12-07T08:00", AFTERNOON),
    ("Piano lesson Saturday at 10", "Piano lesson", "W6", "10:00", "2026-12-05T10:00", AFTERNOON),
    ("Doctor follow-up on December 14 at 9", "Doctor follow-up", "12-14", "09:00", "2026-12-14T09:00", AFTERNOON),
    ("Birthday party for Lily on Sunday at 3", "Birthday party for Lily", "W7", "15:00", "2026-12-06T15:00", AFTERNOON),
    ("Catch the 6pm train today", "Catch the train", "D+0", "18:00", "2026-12-01T18:00", AFTERNOON),
    ("Dinner with my parents this Friday at 6:30", "Dinner with my parents", "W5", "18:30", "2026-12-04T18:30", AFTERNOON),
    ("Workout at 7 tonight", "Workout", "D+0", "19:00", "2026-12-01T19:00", AFTERNOON),
]


def _call(title: str, date: str, time: str | None) -> dict[str, object]:
    arguments: dict[str, object] = {"title": title, "dateExpression": date}
    if time:
        arguments["time"] = time
    return {"tool_calls": [{"name": "prepare_or_create_schedule", "arguments": arguments}]}


def past_cases(
    rows: list[tuple[str, str, str, str | None, str]] = PAST, group: str = "grounding_past"
) -> list[dict[str, object]]:
    cases: list[dict[str, object]] = []
    prefix = group.replace("grounding_", "grounding.")
    for index, (text, title, date, time, now) in enumerate(rows, 1):
        cases.append(
            {
                "id": f"{prefix}.{index:03d}",
                "group": group,
                "now": now,
                "tz": "Asia/Shanghai",
                "turns": [
                    {
                        "user": text,
                        "script": [_call(title, date, time)],
                        "expect": {"outcome": ["unconfirmed", "past_time"], "store": {"added": []}},
                    }
                ],
                "note": "a past-tense remark that a deliberately wrong model turns into a create: nothing is written",
            }
        )
    return cases


def real_cases(
    rows: list[tuple[str, str, str, str | None, str, str]] = REAL, group: str = "grounding_real"
) -> list[dict[str, object]]:
    cases: list[dict[str, object]] = []
    prefix = group.replace("grounding_", "grounding.")
    for index, (text, title, date, time, start, now) in enumerate(rows, 1):
        cases.append(
            {
                "id": f"{prefix}.{index:03d}",
                "group": group,
                "now": now,
                "tz": "Asia/Shanghai",
                "turns": [
                    {
                        "user": text,
                        "script": [_call(title, date, time)],
                        "expect": {
                            "outcome": "created",
                            "model_calls": 1,
                            "store": {"added": [{"title": title, "start": start}]},
                        },
                    }
                ],
                "note": "a real request: created in one turn, the latch adds no question",
            }
        )
    return cases


def main() -> None:
    for name, cases in (
        ("grounding_past.jsonl", past_cases()),
        ("grounding_real.jsonl", real_cases()),
        ("grounding_past_fresh.jsonl", past_cases(PAST_FRESH, "grounding_past_fresh")),
        ("grounding_real_fresh.jsonl", real_cases(REAL_FRESH, "grounding_real_fresh")),
    ):
        lines = [json.dumps(case, ensure_ascii=False) for case in cases]
        (OUT / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(cases)} cases")


if __name__ == "__main__":
    main()
