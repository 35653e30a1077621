"""Import behaviour, organised around the complaints other calendars' trackers keep getting."""

from __future__ import annotations

import os
import textwrap
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.errors import UserFacingError
from agent.files import InputFileError, MiB
from agent.ics import importer
from agent.ics.importer import import_bytes, import_file
from agent.ics.reader import IcsReadError
from agent.ics.report import ImportReport
from agent.services.calendars import CalendarService
from agent.store.events import EventRepo
from agent.store.expansion import Expander
from agent.store.profiles import ensure_profile
from tests.agent.ics.test_ics_support import DATA, event_fields, fixture, fresh
from tests.support.clock import NEW_YORK, SHANGHAI

LOS_ANGELES = ZoneInfo("America/Los_Angeles")


def ics(body: str, header: str = "") -> bytes:
    """A calendar around ``body`` (indented VEVENT text), with CRLF line breaks."""
    text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n" + textwrap.dedent(header).strip()
    text = text.rstrip("\n") + "\n" + textwrap.dedent(body).strip() + "\nEND:VCALENDAR\n"
    return text.replace("\n", "\r\n").encode()


def event(uid: str, *lines: str) -> str:
    return "\n".join(["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20250101T000000Z", *lines, "END:VEVENT"])


def occ(store, profile, start: datetime, end: datetime, tz: ZoneInfo = SHANGHAI):  # type: ignore[no-untyped-def]
    return EventRepo(store, profile).occurrences(start, end, tz)


def year(tz: ZoneInfo = SHANGHAI) -> tuple[datetime, datetime]:
    return datetime(2025, 1, 1, tzinfo=tz), datetime(2026, 1, 1, tzinfo=tz)


def snapshot(store) -> dict[str, list[tuple]]:  # type: ignore[no-untyped-def]
    return {
        table: [tuple(row) for row in store.conn.execute(f"SELECT * FROM {table} ORDER BY id")]
        for table in ("events", "occurrences", "alarms", "calendars")
    }


# ---- the recurring complaints ----------------------------------------------------------


@pytest.mark.parametrize("viewer", [LOS_ANGELES, SHANGHAI, ZoneInfo("Pacific/Kiritimati"), ZoneInfo("UTC")])
def test_all_day_event_is_not_off_by_one_day(viewer: ZoneInfo) -> None:
    store, profile = fresh()
    data = ics(
        "\n".join(
            [
                event("one", "DTSTART;VALUE=DATE:20250129", "DTEND;VALUE=DATE:20250130", "SUMMARY:One day"),
                event("no-end", "DTSTART;VALUE=DATE:20250301", "SUMMARY:No end"),
                event("three", "DTSTART;VALUE=DATE:20250401", "DTEND;VALUE=DATE:20250404", "SUMMARY:Three"),
                event("dur", "DTSTART;VALUE=DATE:20250501", "DURATION:P2D", "SUMMARY:Two by duration"),
            ]
        )
    )
    import_bytes(store, profile, data)
    found = {o.title: (o.start, o.end, o.all_day) for o in occ(store, profile, *year(viewer), tz=viewer)}
    assert found == {
        "One day": (date(2025, 1, 29), date(2025, 1, 30), True),
        "No end": (date(2025, 3, 1), date(2025, 3, 2), True),
        "Three": (date(2025, 4, 1), date(2025, 4, 4), True),
        "Two by duration": (date(2025, 5, 1), date(2025, 5, 3), True),
    }
    # The day before and the day after see nothing of "One day".
    day_before = occ(store, profile, datetime(2025, 1, 28, tzinfo=viewer), datetime(2025, 1, 29, tzinfo=viewer), viewer)
    day_after = occ(store, profile, datetime(2025, 1, 30, tzinfo=viewer), datetime(2025, 1, 31, tzinfo=viewer), viewer)
    assert [o.title for o in day_before] == [] and [o.title for o in day_after] == []


