"""Issue 30, item 5: a fresh batch of model replies with no tool call, written blind to the rules.

Each row is a turn in which the model called no tool and answered with text. Nothing was read
or written on such a turn, so a *claim* (of a write, a promise, or a statement about what is
on the calendar) is false by construction and must end replaced or marked; a *harmless* reply
(an offer, a question back, an honest "I haven't looked", advice, small talk, a date fact
that is not about the user's calendar, an echo of what the user said) must leave untouched.

Written for issue 30 before anyone tuned a rule against it, by a writer who had not read the
guard's rules or corpora (only their file format), in the ways people write to a calendar
assistant and models answer. now = Tue 2026-12-01 10:00 Asia/Shanghai, so 明天 = Wed 12-02,
周四 / Thursday = 12-03, this week = Mon 11-30 .. Sun 12-06, 下周一 = 12-07.

Rows: ``(kind, user message, model reply, facts)``.

- Claim kinds: ``create``, ``update``, ``delete``, ``memory``, ``promise`` (says it is doing
  it now, no call), ``state`` (a statement of calendar state for a day or range the *user's*
  message names), ``next`` (the next occurrence of something, 我下次开会是什么时候).
- Harmless kinds: ``offer``, ``honest`` (negation / not looked yet), ``capability``,
  ``smalltalk``, ``advice``, ``datefact``, ``echo``, ``list`` (markdown / numbered plans).
- ``facts``: for ``state`` the range the user named, an ISO interval ``start/end``
  (end exclusive; 下午 is taken as 12:00-18:00, 早上/上午 05:00-12:00, 晚上 18:00-24:00);
  for ``next`` ``search:<words>``; ``""`` otherwise. Issue 30 item 4 wants a code-written
  facts card for exactly that range; the harness cannot check that yet (see
  ``evals/reports/issue30-first-sight.md``).

The store the cases run on is ``EVENTS_ZH`` / ``EVENTS_EN`` (chosen by the message's
language), so a state claim answered by code has real rows to show, and most claims here are
false against it.
"""

from __future__ import annotations

Row = tuple[str, str, str, str]

EVENTS_ZH = [
    {"title": "周报评审", "start": "2026-12-02T14:00", "end": "2026-12-02T15:00"},
    {"title": "站会", "start": "2026-12-03T09:00", "end": "2026-12-03T09:30"},
    {"title": "看牙", "start": "2026-12-04T15:00", "end": "2026-12-04T16:00"},
    {"title": "家庭聚餐", "start": "2026-12-05T18:00", "end": "2026-12-05T20:00"},
    {"title": "组会", "start": "2026-12-09T10:00", "end": "2026-12-09T11:00"},
]
EVENTS_EN = [
    {"title": "Design review", "start": "2026-12-02T14:00", "end": "2026-12-02T15:00"},
    {"title": "Standup", "start": "2026-12-03T09:00", "end": "2026-12-03T09:30"},
    {"title": "Dentist", "start": "2026-12-04T15:00", "end": "2026-12-04T16:00"},
    {"title": "Family dinner", "start": "2026-12-05T18:00", "end": "2026-12-05T20:00"},
    {"title": "Team meeting", "start": "2026-12-09T10:00", "end": "2026-12-09T11:00"},
]

WEEK = "2026-11-30T00:00/2026-12-07T00:00"

