"""How one CalDAV request can fail, in the engine's terms, and its failure as a line to report.

``remote`` turns whatever the library or the network raises into one of these:

* ``Stale`` (412: someone else wrote first), ``Gone`` (404/410), ``Exists`` (a create found
  the UID taken) — outcomes the engine decides on;
* ``RemoteError`` — this request failed; reported for its item, the rest goes on;
* ``Unavailable`` — the server cannot be used now (no connection, a timeout, a cut answer,
  a refused password, an answer not whole by its deadline, ``RateLimited``: a 429 or a 503
  with Retry-After): the engine stops this calendar and says so once, since every further
  request would fail the same way;
* ``Outside`` — a resource named outside the collection (another origin or collection): no
  request is ever built for it (issue 29).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from agent.messages.catalogue import is_code, render


class RemoteError(Exception):
    """The server refused or failed one request; the message is fit to report.

    Like a ``UserFacingError`` it carries a catalogue code and its parameters (``sync.*``):
    ``str()`` is the English line, ``text(lang)`` the reader's own."""

    def __init__(self, code: str, /, *, status: int | None = None, preconditions: Iterable[str] = (), **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.text("en"))
        self.status = status
        self.preconditions = tuple(preconditions)

    def text(self, lang: str = "en") -> str:
        return render(self.code, lang, **self.params) if is_code(self.code) else self.code

    def __str__(self) -> str:
        return self.text("en")


class Unavailable(RemoteError):
    """The server cannot be talked to now; nothing more is tried for this calendar this run."""


class RateLimited(Unavailable):
    """429, or 503 with Retry-After: the calendar stops for this run, its token kept."""


class Stale(RemoteError):
    """Precondition failed: the server's copy is not the version we last saw."""


class Gone(RemoteError):
    """The resource is not on the server (any more)."""


class Exists(RemoteError):
    """A create found something already at that URL, or the UID taken under another name."""


class Outside(RemoteError):
    """A resource named outside the calendar collection: another origin, another collection,
    a ``..`` or an encoded slash. Nothing is ever sent there (issue 29: credentials went)."""


def describe_failure(exc: BaseException) -> tuple[str, dict[str, Any]]:
    """A failure as a catalogue code and its parameters: ours as they are, others with
    their HTTP status and their own text (capped)."""
    if isinstance(exc, RemoteError):
        return exc.code, exc.params
    status = getattr(exc, "status", None)
    reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
    text = " ".join(str(reason).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return ("sync.http_error", {"http": status, "text": text}) if status else ("sync.error_text", {"text": text})


def describe_error(exc: BaseException) -> str:
    """One line for a report, in English (``describe_failure`` for the code)."""
    code, params = describe_failure(exc)
    return render(code, "en", **params)


def describe_transport(exc: BaseException, url: str, timeout: object) -> tuple[str, dict[str, Any]]:
    """A failed connection in a few words (a code and its parameters); the HTTP library's
    own text is a paragraph."""
    text = " ".join(str(exc).split()).lower()
    name = type(exc).__name__.lower()
    host = urlsplit(url).netloc or url
    if "timeout" in name or "timed out" in text:
        return "sync.no_answer", {"host": host, "timeout": timeout}
    if "refused" in text:
        return "sync.refused", {"host": host}
    if "ssl" in name or "certificate" in text or "ssl" in text:
        return "sync.tls_failed", {"host": host}
    if any(word in text for word in ("name or service", "nodename", "getaddrinfo", "name resolution")):
        return "sync.dns_failed", {"host": host}
    if any(word in text for word in ("closed", "aborted", "reset", "incomplete", "chunk", "protocol", "broken pipe")):
        return "sync.cut_off", {"host": host}
    return "sync.transport_failed", {"host": host, "error": type(exc).__name__, "text": " ".join(str(exc).split())[:120]}


def classify_failure(exc: RemoteError) -> RemoteError:
    """A refused update or delete, as the engine decides on it."""
    if exc.status == 412:
        return Stale(exc.code, status=412, **exc.params)
    if exc.status in (404, 410):
        return Gone(exc.code, status=exc.status, **exc.params)
    return exc
