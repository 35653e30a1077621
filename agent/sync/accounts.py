"""CalDAV accounts, the remote calendars found on them, and which local calendar each feeds.

An account row holds only what is not secret (server URL, user name); the password or app
token is in the OS keyring (see ``secrets``). Discovery asks the server for the user's
calendars every time rather than caching them, because the list changes on the server and
a stale list would offer calendars that are gone.
"""

from __future__ import annotations

import builtins  # the class's own ``list`` method shadows the builtin in later annotations
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from agent.errors import NotFoundError, UserFacingError, ValidationError
from agent.services.calendars import CalendarService
from agent.store.db import Store, utc_now_iso
from agent.store.read_only import READ_ONLY_KEY
from agent.sync.secrets import KeyringSecrets, Secrets
from agent.sync.transport import DEFAULT_LIMITS, bound

if TYPE_CHECKING:
    from caldav.davclient import DAVClient

CONNECT_TIMEOUT_S = 30
INTERVAL_KEY = "sync_interval_minutes"


def split_credentials(url: str) -> tuple[str, str | None, str | None]:
    """``url`` without a ``user:password@`` part, and the user and password it held.

    A password in a URL would be stored in the database and printed by ``sync accounts``
    (issue 29): it is taken out before anything keeps or shows the URL.
    """
    parts = urlsplit(url.strip())
    if "@" not in parts.netloc:
        return url.strip(), None, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, colon, password = userinfo.partition(":")
    clean = urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
    return clean, unquote(user) or None, unquote(password) if colon else None


def public_url(url: str) -> str:
    """``url`` as it may be shown: never with a password (rows stored before issue 29 may hold one)."""
    return split_credentials(url)[0]


class SyncError(UserFacingError):
    """An account-level failure: cannot reach the server, wrong password, unknown account.

    ``kind`` says which, for a UI that words it for people: ``auth``, ``unreachable``,
    ``tls``, ``not_caldav`` or ``other``."""

    def __init__(self, code: str = "", /, *, kind: str = "other", **params: Any) -> None:
        super().__init__(code, **params)
        self.kind = kind


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    url: str
    username: str
    last_sync_at: str | None
    last_status: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "url": public_url(self.url), "user": self.username, "last_sync_at": self.last_sync_at}


@dataclass(frozen=True)
class Mapping:
    """A remote calendar kept in step with a local one."""

    id: int
    account_id: int
    remote_url: str
    remote_name: str
    calendar_id: int
    calendar_name: str
    sync_token: str | None
    ctag: str | None

    def to_json(self) -> dict[str, Any]:
        return {"remote": self.remote_name, "url": self.remote_url, "local": self.calendar_name}


@dataclass(frozen=True)
class RemoteInfo:
    """A calendar the server offers, and the local calendar it syncs with, if any."""

    url: str
    name: str
    components: tuple[str, ...]
    mapped_to: str | None = None

    @property
    def has_events(self) -> bool:
        return not self.components or "VEVENT" in self.components

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "url": self.url, "components": list(self.components), "mapped_to": self.mapped_to}


def connect(url: str, username: str, password: str | None) -> DAVClient:
    """A ``caldav.DAVClient``; nothing is sent until it is used. Every request it sends is
    bounded in time and size (``transport``): discovery too, not only a sync."""
    from caldav.davclient import DAVClient  # here: importing the client stack costs start-up time

    client = DAVClient(url=url, username=username or None, password=password, timeout=CONNECT_TIMEOUT_S)
    return bound(client, DEFAULT_LIMITS, None)


WELL_KNOWN = "/.well-known/caldav"
MAX_REDIRECTS = 5
_REDIRECTS = {301, 302, 303, 307, 308}
_PRINCIPAL_PROPFIND = (
    '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:current-user-principal/></D:prop></D:propfind>'
)


