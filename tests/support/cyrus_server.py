"""Cyrus IMAP's CalDAV (the server Fastmail runs) as an interop server, from Debian's packages.

Everything lives in one temporary folder: its own ``imapd.conf`` and ``cyrus.conf`` (every
path, socket and lock inside the folder; each service is given ``-C`` because Cyrus's
``master`` does not pass its config file on), a SASL password file with alice, bob and an
admin, and two services on free loopback ports: ``httpd`` (CalDAV) and ``imapd``, which only
the admin uses, to create the users' mailboxes (``CREATE user/alice``; Cyrus makes a
user's calendar home, default calendar and scheduling inbox/outbox on their first CalDAV
request) and to share a calendar (``SETACL``). No system path, no systemd, no syslog.

Run as root, ``master`` drops to the ``cyrus`` user (``cyrus_user``), so the folder is made
under the system temporary folder and given to that user; run as anyone else, Cyrus runs
as them. Quirks the tests meet are written where they are met; the list is in
/work/notes/interop-results.md.
"""

from __future__ import annotations

import getpass
import imaplib
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.interop_server import USERS, InteropServer, ServerMissing
from tests.support.servers import free_port, stop, wait_until_answering

INSTALL = "sudo apt-get install cyrus-imapd cyrus-caldav cyrus-admin sasl2-bin"
CYRUS_BIN = Path("/usr/lib/cyrus/bin")
SASLPASSWD = Path("/usr/sbin/saslpasswd2")
STARTUP_TIMEOUT_S = 30.0
SERVERNAME = "127.0.0.1"  # also the SASL realm Cyrus checks passwords in
DOMAIN = "example.com"  # calendar user addresses: mailto:alice@example.com
ADMIN = "admin"


def _config(folder: Path, user: str) -> str:
    lines = {
        "configdirectory": folder / "conf",
        "partition-default": folder / "spool",
        "defaultpartition": "default",
        "proc_path": folder / "run" / "proc",
        "mboxname_lockpath": folder / "run" / "lock",
        "lmtpsocket": folder / "run" / "socket" / "lmtp",
        "idlesocket": folder / "run" / "socket" / "idle",
        "notifysocket": folder / "run" / "socket" / "notify",
        "sievedir": folder / "sieve",
        "servername": SERVERNAME,
        "admins": ADMIN,
        "cyrus_user": user,
        "allowplaintext": "yes",
        "sasl_pwcheck_method": "auxprop",
        "sasl_auxprop_plugin": "sasldb",
        "sasl_sasldb_path": folder / "sasldb2",
        "sasl_mech_list": "PLAIN",
        "httpmodules": "caldav",
        "httpallowcompress": "no",
        "caldav_allowscheduling": "on",
        "caldav_create_attach": "no",
        "calendar_user_address_set": DOMAIN,
        "unixhierarchysep": "yes",
        "syslog_prefix": "richeng-cyrus",
        "umask": "077",
    }
    return "".join(f"{key}: {value}\n" for key, value in lines.items())


def _services(folder: Path, http_port: int, imap_port: int) -> str:
    conf = folder / "imapd.conf"
    return (
        "START {\n"
        f'  recover cmd="ctl_cyrusdb -C {conf} -r"\n'
        "}\nSERVICES {\n"
        f'  http cmd="httpd -C {conf}" listen="127.0.0.1:{http_port}" prefork=0 maxchild=20\n'
        f'  imap cmd="imapd -C {conf}" listen="127.0.0.1:{imap_port}" prefork=0 maxchild=5\n'
        "}\nEVENTS {\n}\n"
    )


def _missing() -> bool:
    needed = [CYRUS_BIN / "master", CYRUS_BIN / "httpd", CYRUS_BIN / "imapd", CYRUS_BIN / "ctl_cyrusdb", SASLPASSWD]
    return not all(path.exists() for path in needed)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def version() -> str:
    """Cyrus's version as its ``master -V`` says it (e.g. ``3.6.1-Debian-3.6.1-4+deb12u4``)."""
    if _missing():
        return "not installed"
    answer = subprocess.run([str(CYRUS_BIN / "master"), "-V"], capture_output=True, text=True, timeout=10)
    return answer.stdout.strip().removeprefix("cyrus-imapd ") or "unknown"


class _Admin:
    """The admin's IMAP session: mailboxes and ACLs, which have no CalDAV request in Cyrus 3.6."""

    def __init__(self, port: int, password: str) -> None:
        self.port = port
        self.password = password

    def run(self, command: str, *args: str) -> None:
        with imaplib.IMAP4(SERVERNAME, self.port, timeout=10) as imap:
            imap.login(ADMIN, self.password)
            status, answer = getattr(imap, command)(*args)
            if status != "OK":
                raise RuntimeError(f"Cyrus {command} {args}: {answer}")


