"""Starting the desktop app: options, the store (with honest errors), Qt, the main window."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import datetime

from agent import __version__


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="richeng", add_help=False)
    parser.add_argument("--db")
    parser.add_argument("--tz")
    parser.add_argument("--now")
    parser.add_argument("--lang", choices=["zh_CN", "en"])
    parser.add_argument("--quit-after", type=int, metavar="MS", help="close after MS milliseconds (smoke tests)")
    parser.add_argument("--offscreen", action="store_true", help="no display needed (smoke tests)")
    args, _unknown = parser.parse_known_args(list(argv))
    return args


def build_context(store, profile_id: int, tz: str | None, now: datetime | None):  # type: ignore[no-untyped-def]
    from agent.runtime.session import ChatSession
    from agent.services.settings import SettingsService
    from app.context import AppContext
    from app.model_loader import configured_model
    from app.operations import Operations

    settings = SettingsService(store, profile_id)
    clock = (lambda: now) if now is not None else None
    session = ChatSession(store, profile_id, configured_model(settings), tz=tz, clock=clock)
    return AppContext(store, profile_id, Operations(store, profile_id), settings, session, tz, clock)


def run(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from agent.errors import UserFacingError
    from agent.store.db import Store, default_db_path
    from agent.store.profiles import ensure_profile
    from app import i18n
    from app.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Richeng")
    app.setApplicationDisplayName("日程 Richeng")
    app.setApplicationVersion(__version__)
    app.setStyle("Fusion")
    try:
        store = Store(args.db or default_db_path())
        profile_id = ensure_profile(store)
    except UserFacingError as exc:
        QMessageBox.critical(None, "Richeng", str(exc))
        return 2
    ctx = build_context(store, profile_id, args.tz, datetime.fromisoformat(args.now) if args.now else None)
    language = args.lang or {"zh": "zh_CN", "en": "en"}.get(str(ctx.settings.get("language")))
    translator = i18n.install(app, language)  # noqa: F841 (kept alive by the app)
    window = MainWindow(ctx)
    window.show()
    if args.quit_after is not None:
        QTimer.singleShot(args.quit_after, app.quit)
    code = app.exec()
    store.close()
    return int(code)
