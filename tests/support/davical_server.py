"""A real DAViCal for the interop tests (issue 31, item 5), started on 127.0.0.1 from Debian's packages.

DAViCal is PHP over PostgreSQL. Everything runs from temporary folders; nothing under /etc is
written and no DAViCal config there is read: a throw-away PostgreSQL cluster (``initdb``, then ``postgres`` listening on a
Unix socket only, no TCP port), DAViCal's database made by its own ``create-database.sh``, the
users made by the functions DAViCal's admin page calls, and PHP's built-in web server in front.

Two things make DAViCal run from a test folder:

- DAViCal reads ``/etc/davical/<SERVER_NAME>-conf.php`` (no environment variable names another
  file). The router hands it a SERVER_NAME of ``../../…/<folder>/richeng``, so that path resolves
  to this folder's config, which sets SERVER_NAME back to 127.0.0.1 before DAViCal uses it.
- PHP's built-in server answers the ACL method itself with 501; DAViCal honours
  ``X-HTTP-Method-Override`` on a POST, so sharing a calendar sends its ACL that way.

PostgreSQL refuses to run as root (as CI runs the tests): then the cluster runs as the
``postgres`` user the Debian package creates, in a folder of its own that user can reach.
"""

from __future__ import annotations

import base64
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from tests.support.interop_server import USERS, InteropServer, ServerMissing
from tests.support.servers import free_port, stop, wait_until_answering

DAVICAL = Path("/usr/share/davical")
AWL = Path("/usr/share/awl")
INSTALL = "sudo apt-get install davical postgresql"
STARTUP_TIMEOUT_S = 30.0
# Made with DAViCal's documented ``$c->default_collections`` (calendar and addresses only), so
# DAViCal makes their inbox and outbox itself, on first use, as scheduling collections. USERS are
# made as its admin page makes them with the compiled-in defaults: inbox and outbox as plain
# calendars, which is what breaks scheduling (``NOTES``).
OWN_BOX_USERS = ("carol", "dave")
PASSWORDS = {user: f"{user} secret 1" for user in (*USERS, *OWN_BOX_USERS)}
DB_NAME = "davical"

# Server bugs the client cannot mend, by interop case (tests/agent/sync/interop/test_interop.py ``_known``).
NOTES = {
    "attendee_upload": "DAViCal 1.1.12 + libawl-php 0.64 (Debian 12) with users made by its admin page"
    " and its compiled-in defaults answers HTTP 500 to any upload of an attendee's copy (an answer,"
    " or only a reminder added): it writes a REPLY into the organizer's inbox whatever SCHEDULE-AGENT"
    " says; that inbox was made as a plain calendar (CreateHomeCollections, home_in_calendar_name"
    " '.in'), so DAViCal indexes the REPLY's attendees, and AWL's GetItip() left a null there"
    " (vProperty::ClearParameters() returns nothing): Value() on null, WritableCollection.php:401."
    " Nothing is stored; Richeng keeps the answer and reports the error. With DAViCal's documented"
    " default_collections (no .in/.out made up front) the same flow passes: test_davical_smoke.py.",
}

# Runs for every request: DAViCal's config comes from the test's folder (see the module's
# docstring). As in Debian's /etc/apache2/sites-available/davical.conf, /.well-known/* goes to
# caldav.php as its PATH_INFO and DAViCal answers under /caldav.php/; the rest of the host is
# not DAViCal's (404), so discovery from the bare host has to go through /.well-known/caldav.
_ROUTER = """<?php
$_SERVER['SERVER_NAME'] = str_repeat('../', 32) . ltrim(getenv('RICHENG_DAVICAL_CONF'), '/');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (strncmp($path, '/.well-known/', 13) === 0) {
  $_SERVER['SCRIPT_NAME'] = '/caldav.php';
  $_SERVER['PATH_INFO'] = rawurldecode($path);
} elseif ($path !== '/caldav.php' && strncmp($path, '/caldav.php/', 12) !== 0) {
  http_response_code(404);
  return true;
}
chdir(DAVICAL_HTDOCS);
require DAVICAL_HTDOCS . '/caldav.php';
"""

