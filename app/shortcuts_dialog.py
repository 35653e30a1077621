"""Help → Keyboard shortcuts: every key the app answers to, in one list.

The menu part is read from the menu bar's own actions when the dialog opens, so the list
can never disagree with what the keys really do (a shortcut added to a menu shows up here
by itself). Keys that belong to the calendar views and the search box have no menu item;
they are listed from ``VIEW_KEYS``, which ``tests/app/test_app_shortcuts.py`` checks against
the views' key handling.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QMenuBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ShortcutsDialog", text)


# (group, keys, what it does); the keys are Qt key names, shown in the platform's words.
VIEW_KEYS: tuple[tuple[str, str, str], ...] = (
    ("Calendar", "Left, Right", "Previous / next day, and its first event"),
    ("Calendar", "Up, Down", "Previous / next event (day, week, month: of the day, then an hour / a week on)"),
    ("Calendar", "Home, End", "First / last event shown (month: of the month)"),
    ("Calendar", "Return", "Open the selected event"),
    ("Calendar", "Del, Backspace", "Delete the selected event (Undo in the notice)"),
    ("Calendar", "Esc", "Clear the selection"),
    ("Calendar", "Menu, Shift+F10", "Menu of the selected event"),
    ("Search", "Down, Up", "Move through the results"),
    ("Search", "Return", "Show the result in the calendar"),
    ("Search", "Esc", "Clear the search"),
)


def _group_names() -> dict[str, str]:
    return {"Calendar": _tr("Calendar"), "Search": _tr("Search box")}


def _descriptions() -> dict[str, str]:
    # Spelled out so the catalogue check (and lupdate-style tools) can see every string.
    return {
        "Previous / next day, and its first event": _tr("Previous / next day, and its first event"),
        "Previous / next event (day, week, month: of the day, then an hour / a week on)": _tr(
            "Previous / next event (day, week, month: of the day, then an hour / a week on)"
        ),
        "First / last event shown (month: of the month)": _tr("First / last event shown (month: of the month)"),
        "Open the selected event": _tr("Open the selected event"),
        "Delete the selected event (Undo in the notice)": _tr("Delete the selected event (Undo in the notice)"),
        "Clear the selection": _tr("Clear the selection"),
        "Menu of the selected event": _tr("Menu of the selected event"),
        "Move through the results": _tr("Move through the results"),
        "Show the result in the calendar": _tr("Show the result in the calendar"),
        "Clear the search": _tr("Clear the search"),
    }


def key_text(keys: list[QKeySequence]) -> str:
    """The keys people can press: a platform's bindings for the dedicated Help, Copy, Exit …
    keys of some keyboards are left out; listed by name ("帮助", "退出") they read as actions,
    not keys (issue 32)."""
    return ", ".join(key.toString(QKeySequence.SequenceFormat.NativeText) for key in keys if _typable(key))


def _typable(key: QKeySequence) -> bool:
    if key.isEmpty():
        return False
    combination = key[0]  # type: ignore[index]  # QKeySequence.__getitem__ is in PySide6, not in its stubs
    if combination.keyboardModifiers() != Qt.KeyboardModifier.NoModifier:
        return True
    code = int(combination.key().value)
    return code != int(Qt.Key.Key_Help.value) and code < int(Qt.Key.Key_Back.value)


def plain(text: str) -> str:
    """A menu label without its mnemonic ampersand, trailing ellipsis or CJK "(&X)"."""
    for mnemonic in ("(&" + ch + ")" for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
        text = text.replace(mnemonic, "")
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def menu_shortcuts(bar: QMenuBar) -> list[tuple[str, list[tuple[str, str]]]]:
    """(menu title, [(action, keys)]) for every menu action that has a shortcut."""
    groups = []
    for top in bar.actions():
        menu = top.menu()
        if not isinstance(menu, QMenu):
            continue
        rows = [
            (plain(action.text()), key_text(action.shortcuts()))
            for action in menu.actions()
            if isinstance(action, QAction) and action.shortcuts()
        ]
        if rows:
            groups.append((plain(top.text()), rows))
    return groups


class ShortcutsDialog(QDialog):
    def __init__(self, bar: QMenuBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        groups = menu_shortcuts(bar)
        names, words = _group_names(), _descriptions()
        view_groups: dict[str, list[tuple[str, str]]] = {}
        for group, keys, text in VIEW_KEYS:
            shown = key_text([QKeySequence(part.strip()) for part in keys.split(",")])
            view_groups.setdefault(names[group], []).append((words[text], shown))
        groups += list(view_groups.items())
        for title, rows in groups:
            heading = QTreeWidgetItem(self.tree, [title, ""])
            heading.setFirstColumnSpanned(True)
            font = heading.font(0)
            font.setBold(True)
            heading.setFont(0, font)
            heading.setFlags(Qt.ItemFlag.ItemIsEnabled)
            for action, keys in rows:
                QTreeWidgetItem(self.tree, ["    " + action, keys])
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self._fit()

    def rows(self) -> list[tuple[str, str]]:
        """(action, keys) of every visible row (headings have no keys), for tests."""
        out = []
        for item in self._top_items():
            if item.text(1) and not item.isHidden():
                out.append((item.text(0).strip(), item.text(1)))
        return out

    def _top_items(self) -> list[QTreeWidgetItem]:
        """The tree's rows in order (Qt types ``topLevelItem`` as optional; each index below the count has one)."""
        rows = (self.tree.topLevelItem(index) for index in range(self.tree.topLevelItemCount()))
        return [item for item in rows if item is not None]

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        heading: QTreeWidgetItem | None = None
        any_shown = False
        for item in self._top_items():
            if not item.text(1):
                if heading is not None:
                    heading.setHidden(not any_shown)
                heading, any_shown = item, False
                continue
            hit = not needle or needle in item.text(0).lower() or needle in item.text(1).lower()
            item.setHidden(not hit)
            any_shown = any_shown or hit
        if heading is not None:
            heading.setHidden(not any_shown)

    def _fit(self) -> None:
        """As tall as the list (up to most of a small screen), as wide as its columns."""
        rows = self.tree.topLevelItemCount()
        row = self.tree.sizeHintForRow(0) if rows else 20
        width = sum(self.tree.sizeHintForColumn(column) for column in range(2)) + 48
        height = min(rows * row + self.tree.header().sizeHint().height() + 8, 520)
        self.tree.setMinimumSize(min(width, 640), min(height, 360))
        self.resize(min(width + 24, 700), height + self.filter.sizeHint().height() + 80)
