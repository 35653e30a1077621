"""A hostile CalDAV server for the sync tests: the fault proxy's idea, turned attacker.

``HostileServer`` forwards every request to a real Radicale, as ``FaultProxy`` does, except
those its ``attack`` takes: an attack sees each request (method, path, kind, body) and may
answer it itself — with a foreign href in a listing, a 412 and then somebody else's event,
a body that trickles or never ends, a zone bomb, bytes that are not UTF-8, a 429, a 207
that carries a refusal, a 404 to a write on a "read-only" calendar. ``Elsewhere`` is a
second loopback origin that records every request it gets: a sync that sends it anything
(let alone an ``Authorization`` header) has been tricked.

Everything is bounded: a trickle or an endless body stops when the client hangs up or after
``STREAM_LIMIT_S``; the servers shut themselves down after ``lifetime_s``.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit
from xml.etree import ElementTree

from tests.support.fault_proxy import HOP_BY_HOP, kind_of

STREAM_LIMIT_S = 20.0  # a trickle or an endless body never outlives a test that hangs up
STREAM_LIMIT_BYTES = 48 * 1024 * 1024  # nor sends more than this


@dataclass
class Request:
    method: str
    path: str
    kind: str
    body: bytes
    headers: dict[str, str]

    @property
    def authorised(self) -> bool:
        return any(name.lower() == "authorization" for name in self.headers)


@dataclass
class Answer:
    """What an attack sends back. ``trickle``: seconds between single body bytes;
    ``endless``: send ``body`` over and over without a length, until the client hangs up."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    trickle: float | None = None
    endless: bool = False


Attack = Callable[["HostileServer", Request], Answer | None]


def kind(request_method: str, body: bytes, headers: dict[str, str]) -> str:
    """``fault_proxy.kind_of``, with the three PROPFINDs told apart."""
    found = kind_of(request_method, body)
    if found != "PROPFIND":
        return found
    if b"current-user-privilege-set" in body:
        return "PROPFIND-privileges"
    if b"getctag" in body:
        return "PROPFIND-ctag"
    return "PROPFIND"


class _Server:
    """A threading HTTP server on 127.0.0.1 with a handler built for its owner."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], lifetime_s: float) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.stopped = threading.Event()
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self._timer = threading.Timer(lifetime_s, self.close)
        self._timer.daemon = True
        self._timer.start()

    def close(self) -> None:
        if self.stopped.is_set():
            return
        self.stopped.set()
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()


class Elsewhere(_Server):
    """Another origin: records every request; answers each with an event, to tempt a store."""

    EVENT = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//evil//EN\r\nBEGIN:VEVENT\r\nUID:stolen\r\n"
        b"DTSTAMP:20260101T000000Z\r\nDTSTART:20270104T010000Z\r\nDTEND:20270104T020000Z\r\n"
        b"SUMMARY:from elsewhere\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )

    def __init__(self, lifetime_s: float = 600.0) -> None:
        self.requests: list[Request] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                """Quiet."""

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                owner.requests.append(Request(self.command, self.path, self.command, body, dict(self.headers.items())))
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar")
                self.send_header("Content-Length", str(len(Elsewhere.EVENT)))
                self.end_headers()
                self.wfile.write(Elsewhere.EVENT)

            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = _any

        super().__init__(Handler, lifetime_s)


class HostileServer(_Server):
    """A reverse proxy to ``upstream`` whose ``attack`` may answer any request itself."""

    def __init__(self, upstream: str, lifetime_s: float = 600.0) -> None:
        parts = urlsplit(upstream)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.attack: Attack | None = None
        self.log: list[Request] = []  # every request, in order
        self.hits: list[Request] = []  # the requests an attack answered
        self.sent_bytes = 0  # by trickles and endless bodies, to show they ran
        self._lock = threading.Lock()
        super().__init__(_handler_for(self), lifetime_s)

    def arm(self, attack: Attack | None) -> None:
        with self._lock:
            self.attack = attack
            self.log.clear()
            self.hits.clear()

    def forward(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(*self.upstream, timeout=60)
        try:
            sent = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP | {"host", "accept-encoding"}}
            sent["Host"] = f"{self.upstream[0]}:{self.upstream[1]}"
            sent["Content-Length"] = str(len(body))
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            kept = {k: v for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP}
            return response.status, response.reason, kept, response.read()
        finally:
            conn.close()

    def upstream_get(self, path: str, headers: dict[str, str]) -> bytes:
        return self.forward("GET", path, headers, b"")[3]


def _handler_for(owner: HostileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = dict(self.headers.items())
            request = Request(self.command, self.path, kind(self.command, body, headers), body, headers)
            with owner._lock:
                owner.log.append(request)
                attack = owner.attack
            answer = attack(owner, request) if attack else None
            if answer is None:
                status, reason, got, data = owner.forward(self.command, self.path, headers, body)
                self._send(Answer(status, data, got), reason)
                return
            with owner._lock:
                owner.hits.append(request)
            self._send(answer)

        def _send(self, answer: Answer, reason: str | None = None) -> None:
            self.send_response_only(answer.status, reason)
            for name, value in answer.headers.items():
                if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(name, value)
            if answer.endless:
                self.send_header("Connection", "close")
                self.end_headers()
                self._stream(lambda: answer.body or b"x" * 65536, pause=0.0)
                return
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            if answer.trickle is None:
                self.wfile.write(answer.body)
                self.wfile.flush()
                return
            data = iter(answer.body)
            self._stream(lambda: bytes([next(data)]), pause=answer.trickle)

        def _stream(self, piece: Callable[[], bytes], pause: float) -> None:
            """Send ``piece()`` after ``piece()`` until the client hangs up or time runs out."""
            self.close_connection = True
            ends = time.monotonic() + STREAM_LIMIT_S
            try:
                sent = 0
                while time.monotonic() < ends and not owner.stopped.is_set() and sent < STREAM_LIMIT_BYTES:
                    chunk = piece()
                    self.wfile.write(chunk)
                    self.wfile.flush()
                    owner.sent_bytes += len(chunk)
                    sent += len(chunk)
                    if pause:
                        time.sleep(pause)
            except (OSError, StopIteration):
                pass
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

        do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_HEAD = do_POST = do_MKCALENDAR = _any
        do_PROPPATCH = do_MKCOL = _any

    return Handler


def multistatus(*responses: str, token: str | None = None) -> bytes:
    """A DAV:multistatus document around ``responses`` (each a ``<D:response>``)."""
    sync = f"<D:sync-token>{token}</D:sync-token>" if token else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" '
        'xmlns:C="urn:ietf:params:xml:ns:caldav">' + "".join(responses) + sync + "</D:multistatus>"
    ).encode()


def member(href: str, etag: str = '"x"', status: int = 200) -> str:
    """One listing entry with its ETag."""
    return (
        f"<D:response><D:href>{href}</D:href><D:propstat><D:prop><D:getetag>{etag}</D:getetag></D:prop>"
        f"<D:status>HTTP/1.1 {status} OK</D:status></D:propstat></D:response>"
    )


def add_members(answer: bytes, *entries: str) -> bytes:
    """A real listing (the server's multistatus) with ``entries`` added before its sync-token."""
    tree = ElementTree.fromstring(answer)
    extra = ElementTree.fromstring(multistatus(*entries))
    token = tree.find("{DAV:}sync-token")
    at = list(tree).index(token) if token is not None else len(tree)
    for offset, element in enumerate(list(extra)):
        tree.insert(at + offset, element)
    return ElementTree.tostring(tree, xml_declaration=True, encoding="utf-8")