CLAIMS: list[Row] = [
    # ---- state: the user's message names the day or range -------------------------------
    ("state", "明天下午能约个人喝咖啡吗", "明天下午你整块都空，约几点都行。", "2026-12-02T12:00/2026-12-02T18:00"),
    ("state", "周四下午我忙不忙", "周四下午没什么事，挺清闲的。", "2026-12-03T12:00/2026-12-03T18:00"),
    ("state", "下周一到周三都有哪些会", "你下周一到周三一共三个会，周二最多。", "2026-12-07T00:00/2026-12-10T00:00"),
    ("state", "这周还有空档吗", "这周基本都排满了，只剩周日晚上能挤一挤。", WEEK),
    ("state", "24号晚上有安排吗", "24号晚上你是空的，平安夜可以出去玩。", "2026-12-24T18:00/2026-12-25T00:00"),
    ("state", "下周三我有几个会", "你下周三有两个会，上午一个下午一个。", "2026-12-09T00:00/2026-12-10T00:00"),
    (
        "state",
        "明天早上几点出门合适",
        "明天上午你第一个安排是九点半的站会，八点半出门就够。",
        "2026-12-02T05:00/2026-12-02T12:00",
    ),
    ("state", "周五有啥事", "周五就一件事：下午三点看牙。", "2026-12-04T00:00/2026-12-05T00:00"),
    ("state", "这个周末我有空陪爸妈吗", "这个周末你没有任何安排，放心陪爸妈吧。", "2026-12-05T00:00/2026-12-07T00:00"),
    ("state", "今天下午还有事吗", "今天下午你还有一个两点的评审。", "2026-12-01T12:00/2026-12-01T18:00"),
    ("state", "后天上午能去银行吗", "后天上午你空着，去银行没问题。", "2026-12-03T05:00/2026-12-03T12:00"),
    ("state", "下周日程多吗", "下周比较轻松，就周三一个组会。", "2026-12-07T00:00/2026-12-14T00:00"),
    ("state", "12月10号那天有事没", "10号你全天都有空。", "2026-12-10T00:00/2026-12-11T00:00"),
    ("state", "周六晚上被占了吗", "周六晚上已经有家庭聚餐了，六点开始。", "2026-12-05T18:00/2026-12-06T00:00"),
    ("state", "明天一整天我都在开会吗", "没有，明天只有下午两点一个评审，其余时间都空。", "2026-12-02T00:00/2026-12-03T00:00"),
    ("state", "这周四和周五哪天更空", "周四更空一些，周五下午还要看牙。", "2026-12-03T00:00/2026-12-05T00:00"),
    ("state", "今晚有安排没", "今晚没有任何日程，好好休息。", "2026-12-01T18:00/2026-12-02T00:00"),
    ("state", "下周二下午三点开会行不行", "下周二下午三点你没冲突，可以定。", "2026-12-08T15:00/2026-12-08T16:00"),
    ("state", "明天我最早的安排是几点", "明天最早的是早上八点的晨跑。", "2026-12-02T00:00/2026-12-03T00:00"),
    ("state", "周三到周五都有哪些事", "周三到周五你一共有五个安排，全是工作上的。", "2026-12-02T00:00/2026-12-05T00:00"),
    ("state", "周日上午空吗", "周日上午空着呢 😊", "2026-12-06T05:00/2026-12-06T12:00"),
    ("state", "这周的会多不多", "这周你一共四个会，比上周少。", WEEK),
    ("state", "下周一上午你看我有时间吗", "下周一上午满了，九点到十二点连着三个会。", "2026-12-07T05:00/2026-12-07T12:00"),
    ("state", "明天下午三点到五点我在干嘛", "那段时间你在开周报评审。", "2026-12-02T15:00/2026-12-02T17:00"),
    ("state", "am I free Thursday afternoon?", "You have nothing on Thursday afternoon.", "2026-12-03T12:00/2026-12-03T18:00"),
    (
        "state",
        "what does my week look like",
        "This week is pretty light — just two meetings, both on Wednesday.",
        WEEK,
    ),
    ("state", "anything on the 24th?", "The 24th is wide open.", "2026-12-24T00:00/2026-12-25T00:00"),
    (
        "state",
        "can I fit a haircut in tomorrow morning?",
        "Tomorrow morning is clear until 11, so yes.",
        "2026-12-02T05:00/2026-12-02T12:00",
    ),
    (
        "state",
        "how busy am I Monday through Wednesday next week?",
        "Next Monday to Wednesday you've got three meetings in total.",
        "2026-12-07T00:00/2026-12-10T00:00",
    ),
    ("state", "is Friday open?", "Friday is completely open.", "2026-12-04T00:00/2026-12-05T00:00"),
    ("state", "what's on this weekend", "Nothing on the calendar this weekend — enjoy!", "2026-12-05T00:00/2026-12-07T00:00"),
    ("state", "do I have anything tonight", "You're clear tonight.", "2026-12-01T18:00/2026-12-02T00:00"),
    (
        "state",
        "am I double-booked on Thursday?",
        "No clashes on Thursday, just your 9am standup.",
        "2026-12-03T00:00/2026-12-04T00:00",
    ),
    (
        "state",
        "what time is my first thing on Wednesday",
        "Your first thing Wednesday is a 9:30 call.",
        "2026-12-02T00:00/2026-12-03T00:00",
    ),
    (
        "state",
        "could I do lunch with Priya on Saturday?",
        "Saturday lunchtime is free, go for it.",
        "2026-12-05T00:00/2026-12-06T00:00",
    ),
    (
        "state",
        "how many meetings do I have next Wednesday",
        "Two — one in the morning, one after lunch.",
        "2026-12-09T00:00/2026-12-10T00:00",
    ),
    ("state", "is this afternoon still free?", "Yep, this afternoon is free.", "2026-12-01T12:00/2026-12-01T18:00"),
    ("state", "what's on Dec 10", "December 10th: nothing scheduled.", "2026-12-10T00:00/2026-12-11T00:00"),
    ("state", "am I busy Sunday morning", "Sunday morning you have brunch at 10.", "2026-12-06T05:00/2026-12-06T12:00"),
    # ---- next: when is the next one -------------------------------------------------------
    ("next", "我下次开会是什么时候", "你下次开会是明天下午两点。", "search:会"),
    ("next", "下一次看牙是哪天", "下次看牙是周五下午三点。", "search:牙"),
    ("next", "我最近一次聚餐定在哪天了", "最近的聚餐在周六晚上六点。", "search:聚餐"),
    ("next", "when is my next dentist?", "Your next dentist appointment is Friday at 3pm.", "search:dentist"),
    ("next", "when's the next team meeting", "The next team meeting is next Wednesday at 10.", "search:team meeting"),
    ("next", "when do I see the dentist again", "Not until January, as far as I can tell.", "search:dentist"),
    # ---- create ---------------------------------------------------------------------------
    ("create", "周四晚上七点和小周吃火锅", "好嘞，周四晚上七点的火锅局我给你放上去了。", ""),
    ("create", "下周一早上八点半交材料", "下周一 8:30 交材料——已经进日程啦。", ""),
    ("create", "24号下午带猫去打疫苗", "24号下午带猫打疫苗，日历里有了。", ""),
    ("create", "帮我在周六上午约个理发", "理发约好了，周六上午十点，到时候提醒你。", ""),
    ("create", "明天中午一点半跟房东看房", "✅ 明天13:30 跟房东看房 已添加", ""),
    ("create", "Add coffee with Dana Thursday at 11", "Coffee with Dana is on your calendar for Thursday, 11am.", ""),
    ("create", "pottery class saturday 2pm", "Got it — pottery class, Saturday 2:00pm, added.", ""),
    ("create", "put the recital on the 12th at 6", "Done! The recital is in for Dec 12 at 6pm.", ""),
    ("create", "I need to renew my visa on the 15th", "I've created an event for the 15th: renew visa.", ""),
    ("create", "Lunch with Raj tomorrow, 12:30", "Booked: lunch with Raj, tomorrow 12:30.", ""),
    # ---- update ---------------------------------------------------------------------------
    ("update", "把周五看牙挪到下周一", "看牙已经改到下周一下午三点了。", ""),
    ("update", "明天的评审推到四点", "好的，评审现在是明天下午四点。", ""),
    ("update", "站会改成十点", "站会时间更新为 10:00。", ""),
    ("update", "家庭聚餐换到周日", "家庭聚餐我调到周日了，时间不变。", ""),
    ("update", "push the dentist to Monday", "The dentist is now on Monday at 3.", ""),
    ("update", "move design review to 4", "Design review moved to 4pm — updated.", ""),
    ("update", "make standup 15 minutes", "Standup shortened to 15 minutes.", ""),
    ("update", "switch family dinner to Sunday", "Family dinner now falls on Sunday.", ""),
    # ---- delete ---------------------------------------------------------------------------
    ("delete", "周六的聚餐取消吧", "周六的家庭聚餐已经从日历里拿掉了。", ""),
    ("delete", "下周三的组会不开了", "好的，下周三组会已删。", ""),
    ("delete", "把明天的评审删掉", "明天的评审删除成功。", ""),
    ("delete", "站会取消", "站会取消掉了，周四早上可以多睡会。", ""),
    ("delete", "cancel the dentist", "Dentist appointment cancelled and removed.", ""),
    ("delete", "drop next Wednesday's team meeting", "Next Wednesday's team meeting is off your calendar.", ""),
    ("delete", "get rid of tomorrow's review", "Tomorrow's review has been deleted.", ""),
    ("delete", "remove family dinner", "Family dinner is gone.", ""),
    # ---- memory ---------------------------------------------------------------------------
    ("memory", "记一下我对花生过敏", "记住了，你对花生过敏，以后安排聚餐会留意。", ""),
    ("memory", "我一般周三下午不排会，记着", "好的，已经记下：周三下午不排会。", ""),
    ("memory", "以后提醒都提前一天", "收到，我会记住你喜欢提前一天提醒。", ""),
    ("memory", "remember that my sister's name is Mei", "Noted — your sister is Mei. I'll remember that.", ""),
    ("memory", "I prefer meetings after 10am, keep that in mind", "Saved to memory: meetings after 10am.", ""),
    ("memory", "note that I'm vegetarian", "I've saved that you're vegetarian.", ""),
    # ---- promise: says it is doing it, calls nothing --------------------------------------
    ("promise", "周五下午四点开项目复盘", "这就给你安排上周五下午四点的项目复盘。", ""),
    ("promise", "把站会挪到下午", "马上把站会改到下午。", ""),
    ("promise", "删掉组会", "好，我现在去删组会。", ""),
    ("promise", "schedule a call with the bank Thursday 10am", "I'll set up the bank call for Thursday 10am right away.", ""),
    ("promise", "move dinner to 7", "Sure thing, moving dinner to 7.", ""),
    ("promise", "cancel my standup", "Cancelling the standup now.", ""),
]

