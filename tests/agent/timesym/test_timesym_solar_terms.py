"""The 24 solar terms (节气) that the Chinese month and week views show (issue 23).

Which day holds a term is lunar-python's astronomy in Beijing time, as printed Chinese
calendars use: the December solstice of 2026 is at 20:50 UTC on the 21st, 04:50 on the 22nd
in Beijing, so 冬至 is 2026-12-22 (not the 21st, the UTC date)."""

from __future__ import annotations

from datetime import date, timedelta

from agent.timesym import lunar


def test_the_terms_of_december_2026() -> None:
    assert lunar.solar_term(date(2026, 12, 7)) == "大雪"
    assert lunar.solar_term(date(2026, 12, 22)) == "冬至"
    assert lunar.solar_term(date(2026, 12, 21)) == ""  # the solstice's UTC date, not Beijing's
    assert lunar.solar_term(date(2026, 12, 8)) == ""


def test_a_year_has_each_of_the_24_terms_once() -> None:
    day, found = date(2026, 1, 1), []
    while day.year == 2026:
        if term := lunar.solar_term(day):
            found.append(term)
        day += timedelta(days=1)
    assert len(found) == len(set(found)) == 24
    assert found[:3] == ["小寒", "大寒", "立春"] and found[-1] == "冬至"


def test_a_term_takes_the_place_of_the_lunar_day() -> None:
    assert lunar.day_label(date(2026, 12, 22)) == "冬至"
    assert lunar.day_label(date(2026, 12, 22), solar_terms=False) == lunar.lunar_label(date(2026, 12, 22))
    assert lunar.day_label(date(2026, 12, 21)) == lunar.lunar_label(date(2026, 12, 21))  # no term: the lunar day
    assert lunar.day_label(date(2026, 2, 4)) == "立春"
