"""CalDAV passwords and app tokens: the OS keyring, or the environment, never Richeng's files.

The keyring is optional. Headless machines often have none and some backends raise on every
call, so any keyring failure reads as "no password" and the caller is told where else to put
it. ``RICHENG_CALDAV_PASSWORD`` wins over the keyring because it is the explicit choice of
whoever started the process (CI, a script, the tests); ``RICHENG_CALDAV_KEYRING=0`` keeps
the keyring out entirely, so a test run can never prompt to unlock a desktop wallet.
"""

from __future__ import annotations

import logging
import os
from typing import Protocol

SERVICE = "richeng-caldav"
ENV_PASSWORD = "RICHENG_CALDAV_PASSWORD"
ENV_KEYRING = "RICHENG_CALDAV_KEYRING"

log = logging.getLogger(__name__)


def keyring_user(url: str, username: str) -> str:
    """One keyring entry per (server, user): two accounts on one server keep two secrets."""
    return f"{username}@{url.strip().rstrip('/')}"


class Secrets(Protocol):
    """Where account passwords come from; the engine and the CLI take any implementation."""

    def get(self, url: str, username: str) -> str | None: ...

    def put(self, url: str, username: str, password: str) -> bool: ...

    def forget(self, url: str, username: str) -> None: ...


def _keyring_enabled() -> bool:
    return os.environ.get(ENV_KEYRING, "1").strip().lower() not in ("0", "no", "off", "false")


class KeyringSecrets:
    """The default: environment variable first, then the OS keyring."""

    def get(self, url: str, username: str) -> str | None:
        env = os.environ.get(ENV_PASSWORD)
        if env:
            return env
        if not _keyring_enabled():
            return None
        try:
            import keyring

            value = keyring.get_password(SERVICE, keyring_user(url, username))
        except Exception as exc:  # NoKeyringError, D-Bus failures, locked wallets: all mean "none"
            log.debug("keyring lookup failed (%s); treating as no password", type(exc).__name__)
            return None
        return value or None

    def put(self, url: str, username: str, password: str) -> bool:
        """Store the password; False when there is no usable keyring (the caller says so)."""
        if not _keyring_enabled():
            return False
        try:
            import keyring

            keyring.set_password(SERVICE, keyring_user(url, username), password)
        except Exception as exc:
            log.debug("keyring store failed (%s)", type(exc).__name__)
            return False
        return True

    def forget(self, url: str, username: str) -> None:
        if not _keyring_enabled():
            return
        try:
            import keyring

            keyring.delete_password(SERVICE, keyring_user(url, username))
        except Exception:  # nothing stored, or no keyring: either way it is gone
            return


class MemorySecrets:
    """Passwords held in this process only: for tests and for one-off runs."""

    def __init__(self, passwords: dict[str, str] | None = None) -> None:
        self.passwords: dict[str, str] = dict(passwords or {})

    def get(self, url: str, username: str) -> str | None:
        return self.passwords.get(keyring_user(url, username)) or os.environ.get(ENV_PASSWORD) or None

    def put(self, url: str, username: str, password: str) -> bool:
        self.passwords[keyring_user(url, username)] = password
        return True

    def forget(self, url: str, username: str) -> None:
        self.passwords.pop(keyring_user(url, username), None)