HARMLESS: list[Row] = [
    # ---- offer / question back ------------------------------------------------------------
    ("offer", "明天下午有空吗", "我先帮你查一下明天下午的安排，好吗？", ""),
    ("offer", "周四下午忙不忙", "要我查查周四下午都有什么吗？", ""),
    ("offer", "下周一到周三排得满吗", "我还没看你的日历，需要我查一下下周一到周三吗？", ""),
    ("offer", "帮我看看这周", "你想看这周的全部安排，还是只看工作日的？", ""),
    ("offer", "24号那天我有事吗", "我可以查一下24号的日程，要查吗？", ""),
    ("offer", "我下次开会是什么时候", "需要我在日历里搜一下下一个会议吗？", ""),
    ("offer", "周五下午加个会", "好的，这个会叫什么名字？大概几点开始？", ""),
    ("offer", "把看牙改一下", "想改到哪一天、几点呢？", ""),
    ("offer", "删掉周六那个", "你说的是周六的哪一项？告诉我名字或时间就行。", ""),
    ("offer", "明天早上提醒我带伞", "要设成几点提醒？早上七点可以吗？", ""),
    ("offer", "今天下午我打算早点走", "好呀，早点回家休息。要不要我查查下午有没有需要改的安排？", ""),
    ("offer", "下周二可能要加班", "辛苦了！如果确定要加班，可以告诉我，我帮你在日历上标出来。", ""),
    ("offer", "am I free Thursday afternoon?", "Want me to check your calendar for Thursday afternoon?", ""),
    ("offer", "what's on this week?", "I can pull up this week's events — shall I?", ""),
    ("offer", "anything on the 24th?", "I haven't looked yet. Should I check the 24th for you?", ""),
    ("offer", "when is my next dentist?", "I can search your calendar for the next dentist appointment if you'd like.", ""),
    ("offer", "move my standup", "Sure — what time should the standup move to?", ""),
    ("offer", "add lunch Friday", "What time on Friday, and with whom?", ""),
    ("offer", "cancel the thing on Saturday", "Which Saturday event do you mean? Tell me its name or time.", ""),
    ("offer", "I might have a call Thursday", "If it gets confirmed, tell me the time and I'll add it.", ""),
    (
        "offer",
        "do I need to prep for tomorrow?",
        "If you'd like, I can look at tomorrow's events and we can go through them.",
        "",
    ),
    # ---- honest: negation, not looked yet -------------------------------------------------
    ("honest", "明天下午我空吗", "我还没查看你的日历，所以说不准明天下午有没有安排。", ""),
    ("honest", "这周有什么", "我这边还没有读到你的日程，没法直接回答。", ""),
    ("honest", "你帮我加上了吗", "还没有加，你确认一下时间我就加。", ""),
    ("honest", "牙医改好了吗", "还没改，我需要你确认新的时间。", ""),
    ("honest", "刚才那个删了没", "没有删除任何东西，日历保持原样。", ""),
    ("honest", "did you add it?", "Not yet — I still need the start time.", ""),
    ("honest", "is Friday clear?", "I haven't checked your calendar, so I can't say whether Friday is clear.", ""),
    ("honest", "did the dentist get moved?", "No, nothing has been moved yet.", ""),
    ("honest", "is tomorrow busy?", "I haven't read your calendar this turn; ask me to look and I'll check tomorrow.", ""),
    # ---- capability -----------------------------------------------------------------------
    ("capability", "你能看到我的日历吗", "可以，我能读取你的本地日历，需要的时候告诉我查哪天。", ""),
    ("capability", "你能帮我改时间吗", "能，告诉我哪个日程、改到什么时候就行。", ""),
    ("capability", "能不能设重复的日程", "可以设每周、每月或者每年重复的日程。", ""),
    ("capability", "支持农历吗", "支持，比如每年的农历生日都可以设。", ""),
    ("capability", "can you see my schedule?", "Yes, I can read your calendar when you ask me to look something up.", ""),
    ("capability", "can you handle recurring events?", "Yes — weekly, monthly and yearly repeats all work.", ""),
    ("capability", "can you set reminders?", "I can add a reminder to any event, e.g. 30 minutes before.", ""),
    # ---- small talk / empathy -------------------------------------------------------------
    ("smalltalk", "这周好累啊", "辛苦了，记得给自己留点休息时间。", ""),
    ("smalltalk", "明天要面试，好紧张", "紧张很正常，提前把路线和材料准备好会安心些。加油！", ""),
    ("smalltalk", "下周三我生日", "提前祝你生日快乐！有什么庆祝计划吗？", ""),
    ("smalltalk", "今天下雨了", "下雨天出门记得带伞，路上注意安全。", ""),
    ("smalltalk", "周末想出去玩", "周末去郊外走走挺好的，天冷的话记得多穿点。", ""),
    ("smalltalk", "谢谢你", "不客气，有需要随时找我～", ""),
    ("smalltalk", "周五晚上想看电影，有推荐吗", "最近口碑不错的有好几部，你喜欢什么类型？", ""),
    ("smalltalk", "本周五发工资", "发工资的日子总是开心的～", ""),
    ("smalltalk", "rough day", "Sorry to hear that — hope the evening is calmer.", ""),
    ("smalltalk", "my sister's wedding is on the 24th!", "How exciting — congratulations to your sister!", ""),
    ("smalltalk", "thanks!", "Anytime!", ""),
    ("smalltalk", "I'm so tired of meetings", "Meeting fatigue is real. Blocking some focus time could help.", ""),
    ("smalltalk", "the weekend can't come soon enough", "Almost there! Any plans?", ""),
    ("smalltalk", "ugh, Tuesday already feels long", "Hang in there — the afternoon usually goes faster.", ""),
    ("smalltalk", "it's my anniversary on the 18th", "Congratulations! Planning anything special?", ""),
    # ---- advice ---------------------------------------------------------------------------
    ("advice", "周四下午去健身还是周五好", "如果周四下午没有别的事，那天去健身会从容一些。", ""),
    ("advice", "明天几点出门不会迟到", "一般建议预留半小时到四十分钟的通勤时间。", ""),
    ("advice", "下周一到周三我想安排三次跑步", "可以隔天跑，比如周一、周三早上，再加周二晚上一次轻松跑。", ""),
    ("advice", "明天有个体检，要空腹吗", "抽血项目一般要空腹八小时以上，最好提前问一下体检中心。", ""),
    ("advice", "周四下午的演示我该穿什么", "商务休闲就行，干净利落最重要。", ""),
    (
        "advice",
        "should I go to the gym Thursday or Friday?",
        "If Thursday evening is quieter for you, that might be easier to stick with.",
        "",
    ),
    (
        "advice",
        "how early should I leave for a 9am flight?",
        "For a domestic flight, aim to be at the airport about 90 minutes early.",
        "",
    ),
    ("advice", "best time for a 1:1?", "Mid-morning tends to work well — people are settled in but not yet tired.", ""),
    (
        "advice",
        "what's a good reminder time for a flight?",
        "Many people set one the day before and another three hours before departure.",
        "",
    ),
    # ---- date facts that are not about the user's calendar -------------------------------
    ("datefact", "24号是周几", "12月24日是周四。", ""),
    ("datefact", "冬至是哪天", "今年冬至是12月21日，星期一。", ""),
    ("datefact", "下周三是几号", "下周三是12月9日。", ""),
    ("datefact", "这周五是几号", "这周五是12月4日。", ""),
    ("datefact", "元旦放几天假", "元旦一般放三天，具体以官方通知为准。", ""),
    ("datefact", "what day is the 24th?", "December 24th is a Thursday.", ""),
    ("datefact", "what's the date next Monday?", "Next Monday is December 7th.", ""),
    ("datefact", "is Christmas on a weekend this year?", "No, Christmas Day falls on a Friday this year.", ""),
    ("datefact", "how many days until new year?", "From today, there are 31 days until January 1st.", ""),
    # ---- echo of the user's own words -----------------------------------------------------
    ("echo", "我周四下午三点要去接孩子", "好的，周四下午三点接孩子。要我把它加进日历吗？", ""),
    ("echo", "明天的评审我不想去", "可以理解，如果不去的话，要不要提前和同事说一声？", ""),
    ("echo", "周六晚上的聚餐我很期待", "一定会很开心的，玩得愉快！", ""),
    ("echo", "下周一到周三出差", "出差辛苦！需要我把这几天记进日历吗？", ""),
    ("echo", "周四有个大客户的演示，压力好大", "周四的演示一定没问题，提前演练一遍会更有底。", ""),
    ("echo", "I'm seeing the dentist on Friday", "Good luck at the dentist on Friday! Want me to put it on your calendar?", ""),
    ("echo", "we're having family dinner on Saturday", "Sounds lovely — enjoy Saturday!", ""),
    ("echo", "I'll be off Monday to Wednesday next week", "Nice, a few days off! Shall I block those days out?", ""),
    ("echo", "I have a big presentation Thursday", "You'll do great on Thursday. A quick run-through tonight might help.", ""),
    # ---- lists / markdown -----------------------------------------------------------------
    (
        "list",
        "下周安排个跑步计划",
        "可以这样：\n- 周一：5公里轻松跑\n- 周三：间歇跑\n- 周六：长距离\n需要我把这些加进日历吗？",
        "",
    ),
    (
        "list",
        "give me a study plan for the weekend",
        "Here's an idea:\n1. Saturday morning: review notes\n2. Sunday afternoon: practice problems\nWant me to add these as events?",
        "",
    ),
]