def test_moved_instance_is_shown_once_and_exdate_and_cancellation_are_honoured() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("series_overrides.ics"))
    berlin = ZoneInfo("Europe/Berlin")
    series = [o for o in occ(store, profile, *year(berlin), tz=berlin) if o.uid == "series-1@example.com"]
    days = [(o.start.date().isoformat(), o.start.hour, o.title) for o in series]  # type: ignore[union-attr]
    assert days == [
        ("2025-01-06", 9, "Team meeting"),
        # 01-13 is an EXDATE; 01-20 moved to the 21st at 14:00; 01-27 is cancelled.
        ("2025-01-21", 14, "Team meeting (moved)"),
        ("2025-02-03", 9, "Team meeting with guests"),
        ("2025-02-10", 9, "Team meeting"),
        ("2025-02-17", 9, "Team meeting"),
        ("2025-02-24", 9, "Team meeting"),
        ("2025-03-01", 9, "Team meeting"),  # RDATE
    ]
    edited = next(o for o in series if o.title == "Team meeting with guests")
    assert edited.location == "Big room" and edited.recurrence_id == "20250203T080000Z"


def test_this_and_future_override_moves_the_rest_of_the_series() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("series_overrides.ics"))
    runs = [o for o in occ(store, profile, *year()) if o.uid == "series-2@example.com"]
    assert [(o.start.day, o.start.hour) for o in runs] == [(1, 8), (2, 8), (3, 8), (4, 7), (5, 7), (6, 7)]  # type: ignore[union-attr]
    assert all((o.end - o.start).seconds == 1800 for o in runs)  # type: ignore[operator]


def test_windows_zone_names_become_iana_and_keep_the_original_text() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, fixture("outlook_windows_zones.ics"))
    assert report.to_json() == {"imported": 2, "updated": 0, "skipped": 0, "errors": []}
    rows = {row["title"]: row for row in store.conn.execute("SELECT * FROM events")}
    meeting, standup = rows["周会"], rows["Standup across DST"]
    assert meeting["tzid"] == "Asia/Shanghai" and standup["tzid"] == "America/New_York"
    assert "TZID=Asia/Shanghai" in meeting["ics"] and "China Standard Time" not in meeting["ics"]
    assert "TZID=China Standard Time" in meeting["source"]
    found = occ(store, profile, *year())
    first = next(o for o in found if o.title == "周会")
    assert first.start == datetime(2025, 3, 10, 9, 0, tzinfo=SHANGHAI)
    assert first.location == "北京 3号会议室" and first.description == "每周一的组会\n请带上周报"


def test_dst_does_not_shift_a_series_after_import() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("outlook_windows_zones.ics"))
    standups = [o for o in occ(store, profile, *year(NEW_YORK), tz=NEW_YORK) if o.title == "Standup across DST"]
    # 2025-03-09 is the US switch to daylight time: local time stays 09:00, UTC moves.
    assert [(o.start.day, o.start.hour, o.start.minute) for o in standups] == [  # type: ignore[union-attr]
        (3, 9, 0), (10, 9, 0), (17, 9, 0), (24, 9, 0)
    ]  # fmt: skip
    offsets = [o.start.utcoffset().total_seconds() / 3600 for o in standups]  # type: ignore[union-attr]
    assert offsets == [-5, -4, -4, -4]


def test_google_x_wr_timezone_is_applied() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, fixture("google_x_wr_timezone.ics"))
    assert report.calendars == ["Google 日历"]
    found = occ(store, profile, *year(NEW_YORK), tz=NEW_YORK)
    weekly = [o for o in found if o.title == "Weekly sync"]
    # Written as 14:00Z, meant as 09:00 in New York: after the DST switch it stays 09:00.
    assert [(o.start.day, o.start.hour) for o in weekly] == [(3, 9), (10, 9), (17, 9)]  # type: ignore[union-attr]
    assert all(o.tzid == "America/New_York" for o in weekly)
    lunch = next(o for o in found if o.title == "Lunch")
    assert lunch.start == datetime(2025, 3, 20, 12, tzinfo=NEW_YORK) and not lunch.floating


# ---- re-import ----------------------------------------------------------------------------


def test_reimporting_the_same_file_changes_nothing() -> None:
    store, profile = fresh()
    first = import_bytes(store, profile, fixture("series_overrides.ics"))
    before = snapshot(store)
    second = import_bytes(store, profile, fixture("series_overrides.ics"))
    assert first.to_json()["imported"] == 6
    assert second.to_json() == {"imported": 0, "updated": 0, "skipped": 6, "errors": []}
    assert second.unchanged == 6
    after = snapshot(store)
    assert after["occurrences"] == before["occurrences"] and after["alarms"] == before["alarms"]
    assert [row[:-2] for row in after["events"]] == [row[:-2] for row in before["events"]]


