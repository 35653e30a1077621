""".ics files opened while the app runs go to the running window (issue 32).

A file manager runs ``richeng FILE.ics`` (``resources/richeng.desktop``) for a double-clicked
invitation. When a window on the same database is already open, the new process hands it the
paths and exits, and that window asks where to import them, as a drop does (an invitation, a
file with an iTIP METHOD, opens the invitation view instead: app/calendar/invitation_view.py);
otherwise the new process opens the window itself and from then on listens.

A Unix socket per user and database (in ``$XDG_RUNTIME_DIR``, else the temporary folder),
read with a ``QSocketNotifier``: no QtNetwork (which the bundle leaves out, ``build.spec``).
The message is one JSON list of absolute paths and a newline. A socket file left by a crashed
process refuses connections; the next window removes it and listens in its place.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import tempfile
from pathlib import Path

from PySide6.QtCore import QObject, QSocketNotifier, Signal, Slot

TIMEOUT_S = 1.0
MAX_MESSAGE = 1 << 20


def socket_path(db: Path) -> Path:
    folder = Path(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir())
    digest = hashlib.sha1(str(db.expanduser().resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return folder / f"richeng-{os.getuid()}-{digest}.sock"


def send_to_running(db: Path, paths: list[str]) -> bool:
    """Hand ``paths`` to a window already open on ``db``; False when there is none."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(TIMEOUT_S)
    try:
        client.connect(str(socket_path(db)))
        message = json.dumps([str(Path(path).resolve()) for path in paths]) + "\n"
        client.sendall(message.encode("utf-8"))
        return client.recv(16).startswith(b"ok")
    except OSError:
        return False
    finally:
        client.close()


class FileReceiver(QObject):
    """Listens for paths from later ``richeng FILE.ics`` runs; ``files_received`` has them."""

    files_received = Signal(list)

    def __init__(self, db: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = socket_path(db)
        self.server: socket.socket | None = None
        self.notifier: QSocketNotifier | None = None
        try:
            self._listen()
        except OSError:  # no socket here (a read-only runtime folder): files only open a new window
            self.close()

    def _listen(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(self.path))
                probe.close()
                return  # another window listens: it keeps the socket
            except ConnectionRefusedError:
                self.path.unlink()  # left by a process that is gone
            finally:
                probe.close()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(self.path))
        os.chmod(self.path, 0o600)
        server.listen(4)
        server.setblocking(False)
        self.server = server
        self.notifier = QSocketNotifier(server.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._accept)

    @Slot()
    def _accept(self) -> None:
        if self.server is None:
            return
        try:
            connection, _address = self.server.accept()
        except OSError:
            return
        with connection:
            connection.settimeout(TIMEOUT_S)
            data = b""
            try:
                while not data.endswith(b"\n") and len(data) < MAX_MESSAGE:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                paths = json.loads(data.decode("utf-8"))
                connection.sendall(b"ok\n")
            except (OSError, ValueError):
                return
        if isinstance(paths, list):
            self.files_received.emit([str(path) for path in paths if isinstance(path, str)])

    def close(self) -> None:
        if self.notifier is not None:
            self.notifier.setEnabled(False)
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(OSError):
                self.path.unlink()
        self.server = None
