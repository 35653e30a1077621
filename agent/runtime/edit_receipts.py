"""Receipts for chat edits, written by code from the change that was (or was not) made.

What it was (day, time, calendar; the year when it is not this year), what it is now, and
for a series which instances were touched. A question (a choice, a confirmation, a conflict)
always says that nothing has changed yet and how to answer it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from agent.messages.catalogue import render
from agent.runtime.invite_grounding import answer_word, reply_line
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
    when = _when(item, lang, today)
    return render("receipts.event_line", lang, when=when, title=item.get("title", ""), calendar=item.get("calendar"))


def _day_of(item: dict[str, Any]) -> date:
    moment = _moment(item["start"])
    return moment.date() if isinstance(moment, datetime) else moment


def _scope_text(outcome: EditOutcome, lang: str) -> str:
    """Which instances of a series were (or would be) touched."""
    if not outcome.recurring or outcome.before is None:
        return ""
    day = day_label(_day_of(outcome.before), lang, outcome.today)
    if outcome.scope in ("all", "following"):
        return render(f"receipts.edit.scope_{outcome.scope}", lang, day=day)
    return render("receipts.edit.scope_this", lang, day=day)


def _verb(outcome: EditOutcome, lang: str) -> str:
    verbs = {"delete": "receipts.edit.verb.delete", "respond": "receipts.edit.verb.respond"}
    return render(verbs.get(outcome.op, "receipts.edit.verb.update"), lang)


def _changes(outcome: EditOutcome, lang: str) -> list[str]:
    lines: list[str] = []
    changed = outcome.changed
    if "title" in changed and outcome.before is not None:
        lines.append(render("receipts.edit.title", lang, was=outcome.before["title"], now=changed["title"]))
    if "calendar" in changed:
        lines.append(render("receipts.edit.calendar", lang, calendar=changed["calendar"]))
    if "location" in changed:
        location = changed["location"] or render("receipts.cleared", lang)
        lines.append(render("receipts.location", lang, location=location))
    if "notes" in changed:
        lines.append(render("receipts.edit.notes", lang))
    if "reminder" in changed:
        lines.append(render("receipts.reminder", lang, minutes=int(changed["reminder"])))
    if "completed" in changed:
        lines.append(render("receipts.edit.done" if changed["completed"] else "receipts.edit.not_done", lang))
    return lines


def edit_receipt(outcome: EditOutcome, lang: str) -> str:
    today = outcome.today
    before, after = outcome.before, outcome.after
    scope = _scope_text(outcome, lang)
    if "bulk" in outcome.changed or (
        outcome.status == "confirm" and outcome.options and any(r.startswith("bulk") for r in outcome.reasons)
    ):
        return _bulk(outcome, lang)
    if outcome.status == "updated" and before is not None and "partstat" in outcome.changed:
        return _answered(outcome, before, lang)
    if outcome.status == "updated" and before is not None and after is not None:
        moved = before["start"] != after["start"] or before["end"] != after["end"]
        lines = [render("receipts.edit.changed_head", lang, title=before["title"])]
        if moved or "calendar" in outcome.changed:
            lines.append(render("receipts.edit.was", lang, line=_line(before, lang, today)))
            lines.append(render("receipts.edit.now", lang, line=_line(after, lang, today)))
        else:
            lines.append(render("receipts.edit.event", lang, line=_line(before, lang, today)))
        lines += _changes(outcome, lang)
        if scope:
            lines.append(render("receipts.edit.scope", lang, scope=scope))
        return "\n".join(lines)
    if outcome.status == "deleted" and before is not None:
        if outcome.recurring and outcome.scope != "this":
            return render("receipts.edit.deleted_series", lang, title=before["title"], scope=scope)
        text = render("receipts.edit.deleted", lang, line=_line(before, lang, today))
        if scope:
            text += "\n" + render("receipts.edit.scope_note", lang, scope=scope)
        return text
    if outcome.status == "no_match":
        return _no_match(outcome, lang)
    if outcome.status == "choose":
        listed = "\n".join(f"{i}. {_line(option, lang, today)}" for i, option in enumerate(outcome.options, 1))
        more = "\n" + render("receipts.edit.more_unlisted", lang, more=outcome.more) if outcome.more else ""
        count = len(outcome.options) + outcome.more
        return render("receipts.edit.choose", lang, count=count, verb=_verb(outcome, lang), lines=listed, more=more)
    if outcome.status == "confirm" and before is not None:
        return _question(outcome, lang)
    if outcome.status == "edit_conflict" and before is not None and after is not None:
        overlaps = "\n".join(occurrence_line(occ, lang, today) for occ in outcome.conflicts)
        when = _when(after, lang, today)
        return render("receipts.edit.conflict", lang, title=before["title"], when=when, overlaps=overlaps)
    if outcome.status == "answered":
        return _answer(outcome, lang)
    if outcome.status == "cancelled" and outcome.kept:  # a declined bulk change names them all
        return render("receipts.edit.kept_all", lang, kept=outcome.kept)
    if outcome.status == "cancelled":
        return render("receipts.edit.kept", lang, title=outcome.title)
    if outcome.status == "none":
        return render("receipts.edit.nothing_pending", lang)
    if outcome.message:
        return render("receipts.edit.failed_because", lang, message=outcome.message_text(lang))
    return render("receipts.edit.failed", lang)


def _bulk(outcome: EditOutcome, lang: str) -> str:
    """One confirmation (or receipt) listing every event a bulk change touches."""
    lines = "\n".join(f"{i}. {_line(option, lang, outcome.today)}" for i, option in enumerate(outcome.options, 1))
    count = len(outcome.options)
    if outcome.status == "confirm":
        code = "receipts.edit.bulk_confirm_delete" if outcome.op == "delete" else "receipts.edit.bulk_confirm_update"
        return render(code, lang, count=count, lines=lines)
    code = "receipts.edit.bulk_deleted" if outcome.status == "deleted" else "receipts.edit.bulk_changed"
    return render(code, lang, count=count, lines=lines)


def _answer(outcome: EditOutcome, lang: str) -> str:
    """A negated change or a question about an event: what is there, nothing changed."""
    kind, _, word = (outcome.reasons or ["question"])[0].partition(":")
    lines = "\n".join(_line(option, lang, outcome.today) for option in outcome.options)
    more = "\n" + render("receipts.edit.more", lang, more=outcome.more) if outcome.more else ""
    code = {"negated": "receipts.edit.answer_negated", "conditional": "receipts.edit.answer_conditional"}.get(
        kind, "receipts.edit.answer_question"
    )
    return render(code, lang, word=word, lines=lines, more=more)


def _no_match(outcome: EditOutcome, lang: str) -> str:
    search = outcome.search
    if search is None:
        return render("receipts.edit.not_found", lang)
    parts = [window_label(search.start, search.end, lang, outcome.today)]
    if search.words:
        parts.append(render("receipts.edit.search_words", lang, words=search.words))
    if search.time is not None:
        parts.append(render("receipts.edit.search_time", lang, time=search.time))
    return render("receipts.edit.no_match", lang, parts=render("receipts.edit.part_sep", lang).join(parts))


#: The reason codes of a confirmation whose wording takes no detail (``kind`` -> code).
_PLAIN_WHY = {
    "series_delete": "receipts.edit.why.series_delete",
    "series_move": "receipts.edit.why.series_move",
    "fuzzy": "receipts.edit.why.fuzzy",
    "value_differs": "receipts.edit.why.value_differs",
    "scope_wider": "receipts.edit.why.scope_wider",
}


def _why(kind: str, detail: str, outcome: EditOutcome, lang: str) -> str | None:
    """One reason a change is asked about rather than made, or None for an unknown kind."""
    before = outcome.before or {}
    if kind in _PLAIN_WHY:
        return render(_PLAIN_WHY[kind], lang)
    if kind == "target_not_named":
        return render("receipts.edit.why.target_not_named", lang, title=before.get("title", outcome.title))
    if kind == "not_from_user" and detail == "targetTime":
        return render("receipts.edit.why.not_from_user_time", lang)
    if kind == "not_from_user" and detail == "completed":
        return render("receipts.edit.why.not_from_user_completed", lang)
    if kind == "bulk":
        return render("receipts.edit.why.bulk" if detail.isdigit() else "receipts.edit.why.bulk_said", lang, word=detail)
    if kind == "not_from_user" and detail in ("newTime", "newDate"):
        return render("receipts.edit.why.not_from_user_new", lang)
    if kind in ("hedge", "hearsay", "unsure"):
        return render("receipts.edit.why.unsure", lang, word=detail)
    if kind == "not_from_user" and detail == "action":
        return render("receipts.edit.why.not_from_user_action", lang, verb=_verb(outcome, lang))
    if kind == "not_from_user":
        return render("receipts.edit.why.not_from_user", lang)
    if kind == "date_contradicts":
        return render("receipts.edit.why.date_contradicts", lang, word=detail)
    if kind == "answer_not_said":
        return render("receipts.edit.why.answer_not_said", lang, answer=answer_word(detail, lang))
    return None


def _answered(outcome: EditOutcome, before: dict[str, Any], lang: str) -> str:
    """An invitation answered: which answer, on which event, and what became of the REPLY."""
    heads = {"ACCEPTED": "receipts.invite.accepted", "TENTATIVE": "receipts.invite.tentative"}
    code = heads.get(str(outcome.changed["partstat"]), "receipts.invite.declined")
    head = render(code, lang, title=before["title"], line=_line(before, lang, outcome.today))
    reply = outcome.changed.get("reply")
    return "\n".join([head, reply_line(reply, lang)] if reply else [head])


def _question(outcome: EditOutcome, lang: str) -> str:
    today = outcome.today
    before, after = outcome.before or {}, outcome.after or {}
    why = [text for kind, _, detail in (r.partition(":") for r in outcome.reasons) if (text := _why(kind, detail, outcome, lang))]
    sep = render("receipts.clause_sep", lang)
    reasons = sep.join(why) or render("receipts.needs_confirmation", lang)
    scope = _scope_text(outcome, lang)
    target = _line(before, lang, today) if before else outcome.title
    series = outcome.recurring and outcome.scope != "this"
    if series:  # a series is named by its title; the scope says which instances
        target = render("receipts.edit.series_target", lang, title=before.get("title", outcome.title), scope=scope)
        scope = ""
    suffix = render("receipts.edit.scope_suffix", lang, scope=scope) if scope else ""
    if outcome.op == "respond":
        answer = answer_word(str(outcome.changed.get("partstat", "")), lang)
        action = render("receipts.invite.action", lang, target=_line(before, lang, today) if before else target, answer=answer)
    elif outcome.op == "delete":
        code = "receipts.edit.action_delete_series" if series else "receipts.edit.action_delete"
        action = render(code, lang, target=target) + suffix
    else:
        moved = after and (after.get("start") != before.get("start") or after.get("end") != before.get("end"))
        code = "receipts.edit.action_update_series" if series else "receipts.edit.action_update"
        action = render(code, lang, target=target) + (f" → {_when(after, lang, today)}" if moved else "") + suffix
        extra = sep.join(_changes(outcome, lang))
        if extra:
            action = render("receipts.edit.action_extra", lang, action=action, extra=extra)
    return render("receipts.edit.confirm", lang, reasons=reasons, action=action)