def test_a_new_dtstamp_alone_is_not_a_change() -> None:
    store, profile = fresh()
    import_bytes(store, profile, ics(event("a", "DTSTART:20250601T010000Z", "SUMMARY:A")))
    again = ics(event("a", "DTSTART:20250601T010000Z", "SUMMARY:A").replace("20250101T000000Z", "20250909T090909Z"))
    assert import_bytes(store, profile, again).to_json()["skipped"] == 1


def test_newer_copy_updates_and_older_copy_is_skipped() -> None:
    store, profile = fresh()
    v2 = ics(event("s", "SEQUENCE:2", "DTSTART:20250601T010000Z", "SUMMARY:Version two"))
    v1 = ics(event("s", "SEQUENCE:1", "DTSTART:20250601T010000Z", "SUMMARY:Version one"))
    v3 = ics(event("s", "SEQUENCE:3", "DTSTART:20250602T010000Z", "SUMMARY:Version three"))
    assert import_bytes(store, profile, v2).imported == 1
    older = import_bytes(store, profile, v1)
    assert (older.skipped, older.older, older.updated) == (1, 1, 0)
    assert store.conn.execute("SELECT title FROM events").fetchone()[0] == "Version two"
    newer = import_bytes(store, profile, v3)
    assert newer.to_json() == {"imported": 0, "updated": 1, "skipped": 0, "errors": []}
    assert [o.title for o in occ(store, profile, *year())] == ["Version three"]
    assert store.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1


def test_last_modified_breaks_a_sequence_tie() -> None:
    store, profile = fresh()
    newer = ics(event("m", "LAST-MODIFIED:20250301T000000Z", "DTSTART:20250601T010000Z", "SUMMARY:March"))
    older = ics(event("m", "LAST-MODIFIED:20250201T000000Z", "DTSTART:20250601T010000Z", "SUMMARY:February"))
    import_bytes(store, profile, newer)
    assert import_bytes(store, profile, older).older == 1
    assert store.conn.execute("SELECT title FROM events").fetchone()[0] == "March"


def test_same_version_with_other_content_updates() -> None:
    store, profile = fresh()
    import_bytes(store, profile, ics(event("e", "DTSTART:20250601T010000Z", "SUMMARY:Before")))
    report = import_bytes(store, profile, ics(event("e", "DTSTART:20250601T010000Z", "SUMMARY:After")))
    assert report.updated == 1 and len(report.changes.updated) == 1
    assert "SUMMARY:Before" in (report.changes.updated[0].before_ics or "")


def test_a_newer_master_drops_overrides_it_no_longer_has() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("series_overrides.ics"))
    master_only = fixture("series_overrides.ics").decode().split("BEGIN:VEVENT")[1]
    master_only = "BEGIN:VEVENT" + master_only.replace("SUMMARY:Team meeting", "SEQUENCE:5\nSUMMARY:Team meeting")
    report = import_bytes(store, profile, ics(master_only.replace("END:VCALENDAR", "")))
    assert report.updated == 1 and report.removed_overrides == 3
    titles = {o.title for o in occ(store, profile, *year()) if o.uid == "series-1@example.com"}
    assert titles == {"Team meeting"}


def test_duplicate_in_one_file_keeps_the_newer_copy() -> None:
    store, profile = fresh()
    data = ics(
        event("d", "SEQUENCE:2", "DTSTART:20250601T010000Z", "SUMMARY:Newer")
        + "\n"
        + event("d", "SEQUENCE:1", "DTSTART:20250601T010000Z", "SUMMARY:Older")
    )
    report = import_bytes(store, profile, data)
    assert report.to_json() == {"imported": 1, "updated": 0, "skipped": 1, "errors": []}
    assert store.conn.execute("SELECT title FROM events").fetchone()[0] == "Newer"


def test_events_without_uid_get_a_stable_one() -> None:
    store, profile = fresh()
    data = ics("BEGIN:VEVENT\nDTSTART:20250601T010000Z\nSUMMARY:No UID\nEND:VEVENT")
    assert import_bytes(store, profile, data).imported == 1
    assert import_bytes(store, profile, data).skipped == 1
    (uid,) = store.conn.execute("SELECT uid FROM events").fetchone()
    assert uid.endswith("@import.richeng")


