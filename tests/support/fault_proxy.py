"""A loopback HTTP proxy that breaks chosen requests on their way to a real server.

The sync tests put it between the client and Radicale: the client's account URL is the
proxy's, and the proxy forwards every request to the same path on the real server, except
those a ``Fault`` names, which it breaks the way real networks and proxies do. Requests are
sorted into the kinds a sync sends (``KINDS``), so a test can say "every calendar-multiget
REPORT answers 502" without knowing when the engine sends one.

Modes (``MODES``), and whether the real server still sees the request:

* ``500`` / ``502`` / ``503``: the proxy answers that status itself, with an empty body (not
  forwarded), as a reverse proxy does when its backend fails;
* ``timeout``: forwarded (the server acts on it), then the answer is held until the client
  gives up and closes the connection — "the write happened, the client never heard";
* ``drop``: the connection is closed without an answer (not forwarded);
* ``truncated``: forwarded; the answer is cut in half. A body is cut with a Content-Length
  that matches the cut, so nothing at the HTTP level says it is short (the worst case); an
  answer without a body is cut inside its headers and the connection closed;
* ``garbage``: a ``200 OK`` HTML page instead of the server's answer (not forwarded), as a
  captive portal or a misconfigured proxy sends.

Everything is bounded: a held answer is released after ``hold_s`` at most, and the proxy
shuts itself down after ``lifetime_s`` even if a test forgets to close it.
"""

from __future__ import annotations

import http.client
import select
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

KINDS = ("PROPFIND", "sync-collection", "multiget", "GET", "PUT", "DELETE")
MODES = ("500", "502", "503", "timeout", "drop", "truncated", "garbage")
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}
GARBAGE = (
    b"<html><head><title>Service Unavailable</title></head>"
    b"<body><h1>The service is temporarily unavailable.</h1><p>Please try again later.</p></body></html>"
)


def kind_of(method: str, body: bytes) -> str:
    """The request kind a sync sends: the method, with REPORTs told apart by their body."""
    if method == "REPORT":
        if b"sync-collection" in body:
            return "sync-collection"
        if b"calendar-multiget" in body:
            return "multiget"
        return "REPORT"
    return method


@dataclass(frozen=True)
class Fault:
    """Break requests of ``kinds`` with ``mode``; ``count`` of them (None: every one)."""

    kinds: frozenset[str]
    mode: str
    count: int | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown fault mode {self.mode!r}")


@dataclass(frozen=True)
class Upstream:
    """The real server's answer, read whole."""

    status: int
    reason: str
    headers: dict[str, str]
    body: bytes


class FaultProxy:
    """A reverse proxy on 127.0.0.1 in front of ``upstream`` (``http://host:port/``)."""

    def __init__(self, upstream: str, *, hold_s: float = 10.0, lifetime_s: float = 900.0) -> None:
        parts = urlsplit(upstream)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.hold_s = hold_s
        self._fault: Fault | None = None
        self._left: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.seen: list[str] = []  # kind of every request, in order
        self.hits: list[tuple[str, str]] = []  # (kind, mode) of every request broken
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        self._timer = threading.Timer(lifetime_s, self.close)
        self._timer.daemon = True
        self._timer.start()

    def inject(self, fault: Fault | None) -> None:
        """Break what ``fault`` names from now on (None: forward everything)."""
        with self._lock:
            self._fault = fault
            self._left = fault.count if fault else None
            self.seen.clear()
            self.hits.clear()

    def _decide(self, kind: str) -> str | None:
        with self._lock:
            self.seen.append(kind)
            fault = self._fault
            if fault is None or kind not in fault.kinds or self._left == 0:
                return None
            if self._left is not None:
                self._left -= 1
            self.hits.append((kind, fault.mode))
            return fault.mode

    def forward(self, method: str, path: str, headers: list[tuple[str, str]], body: bytes) -> Upstream:
        """Send the request to the real server; its whole answer."""
        conn = http.client.HTTPConnection(*self.upstream, timeout=60)
        try:
            sent = {name: value for name, value in headers if name.lower() not in HOP_BY_HOP | {"host"}}
            sent["Host"] = f"{self.upstream[0]}:{self.upstream[1]}"
            sent["Content-Length"] = str(len(body))
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            kept = {k: v for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP}
            return Upstream(response.status, response.reason, kept, response.read())
        finally:
            conn.close()

    def hold(self, sock: socket.socket) -> None:
        """Wait until the client closes ``sock`` (it timed out) or ``hold_s`` passes."""
        waited = 0.0
        while waited < self.hold_s and not self._stop.is_set():
            readable, _, _ = select.select([sock], [], [], 0.05)
            waited += 0.05
            if readable:
                try:
                    if not sock.recv(65536, socket.MSG_PEEK):
                        return
                except OSError:
                    return
                return  # the client sent more: it gave up on this answer

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()


def _handler_for(proxy: FaultProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a client's connection pool expects

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: a test's output is its assertions."""

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            mode = proxy._decide(kind_of(self.command, body))
            if mode in ("500", "502", "503"):
                self._answer(int(mode), {}, b"")
            elif mode == "garbage":
                self._answer(200, {"Content-Type": "text/html; charset=utf-8"}, GARBAGE)
            elif mode == "drop":
                self._drop()
            else:
                upstream = proxy.forward(self.command, self.path, list(self.headers.items()), body)
                data, headers = upstream.body, dict(upstream.headers)
                if mode == "timeout":
                    proxy.hold(self.connection)
                    self._drop()
                elif mode == "truncated" and data:
                    headers.pop("Content-Length", None)
                    self._answer(upstream.status, headers, data[: len(data) // 2])
                elif mode == "truncated":
                    head = f"HTTP/1.1 {upstream.status} {upstream.reason}\r\n" + "".join(
                        f"{k}: {v}\r\n" for k, v in headers.items()
                    )
                    self.wfile.write(head[: len(head) // 2].encode("latin-1"))
                    self._drop()
                else:
                    self._answer(upstream.status, headers, data, reason=upstream.reason)

        def _answer(self, status: int, headers: dict[str, str], body: bytes, reason: str | None = None) -> None:
            self.send_response_only(status, reason)
            for name, value in headers.items():
                if name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()

        def _drop(self) -> None:
            self.close_connection = True
            try:
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_HEAD = do_POST = do_MKCALENDAR = _any
        do_PROPPATCH = do_MKCOL = _any

    return Handler


@contextmanager
def fault_proxy(upstream: str, *, hold_s: float = 10.0) -> Iterator[FaultProxy]:
    """A ``FaultProxy`` for the length of a ``with`` block."""
    proxy = FaultProxy(upstream, hold_s=hold_s)
    try:
        yield proxy
    finally:
        proxy.close()
