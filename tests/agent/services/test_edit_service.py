"""The editor's composite saves, headless (agent/services/editing.py, issue 12 seam 2).

One occurrence's times and fields, "this and following" with field changes, and a series
given as an RDATE list are ``EditService`` methods: each one transaction and one merged
change set, so the app only picks the method. Real SQLite file, no Qt.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from agent.services.calendars import CalendarService
from agent.services.editing import EditService, EventDraft
from agent.store.changes import Change, ChangeSet
from agent.store.components import build_event, parse_component, set_alarms
from agent.store.db import Store
from agent.store.events import EventRepo
from agent.store.occurrence import Occurrence
from agent.store.profiles import ensure_profile
from agent.timesym.recurrence import LUNAR_YEARLY, Recurrence
from tests.support.clock import SHANGHAI

MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=SHANGHAI)
WEEK = timedelta(days=7)
HOUR = timedelta(hours=1)
RULE = "FREQ=WEEKLY;COUNT=8;BYDAY=MO;WKST=SU"  # WKST: a part the editor cannot show


@pytest.fixture
def service(tmp_path: Path) -> Iterator[EditService]:
    store = Store(tmp_path / "edit.sqlite3")
    yield EditService(store, ensure_profile(store))
    store.close()


def calendar(service: EditService) -> int:
    return CalendarService(service.store, service.profile_id).default().id


def weekly(service: EditService, title: str = "周会") -> str:
    draft = EventDraft(title, MONDAY, MONDAY + HOUR, calendar(service), rrule=RULE, alarm_minutes=(10,))
    return service.create(draft).created[0].uid


def instances(service: EditService) -> list[Occurrence]:
    start = MONDAY - timedelta(days=1)
    return EventRepo(service.store, service.profile_id).occurrences(start, start + 12 * WEEK, SHANGHAI)


def nth(service: EditService, index: int) -> Occurrence:
    return instances(service)[index]


def row(service: EditService, uid: str, recurrence_id: str = "") -> dict[str, object]:
    found = EventRepo(service.store, service.profile_id).row(uid, recurrence_id)
    assert found is not None
    return dict(found)


def rule_of(service: EditService, uid: str) -> str:
    text = parse_component(str(row(service, uid)["ics"]))["RRULE"].to_ical()
    return text.decode() if isinstance(text, bytes) else str(text)


def keys(changes: list[Change]) -> list[tuple[str, str]]:
    return [(change.uid, change.recurrence_id) for change in changes]


def alarm_blocks(ics: str) -> list[str]:
    text = ics.replace("\r\n", "\n")
    return [part.split("END:VALARM")[0] for part in text.split("BEGIN:VALARM")[1:]]


def test_edit_one_writes_one_override_with_times_and_fields_as_one_created_row(service: EditService) -> None:
    uid = weekly(service)
    third = nth(service, 2)
    start = third.start + timedelta(hours=5)
    draft = EventDraft("周会（改到下午）", start, start + 2 * HOUR, calendar(service), location="B2", transp="TRANSPARENT",
                       alarm_minutes=(30, 5))  # fmt: skip
    changes = service.edit_one(third, draft)
    # The move created the override and the field save rewrote it: one step, created once.
    assert keys(changes.created) == [(uid, third.recurrence_id)]
    assert changes.updated == [] and changes.deleted == []
    override = row(service, uid, third.recurrence_id or "")
    assert (override["title"], override["location"], override["transp"]) == ("周会（改到下午）", "B2", "TRANSPARENT")
    component = parse_component(str(override["ics"]))
    assert [alarm.decoded("TRIGGER") for alarm in component.walk("VALARM")] == [timedelta(minutes=-30), timedelta(minutes=-5)]
    shown = [(occ.title, occ.start) for occ in instances(service)]
    assert ("周会（改到下午）", start) in shown and shown.count(("周会", third.start)) == 0
    assert [title for title, _ in shown].count("周会") == 7
    service.undo(changes)  # one step back: the series as it was
    assert [(occ.title, occ.start) for occ in instances(service)] == [("周会", MONDAY + i * WEEK) for i in range(8)]


def test_edit_following_splits_and_rewrites_the_new_series_keeping_its_rule(service: EditService) -> None:
    uid = weekly(service)
    fourth = nth(service, 3)
    draft = EventDraft("新周会", fourth.start, fourth.end, calendar(service), rrule="FREQ=WEEKLY", alarm_minutes=(10,))
    changes = service.edit_following(fourth, draft, keep_rule=True)
    new = next(change.uid for change in changes.created if change.uid != uid)
    assert keys(changes.created) == [(new, "")]  # created once, though the replace rewrote it
    assert keys(changes.updated) == [(uid, "")]
    # keep_rule: the stored rule, not the draft's bare FREQ=WEEKLY (COUNT lowered by the split)
    rule = rule_of(service, new)
    assert rule == "FREQ=WEEKLY;COUNT=5;BYDAY=MO;WKST=SU"
    assert [occ.title for occ in instances(service)] == ["周会"] * 3 + ["新周会"] * 5
    changed = service.edit_following(nth(service, 5), replace(draft, title="再改"), keep_rule=False)
    newest = next(change.uid for change in changed.created)
    assert rule_of(service, newest) == "FREQ=WEEKLY"


def test_dates_replace_the_rule_with_an_rdate_list_and_a_mark(service: EditService) -> None:
    yearly = Recurrence(LUNAR_YEARLY, count=3)  # the one lunar rule (agent.timesym.recurrence)
    draft = EventDraft("春节", MONDAY, MONDAY + HOUR, calendar(service), rrule="FREQ=YEARLY")
    changes = service.create_with_dates(draft, yearly)
    uid = changes.created[0].uid
    assert keys(changes.created) == [(uid, "")] and changes.updated == []
    master = parse_component(str(row(service, uid)["ics"]))
    assert master.get("RRULE") is None and str(master["X-RICHENG-RECUR"]) == "LUNAR-YEARLY"
    shown = EventRepo(service.store, service.profile_id).occurrences(MONDAY - HOUR, MONDAY + timedelta(days=800), SHANGHAI)
    assert [occ.start for occ in shown] == yearly.lunar_dates(MONDAY)
    assert [occ.start.date() for occ in shown] == [date(2026, 11, 30), date(2027, 11, 19), date(2028, 12, 7)]  # 十月廿二 each lunar year
    # No dates (the editor chose a plain rule again): the list and the mark go, the rule stands.
    service.replace_with_dates(uid, replace(draft, title="春节 2"), None)
    master = parse_component(str(row(service, uid)["ics"]))
    assert master.get("RDATE") is None and master.get("X-RICHENG-RECUR") is None
    assert rule_of(service, uid) == "FREQ=YEARLY"
    assert not service.has_dates(uid)


def test_series_draft_moves_the_master_by_the_instances_days_and_keeps_the_stored_rule(service: EditService) -> None:
    uid = weekly(service)
    second = nth(service, 1)
    later = second.start + timedelta(days=1, hours=2)
    draft = EventDraft("周会", later, later + HOUR, calendar(service), rrule="FREQ=WEEKLY;COUNT=8")
    kept = service.series_draft(second, draft, keep_rule=True)
    assert (kept.start, kept.end) == (MONDAY + timedelta(days=1, hours=2), MONDAY + timedelta(days=1, hours=3))
    assert kept.rrule == RULE
    assert service.series_draft(second, draft, keep_rule=False).rrule == "FREQ=WEEKLY;COUNT=8"
    service.replace(uid, kept)
    assert instances(service)[0].start == MONDAY + timedelta(days=1, hours=2)  # DTSTART moved with the instance


def test_every_reminder_is_written_by_one_function(service: EditService) -> None:
    """A new event, an "all" save and one occurrence's save make the same VALARM."""
    uid = weekly(service)
    created = alarm_blocks(str(row(service, uid)["ics"]))
    draft = EventDraft("周会", MONDAY, MONDAY + HOUR, calendar(service), rrule=RULE, alarm_minutes=(10,))
    service.replace(uid, draft)
    replaced = alarm_blocks(str(row(service, uid)["ics"]))
    one = nth(service, 1)
    service.edit_one(one, replace(draft, start=one.start, end=one.end))
    overridden = alarm_blocks(str(row(service, uid, one.recurrence_id or "")["ics"]))
    component = build_event("周会", MONDAY, MONDAY + HOUR)
    set_alarms(component, [10], "周会")
    assert created == replaced == overridden == alarm_blocks(component.to_ical().decode("utf-8"))
    assert len(created) == 1