# ---- bad input ----------------------------------------------------------------------------


def test_partly_broken_file_imports_the_good_and_names_the_bad() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, fixture("partly_broken.ics"))
    assert report.imported == 2 and report.todos == 1 and report.skipped == 1
    problems = {(p["uid"], p["line"]) for p in report.to_json()["errors"]}
    assert problems == {("no-start@example.com", 11), ("bad-start@example.com", 19), ("unclosed@example.com", 32)}
    messages = {p.uid: p.message for p in report.errors}
    assert "DTSTART" in messages["no-start@example.com"] and "DTSTART" in messages["bad-start@example.com"]
    assert "END:VEVENT" in messages["unclosed@example.com"]
    assert sorted(o.title for o in occ(store, profile, *year())) == ["Good one", "Good two"]


@pytest.mark.parametrize(
    "content",
    # A GB18030 file is read now (tests/agent/ics/test_ics_repair.py); a broken UTF-16 one is not.
    [b"", b"\x89PNG\r\n\x1a\n\x00\x00binary", b"hello, this is text", b"\xff\xfeB\x00E"],
    ids=["empty", "binary", "text", "broken-utf16"],
)
def test_unreadable_content_changes_nothing_and_says_so_in_one_line(content: bytes, tmp_path: Path) -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("two_calendars.ics"))
    before = snapshot(store)
    path = tmp_path / "bad.ics"
    path.write_bytes(content)
    with pytest.raises(IcsReadError) as caught:
        import_file(store, profile, path)
    assert isinstance(caught.value, UserFacingError)
    assert "bad.ics" in str(caught.value) and "\n" not in str(caught.value)
    assert snapshot(store) == before


def test_missing_file_and_folder_are_read_errors(tmp_path: Path) -> None:
    store, profile = fresh()
    with pytest.raises(IcsReadError, match="does not exist"):
        import_file(store, profile, tmp_path / "nope.ics")
    with pytest.raises(IcsReadError, match="folder"):
        import_file(store, profile, tmp_path)


def _refused(store, profile, path: Path, reason: str) -> None:  # type: ignore[no-untyped-def]
    """``import_file`` refuses ``path`` in one line naming it, an ``InputFileError``, and writes nothing."""
    before = snapshot(store)
    with pytest.raises(IcsReadError) as caught:
        import_file(store, profile, path)
    assert isinstance(caught.value, InputFileError)
    message = str(caught.value)
    assert str(path) in message and reason in message and "\n" not in message
    assert snapshot(store) == before


def test_a_device_or_a_pipe_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """``/dev/zero`` read without end (MemoryError at best) and a FIFO with no writer blocked
    the open for ever (issue 19, item 5): neither is a file one can import."""
    store, profile = fresh()
    import_bytes(store, profile, fixture("two_calendars.ics"))
    _refused(store, profile, Path("/dev/zero"), "a device")
    pipe = tmp_path / "calendar.ics"
    os.mkfifo(pipe)
    _refused(store, profile, pipe, "a pipe")
    _refused(store, profile, tmp_path, "a folder")


def test_a_file_over_the_cap_is_refused_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("two_calendars.ics"))
    good = tmp_path / "good.ics"
    good.write_bytes(fixture("series_overrides.ics"))
    monkeypatch.setattr(importer, "MAX_FILE_BYTES", good.stat().st_size - 1)
    _refused(store, profile, good, "larger than")  # a real calendar, one byte too many
    monkeypatch.setattr(importer, "MAX_FILE_BYTES", good.stat().st_size)
    assert import_file(store, profile, good).imported > 0  # exactly at the cap is read
    monkeypatch.undo()
    sparse = tmp_path / "sparse.ics"  # the real cap: a hole one byte past it, no disk used
    with sparse.open("wb") as handle:
        handle.truncate(importer.MAX_FILE_BYTES + 1)
    _refused(store, profile, sparse, f"larger than {importer.MAX_FILE_BYTES // MiB} MiB")