def context_url(client: Any) -> str | None:
    """Where CalDAV lives on a server given by its bare host (RFC 6764 section 5): the
    address ``/.well-known/caldav`` redirects to, or None when the account URL has a path
    of its own or the server names no other place.

    Cyrus (Fastmail's server) answers an anonymous PROPFIND on ``/`` with a 207 naming no
    principal, so a client that starts there never even sends the password and finds no
    calendar; its well-known address redirects to ``/dav/calendars``. The lookup goes
    through the client's bounded session (the deadline and size caps of a sync), without
    credentials, and follows at most ``MAX_REDIRECTS`` redirects on the same scheme and
    host: a redirect elsewhere is not followed (the password would go with the next
    request), as RFC 6764 section 8 asks.
    """
    start = urlsplit(str(client.url))
    if start.path not in ("", "/"):
        return None
    url = urlunsplit((start.scheme, start.netloc, WELL_KNOWN, "", ""))
    moved = False
    for _ in range(MAX_REDIRECTS):
        try:
            response = client.session.request(
                "PROPFIND", url, data=_PRINCIPAL_PROPFIND, allow_redirects=False,
                headers={"Depth": "0", "Content-Type": "application/xml; charset=utf-8"},
            )  # fmt: skip
        except Exception:  # no well-known address: start where the user said
            return None
        location = response.headers.get("Location") if response.status_code in _REDIRECTS else None
        if not location:
            break
        target = urlsplit(urljoin(url, location))
        if (target.scheme, target.netloc) != (start.scheme, start.netloc):
            break
        url, moved = urlunsplit((target.scheme, target.netloc, target.path or "/", target.query, "")), True
    return url if moved and urlsplit(url).path.rstrip("/") != WELL_KNOWN else None


def scheduling_boxes(client: Any) -> set[str]:
    """The URLs (unquoted, no trailing slash) of the principal's schedule inbox and outbox
    (RFC 6638), which are not calendars to sync. DAViCal lists both among the user's
    calendars: the users its admin page makes get ``.in`` and ``.out`` as plain calendar
    collections. Mapped, the inbox would show every invitation a second time and the outbox
    would take uploads. A server that names neither (it does not schedule) gives none."""
    from caldav.elements import cdav

    try:
        principal = client.principal()
        props = principal.get_properties([cdav.ScheduleInboxURL(), cdav.ScheduleOutboxURL()])
    except Exception:  # not saying is not scheduling: nothing to leave out
        return set()
    return {unquote(urljoin(str(principal.url), str(href))).rstrip("/") for href in props.values() if href}


def discover_calendars(client: Any) -> list[RemoteInfo]:
    """The user's calendars via the principal's calendar-home-set (RFC 4791 discovery),
    starting at the server's well-known context path when the account is a bare host."""
    from caldav.lib import error as dav_error
    from caldav.lib.url import URL

    context = context_url(client)
    if context is not None:
        client.url = URL.objectify(context)
    try:
        calendars = client.principal().get_calendars()
    except dav_error.AuthorizationError:
        raise SyncError("sync.auth_refused", kind="auth") from None
    except dav_error.DAVError as exc:
        raise SyncError("sync.no_calendar_list", kind="not_caldav", text=str(exc)) from None
    except Exception as exc:  # connection refused, DNS, TLS: say which, on one line
        kind = "tls" if "ssl" in type(exc).__name__.lower() or "certificate" in str(exc).lower() else "unreachable"
        raise SyncError("sync.unreachable", kind=kind, url=str(client.url), error=type(exc).__name__, text=str(exc)) from None
    boxes = scheduling_boxes(client)
    found = []
    for calendar in calendars:
        if unquote(str(calendar.url)).rstrip("/") in boxes:
            continue
        try:
            name = calendar.get_display_name() or ""
        except Exception:  # a nameless calendar is still a calendar
            name = ""
        try:
            components = tuple(str(c) for c in calendar.get_supported_components())
        except Exception:  # unknown means "may hold events"
            components = ()
        url = str(calendar.url)
        found.append(RemoteInfo(url, name or urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1], components))
    return found


