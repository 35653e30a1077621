"""One Radicale for the whole folder, and one fault proxy in front of it.

Starting Radicale costs about a second of a 2-core machine; every test takes fresh
calendars on it (``CalDavServer.new_calendar``), so sharing the process shares nothing else.
The proxy is reset (no fault) before each test that uses it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.caldav_server import CalDavServer, running_radicale
from tests.support.fault_proxy import FaultProxy


@pytest.fixture(scope="package")
def server() -> Iterator[CalDavServer]:
    with running_radicale() as running:
        yield running


@pytest.fixture(scope="package")
def _shared_proxy(server: CalDavServer) -> Iterator[FaultProxy]:
    proxy = FaultProxy(server.url, hold_s=10.0)
    yield proxy
    proxy.close()


@pytest.fixture
def proxy(_shared_proxy: FaultProxy) -> Iterator[FaultProxy]:
    _shared_proxy.inject(None)
    yield _shared_proxy
    _shared_proxy.inject(None)
