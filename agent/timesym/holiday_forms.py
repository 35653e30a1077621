"""Shorter forms of holiday names, for places with room for a word or two.

A month cell beside the day number and its 休/off badge has 20–60 px at the common window
sizes (1280 px and 960 px with the chat pane open), and "Chinese New Year" needs ~90: cut to
the room it read "Chine…", which says nothing. A cell shows the longest of a name's forms that
fits whole, and no name where none does (its tooltip has it). The ``holidays`` package has one
name per day and language, so the shorter forms are ours: what people write in a diary or a
printed calendar ("CNY", "Qingming", "MLK Day", 除夕), never an arbitrary cut.

Keys are names as the views show them (``app.calendar.holidays.short_name``: the package's
name without a bracketed note such as "(observed)" or "（补假）"). A name not listed has no
shorter form. Pure data, no Qt: the printed pages or the CLI may use it too.
"""

from __future__ import annotations

from collections.abc import Callable

SHORTER: dict[str, tuple[str, ...]] = {
    # China, English names
    "Chinese New Year": ("Lunar NY", "CNY"),
    "Chinese New Year's Eve": ("CNY Eve",),
    "Tomb-Sweeping Day": ("Qingming",),
    "Dragon Boat Festival": ("Dragon Boat", "Duanwu"),
    "Mid-Autumn Festival": ("Mid-Autumn", "Mid-Aut."),
    "National Day": ("Nat'l Day",),
    "New Year's Day": ("New Year",),
    "Labor Day": ("Labor",),
    # United States
    "Martin Luther King Jr. Day": ("MLK Day", "MLK"),
    "Washington's Birthday": ("Presidents' Day", "Pres. Day"),
    "Juneteenth National Independence Day": ("Juneteenth",),
    "Independence Day": ("Independence",),  # many countries have one: never "July 4th"
    "Thanksgiving Day": ("Thanksgiving",),
    "Christmas Day": ("Christmas", "Xmas"),
    "Memorial Day": ("Memorial",),
    "Veterans Day": ("Veterans",),
    "Columbus Day": ("Columbus",),
    # Taiwan, English names
    "Founding Day of the Republic of China": ("Founding Day",),
    "Taiwan Restoration and Guningtou Victory Memorial Day": ("Restoration Day",),
    "Peace Memorial Day": ("Peace Day",),
    "Confucius' Birthday": ("Confucius",),
    "Constitution Day": ("Constitution",),
    "Children's Day": ("Children's",),
    # Europe, English names
    "German Unity Day": ("Unity Day",),
    "Second Day of Christmas": ("Christmas 2",),
    "Pentecost Monday": ("Whit Monday",),
    "Spring Bank Holiday": ("Bank Holiday",),
    # Chinese names
    "农历除夕": ("除夕",),
    "農曆除夕": ("除夕",),
    "中華民國開國紀念日": ("開國紀念日", "元旦"),
    "臺灣光復暨金門古寧頭大捷紀念日": ("光復節",),
    "民族掃墓節": ("清明節",),
    "孔子誕辰紀念日": ("教師節",),
    "和平紀念日": ("二二八",),
}


def holiday_forms(name: str) -> tuple[str, ...]:
    """The name and its shorter forms, longest first (only the name when none is known)."""
    return (name, *SHORTER.get(name, ()))


def fitting_form(forms: tuple[str, ...], room: float, measure: Callable[[str], float]) -> str:
    """The longest of ``forms`` whose ``measure`` (a width) is within ``room``, else ""."""
    for form in forms:
        if measure(form) <= room:
            return form
    return ""
