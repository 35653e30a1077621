"""File pickers that never open the files they list (issue 19, item 0).

Qt's file dialog finds each listed file's icon and type by its MIME type, and for a name it
cannot place by extension it reads the file's first bytes: browsing the folder of the live
database opened and closed ``richeng.sqlite3-shm`` and ``-wal`` (seen with strace, even with
an ``*.ics`` filter). Closing any descriptor of a file drops every POSIX lock the process holds
on it, SQLite's included. ``agent/store/file_guard.py`` makes the store safe whatever code
does that; these pickers also stop doing it: their icon provider knows folders from files by
the directory entry alone, and names a type by the extension.

They are Qt's own dialogs (``DontUseNativeDialog``): a platform dialog runs in this process
too on some desktops and would sniff the same files. Qt's ``qtbase_zh_CN`` catalogue (installed
by ``app/i18n.py``) translates most of them, but Qt 6 added mnemonics to two labels ("&Look
in:", "Files of &type:") that the shipped catalogue still lacks, so the Chinese dialog said
them in English (issue 32): those two, and the type names this icon provider gives, come from
our catalogue.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QFileInfo
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
            return _tr("Folder")
        return _tr("{0} File").format(info.suffix().upper()) if info.suffix() else _tr("File")


def _tr(text: str) -> str:
    return QCoreApplication.translate("FileDialogs", text)


_ICONS: NameOnlyIcons | None = None


def make_dialog(parent: QWidget | None, title: str, folder: str, name_filter: str) -> QFileDialog:
    global _ICONS
    if _ICONS is None:
        _ICONS = NameOnlyIcons()
    dialog = QFileDialog(parent, title, folder, name_filter)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    dialog.setIconProvider(_ICONS)
    dialog.setLabelText(QFileDialog.DialogLabel.LookIn, _tr("&Look in:"))
    dialog.setLabelText(QFileDialog.DialogLabel.FileType, _tr("Files of &type:"))
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