def _client(url: str, user: str, password: str) -> object:
    import caldav

    return caldav.DAVClient(url=url, username=user, password=password, timeout=30)


@contextmanager
def _workspace(folder: Path, as_root: bool) -> Iterator[Path]:
    """``folder`` itself, or (as root) a fresh folder the ``cyrus`` user can reach: pytest's
    own temporary folders are private to root."""
    if not as_root:
        yield folder
        return
    work = Path(tempfile.mkdtemp(prefix="richeng-cyrus-"))
    os.chmod(work, 0o755)
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextmanager
def running_cyrus(folder: Path) -> Iterator[InteropServer]:
    """Start Cyrus (``master`` with httpd and imapd), make alice and bob, stop it afterwards."""
    if _missing():
        raise ServerMissing("Cyrus IMAP", INSTALL)
    as_root = os.geteuid() == 0
    if as_root:
        try:
            owner = pwd.getpwnam("cyrus")
        except KeyError:
            raise ServerMissing("Cyrus IMAP", INSTALL) from None
    with _workspace(folder, as_root) as work:
        for sub in ("conf", "spool", "sieve", "run/proc", "run/lock", "run/socket"):
            (work / sub).mkdir(parents=True, exist_ok=True)
        http_port = imap_port = free_port()
        while imap_port == http_port:  # each is free, but the two must differ
            imap_port = free_port()
        (work / "imapd.conf").write_text(_config(work, "cyrus" if as_root else getpass.getuser()), encoding="utf-8")
        (work / "cyrus.conf").write_text(_services(work, http_port, imap_port), encoding="utf-8")
        passwords = {user: f"{user} horse" for user in USERS}
        admin_password = uuid.uuid4().hex
        for user, password in [*passwords.items(), (ADMIN, admin_password)]:
            subprocess.run(
                [str(SASLPASSWD), "-f", str(work / "sasldb2"), "-p", "-c", "-u", SERVERNAME, user],
                input=password.encode(),
                check=True,
                timeout=10,
            )
        if as_root:
            for path in [work, *work.rglob("*")]:
                os.chown(path, owner.pw_uid, owner.pw_gid)
        log_path = work / "master.log"
        log = log_path.open("wb")
        process = subprocess.Popen(
            [str(CYRUS_BIN / "master"), "-C", str(work / "imapd.conf"), "-M", str(work / "cyrus.conf")]
            + ["-p", str(work / "run" / "master.pid"), "-D"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        host_url = f"http://{SERVERNAME}:{http_port}/"
        try:
            wait_until_answering(
                lambda: _answers(host_url),
                process,
                name="Cyrus IMAP",
                timeout_s=STARTUP_TIMEOUT_S,
                poll_s=0.05,
                log=lambda: log_path.read_text(errors="replace"),
            )
            admin = _Admin(imap_port, admin_password)
            for user in USERS:
                admin.run("create", f"user/{user}")
            # The URL a user types: Cyrus answers an anonymous PROPFIND on "/" with 207 and no
            # principal, so a client at the bare host never authenticates (discovery starts
            # at /.well-known/caldav instead; see the discovery case).
            url = f"{host_url}dav/calendars/"
            for user, password in passwords.items():  # the first request makes the calendar home
                _client(url, user, password).principal()  # type: ignore[attr-defined]

            def new_calendar(user: str, name: str) -> str:
                cal_id = f"c{uuid.uuid4().hex[:12]}"
                principal = _client(url, user, passwords[user]).principal()  # type: ignore[attr-defined]
                return str(principal.make_calendar(name=name, cal_id=cal_id).url)

            def share_read_only(owner_user: str, calendar_url: str, reader: str) -> str:
                """Cyrus 3.6 keeps rights as IMAP ACLs on the calendar's mailbox: ``lrs`` is
                read; the reader then sees the calendar in their own home as ``owner.id``."""
                cal_id = calendar_url.rstrip("/").rsplit("/", 1)[-1]
                admin.run("setacl", f"user/{owner_user}/#calendars/{cal_id}", reader, "lrs")
                return f"{url}user/{reader}/{owner_user}.{cal_id}/"

            server = InteropServer(
                name="cyrus",
                url=url,
                host_url=host_url,
                passwords=passwords,
                schedules=True,
                new_calendar=new_calendar,
                share_read_only=share_read_only,
            )
            yield server
        finally:
            stop(process)
            log.close()
