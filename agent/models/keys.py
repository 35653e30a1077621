"""API keys live in the OS keyring or the environment, never in Richeng's files.

Keys are stored per endpoint (the base URL) so a DeepSeek key is never sent to DashScope. The
keyring is optional: headless Linux boxes often have none, and some backends raise on every
call, so any keyring failure reads as "no key" and the environment is consulted next.
"""

from __future__ import annotations

import logging
import os

from agent.errors import UserFacingError

SERVICE = "richeng"
ENV_VARS = ("RICHENG_API_KEY", "OPENAI_API_KEY")
# Keyless local servers (Ollama, llama.cpp, LM Studio) ignore the key but the SDK demands one.
PLACEHOLDER_KEY = "sk-no-key-required"

log = logging.getLogger(__name__)


def normalize_base_url(base_url: str) -> str:
    """One spelling per endpoint, so a key stored for ``.../v1/`` is found for ``.../v1``."""
    return base_url.strip().rstrip("/")


def keyring_key(base_url: str) -> str | None:
    try:
        import keyring

        key = keyring.get_password(SERVICE, normalize_base_url(base_url))
    except Exception as exc:  # NoKeyringError, D-Bus failures, locked wallets ... all mean "none"
        log.debug("keyring lookup failed (%s); treating as no key", type(exc).__name__)
        return None
    return key or None


def env_key() -> str | None:
    for var in ENV_VARS:
        value = os.environ.get(var, "").strip()
        if value:
            return value
    return None


def get_api_key(base_url: str) -> str | None:
    """The key for this endpoint: keyring first (set in the app), then the environment."""
    return keyring_key(base_url) or env_key()


def resolve_api_key(base_url: str) -> tuple[str, str]:
    """(key, where it came from); falls back to a placeholder so keyless servers still work."""
    key = keyring_key(base_url)
    if key:
        return key, "keyring"
    key = env_key()
    if key:
        return key, "environment"
    return PLACEHOLDER_KEY, "none"


def store_api_key(base_url: str, key: str) -> None:
    """Save a key for an endpoint from the settings dialog; raises a one-line error if no keyring."""
    key = key.strip()
    if not key:
        raise UserFacingError("models.key_empty")
    try:
        import keyring

        keyring.set_password(SERVICE, normalize_base_url(base_url), key)
    except Exception as exc:
        raise UserFacingError("models.keyring_failed", error_type=type(exc).__name__, env=ENV_VARS[0]) from None


def delete_api_key(base_url: str) -> bool:
    """Forget a stored key; False when there was none or no keyring to ask."""
    try:
        import keyring

        keyring.delete_password(SERVICE, normalize_base_url(base_url))
    except Exception:
        return False
    return True


def redact(text: str, secret: str | None) -> str:
    """Scrub a key (and its common masked forms' visible head) out of a server's error text."""
    if not secret or secret == PLACEHOLDER_KEY:
        return text
    text = text.replace(secret, "***")
    if len(secret) >= 12:
        text = text.replace(secret[:8], "***")
    return text
