"""The app's file pickers list a folder without reading its files (issue 19, item 0): Qt's own
dialog sniffed ``richeng.sqlite3-shm`` and ``-wal`` of the live database to pick their icons,
and each close of such a descriptor drops the process's POSIX locks on the file.

Whether a file was read is told by its access time: each is set far in the past, which any
read moves on (relatime updates an access time older than the modification time). Where the
file system does not keep access times the test says so and skips."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtWidgets import QFileDialog, QFileSystemModel

from app.io import file_dialogs

NAMES = ("richeng.sqlite3-shm", "richeng.sqlite3-wal", "notes")


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    for name in NAMES:
        (folder / name).write_bytes(b"\x00\x01 not text at all " * 64)
        os.utime(folder / name, (1_000_000, os.stat(folder / name).st_mtime))
    probe = folder / "notes"
    probe.read_bytes()
    if os.stat(probe).st_atime <= 1_000_000:
        pytest.skip("this file system does not record access times")
    os.utime(probe, (1_000_000, os.stat(probe).st_mtime))
    return folder


def _read(folder: Path) -> set[str]:
    return {name for name in NAMES if os.stat(folder / name).st_atime > 1_000_000}


def _list(qtbot: Any, dialog: QFileDialog) -> None:
    model = dialog.findChild(QFileSystemModel)
    assert model is not None
    with qtbot.waitSignal(model.directoryLoaded, timeout=5000, raising=False):
        dialog.show()
    qtbot.wait(500)  # icons and types are looked up after the listing
    dialog.close()


def test_the_pickers_list_the_database_folder_without_reading_a_file(qtbot: Any, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    dialog = file_dialogs.make_dialog(None, "Import .ics", str(folder), "All files (*)")
    qtbot.addWidget(dialog)
    _list(qtbot, dialog)
    assert _read(folder) == set()


def test_qts_plain_dialog_reads_them(qtbot: Any, tmp_path: Path) -> None:
    """The test above can fail: Qt's dialog without the provider reads the unknown files."""
    folder = _folder(tmp_path)
    dialog = QFileDialog(None, "Import .ics", str(folder), "All files (*)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    _list(qtbot, dialog)
    assert _read(folder) >= {"richeng.sqlite3-shm", "richeng.sqlite3-wal"}


def test_the_pickers_speak_chinese_in_the_chinese_interface(qtbot: Any, tmp_path: Path) -> None:
    """Issue 32, defect 9: "Look in:" and "Files of type:" stayed English in the zh UI (Qt 6
    gave them mnemonics its shipped catalogue lacks), and so did the type column's words."""
    from PySide6.QtCore import QFileInfo
    from PySide6.QtWidgets import QApplication, QLabel

    from app import i18n

    i18n.install(QApplication.instance(), "zh_CN")
    dialog = file_dialogs.make_dialog(None, "导入", str(tmp_path), "iCalendar (*.ics)")
    qtbot.addWidget(dialog)
    labels = [label.text() for label in dialog.findChildren(QLabel) if label.text()]
    assert labels and not any("Look in" in text or "Files of" in text for text in labels), labels
    assert "查找范围" in dialog.labelText(QFileDialog.DialogLabel.LookIn)
    assert dialog.iconProvider().type(QFileInfo(str(tmp_path))) == "文件夹"


def test_export_opens_in_the_folder_used_last(app_ctx: Any, qtbot: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 32, defect 9: Export always opened in the home folder."""
    from app.io import import_export

    folder = tmp_path / "exports"
    folder.mkdir()
    asked: list[str] = []

    def save(parent: Any, title: str, suggested: str, name_filter: str) -> str:
        asked.append(suggested)
        return str(folder / "mine.ics")

    monkeypatch.setattr(file_dialogs, "save_file_name", save)
    monkeypatch.setattr(import_export.ExportOptionsDialog, "exec", lambda self: 1)
    monkeypatch.setattr(import_export.QMessageBox, "information", lambda *a: None)
    import_export.export_dialog(None, app_ctx)
    import_export.export_dialog(None, app_ctx)
    assert Path(asked[0]).parent == Path.home()
    assert Path(asked[1]).parent == folder
