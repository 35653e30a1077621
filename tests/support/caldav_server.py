"""A real CalDAV server for the sync tests: Radicale on a free 127.0.0.1 port.

Radicale runs as its own process (``python -m radicale``), as a user's server would, so the
tests exercise real HTTP, real ETags and real sync tokens rather than a fake of the protocol.
Its storage is a temporary folder and it answers only to a user from a plain htpasswd file,
which also exercises the password path. One server serves a whole test session; each test
takes fresh calendars (``new_calendar``) so tests never see each other's events.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path

from tests.support.interop_server import Login
from tests.support.servers import free_port, stop, wait_until_answering

USER = "alice"
PASSWORD = "correct horse"
STARTUP_TIMEOUT_S = 30.0


@dataclass
class CalDavServer:
    """A running Radicale: where it is, who may log in, and how to make calendars on it."""

    url: str
    user: str
    password: str
    folder: Path
    process: subprocess.Popen[bytes]
    max_resource_size: int
    made: list[str] = field(default_factory=list)

    @property
    def home(self) -> str:
        return f"{self.url}{self.user}/"

    def client(self) -> object:
        import caldav

        return caldav.DAVClient(url=self.url, username=self.user, password=self.password, timeout=30)

    def new_calendar(self, name: str = "Work") -> str:
        """A fresh calendar collection (unique path, display name ``name``); returns its URL."""
        client = self.client()
        principal = client.principal()  # type: ignore[attr-defined]
        cal_id = f"{name.encode().hex()[:16]}-{uuid.uuid4().hex[:8]}"
        calendar = principal.make_calendar(name=name, cal_id=cal_id)
        url = str(calendar.url)
        self.made.append(url)
        return url


def _write_config(folder: Path, port: int, max_resource_size: int) -> Path:
    users = folder / "users"
    users.write_text(f"{USER}:{PASSWORD}\n", encoding="utf-8")
    config = folder / "config"
    config.write_text(
        "\n".join(
            [
                "[server]",
                f"hosts = 127.0.0.1:{port}",
                f"max_content_length = {max_resource_size}",
                "delay_on_error = 0.01",
                "max_connections = 20",
                "[auth]",
                "type = htpasswd",
                f"htpasswd_filename = {users}",
                "htpasswd_encryption = plain",
                "delay = 0",
                "[storage]",
                f"filesystem_folder = {folder / 'collections'}",
                "[rights]",
                "type = owner_only",
                "[web]",
                "type = none",
                "[logging]",
                "level = error",
                "",
            ]
        ),
        encoding="utf-8",
    )
    return config


# ``python -m radicale`` with the config file, plus one privileged option a file may not set:
# no fsync per write. The storage is a throwaway folder, and fsync on every PUT would make the
# 5,000-event benchmark measure the disk rather than the sync.
_LAUNCHER = """
import sys
import radicale.config, radicale.server
configuration = radicale.config.load([(sys.argv[1], False)])
configuration.update({"storage": {"_filesystem_fsync": "False"}}, "richeng tests", privileged=True)
radicale.server.serve(configuration)
"""


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True  # 401/403/404 all mean something is listening and speaking HTTP
    except OSError:
        return False


@contextmanager
def running_radicale(max_resource_size: int = 250_000) -> Iterator[CalDavServer]:
    """Start Radicale, wait until it answers, stop it and remove its storage afterwards.

    ``max_resource_size`` is kept small so a test can make the server refuse one item (413)
    with an oversized event, a real server error rather than a mocked one.
    """
    with tempfile.TemporaryDirectory(prefix="richeng-radicale-") as tmp:
        folder = Path(tmp)
        port = free_port()
        config = _write_config(folder, port, max_resource_size)
        log = (folder / "radicale.log").open("wb")
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(config)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        url = f"http://127.0.0.1:{port}/"
        try:
            wait_until_answering(
                lambda: _answers(url),
                process,
                name="Radicale",
                timeout_s=STARTUP_TIMEOUT_S,
                poll_s=0.05,
                log=lambda: (folder / "radicale.log").read_text(errors="replace"),
            )
            yield CalDavServer(url, USER, PASSWORD, folder, process, max_resource_size)
        finally:
            stop(process)
            log.close()


# ---- devices: one local store each, synced with the server ----------------------------------


class Device:
    """One Richeng install: its own store, synced with one calendar on the server.

    Edits go through ``EditService`` — the editor's write path, which bumps SEQUENCE and
    LAST-MODIFIED — so the tests exercise what a user's edit really stores.
    """

    def __init__(
        self,
        server: Login | CalDavServer,
        remote_url: str,
        path: Path | str = ":memory:",
        *,
        calendar: str = "Work",
        use_tokens: bool = True,
    ) -> None:
        from agent.services.editing import EditService
        from agent.store.db import Store
        from agent.store.profiles import ensure_profile
        from agent.sync.accounts import RemoteInfo
        from agent.sync.engine import SyncEngine
        from agent.sync.secrets import MemorySecrets, keyring_user

        self.server = server
        self.store = Store(path)
        self.profile_id = ensure_profile(self.store)
        self.secrets = MemorySecrets({keyring_user(server.url, server.user): server.password})
        self.engine = SyncEngine(self.store, self.profile_id, self.secrets, use_sync_tokens=use_tokens)
        account = self.engine.accounts.add(server.url, server.user, name="home")
        self.mapping = self.engine.accounts.map(account, RemoteInfo(remote_url, calendar, ("VEVENT",)), calendar)
        self.calendar_id = self.mapping.calendar_id
        self.edit = EditService(self.store, self.profile_id)

    def sync(self) -> object:
        return self.engine.run()

    def add(self, title: str, start: object, end: object, *, rrule: str | None = None, description: str = "") -> str:
        from agent.services.editing import EventDraft

        changes = self.edit.create(
            EventDraft(title, start, end, self.calendar_id, description=description, rrule=rrule)  # type: ignore[arg-type]
        )
        return changes.created[0].uid

    def retitle(self, uid: str, title: str, recurrence_id: str = "") -> None:
        """Change one row's SUMMARY as the editor does: SEQUENCE and LAST-MODIFIED move on."""
        from datetime import datetime

        from agent.store.components import parse_component

        row = self.edit.repo.row(uid, recurrence_id)
        assert row is not None, f"no row {uid} {recurrence_id}"
        component = parse_component(row["ics"])
        for name, value in (
            ("SUMMARY", title),
            ("SEQUENCE", int(component.get("SEQUENCE") or 0) + 1),
            ("LAST-MODIFIED", datetime.now(UTC)),
        ):
            component.pop(name, None)
            component.add(name, value)
        with self.store.transaction():
            self.edit.repo.save(component, row["calendar_id"], row["origin"])

    def remove(self, uid: str) -> None:
        with self.store.transaction():
            self.edit.repo.delete(uid)

    def events(self) -> dict[tuple[str, str], tuple[str, int, int]]:
        """(uid, recurrence id) -> (title, start, end) for every row of the synced calendar."""
        rows = self.store.conn.execute(
            "SELECT uid, recurrence_id, title, start_ts, end_ts FROM events WHERE profile_id = ? AND calendar_id = ?",
            (self.profile_id, self.calendar_id),
        ).fetchall()
        return {(r["uid"], r["recurrence_id"]): (r["title"], r["start_ts"], r["end_ts"]) for r in rows}

    def titles(self) -> set[str]:
        return {title for title, _, _ in self.events().values()}

    def close(self) -> None:
        self.store.close()