class AccountService:
    def __init__(self, store: Store, profile_id: int, secrets: Secrets | None = None) -> None:
        self.store = store
        self.profile_id = profile_id
        self.secrets: Secrets = secrets or KeyringSecrets()

    # ---- accounts --------------------------------------------------------------------------

    def list(self) -> list[Account]:
        with self.store.lock:  # the app syncs on a worker thread over the same connection
            rows = self.store.conn.execute(
                "SELECT * FROM sync_accounts WHERE profile_id = ? ORDER BY id", (self.profile_id,)
            ).fetchall()
        return [_account(row) for row in rows]

    def get(self, name: str | None = None) -> Account:
        """The named account; without a name, the only one (a choice is needed with several)."""
        accounts = self.list()
        if name is None:
            if len(accounts) == 1:
                return accounts[0]
            if not accounts:
                raise NotFoundError("sync.no_account")
            raise ValidationError("sync.several_accounts", accounts=", ".join(a.name for a in accounts))
        wanted = name.strip().casefold()
        for account in accounts:
            if account.name.casefold() == wanted:
                return account
        if not accounts:
            raise NotFoundError("sync.no_account_named_none", name=name)
        raise NotFoundError("sync.no_account_named", name=name, accounts=", ".join(a.name for a in accounts))

    def add(self, url: str, username: str, name: str | None = None) -> Account:
        url = split_credentials(url)[0]
        if not urlsplit(url).scheme.startswith("http"):
            raise ValidationError("sync.bad_url", url=url)
        name = (name or urlsplit(url).hostname or "caldav").strip()
        if any(account.name.casefold() == name.casefold() for account in self.list()):
            raise ValidationError("sync.account_exists", name=name)
        with self.store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO sync_accounts(profile_id, name, url, username, created_at) VALUES (?, ?, ?, ?, ?)",
                (self.profile_id, name, url, username.strip(), utc_now_iso()),
            )
        return self.by_id(int(cur.lastrowid or 0))

    def remove(self, name: str) -> Account:
        """Forget the account and its mappings; local events stay where they are."""
        account = self.get(name)
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM sync_accounts WHERE id = ?", (account.id,))
        self.secrets.forget(account.url, account.username)
        return account

    def record_run(self, account: Account, status: dict[str, Any]) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE sync_accounts SET last_sync_at = ?, last_status = ? WHERE id = ?",
                (utc_now_iso(), json.dumps(status, ensure_ascii=False), account.id),
            )

    def by_id(self, account_id: int) -> Account:
        with self.store.lock:
            row = self.store.conn.execute("SELECT * FROM sync_accounts WHERE id = ?", (account_id,)).fetchone()
        if row is None:
            raise NotFoundError("sync.no_account_id", id=account_id)
        return _account(row)

    # ---- connection ------------------------------------------------------------------------

    def password(self, account: Account) -> str | None:
        return self.secrets.get(account.url, account.username)

    def client(self, account: Account) -> Any:
        return connect(account.url, account.username, self.password(account))

    def discover(self, account: Account) -> builtins.list[RemoteInfo]:
        mapped = {m.remote_url.rstrip("/"): m.calendar_name for m in self.mappings(account)}
        return [
            RemoteInfo(info.url, info.name, info.components, mapped.get(info.url.rstrip("/")))
            for info in discover_calendars(self.client(account))
        ]

    # ---- mappings --------------------------------------------------------------------------

    def mappings(self, account: Account | None = None) -> builtins.list[Mapping]:
        query = (
            "SELECT m.*, c.name AS calendar_name FROM sync_calendars m"
            " JOIN sync_accounts a ON a.id = m.account_id JOIN calendars c ON c.id = m.calendar_id"
            " WHERE a.profile_id = ?"
        )
        params: list[Any] = [self.profile_id]
        if account is not None:
            query += " AND m.account_id = ?"
            params.append(account.id)
        with self.store.lock:
            rows = self.store.conn.execute(query + " ORDER BY m.id", params).fetchall()
        return [_mapping(row) for row in rows]

    def mapping(self, mapping_id: int) -> Mapping:
        for mapping in self.mappings():
            if mapping.id == mapping_id:
                return mapping
        raise NotFoundError("sync.no_mapping_id", id=mapping_id)

    def map(self, account: Account, remote: RemoteInfo, local_name: str | None = None) -> Mapping:
        """Sync ``remote`` with the local calendar ``local_name`` (made if missing).

        One local calendar syncs with at most one remote calendar: two servers writing into
        one local calendar could not tell whose event a local edit belongs to.
        """
        calendars = CalendarService(self.store, self.profile_id)
        name = (local_name or remote.name).strip()
        wanted = name.casefold()
        local = next((c for c in calendars.list() if c.name.casefold() == wanted), None)
        if local is None:
            local = calendars.add(name)
        for existing in self.mappings():
            if existing.calendar_id == local.id and existing.remote_url.rstrip("/") != remote.url.rstrip("/"):
                raise ValidationError("sync.local_already_mapped", local=local.name, remote=existing.remote_name)
            if existing.account_id == account.id and existing.remote_url.rstrip("/") == remote.url.rstrip("/"):
                if existing.calendar_id == local.id:
                    return existing
                raise ValidationError("sync.remote_already_mapped", remote=remote.name, local=existing.calendar_name)
        with self.store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO sync_calendars(account_id, remote_url, remote_name, calendar_id, created_at) VALUES (?, ?, ?, ?, ?)",
                (account.id, remote.url, remote.name, local.id, utc_now_iso()),
            )
        return self.mapping(int(cur.lastrowid or 0))

    def unmap(self, mapping: Mapping) -> None:
        """Stop syncing; the local events stay, and are no longer deleted or pushed anywhere."""
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM sync_calendars WHERE id = ?", (mapping.id,))

    def read_only_calendars(self) -> set[int]:
        """Local calendars whose server calendar was read-only at the last sync: the app may
        show them read-only; sync never writes to them. (A row of ``settings`` of sync's own,
        not a user setting: ``SettingsService`` does not list it.)"""
        with self.store.lock:
            row = self.store.conn.execute(
                "SELECT value FROM settings WHERE profile_id = ? AND key = ?", (self.profile_id, READ_ONLY_KEY)
            ).fetchone()
        value = json.loads(row["value"]) if row is not None else []
        return {int(x) for x in value} if isinstance(value, list) else set()

    def set_read_only(self, mapping: Mapping, read_only: bool) -> None:
        known = self.read_only_calendars()
        if (mapping.calendar_id in known) == read_only:
            return
        known = known | {mapping.calendar_id} if read_only else known - {mapping.calendar_id}
        with self.store.transaction() as conn:
            conn.execute(
                "INSERT INTO settings(profile_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT(profile_id, key) DO UPDATE SET value = excluded.value",
                (self.profile_id, READ_ONLY_KEY, json.dumps(sorted(known))),
            )

    def save_position(self, mapping: Mapping, token: str | None, ctag: str | None) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "UPDATE sync_calendars SET sync_token = ?, ctag = ?, last_sync_at = ? WHERE id = ?",
                (token, ctag, utc_now_iso(), mapping.id),
            )


