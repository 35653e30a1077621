"""What the interop tests need of a CalDAV server, whichever it is (issue 31, item 5).

Each server the tests start on 127.0.0.1 (Radicale, Xandikos, Cyrus IMAP, DAViCal) is
described by one ``InteropServer``: where it is, two users (``alice`` and ``bob``) with
their passwords, whether it schedules between them (RFC 6638), and how to make a calendar
or share one read-only. The interop tests are written once against this shape and run
for every server that could be started; a server whose Debian package is missing raises
``ServerMissing`` with the line that installs it, and its tests skip by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

USERS = ("alice", "bob")


class ServerMissing(Exception):
    """The server is not installed here; ``install`` is the command that installs it."""

    def __init__(self, name: str, install: str) -> None:
        super().__init__(f"{name} is not installed here: {install}")
        self.name = name
        self.install = install


@dataclass(frozen=True)
class Login:
    """One user's view of the server: what ``tests.support.caldav_server.Device`` needs."""

    url: str
    user: str
    password: str


@dataclass
class InteropServer:
    """A running server and what the tests may ask of it."""

    name: str
    url: str  # the address a user types into Richeng (discovery starts here)
    host_url: str  # scheme://host:port/ only: discovery through /.well-known/caldav
    passwords: dict[str, str]  # user -> password, for every name in USERS
    schedules: bool  # delivers iTIP between its users (RFC 6638)
    new_calendar: Callable[[str, str], str]  # (user, display name) -> the new collection's URL
    # (owner, calendar URL, reader) -> the URL the reader sees it at, read-only; None: cannot
    share_read_only: Callable[[str, str, str], str] | None = None
    notes: dict[str, str] = field(default_factory=dict)  # case -> why it does not apply here

    def login(self, user: str = "alice") -> Login:
        return Login(self.url, user, self.passwords[user])
