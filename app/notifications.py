"""The desktop's own notification service (freedesktop ``org.freedesktop.Notifications``).

Why not QtDBus, which PySide6-Essentials does ship (``PySide6.QtDBus``): ``Notify`` takes
``replaces_id`` as a D-Bus ``u`` (uint32), and PySide6 has no way to build an unsigned
argument: a Python int always goes out as ``i``, and strict servers (GNOME Shell's GDBus,
KDE's Plasma) reject the call as having the wrong signature (checked against a private
``dbus-daemon`` with the bus's own ``StartServiceByName(s, u)``: "wrong args (si, expected su)"). ``jeepney`` — pure
Python, already installed as the keyring's Secret Service transport on Linux — writes the exact signature.

Calls are one short message on the local session socket. The "Snooze" buttons of a
notification come back as ``ActionInvoked`` signals, read on a daemon thread with its own
connection and handed to the Qt side as a signal (queued into the GUI thread). Anything
missing — no session bus, no jeepney, no notification service — means ``connect()``
returns None and the caller falls back to the tray or the in-app popup.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
ENV_SWITCH = "RICHENG_DESKTOP_NOTIFICATIONS"  # 0: never use the desktop service (tests, kiosks)


class DesktopNotifications(QObject):
    """One app's notifications on the session bus; ``actionInvoked(key, action)``."""

    actionInvoked = Signal(str, str)

    def __init__(self, connection: Any, capabilities: list[str]) -> None:
        super().__init__()
        self.connection = connection
        self.capabilities = capabilities
        self.has_actions = "actions" in capabilities
        self._keys: dict[int, str] = {}
        self._early: dict[int, list[str]] = {}  # actions that arrived before Notify's reply
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None
        self.listening = threading.Event()  # set once ActionInvoked is subscribed

    # Shadows QObject.connect (a different signature): the name is what callers and tests use;
    # renaming it (e.g. open_session) is left to a change that may touch the tests.
    @classmethod
    def connect(cls) -> DesktopNotifications | None:  # type: ignore[override]
        """A connected notifier, or None where the desktop has no notification service."""
        if os.environ.get(ENV_SWITCH, "1").strip().lower() in ("0", "no", "off", "false"):
            return None
        if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            return None
        try:
            from jeepney import DBusAddress, new_method_call
            from jeepney.bus_messages import message_bus
            from jeepney.io.blocking import open_dbus_connection

            connection = open_dbus_connection(bus="SESSION")
            owned = connection.send_and_get_reply(message_bus.NameHasOwner(SERVICE), timeout=2).body[0]
            if not owned:
                connection.close()
                return None
            address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
            reply = connection.send_and_get_reply(new_method_call(address, "GetCapabilities"), timeout=2)
            notifier = cls(connection, [str(c) for c in reply.body[0]])
        except Exception as exc:  # no bus, no jeepney, a service that does not answer: fall back
            log.debug("no desktop notifications (%s: %s)", type(exc).__name__, exc)
            return None
        notifier._start_listener()
        return notifier

    def show(self, key: str, title: str, body: str, actions: list[tuple[str, str]], timeout_ms: int = 0) -> bool:
        """Post a notification; ``actions`` are (id, label). False if the service refused."""
        from jeepney import DBusAddress, new_method_call

        flat: list[str] = []
        if self.has_actions:
            for action_id, label in actions:
                flat += [action_id, label]
        address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
        message = new_method_call(
            address,
            "Notify",
            "susssasa{sv}i",
            (
                "Richeng",
                0,
                "appointment-soon",
                title,
                body,
                flat,
                {"category": ("s", "reminder"), "urgency": ("y", 1)},
                timeout_ms,
            ),
        )
        try:
            reply = self.connection.send_and_get_reply(message, timeout=2)
            notification_id = int(reply.body[0])
        except Exception as exc:  # the service went away: the caller falls back
            log.debug("Notify failed (%s)", exc)
            return False
        with self._lock:
            self._keys[notification_id] = key
            early = self._early.pop(notification_id, [])
        for action in early:  # clicked before the reply reached us
            self.actionInvoked.emit(key, action)
        return True

    def _start_listener(self) -> None:
        thread = threading.Thread(target=self._listen, name="notifications", daemon=True)
        self._listener = thread
        thread.start()

    def _listen(self) -> None:
        """Relay ``ActionInvoked(id, action)`` for our notifications (daemon thread)."""
        try:
            from jeepney import MatchRule
            from jeepney.bus_messages import message_bus
            from jeepney.io.blocking import open_dbus_connection

            connection = open_dbus_connection(bus="SESSION")
            rule = MatchRule(type="signal", interface=SERVICE, member="ActionInvoked", path=PATH)
            connection.send_and_get_reply(message_bus.AddMatch(rule), timeout=2)
            with connection.filter(rule) as queue:
                self.listening.set()
                while True:
                    signal = connection.recv_until_filtered(queue)
                    notification_id, action = int(signal.body[0]), str(signal.body[1])
                    with self._lock:
                        key = self._keys.get(notification_id)
                        if key is None and len(self._early) < 64:  # ours, but show() has not returned yet
                            self._early.setdefault(notification_id, []).append(action)
                    if key is not None:
                        self.actionInvoked.emit(key, action)
        except Exception as exc:  # the bus closed: snoozing from the desktop stops, nothing else
            log.debug("notification listener ended (%s)", exc)
