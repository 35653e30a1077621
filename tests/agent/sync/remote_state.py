"""What the sync fault tests compare: the server's events read independently of Richeng.

The server side is written and read with plain HTTP and ``icalendar`` +
``recurring_ical_events``, never with Richeng's own reader, so a bug in the sync's parsing
cannot hide by agreeing with itself. A device is a ``Device`` whose account points at the
fault proxy instead of Radicale.
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import icalendar
import recurring_ical_events

from agent.sync.engine import SyncEngine
from agent.sync.report import SyncReport
from tests.support.caldav_server import CalDavServer, Device
from tests.support.clock import SHANGHAI
from tests.support.fault_proxy import FaultProxy

BASE = datetime(2027, 1, 4, 9, 0, tzinfo=SHANGHAI)  # a Monday
SPAN = (datetime(2026, 12, 1, tzinfo=SHANGHAI), datetime(2027, 6, 1, tzinfo=SHANGHAI))
SHORT_TIMEOUT_S = 1  # the faulted run's client gives up on a held answer this fast


def event_text(uid: str, title: str, start: datetime, *, weekly: bool = False) -> str:
    """One resource: a one-hour event, or a weekly series of 6 with its 3rd instance moved."""
    return _CALENDAR.format(events=_vevents(uid, title, start, weekly=weekly))


_CALENDAR = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//richeng tests//faults//EN\r\n{events}END:VCALENDAR\r\n"


def _vevents(uid: str, title: str, start: datetime, *, weekly: bool = False) -> str:
    fmt = "%Y%m%dT%H%M%S"
    end = start + timedelta(hours=1)
    lines = [
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
    lines.append("END:VEVENT")
    return "\r\n".join(lines) + "\r\n"


_QUERY = (
    '<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data/></D:prop>'
    '<C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>'
)


class ServerSide:
    """One calendar on the real server, written and read around the proxy, a few requests each.

    Every request to Radicale costs tens of milliseconds on a busy 2-core machine, and the
    fault matrix makes many calendars: a calendar is made with its events in one PUT of a
    whole VCALENDAR (Radicale names each resource ``<UID>.ics``), and read in one REPORT.
    """

    def __init__(self, server: CalDavServer) -> None:
        self.server = server
        self.url = f"{server.home}faults-{uuid.uuid4().hex[:12]}/"
        self.client: Any = server.client()
        self.hrefs: dict[str, str] = {}  # UID -> URL of its resource, where not <UID>.ics
        server.made.append(self.url)

    def _url(self, uid: str) -> str:
        return self.hrefs.get(uid) or self.url + f"{uid}.ics"

    def seed(self, count: int, prefix: str = "ev") -> list[str]:
        """Make the calendar with ``count`` events a day apart, the first a weekly series."""
        uids = [f"{prefix}-{index}" for index in range(count)]
        if not uids:
            response = self.client.request(self.url, "MKCALENDAR", "")
            assert response.status == 201, response.status
            return uids
        events = "".join(
            _vevents(uid, f"{prefix} {index}", BASE + timedelta(days=index, hours=index % 5), weekly=index == 0)
            for index, uid in enumerate(uids)
        )
        response = self.client.put(self.url, _CALENDAR.format(events=events).encode(), {"Content-Type": "text/calendar"})
        assert response.status in (201, 204), response.status
        return uids

    def put(self, uid: str, title: str, start: datetime, *, weekly: bool = False) -> None:
        body = event_text(uid, title, start, weekly=weekly).encode()
        response = self.client.put(self._url(uid), body, {"Content-Type": "text/calendar; charset=utf-8"})
        assert response.status in (201, 204), response.status

    def delete(self, uid: str) -> None:
        response = self.client.delete(self._url(uid))
        assert response.status in (200, 204), response.status

    def resources(self) -> list[icalendar.Calendar]:
        """Every calendar object on the server, in one calendar-query REPORT."""
        response = self.client.request(self.url, "REPORT", _QUERY, {"Depth": "1"})
        assert response.status == 207, response.status
        found = []
        for entry in ElementTree.fromstring(response._raw).iter("{DAV:}response"):
            href, data = entry.findtext("{DAV:}href"), entry.find(".//{urn:ietf:params:xml:ns:caldav}calendar-data")
            if not href or data is None:
                continue
            calendar = icalendar.Calendar.from_ical(data.text or "")
            self.hrefs[str(calendar.walk("VEVENT")[0]["UID"])] = self.server.url.rstrip("/") + href
            found.append(calendar)
        return found

    def state(self) -> tuple[list[str], list[tuple[str, str, str]]]:
        """(the UID of every resource, repeats kept; every instance in ``SPAN``), in one read."""
        found = self.resources()
        uids = sorted(str(cal.walk("VEVENT")[0]["UID"]) for cal in found)
        out = []
        for cal in found:
            for event in recurring_ical_events.of(cal).between(*SPAN):
                out.append((str(event["UID"]), _utc(event["DTSTART"].dt), str(event.get("SUMMARY", ""))))
        return uids, sorted(out)

    def uids(self) -> list[str]:
        return self.state()[0]

    def instances(self) -> list[tuple[str, str, str]]:
        """(UID, start in UTC, title) of every instance in ``SPAN``."""
        return self.state()[1]


def device_behind(proxy: FaultProxy, server: CalDavServer, side: ServerSide, path: Path, *, tokens: bool = True) -> Device:
    """A device whose account and calendar URLs go through ``proxy``."""
    via = dataclasses.replace(server, url=proxy.url)
    return Device(via, side.url.replace(server.url, proxy.url), path, use_tokens=tokens)


def impatient_run(device: Device, timeout_s: int = SHORT_TIMEOUT_S) -> SyncReport:
    """One sync whose client gives up after ``timeout_s`` (short: for held answers)."""
    from caldav.davclient import DAVClient

    def client(account: Any) -> DAVClient:
        return DAVClient(url=account.url, username=account.username, password=device.server.password,
                         timeout=timeout_s)  # fmt: skip

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
