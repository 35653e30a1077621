"""Printing (issue 32): File → Print… previews the shown view's pages, and ``richeng print``
writes the same pages as a PDF (a machine-checked contract): titles and start times are text a
PDF reader finds; a bad view or an unwritable path exits 2 with one line and writes nothing.
The CLI runs in-process through the ``richeng`` launcher, which hands ``print`` to
``app/print_command.py`` (drawn with Qt, so not in ``agent/``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from app.launcher import main

NOW = "2026-12-01T10:00:00+08:00"
SENTENCES = ["明天下午三点和张三开会", "周四上午9点半在会议室开周会", "Dentist Friday at 4pm"]


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str], qapp: Any) -> Path:
    """(``qapp`` first: the command makes a QGuiApplication when none exists, and the widget
    tests after it need a QApplication.)"""
    path = tmp_path / "r.sqlite3"
    for sentence in SENTENCES:
        assert main(["--db", str(path), "--now", NOW, "--tz", "Asia/Shanghai", "quick", sentence]) == 0
    capsys.readouterr()
    return path


def run(db: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), "--now", NOW, "--tz", "Asia/Shanghai", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return unicodedata.normalize("NFKC", text)  # CJK fonts map some glyphs to Kangxi radicals


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_printed_week_lists_every_events_title_and_time(db: Path, tmp_path: Path, capsys: Any, lang: str) -> None:
    target = tmp_path / f"week-{lang}.pdf"
    code, out, err = run(db, capsys, "print", "--lang", lang, "--view", "week", "--date", "2026-12-02", "-o", str(target))
    assert code == 0 and err == "" and str(target) in out
    assert target.read_bytes().startswith(b"%PDF")
    text = pdf_text(target)
    for title, start in (("和张三开会", "15:00"), ("开周会", "09:30"), ("Dentist", "16:00")):
        line = next((line for line in text.splitlines() if title in line), "")
        assert start in line, (title, text)
    if lang == "zh":
        assert "2026年12月2日 周三" in text and "廿四" in text  # the day's 农历


@pytest.mark.parametrize("view", ["day", "month", "agenda"])
def test_every_view_prints(db: Path, tmp_path: Path, capsys: Any, view: str) -> None:
    target = tmp_path / f"{view}.pdf"
    code, _out, _err = run(db, capsys, "print", "--view", view, "--date", "2026-12-02", "-o", str(target))
    assert code == 0
    text = pdf_text(target)
    assert "和张三开会" in text and "15:00" in text


def test_a_bad_view_is_one_line_and_writes_nothing(db: Path, tmp_path: Path, capsys: Any) -> None:
    target = tmp_path / "x.pdf"
    code, out, err = run(db, capsys, "print", "--view", "year", "-o", str(target))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "year" in err
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite3"]


@pytest.mark.parametrize("where", ["missing", "readonly"])
def test_an_unwritable_path_is_one_line_and_writes_nothing(db: Path, tmp_path: Path, capsys: Any, where: str) -> None:
    folder = tmp_path / "out"
    if where == "readonly" and os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder")
    if where == "readonly":
        folder.mkdir()
        folder.chmod(0o500)
    try:
        code, out, err = run(db, capsys, "print", "--view", "week", "-o", str(folder / "x.pdf"))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "x.pdf" in err
        assert not (folder / "x.pdf").exists()
        assert not folder.exists() or list(folder.iterdir()) == []
    finally:
        if folder.exists():
            folder.chmod(0o700)


def test_file_print_previews_the_shown_view(app_ctx: Any, qtbot: Any) -> None:
    from PySide6.QtPrintSupport import QPrintPreviewDialog

    from app.main_window import MainWindow
    from tests.support.app_fixtures import at, seed
    from tests.support.clock import MONDAY

    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    app_ctx.session.set_model(None)
    win = MainWindow(app_ctx)
    shown: list[Any] = []
    win.exec_print = lambda dialog: shown.append(dialog) or 0
    win.calendar.set_view("month")
    action = next(a for a in win.findChildren(type(win.quick_add_action)) if a.text() == "&Print…")
    action.trigger()
    assert len(shown) == 1 and isinstance(shown[0], QPrintPreviewDialog)
    job = shown[0].job
    assert job.view == "month" and any(line.title == "周会" for lines in job.days.values() for line in lines)
    shown[0].deleteLater()
    win.chat.shutdown()
    win.close()
    win.deleteLater()
    qtbot.wait(20)


def test_print_needs_no_display(db: Path, tmp_path: Path) -> None:
    """Run as a user would, with neither DISPLAY nor QT_QPA_PLATFORM: the command chooses offscreen."""
    import sys

    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    target = tmp_path / "week.pdf"
    argv = ["--db", str(db), "--now", NOW, "--tz", "Asia/Shanghai", "print", "--view", "week", "-o", str(target)]
    done = subprocess.run([sys.executable, "-m", "app.launcher", *argv], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(("lang", "name"), [("zh_CN", "国庆节"), ("en", "National Day")])
def test_a_printed_month_names_its_holidays(db: Path, tmp_path: Path, capsys: Any, lang: str, name: str) -> None:
    """The month view names 国庆节 on Oct 1; its printed page used to be an ordinary October."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    target = tmp_path / f"october-{lang}.pdf"
    code, _, err = run(db, capsys, "--lang", lang, "print", "--view", "month", "--date", "2026-10-01", "-o", str(target))
    assert code == 0, err
    text = subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True, check=True).stdout
    assert name in unicodedata.normalize("NFKC", text)
