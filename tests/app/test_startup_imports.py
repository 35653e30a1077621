"""Start-up loads only what the command or the first paint uses (issue 14, item 6).

Each check runs a fresh interpreter and reads its ``sys.modules``: what a module imports
at the top is invisible to an in-process test once anything else has imported it. The
figures (CPU time against a bare interpreter and a bare window) are in
``benchmarks/bench_startup.py`` and the README, not asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY_FOR_A_SYMBOL = ("icalendar", "holidays", "recurring_ical_events", "lunar_python", "agent.store.events")


def modules_after(code: str, tmp_path: Path) -> set[str]:
    """The modules loaded when ``code`` has run (it prints them as its last line)."""
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("MODULES ")]
    assert lines, done.stdout[-2000:] + done.stderr[-2000:]
    return set(lines[-1].split()[1:])


RESOLVE = """
import sys
from datetime import datetime
from zoneinfo import ZoneInfo
from agent.timesym.context import TimeContext
from agent.timesym.resolve import resolve
ctx = TimeContext(now=datetime(2026, 11, 30, 10, tzinfo=ZoneInfo("Asia/Shanghai")), tz=ZoneInfo("Asia/Shanghai"))
for symbol in {symbols!r}:
    resolve(symbol, ctx)
print("MODULES " + " ".join(sorted(sys.modules)))
"""


def test_resolving_a_plain_symbol_imports_no_calendar_or_holiday_library(tmp_path: Path) -> None:
    loaded = modules_after(RESOLVE.format(symbols=["D+1", "W3+1", "M+1", "D+1T15:00", "WE"]), tmp_path)
    assert not loaded & set(HEAVY_FOR_A_SYMBOL), loaded & set(HEAVY_FOR_A_SYMBOL)


def test_holiday_and_lunar_symbols_still_load_their_tables(tmp_path: Path) -> None:
    """The other side: the check above would pass vacuously if nothing could load them."""
    loaded = modules_after(RESOLVE.format(symbols=["H:国庆", "L:08-15"]), tmp_path)
    assert {"holidays", "lunar_python"} <= loaded


def test_the_cli_time_resolve_opens_no_store_and_no_icalendar(tmp_path: Path) -> None:
    loaded = modules_after(
        """
        import contextlib, io, sys
        from agent.cli.main import main
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["time", "resolve", "D+1"])
        assert code == 0, code
        print("MODULES " + " ".join(sorted(sys.modules)))
    """,
        tmp_path,
    )
    assert not loaded & {*HEAVY_FOR_A_SYMBOL, "agent.store.db", "pydantic"}, loaded & {*HEAVY_FOR_A_SYMBOL, "agent.store.db"}


APP_FIRST_PAINT = """
import sys
from app import application

