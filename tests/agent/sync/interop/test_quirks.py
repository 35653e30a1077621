"""The fixes the interop servers asked for, each on its own, without a CalDAV server.

- Cyrus names no principal at ``/``: discovery from a bare host goes through
  ``/.well-known/caldav`` (``accounts.context_url``), on the same host only, a few hops.
- Cyrus reads ``SCHEDULE-AGENT=CLIENT`` on the user's own ATTENDEE as a decline and mails the
  organizer: ``scheduling.quiet`` never marks the user's own attendee line.
- Answering an invitation is the go-ahead for the reply (``invitations.answer``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agent.ics.importer import import_bytes
from agent.services.invitations import answer, remember_address
from agent.store.db import Store
from agent.sync.accounts import MAX_REDIRECTS, WELL_KNOWN, connect, context_url
from agent.sync.remote import RemoteCalendar
from agent.sync.scheduling import go_ahead, others_as, quiet
from tests.support.interop_server import ServerMissing


class _Redirects(ThreadingHTTPServer):
    """Answers ``/.well-known/caldav`` with the redirect a test sets; counts the requests."""

    location: str | None = None
    hits: list[tuple[str, str, str | None]]
    pages: dict[str, str]  # path -> the multistatus a PROPFIND there answers


class _Handler(BaseHTTPRequestHandler):
    server: _Redirects

    def do_PROPFIND(self) -> None:
        self.server.hits.append((self.command, self.path, self.headers.get("Authorization")))
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if self.path == WELL_KNOWN and self.server.location is not None:
            self.send_response(301)
            self.send_header("Location", self.server.location)
        elif self.path in self.server.pages:
            body = self.server.pages[self.path].encode()
            self.send_response(207)
            self.send_header("Content-Type", "application/xml; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        elif self.path.startswith("/loop"):
            self.send_response(302)
            self.send_header("Location", f"/loop{len(self.server.hits)}")
        else:
            self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def redirects() -> Iterator[_Redirects]:
    server = _Redirects(("127.0.0.1", 0), _Handler)
    server.hits = []
    server.pages = {}
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _base(server: _Redirects) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


def test_a_bare_host_is_followed_to_the_context_path_without_the_password(redirects: _Redirects) -> None:
    redirects.location = "/dav/calendars"
    client = connect(_base(redirects) + "/", "alice", "secret")
    assert context_url(client) == _base(redirects) + "/dav/calendars"
    # The target is asked too (it may redirect again); neither request carries credentials.
    assert redirects.hits == [("PROPFIND", WELL_KNOWN, None), ("PROPFIND", "/dav/calendars", None)]


def test_a_redirect_to_another_host_is_not_followed(redirects: _Redirects) -> None:
    redirects.location = "http://calendar.example.net/dav/"
    assert context_url(connect(_base(redirects), "alice", "secret")) is None
    assert [path for _, path, _ in redirects.hits] == [WELL_KNOWN]


def test_an_address_with_a_path_is_used_as_given(redirects: _Redirects) -> None:
    redirects.location = "/dav/calendars"
    assert context_url(connect(_base(redirects) + "/dav/calendars/user/alice/", "alice", "secret")) is None
    assert redirects.hits == []


def test_a_redirect_loop_stops_after_a_few_hops(redirects: _Redirects) -> None:
    redirects.location = "/loop"
    context = context_url(connect(_base(redirects), "alice", "secret"))
    assert len(redirects.hits) == MAX_REDIRECTS
    assert context is not None and context.startswith(_base(redirects) + "/loop")


def test_no_well_known_address_leaves_the_url_alone(redirects: _Redirects) -> None:
    assert context_url(connect(_base(redirects), "alice", "secret")) is None


def _page(path: str, prop: str) -> str:
    return (
        '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
        f"<D:response><D:href>{path}</D:href><D:propstat><D:prop>{prop}</D:prop>"
        "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>"
    )


def test_sync_learns_the_user_s_addresses_from_the_principal(redirects: _Redirects) -> None:
    redirects.pages["/cal/"] = _page("/cal/", "<D:current-user-principal><D:href>/p/bob/</D:href></D:current-user-principal>")
    redirects.pages["/p/bob/"] = _page(
        "/p/bob/",
        "<C:calendar-user-address-set><D:href>MAILTO:bob@example.com</D:href><D:href>/p/bob/</D:href>"
        "</C:calendar-user-address-set>",
    )
    remote = RemoteCalendar(connect(_base(redirects), "bob", "secret"), _base(redirects) + "/cal/")
    assert remote.user_addresses() == ("bob@example.com",)


def test_a_principal_on_another_host_is_not_asked(redirects: _Redirects) -> None:
    principal = "<D:current-user-principal><D:href>http://elsewhere.example/p/bob/</D:href></D:current-user-principal>"
    redirects.pages["/cal/"] = _page("/cal/", principal)
    remote = RemoteCalendar(connect(_base(redirects), "bob", "secret"), _base(redirects) + "/cal/")
    assert remote.user_addresses() == ()
    assert [path for _, path, _ in redirects.hits] == ["/cal/"]


# ---- the user's own ATTENDEE line --------------------------------------------------------------


BODY = (
    b"BEGIN:VEVENT\r\nUID:m\r\n"
    b'ORGANIZER;SENT-BY="mailto:assistant@example.com":mailto:alice@example.com\r\n'
    b"ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED:mailto:Bob@Example.com\r\n"
    b'ATTENDEE;CN="Carol: PM";PARTSTAT=NEEDS-ACTION:mailto:carol@exam\r\n ple.com\r\n'
    b'ATTENDEE;CN="Dan: QA";SCHEDULE-AGENT=SERVER:mailto:dan@example.com\r\n'
    b"END:VEVENT\r\n"
)


def test_quiet_marks_everyone_but_the_user_s_own_attendee() -> None:
    lines = quiet(BODY, False, ["mailto:bob@example.com"]).decode().replace("\r\n ", "").splitlines()
    people = [line for line in lines if line.startswith(("ORGANIZER", "ATTENDEE"))]
    assert people == [
        'ORGANIZER;SCHEDULE-AGENT=CLIENT;SENT-BY="mailto:assistant@example.com":mailto:alice@example.com',
        "ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED:mailto:Bob@Example.com",  # the user: never marked
        'ATTENDEE;SCHEDULE-AGENT=CLIENT;CN="Carol: PM";PARTSTAT=NEEDS-ACTION:mailto:carol@example.com',
        'ATTENDEE;CN="Dan: QA";SCHEDULE-AGENT=SERVER:mailto:dan@example.com',  # named its own agent
    ]


def test_quiet_without_the_user_s_addresses_marks_every_attendee() -> None:
    people = [line for line in quiet(BODY, False).decode().splitlines() if "CN=Bob" in line]
    assert people == ["ATTENDEE;SCHEDULE-AGENT=CLIENT;CN=Bob;PARTSTAT=ACCEPTED:mailto:Bob@Example.com"]


# ---- answering is the go-ahead for the reply -----------------------------------------------------


INVITATION = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Tests//EN\r\nBEGIN:VEVENT\r\nUID:review-1@example.com\r\n"
    b"DTSTAMP:20261201T000000Z\r\nDTSTART:20261217T070000Z\r\nDTEND:20261217T080000Z\r\nSUMMARY:Review\r\n"
    b"ORGANIZER:mailto:alice@example.com\r\nATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com\r\n"
    b"END:VEVENT\r\nEND:VCALENDAR\r\n"
)


def test_answering_an_invitation_gives_the_go_ahead_for_its_reply(store: Store, profile_id: int) -> None:
    remember_address(store, profile_id, "bob@example.com")
    import_bytes(store, profile_id, INVITATION, "Work")
    assert go_ahead(store, profile_id) == frozenset()
    answer(store, profile_id, "review-1@example.com", "", "bob@example.com", "ACCEPTED")
    assert go_ahead(store, profile_id) == {"review-1@example.com"}


def test_without_cyrus_installed_the_cases_skip_with_the_install_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.support import cyrus_server

    monkeypatch.setattr(cyrus_server, "CYRUS_BIN", tmp_path / "no-cyrus")
    with pytest.raises(ServerMissing) as missing, cyrus_server.running_cyrus(tmp_path):
        pass
    assert (missing.value.name, missing.value.install) == (
        "Cyrus IMAP",
        "sudo apt-get install cyrus-imapd cyrus-caldav cyrus-admin sasl2-bin",
    )


# ---- a server that lets an attendee change only their own line ------------------------------


OURS = (
    b"BEGIN:VEVENT\r\nUID:r\r\nORGANIZER;CN=Zed:mailto:zed@example.org\r\n"
    b"ATTENDEE;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:bob@example.com\r\n"
    b"ATTENDEE;PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT:mailto:yan@example.org\r\nEND:VEVENT\r\n"
)
THEIRS = (
    "BEGIN:VEVENT\r\nUID:r\r\nORGANIZER;CN=Zed;SCHEDULE-AGENT=CLIENT:mailto:zed@example.org\r\n"
    "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.com\r\n"
    "ATTENDEE;CN=燕子 Yan;PARTSTAT=NEEDS-ACTION;SCHEDULE-AGENT=CLIENT:mailto:yan@exam\r\n ple.org\r\nEND:VEVENT\r\n"
)


def test_others_lines_go_back_as_the_server_has_them_the_user_s_own_stays_ours() -> None:
    sent = others_as(OURS, THEIRS, ["bob@example.com"])
    assert sent is not None
    lines = sent.decode().replace("\r\n ", "").splitlines()
    assert lines[2:5] == [
        "ORGANIZER;CN=Zed;SCHEDULE-AGENT=CLIENT:mailto:zed@example.org",
        "ATTENDEE;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:bob@example.com",  # the answer
        "ATTENDEE;CN=燕子 Yan;PARTSTAT=NEEDS-ACTION;SCHEDULE-AGENT=CLIENT:mailto:yan@example.org",
    ]
    assert all(len(line) <= 75 for line in sent.split(b"\r\n")), "long lines are folded"


def test_others_as_gives_up_when_the_server_does_not_name_someone() -> None:
    assert others_as(OURS, THEIRS.replace("yan@exam\r\n ple.org", "other@example.org"), ["bob@example.com"]) is None
    assert others_as(OURS, OURS.decode(), ["bob@example.com"]) is None  # nothing would change
