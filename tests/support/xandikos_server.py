"""Xandikos as an interop server: its multi-user mode, two users, on a free 127.0.0.1 port.

Xandikos (the git-backed CalDAV server) gives each authenticated user a principal of their
own in ``multi-user`` mode, but accepts HTTP Basic passwords only over its self-signed TLS
(``--htpasswd`` requires ``--autocert``), which a client that checks certificates cannot
use. The launcher below keeps Xandikos's own Basic-auth middleware and htpasswd check and
serves it over plain HTTP on loopback: test-only, by replacing the TLS step, nothing else.
Xandikos is on PyPI (the ``dev`` extra); without it the tests skip with the install line.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.interop_server import USERS, InteropServer, ServerMissing
from tests.support.servers import free_port, stop, wait_until_answering

STARTUP_TIMEOUT_S = 30.0
INSTALL = "pip install xandikos"

# Xandikos's own ``multi-user`` main with ``--autocert --htpasswd``, where the certificate
# step makes no certificate and the site listens without TLS (loopback, tests only).
_LAUNCHER = """
import asyncio, sys
import aiohttp.web
from xandikos import autocert
from xandikos.__main__ import main

class _PlainSite(aiohttp.web.TCPSite):
    def __init__(self, *args, ssl_context=None, **kwargs):
        super().__init__(*args, **kwargs)

aiohttp.web.TCPSite = _PlainSite
autocert.ensure_self_signed = lambda *args, **kwargs: ("", "")
autocert.make_ssl_context = lambda *args, **kwargs: object()
sys.exit(asyncio.run(main(sys.argv[1:])))
"""


def version() -> str:
    from importlib.metadata import version as installed

    return installed("xandikos")


def _sha_entry(user: str, password: str) -> str:
    return f"{user}:{{SHA}}{base64.b64encode(hashlib.sha1(password.encode()).digest()).decode()}"


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True  # 401 means Xandikos is listening
    except OSError:
        return False


def _new_calendar(url: str, passwords: dict[str, str]) -> object:
    def make(user: str, name: str) -> str:
        import caldav

        client = caldav.DAVClient(url=url, username=user, password=passwords[user], timeout=30)
        cal_id = f"{name.encode().hex()[:16]}-{uuid.uuid4().hex[:8]}"
        return str(client.principal().make_calendar(name=name, cal_id=cal_id).url)

    return make


_ADDRESS_PATCH = (
    '<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    "<D:set><D:prop><C:calendar-user-address-set><D:href>mailto:{user}@{domain}</D:href></C:calendar-user-address-set>"
    "</D:prop></D:set></D:propertyupdate>"
)
DOMAIN = "example.com"


def _set_address(url: str, user: str, password: str) -> None:
    """Give the user's principal the address ``user@example.com``. Multi-user Xandikos starts
    each principal with an empty ``calendar-user-address-set``, so no ATTENDEE address is
    anyone's and nothing is scheduled; with addresses it delivers between its users."""
    import caldav

    client = caldav.DAVClient(url=url, username=user, password=password, timeout=30)
    principal = client.principal()
    answer = client.proppatch(str(principal.url), _ADDRESS_PATCH.format(user=user, domain=DOMAIN))
    if answer.status != 207:
        raise RuntimeError(f"Xandikos refused the address of {user}: {answer.status}")


@contextmanager
def running_xandikos(folder: Path) -> Iterator[InteropServer]:
    """Start Xandikos in ``folder``, wait until it answers (bounded), stop it afterwards."""
    try:
        import xandikos  # noqa: F401
    except ImportError:
        raise ServerMissing("Xandikos", INSTALL) from None
    passwords = {user: f"{user} horse" for user in USERS}
    htpasswd = folder / "htpasswd"
    htpasswd.write_text("".join(_sha_entry(u, p) + "\n" for u, p in passwords.items()), encoding="utf-8")
    port = free_port()
    log_path = folder / "xandikos.log"
    log = log_path.open("wb")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    args = ["multi-user", "-d", str(folder / "data"), "--state-dir", str(folder / "state"), "-l", "127.0.0.1"]
    args += ["-p", str(port), "--autocert", "--htpasswd", str(htpasswd), "--no-detect-systemd", "--defaults"]
    process = subprocess.Popen([sys.executable, "-c", _LAUNCHER, *args], stdout=log, stderr=subprocess.STDOUT, env=env)
    host_url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_answering(
            lambda: _answers(host_url),
            process,
            name="Xandikos",
            timeout_s=STARTUP_TIMEOUT_S,
            poll_s=0.05,
            log=lambda: log_path.read_text(errors="replace"),
        )
        for user, password in passwords.items():  # addresses: what lets Xandikos schedule between them
            _set_address(host_url, user, password)
        server = InteropServer(
            name="xandikos",
            url=host_url,
            host_url=host_url,
            passwords=passwords,
            schedules=True,
            new_calendar=_new_calendar(host_url, passwords),  # type: ignore[arg-type]
            share_read_only=None,
            notes={
                "share": "Xandikos has no sharing: no ACL, no calendar-proxy, no share invitations;"
                " bob's requests to alice's collections answer 500, so nothing of alice's can be"
                " offered to bob read-only",
                "schedule_quiet": "Xandikos 0.4.10 ignores SCHEDULE-AGENT=CLIENT: it delivers to a local"
                " attendee whatever the marker says (RFC 6638 7.1: the server must not schedule such an"
                " attendee), so an upload without the user's go-ahead still reaches bob's inbox and"
                " calendar (with --imip-send it would mail outside attendees too)",
            },
        )
        yield server
    finally:
        stop(process)
        log.close()