def test_a_failure_mid_import_rolls_everything_back(monkeypatch: pytest.MonkeyPatch) -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("outlook_windows_zones.ics"))
    before = snapshot(store)
    calls = {"n": 0}
    real = Expander.materialize

    def flaky(self: Expander, uid: str, *args: object, **kwargs: object) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk on fire")
        real(self, uid, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Expander, "materialize", flaky)
    changed = fixture("series_overrides.ics") + fixture("outlook_windows_zones.ics").replace(b"SEQUENCE:0", b"SEQUENCE:4")
    with pytest.raises(RuntimeError, match="disk on fire"):
        import_bytes(store, profile, changed)
    assert calls["n"] == 2
    assert snapshot(store) == before


# ---- encodings and structure -------------------------------------------------------------


def test_bom_crlf_folded_chinese_text() -> None:
    store, profile = fresh()
    import_file(store, profile, DATA / "bom_crlf_folded_zh.ics")
    (found,) = occ(store, profile, *year())
    assert found.title == "春节 🧧 团圆饭" and found.location == "老家"
    assert found.description.startswith("这是一段很长的中文描述，用来测试折行：除夕之夜全家人一起吃年夜饭，包饺子")
    assert found.start == date(2025, 1, 29) and found.end == date(2025, 1, 30)


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
def test_line_endings_and_utf16(newline: str) -> None:
    text = fixture("two_calendars.ics").decode().replace("\r\n", newline)
    for data in (text.encode(), text.encode("utf-16")):
        store, profile = fresh()
        assert import_bytes(store, profile, data).imported == 2


def test_several_vcalendars_go_to_their_own_calendars_and_todos_are_counted() -> None:
    store, profile = fresh()
    report = import_bytes(store, profile, fixture("two_calendars.ics"))
    assert report.to_json() == {"imported": 2, "updated": 0, "skipped": 1, "errors": []}
    assert report.todos == 1 and report.calendars == ["家庭", "Work"]
    where = {o.title: o.calendar for o in occ(store, profile, *year())}
    assert where == {"扫墓": "家庭", "Kickoff": "Work"}


def test_explicit_calendar_wins_and_is_created_or_matched_ignoring_case() -> None:
    store, profile = fresh()
    CalendarService(store, profile).add("Work")
    import_bytes(store, profile, fixture("two_calendars.ics"), "work")
    import_bytes(store, profile, fixture("bom_crlf_folded_zh.ics"), "节日")
    where = {o.title: o.calendar for o in occ(store, profile, *year())}
    assert where == {"扫墓": "Work", "Kickoff": "Work", "春节 🧧 团圆饭": "节日"}
    assert sorted(CalendarService(store, profile).names()) == sorted(["日程", "Work", "节日"])


def test_without_a_name_known_events_stay_in_their_calendar() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("bom_crlf_folded_zh.ics"), "Holidays")
    again = import_bytes(store, profile, fixture("bom_crlf_folded_zh.ics"))
    assert again.skipped == 1
    assert {o.calendar for o in occ(store, profile, *year())} == {"Holidays"}


def test_profiles_do_not_see_each_other() -> None:
    store, alice = fresh()
    bob = ensure_profile(store, "bob")
    import_bytes(store, alice, fixture("series_overrides.ics"))
    bob_report = import_bytes(store, bob, fixture("series_overrides.ics"))
    assert bob_report.imported == 6
    import_bytes(store, alice, ics(event("series-2@example.com", "SEQUENCE:9", "DTSTART:20250601T010000Z", "SUMMARY:Alice only")))
    assert "Alice only" not in {o.title for o in occ(store, bob, *year())}
    assert len(event_fields(store, bob)) == 6


# ---- the remaining properties ----------------------------------------------------------------


