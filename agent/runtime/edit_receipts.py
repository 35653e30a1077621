"""Receipts for chat edits, written by code from the change that was (or was not) made.

What it was (day, time, calendar; the year when it is not this year), what it is now, and
for a series which instances were touched. A question (a choice, a confirmation, a conflict)
always says that nothing has changed yet and how to answer it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from agent.runtime.receipts import day_label, occurrence_line, span_label, window_label
from agent.services.chat_edits import EditOutcome

#: The turn's outcome name for each edit status (what the app and the evals read).
EDIT_OUTCOMES = {"updated": "updated", "deleted": "deleted", "no_match": "edit_no_match", "choose": "edit_choice",
                 "confirm": "edit_confirm", "edit_conflict": "edit_conflict", "cancelled": "edit_cancelled",
                 "answered": "edit_answered",
                 "none": "none", "invalid": "edit_invalid"}  # fmt: skip


def edit_outcome_name(outcome: EditOutcome) -> str:
    return EDIT_OUTCOMES.get(outcome.status, "edit_invalid")


def _moment(value: Any) -> datetime | date:
    text = str(value)
    return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)


def _when(item: dict[str, Any], lang: str, today: date | None) -> str:
    return span_label(_moment(item["start"]), _moment(item["end"]), lang, today)


def _line(item: dict[str, Any], lang: str, today: date | None) -> str:
    calendar = f"（{item.get('calendar')}）" if lang == "zh" else f" ({item.get('calendar')})"
    return f"{_when(item, lang, today)} {item.get('title', '')}{calendar}"


def _day_of(item: dict[str, Any]) -> date:
    moment = _moment(item["start"])
    return moment.date() if isinstance(moment, datetime) else moment


def _scope_text(outcome: EditOutcome, lang: str) -> str:
    """Which instances of a series were (or would be) touched."""
    if not outcome.recurring or outcome.before is None:
        return ""
    day = day_label(_day_of(outcome.before), lang, outcome.today)
    zh = lang == "zh"
    if outcome.scope == "all":
        return "整个重复系列（每一次）" if zh else "the whole repeating series (every instance)"
    if outcome.scope == "following":
        return f"{day}及之后的每一次，之前的不变" if zh else f"{day} and every later instance; earlier ones stay"
    return f"只有{day}这一次，系列的其他日子不变" if zh else f"only the {day} instance; the rest of the series stays"


def _changes(outcome: EditOutcome, lang: str) -> list[str]:
    zh = lang == "zh"
    lines: list[str] = []
    changed = outcome.changed
    if "title" in changed and outcome.before is not None:
        was, now = outcome.before["title"], changed["title"]
        lines.append(f"标题：{was} → {now}" if zh else f"Title: {was} → {now}")
    if "calendar" in changed:
        lines.append(f"日历：{changed['calendar']}" if zh else f"Calendar: {changed['calendar']}")
    if "location" in changed:
        lines.append(f"地点：{changed['location'] or '（已清除）'}" if zh else f"Place: {changed['location'] or '(cleared)'}")
    if "notes" in changed:
        lines.append("备注已更新" if zh else "Notes updated")
    if "reminder" in changed:
        minutes = int(changed["reminder"])
        lines.append(f"提醒：提前 {minutes} 分钟" if zh else f"Reminder: {minutes} min before")
    if "completed" in changed:
        done = bool(changed["completed"])
        lines.append(("已标记为完成" if done else "已标记为未完成") if zh else ("Marked done" if done else "Marked not done"))
    return lines


def edit_receipt(outcome: EditOutcome, lang: str) -> str:
    zh = lang == "zh"
    today = outcome.today
    before, after = outcome.before, outcome.after
    scope = _scope_text(outcome, lang)
    if "bulk" in outcome.changed or (
        outcome.status == "confirm" and outcome.options and any(r.startswith("bulk") for r in outcome.reasons)
    ):
        return _bulk(outcome, lang)
    if outcome.status == "updated" and before is not None and after is not None:
        moved = before["start"] != after["start"] or before["end"] != after["end"]
        head = f"已修改“{before['title']}”：" if zh else f"Changed “{before['title']}”:"
        lines = [head]
        if moved or "calendar" in outcome.changed:
            lines.append(f"原来：{_line(before, lang, today)}" if zh else f"Was: {_line(before, lang, today)}")
            lines.append(f"现在：{_line(after, lang, today)}" if zh else f"Now: {_line(after, lang, today)}")
        else:
            lines.append(f"日程：{_line(before, lang, today)}" if zh else f"Event: {_line(before, lang, today)}")
        lines += _changes(outcome, lang)
        if scope:
            lines.append(f"改动范围：{scope}" if zh else f"Changed: {scope}")
        return "\n".join(lines)
    if outcome.status == "deleted" and before is not None:
        if outcome.recurring and outcome.scope != "this":
            text = f"已删除“{before['title']}”：{scope}。" if zh else f"Deleted “{before['title']}”: {scope}."
        else:
            text = f"已删除：{_line(before, lang, today)}" if zh else f"Deleted: {_line(before, lang, today)}"
            if scope:
                text += f"\n（{scope}）" if zh else f"\n({scope})"
        return text
    if outcome.status == "no_match":
        return _no_match(outcome, lang)
    if outcome.status == "choose":
        lines = [f"{i}. {_line(option, lang, today)}" for i, option in enumerate(outcome.options, 1)]
        more = ""
        if outcome.more:
            more = (
                f"\n（还有 {outcome.more} 个没列出，请说得更具体些）"
                if zh
                else f"\n({outcome.more} more not listed; say which more precisely)"
            )
        verb = ("删除" if outcome.op == "delete" else "修改") if zh else ("delete" if outcome.op == "delete" else "change")
        if zh:
            count = len(outcome.options) + outcome.more
            return (
                f"有 {count} 个日程符合，还没有改动。要{verb}哪一个？\n"
                + "\n".join(lines)
                + more
                + "\n回复“第二个”或“10点那个”，或点下面的按钮。"
            )
        return (
            f"{len(outcome.options) + outcome.more} events match, so nothing changed yet. Which one should I {verb}?\n"
            + "\n".join(lines)
            + more
            + "\nReply “the second” or “the 3pm one”, or use the buttons below."
        )
    if outcome.status == "confirm" and before is not None:
        return _question(outcome, lang)
    if outcome.status == "edit_conflict" and before is not None and after is not None:
        overlaps = "\n".join(occurrence_line(occ, lang, today) for occ in outcome.conflicts)
        if zh:
            return (
                f"把“{before['title']}”改到 {_when(after, lang, today)} 会和这些日程冲突：\n{overlaps}\n"
                "还没有改动。要照样改吗？回复“是”照改，或告诉我别的时间。"
            )
        return (
            f"Moving “{before['title']}” to {_when(after, lang, today)} overlaps:\n{overlaps}\n"
            "Nothing changed yet. Move it anyway? Reply “yes”, or tell me another time."
        )
    if outcome.status == "answered":
        return _answer(outcome, lang)
    if outcome.status == "cancelled" and outcome.kept:  # a declined bulk change names them all
        if zh:
            return f"好的，不改了，这 {outcome.kept} 个日程都保持原样。"
        return f"OK, nothing changed: the {outcome.kept} events stay as they were."
    if outcome.status == "cancelled":
        return f"好的，不改了，“{outcome.title}”保持原样。" if zh else f"OK, “{outcome.title}” stays as it was."
    if outcome.status == "none":
        return "现在没有待确认的修改。" if zh else "There is no pending change."
    message = outcome.message or ""
    if zh:
        return f"这次没能修改，日历没有变化。{('（' + message + '）') if message else ''}"
    return f"That change could not be made, and your calendar is unchanged.{(' (' + message + ')') if message else ''}"


def _bulk(outcome: EditOutcome, lang: str) -> str:
    """One confirmation (or receipt) listing every event a bulk change touches."""
    zh = lang == "zh"
    lines = "\n".join(f"{i}. {_line(option, lang, outcome.today)}" for i, option in enumerate(outcome.options, 1))
    count = len(outcome.options)
    deleting = outcome.op == "delete"
    if outcome.status == "confirm":
        if zh:
            verb = "删除" if deleting else "修改"
            return (
                f"还没有改动：这会{verb}下面 {count} 个日程：\n{lines}\n要全部{verb}吗？回复“是”确认（可以一次撤销），或“不用”。"
            )
        verb = "delete" if deleting else "change"
        return (
            f"Nothing changed yet: this would {verb} these {count} events:\n{lines}\n"
            f"{verb.capitalize()} all {count}? Reply “yes” (one Undo reverts it), or “no”."
        )
    if zh:
        return f"已{'删除' if outcome.status == 'deleted' else '修改'} {count} 个日程：\n{lines}"
    return f"{'Deleted' if outcome.status == 'deleted' else 'Changed'} {count} events:\n{lines}"


def _answer(outcome: EditOutcome, lang: str) -> str:
    """A negated change or a question about an event: what is there, nothing changed."""
    zh = lang == "zh"
    kind, _, word = (outcome.reasons or ["question:"])[0].partition(":")
    if kind == "negated":
        head = f"好的，不改动（你说的是“{word}”）。日历没有变化" if zh else f"OK, nothing changed (you said “{word}”)"
    else:
        head = "这是在问，所以没有改动。日历上现在是" if zh else "You asked, so nothing changed. Your calendar has"
    lines = [_line(option, lang, outcome.today) for option in outcome.options]
    more = (f"\n（还有 {outcome.more} 个）" if zh else f"\n({outcome.more} more)") if outcome.more else ""
    tail = (
        "\n要改的话，请直接说“删掉……”或“把……改到……”。" if zh else "\nTo change it, say so directly (“delete …”, “move … to …”)."
    )
    return f"{head}{'：' if zh else ':'}\n" + "\n".join(lines) + more + tail


def _no_match(outcome: EditOutcome, lang: str) -> str:
    zh = lang == "zh"
    search = outcome.search
    if search is None:
        return (
            "没有找到那个日程（它可能刚被改过），日历没有变化。"
            if zh
            else "I couldn't find that event (it may have just changed); your calendar is unchanged."
        )
    where = window_label(search.start, search.end, lang, outcome.today)
    parts = [where]
    if search.words:
        parts.append(f"标题包含“{search.words}”" if zh else f"title containing “{search.words}”")
    if search.time is not None:
        parts.append(f"{search.time:%H:%M} 的" if zh else f"at {search.time:%H:%M}")
    if zh:
        return f"没有找到符合的日程，日历没有改动。查找范围：{'，'.join(parts)}。"
    return f"No matching event, so nothing changed. Searched: {', '.join(parts)}."


def _question(outcome: EditOutcome, lang: str) -> str:
    zh = lang == "zh"
    today = outcome.today
    before, after = outcome.before or {}, outcome.after or {}
    why: list[str] = []
    for reason in outcome.reasons:
        kind, _, detail = reason.partition(":")
        if kind == "series_delete":
            why.append("这会删除重复日程中的多次" if zh else "this deletes more than one instance of a repeating event")
        elif kind == "series_move":
            why.append("这会移动重复日程中的多次" if zh else "this moves more than one instance of a repeating event")
        elif kind == "fuzzy":
            why.append("标题和你说的不完全一样" if zh else "its title is not exactly what you said")
        elif kind == "target_not_named":
            why.append(
                f"你这句话里没有提到“{before.get('title', outcome.title)}”"
                if zh
                else f"your message does not name “{before.get('title', outcome.title)}”"
            )
        elif kind == "not_from_user" and detail == "targetTime":
            why.append("这个时间不是你说的" if zh else "you did not name that time")
        elif kind == "not_from_user" and detail == "completed":
            why.append("你没有说它已经完成" if zh else "you did not say it is done")
        elif kind == "bulk":
            why.append(
                f"你说的是“{detail}”，一次改动多个日程前先确认"
                if zh and not detail.isdigit()
                else "先确认一次改动多个日程"
                if zh
                else "a change to several events is confirmed first"
            )
        elif kind == "value_differs":
            why.append("按你说的推算是这个时间" if zh else "this is the time your words give")
        elif kind == "not_from_user" and detail in ("newTime", "newDate"):
            why.append("新的时间不是你说的" if zh else "the new time is not one you said")
        elif kind == "scope_wider":
            why.append("你没有说要改这个重复日程的其他日子" if zh else "you did not say to change the other days of the series")
        elif kind in ("hedge", "hearsay", "unsure"):
            why.append(f"你说的是“{detail}”，听起来还没定" if zh else f"you said “{detail}”, which does not sound settled")
        elif kind == "not_from_user" and detail == "action":
            verb = ("删除" if outcome.op == "delete" else "修改") if zh else ("delete" if outcome.op == "delete" else "change")
            why.append(f"你这句话里没有说要{verb}" if zh else f"your message did not ask to {verb} anything")
        elif kind == "not_from_user":
            why.append("要改的内容不是你这句话里的说法" if zh else "what would change is not in your own words")
        elif kind == "date_contradicts":
            why.append(f"你说的是“{detail}”，日期对不上" if zh else f"you said “{detail}”, which is not that day")
    reason_text = ("，".join(why) if zh else "; ".join(why)) or ("需要你确认" if zh else "it needs your confirmation")
    scope = _scope_text(outcome, lang)
    target = _line(before, lang, today) if before else outcome.title
    series = outcome.recurring and outcome.scope != "this"
    if series:  # a series is named by its title; the scope says which instances
        title = before.get("title", outcome.title)
        target = f"“{title}”的{scope}" if zh else f"“{title}” — {scope}"
        scope = ""
    if outcome.op == "delete":
        if zh:
            action = f"删除{'' if series else ' '}{target}" + (f"（{scope}）" if scope else "")
        else:
            action = f"delete {target}" + (f" ({scope})" if scope else "")
    else:
        moved = after and (after.get("start") != before.get("start") or after.get("end") != before.get("end"))
        extra = "，".join(_changes(outcome, lang)) if zh else "; ".join(_changes(outcome, lang))
        if zh:
            action = (
                f"修改{'' if series else ' '}{target}"
                + (f" → {_when(after, lang, today)}" if moved else "")
                + (f"（{scope}）" if scope else "")
            )
        else:
            action = f"change {target}" + (f" → {_when(after, lang, today)}" if moved else "") + (f" ({scope})" if scope else "")
        if extra:
            action += f"：{extra}" if zh else f": {extra}"
    if zh:
        return f"还没有改动：{reason_text}。要{action}吗？回复“是”确认，或“不用”。"
    return f"Nothing changed yet: {reason_text}. Should I {action}? Reply “yes” to go ahead, or “no”."