def at_first_paint(window):
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    class Watch(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint:
                window.removeEventFilter(self)
                print("MODULES " + " ".join(sorted(sys.modules)), flush=True)
                QTimer.singleShot(0, QApplication.quit)
            return False

    window.installEventFilter(Watch(window))

application._report_first_paint = at_first_paint
sys.exit(application.run(["--offscreen", "--report-startup", "--db", {db!r}]))
"""

DEFERRED = (
    "agent.runtime.session",
    "agent.runtime.turn",
    "pydantic",
    "app.chat.chat_pane",
    "agent.sync.engine",
    "app.reminders",
    "icalendar",
    "recurring_ical_events",
)


def test_the_app_paints_before_chat_sync_reminders_and_cached_holidays(tmp_path: Path) -> None:
    from agent.services.settings import SettingsService
    from agent.store.db import Store
    from agent.store.profiles import ensure_profile

    db = tmp_path / "app.sqlite3"
    modules_after(APP_FIRST_PAINT.format(db=str(db)), tmp_path)  # creates the store
    store = Store(db, backups=False)
    try:  # a user in China: CN holiday marks and lunar labels are on the first paint
        settings = SettingsService(store, ensure_profile(store))
        settings.set("holiday_country", "CN")
        settings.set("language", "zh")
    finally:
        store.close()
    first = modules_after(APP_FIRST_PAINT.format(db=str(db)), tmp_path)
    assert not first & set(DEFERRED), first & set(DEFERRED)
    assert {"holidays", "lunar_python", "app.calendar.calendar_area"} <= first  # computed, then cached
    cache = json.loads((tmp_path / "xdg_cache_home" / "richeng" / "holiday-marks.json").read_text(encoding="utf-8"))
    assert any(key.startswith("CN||") for key in cache["years"])  # (the year is the app's clock's)
    again = modules_after(APP_FIRST_PAINT.format(db=str(db)), tmp_path)
    assert "holidays" not in again and not again & set(DEFERRED), again & {"holidays", *DEFERRED}


# ---- in-process: the deferred window and the holiday cache ------------------------------


def test_a_deferred_window_builds_chat_sync_and_reminders_once(qtbot, cal_ctx) -> None:  # type: ignore[no-untyped-def]
    from app.main_window import MainWindow

    window = MainWindow(cal_ctx, deferred=True)
    try:
        assert not window.started and not hasattr(window, "chat") and not window.sync_button.isEnabled()
        assert window.splitter.count() == 2
        window.finish_startup()
        chat, sync = window.chat, window.sync
        assert window.started and window.splitter.widget(1) is chat and window.sync_button.isEnabled()
        assert window.reminders is not None
        window.finish_startup()
        assert window.chat is chat and window.sync is sync and window.splitter.count() == 2
    finally:
        window.close()  # before the store closes: no timer may read a closed file
        window.deleteLater()


@pytest.fixture
def fresh_holiday_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    from app.calendar import holidays

    monkeypatch.setattr(holidays, "_disk", None)
    holidays._year_marks.cache_clear()
    yield holidays
    holidays._year_marks.cache_clear()
    monkeypatch.setattr(holidays, "_disk", None)


def test_cached_year_marks_equal_computed_ones(fresh_holiday_cache) -> None:  # type: ignore[no-untyped-def]
    holidays = fresh_holiday_cache
    computed = holidays._year_marks("CN", None, 2026)
    assert computed[date(2026, 10, 1)].off and computed[date(2026, 10, 1)].name
    assert holidays.cache_path().exists()
    holidays._year_marks.cache_clear()
    holidays._disk = None
    assert holidays._cached_year("CN||2026") == computed
    assert holidays._year_marks("CN", None, 2026) == computed


def test_a_corrupt_or_foreign_cache_is_ignored_and_replaced(fresh_holiday_cache, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    holidays = fresh_holiday_cache
    path = holidays.cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    marks = holidays._year_marks("CN", None, 2026)
    assert marks and json.loads(path.read_text(encoding="utf-8"))["identity"] == holidays.data_identity()
    # Marks cached from other holiday data (an older package) are never shown.
    stale = {
        "format": holidays.CACHE_FORMAT,
        "identity": "other data",
        "years": {"CN||2027": {"2027-03-03": ["假", True, False]}},
    }
    path.write_text(json.dumps(stale), encoding="utf-8")
    holidays._year_marks.cache_clear()
    holidays._disk = None
    assert date(2027, 3, 3) not in holidays._year_marks("CN", None, 2027)


def test_a_window_that_never_paints_still_gets_chat_sync_and_reminders(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A window started minimized paints only when restored; reminders must not wait."""
    from app import application
    from app.main_window import MainWindow

    finished: list[MainWindow] = []
    original = MainWindow.finish_startup

    def recording(self: MainWindow) -> None:
        original(self)
        finished.append(self)

    monkeypatch.setattr(MainWindow, "finish_startup", recording)
    monkeypatch.setattr(MainWindow, "show", lambda self: None)
    monkeypatch.setattr(application, "FINISH_STARTUP_BY_MS", 100)
    db = tmp_path / "never-painted.sqlite3"
    assert application.run(["--db", str(db), "--lang", "en", "--offscreen", "--quit-after", "600"]) == 0
    assert len(finished) == 1 and finished[0].started
