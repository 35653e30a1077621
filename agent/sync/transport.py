"""Bounds on every HTTP exchange a sync makes: an overall deadline and a body cap.

The HTTP library's timeout is per read: a server that sends one byte every two seconds
never trips it, and a body has no size limit, so a hostile or broken server could hold a
sync forever or fill memory (issue 29: 200 s and counting; 1.8 GB for a 400 MB body). So
the ``caldav`` client's session is wrapped (``bound``): each request runs on a worker
thread the caller waits for no longer than what is left of the request's deadline *and*
of the run's; the body is read as a stream and given up on past ``Limits.body_bytes``.

A request past its deadline is abandoned: the caller gets ``DeadlinePassed`` at once, the
worker stops at its next chunk (or when the per-read timeout ends a stalled read), and the
client gets a fresh session, so a connection the worker still holds is never reused. The
engine stops the calendar on ``DeadlinePassed`` and keeps its sync token; a body over the
cap is ``BodyTooLarge``, that request's failure only.

Deadlines are monotonic-clock arithmetic for the running process; tests make them small
(``Limits``) and assert on the error, not on how long it took.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Any

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """How long and how much one sync may take. The defaults suit a real server over a slow
    line; a hostile-server test makes them small."""

    request_s: float = 120.0  # one request, from sending to the last byte of the answer
    run_s: float = 1800.0  # one whole run (every account, every calendar)
    read_s: float = 30.0  # the library's own per-read timeout
    body_bytes: int = 50 * MB  # one answer holding calendar data: a GET, a multiget batch
    # A listing (PROPFIND, sync REPORT) is parsed into a tree of one element per property:
    # 66 MB of hrefs took 547 MB to read, so its pages are capped lower (24 MB: ~140,000
    # resources, ~200 MB to read; Radicale lists a calendar in one page).
    listing_bytes: int = 24 * MB
    listing_entries: int = 200_000  # resources one calendar's listing may name


DEFAULT_LIMITS = Limits()


class DeadlinePassed(Exception):
    """The request, or the run, ran out of time before the answer was whole."""

    def __init__(self, host: str, seconds: float) -> None:
        super().__init__(f"{host}: no whole answer within {seconds:g} s")
        self.host = host
        self.seconds = seconds


class BodyTooLarge(Exception):
    """The answer's body is larger than ``Limits.body_bytes``; it was not read whole."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the answer is larger than {limit} bytes")
        self.limit = limit


class BoundedSession:
    """Stands in for the client's HTTP session: ``request`` with a deadline and a body cap.

    ``run_deadline`` (a ``time.monotonic()`` value, or None) is shared by every request of
    one run; ``SyncEngine`` sets it when the run starts.
    """

    def __init__(self, client: Any, limits: Limits, run_deadline: float | None = None) -> None:
        self.client = client
        self.inner = client.session
        self.limits = limits
        self.run_deadline = run_deadline

    def __getattr__(self, name: str) -> Any:  # anything else the client asks of its session
        return getattr(self.inner, name)

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        from urllib.parse import urlsplit

        limit = self.limits.request_s
        now = time.monotonic()
        left = limit if self.run_deadline is None else min(limit, self.run_deadline - now)
        host = urlsplit(url).netloc or url
        if left <= 0:
            raise DeadlinePassed(host, self.limits.run_s)
        kwargs["stream"] = True
        kwargs["timeout"] = min(self.limits.read_s, max(left, 0.05))
        stop = threading.Event()
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["response"] = self._exchange(method, url, stop, kwargs)
            except BaseException as exc:  # handed to the caller, whatever it is
                box["error"] = exc

        worker = threading.Thread(target=work, name="sync-request", daemon=True)
        worker.start()
        worker.join(left)
        if worker.is_alive():
            stop.set()
            self._renew()
            raise DeadlinePassed(host, limit if left == limit else self.limits.run_s)
        if "error" in box:
            raise box["error"]
        return box["response"]

    def _exchange(self, method: str, url: str, stop: threading.Event, kwargs: dict[str, Any]) -> Any:
        response = self.inner.request(method, url, **kwargs)
        cap = self.limits.listing_bytes if _is_listing(method, kwargs.get("data")) else self.limits.body_bytes
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > cap:
            response.close()
            raise BodyTooLarge(cap)
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_content(chunk_size=256 * 1024):
            if stop.is_set():
                response.close()
                raise DeadlinePassed(url, self.limits.request_s)
            size += len(chunk)
            if size > cap:
                response.close()
                raise BodyTooLarge(cap)
            chunks.append(chunk)
        response._content = b"".join(chunks)
        response._content_consumed = True
        return response

    def _renew(self) -> None:
        """A fresh session for the client: the abandoned worker may still hold a connection."""
        from caldav.lib.http_sync import requests

        old = self.inner
        self.inner = requests.Session()
        with contextlib.suppress(Exception):  # closing is best effort; the worker may be inside it
            old.close()


def _is_listing(method: str, body: Any) -> bool:
    """A PROPFIND or a sync-collection REPORT: an answer of hrefs and ETags, no calendar data."""
    if method == "PROPFIND":
        return True
    return method == "REPORT" and isinstance(body, (bytes, str)) and "sync-collection" in str(body[:300])


def bound(client: Any, limits: Limits, run_deadline: float | None) -> Any:
    """``client`` with its session bounded (see the module docstring); idempotent."""
    session = getattr(client, "session", None)
    if session is None:
        return client
    timeout = getattr(client, "timeout", None)
    if isinstance(timeout, (int, float)) and 0 < timeout < limits.read_s:  # a client made impatient stays so
        limits = dataclasses.replace(limits, read_s=float(timeout))
    if isinstance(session, BoundedSession):
        session.limits = limits
        session.run_deadline = run_deadline
    else:
        client.session = BoundedSession(client, limits, run_deadline)
    return client
