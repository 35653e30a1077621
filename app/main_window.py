"""The main window: calendar area on the left, chat pane on the right, menus, drag-and-drop.

It only composes; the panes do their own work and every write goes through
``ctx.ops`` (see ``app/write_path.py``).

Start-up (issue 14, item 6): the app builds the window with ``deferred=True``, so the first
paint has the calendar and a placeholder where the chat goes; ``finish_startup`` then builds
the chat pane (and with it the agent runtime), sync and reminders. Their modules are
imported there, not above: together they are most of the app's start-up CPU.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSize, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QMainWindow, QMenu, QMessageBox, QSplitter, QToolButton, QWidget

from agent import __version__
from agent.errors import StoreError
from app.calendar.calendar_area import CalendarArea
from app.context import AppContext
from app.keyboard import chain_tab_order, install_click_guard, next_tab_stop

if TYPE_CHECKING:
    from app.chat.chat_pane import ChatPane
    from app.reminders import ReminderScheduler
    from app.subscriptions import SubscriptionRefresher
    from app.sync.sync_controller import SyncController

QUICK_ADD_KEY = "Ctrl+L"
# A pair, like Thunderbird's F9 for its Today pane; F10 is free in Qt (Shift+F10 is the
# selected event's menu, app/shortcuts_dialog.py) and no Linux desktop takes it from a Qt window.
SIDEBAR_KEY, CHAT_KEY = "F9", "F10"
CHAT_MIN_WIDTH = 300  # a receipt's footer ("Show in calendar", Undo) fits without clipping
DEFAULT_SIZE = (1360, 860)  # the first start's size where the screen has room for it
SCREEN_SHARE = 0.92  # else this share of the screen's free area, so nothing is cut off (issue 32)


def first_size(screen: QSize | None) -> tuple[int, int]:
    """The window's size before any is remembered: ``DEFAULT_SIZE``, shrunk to fit the screen."""
    width, height = DEFAULT_SIZE
    if screen is None or screen.isEmpty():
        return width, height
    return min(width, int(screen.width() * SCREEN_SHARE)), min(height, int(screen.height() * SCREEN_SHARE))


