"""Per-profile settings with typed defaults.

The time zone default is the system's (``tzlocal``) and is resolved when read, not when the
profile is made, so moving the laptop to another zone moves the default with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import time
from typing import Any
from zoneinfo import ZoneInfo

from agent.errors import ValidationError
from agent.store.db import Store
from agent.timesym.context import load_zone, system_zone_name

DEFAULTS: dict[str, Any] = {
    "timezone": None,  # None: the system zone
    "holiday_country": "CN",
    "language": None,  # None: follow each message's script
    "week_start": 1,  # Monday
    "working_hours": ["09:00", "18:00"],
    "working_days": [1, 2, 3, 4, 5],
    "session_gap_minutes": 120,
    "command_ttl_minutes": 30,
    "default_duration_minutes": 60,
    "model": None,
    "sync_interval_minutes": 0,  # the app's periodic CalDAV sync; 0 = only when asked
    "llama_n_ctx": 8192,  # context size for a local GGUF model (the app's settings dialog)
    "llama_threads": None,  # None: llama_backend.default_threads()
    "solar_terms": True,  # the Chinese views show 节气 in place of the lunar day (docs/app-calendar.md)
    "window_geometry": None,  # the app window's frame and maximised state (Qt's saveGeometry, base64)
    "window_view": None,  # the view the app last showed (day, week, month, agenda)
    "lunar_days": True,  # the Chinese views show each day's 农历 day (初一, 十五 …) beside its number
    "my_addresses": [],  # the user's e-mail addresses beside the sync accounts' (invitations, issue 31)
    "send_invitations": [],  # UIDs whose uploads may make the server mail attendees (agent/sync/scheduling.py)
    "last_folder": None,  # the folder the app's last import or export used (its file dialogs open there)
    "default_reminder_minutes": None,  # a reminder every new timed event starts with (None: none)
    "week_numbers": False,  # the app's views show ISO week numbers
    "theme": "system",  # the app's palette: system, light or dark
}


def zone(name: str) -> ZoneInfo:
    """The zone for a setting or ``--tz``, as an error a person can act on."""
    try:
        return load_zone(name)
    except ValueError:
        raise ValidationError("services.unknown_zone", name=name[:80]) from None


@dataclass(frozen=True)
class WorkingHours:
    start: time
    end: time
    days: tuple[int, ...]


class SettingsService:
    def __init__(self, store: Store, profile_id: int) -> None:
        self.store = store
        self.profile_id = profile_id
        self._overrides: dict[str, Any] = {}

    def override(self, key: str, value: Any) -> None:
        """A value for this object's life only, never stored (the app's ``--lang``): reads
        through this instance see it; the file keeps the user's own choice."""
        if key not in DEFAULTS:
            raise ValidationError("services.unknown_setting", key=key)
        self._overrides[key] = value

    def get(self, key: str) -> Any:
        if key not in DEFAULTS:
            raise ValidationError("services.unknown_setting", key=key)
        if key in self._overrides:
            return self._overrides[key]
        row = self.store.conn.execute(
            "SELECT value FROM settings WHERE profile_id = ? AND key = ?", (self.profile_id, key)
        ).fetchone()
        return DEFAULTS[key] if row is None else json.loads(row["value"])

    def set(self, key: str, value: Any) -> None:
        if key not in DEFAULTS:
            raise ValidationError("services.unknown_setting", key=key)
        if key == "timezone" and value is not None:
            zone(value)
        with self.store.transaction() as conn:
            conn.execute(
                "INSERT INTO settings(profile_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT(profile_id, key) DO UPDATE SET value = excluded.value",
                (self.profile_id, key, json.dumps(value, ensure_ascii=False)),
            )

    def timezone_name(self) -> str:
        return self.get("timezone") or system_zone_name()

    def working_hours(self) -> WorkingHours:
        start, end = self.get("working_hours")
        return WorkingHours(time.fromisoformat(start), time.fromisoformat(end), tuple(self.get("working_days")))
