"""The CalDAV servers the interop cases run on, one process per server for the whole package.

``SERVERS`` is the registry: a name (the test id) and the context manager that starts that
server in a folder and yields an ``InteropServer``. A server whose package is missing raises
``ServerMissing`` and every case on it skips with the line that installs it; one that is
installed but fails to start is an error, not a skip. Each case takes fresh calendars
(``InteropServer.new_calendar``), so sharing the process shares nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from tests.support.cyrus_server import running_cyrus
from tests.support.davical_server import running_davical
from tests.support.interop_server import InteropServer, ServerMissing
from tests.support.radicale_interop import running_radicale_interop
from tests.support.xandikos_server import running_xandikos

Starter = Callable[[Path], AbstractContextManager[InteropServer]]

SERVERS: dict[str, Starter] = {
    "radicale": running_radicale_interop,
    "xandikos": running_xandikos,
    "cyrus": running_cyrus,
    "davical": running_davical,
}


@pytest.fixture(scope="package", params=list(SERVERS))
def interop(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[InteropServer]:
    name = str(request.param)
    try:
        with SERVERS[name](tmp_path_factory.mktemp(name)) as running:
            yield running
    except ServerMissing as missing:
        pytest.skip(f"{missing.name} is not installed here; to run these tests: {missing.install}")