def test_status_transp_categories_url_duration_and_alarms() -> None:
    store, profile = fresh()
    data = ics(
        "\n".join(
            [
                event("c", "DTSTART:20250601T010000Z", "DTEND:20250601T020000Z", "STATUS:CANCELLED", "SUMMARY:Off"),
                event(
                    "t",
                    "DTSTART;TZID=Asia/Shanghai:20250602T090000",
                    "DURATION:PT45M",
                    "TRANSP:TRANSPARENT",
                    "CATEGORIES:家,Fun",
                    "URL:https://example.com/x",
                    "SUMMARY:Free time",
                    "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER:-PT10M\nEND:VALARM",
                    "BEGIN:VALARM\nACTION:AUDIO\nTRIGGER;VALUE=DATE-TIME:20250602T005000Z\nEND:VALARM",
                ),
                event("z", "DTSTART:20250603T010000Z", "SUMMARY:Zero length"),
            ]
        )
    )
    assert import_bytes(store, profile, data).imported == 3
    found = {o.title: o for o in occ(store, profile, *year())}
    assert "Off" not in found
    assert store.conn.execute("SELECT status FROM events WHERE uid = 'c'").fetchone()[0] == "CANCELLED"
    free = found["Free time"]
    assert free.transp == "TRANSPARENT" and (free.end - free.start).seconds == 45 * 60  # type: ignore[operator]
    row = store.conn.execute("SELECT id, ics FROM events WHERE uid = 't'").fetchone()
    assert "CATEGORIES:家,Fun" in row["ics"] and "URL:https://example.com/x" in row["ics"]
    alarms = sorted(tuple(a) for a in store.conn.execute("SELECT trigger, action FROM alarms WHERE event_id = ?", (row["id"],)))
    assert alarms == [("-PT10M", "DISPLAY"), ("20250602T005000Z", "AUDIO")]
    assert found["Zero length"].start == found["Zero length"].end


def test_unreadable_reminder_is_dropped_with_a_warning_not_the_event() -> None:
    store, profile = fresh()
    data = ics(
        event(
            "w", "DTSTART:20250601T010000Z", "SUMMARY:W", "BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER;RELATED=ENDE:-PT15M\nEND:VALARM"
        )
    )
    report = import_bytes(store, profile, data)
    assert report.imported == 1 and len(report.warnings) == 1 and "reminder" in report.warnings[0].message


def test_private_zones_are_matched_or_kept_by_instant() -> None:
    store, profile = fresh()
    import_bytes(store, profile, fixture("private_zones.ics"))
    rows = {row["uid"]: row for row in store.conn.execute("SELECT * FROM events")}
    assert rows["lotus-1@example.com"]["tzid"] == "America/New_York"
    lotus = datetime.fromtimestamp(rows["lotus-1@example.com"]["start_ts"], NEW_YORK)
    assert (lotus.hour, lotus.utcoffset().total_seconds()) == (15, -4 * 3600)  # type: ignore[union-attr]
    # +05:17 is no IANA zone: the instant is kept, in UTC.
    odd = rows["odd-1@example.com"]
    assert odd["tzid"] == "UTC" and datetime.fromtimestamp(odd["start_ts"], ZoneInfo("UTC")).strftime("%H:%M") == "06:43"
    # An unknown TZID without a definition keeps its wall time, floating.
    unknown = rows["unknown-1@example.com"]
    assert unknown["floating"] == 1 and unknown["tzid"] is None and "Nowhere" not in unknown["ics"]


def test_unknown_tzid_falls_back_to_x_wr_timezone() -> None:
    store, profile = fresh()
    data = ics(event("u", "DTSTART;TZID=Mystery:20250601T100000", "SUMMARY:U"), header="X-WR-TIMEZONE:Asia/Tokyo")
    import_bytes(store, profile, data)
    row = store.conn.execute("SELECT tzid, start_ts FROM events").fetchone()
    assert row["tzid"] == "Asia/Tokyo" and datetime.fromtimestamp(row["start_ts"], ZoneInfo("Asia/Tokyo")).hour == 10


def test_report_json_has_exactly_the_agreed_keys() -> None:
    report = ImportReport(1, 2, 3, [])
    assert report.to_json() == {"imported": 1, "updated": 2, "skipped": 3, "errors": []}


def test_dense_series_is_expanded_in_chunks_without_losing_instances() -> None:
    store, profile = fresh()
    import_bytes(
        store,
        profile,
        ics(event("dense", "DTSTART:20250601T000000Z", "DURATION:PT1M", "RRULE:FREQ=MINUTELY;COUNT=12000", "SUMMARY:Tick")),
    )
    first = store.conn.execute(
        "SELECT COUNT(*), MAX(expanded_until) FROM occurrences, events WHERE events.uid = 'dense'"
    ).fetchone()
    assert 0 < first[0] <= 5000 and first[1] is not None  # one chunk so far; the rest on demand
    utc = ZoneInfo("UTC")
    found = occ(store, profile, datetime(2025, 6, 1, tzinfo=utc), datetime(2025, 6, 10, tzinfo=utc), utc)
    assert len(found) == 12000 and len({o.start for o in found}) == 12000