# The users, made as DAViCal's admin page makes them (inc/ui/principal-edit.php): the principal,
# then its home collections and default relationships. argv[1]: USERS, with the compiled-in
# collections (calendar, .in, .out, addresses); argv[2]: OWN_BOX_USERS, with the documented
# default_collections (calendar, addresses).
_MAKE_USERS = """<?php
$_SERVER['SERVER_NAME'] = str_repeat('../', 32) . ltrim(getenv('RICHENG_DAVICAL_CONF'), '/');
$_SERVER['SCRIPT_NAME'] = '/setup.php';
$_SERVER['DOCUMENT_ROOT'] = DAVICAL_HTDOCS;
$_SERVER['REQUEST_METHOD'] = 'GET';
$_SERVER['SERVER_PORT'] = '80';
chdir(DAVICAL_HTDOCS);
require './always.php';
require_once 'auth-functions.php';
foreach (array(json_decode($argv[1], true), json_decode($argv[2], true)) as $layout => $users) {
 if ($layout == 1) {
   $c->default_collections = array(array('type' => 'calendar', 'name' => 'calendar'),
                                   array('type' => 'addressbook', 'name' => 'addresses'));
 }
 foreach ($users as $user => $password) {
  $principal = new Principal('username', $user);
  $principal->Create(array('username' => $user, 'password' => '**' . $password, 'fullname' => ucfirst($user),
                           'displayname' => ucfirst($user), 'email' => $user . '@example.com'));
  if (!CreateHomeCollections($user) || !CreateDefaultRelationships($user)) {
    fwrite(STDERR, "could not make $user: " . implode('; ', $c->messages) . "\\n");
    exit(1);
  }
 }
}
"""


def email(user: str) -> str:
    """The address DAViCal knows ``user`` by (its calendar-user-address-set)."""
    return f"{user}@example.com"


def _php(text: str) -> str:
    """``text`` as a PHP single-quoted string."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _postgres_bin() -> Path | None:
    """The newest PostgreSQL server's bin folder (Debian keeps one per major version)."""
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "postgres").exists()]
    if not found:
        return None
    return max(found, key=lambda p: int(re.sub(r"\D", "", p.parent.name) or 0))


def _check_installed() -> Path:
    """The PostgreSQL bin folder; ``ServerMissing`` when a piece DAViCal needs is not installed."""
    pieces = [
        DAVICAL / "htdocs" / "caldav.php",
        DAVICAL / "dba" / "create-database.sh",
        AWL / "dba" / "awl-tables.sql",
        Path("/etc/davical"),  # the package's; the router's path to this folder's config starts there
    ]
    bin_dir = _postgres_bin()
    if bin_dir is None or any(not p.exists() for p in pieces):
        raise ServerMissing("DAViCal", INSTALL)
    if any(shutil.which(tool) is None for tool in ("php", "psql", "createdb", "perl")):
        raise ServerMissing("DAViCal", INSTALL)
    return bin_dir


def _db_owner() -> dict[str, Any]:
    """``Popen`` arguments that run PostgreSQL as someone other than root (it refuses root)."""
    if os.geteuid() != 0:
        return {}
    try:
        entry = pwd.getpwnam("postgres")  # made by Debian's postgresql-common
    except KeyError:
        raise ServerMissing("DAViCal", INSTALL) from None
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise RuntimeError(f"DAViCal did not start within {STARTUP_TIMEOUT_S:.0f} s")
    return left


