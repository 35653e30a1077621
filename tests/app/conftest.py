"""Fixtures for the app's tests: Qt runs offscreen, and the calendar area's and the chat
pane's fixtures (tests/support/app_fixtures.py, chat_fixtures.py) are registered here, so
a test names a fixture as a parameter and never imports it.

Every test ends in English: a test that installs the Chinese catalogue and only removes its
translator would leave ``i18n.ui_lang()`` at "zh", and the next file's error texts (rendered in
the interface language) would come out in Chinese, a failure that depends on test order."""

from __future__ import annotations

import os
from collections.abc import Iterator

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication

from app import i18n
from tests.support.app_fixtures import area, cal_ctx, cal_store, profile
from tests.support.chat_fixtures import app_ctx, app_store, make_pane


@pytest.fixture(autouse=True)
def _interface_language_reset() -> Iterator[None]:
    yield
    app = QCoreApplication.instance()
    if app is not None:
        i18n.uninstall(app)


__all__ = ["app_ctx", "app_store", "area", "cal_ctx", "cal_store", "make_pane", "profile"]
