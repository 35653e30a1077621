"""Settings → General: the searchable time-zone picker and holidays that follow the locale.

The picker replaced a 400-row combo: typing filters the list by city, region, UTC offset or
a Chinese city name. Holidays no longer default to Mainland China everywhere: the first
start stores the locale's country (none for C/POSIX) and asks once.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import Qt

from app.settings import holiday_choice
from app.settings.general_page import GeneralPage
from app.settings.zone_picker import ZonePicker, zone_names
from tests.support.clock import NOW

SHOTS = Path("/tmp/shots")


def _shot(widget, name: str) -> None:  # type: ignore[no-untyped-def]
    if os.environ.get("RICHENG_SHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(SHOTS / f"{name}.png"))


# ---- the zone picker -------------------------------------------------------------------------


def test_typing_filters_the_zone_list(qtbot) -> None:  # type: ignore[no-untyped-def]
    picker = ZonePicker("System (UTC)", NOW)
    qtbot.addWidget(picker)
    assert len(picker.visible_values()) == len(zone_names()) + 1 > 300
    qtbot.keyClicks(picker.search, "shang")
    assert picker.visible_values() == ["Asia/Shanghai"]
    picker.search.clear()
    qtbot.keyClicks(picker.search, "new york")  # underscores read as spaces
    assert picker.visible_values() == ["America/New_York"]
    picker.search.setText("纽约")
    assert picker.visible_values() == ["America/New_York"]
    picker.search.setText("UTC+08")
    assert "Asia/Shanghai" in picker.visible_values() and "Europe/Berlin" not in picker.visible_values()
    picker.search.setText("europe ber")  # every word must match
    assert picker.visible_values() == ["Europe/Berlin"]
    picker.search.setText("nowhere-at-all")
    assert picker.visible_values() == [] and not picker.empty.isHidden()


def test_enter_or_a_click_picks_a_zone(qtbot) -> None:  # type: ignore[no-untyped-def]
    picker = ZonePicker("System (UTC)", NOW)
    qtbot.addWidget(picker)
    assert picker.value() is None
    picker.search.setText("tokyo")
    qtbot.keyClick(picker.search, Qt.Key.Key_Return)
    assert picker.value() == "Asia/Tokyo"
    picker.search.setText("berlin")
    picker.list.setCurrentIndex(picker.filter.index(0, 0))
    assert picker.value() == "Europe/Berlin"
    picker.search.clear()
    assert picker.value() == "Europe/Berlin", "clearing the search keeps the choice"
    picker.set_value("Etc/GMT-14")  # set from the CLI, not in the list: stays chosen
    assert picker.value() == "Etc/GMT-14"


def test_searching_and_clearing_never_changes_the_zone(app_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    # issue 32, defect 2: type 纽约, clear the search, save → the zone was New York
    page = GeneralPage(app_ctx)
    qtbot.addWidget(page)
    page.show()
    before = page.timezone.value()
    page.timezone.search.setText("纽约")  # typed: each keystroke is a textChanged, as here
    assert page.timezone.visible_values() == ["America/New_York"]
    page.timezone.search.clear()
    assert page.timezone.value() == before
    assert "timezone" not in page.save()
    assert app_ctx.settings.get("timezone") != "America/New_York"


def test_general_page_saves_the_searched_zone(app_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    page = GeneralPage(app_ctx)
    qtbot.addWidget(page)
    page.resize(560, 520)
    page.show()
    qtbot.keyClicks(page.timezone.search, "shanghai")
    qtbot.keyClick(page.timezone.search, Qt.Key.Key_Return)
    _shot(page, "settings-timezone-search")
    assert "timezone" in page.save()
    assert app_ctx.settings.get("timezone") == "Asia/Shanghai"


# ---- holidays follow the locale --------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale_name", "country"),
    [
        ("zh_CN", "CN"),
        ("en_US", "US"),
        ("en_US.UTF-8", "US"),
        ("de_DE", "DE"),
        ("zh_TW", "TW"),
        ("en_GB", "GB"),
        ("ja_JP", "JP"),
        ("C", None),
        ("POSIX", None),
        ("en", None),
        ("", None),
        (None, None),
    ],
)
def test_country_for_locale(locale_name: str | None, country: str | None) -> None:
    assert holiday_choice.country_for_locale(locale_name) == country


def test_first_start_on_an_english_system_shows_us_holidays_and_asks_once(app_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert not holiday_choice.is_chosen(app_ctx)
    assert holiday_choice.apply_locale_default(app_ctx, "en_US") is True
    assert app_ctx.settings.get("holiday_country") == "US"
    chosen: list[object] = []
    dialog = holiday_choice.open_question(app_ctx, None, chosen.append)
    qtbot.addWidget(dialog)
    assert not dialog.isModal() and dialog.countries.currentData() == "US"
    dialog.countries.setCurrentIndex(dialog.countries.findData("CN"))
    dialog.accept()
    assert chosen == ["CN"] and app_ctx.settings.get("holiday_country") == "CN"
    assert holiday_choice.apply_locale_default(app_ctx, "en_US") is False, "asked once"
    assert app_ctx.settings.get("holiday_country") == "CN"


def test_a_locale_and_zone_without_a_country_mean_no_holidays(app_ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    # app_ctx is in Asia/Shanghai, which names CN (issue 23): a UTC desktop names none.
    assert holiday_choice.apply_locale_default(app_ctx, "C", zone_name="UTC") is True
    assert app_ctx.settings.get("holiday_country") is None
    page = GeneralPage(app_ctx)
    qtbot.addWidget(page)
    assert page.holidays.currentData() is None and page.holidays.currentIndex() == 0
    from datetime import date

    from app.calendar.holidays import HolidayBook

    book = HolidayBook(str(app_ctx.settings.get("holiday_country") or ""), False)
    assert book.marks(date(2026, 10, 1), date(2026, 10, 8)) == {}


def test_no_holiday_country_gives_a_clear_symbol_error(app_ctx) -> None:  # type: ignore[no-untyped-def]
    from agent.timesym.grammar import SymbolError
    from agent.timesym.resolve import resolve

    app_ctx.settings.set("holiday_country", None)
    with pytest.raises(SymbolError, match="no public-holiday country"):
        resolve("H:国庆", app_ctx.time_context())


def test_the_app_start_stores_the_locale_country_and_asks(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from agent.services.settings import SettingsService
    from agent.store.db import Store
    from agent.store.profiles import ensure_profile
    from app import application

    asked: list[object] = []
    monkeypatch.setattr(holiday_choice, "system_locale_name", lambda: "en_US")
    monkeypatch.setattr(holiday_choice, "open_question", lambda ctx, parent, done=None: asked.append(parent))
    monkeypatch.setattr("app.main_window.MainWindow.show", lambda self: None)
    db = tmp_path / "first.sqlite3"
    assert application.run(["--db", str(db), "--lang", "en", "--offscreen", "--quit-after", "50"]) == 0
    store = Store(db)
    try:
        assert SettingsService(store, ensure_profile(store)).get("holiday_country") == "US"
    finally:
        store.close()
    assert len(asked) == 1
    asked.clear()
    assert application.run(["--db", str(db), "--lang", "en", "--offscreen", "--quit-after", "50"]) == 0
    assert asked == [], "asked on the first start only"
