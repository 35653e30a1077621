"""Holiday symbols for a year whose official arrangement (调休) is not published yet.

Asked in November 2026, ``H:元旦`` means 2027-01-01; the package has no 2027 decree, so the
resolver returns the days fixed by law or by the lunar calendar and a note that the adjusted
workdays are not announced, instead of refusing (issue 15). The package's own guesses for
that year (its "补假"/observed days) are never part of the answer.
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta

import pytest

from agent.cli.main import main
from agent.timesym import holiday
from agent.timesym.context import TimeContext
from agent.timesym.grammar import SymbolError
from agent.timesym.resolve import resolve
from tests.support.clock import SHANGHAI


def ctx_at(y: int, m: int, d: int, country: str = "CN") -> TimeContext:
    return TimeContext(now=datetime(y, m, d, 9, 0, tzinfo=SHANGHAI), tz=SHANGHAI, holiday_country=country)


def span(first: date, last: date) -> tuple[date, ...]:
    return tuple(first + timedelta(days=i) for i in range((last - first).days + 1))


@pytest.mark.parametrize(
    ("symbol", "first", "last"),
    [
        ("H:元旦", date(2027, 1, 1), date(2027, 1, 1)),  # law: 1 day
        ("H:春节", date(2027, 2, 5), date(2027, 2, 8)),  # lunar: 除夕 + 初一..初三
        ("H:清明", date(2027, 4, 5), date(2027, 4, 5)),  # solar term
        ("H:五一", date(2027, 5, 1), date(2027, 5, 2)),  # law: 2 days, no 补假 guess
        ("H:端午", date(2027, 6, 9), date(2027, 6, 9)),
        ("H:中秋", date(2027, 9, 15), date(2027, 9, 15)),
        ("H:National Day", date(2027, 10, 1), date(2027, 10, 3)),
    ],
)
def test_unpublished_year_resolves_statutory_days_with_a_note(symbol: str, first: date, last: date) -> None:
    assert not holiday.is_covered("CN", 2027)
    r = resolve(symbol, ctx_at(2026, 11, 20))
    assert r.candidates == span(first, last)
    assert r.note is not None and "2027" in r.note and "调休" in r.note and "not announced" in r.note
    assert r.to_json()["note"] == r.note


def test_published_year_has_no_note_and_keeps_the_swapped_days() -> None:
    r = resolve("H:国庆", ctx_at(2026, 9, 2))
    assert r.candidates == span(date(2026, 10, 1), date(2026, 10, 7))
    assert r.note is None and "note" not in r.to_json()


def test_unknown_name_still_refused_in_an_unpublished_year() -> None:
    with pytest.raises(SymbolError):
        resolve("H:不存在的节日", ctx_at(2026, 11, 20))


def test_cli_time_resolve_prints_the_note(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--now", "2026-11-20T10:00", "--tz", "Asia/Shanghai", "time", "resolve", "H:元旦"]
    assert main(args) == 0
    human = capsys.readouterr().out
    assert "2027-01-01" in human and "note:" in human and "调休" in human
    assert main(["--json", *args]) == 0
    (item,) = json.loads(capsys.readouterr().out)
    assert "not announced" in item["note"]
