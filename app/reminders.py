"""Reminders while the app runs: VALARMs fire on time, once each, and can be snoozed.

One single-shot timer sleeps until the next fire time (``next_fire_after``: the earliest
alarm or snooze after the last look), instead of polling every 20 s, so a reminder shows
within the timer's precision of its due instant. The sleep is capped (``MAX_SLEEP``) so a
suspended laptop or a changed clock is noticed, and any change to the events re-plans at
once, so a moved event's alarm moves with it.

Where a reminder shows, in order: the desktop's notification service
(``org.freedesktop.Notifications``, with Snooze buttons, see ``app/notifications.py``); the
system tray's balloon (clicking it opens the in-app popup, which has the snooze buttons);
otherwise the in-app popup itself, so a reminder is never silently lost. Snoozes (5, 10,
30 min, or until the start) are rows in the database (``reminder_snoozes``), so they
survive a restart. Reminders for events that already ended while the computer slept are
skipped: a pile of stale pop-ups helps nobody.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMessageBox, QPushButton, QStyle, QSystemTrayIcon, QWidget

from agent.services.reminders import (
    clear_snooze,
    due_reminders,
    due_snoozes,
    next_fire_after,
    occurrence_key,
    snooze,
    snoozed_until,
)
from agent.store.occurrence import Occurrence
from app.context import AppContext
from app.notifications import DesktopNotifications

STARTUP_GRACE = timedelta(minutes=1)
MAX_SLEEP = timedelta(minutes=15)  # re-plan at least this often (suspend, clock changes)
SNOOZE_MINUTES = (5, 10, 30)
UNTIL_START = -1  # the "until it starts" choice
AUTO = object()


class ReminderScheduler(QObject):
    """Plans the next alarm on a timer and shows what is due (a QObject of the app; the
    headless reminder rules it calls are ``agent.services.reminders``)."""

    fired = Signal(object, object)  # Occurrence, fire time
    snoozed = Signal(object, object)  # Occurrence, the time it will remind again

    def __init__(self, ctx: AppContext, parent_window: QWidget | None = None, desktop: object = AUTO) -> None:
        super().__init__(parent_window)
        self.ctx = ctx
        self.window = parent_window
        self.tray: QSystemTrayIcon | None = None
        self.popups: list[QMessageBox] = []
        self._fired: set[tuple[str, str, str]] = set()
        self._shown: dict[str, Occurrence] = {}  # notification key -> occurrence (for snoozes)
        self._tray_last: Occurrence | None = None
        self._last = ctx.now() - STARTUP_GRACE
        self.next_due: datetime | None = None
        self.desktop: DesktopNotifications | None = (
            DesktopNotifications.connect() if desktop is AUTO else desktop  # type: ignore[assignment]
        )
        if self.desktop is not None:
            self.desktop.actionInvoked.connect(self._desktop_action)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._wake)
        ctx.ops.changed.connect(self._events_changed)
        self.schedule()

    # ---- timing ------------------------------------------------------------------------

    def schedule(self, now: datetime | None = None) -> datetime | None:
        """Arm the timer for the next fire time after the last look (capped at MAX_SLEEP);
        returns that fire time (tests read ``next_due`` and ``timer.interval()``)."""
        now = now or self.ctx.now()
        reference = max(now, self._last)
        try:
            upcoming = next_fire_after(self.ctx.store, self.ctx.profile_id, reference, self.ctx.tz)
        except Exception:  # a reminder lookup must never take the window down
            upcoming = None
        self.next_due = upcoming
        wake = min(upcoming, now + MAX_SLEEP) if upcoming is not None else now + MAX_SLEEP
        delay_ms = max(0, int((wake - now).total_seconds() * 1000))
        self.timer.start(delay_ms)
        return upcoming

    @Slot()
    def _wake(self) -> None:
        self.check()

    @Slot()
    def check(self, now: datetime | None = None) -> list[tuple[Occurrence, datetime]]:
        """Fire what fell due since the last check, then sleep until the next one; returns
        what fired (tests pass ``now``)."""
        now = now or self.ctx.now()
        if now <= self._last:
            self.schedule(now)
            return []
        try:
            found = due_reminders(self.ctx.store, self.ctx.profile_id, self._last, now, self.ctx.tz)
            again = due_snoozes(self.ctx.store, self.ctx.profile_id, self._last, now, self.ctx.tz)
        except Exception:
            self.schedule(now)
            return []
        self._last = now
        fresh = []
        handled = {occurrence_key(occ) + occ.uid for occ in self._pending_snoozes(found)}
        for (occ, fire), was_snoozed in [*((item, False) for item in found), *((item, True) for item in again)]:
            if was_snoozed:
                clear_snooze(self.ctx.store, self.ctx.profile_id, occ)
                fire = fire.astimezone(self.ctx.tz)
            elif occurrence_key(occ) + occ.uid in handled:
                continue  # already shown and snoozed (a restart inside the start-up grace)
            key = (occ.uid, str(occ.start), fire.isoformat())
            if key in self._fired or _ended(occ, now, self.ctx):
                continue
            self._fired.add(key)
            fresh.append((occ, fire))
            self.notify(occ, now, snoozed=was_snoozed)
            self.fired.emit(occ, fire)
        self.schedule(now)
        return fresh

    def _pending_snoozes(self, found: list[tuple[Occurrence, datetime]]) -> list[Occurrence]:
        return [occ for occ, _fire in found if snoozed_until(self.ctx.store, self.ctx.profile_id, occ) is not None]

    @Slot(object)
    def _events_changed(self, _changes: object) -> None:
        QTimer.singleShot(0, self.schedule)

    # ---- snoozing ------------------------------------------------------------------------

    def snooze_choices(self, occ: Occurrence, now: datetime) -> list[tuple[str, int]]:
        """(label, minutes) for the snooze buttons; UNTIL_START while the start is ahead."""
        choices = [(self.tr("Snooze {0} min").format(minutes), minutes) for minutes in SNOOZE_MINUTES]
        start = occ.start
        if isinstance(start, datetime) and start - now > timedelta(minutes=1):
            choices.append((self.tr("Until it starts"), UNTIL_START))
        return choices

    def snooze(self, occ: Occurrence, minutes: int, now: datetime | None = None) -> datetime:
        """Remind about ``occ`` again in ``minutes`` (or at its start); persists."""
        now = now or self.ctx.now()
        if minutes == UNTIL_START and isinstance(occ.start, datetime):
            until = occ.start
        else:
            until = now + timedelta(minutes=max(1, minutes))
        fire = snooze(self.ctx.store, self.ctx.profile_id, occ, until, now)
        self.snoozed.emit(occ, fire)
        self.schedule(now)
        return fire

    @Slot(str, str)
    def _desktop_action(self, key: str, action: str) -> None:
        occ = self._shown.get(key)
        if occ is None:
            return
        if action.startswith("snooze-"):
            self.snooze(occ, int(action.removeprefix("snooze-")))
        elif action == "default" and self.window is not None:
            self.window.raise_()
            self.window.activateWindow()

    # ---- showing -------------------------------------------------------------------------

    def message_for(self, occ: Occurrence, now: datetime) -> str:
        if not isinstance(occ.start, datetime):
            return self.tr("Today, all day") if occ.start == now.date() else self.tr("{0}, all day").format(occ.start.isoformat())
        start = occ.start.astimezone(self.ctx.tz)
        ahead = (start - now).total_seconds()
        minutes = -int(-ahead // 60)  # rounded up: 40 s ahead is "in 1 min", not "started" (issue 32)
        if ahead > 0:
            return self.tr("Starts at {0} (in {1} min)").format(f"{start:%H:%M}", minutes)
        return self.tr("Started at {0}").format(f"{start:%H:%M}")

    def notify(self, occ: Occurrence, now: datetime, snoozed: bool = False) -> str:
        """Show one reminder; returns where it went: ``desktop``, ``tray`` or ``popup``."""
        body = self.message_for(occ, now)
        if occ.location:
            body += f" · {occ.location}"
        if snoozed:
            body = self.tr("Snoozed reminder · {0}").format(body)
        key = f"{occ.uid}|{occurrence_key(occ)}"
        if self.desktop is not None:
            actions = [(f"snooze-{minutes}", label) for label, minutes in self.snooze_choices(occ, now)]
            if self.desktop.show(key, occ.title, body, [("default", self.tr("Open Richeng")), *actions]):
                self._shown[key] = occ
                return "desktop"
        if QSystemTrayIcon.isSystemTrayAvailable():
            self._tray().showMessage(occ.title, body, QSystemTrayIcon.MessageIcon.Information, 15_000)
            self._tray_last = occ
            return "tray"
        self.popup(occ, body, now)
        return "popup"

    def popup(self, occ: Occurrence, body: str, now: datetime) -> QMessageBox:
        """The in-app reminder: non-modal, with the snooze choices and Dismiss."""
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Information)
        box.setWindowTitle(self.tr("Reminder"))
        box.setText(occ.title)
        box.setInformativeText(body)
        for label, minutes in self.snooze_choices(occ, now):
            button: QPushButton = box.addButton(label, QMessageBox.ButtonRole.ActionRole)
            button.setObjectName(f"snooze_{minutes}")
            button.clicked.connect(lambda _checked=False, o=occ, m=minutes: self.snooze(o, m))
        box.addButton(self.tr("Dismiss"), QMessageBox.ButtonRole.AcceptRole)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _result, b=box: self.popups.remove(b) if b in self.popups else None)
        self.popups.append(box)
        box.show()
        return box

    def _tray(self) -> QSystemTrayIcon:
        if self.tray is None:
            icon = self.window.windowIcon() if self.window is not None else QIcon()  # QIcon(): none
            if icon.isNull():
                style = self.window.style() if self.window is not None else None
                icon = style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation) if style else icon
            self.tray = QSystemTrayIcon(icon, self)
            self.tray.messageClicked.connect(self._tray_clicked)  # the balloon has no buttons
            self.tray.show()
        return self.tray

    @Slot()
    def _tray_clicked(self) -> None:
        if self._tray_last is not None:
            now = self.ctx.now()
            self.popup(self._tray_last, self.message_for(self._tray_last, now), now)


def _ended(occ: Occurrence, now: datetime, ctx: AppContext) -> bool:
    end = occ.end
    if isinstance(end, datetime):
        return end <= now
    return end <= now.astimezone(ctx.tz).date()
