"""The left column: a mini month to jump with, and the calendars (show/hide, add, rename,
recolour, make default, delete).

Every change is an op of ``ctx.ops`` (``add_calendar``, ``update_calendar``,
``set_default_calendar``, ``delete_calendar``), which announces ``calendars_changed`` and
``changed`` so the views reload. Deleting a calendar deletes its events; it asks first,
then the deletion is one journal entry (the calendar row and its events), so Ctrl+Z or
``richeng undo`` brings both back like any edit; the banner here offers that same entry's
Undo, and hides once it is undone either way.
Dialog-free variants of each action (explicit arguments) serve tests and keyboard users
alike.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QDate, QEvent, QMargins, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QCalendarWidget,
    QColorDialog,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent.services.calendars import Calendar
from agent.services.collection import OpChanges
from app.calendar.search_panel import swatch
from app.context import AppContext
from app.i18n import error_text, ui_lang

if TYPE_CHECKING:
    from agent.sync.subscriptions import Subscription


class Sidebar(QWidget):
    date_picked = Signal(object)  # date
    subscribe_requested = Signal()  # the menu's "Subscribe to calendar…" (the window's refresher answers)
    refresh_requested = Signal(str)  # a subscription's name: refresh it now

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.snapshot: OpChanges | None = None  # the deletion the banner offers to undo
        self.confirm: Callable[[str], bool] = self._confirm
        self.confirm_unsubscribe: Callable[[str], bool] = self._confirm_unsubscribe

        self.mini_month = QCalendarWidget(self)
        self.mini_month.setVerticalHeaderFormat(QCalendarWidget.VerticalHeaderFormat.NoVerticalHeader)
        self.mini_month.setGridVisible(False)
        self.mini_month.setHorizontalHeaderFormat(QCalendarWidget.HorizontalHeaderFormat.SingleLetterDayNames)
        self.mini_month.clicked.connect(self._mini_clicked)
        self.mini_month.activated.connect(self._mini_clicked)

        heading = QLabel(self.tr("Calendars"), self)
        bold = QFont(heading.font())
        bold.setBold(True)
        heading.setFont(bold)
        self.add_button = QToolButton(self)
        self.add_button.setText("+")
        self.add_button.setToolTip(self.tr("Add a calendar"))
        self.add_button.clicked.connect(lambda: self.add_calendar())
        header_row = QHBoxLayout()
        header_row.addWidget(heading, 1)
        header_row.addWidget(self.add_button)

        self.list = QListWidget(self)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._context_menu)
        self.list.itemChanged.connect(self._item_changed)
        self.list.itemDoubleClicked.connect(lambda item: self.rename_calendar(self._name(item)))

        self.banner = QFrame(self)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner_label = QLabel(self.banner)
        self.banner_label.setWordWrap(True)
        self.undo_button = QPushButton(self.tr("Undo"), self.banner)
        self.undo_button.clicked.connect(self.undo_delete)
        banner_row = QHBoxLayout(self.banner)
        banner_row.setContentsMargins(6, 4, 6, 4)
        banner_row.addWidget(self.banner_label, 1)
        banner_row.addWidget(self.undo_button)
        self.banner.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.mini_month)
        layout.addLayout(header_row)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.banner)
        ctx.ops.calendars_changed.connect(self.refresh)
        ctx.ops.reverted.connect(self._reverted)
        self.refresh()
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_width)
        self._fit_width()

    def _fit_width(self) -> None:
        """As wide as the mini month needs, never less.

        A fixed 200-px minimum let the week view's wide navigation bar squeeze the mini
        month below its own minimum; with a larger theme font (the GTK dark theme) its
        Sunday column was cut off. The width now follows the calendar's minimum size
        hint, re-measured whenever the font or style changes."""
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        need = self.mini_month.minimumSizeHint().width() + margins.left() + margins.right()
        self.setMinimumWidth(max(200, need))
        self.setMaximumWidth(max(240, need))

    def changeEvent(self, event: QEvent) -> None:  # a Qt override keeps Qt's name
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.PaletteChange):
            # The mini month re-measures on the same event; read it after that (a timer the
            # sidebar owns: it dies with it, a bare singleShot could fire on a deleted one).
            timer = getattr(self, "_fit_timer", None)  # None while __init__ still runs
            if timer is not None:
                timer.start()
        super().changeEvent(event)

    # ---- state ---------------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        kinds = self.ctx.ops.read_only.kinds()
        subscriptions = self._subscriptions() if "subscription" in kinds.values() else {}
        for calendar in self.ctx.ops.calendars.list():
            item = QListWidgetItem(swatch(calendar.color, 14), calendar.name)
            item.setData(Qt.ItemDataRole.UserRole, calendar.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if calendar.visible else Qt.CheckState.Unchecked)
            if calendar.is_default:
                font = QFont(item.font())
                font.setBold(True)
                item.setFont(font)
                item.setToolTip(self.tr("{0} (default calendar for new events)").format(calendar.name))
            if calendar.id in kinds:
                self._mark_read_only(item, calendar, subscriptions.get(calendar.id))
            self.list.addItem(item)
        self.list.blockSignals(False)

    def _subscriptions(self) -> dict[int, Subscription]:
        from agent.sync.subscriptions import SubscriptionService

        return SubscriptionService(self.ctx.store, self.ctx.profile_id).by_calendar()

    def _mark_read_only(self, item: QListWidgetItem, calendar: Calendar, subscription: Subscription | None) -> None:
        """A lock and "read-only" beside the name; a subscription also says when it was last
        refreshed (or that the last refresh failed, with its line in the tooltip)."""
        item.setIcon(locked_swatch(calendar.color, 14))
        line = self.tr("Read-only")
        tip = [error_text(refusal)] if (refusal := self.ctx.ops.read_only_refusal(calendar.id)) else []
        if subscription is not None:
            when = self._when(subscription.refreshed_at)
            line += " · " + (self.tr("refreshed {0}").format(when) if when else self.tr("not refreshed yet"))
            tip.insert(0, subscription.url)
            failure = subscription.error_text(ui_lang())
            if failure:
                line += " · " + self.tr("last refresh failed")
                tip.append(failure)
        item.setText(f"{calendar.name}\n{line}")
        item.setToolTip("\n".join(tip))

    def _when(self, stamp: str | None) -> str:
        """A UTC ISO stamp as the user's local month, day and time ("12-04 09:30")."""
        if not stamp:
            return ""
        try:
            moment = datetime.fromisoformat(stamp).astimezone(self.ctx.tz)
        except ValueError:
            return ""
        return f"{moment:%m-%d %H:%M}"

    def calendars(self) -> list[Calendar]:
        return self.ctx.ops.calendars.list()

    def set_date(self, day: date, week_start: int = 1) -> None:
        self.mini_month.blockSignals(True)
        self.mini_month.setFirstDayOfWeek(Qt.DayOfWeek(week_start))
        self.mini_month.setSelectedDate(QDate(day.year, day.month, day.day))
        self.mini_month.blockSignals(False)

    def _name(self, item: QListWidgetItem | None) -> str:
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else ""

    @Slot(QDate)
    def _mini_clicked(self, value: QDate) -> None:
        self.date_picked.emit(date(value.year(), value.month(), value.day()))

    @Slot(QListWidgetItem)
    def _item_changed(self, item: QListWidgetItem) -> None:
        self.set_visible(self._name(item), item.checkState() == Qt.CheckState.Checked)

    @Slot(QPoint)
    def _context_menu(self, pos: QPoint) -> None:
        self.context_menu(self.list.itemAt(pos)).exec(self.list.mapToGlobal(pos))

    def context_menu(self, item: QListWidgetItem | None) -> QMenu:
        """The menu of ``item`` (None: the empty part of the list, which only subscribes)."""
        menu = QMenu(self)
        if item is not None:
            name = self._name(item)
            kinds = self.ctx.ops.read_only.kinds()
            calendar = next((c for c in self.ctx.ops.calendars.list() if c.name == name), None)
            why = kinds.get(calendar.id) if calendar is not None else None
            menu.addAction(self.tr("Rename…"), lambda: self.rename_calendar(name))
            menu.addAction(self.tr("Change colour…"), lambda: self.recolour_calendar(name))
            if why is None:  # new events never go to a read-only calendar
                menu.addAction(self.tr("Use for new events"), lambda: self.make_default(name))
            if why == "subscription":
                menu.addAction(self.tr("Refresh now"), lambda: self.refresh_requested.emit(name))
            menu.addSeparator()
            if why == "subscription":
                menu.addAction(self.tr("Unsubscribe…"), lambda: self.unsubscribe(name))
            else:
                menu.addAction(self.tr("Delete…"), lambda: self.delete_calendar(name))
            menu.addSeparator()
        menu.addAction(self.tr("Subscribe to calendar…"), self.subscribe_requested.emit)
        return menu

    # ---- actions (explicit arguments skip the dialogs) -----------------------------------

    def add_calendar(self, name: str | None = None, color: str | None = None) -> Calendar | None:
        if name is None:
            name, ok = QInputDialog.getText(self, self.tr("New calendar"), self.tr("Name:"))
            if not ok or not name.strip():
                return None
        return self.ctx.ops.add_calendar(name, color)

    def rename_calendar(self, name: str, new_name: str | None = None) -> Calendar | None:
        if not name:
            return None
        if new_name is None:
            new_name, ok = QInputDialog.getText(self, self.tr("Rename calendar"), self.tr("Name:"), text=name)
            if not ok or not new_name.strip() or new_name == name:
                return None
        return self.ctx.ops.update_calendar(name, new_name=new_name)

    def recolour_calendar(self, name: str, color: str | None = None) -> Calendar | None:
        if color is None:
            current = QColor(self.ctx.ops.calendars.get(name).color)
            chosen = QColorDialog.getColor(current, self, self.tr("Colour of “{0}”").format(name))
            if not chosen.isValid():
                return None
            color = chosen.name()
        return self.ctx.ops.update_calendar(name, color=color)

    def set_visible(self, name: str, visible: bool) -> Calendar | None:
        return self.ctx.ops.update_calendar(name, visible=visible)

    def make_default(self, name: str) -> Calendar | None:
        return self.ctx.ops.set_default_calendar(name)

    def delete_calendar(self, name: str) -> OpChanges | None:
        if not self.confirm(self.tr("Delete the calendar “{0}” and all its events?").format(name)):
            return None
        deleted = self.ctx.ops.delete_calendar(name)
        if deleted is None:
            return None
        self.snapshot = deleted
        count = len({change.uid for change in deleted.events.deleted})
        self.banner_label.setText(self.tr("Deleted “{0}” and {1} event(s).").format(name, count))
        self.banner.show()
        return deleted

    def unsubscribe(self, name: str) -> bool:
        """Stop a subscription and remove its calendar (a refresh would only bring its events
        back; subscribing again does). Asks first; not an undo step."""
        if not self.confirm_unsubscribe(self.tr("Unsubscribe from “{0}” and remove its events?").format(name)):
            return False
        return self.ctx.ops.unsubscribe(name)

    @Slot()
    def undo_delete(self) -> Calendar | None:
        """The banner's Undo: the same journal entry Ctrl+Z (or ``richeng undo``) takes back."""
        deleted = self.snapshot
        if deleted is None or deleted.calendar is None:
            self.banner.hide()
            return None
        restored = self.ctx.ops.undo_specific(deleted.events)
        if restored is None:
            if self.snapshot is deleted:
                self.snapshot = None  # nothing left to undo for this banner (``failed`` said why)
                self.banner.hide()
            return None
        return next((c for c in self.ctx.ops.calendars.list() if c.name == deleted.calendar.name), None)

    @Slot(object)
    def _reverted(self, changes: object) -> None:
        """A step was undone (this banner, Ctrl+Z or Edit ▸ Undo): if it was the deletion
        this banner offers, the banner goes."""
        if self.snapshot is not None and changes is self.snapshot.events:
            self.snapshot = None
            self.banner.hide()

    def _confirm(self, text: str) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Delete calendar"),
            text + "\n" + self.tr("You can undo this right after."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _confirm_unsubscribe(self, text: str) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Unsubscribe"),
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes


def locked_swatch(color: str, size: int = 14) -> QIcon:
    """The calendar's colour with a small white padlock drawn on it: read-only at a glance,
    painted rather than an emoji, which many desktops' fonts lack."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(color))
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor("white"))
    pen.setWidthF(max(1.2, size / 10))
    painter.setPen(pen)
    unit = size / 14
    painter.drawArc(int(4 * unit), int(2 * unit), int(6 * unit), int(6 * unit), 0, 180 * 16)  # the shackle
    painter.setBrush(QColor("white"))
    painter.drawRect(int(3 * unit), int(6 * unit), int(8 * unit), int(6 * unit))  # the body
    painter.end()
    return QIcon(pixmap)
