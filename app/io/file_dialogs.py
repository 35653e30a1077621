"""File pickers that never open the files they list (issue 19, item 0).

Qt's file dialog finds each listed file's icon and type by its MIME type, and for a name it
cannot place by extension it reads the file's first bytes: browsing the folder of the live
database opened and closed ``richeng.sqlite3-shm`` and ``-wal`` (seen with strace, even with
an ``*.ics`` filter). Closing any descriptor of a file drops every POSIX lock the process holds
on it, SQLite's included. ``agent/store/file_guard.py`` makes the store safe whatever code
does that; these pickers also stop doing it: their icon provider knows folders from files by
the directory entry alone, and names a type by the extension.

They are Qt's own dialogs (``DontUseNativeDialog``): a platform dialog runs in this process
too on some desktops and would sniff the same files.
"""

from __future__ import annotations

from PySide6.QtCore import QFileInfo
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget


class NameOnlyIcons(QFileIconProvider):
    """Folder and file icons, and a type from the extension: nothing is read from a file."""

    def icon(self, what: QFileIconProvider.IconType | QFileInfo) -> QIcon:
        if isinstance(what, QFileInfo):
            kind = QFileIconProvider.IconType.Folder if what.isDir() else QFileIconProvider.IconType.File
            return super().icon(kind)
        return super().icon(what)

    def type(self, info: QFileInfo) -> str:
        if info.isDir():
            return "Folder"
        return f"{info.suffix().upper()} File" if info.suffix() else "File"


_ICONS: NameOnlyIcons | None = None


def make_dialog(parent: QWidget | None, title: str, folder: str, name_filter: str) -> QFileDialog:
    global _ICONS
    if _ICONS is None:
        _ICONS = NameOnlyIcons()
    dialog = QFileDialog(parent, title, folder, name_filter)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.setIconProvider(_ICONS)
    return dialog


def open_file_names(parent: QWidget | None, title: str, folder: str, name_filter: str) -> list[str]:
    """The files the user picked, or [] when cancelled."""
    dialog = make_dialog(parent, title, folder, name_filter)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    return dialog.selectedFiles() if dialog.exec() else []


def open_file_name(parent: QWidget | None, title: str, folder: str, name_filter: str) -> str:
    """The file the user picked, or "" when cancelled."""
    dialog = make_dialog(parent, title, folder, name_filter)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    return dialog.selectedFiles()[0] if dialog.exec() and dialog.selectedFiles() else ""


def save_file_name(parent: QWidget | None, title: str, suggested: str, name_filter: str) -> str:
    """Where to save, or "" when cancelled (the dialog asks before replacing a file)."""
    dialog = make_dialog(parent, title, suggested, name_filter)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    return dialog.selectedFiles()[0] if dialog.exec() and dialog.selectedFiles() else ""
