"""Reminders while the app runs: VALARMs fire as system notifications, once each.

A timer asks ``agent.services.reminders.due_reminders`` what fell due since the last look,
so a reminder is never computed twice from the same window and a moved event's alarm moves
with it. Where the desktop has a system tray the reminder is a tray notification; where it
has none (some Linux desktops, offscreen) it is a small non-modal window, so a reminder is
never silently lost. Reminders for events that already ended while the computer slept are
skipped: a pile of stale pop-ups helps nobody.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QStyle, QSystemTrayIcon, QWidget

from agent.services.reminders import due_reminders
from agent.store.events import Occurrence
from app.context import AppContext

CHECK_INTERVAL_MS = 20_000
STARTUP_GRACE = timedelta(minutes=1)


class ReminderService(QObject):
    fired = Signal(object, object)  # Occurrence, fire time

    def __init__(self, ctx: AppContext, parent_window: QWidget | None = None) -> None:
        super().__init__(parent_window)
        self.ctx = ctx
        self.window = parent_window
        self.tray: QSystemTrayIcon | None = None
        self.popups: list[QMessageBox] = []
        self._fired: set[tuple[str, str, str]] = set()
        self._last = ctx.now() - STARTUP_GRACE
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_INTERVAL_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()
        ctx.ops.changed.connect(self._events_changed)

    @Slot()
    def check(self, now: datetime | None = None) -> list[tuple[Occurrence, datetime]]:
        """Fire what fell due since the last check; returns what fired (tests pass ``now``)."""
        now = now or self.ctx.now()
        if now <= self._last:
            return []
        try:
            found = due_reminders(self.ctx.store, self.ctx.profile_id, self._last, now, self.ctx.tz)
        except Exception:  # a reminder check must never take the window down
            return []
        self._last = now
        fresh = []
        for occ, fire in found:
            key = (occ.uid, str(occ.start), fire.isoformat())
            if key in self._fired or _ended(occ, now, self.ctx):
                continue
            self._fired.add(key)
            fresh.append((occ, fire))
            self.notify(occ, now)
            self.fired.emit(occ, fire)
        return fresh

    @Slot(object)
    def _events_changed(self, _changes: object) -> None:
        QTimer.singleShot(0, self.check)

    def message_for(self, occ: Occurrence, now: datetime) -> str:
        if not isinstance(occ.start, datetime):
            return self.tr("Today, all day") if occ.start == now.date() else self.tr("{0}, all day").format(occ.start.isoformat())
        start = occ.start.astimezone(self.ctx.tz)
        minutes = int((start - now).total_seconds() // 60)
        if minutes > 0:
            return self.tr("Starts at {0} (in {1} min)").format(f"{start:%H:%M}", minutes)
        return self.tr("Started at {0}").format(f"{start:%H:%M}")

    def notify(self, occ: Occurrence, now: datetime) -> None:
        body = self.message_for(occ, now)
        if occ.location:
            body += f" · {occ.location}"
        if QSystemTrayIcon.isSystemTrayAvailable():
            if self.tray is None:
                icon = self.window.windowIcon() if self.window is not None else None
                if icon is None or icon.isNull():
                    style = self.window.style() if self.window is not None else None
                    icon = style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation) if style else icon
                self.tray = QSystemTrayIcon(icon, self)
                self.tray.show()
            self.tray.showMessage(occ.title, body, QSystemTrayIcon.MessageIcon.Information, 15_000)
            return
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Information)
        box.setWindowTitle(self.tr("Reminder"))
        box.setText(occ.title)
        box.setInformativeText(body)
        box.addButton(self.tr("Dismiss"), QMessageBox.ButtonRole.AcceptRole)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _result, b=box: self.popups.remove(b) if b in self.popups else None)
        self.popups.append(box)
        box.show()


def _ended(occ: Occurrence, now: datetime, ctx: AppContext) -> bool:
    end = occ.end
    if isinstance(end, datetime):
        return end <= now
    return end <= now.astimezone(ctx.tz).date()