def _run(args: list[str], deadline: float, what: str, **kwargs: Any) -> str:
    """Run one start-up step within the deadline; its output, or an error that shows it."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=_left(deadline), **kwargs)
    output = done.stdout + done.stderr
    if done.returncode != 0 or "ERROR:" in output:
        raise RuntimeError(f"DAViCal set-up failed at {what} (exit {done.returncode}):\n{output[-3000:]}")
    return output


def _request(method: str, url: str, user: str, body: str = "", headers: dict[str, str] | None = None) -> int:
    """One request as ``user``; the HTTP status."""
    auth = base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()
    request = urllib.request.Request(
        url,
        data=body.encode() if body else None,
        method=method,
        headers={"Authorization": f"Basic {auth}", "Content-Type": "application/xml; charset=utf-8", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True  # 401 means PHP and DAViCal are up
    except OSError:
        return False


def _stop_postgres(process: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGINT: disconnect clients, checkpoint); immediate (SIGQUIT) if that hangs."""
    if process.poll() is not None:
        return
    for sig in (signal.SIGINT, signal.SIGQUIT):
        process.send_signal(sig)
        try:
            process.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue
    process.kill()
    process.wait(timeout=10)


class _Calendars:
    """Making and sharing calendars on a running DAViCal, through its own HTTP methods."""

    def __init__(self, base: str) -> None:
        self.base = base  # http://127.0.0.1:PORT/caldav.php/

    def new_calendar(self, user: str, name: str) -> str:
        url = f"{self.base}{user}/{uuid.uuid4().hex[:12]}/"
        body = (
            '<?xml version="1.0" encoding="utf-8"?>'
            '<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>'
            f"<D:displayname>{escape(name)}</D:displayname>"
            "</D:prop></D:set></C:mkcalendar>"
        )
        status = _request("MKCALENDAR", url, user, body)
        if status != 201:
            raise RuntimeError(f"DAViCal refused MKCALENDAR {url}: {status}")
        return url

    def share_read_only(self, owner: str, url: str, reader: str) -> str:
        """Grant ``reader`` read access (RFC 3744 ACL); the reader sees it at the same URL.

        DAViCal's ``read`` alone hides ``current-user-privilege-set`` from the reader (403), so the
        grant also gives ``read-current-user-privilege-set``, as a sharing client would."""
        body = (
            '<?xml version="1.0" encoding="utf-8"?><D:acl xmlns:D="DAV:"><D:ace>'
            f"<D:principal><D:href>/caldav.php/{reader}/</D:href></D:principal>"
            "<D:grant><D:privilege><D:read/></D:privilege>"
            "<D:privilege><D:read-current-user-privilege-set/></D:privilege></D:grant>"
            "</D:ace></D:acl>"
        )
        status = _request("POST", url, owner, body, {"X-HTTP-Method-Override": "ACL"})
        if status != 200:
            raise RuntimeError(f"DAViCal refused the ACL on {url}: {status}")
        return url


