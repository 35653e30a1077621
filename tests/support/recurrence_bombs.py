"""Hostile recurrence, as files a user could be sent (issue 11): the bombs and what must hold.

Imported by ``tests/app/test_recurrence_bombs.py`` (bounded instance counts, per path) and by
``benchmarks/bench_bombs.py`` (time and peak memory, per path). Every bomb starts on
2026-12-01 09:00 UTC, the tests' reference week, so "a year" and "the month view" look at
the densest part of each series.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
STAMP = "20261101T000000Z"
FMT = "%Y%m%dT%H%M%SZ"


def vevent(uid: str, *lines: str, start: datetime = START, minutes: int = 1) -> str:
    end = start + timedelta(minutes=minutes)
    return "\r\n".join(
        ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{STAMP}", f"DTSTART:{start:{FMT}}", f"DTEND:{end:{FMT}}", *lines,
         "END:VEVENT"]
    ) + "\r\n"  # fmt: skip


def calendar(*events: str) -> bytes:
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Richeng//bombs//EN\r\n" + "".join(events) + "END:VCALENDAR\r\n").encode()


def interval_zero() -> bytes:
    return calendar(vevent("interval-zero@bomb", "SUMMARY:Never advances", "RRULE:FREQ=DAILY;INTERVAL=0"))


def secondly() -> bytes:
    return calendar(vevent("secondly@bomb", "SUMMARY:Every second", "RRULE:FREQ=SECONDLY"))


def secondly_count() -> bytes:
    return calendar(vevent("secondly-count@bomb", "SUMMARY:Ten million seconds", "RRULE:FREQ=SECONDLY;COUNT=10000000"))


def minutely() -> bytes:
    return calendar(vevent("minutely@bomb", "SUMMARY:Every minute", "RRULE:FREQ=MINUTELY"))


# BYSETPOS oddities: three can never match (refused, each named in the report); two are
# legal and dense (kept, capped); one is the ordinary "last weekday of the month".
BYSETPOS_REFUSED = ("setpos-secondly@bomb", "setpos-daily@bomb", "setpos-weekly@bomb")
BYSETPOS_KEPT = ("setpos-minutely@bomb", "setpos-hourly@bomb", "setpos-monthly@bomb")


def bysetpos() -> bytes:
    return calendar(
        vevent("setpos-secondly@bomb", "SUMMARY:Second of one", "RRULE:FREQ=SECONDLY;BYSETPOS=2"),
        vevent("setpos-daily@bomb", "SUMMARY:February 30th", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;BYSETPOS=1"),
        vevent("setpos-weekly@bomb", "SUMMARY:Second Monday of a week", "RRULE:FREQ=WEEKLY;BYDAY=MO;BYSETPOS=2"),
        vevent("setpos-minutely@bomb", "SUMMARY:First and last quarter", "RRULE:FREQ=MINUTELY;BYSECOND=0,15,30,45;BYSETPOS=1,-1"),
        vevent("setpos-hourly@bomb", "SUMMARY:Every half hour", "RRULE:FREQ=HOURLY;BYMINUTE=0,30;BYSETPOS=-366,1,2"),
        vevent("setpos-monthly@bomb", "SUMMARY:Last weekday", "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"),
    )


def rdates(count: int = 100_000) -> bytes:
    """One event with ``count`` RDATEs, one a minute, folded into lines of 200 values."""
    values = [f"{START + timedelta(minutes=i + 1):{FMT}}" for i in range(count)]
    lines = [f"RDATE:{','.join(values[at : at + 200])}" for at in range(0, count, 200)]
    return calendar(vevent("rdates@bomb", "SUMMARY:Hundred thousand dates", *lines))


def overrides(count: int = 100_000) -> bytes:
    """A MINUTELY series and ``count`` overrides, each moving one instance by 30 seconds."""
    parts = [vevent("overrides@bomb", "SUMMARY:Overridden", "RRULE:FREQ=MINUTELY")]
    for index in range(count):
        original = START + timedelta(minutes=index)
        moved = original + timedelta(seconds=30)
        parts.append(
            "BEGIN:VEVENT\r\nUID:overrides@bomb\r\n"
            f"DTSTAMP:{STAMP}\r\nRECURRENCE-ID:{original:{FMT}}\r\n"
            f"DTSTART:{moved:{FMT}}\r\nDTEND:{moved + timedelta(minutes=1):{FMT}}\r\n"
            f"SUMMARY:Moved {index}\r\nEND:VEVENT\r\n"
        )
    return calendar(*parts)


# name -> (file maker, UIDs that must be refused, UIDs that must be stored)
BOMBS = {
    "interval0": (interval_zero, ("interval-zero@bomb",), ()),
    "secondly": (secondly, (), ("secondly@bomb",)),
    "secondly_count": (secondly_count, (), ("secondly-count@bomb",)),
    "minutely": (minutely, (), ("minutely@bomb",)),
    "bysetpos": (bysetpos, BYSETPOS_REFUSED, BYSETPOS_KEPT),
    "rdates100k": (rdates, (), ("rdates@bomb",)),
    "overrides100k": (overrides, (), ("overrides@bomb",)),
}
