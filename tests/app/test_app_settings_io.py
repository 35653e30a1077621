"""Settings (general and model), .ics import/export from the window, and reminders.

Nothing here reaches a network, a real keyring or a download: keyring, the model loader
and ``huggingface_hub.hf_hub_download`` are replaced at their boundary.
"""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QSystemTrayIcon

from agent.models.base import ModelUnavailable
from agent.models.script_backend import ScriptedModel
from app.io import file_dialogs, import_export
from app.io.import_export import ImportJob, export_to, import_dialog, import_paths
from app.io.report_dialog import ImportReportDialog
from app.settings.model_page import HOSTED, LOCAL
from app.settings.settings_dialog import SettingsDialog
from tests.support.chat_fixtures import event_titles, save_shot
from tests.support.clock import SHANGHAI

GOOD_AND_BROKEN = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:good-1@test
DTSTAMP:20261101T000000Z
DTSTART;TZID=Asia/Shanghai:20261202T140000
DTEND;TZID=Asia/Shanghai:20261202T150000
SUMMARY:牙医复诊
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-PT15M
DESCRIPTION:Reminder
END:VALARM
END:VEVENT
BEGIN:VEVENT
UID:broken-1@test
DTSTAMP:20261101T000000Z
DTSTART:2026-12-03 nonsense
SUMMARY:坏掉的日程
END:VEVENT
END:VCALENDAR
"""


@pytest.fixture
def ics_file(tmp_path: Path) -> Path:
    path = tmp_path / "dentist.ics"
    path.write_text(GOOD_AND_BROKEN.replace("\n", "\r\n"), encoding="utf-8")
    return path


@pytest.fixture
def fake_keyring(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, str], str]:
    import keyring

    saved: dict[tuple[str, str], str] = {}
    monkeypatch.setattr(keyring, "set_password", lambda service, user, key: saved.__setitem__((service, user), key))
    monkeypatch.setattr(keyring, "get_password", lambda service, user: saved.get((service, user)))
    monkeypatch.setattr(keyring, "delete_password", lambda service, user: saved.pop((service, user)))
    return saved


@pytest.fixture
def dialog(app_ctx, qtbot, fake_keyring) -> SettingsDialog:
    dialog = SettingsDialog(app_ctx)
    qtbot.addWidget(dialog)
    return dialog


# ---- settings ------------------------------------------------------------------------------


def test_settings_save_timezone_language_and_hosted_model_key_to_keyring(app_ctx, dialog, fake_keyring) -> None:
    general, model = dialog.general, dialog.model
    dialog.confirm_zone = lambda question: True  # the zone question (its own test below)
    general.timezone.set_value("Europe/Berlin")
    general.language.setCurrentIndex(general.language.findData("en"))
    general.week_start.setCurrentIndex(general.week_start.findData(7))
    model.kind.setCurrentIndex(model.kind.findData(HOSTED))
    model.preset.setCurrentIndex(model.preset.findText("DeepSeek"))
    model.api_key.setText("sk-secret-123456")
    dialog.show()
    dialog.tabs.setCurrentWidget(model)
    save_shot(dialog, "settings_model_hosted")
    dialog.tabs.setCurrentIndex(0)
    save_shot(dialog, "settings_general")
    dialog.save_button.click()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    settings = app_ctx.settings
    assert settings.get("timezone") == "Europe/Berlin" and settings.get("language") == "en" and settings.get("week_start") == 7
    assert settings.get("model") == "openai:deepseek-chat@https://api.deepseek.com/v1"
    assert fake_keyring == {("richeng", "https://api.deepseek.com/v1"): "sk-secret-123456"}
    stored = " ".join(row[0] for row in app_ctx.store.conn.execute("SELECT value FROM settings"))
    assert "sk-secret" not in stored
    assert app_ctx.session.model is not None and app_ctx.session.model.spec == settings.get("model")
    assert dialog.model_changed and "timezone" in dialog.changed_keys


def test_a_new_zone_says_what_it_will_do_and_saves_nothing_until_yes(app_ctx, dialog) -> None:
    """Issue 32, defect 2: a zone change moved every event without a word. Now Save first says
    what the change will do (both zones, one moment in each); "keep" saves nothing at all."""
    app_ctx.settings.set("timezone", "Asia/Shanghai")
    dialog.general.timezone.set_value("America/New_York")
    dialog.general.week_start.setCurrentIndex(dialog.general.week_start.findData(7))
    asked: list[str] = []
    dialog.confirm_zone = lambda question: asked.append(question) or False
    dialog.show()
    dialog.save_button.click()
    (question,) = asked
    assert "Asia/Shanghai" in question and "America/New_York" in question
    now = app_ctx.now()
    assert now.astimezone(ZoneInfo("America/New_York")).strftime("%m-%d %H:%M") in question
    assert app_ctx.settings.get("timezone") == "Asia/Shanghai" and app_ctx.settings.get("week_start") != 7
    assert dialog.isVisible() and dialog.result() != SettingsDialog.DialogCode.Accepted
    dialog.confirm_zone = lambda question: asked.append(question) or True
    dialog.save_button.click()
    assert app_ctx.settings.get("timezone") == "America/New_York" and app_ctx.settings.get("week_start") == 7
    assert len(asked) == 2


def test_the_same_zone_asks_nothing(app_ctx, dialog) -> None:
    dialog.confirm_zone = lambda question: pytest.fail("asked about an unchanged zone")
    dialog.save_button.click()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted


def test_reopened_settings_show_the_saved_model_and_key_hint(app_ctx, qtbot, fake_keyring) -> None:
    app_ctx.settings.set("model", "openai:qwen-plus@https://dashscope.aliyuncs.com/compatible-mode/v1")
    fake_keyring[("richeng", "https://dashscope.aliyuncs.com/compatible-mode/v1")] = "sk-x"
    dialog = SettingsDialog(app_ctx)
    qtbot.addWidget(dialog)
    assert dialog.model.current_kind() == HOSTED and dialog.model.model_name.text() == "qwen-plus"
    assert dialog.model.preset.currentText() == "DashScope (Qwen)"
    assert "already saved" in dialog.model.key_hint.text()


def test_a_saved_key_can_be_forgotten_from_the_settings(app_ctx, qtbot, fake_keyring, monkeypatch) -> None:
    """The button shows only while the endpoint has a key in the keyring; it removes that
    key at once, and a keyring that refuses is said so (the key stays listed as saved)."""
    import keyring

    url = "https://api.deepseek.com/v1"
    app_ctx.settings.set("model", f"openai:deepseek-chat@{url}")
    fake_keyring[("richeng", url)] = "sk-old"
    fake_keyring[("richeng", "https://other.example/v1")] = "sk-other"
    dialog = SettingsDialog(app_ctx, page="model")
    qtbot.addWidget(dialog)
    dialog.show()
    model = dialog.model
    assert model.forget_key.isVisible() and "already saved" in model.key_hint.text()
    save_shot(dialog, "settings_model_forget_key")
    model.forget_key.click()
    assert fake_keyring == {("richeng", "https://other.example/v1"): "sk-other"}  # keys are per endpoint
    assert not model.forget_key.isVisible() and "removed" in model.key_hint.text()
    assert model.api_key.placeholderText() == "paste your API key"

    fake_keyring[("richeng", url)] = "sk-again"
    model._update_key_hint()

    def refuse(service: str, user: str) -> None:
        raise RuntimeError("locked")

    monkeypatch.setattr(keyring, "delete_password", refuse)
    model.forget_key.click()
    assert fake_keyring[("richeng", url)] == "sk-again" and model.forget_key.isVisible()
    assert "did not remove" in model.key_hint.text()


def test_local_gguf_spec_with_context_and_threads(app_ctx, dialog, tmp_path) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    model = dialog.model
    model.kind.setCurrentIndex(model.kind.findData(LOCAL))
    model.path.setText("")
    dialog.save_button.click()
    assert dialog.result() != SettingsDialog.DialogCode.Accepted and "gguf" in dialog.error.text()
    model.path.setText(str(gguf))
    model.n_ctx.setValue(8192)
    model.threads.setValue(2)
    dialog.save_button.click()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    assert app_ctx.settings.get("model") == f"llama:{gguf}"
    assert app_ctx.settings.get("llama_n_ctx") == 8192 and app_ctx.settings.get("llama_threads") == 2


def test_keyring_refusal_saves_nothing(app_ctx, dialog, monkeypatch) -> None:
    import keyring

    def refuse(*_args: Any) -> None:
        raise RuntimeError("no keyring backend")

    monkeypatch.setattr(keyring, "set_password", refuse)
    dialog.model.kind.setCurrentIndex(dialog.model.kind.findData(HOSTED))
    dialog.model.preset.setCurrentIndex(dialog.model.preset.findText("OpenAI"))
    dialog.model.api_key.setText("sk-abc")
    dialog.save_button.click()
    assert dialog.result() != SettingsDialog.DialogCode.Accepted
    assert "keyring" in dialog.error.text() and app_ctx.settings.get("model") is None


def test_test_connection_reports_ok_and_the_unavailable_reason(dialog, qtbot, monkeypatch) -> None:
    import app.settings.model_page as page_module

    asked: list[tuple[str, dict[str, Any]]] = []

    def fake_load(spec: str, **options: Any) -> ScriptedModel:
        asked.append((spec, options))
        return ScriptedModel([{"content": "OK"}], name="openai:deepseek-chat@https://api.deepseek.com/v1")

    monkeypatch.setattr(page_module, "load_model", fake_load)
    model = dialog.model
    model.kind.setCurrentIndex(model.kind.findData(HOSTED))
    model.preset.setCurrentIndex(model.preset.findText("DeepSeek"))
    model.api_key.setText("sk-typed")
    worker = model.test_connection()
    qtbot.waitUntil(lambda: worker.done and "Connected" in model.test_result.text(), timeout=5000)
    assert asked == [("openai:deepseek-chat@https://api.deepseek.com/v1", {"api_key": "sk-typed"})]

    def down(spec: str, **options: Any) -> Any:
        raise ModelUnavailable("cannot reach https://api.deepseek.com/v1 (connection refused)")

    monkeypatch.setattr(page_module, "load_model", down)
    qtbot.waitUntil(lambda: model.test_button.isEnabled(), timeout=5000)
    worker = model.test_connection()
    qtbot.waitUntil(lambda: worker.done and "connection refused" in model.test_result.text(), timeout=5000)


def fake_download(progress_steps: int, delay: float = 0.0):  # type: ignore[no-untyped-def]
    def hf_hub_download(repo_id: str, filename: str, *, local_dir: str | None = None, tqdm_class: Any = None, **_: Any) -> str:
        bar = tqdm_class(total=progress_steps * 1_000_000, initial=0, unit="B")
        for _step in range(progress_steps):
            if delay:
                time.sleep(delay)
            bar.update(1_000_000)
        bar.close()
        path = Path(local_dir or ".") / filename
        path.write_bytes(b"GGUF")
        return str(path)

    return hf_hub_download


def test_download_recommended_model_reports_progress_and_fills_the_path(dialog, qtbot, monkeypatch) -> None:
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", fake_download(4))
    model = dialog.model
    seen: list[tuple[int, int]] = []
    worker = model.start_download()
    worker.signals.yielded.connect(seen.append)  # (done, total) byte counts
    qtbot.waitUntil(lambda: model.download is None, timeout=5000)
    assert model.path.text().endswith("qwen2.5-3b-instruct-q4_k_m.gguf") and Path(model.path.text()).is_file()
    assert model.current_kind() == LOCAL and model.progress.value() == 1000
    assert "Downloaded" in model.download_status.text()


def test_download_can_be_cancelled(dialog, qtbot, monkeypatch) -> None:
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", fake_download(500, delay=0.01))
    model = dialog.model
    model.start_download()
    qtbot.waitUntil(lambda: model.progress.maximum() == 1000 and model.progress.value() > 0, timeout=5000)
    model.cancel_download_button.click()
    qtbot.waitUntil(lambda: model.download is None, timeout=5000)
    assert "cancelled" in model.download_status.text() and model.path.text() == ""


# ---- import / export -----------------------------------------------------------------------


def wait_job(qtbot, job: ImportJob) -> list[Any]:
    with qtbot.waitSignal(job.done, timeout=10_000) as blocker:
        pass
    return blocker.args[0]


def test_import_paths_reports_imported_and_rejected_with_reasons(app_ctx, qtbot, ics_file, tmp_path) -> None:
    garbage = tmp_path / "notes.ics"
    garbage.write_text("this is not a calendar", encoding="utf-8")
    refreshed: list[Any] = []
    app_ctx.ops.changed.connect(refreshed.append)
    job = import_paths(None, app_ctx, [str(ics_file), str(garbage)])
    with qtbot.waitSignal(job.done, timeout=10_000):
        pass
    report = job.report_dialog
    qtbot.addWidget(report)
    assert isinstance(report, ImportReportDialog) and report.isVisible()
    assert report.summary_lines()[0].startswith("dentist.ics: 1 imported, 0 updated")
    rows = report.rejected_rows()
    assert rows[0][0] == "dentist.ics" and rows[0][2] == "broken-1@test" and "bad DTSTART" in rows[0][3]
    assert rows[0][1].isdigit()
    assert rows[1][0] == "notes.ics" and rows[1][3]
    assert report.table.rowCount() == 2 and report.table.item(0, 3).text() == rows[0][3]
    assert event_titles(app_ctx.store) == ["牙医复诊"] and len(refreshed) == 1
    save_shot(report, "import_report")


def test_import_dialog_uses_the_file_picker(app_ctx, qtbot, ics_file, monkeypatch) -> None:
    monkeypatch.setattr(file_dialogs, "open_file_names", lambda *args, **kwargs: [str(ics_file)])
    monkeypatch.setattr(import_export, "ask_calendar", lambda parent, ctx, paths: "dentist")
    job = import_dialog(None, app_ctx)
    with qtbot.waitSignal(job.done, timeout=10_000):
        pass
    qtbot.addWidget(job.report_dialog)
    assert event_titles(app_ctx.store) == ["牙医复诊"]


def test_drop_an_ics_file_on_the_main_window(app_ctx, qtbot, ics_file, monkeypatch) -> None:
    pytest.importorskip("app.calendar.calendar_area")
    monkeypatch.setattr(import_export, "ask_calendar", lambda parent, ctx, paths: "dentist")
    from app.main_window import MainWindow

    app_ctx.session.set_model(ScriptedModel([]))
    window = MainWindow(app_ctx)
    try:
        window.show()
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(ics_file))])
        event = QDropEvent(
            QPointF(400, 300), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        )
        window.dropEvent(event)
        assert event.isAccepted()
        qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(ImportReportDialog)), timeout=10_000)
        report = window.findChildren(ImportReportDialog)[0]
        assert "1 imported" in report.summary_lines()[0] and "bad DTSTART" in report.rejected_rows()[0][3]
        assert event_titles(app_ctx.store) == ["牙医复诊"]
    finally:
        # Delete the window (and its views' pending timers) before the store closes.
        window.chat.shutdown()
        window.close()
        window.deleteLater()
        qtbot.wait(20)


def test_export_all_one_calendar_or_a_range(app_ctx, qtbot, ics_file, tmp_path) -> None:
    job = import_paths(None, app_ctx, [str(ics_file)])
    with qtbot.waitSignal(job.done, timeout=10_000):
        pass
    qtbot.addWidget(job.report_dialog)
    everything = tmp_path / "all.ics"
    assert export_to(app_ctx, str(everything)) == 1 and b"UID:good-1@test" in everything.read_bytes()
    calendar = app_ctx.ops.calendars.names()[0]
    assert export_to(app_ctx, str(tmp_path / "one.ics"), calendar) == 1
    december = (datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2026, 12, 3, tzinfo=SHANGHAI))
    january = (datetime(2027, 1, 1, tzinfo=SHANGHAI), datetime(2027, 2, 1, tzinfo=SHANGHAI))
    assert export_to(app_ctx, str(tmp_path / "dec.ics"), None, *december) == 1
    assert export_to(app_ctx, str(tmp_path / "jan.ics"), None, *january) == 0


# ---- reminders -----------------------------------------------------------------------------


def test_reminder_fires_once_as_a_popup_without_a_tray(app_ctx, qtbot, ics_file, monkeypatch) -> None:
    from app.reminders import ReminderScheduler

    job = import_paths(None, app_ctx, [str(ics_file)])
    with qtbot.waitSignal(job.done, timeout=10_000):
        pass
    qtbot.addWidget(job.report_dialog)
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: False))
    service = ReminderScheduler(app_ctx, None, desktop=None)  # never the developer's desktop service
    service.timer.stop()
    before = service.check(datetime(2026, 12, 2, 13, 40, tzinfo=SHANGHAI))
    assert before == [] or all(fire.hour != 13 for _occ, fire in before)
    fired = service.check(datetime(2026, 12, 2, 13, 46, tzinfo=SHANGHAI))
    assert [(occ.title, fire) for occ, fire in fired] == [("牙医复诊", datetime(2026, 12, 2, 13, 45, tzinfo=SHANGHAI))]
    assert len(service.popups) == 1 and service.popups[0].isVisible()
    assert "牙医复诊" in service.popups[0].text() and "14:00" in service.popups[0].informativeText()
    assert service.check(datetime(2026, 12, 2, 13, 50, tzinfo=SHANGHAI)) == []  # once
    for popup in list(service.popups):
        popup.close()


def test_due_reminders_follow_a_weekly_series(app_store) -> None:
    from zoneinfo import ZoneInfo

    from agent.ics.importer import import_bytes
    from agent.services.reminders import due_reminders
    from agent.store.profiles import ensure_profile

    weekly = GOOD_AND_BROKEN.replace("SUMMARY:牙医复诊", "SUMMARY:周会\nRRULE:FREQ=WEEKLY;COUNT=3")
    profile_id = ensure_profile(app_store)
    import_bytes(app_store, profile_id, weekly.encode())
    tz = ZoneInfo("Asia/Shanghai")
    found = due_reminders(app_store, profile_id, datetime(2026, 12, 1, tzinfo=tz), datetime(2027, 1, 1, tzinfo=tz), tz)
    assert [fire.day for _occ, fire in found] == [2, 9, 16] and all(fire.hour == 13 and fire.minute == 45 for _o, fire in found)


# ---- translations --------------------------------------------------------------------------

MODULE_CONTEXTS = {"app/chat/spans.py": "Spans", "app/io/import_export.py": "ImportExport"}


def _tr_strings(path: Path) -> dict[str, set[str]]:
    """{context: sources} for ``self.tr("...")`` in classes and ``_tr("...")`` in modules."""
    import ast

    found: dict[str, set[str]] = {}
    relative = path.relative_to(Path(__file__).resolve().parents[2]).as_posix()

    def visit(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            context = child.name if isinstance(child, ast.ClassDef) else cls
            if isinstance(child, ast.Call) and child.args and isinstance(child.args[0], ast.Constant):
                func = child.func
                if isinstance(func, ast.Attribute) and func.attr == "tr" and cls:
                    found.setdefault(cls, set()).add(child.args[0].value)
                elif isinstance(func, ast.Name) and func.id == "_tr" and relative in MODULE_CONTEXTS:
                    found.setdefault(MODULE_CONTEXTS[relative], set()).add(child.args[0].value)
            visit(child, context)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


def test_every_chat_settings_and_io_string_has_a_chinese_translation() -> None:
    import json

    root = Path(__file__).resolve().parents[2]
    catalogue = json.loads((root / "resources/translations/zh_CN.json").read_text(encoding="utf-8"))
    files = [
        *sorted((root / "app/chat").glob("*.py")),
        *sorted((root / "app/settings").glob("*.py")),
        *sorted((root / "app/io").glob("*.py")),
        root / "app/reminders.py",
    ]
    missing = [
        f"{context}: {source!r}"
        for path in files
        for context, sources in _tr_strings(path).items()
        for source in sorted(sources)
        if not catalogue.get(context, {}).get(source)
    ]
    assert missing == []