def sync_interval_minutes(store: Store, profile_id: int) -> int:
    """Minutes between automatic syncs in the app; 0 means only when asked."""
    from agent.services.settings import SettingsService

    try:
        return max(0, int(SettingsService(store, profile_id).get(INTERVAL_KEY) or 0))
    except (TypeError, ValueError):
        return 0


def set_sync_interval_minutes(store: Store, profile_id: int, minutes: int) -> None:
    from agent.services.settings import SettingsService

    if minutes < 0:
        raise ValidationError("sync.negative_interval")
    SettingsService(store, profile_id).set(INTERVAL_KEY, int(minutes))


def pick_remote(calendars: list[RemoteInfo], wanted: str) -> RemoteInfo:
    """A remote calendar by display name, last path segment or URL (any case)."""
    text = wanted.strip().rstrip("/").casefold()
    for info in calendars:
        candidates = {info.name.casefold(), info.url.rstrip("/").casefold(), info.url.rstrip("/").rsplit("/", 1)[-1].casefold()}
        if text in candidates:
            return info
    if not calendars:
        raise NotFoundError("sync.server_no_calendar_none", wanted=wanted)
    raise NotFoundError("sync.server_no_calendar", wanted=wanted, names=", ".join(info.name for info in calendars))


def _account(row: Any) -> Account:
    status = json.loads(row["last_status"]) if row["last_status"] else None
    return Account(row["id"], row["name"], row["url"], row["username"], row["last_sync_at"], status)


def _mapping(row: Any) -> Mapping:
    return Mapping(
        row["id"], row["account_id"], row["remote_url"], row["remote_name"], row["calendar_id"],
        row["calendar_name"], row["sync_token"], row["ctag"],
    )  # fmt: skip
