"""``richeng invitation request|cancel UID -o FILE`` (issue 31 item 3): the organizer's
invitation or cancellation for a mail client, where no server sends it. The store is only
read; someone else's invitation and an unknown UID are one line, exit 2, no file."""

from __future__ import annotations

from pathlib import Path

import icalendar

from tests.agent.ics.test_itip_flows import DATA, GOOGLE_UID, Cli, cli  # noqa: F401 (the fixture)

OWN_UID = "design-review-own@richeng"


def test_request_and_cancel_are_written_for_the_mail_client(cli: Cli, tmp_path: Path) -> None:  # noqa: F811
    cli("import", str(DATA / "own_event_en.ics"))
    before = cli.one(OWN_UID)
    out = tmp_path / "invite.ics"
    assert cli("invitation", "request", OWN_UID, "-o", str(out)) == {"uid": OWN_UID, "method": "REQUEST", "file": str(out)}
    request = icalendar.Calendar.from_ical(out.read_text(encoding="utf-8"))
    assert str(request["METHOD"]) == "REQUEST"
    (event,) = request.walk("VEVENT")
    assert [str(a) for a in event["ATTENDEE"]] == ["mailto:bob@example.com", "mailto:wangfang@example.cn"]
    payload = cli("invitation", "cancel", OWN_UID)
    cancel = icalendar.Calendar.from_ical(payload["file"])
    (event,) = cancel.walk("VEVENT")
    assert str(cancel["METHOD"]) == "CANCEL" and int(event["SEQUENCE"]) == 1 and str(event["STATUS"]) == "CANCELLED"
    assert cli.one(OWN_UID) == before  # only read


def test_someone_elses_invitation_is_refused_in_one_line(cli: Cli, tmp_path: Path) -> None:  # noqa: F811
    cli("invitation", "apply", str(DATA / "google_request_en.ics"))
    cli("invitation", "respond", str(DATA / "google_request_en.ics"), "--accept", "--as", "me@example.com")
    out = tmp_path / "nope.ics"
    code, stdout, err = cli("invitation", "request", GOOGLE_UID, "-o", str(out), ok=False)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Alice Chen" in err and not out.exists()
    code, stdout, err = cli("invitation", "cancel", "no-such-uid", ok=False)
    assert code != 0 and len(err.strip().splitlines()) == 1
