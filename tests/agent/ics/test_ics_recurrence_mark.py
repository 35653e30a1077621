"""ICS export and import keep what the recurrence model reads (issue 28): a 农历 series
made by chat comes back from its own export still marked X-RICHENG-RECUR, with every date,
and reads as the same rule; a structured rule comes back as the same Recurrence."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from agent.ics.exporter import export_calendar
from agent.ics.importer import import_bytes
from agent.services.commands import CommandService
from agent.services.repeat import series_rule
from agent.store.components import parse_component
from agent.store.db import Store
from agent.store.profiles import ensure_profile
from agent.timesym.context import TimeContext
from agent.timesym.recurrence import LUNAR_MARK, LUNAR_YEARLY, MARK_PROPERTY, Recurrence


def masters(store: Store) -> dict[str, object]:
    rows = store.conn.execute("SELECT ics FROM events WHERE recurrence_id = ''")
    found = [parse_component(row[0]) for row in rows]
    return {str(component["SUMMARY"]): component for component in found}


def test_a_round_trip_keeps_the_mark_and_the_rules(store: Store, profile_id: int, ctx: TimeContext, tmp_path: Path) -> None:
    svc = CommandService(store, profile_id, ctx)
    assert svc.prepare_or_create("中秋聚餐", "L:08-15", repeat="LUNAR_YEARLY").status == "created"
    assert svc.prepare_or_create("Gym", "D+1", time="07:00", rrule="FREQ=WEEKLY;BYDAY=MO,WE,FR").status == "created"
    data = export_calendar(store, profile_id)
    assert f"{MARK_PROPERTY}:{LUNAR_MARK}".encode() in data
    other = Store(tmp_path / "other.sqlite3")
    try:
        other_profile = ensure_profile(other)
        import_bytes(other, other_profile, data)
        before, after = masters(store), masters(other)
        lunar = after["中秋聚餐"]
        assert str(lunar.get(MARK_PROPERTY)) == LUNAR_MARK
        assert series_rule(lunar, ctx.tz) == series_rule(before["中秋聚餐"], ctx.tz) == Recurrence(LUNAR_YEARLY, count=30)
        listed = lunar.get("RDATE")
        items = listed if isinstance(listed, list) else [listed]
        days = sorted(value.dt for item in items for value in item.dts)
        assert days[:2] == [date(2028, 10, 3), date(2029, 9, 22)] and lunar.decoded("DTSTART") == date(2027, 9, 15)
        gym = series_rule(after["Gym"], ctx.tz)
        assert gym == series_rule(before["Gym"], ctx.tz) and gym is not None
        assert gym.to_rrule(datetime(2026, 12, 2, 7, tzinfo=ctx.tz)) == "FREQ=WEEKLY;BYDAY=MO,WE,FR"
    finally:
        other.close()
