"""Screenshots for review: the main views, the chat pane and the dialogs, rendered offscreen.

Not a test: nothing is asserted, the PNGs are for people to look at (clipping, overlaps,
unreadable colours, missing glyphs).

    .venv/bin/python benchmarks/screenshots.py [--out bench-out/screenshots]

Everything runs against a throwaway store seeded through the editor's own write path with a
realistic week (Monday 2026-11-30, Asia/Shanghai) of mixed Chinese and English events;
the chat pane is driven by ``ScriptedModel`` through the real ``ChatSession``, so the
bubbles, the pending chip and the dialogs are what a real turn produces.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEventLoop, QTimer, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from agent.models.script_backend import ScriptedModel  # noqa: E402
from agent.services.calendars import CalendarService  # noqa: E402
from agent.services.command_types import Outcome  # noqa: E402
from agent.services.editing import EditService, EventDraft  # noqa: E402
from agent.store.db import Store  # noqa: E402
from agent.store.profiles import ensure_profile  # noqa: E402

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=SHANGHAI)  # a Monday
W = TypeVar("W", bound=QWidget)
MONDAY = date(2026, 11, 30)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=SHANGHAI)


def seed_week(store: Store, profile: int) -> None:
    """A believable week: recurring meetings, lunch, gym, a visit, overlaps, days off."""
    calendars = CalendarService(store, profile)
    personal = calendars.default().id
    work = calendars.add("工作 Work", "#3b7dd8").id
    family = calendars.add("家庭", "#d9534f").id
    sport = calendars.add("Sports", "#2e9e5b").id
    edits = EditService(store, profile)
    d = [MONDAY + timedelta(days=i) for i in range(7)]

    def add(title: str, start: date | datetime, end: date | datetime, calendar: int, **fields: Any) -> None:
        edits.create(EventDraft(title, start, end, calendar, **fields))

    with store.transaction():
        add("周会", at(d[0], 9, 30), at(d[0], 10, 30), work, rrule="FREQ=WEEKLY;BYDAY=MO", location="3F 会议室")
        add("Standup", at(d[1], 9, 0), at(d[1], 9, 15), work, rrule="FREQ=DAILY;COUNT=4")
        add("Lunch with Amy", at(d[1], 12, 0), at(d[1], 13, 0), personal, location="Din Tai Fung")
        add("健身", at(d[0], 19, 0), at(d[0], 20, 0), sport, rrule="FREQ=WEEKLY;BYDAY=MO,WE,FR")
        add("客户拜访 · 华东区", at(d[2], 14, 0), at(d[2], 16, 30), work, location="浦东新区世纪大道 100 号")
        add("Dentist", at(d[3], 10, 0), at(d[3], 11, 0), personal)
        add("设计评审 Design review", at(d[3], 10, 30), at(d[3], 12, 0), work)
        add("Code review", at(d[3], 10, 45), at(d[3], 11, 30), work)
        add("休假", d[4], d[5], family)
        add("QCon 上海 2026", d[1], d[4], work)  # three days, all day
        add("Quarterly planning with the APAC sales team and partners 季度规划", at(d[0], 14, 0), at(d[0], 17, 0), work)
        add("接孩子", at(d[2], 17, 30), at(d[2], 18, 0), family)
        add("红眼航班 Red-eye to Beijing", at(d[5], 23, 0), at(d[6], 2, 0), personal)
        add("Call with Bob", at(d[0], 16, 0), at(d[0], 16, 30), work)
        add("妈妈生日", d[6], d[6] + timedelta(days=1), family)
        # some more through the month, so the month grid is not empty around the week
        for offset, (title, hour) in enumerate(
            [
                ("读书会", 20),
                ("Yoga", 7),
                ("项目复盘", 15),
                ("Haircut", 11),
                ("牙医复诊", 9),
                ("Team dinner", 19),
                ("交房租", 10),
                ("Piano lesson", 18),
            ]
        ):
            day = date(2026, 11, 3) + timedelta(days=offset * 3)
            add(title, at(day, hour), at(day, hour + 1), [personal, work, family, sport][offset % 4])
        for index in range(6):  # a crowded day: "+N more"
            add(f"面试 Interview {index + 1}", at(date(2026, 11, 18), 9 + index), at(date(2026, 11, 18), 9 + index, 45), work)


def wait_until(condition: Callable[[], bool], timeout_ms: int = 10_000) -> None:
    loop = QEventLoop()
    poll = QTimer()
    poll.setInterval(10)

    def check() -> None:
        if condition():
            loop.quit()

    poll.timeout.connect(check)
    QTimer.singleShot(timeout_ms, loop.quit)
    poll.start()
    if not condition():
        loop.exec()
    poll.stop()
    if not condition():
        raise TimeoutError("condition not met in time")


def settle(ms: int = 50) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


class Shots:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.saved: list[Path] = []
        out.mkdir(parents=True, exist_ok=True)

    def save(self, widget: QWidget, name: str) -> None:
        settle()
        path = self.out / f"{name}.png"
        if not widget.grab().save(str(path)):
            raise OSError(f"could not write {path}")
        self.saved.append(path)
        print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


class Scene:
    """One store, one context, one language."""

    def __init__(self, folder: Path, language: str) -> None:
        from app.application import build_context

        self.store = Store(folder / f"shots-{language}.sqlite3")
        self.profile = ensure_profile(self.store)
        seed_week(self.store, self.profile)
        self.ctx = build_context(self.store, self.profile, tz="Asia/Shanghai", now=NOW)
        self.ctx.settings.set("language", language)
        self.widgets: list[QWidget] = []

    def keep(self, widget: W) -> W:
        self.widgets.append(widget)
        return widget

    def pane_turn(self, pane: Any, text: str) -> Any:
        results: list[Any] = []
        pane.turn_finished.connect(results.append)
        pane.send_message(text)
        wait_until(lambda: bool(results))
        pane.turn_finished.disconnect(results.append)
        settle()
        return results[0]

    def close(self) -> None:
        from app.chat.chat_pane import ChatPane
        from app.main_window import MainWindow

        for widget in self.widgets:
            for pane in [widget] if isinstance(widget, ChatPane) else [widget.chat] if isinstance(widget, MainWindow) else []:
                pane.shutdown()
            widget.close()
            widget.deleteLater()
        settle()
        self.store.close()


def chinese_scenes(shots: Shots, folder: Path) -> None:
    from app.calendar.event_dialog import EventDialog
    from app.chat.chat_pane import ChatPane
    from app.chat.pending_dialog import PendingDialog
    from app.main_window import MainWindow
    from app.settings.settings_dialog import SettingsDialog

    scene = Scene(folder, "zh")
    ctx = scene.ctx
    # The main window with a short conversation: a create, then a question about the weekend.
    ctx.session.set_model(
        ScriptedModel(
            [
                call("prepare_or_create_schedule", title="和张三喝咖啡", dateExpression="D+5", time="15:00"),
                call("prepare_or_create_schedule", title="修汽车轮毂", dateExpression="WE"),
            ]
        )
    )
    window = scene.keep(MainWindow(ctx))
    window.resize(1440, 900)
    window.show()
    wait_until(window.chat.warmed_up)
    scene.pane_turn(window.chat, "周六下午三点和张三喝咖啡")
    result = scene.pane_turn(window.chat, "这个周末去修汽车轮毂")
    print(f"  (clarification turn: outcome={result.outcome}, candidates={result.candidates})")
    window.calendar.go_today()
    shots.save(window, "window_week_zh")
    shots.save(window.chat, "chat_clarify_zh")
    window.calendar.set_view("month")
    shots.save(window, "window_month_zh")
    window.calendar.set_view("day")
    window.calendar.set_anchor(MONDAY + timedelta(days=3))  # Thursday: three overlapping events
    shots.save(window.calendar, "day_overlaps_zh")
    window.calendar.set_view("agenda")
    window.calendar.go_today()
    shots.save(window.calendar, "agenda_zh")
    window.calendar.set_view("week")
    window.calendar.set_anchor(date(2026, 10, 1))  # 国庆节 and the 调休 Saturday
    shots.save(window.calendar, "week_national_day_zh")
    window.calendar.set_view("month")
    shots.save(window.calendar, "month_october_zh")

    # Conflict dialog: the 3-day conference and the standup are on Tuesday morning.
    flight = call("prepare_or_create_schedule", title="坐飞机回老家", dateExpression="D+1", time="09:00")
    ctx.session.set_model(ScriptedModel([flight]))
    pane = scene.keep(ChatPane(ctx))
    pane.resize(420, 680)
    pane.show()
    wait_until(pane.warmed_up)
    result = scene.pane_turn(pane, "明天早上九点坐飞机回老家")
    print(f"  (conflict turn: outcome={result.outcome})")
    if pane.conflict_dialog is not None:
        shots.save(pane.conflict_dialog, "conflict_dialog_zh")
        pane.conflict_dialog.change_button.click()
        settle()

    # Guard banner: the model claims a write that never happened.
    ctx.session.set_model(ScriptedModel([{"content": "已创建日程：明天下午三点开会。"}]))
    result = scene.pane_turn(pane, "明天下午三点开会")
    print(f"  (guard turn: guard={result.guard})")
    shots.save(pane, "chat_guard_banner_zh")

    # Past-time dialog, the editor, settings.
    receipt = Outcome("past_time", title="晨会", start=at(MONDAY, 8), end=at(MONDAY, 9))
    past = scene.keep(PendingDialog.past_time(receipt, ctx.tz))
    past.show()
    shots.save(past, "past_time_dialog_zh")
    editor = scene.keep(EventDialog(ctx, start=at(MONDAY, 15).replace(tzinfo=None), end=at(MONDAY, 16).replace(tzinfo=None)))
    editor.show()
    shots.save(editor, "event_editor_zh")
    settings = scene.keep(SettingsDialog(ctx))
    settings.show()
    shots.save(settings, "settings_general_zh")
    settings.tabs.setCurrentIndex(1)
    shots.save(settings, "settings_model_zh")
    settings.model.kind.setCurrentIndex(1)  # hosted endpoint, first preset
    settings.model.preset.setCurrentIndex(1)
    shots.save(settings, "settings_model_hosted_zh")
    settings.model.kind.setCurrentIndex(2)  # local GGUF
    shots.save(settings, "settings_model_local_zh")
    settings.reject()
    scene.close()


def english_scenes(shots: Shots, folder: Path) -> None:
    from app.chat.chat_pane import ChatPane
    from app.main_window import MainWindow
    from app.settings.settings_dialog import SettingsDialog

    scene = Scene(folder, "en")
    ctx = scene.ctx
    ctx.session.set_model(
        ScriptedModel(
            [
                call("prepare_or_create_schedule", title="Fix the car", dateExpression="WE"),
            ]
        )
    )
    window = scene.keep(MainWindow(ctx))
    window.resize(1440, 900)
    window.show()
    wait_until(window.chat.warmed_up)
    scene.pane_turn(window.chat, "Get the car fixed this weekend")
    shots.save(window, "window_week_en")
    window.calendar.set_view("month")
    shots.save(window.calendar, "month_en")

    ctx.session.set_model(ScriptedModel([{"content": "Done, I've added the meeting for tomorrow at 3pm."}]))
    scene.pane_turn(window.chat, "Meeting tomorrow at 3pm")
    shots.save(window.chat, "chat_guard_banner_en")

    ctx.session.set_model(None)
    pane = scene.keep(ChatPane(ctx))
    pane.resize(420, 680)
    pane.show()
    wait_until(pane.warmed_up)
    shots.save(pane, "chat_no_model_en")
    settings = scene.keep(SettingsDialog(ctx))
    settings.show()
    shots.save(settings, "settings_general_en")
    settings.tabs.setCurrentIndex(1)
    shots.save(settings, "settings_model_en")
    settings.reject()
    scene.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench-out" / "screenshots")
    args = parser.parse_args()
    # Keep settings, keyrings and caches away from the real user folders.
    scratch = Path(tempfile.mkdtemp(prefix="richeng-shots-"))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        os.environ[name] = str(scratch / name.lower())
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")

    from app import i18n

    def quiet(_kind: object, _context: object, message: str) -> None:
        if "propagateSizeHints" not in message:  # the offscreen platform's every dialog
            print(message, file=sys.stderr)

    qInstallMessageHandler(quiet)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    shots = Shots(args.out.resolve())
    print("Chinese interface:")
    translator = i18n.install(app, "zh_CN")
    chinese_scenes(shots, scratch)
    if translator is not None:
        app.removeTranslator(translator)
    print("English interface:")
    english_scenes(shots, scratch)
    print(f"{len(shots.saved)} screenshots in {shots.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
