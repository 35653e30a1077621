"""Fixtures for the app's tests: Qt runs offscreen, and the calendar area's and the chat
pane's fixtures (tests/support/app_fixtures.py, chat_fixtures.py) are registered here, so
a test names a fixture as a parameter and never imports it."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.support.app_fixtures import area, cal_ctx, cal_store, profile
from tests.support.chat_fixtures import app_ctx, app_store, make_pane

__all__ = ["app_ctx", "app_store", "area", "cal_ctx", "cal_store", "make_pane", "profile"]
