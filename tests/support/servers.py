"""Local servers the tests start as real processes (Radicale, llama_cpp.server): a free port,
waiting until one answers, and stopping it. Written once for both."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_answering(
    answers: Callable[[], bool],
    process: subprocess.Popen[bytes] | subprocess.Popen[str],
    *,
    name: str,
    timeout_s: float,
    poll_s: float,
    log: Callable[[], str],
) -> None:
    """Return once ``answers()``; raise with the server's log when it exits first or stays silent.

    The deadline only bounds a start that hangs; no test's outcome depends on how long it took."""
    deadline = time.monotonic() + timeout_s
    while not answers():
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited early:\n{log()[-2000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not answer within {timeout_s:.0f} s")
        time.sleep(poll_s)


def stop(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """Terminate, and kill what does not stop within ten seconds."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