class MainWindow(QMainWindow):
    chat: ChatPane
    sync: SyncController
    reminders: ReminderScheduler
    subscriptions: SubscriptionRefresher

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, deferred: bool = False) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("日程 Richeng"))
        self.resize(*first_size(self.screen().availableGeometry().size() if self.screen() else None))
        self.setAcceptDrops(True)
        self.started = False  # finish_startup has run: chat, sync and reminders exist
        self._chat_width = 380  # the chat pane's width to come back at (View → Chat pane)

        self.calendar = CalendarArea(ctx, self)
        placeholder = QLabel(self.tr("正在加载对话… Loading chat…"), self)
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        placeholder.setMinimumWidth(CHAT_MIN_WIDTH)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.calendar)
        splitter.addWidget(placeholder)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(0, False)
        splitter.setSizes([980, 380])
        self.splitter = splitter
        self.setCentralWidget(splitter)
        ctx.ops.failed.connect(self._show_error)
        self.sync_button = QToolButton(self)
        self.sync_button.setText(self.tr("Sync"))
        self.sync_button.setToolTip(self.tr("Sync with your CalDAV accounts now (F5)"))
        self.sync_button.setEnabled(False)  # until the sync controller exists
        self.statusBar().addPermanentWidget(self.sync_button)
        self._build_menus()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            install_click_guard(app)
        self.statusBar().showMessage(self.tr("Ready"), 3000)
        self._restore_window()
        if not deferred:
            self.finish_startup()

    def finish_startup(self) -> None:
        """Build what the first paint does not show: the chat pane (which loads the agent
        runtime and the model settings), sync and reminders. Runs once."""
        if self.started:
            return
        self.started = True
        from app.chat.chat_pane import ChatPane
        from app.reminders import ReminderScheduler
        from app.sync.sync_controller import SyncController

        ctx = self.ctx
        self.chat = ChatPane(ctx, self)
        # Never squeeze the chat to nothing; the calendar is never hidden by the divider.
        self.chat.setMinimumWidth(CHAT_MIN_WIDTH)
        hidden = not self.chat_slot().isVisibleTo(self)  # View → Chat pane may already have closed it
        placeholder = self.splitter.replaceWidget(1, self.chat)
        if placeholder is not None:
            placeholder.deleteLater()
        # With no model the pane only explains how to get one: its minimum width, so the views
        # keep the room (at 960 px the month's titles were cut to a character or two; issue 32).
        if ctx.session.model is None:
            self._chat_width = CHAT_MIN_WIDTH
        total = sum(self.splitter.sizes()) or 1360
        self.splitter.setSizes([total - self._chat_width, self._chat_width])
        self.chat.setHidden(hidden)
        self.chat.navigate.connect(self.calendar.show_event)
        self.chat.quick_add_requested.connect(self.calendar.focus_quick_add)
        chain_tab_order([self.calendar, self.chat, self.statusBar()])  # Tab: the view, then the chat, then Sync

        self.sync = SyncController(ctx.store, ctx.profile_id, self)
        self.sync.status_changed.connect(self._sync_status)
        self.sync.events_changed.connect(lambda changes: ctx.ops.imported(changes))
        self.sync.conflicts_changed.connect(self._sync_conflicts)
        self.sync_button.clicked.connect(self.sync.sync_now)
        self.sync.busy_changed.connect(lambda busy: self.sync_button.setEnabled(not busy))
        self.sync_button.setEnabled(True)
        self.reminders = ReminderScheduler(ctx, self)
        from app.subscriptions import SubscriptionRefresher

        self.subscriptions = SubscriptionRefresher(ctx, self)  # a few seconds after start, then hourly
        self.calendar.sidebar.subscribe_requested.connect(self._subscribe)
        self.calendar.sidebar.refresh_requested.connect(self.subscriptions.refresh_now)
        from app.store_watch import StoreWatcher

        self.store_watch = StoreWatcher(ctx, self)

    def _subscribe(self) -> None:
        """File ▸ Subscribe to calendar… (and the sidebar's menu): ask the address, fetch it
        in the background; the new read-only calendar appears in the sidebar when it is in."""
        if self.started:
            self.subscriptions.ask_and_subscribe(self)

    def focusNextPrevChild(self, next: bool) -> bool:  # a Qt override keeps Qt's name
        """Tab and Shift+Tab walk the window's parts in their laid-out order, round the ring
        (``app/keyboard.next_tab_stop``)."""
        parts = [self.calendar, self.chat_slot(), self.statusBar()]
        target = next_tab_stop(parts, QApplication.focusWidget(), next)
        if target is None:
            return super().focusNextPrevChild(next)
        target.setFocus(Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
        return True

    def _sync_now(self) -> None:
        if self.started:
            self.sync.sync_now()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        self._action(file_menu, self.tr("&New event…"), QKeySequence.StandardKey.New, self.calendar.new_event)
        # Ctrl+L: "go to the line at the top" (a browser's address bar); free everywhere here.
        self.quick_add_action = self._action(
            file_menu, self.tr("&Quick add"), QKeySequence(QUICK_ADD_KEY), self.calendar.focus_quick_add
        )
        self._action(file_menu, self.tr("&Import .ics…"), QKeySequence("Ctrl+I"), self._import_dialog)
        self._action(file_menu, self.tr("&Export .ics…"), QKeySequence("Ctrl+E"), self._export_dialog)
        self._action(file_menu, self.tr("Subscribe to calendar…"), None, self._subscribe)

        self._action(file_menu, self.tr("&Print…"), QKeySequence.StandardKey.Print, self.print_preview)
        file_menu.addSeparator()
        self._action(file_menu, self.tr("S&ync now"), QKeySequence("F5"), self._sync_now)
        # Linux desktops define no standard Preferences/Quit keys: Ctrl+, and Ctrl+Q as GNOME apps use.
        self.settings_action = self._action(
            file_menu, self.tr("&Settings…"), _with_fallback(QKeySequence.StandardKey.Preferences, "Ctrl+,"), self.open_settings
        )
        self._action(file_menu, self.tr("&Quit"), _with_fallback(QKeySequence.StandardKey.Quit, "Ctrl+Q"), self.close)

        edit_menu = bar.addMenu(self.tr("&Edit"))
        # Undo/Redo run on the ops' pool (an import's undo is half a second of CPU); the result
        # comes back to this thread, and meanwhile the cursor is busy and the status bar says so.
        undo, redo = partial(self.ctx.ops.undo, background=True), partial(self.ctx.ops.redo, background=True)
        self.undo_action = self._action(edit_menu, self.tr("&Undo"), QKeySequence.StandardKey.Undo, undo)
        self.redo_action = self._action(edit_menu, self.tr("&Redo"), QKeySequence("Ctrl+Shift+Z"), redo)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.ctx.ops.undo_state_changed.connect(self._undo_state)
        self.ctx.ops.busy_changed.connect(self._ops_busy)
        edit_menu.addSeparator()
        # Within the calendar only: a text field there takes Ctrl+C/V first (Qt's override).
        self._action(
            edit_menu, self.tr("&Copy event"), QKeySequence.StandardKey.Copy, self.calendar.copy_event, scope=self.calendar
        )
        self._action(
            edit_menu, self.tr("&Paste event"), QKeySequence.StandardKey.Paste, self.calendar.paste_event, scope=self.calendar
        )
        edit_menu.addSeparator()
        self._action(edit_menu, self.tr("&Find…"), QKeySequence.StandardKey.Find, self.calendar.focus_search)
        self._undo_state(self.ctx.ops.can_undo(), self.ctx.ops.can_redo())  # the journal's, from the start

        view_menu = bar.addMenu(self.tr("&View"))
        # Single letters fire only while the calendar has the focus (app/keyboard.py).
        self._action(view_menu, self.tr("&Today"), QKeySequence("T"), self.calendar.go_today, scope=self.calendar)
        # Ctrl+G as Thunderbird's and Outlook's Go to date: the date box, its text selected.
        self._action(view_menu, self.tr("&Go to date…"), QKeySequence("Ctrl+G"), self.calendar.focus_date)
        for key, name, label in (
            ("D", "day", self.tr("&Day")),
            ("K", "workweek", self.tr("Wor&k week")),
            ("W", "week", self.tr("&Week")),
            ("M", "month", self.tr("&Month")),
            ("A", "agenda", self.tr("&Agenda")),
        ):
            self._action(view_menu, label, QKeySequence(key), partial(self.calendar.set_view, name), scope=self.calendar)

        view_menu.addSeparator()
        # Both checks always say what is shown (issue 23): the sidebar steps aside by itself
        # when the area is narrow, and the chat pane can be dragged shut.
        self.sidebar_action: QAction = self._action(
            view_menu, self.tr("&Sidebar"), QKeySequence(SIDEBAR_KEY), lambda: self.show_sidebar(self.sidebar_action.isChecked())
        )
        self.sidebar_action.setCheckable(True)
        self.sidebar_action.setChecked(True)
        self.calendar.sidebar_shown.connect(self.sidebar_action.setChecked)
        self.chat_action: QAction = self._action(
            view_menu, self.tr("&Chat pane"), QKeySequence(CHAT_KEY), lambda: self.show_chat(self.chat_action.isChecked())
        )
        self.chat_action.setCheckable(True)
        self.chat_action.setChecked(True)
        self.splitter.splitterMoved.connect(lambda _pos, _index: self._sync_pane_checks())

        help_menu = bar.addMenu(self.tr("&Help"))
        help_keys = [*QKeySequence.keyBindings(QKeySequence.StandardKey.HelpContents), QKeySequence("Ctrl+/")]
        self.shortcuts_action = self._action(help_menu, self.tr("&Keyboard shortcuts"), help_keys, self.show_shortcuts)
        help_menu.addSeparator()
        self._action(help_menu, self.tr("&About Richeng"), None, self._about)

    # ---- sidebar and chat pane (View → Sidebar F9, View → Chat pane F10) -------------------

    def chat_slot(self) -> QWidget:
        """The splitter's right side: the chat pane, or its placeholder before start-up."""
        slot = self.splitter.widget(1)
        assert slot is not None  # built in __init__, replaced (never removed) in finish_startup
        return slot

    def chat_shown(self) -> bool:
        return self.chat_slot().isVisibleTo(self) and self.splitter.sizes()[1] > 0

    def sidebar_shown(self) -> bool:
        return self.calendar.sidebar.isVisibleTo(self.calendar)

    def show_sidebar(self, shown: bool) -> None:
        """F9. Asked for where it does not fit, the sidebar takes its room from the chat
        pane: the chat narrows down to its minimum, and closes when even that is too wide
        (F10 brings it back, and the sidebar then steps aside again: the latest ask wins).
        A window too narrow even without the chat says so in the status bar."""
        width = self.calendar.width()  # what the calendar half will have once the splitter has moved
        if shown and not self.calendar.sidebar_fits(width) and self.chat_shown():
            total = sum(self.splitter.sizes())
            room = self.calendar.sidebar_room()
            if total - room >= CHAT_MIN_WIDTH:
                self.splitter.setSizes([room, total - room])
                width = room
            else:
                self.show_chat(False)
                width = total
        self.calendar.set_sidebar_wanted(shown, width)
        self._sync_pane_checks()
        if shown and not self.sidebar_shown():
            self.statusBar().showMessage(self.tr("The window is too narrow for the sidebar; widen it"), 5000)

    def show_chat(self, shown: bool) -> None:
        """F10: hide the chat pane (its conversation stays), or bring it back at its last
        width, at least its minimum; the calendar gives up that room, its sidebar first."""
        slot = self.chat_slot()
        if not shown:
            if self.chat_shown():
                self._chat_width = self.splitter.sizes()[1]
            slot.hide()
        else:
            slot.show()
            sizes = self.splitter.sizes()
            if sizes[1] < CHAT_MIN_WIDTH:
                total = sum(sizes)
                width = min(max(self._chat_width, CHAT_MIN_WIDTH), total - self.calendar.minimumSizeHint().width())
                self.splitter.setSizes([total - width, max(width, CHAT_MIN_WIDTH)])
        self._sync_pane_checks()

    def _sync_pane_checks(self) -> None:
        """The two View checks from what is shown (never from what was last clicked)."""
        self.sidebar_action.setChecked(self.sidebar_shown())
        self.chat_action.setChecked(self.chat_shown())

    def _action(
        self,
        menu: QMenu,
        text: str,
        shortcut: QKeySequence | QKeySequence.StandardKey | list[QKeySequence] | None,
        slot: Callable[[], object],
        scope: QWidget | None = None,
    ) -> QAction:
        """A menu action; with ``scope`` its shortcut works only while focus is inside it."""
        action = QAction(text, self)
        if isinstance(shortcut, list):
            action.setShortcuts([key for key in shortcut if not key.isEmpty()])
        elif shortcut is not None:
            action.setShortcut(shortcut)
        if shortcut is not None:
            if scope is not None:
                action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                scope.addAction(action)
            else:
                action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda checked=False: slot())
        menu.addAction(action)
        return action

    @Slot(bool, bool)
    def _undo_state(self, can_undo: bool, can_redo: bool) -> None:
        """Undo/Redo say what they would do: "Undo Delete “周会”"."""
        undo, redo = self.ctx.ops.undo_text(), self.ctx.ops.redo_text()
        self.undo_action.setEnabled(can_undo)
        self.redo_action.setEnabled(can_redo)
        self.undo_action.setText(self.tr("&Undo {0}").format(undo) if can_undo and undo else self.tr("&Undo"))
        self.redo_action.setText(self.tr("&Redo {0}").format(redo) if can_redo and redo else self.tr("&Redo"))

    @Slot(bool)
    def _ops_busy(self, busy: bool) -> None:
        """A background undo/redo: a busy cursor and a status line until its result is in."""
        if busy:
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            self.statusBar().showMessage(self.tr("Undo/redo in progress…"))
        else:
            QApplication.restoreOverrideCursor()
            self.statusBar().clearMessage()

    def show_shortcuts(self) -> None:
        from app.shortcuts_dialog import ShortcutsDialog

        ShortcutsDialog(self.menuBar(), self).exec()

    @Slot(str)
    def _show_error(self, message: str) -> None:
        QMessageBox.warning(self, self.tr("Richeng"), message)

    @Slot(str)
    def _sync_status(self, text: str) -> None:
        self.statusBar().showMessage(text)

    @Slot(int)
    def _sync_conflicts(self, count: int) -> None:
        """Both sides changed: ask which version wins, one conflict at a time."""
        if count <= 0:
            return
        from agent.sync.engine import SyncEngine
        from app.sync.sync_conflict_dialog import SyncConflictDialog

        for conflict in SyncEngine(self.ctx.store, self.ctx.profile_id).conflicts():
            dialog = SyncConflictDialog(conflict, self)
            dialog.chosen.connect(lambda keep, cid=conflict.id: keep and self.sync.resolve(cid, keep))
            dialog.exec()

    def _restore_window(self) -> None:
        """The size, the maximised state and the view of the last session (Settings keep them
        per profile); Qt moves a saved frame that no screen shows back onto one."""
        settings = self.ctx.settings
        saved = settings.get("window_geometry")
        if saved:
            self.restoreGeometry(QByteArray.fromBase64(str(saved).encode("ascii")))
        view = settings.get("window_view")
        if view and view != self.calendar.view_name:
            self.calendar.set_view(str(view))

    def _save_window(self) -> None:
        settings = self.ctx.settings
        try:
            settings.set("window_geometry", bytes(self.saveGeometry().toBase64().data()).decode("ascii"))
            settings.set("window_view", self.calendar.view_name)
        except (StoreError, sqlite3.Error):  # a read-only or full disk: the window still closes
            pass

    def closeEvent(self, event: QCloseEvent) -> None:  # a Qt override keeps Qt's name
        self._save_window()
        if self.started:
            self.sync.shutdown()
        self.ctx.ops.wait()  # an undo still writing finishes before the store can close
        super().closeEvent(event)

    def open_settings(self, page: str | None = None) -> None:
        from app.settings.settings_dialog import SettingsDialog

        self.finish_startup()  # the dialog sets the model and sync interval they read
        dialog = SettingsDialog(self.ctx, self, page=page)
        if dialog.exec():
            app = QApplication.instance()
            if isinstance(app, QApplication) and "theme" in dialog.changed_keys:
                from app.theme import apply_theme

                apply_theme(app, str(self.ctx.settings.get("theme") or "system"))
            self.sync.set_interval_minutes(int(self.ctx.settings.get("sync_interval_minutes") or 0))
            self.calendar.refresh()
            self.chat.model_changed()

    def _import_dialog(self) -> None:
        from app.io.import_export import import_dialog

        import_dialog(self, self.ctx)

    def _export_dialog(self) -> None:
        from app.io.import_export import export_dialog

        export_dialog(self, self.ctx)

    def print_preview(self) -> None:
        """File → Print…: a preview of the shown view's pages (app/print_pages.py)."""
        from app.print_pages import preview_dialog

        dialog = preview_dialog(self, self.ctx, self.calendar.view_name, self.calendar.anchor)
        self.exec_print(dialog)

    def exec_print(self, dialog: QDialog) -> int:
        return dialog.exec()  # a seam: tests look at the dialog instead of running it

    def _about(self) -> None:
        self.about_box().exec()

    def about_box(self) -> QMessageBox:
        """Help → About: titled "About" (the title bar adds "— 日程 Richeng"; "About Richeng —
        日程 Richeng" was elided to "Abo…eng", issue 32), and as wide as its whole title."""
        from PySide6.QtWidgets import QGridLayout, QSizePolicy, QSpacerItem

        from app.settings.holiday_choice import TITLE_BAR_CHROME, TITLE_SEPARATOR

        box = QMessageBox(QMessageBox.Icon.Information, self.tr("About"), "", QMessageBox.StandardButton.Ok, self)
        box.setText(self.tr("日程 Richeng {0}\nA local-first calendar.").format(__version__))
        title = box.windowTitle() + TITLE_SEPARATOR + (QApplication.applicationDisplayName() or "日程 Richeng")
        width = box.fontMetrics().horizontalAdvance(title) + TITLE_BAR_CHROME
        layout = box.layout()
        if isinstance(layout, QGridLayout):
            spacer = QSpacerItem(width, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Minimum)
            layout.addItem(spacer, layout.rowCount(), 0, 1, layout.columnCount())
        return box

    # ---- drag and drop of .ics files ------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # a Qt override keeps Qt's name
        if any(url.toLocalFile().lower().endswith(".ics") for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # a Qt override keeps Qt's name
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.toLocalFile().lower().endswith(".ics")]
        if paths:
            event.acceptProposedAction()
            # Ask after the drop has returned: a modal question inside a drop handler
            # would hold the drag source (the file manager) until it is answered.
            QTimer.singleShot(0, self, lambda: self.import_files(paths))  # dies with the window

    def import_files(self, paths: list[str]) -> None:
        """Ask which calendar, then import (a drop, or files the app was opened with)."""
        from app.io.import_export import import_with_choice

        import_with_choice(self, self.ctx, paths)


def _with_fallback(standard: QKeySequence.StandardKey, fallback: str) -> list[QKeySequence]:
    """The platform's standard keys for an action, or ``fallback`` where it defines none."""
    keys = QKeySequence.keyBindings(standard)
    return keys or [QKeySequence(fallback)]
