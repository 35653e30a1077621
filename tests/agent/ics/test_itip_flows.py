"""Invitations in (issue 31, items 1-2 and the contract of ``richeng invitation``): each flow
on files modelled on what Google Calendar, Outlook/Exchange, Apple Calendar and Thunderbird
send (tests/data/itip/), in English and Chinese, through the CLI, with the REPLY parsed back
by icalendar."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import icalendar
import pytest

from agent.cli.main import main
from tests.support.clock import NOW_ARG

DATA = Path(__file__).parents[2] / "data" / "itip"
GOOGLE_UID = "4s2f8k1ab3c9d0e7f6g5h4i3j2@google.com"
APPLE_UID = "8F1C2E3A-4B5D-4C6E-9F70-1A2B3C4D5E6F"


class Cli:
    """``richeng --db DB --now NOW --tz Asia/Shanghai --json ...`` with its exit status and output."""

    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db = db
        self.capsys = capsys

    def __call__(self, *args: str, ok: bool = True) -> Any:
        self.capsys.readouterr()
        code = main(["--db", str(self.db), "--now", NOW_ARG, "--tz", "Asia/Shanghai", "--json", *args])
        out, err = self.capsys.readouterr()
        if not ok:
            return code, out, err
        assert code == 0, err
        return json.loads(out) if out.strip() else None

    def listed(self, start: str = "2026-11-30", end: str = "2026-12-31") -> list[dict[str, Any]]:
        return list(self("events", "list", "--start", start, "--end", end))

    def one(self, uid: str) -> dict[str, Any]:
        found = [item for item in self.listed() if item["uid"] == uid]
        assert len(found) == 1, found
        return found[0]


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "db.sqlite3", capsys)


def _file(name: str) -> str:
    return str(DATA / name)


def _reply(text: str) -> icalendar.Calendar:
    calendar = icalendar.Calendar.from_ical(text)
    assert str(calendar["METHOD"]) == "REPLY"
    return calendar


def _only_attendee(event: icalendar.Event) -> icalendar.vCalAddress:
    attendees = event.get("ATTENDEE")
    assert not isinstance(attendees, list), "a REPLY names exactly one attendee"
    return attendees


def _partstat(item: dict[str, Any], email: str) -> str:
    return next(person["partstat"] for person in item["attendees"] if person["email"] == email)


# ---- show -----------------------------------------------------------------------------------


def test_show_google_request_is_new_and_writes_nothing(cli: Cli) -> None:
    shown = cli("invitation", "show", _file("google_request_en.ics"))
    assert list(shown) == ["method", "uid", "summary", "start", "end", "organizer", "attendees", "sequence", "status"]
    assert shown["method"] == "REQUEST" and shown["uid"] == GOOGLE_UID and shown["summary"] == "Design review"
    assert shown["start"] == "2026-12-03T10:00:00+08:00" and shown["end"] == "2026-12-03T11:00:00+08:00"
    assert shown["organizer"] == {"email": "alice@gmail.example", "name": "Alice Chen"}
    assert shown["attendees"][1] == {
        "email": "me@example.com",
        "name": "me@example.com",
        "partstat": "NEEDS-ACTION",
        "role": "REQ-PARTICIPANT",
    }
    assert shown["attendees"][2]["role"] == "OPT-PARTICIPANT"
    assert shown["sequence"] == 0 and shown["status"] == "new"
    assert cli.listed() == []


def test_show_outlook_windows_zone_reads_china_standard_time(cli: Cli) -> None:
    shown = cli("invitation", "show", _file("outlook_request_zh.ics"))
    assert shown["summary"] == "季度评审会"
    assert shown["start"] == "2026-12-08T14:00:00+08:00" and shown["end"] == "2026-12-08T15:30:00+08:00"
    assert shown["organizer"] == {"email": "zhangsan@contoso.com", "name": "张三"}
    assert [person["name"] for person in shown["attendees"]] == ["李四", "王芳"]


# ---- respond --------------------------------------------------------------------------------


def test_google_accept_stores_the_answer_and_writes_a_reply(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "reply.ics"
    answer = cli("invitation", "respond", _file("google_request_en.ics"), "--accept", "--as", "me@example.com", "-o", str(out))
    assert answer == {"uid": GOOGLE_UID, "partstat": "ACCEPTED", "reply": str(out)}
    calendar = _reply(out.read_text(encoding="utf-8"))
    (event,) = calendar.walk("VEVENT")
    assert str(event["UID"]) == GOOGLE_UID and int(event["SEQUENCE"]) == 0 and "RECURRENCE-ID" not in event
    assert str(event["ORGANIZER"]) == "mailto:alice@gmail.example"
    attendee = _only_attendee(event)
    assert str(attendee) == "mailto:me@example.com" and attendee.params["PARTSTAT"] == "ACCEPTED"
    assert event.get("DTSTAMP") is not None
    item = cli.one(GOOGLE_UID)
    assert _partstat(item, "me@example.com") == "ACCEPTED"
    assert item["organizer"] == {"email": "alice@gmail.example", "name": "Alice Chen"}
    assert (item["status"], item["busy"]) == ("confirmed", True)


def test_an_unanswered_invitation_is_tentative_and_a_declined_one_takes_no_time(cli: Cli) -> None:
    cli("invitation", "respond", _file("google_request_en.ics"), "--tentative", "--as", "me@example.com")
    item = cli.one(GOOGLE_UID)
    assert (item["status"], item["busy"]) == ("tentative", True)
    cli("invitation", "respond", _file("google_request_en.ics"), "--decline", "--as", "me@example.com")
    item = cli.one(GOOGLE_UID)  # kept, shown, not busy
    assert _partstat(item, "me@example.com") == "DECLINED"
    assert (item["status"], item["busy"]) == ("confirmed", False)


def test_respond_as_someone_not_invited_writes_nothing(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "reply.ics"
    code, stdout, err = cli(
        "invitation", "respond", _file("google_request_en.ics"), "--accept", "--as", "eve@example.com", "-o", str(out), ok=False
    )
    assert code == 2 and stdout == "" and len(err.strip().splitlines()) == 1 and "eve@example.com" in err
    assert not out.exists() and cli.listed() == []


def test_outlook_zh_accept_then_text_only_update_keeps_the_answer(cli: Cli) -> None:
    answer = cli("invitation", "respond", _file("outlook_request_zh.ics"), "--accept", "--as", "LiSi@contoso.com")
    uid = answer["uid"]
    reply = _reply(answer["reply"])
    (event,) = reply.walk("VEVENT")
    attendee = _only_attendee(event)
    assert attendee.params["CN"] == "李四" and attendee.params["PARTSTAT"] == "ACCEPTED"
    assert str(event["SUMMARY"]) == "季度评审会"
    # Same SEQUENCE, later DTSTAMP: newer; it says NEEDS-ACTION but moves nothing: the answer stays.
    assert cli("invitation", "show", _file("outlook_update_zh.ics"))["status"] == "update"
    assert cli("invitation", "apply", _file("outlook_update_zh.ics")) == {"uid": uid, "status": "update", "changed": True}
    item = cli.one(uid)
    assert _partstat(item, "lisi@contoso.com") == "ACCEPTED"
    # The same copy again: stale, nothing changes.
    assert cli("invitation", "apply", _file("outlook_update_zh.ics")) == {"uid": uid, "status": "stale", "changed": False}
    # And the first, older copy: stale too.
    assert cli("invitation", "show", _file("outlook_request_zh.ics"))["status"] == "stale"


def test_google_move_asks_again_but_a_text_change_keeps_the_answer(cli: Cli) -> None:
    cli("invitation", "respond", _file("google_request_en.ics"), "--accept", "--as", "me@example.com")
    assert cli("invitation", "apply", _file("google_described_en.ics"))["changed"] is True
    assert _partstat(cli.one(GOOGLE_UID), "me@example.com") == "ACCEPTED"
    # SEQUENCE 1 again with a later DTSTAMP and an hour later: the organizer asks again.
    assert cli("invitation", "apply", _file("google_moved_en.ics")) == {"uid": GOOGLE_UID, "status": "update", "changed": True}
    item = cli.one(GOOGLE_UID)
    assert item["start"] == "2026-12-03T11:00:00+08:00"
    assert _partstat(item, "me@example.com") == "NEEDS-ACTION" and item["status"] == "tentative"


def test_an_update_carrying_an_answer_follows_it(cli: Cli, tmp_path: Path) -> None:
    cli("invitation", "respond", _file("google_request_en.ics"), "--accept", "--as", "me@example.com")
    text = (DATA / "google_described_en.ics").read_text(encoding="utf-8")
    declined = tmp_path / "declined.ics"
    mine = "PARTSTAT=NEEDS-ACTION;RSVP=\n TRUE;CN=me@"
    assert mine in text
    declined.write_text(text.replace(mine, "PARTSTAT=DECLINED;RSVP=\n TRUE;CN=me@"), "utf-8")
    cli("invitation", "apply", str(declined))
    assert _partstat(cli.one(GOOGLE_UID), "me@example.com") == "DECLINED"


def test_google_cancel_takes_the_event_out_and_undo_brings_it_back(cli: Cli) -> None:
    cli("invitation", "respond", _file("google_request_en.ics"), "--accept", "--as", "me@example.com")
    assert cli("invitation", "show", _file("google_cancel_en.ics"))["status"] == "cancel"
    assert cli("invitation", "apply", _file("google_cancel_en.ics")) == {"uid": GOOGLE_UID, "status": "cancel", "changed": True}
    assert [item["uid"] for item in cli.listed()] == []
    cli("undo")
    assert cli.one(GOOGLE_UID)["status"] == "confirmed"


def test_apple_series_then_one_occurrence_answers_that_occurrence_only(cli: Cli) -> None:
    cli("invitation", "respond", _file("apple_series_en.ics"), "--accept", "--as", "me@example.com")
    weekly = [item for item in cli.listed(end="2026-12-31") if item["uid"] == APPLE_UID]
    assert len(weekly) == 5 and all(_partstat(item, "me@example.com") == "ACCEPTED" for item in weekly)
    shown = cli("invitation", "show", _file("apple_occurrence_en.ics"))
    assert shown["status"] == "update" and shown["sequence"] == 1
    answer = cli("invitation", "respond", _file("apple_occurrence_en.ics"), "--decline", "--as", "me@example.com")
    (event,) = _reply(answer["reply"]).walk("VEVENT")
    assert event.decoded("RECURRENCE-ID").isoformat() == "2026-12-16T09:00:00-08:00"
    assert int(event["SEQUENCE"]) == 1 and _only_attendee(event).params["PARTSTAT"] == "DECLINED"
    items = {item["start"]: item for item in cli.listed() if item["uid"] == APPLE_UID}
    moved = items["2026-12-17T03:00:00+08:00"]  # 11:00 in Los Angeles
    assert moved["recurrence_id"] is not None and moved["busy"] is False
    others = [item for start, item in items.items() if start != "2026-12-17T03:00:00+08:00"]
    assert len(others) == 4 and all(item["busy"] and _partstat(item, "me@example.com") == "ACCEPTED" for item in others)


def test_apple_zh_series_occurrence_moved_without_an_answer_asks_again_there_only(cli: Cli) -> None:
    uid = "A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF"
    cli("invitation", "respond", _file("apple_series_zh.ics"), "--accept", "--as", "wo@example.cn")
    assert cli("invitation", "apply", _file("apple_occurrence_zh.ics"))["changed"] is True
    items = {item["start"]: item for item in cli.listed() if item["uid"] == uid}
    moved = items["2026-12-08T14:30:00+08:00"]
    assert moved["title"] == "组会 🧪（改到下午）" and _partstat(moved, "wo@example.cn") == "NEEDS-ACTION"
    assert moved["status"] == "tentative"
    assert _partstat(items["2026-12-01T09:30:00+08:00"], "wo@example.cn") == "ACCEPTED"


def test_thunderbird_zh_request_imported_then_answered(cli: Cli) -> None:
    uid = "7c1d5e6f-2a3b-4c4d-8e9f-0a1b2c3d4e5f"
    report = cli("import", _file("thunderbird_request_zh.ics"))
    assert (report["imported"], report["errors"]) == (1, [])
    answer = cli("invitation", "respond", _file("thunderbird_request_zh.ics"), "--tentative", "--as", "wo@example.cn")
    (event,) = _reply(answer["reply"]).walk("VEVENT")
    assert str(event["ORGANIZER"]) == "mailto:wangwu@example.cn" and _only_attendee(event).params["PARTSTAT"] == "TENTATIVE"
    assert "VTIMEZONE" in answer["reply"]  # DTSTART;TZID=Asia/Shanghai comes with its zone
    item = cli.one(uid)
    assert item["title"] == "项目启动会" and (item["status"], item["busy"]) == ("tentative", True)
    assert [person["role"] for person in item["attendees"]] == ["CHAIR", "REQ-PARTICIPANT", "NON-PARTICIPANT"]


# ---- replies on the user's own events ---------------------------------------------------------


def test_thunderbird_zh_reply_updates_that_attendee_and_never_the_title(cli: Cli) -> None:
    cli("import", _file("own_event_zh.ics"))
    assert cli("invitation", "show", _file("thunderbird_reply_zh.ics"))["status"] == "reply"
    assert cli("invitation", "apply", _file("thunderbird_reply_zh.ics")) == {
        "uid": "kickoff-own@richeng",
        "status": "reply",
        "changed": True,
    }
    item = cli.one("kickoff-own@richeng")
    assert item["title"] == "需求评审" and _partstat(item, "wangwu@example.cn") == "DECLINED"


def test_outlook_counter_is_a_proposal_that_changes_nothing(cli: Cli) -> None:
    cli("import", _file("own_event_en.ics"))
    shown = cli("invitation", "show", _file("outlook_counter_en.ics"))
    assert (shown["method"], shown["status"], shown["start"]) == ("COUNTER", "reply", "2026-12-04T16:00:00+08:00")
    before = cli.one("design-review-own@richeng")
    assert cli("invitation", "apply", _file("outlook_counter_en.ics"))["changed"] is False
    assert cli.one("design-review-own@richeng") == before


# ---- the two bugs found while preparing issue 31 -------------------------------------------------


def test_import_of_an_attendee_reply_never_overwrites_the_title(cli: Cli) -> None:
    """Before: ``richeng import`` of Google's "Accepted: Design review" REPLY replaced the
    user's event with the reply's copy."""
    cli("import", _file("own_event_en.ics"))
    report = cli("import", _file("google_reply_en.ics"))
    assert report["errors"] == []
    item = cli.one("design-review-own@richeng")
    assert item["title"] == "Design review"
    assert _partstat(item, "bob@example.com") == "ACCEPTED"
    assert _partstat(item, "wangfang@example.cn") == "NEEDS-ACTION"  # the reply named Bob only


def test_import_of_a_request_without_uid_is_refused_by_name(cli: Cli) -> None:
    """Before: it was given a UID of ours and imported silently (imported 1, errors 0)."""
    report = cli("import", _file("request_no_uid_en.ics"))
    assert report["imported"] == 0 and len(report["errors"]) == 1
    assert report["errors"][0]["uid"] is None and "UID" in report["errors"][0]["message"]
    assert cli.listed() == []
    code, _, err = cli("invitation", "apply", _file("request_no_uid_en.ics"), ok=False)
    assert code == 2 and "UID" in err and len(err.strip().splitlines()) == 1


def test_a_plain_publish_export_is_still_a_plain_import(cli: Cli, tmp_path: Path) -> None:
    text = (DATA / "google_request_en.ics").read_text(encoding="utf-8").replace("METHOD:REQUEST", "METHOD:PUBLISH")
    path = tmp_path / "export.ics"
    path.write_text(text, encoding="utf-8")
    assert cli("import", str(path))["imported"] == 1
    code, _, err = cli("invitation", "show", str(path), ok=False)
    assert code == 2 and "METHOD" in err


def test_an_answered_invitation_exports_whole(cli: Cli, tmp_path: Path) -> None:
    """The ICS round trip keeps the people with every parameter (the text is stored whole)."""
    cli("invitation", "respond", _file("google_request_en.ics"), "--accept", "--as", "me@example.com")
    out = tmp_path / "out.ics"
    cli("export", "-o", str(out))
    (event,) = icalendar.Calendar.from_ical(out.read_text(encoding="utf-8")).walk("VEVENT")
    people = {str(a).removeprefix("mailto:"): a.params for a in event["ATTENDEE"]}
    assert people["me@example.com"]["PARTSTAT"] == "ACCEPTED" and "RSVP" not in people["me@example.com"]
    assert people["bob@example.com"]["X-NUM-GUESTS"] == "0" and people["bob@example.com"]["ROLE"] == "OPT-PARTICIPANT"
    assert event["ORGANIZER"].params["CN"] == "Alice Chen" and str(event["X-GOOGLE-CONFERENCE"]).startswith("https://meet")


def test_one_bad_event_of_an_invitation_is_named_and_the_rest_imported(cli: Cli, tmp_path: Path) -> None:
    text = (DATA / "google_request_en.ics").read_text(encoding="utf-8")
    head, event = text.split("BEGIN:VEVENT", 1)
    bad = "BEGIN:VEVENT" + event.replace(GOOGLE_UID, "rscale@test").replace(
        "SEQUENCE:0", "SEQUENCE:0\nRRULE:RSCALE=CHINESE;FREQ=YEARLY"
    )
    path = tmp_path / "two.ics"
    path.write_text(head + "BEGIN:VEVENT" + event.replace("END:VCALENDAR", "") + bad, encoding="utf-8")
    report = cli("import", str(path))
    assert report["imported"] == 1 and [e["uid"] for e in report["errors"]] == ["rscale@test"]
    code, _, err = cli("invitation", "apply", str(path), ok=False)  # the CLI writes all or nothing
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_an_occurrence_changed_only_in_words_keeps_the_series_answer(cli: Cli, tmp_path: Path) -> None:
    uid = "A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF"
    cli("invitation", "respond", _file("apple_series_zh.ics"), "--accept", "--as", "wo@example.cn")
    text = (DATA / "apple_occurrence_zh.ics").read_text(encoding="utf-8")
    same_time = text.replace("DTSTART;TZID=Asia/Shanghai:20261208T143000", "DTSTART;TZID=Asia/Shanghai:20261208T093000")
    same_time = same_time.replace("DTEND;TZID=Asia/Shanghai:20261208T150000", "DTEND;TZID=Asia/Shanghai:20261208T100000")
    path = tmp_path / "retitled.ics"
    path.write_text(same_time.replace("组会 🧪（改到下午）", "组会 🧪（带电脑）"), encoding="utf-8")
    assert cli("invitation", "apply", str(path))["changed"] is True
    item = next(i for i in cli.listed() if i["uid"] == uid and i["start"] == "2026-12-08T09:30:00+08:00")
    assert item["title"] == "组会 🧪（带电脑）" and _partstat(item, "wo@example.cn") == "ACCEPTED"
