"""What the sync fault tests compare: the server's events read independently of Richeng.

The server side is written and read with plain HTTP and ``icalendar`` +
``recurring_ical_events``, never with Richeng's own reader, so a bug in the sync's parsing
cannot hide by agreeing with itself. A device is a ``Device`` whose account points at the
fault proxy instead of Radicale.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import icalendar
import recurring_ical_events

from agent.sync.engine import SyncEngine, SyncReport
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import SHANGHAI
from tests.support.fault_proxy import FaultProxy

BASE = datetime(2027, 1, 4, 9, 0, tzinfo=SHANGHAI)  # a Monday
SPAN = (datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2027, 6, 1, tzinfo=SHANGHAI))
SHORT_TIMEOUT_S = 1  # the faulted run's client gives up on a held answer this fast


def event_text(uid: str, title: str, start: datetime, *, weekly: bool = False) -> str:
    """One resource: a one-hour event, or a weekly series of 6 with its 3rd instance moved."""
    fmt = "%Y%m%dT%H%M%S"
    end = start + timedelta(hours=1)
    lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//richeng tests//faults//EN",
        "BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20261101T000000Z", f"SUMMARY:{title}",
        f"DTSTART;TZID=Asia/Shanghai:{start:{fmt}}", f"DTEND;TZID=Asia/Shanghai:{end:{fmt}}",
    ]  # fmt: skip
    if weekly:
        moved = start + timedelta(weeks=2)
        lines += [
            "RRULE:FREQ=WEEKLY;COUNT=6", "END:VEVENT",
            "BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20261101T000000Z", f"SUMMARY:{title} (moved)",
            f"RECURRENCE-ID;TZID=Asia/Shanghai:{moved:{fmt}}",
            f"DTSTART;TZID=Asia/Shanghai:{moved + timedelta(hours=3):{fmt}}",
            f"DTEND;TZID=Asia/Shanghai:{moved + timedelta(hours=4):{fmt}}",
        ]  # fmt: skip
    lines += ["END:VEVENT", "END:VCALENDAR", ""]
    return "\r\n".join(lines)


class ServerSide:
    """One calendar on the real server, written and read around the proxy."""

    def __init__(self, server: CalDavServer, name: str = "Work") -> None:
        self.server = server
        self.url = server.new_calendar(name)
        self.client: Any = server.client()

    def put(self, uid: str, title: str, start: datetime, *, weekly: bool = False) -> None:
        body = event_text(uid, title, start, weekly=weekly).encode()
        response = self.client.put(self.url + f"{uid}.ics", body, {"Content-Type": "text/calendar; charset=utf-8"})
        assert response.status in (201, 204), response.status

    def delete(self, uid: str) -> None:
        response = self.client.delete(self.url + f"{uid}.ics")
        assert response.status in (200, 204), response.status

    def seed(self, count: int, prefix: str = "ev") -> list[str]:
        """``count`` events a day apart, the first a weekly series; their UIDs."""
        uids = [f"{prefix}-{index}" for index in range(count)]
        for index, uid in enumerate(uids):
            self.put(uid, f"{prefix} {index}", BASE + timedelta(days=index, hours=index % 5), weekly=index == 0)
        return uids

    def resources(self) -> list[icalendar.Calendar]:
        """Every calendar object on the server (one PROPFIND, one GET each)."""
        response = self.client.propfind(self.url, '<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>', 1)
        hrefs = [el.text for el in response.tree.iter("{DAV:}href") if el.text and el.text.endswith(".ics")]
        found = []
        for href in hrefs:
            got = self.client.request(self.server.url.rstrip("/") + href)
            assert got.status == 200, (href, got.status)
            found.append(icalendar.Calendar.from_ical(got.raw))
        return found

    def uids(self) -> list[str]:
        """The UID of every resource, repeats kept (a duplicate shows as two)."""
        return sorted(str(cal.walk("VEVENT")[0]["UID"]) for cal in self.resources())

    def instances(self) -> list[tuple[str, str, str]]:
        """(UID, start in UTC, title) of every instance in ``SPAN``."""
        out = []
        for cal in self.resources():
            for event in recurring_ical_events.of(cal).between(*SPAN):
                out.append((str(event["UID"]), _utc(event["DTSTART"].dt), str(event.get("SUMMARY", ""))))
        return sorted(out)


def device_behind(proxy: FaultProxy, server: CalDavServer, side: ServerSide, path: Path, *, tokens: bool = True) -> Device:
    """A device whose account and calendar URLs go through ``proxy``."""
    via = dataclasses.replace(server, url=proxy.url)
    return Device(via, side.url.replace(server.url, proxy.url), path, use_tokens=tokens)


def impatient_run(device: Device) -> SyncReport:
    """One sync whose client gives up after ``SHORT_TIMEOUT_S`` (for held answers)."""
    from caldav.davclient import DAVClient

    def client(account: Any) -> DAVClient:
        return DAVClient(url=account.url, username=account.username, password=device.server.password,
                         timeout=SHORT_TIMEOUT_S)  # fmt: skip

    engine = SyncEngine(device.store, device.profile_id, device.secrets, use_sync_tokens=device.engine.use_sync_tokens,
                        client_factory=client)  # fmt: skip
    return engine.run()


def local_instances(device: Device) -> list[tuple[str, str, str]]:
    """(UID, start in UTC, title) of every local instance in ``SPAN``."""
    occurrences = device.edit.repo.occurrences(*SPAN, SHANGHAI, calendar_ids=[device.calendar_id])
    return sorted((o.uid, _utc(o.start), o.title) for o in occurrences)


def _utc(value: date | datetime) -> str:
    return value.astimezone(UTC).isoformat() if isinstance(value, datetime) else value.isoformat()


def local_uids(device: Device) -> list[str]:
    return sorted({uid for uid, _ in device.events()})


def token_of(device: Device) -> str | None:
    row = device.store.conn.execute("SELECT sync_token FROM sync_calendars WHERE id = ?", (device.mapping.id,)).fetchone()
    return row[0] if row else None