def _clean_env() -> dict[str, str]:
    """The environment without the caller's libpq settings (PGHOST, PGSERVICE…), which would
    point the set-up scripts at another database."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")}


@contextmanager
def running_davical(folder: Path) -> Iterator[InteropServer]:
    """Start PostgreSQL and DAViCal, yield the server, stop both and remove the cluster afterwards.

    ``folder`` holds DAViCal's config, the PHP scripts and the logs. The cluster lives in a
    folder of its own under /tmp, which the ``postgres`` user can reach when the tests run as
    root, whatever ``folder``'s parents allow.
    """
    bin_dir = _check_installed()
    owner = _db_owner()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    folder.mkdir(parents=True, exist_ok=True)
    # /tmp, not $TMPDIR: the postgres user must reach it, and a socket path has 107 bytes at most
    cluster = Path(tempfile.mkdtemp(prefix="richeng-davical-pg-", dir="/tmp" if Path("/tmp").is_dir() else None))
    if owner:
        os.chown(cluster, owner["user"], owner["group"])
    data, pg_port = cluster / "data", free_port()
    pg_env = {**_clean_env(), "PGHOST": str(cluster), "PGPORT": str(pg_port), "PGUSER": "postgres"}
    postgres: subprocess.Popen[bytes] | None = None
    php: subprocess.Popen[bytes] | None = None
    pg_log = (folder / "postgres.log").open("wb")
    php_log = (folder / "php.log").open("wb")
    try:
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-N", "-E", "UTF8"]
        _run([*initdb, "--no-locale"], deadline, "initdb", cwd=cluster, env=pg_env, **owner)
        postgres = subprocess.Popen(
            [str(bin_dir / "postgres"), "-D", str(data), "-k", str(cluster), "-h", "", "-p", str(pg_port)]
            + ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=pg_log,
            stderr=subprocess.STDOUT,
            cwd=cluster,
            env=pg_env,
            **owner,
        )
        ready = [str(bin_dir / "pg_isready"), "-q", "-h", str(cluster), "-p", str(pg_port)]
        wait_until_answering(
            lambda: subprocess.run(ready, check=False, env=pg_env).returncode == 0,
            postgres,
            name="PostgreSQL",
            timeout_s=_left(deadline),
            poll_s=0.05,
            log=lambda: (folder / "postgres.log").read_text(errors="replace"),
        )
        dba_env = {**pg_env, "DBAOPTS": f"--dbhost {cluster} --dbport {pg_port}"}
        create = [str(DAVICAL / "dba" / "create-database.sh"), DB_NAME, uuid.uuid4().hex]
        _run(["sh", *create], deadline, "create-database.sh", cwd=folder, env=dba_env)

        config = folder / "richeng-conf.php"
        connect = f"dbname={DB_NAME} user=davical_app host={cluster} port={pg_port}"
        config.write_text(
            "<?php\n"
            "$_SERVER['SERVER_NAME'] = '127.0.0.1';\n"
            "$c->domain_name = '127.0.0.1';\n"
            f"$c->pg_connect[] = {_php(connect)};\n"
            "$c->system_name = 'DAViCal for the Richeng tests';\n"
            "$c->admin_email = 'admin@example.com';\n",
            encoding="utf-8",
        )
        define = f"<?php\ndefine('DAVICAL_HTDOCS', {_php(str(DAVICAL / 'htdocs'))});\n"
        router, make_users = folder / "router.php", folder / "make-users.php"
        router.write_text(_ROUTER.replace("<?php\n", define, 1), encoding="utf-8")
        make_users.write_text(_MAKE_USERS.replace("<?php\n", define, 1), encoding="utf-8")
        php_env = {**_clean_env(), "RICHENG_DAVICAL_CONF": str(folder / "richeng")}
        by_layout = [json.dumps({u: PASSWORDS[u] for u in users}) for users in (USERS, OWN_BOX_USERS)]
        _run(["php", str(make_users), *by_layout], deadline, "making the users", env=php_env)

        port = free_port()
        host_url = f"http://127.0.0.1:{port}/"
        php = subprocess.Popen(
            [
                "php",
                "-d",
                "display_errors=0",
                "-d",
                "log_errors=1",
                "-S",
                f"127.0.0.1:{port}",
                "-t",
                str(DAVICAL / "htdocs"),
                str(router),
            ],
            stdout=php_log,
            stderr=subprocess.STDOUT,
            cwd=folder,
            env=php_env,
        )
        wait_until_answering(
            lambda: _answers(f"{host_url}caldav.php/"),
            php,
            name="DAViCal",
            timeout_s=_left(deadline),
            poll_s=0.05,
            log=lambda: (folder / "php.log").read_text(errors="replace"),
        )
        base = f"{host_url}caldav.php/"
        for user in USERS:
            status = _request("PROPFIND", f"{base}{user}/", user, headers={"Depth": "0"})
            if status != 207:
                log = (folder / "php.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"DAViCal answered PROPFIND for {user} with {status}:\n{log}")
        calendars = _Calendars(base)
        yield InteropServer(
            name="DAViCal",
            url=base,
            host_url=host_url,
            passwords=dict(PASSWORDS),
            schedules=True,
            new_calendar=calendars.new_calendar,
            share_read_only=calendars.share_read_only,
            notes=dict(NOTES),
        )
    finally:
        if php is not None:
            stop(php)
        if postgres is not None:
            _stop_postgres(postgres)
        pg_log.close()
        php_log.close()
        shutil.rmtree(cluster, ignore_errors=True)
