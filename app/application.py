"""Starting the desktop app: options, the store (with honest errors), Qt, the main window."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from agent import __version__

if TYPE_CHECKING:  # imported where used at run time: start-up loads Qt and the store late
    from zoneinfo import ZoneInfo

    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QWidget

    from agent.runtime.session import ChatSession
    from agent.store.db import Store
    from app.context import AppContext
    from app.main_window import MainWindow

FINISH_STARTUP_BY_MS = 2000  # chat, sync and reminders are built by then even without a paint
IMPORTED_AT = time.perf_counter()  # start-up reports fall back to this where /proc is missing


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="richeng", add_help=False)
    parser.add_argument("--db")
    parser.add_argument("--tz")
    parser.add_argument("--now")
    parser.add_argument("--lang", choices=["zh_CN", "en"])
    parser.add_argument("--quit-after", type=int, metavar="MS", help="close after MS milliseconds (smoke tests)")
    parser.add_argument("--offscreen", action="store_true", help="no display needed (smoke tests)")
    parser.add_argument("files", nargs="*", help=".ics files to import (a double-click in a file manager)")
    parser.add_argument(
        "--report-startup",
        action="store_true",
        help="print the ms from process start to the window's first paint, then quit (benchmarks)",
    )
    args, _unknown = parser.parse_known_args(list(argv))
    return args


def build_context(store: Store, profile_id: int, tz: str | None, now: datetime | None) -> AppContext:
    from agent.services.settings import SettingsService
    from app.context import AppContext
    from app.write_path import Operations

    settings = SettingsService(store, profile_id)
    clock = (lambda: now) if now is not None else None
    if clock is not None:  # --now reaches the store too: its journal stamps and backup days
        store.clock = clock

    def make_session() -> ChatSession:
        """The chat runtime loads when the chat pane first needs it, not before the first paint."""
        from agent.runtime.session import ChatSession
        from app.model_loader import configured_model

        return ChatSession(store, profile_id, configured_model(settings), tz=tz, clock=clock)

    return AppContext(store, profile_id, Operations(store, profile_id), settings, make_session, tz, clock)


def qt_option_value(qt_args: Sequence[str], option: str) -> str | None:
    """The value Qt's ``option`` (``-platform``) is given, as ``-platform NAME`` or
    ``-platform=NAME``; the last one wins, as in Qt. None when it is not given."""
    from app.launcher import qt_option_name

    value = None
    for index, arg in enumerate(qt_args):
        if qt_option_name(arg) == option:
            if "=" in arg:
                value = arg.split("=", 1)[1]
            elif index + 1 < len(qt_args):
                value = qt_args[index + 1]
    return value


def pretend_now(value: str | None, tz: ZoneInfo | None) -> datetime | None:
    """``--now`` read as the CLI reads it (``agent.timesym.pretend_now``, loaded only when
    given): without an offset, wall time in ``tz`` (None: the machine's zone)."""
    if value is None:
        return None
    from agent.timesym.pretend_now import read_now

    return read_now(value, tz)


def run(argv: Sequence[str]) -> int:
    from app.launcher import qt_option_name, split_qt_options

    app_argv, qt_args = split_qt_options(argv)  # Qt's own options (-style, -reverse ...) go to QApplication
    args = parse_args(app_argv)
    from agent.errors import UserFacingError
    from agent.services.settings import zone

    try:  # refused before a window opens, in one line as the CLI does
        tz = zone(args.tz) if args.tz is not None else None
        # The CLI's reading (offset-less = wall time in --tz, else the machine's zone) until
        # the store is open; then again in the zone in Settings when --tz is not given.
        now = pretend_now(args.now, tz)
    except UserFacingError as exc:
        print(f"richeng: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    files = [path for path in args.files if path.lower().endswith(".ics")]
    if files:  # a window already open on this database imports them (app/single_instance.py)
        from agent.store.file_check import default_db_path
        from app.single_instance import send_to_running

        if send_to_running(Path(args.db or default_db_path()), files):
            return 0
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from app.display import display_problem, missing_xcb_hint

    environ = dict(os.environ)  # as Qt will read it: -platform wins over QT_QPA_PLATFORM, -display over DISPLAY
    for option, variable in (("-platform", "QT_QPA_PLATFORM"), ("-display", "DISPLAY")):
        value = qt_option_value(qt_args, option)
        if value is not None:
            environ[variable] = value
    problem = display_problem(environ, sys.platform)
    if problem is not None:  # Qt would abort (SIGABRT) with a page about plugins
        print(problem, file=sys.stderr)
        return 2
    hint = missing_xcb_hint(environ, sys.platform)
    if hint is not None:
        print(hint, file=sys.stderr)
    from PySide6.QtWidgets import QApplication, QMessageBox

    from agent.store.db import Store
    from agent.store.file_check import default_db_path
    from agent.store.profiles import ensure_profile
    from app import i18n
    from app.main_window import MainWindow

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([*sys.argv[:1], *qt_args])
    app.setApplicationName("Richeng")
    app.setApplicationDisplayName("日程 Richeng")
    app.setApplicationVersion(__version__)
    if not any(qt_option_name(arg) == "-style" for arg in qt_args):
        app.setStyle("Fusion")  # the app's look, unless -style asked for another
    from agent.store.file_check import DamagedStoreError

    try:
        try:
            store = Store(args.db or default_db_path())
        except DamagedStoreError as exc:
            from agent.store.db import local_now
            from app.damaged_file import ask_with_buttons, offer_repair

            repaired = offer_repair(exc, ask_with_buttons(QMessageBox), now or local_now(),
                                    lambda text: QMessageBox.information(None, "日程 Richeng", text))  # fmt: skip
            if repaired is None:
                return 2
            store = repaired
        profile_id = ensure_profile(store, calendar_name=i18n.default_calendar_name(args.lang))  # a new profile only
    except UserFacingError as exc:
        QMessageBox.critical(None, "Richeng", i18n.error_text(exc))
        return 2
    if tz is None:
        from agent.services.settings import SettingsService

        now = pretend_now(args.now, zone(SettingsService(store, profile_id).timezone_name()))
    ctx = build_context(store, profile_id, args.tz, now)
    if args.lang:  # the whole window speaks --lang, calendar day names included (not stored)
        ctx.settings.override("language", "zh" if args.lang.startswith("zh") else "en")
    language = args.lang or {"zh": "zh_CN", "en": "en"}.get(str(ctx.settings.get("language")))
    translator = i18n.install(app, language)  # noqa: F841 (kept alive by the app)
    theme = str(ctx.settings.get("theme") or "system")
    if theme != "system":  # Settings → General → Appearance (app/theme.py)
        from app.theme import apply_theme

        apply_theme(app, theme)
    from app.settings import holiday_choice

    # First start: the locale's country, else the zone's, else the interface language's.
    ask_holidays = holiday_choice.apply_locale_default(ctx, language=language)
    window = MainWindow(ctx, deferred=True)  # chat, sync, reminders: after the first paint
    if args.report_startup:
        _report_first_paint(window)
    else:
        _after_first_paint(window, window.finish_startup)
    window.show()
    if not args.report_startup:  # later `richeng FILE.ics` runs hand their files to this window
        from app.single_instance import FileReceiver

        receiver = FileReceiver(Path(args.db or default_db_path()), window)
        receiver.files_received.connect(lambda paths: _raise_and_import(window, paths))
        app.aboutToQuit.connect(receiver.close)
    if files and not args.report_startup:  # opened with .ics files (resources/richeng.desktop): import them
        _window_timer(window, 0, lambda: window.import_files(files))
    if ask_holidays and not args.report_startup:  # asked once, after the first paint
        _window_timer(window, 0, lambda: holiday_choice.open_question(ctx, window, lambda _c: window.calendar.refresh()))
    if args.quit_after is not None:
        # exit(), not quit(): Qt 6's quit() first asks every top-level window to close and
        # gives up when one refuses, so a leftover window could keep --quit-after running.
        _window_timer(window, args.quit_after, lambda: app.exit(0))
    code = app.exec()
    _tear_down(window)  # timers and workers stop, and the window goes, before the store closes
    store.close()
    return int(code)


def _raise_and_import(window: MainWindow, paths: list[str]) -> None:
    window.showNormal() if window.isMinimized() else window.show()
    window.raise_()
    window.activateWindow()
    window.import_files(paths)


def _tear_down(window: QWidget) -> None:
    """Close and delete the window now: a timer of a window left alive (a view's prefetch,
    reminders, the chat's warm-up) would otherwise fire later against a closed store."""
    from PySide6.QtCore import QCoreApplication, QEvent

    chat = getattr(window, "chat", None) if getattr(window, "started", True) else None
    if chat is not None and hasattr(chat, "shutdown"):
        chat.shutdown()
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def process_age_ms() -> float:
    """Milliseconds since this process started (interpreter start-up included).

    Linux reads the kernel's start time (10 ms ticks); elsewhere it falls back to the time
    since this module was imported, which leaves out the interpreter's own start-up.
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as stat, open("/proc/uptime", encoding="ascii") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            up_seconds = float(uptime.read().split()[0])
        return (up_seconds - started_ticks / os.sysconf("SC_CLK_TCK")) * 1000
    except (OSError, ValueError, IndexError, AttributeError):
        return (time.perf_counter() - IMPORTED_AT) * 1000


def _window_timer(window: QObject, ms: int, action: Callable[[], object]) -> None:
    """A one-shot timer owned by ``window``: deleted with it, so it can never fire into the
    next event loop against a window (and store) that are gone. ``QTimer.singleShot`` with a
    plain callable has no owner and outlives the window."""
    from PySide6.QtCore import QTimer

    timer = QTimer(window)
    timer.setSingleShot(True)
    timer.timeout.connect(action)
    timer.timeout.connect(timer.deleteLater)
    timer.start(ms)


def _after_first_paint(window: QWidget, then: Callable[[], object]) -> None:
    """Call ``then`` once the first paint of ``window`` has been flushed (children included),
    and in any case after two seconds: a window that starts minimized paints only when
    restored, and reminders must not wait for that (``then`` runs once, see finish_startup)."""
    from PySide6.QtCore import QEvent, QObject

    _window_timer(window, FINISH_STARTUP_BY_MS, then)

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                window.removeEventFilter(self)
                _window_timer(window, 0, then)
            return False

    window.installEventFilter(FirstPaint(window))


def _report_first_paint(window: QWidget) -> None:
    """``--report-startup``: after the first paint of ``window`` has been flushed, print
    ``first-paint-ms <n>`` and quit."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    class FirstPaint(QObject):
        def __init__(self) -> None:
            super().__init__(window)
            self.seen = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if not self.seen and event.type() == QEvent.Type.Paint:
                self.seen = True
                QTimer.singleShot(0, self.report)  # after this paint pass (children included)
            return False

        def report(self) -> None:
            print(f"first-paint-ms {process_age_ms():.0f}", flush=True)
            QApplication.quit()

    window.installEventFilter(FirstPaint())