def test_merge_keeps_the_earliest_before_image_and_drops_a_row_created_then_deleted() -> None:
    def change(uid: str, ics: str | None = "old") -> Change:
        return Change(uid, "", 1, ics, 1, "user")

    first = ChangeSet(created=[change("new", None)], updated=[change("kept", "first")])
    second = ChangeSet(updated=[change("kept", "second"), change("other", "o")], deleted=[change("new")],
                       created=[change("fresh", None)])  # fmt: skip
    merged = first.merge(second)
    assert keys(merged.created) == [("fresh", "")]
    assert [(c.uid, c.before_ics) for c in merged.updated] == [("kept", "first"), ("other", "o")]
    assert merged.deleted == []
    assert keys(first.created) == [("new", "")]  # neither input is changed
    assert not ChangeSet(created=[change("x", None)]).merge(ChangeSet(deleted=[change("x")]))


def test_a_failing_step_leaves_nothing_half_done(service: EditService) -> None:
    """edit_following runs split and rewrite in one transaction: a refused rewrite undoes the split."""
    uid = weekly(service)
    fourth = nth(service, 3)
    before = service.store.conn.execute("SELECT uid, recurrence_id, ics FROM events ORDER BY id").fetchall()
    bad = EventDraft("x", fourth.start, fourth.end, calendar(service) + 99)  # no such calendar
    with pytest.raises(Exception):  # noqa: B017 - NotFoundError today; any refusal will do
        service.edit_following(fourth, bad, keep_rule=True)
    after = service.store.conn.execute("SELECT uid, recurrence_id, ics FROM events ORDER BY id").fetchall()
    assert [tuple(r) for r in after] == [tuple(r) for r in before]
    assert row(service, uid)["rrule"] == RULE
