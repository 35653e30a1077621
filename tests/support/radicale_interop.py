"""Radicale as an interop server: alice and bob in one htpasswd file, on a free 127.0.0.1 port.

The single-user Radicale of ``caldav_server`` serves the sync tests; the interop cases need
two users and a calendar one of them may only read. Radicale's rights are a file read once
at start (``rights.type = from_file``), so this server's file says it for good: every user
writes their own calendars and reads everyone else's. Sharing a calendar read-only is then
only handing the reader its URL, and Radicale answers the reader's
``current-user-privilege-set`` with read and no write.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.interop_server import USERS, InteropServer
from tests.support.servers import free_port, stop, wait_until_answering

STARTUP_TIMEOUT_S = 30.0

# First matching section wins: the root and one's own principal, one's own calendars, then
# anyone else's calendars read-only.
_RIGHTS = """\
[root]
user: .+
collection:
permissions: R

[principal]
user: .+
collection: {user}
permissions: RW

[own-calendars]
user: .+
collection: {user}/[^/]+
permissions: rw

[others-read-only]
user: .+
collection: [^/]+/[^/]+
permissions: r
"""

_LAUNCHER = """
import sys
import radicale.config, radicale.server
configuration = radicale.config.load([(sys.argv[1], False)])
configuration.update({"storage": {"_filesystem_fsync": "False"}}, "richeng tests", privileged=True)
radicale.server.serve(configuration)
"""


def version() -> str:
    from importlib.metadata import version as installed

    return installed("radicale")


def _write_config(folder: Path, port: int, passwords: dict[str, str]) -> Path:
    users = folder / "users"
    users.write_text("".join(f"{user}:{password}\n" for user, password in passwords.items()), encoding="utf-8")
    rights = folder / "rights"
    rights.write_text(_RIGHTS, encoding="utf-8")
    config = folder / "config"
    config.write_text(
        f"[server]\nhosts = 127.0.0.1:{port}\ndelay_on_error = 0.01\n"
        f"[auth]\ntype = htpasswd\nhtpasswd_filename = {users}\nhtpasswd_encryption = plain\ndelay = 0\n"
        f"[storage]\nfilesystem_folder = {folder / 'collections'}\n"
        f"[rights]\ntype = from_file\nfile = {rights}\n"
        "[web]\ntype = none\n[logging]\nlevel = error\n",
        encoding="utf-8",
    )
    return config


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@contextmanager
def running_radicale_interop(folder: Path) -> Iterator[InteropServer]:
    """Start Radicale with alice and bob in ``folder``, wait (bounded), stop it afterwards."""
    passwords = {user: f"{user} horse" for user in USERS}
    port = free_port()
    config = _write_config(folder, port, passwords)
    log_path = folder / "radicale.log"
    log = log_path.open("wb")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    process = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(config)], stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_answering(
            lambda: _answers(url),
            process,
            name="Radicale",
            timeout_s=STARTUP_TIMEOUT_S,
            poll_s=0.05,
            log=lambda: log_path.read_text(errors="replace"),
        )

        def new_calendar(user: str, name: str) -> str:
            import caldav

            client = caldav.DAVClient(url=url, username=user, password=passwords[user], timeout=30)
            cal_id = f"{name.encode().hex()[:16]}-{uuid.uuid4().hex[:8]}"
            return str(client.principal().make_calendar(name=name, cal_id=cal_id).url)

        yield InteropServer(
            name="radicale",
            url=url,
            host_url=url,
            passwords=passwords,
            schedules=False,
            new_calendar=new_calendar,
            share_read_only=lambda owner, calendar_url, reader: calendar_url,
            notes={
                "schedule": "Radicale does not schedule (no RFC 6638: no schedule inbox or outbox,"
                " no calendar-auto-schedule in its DAV header); invitations go by mail",
            },
        )
    finally:
        stop(process)
        log.close()
