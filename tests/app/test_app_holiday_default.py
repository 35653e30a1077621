"""Issue 23, defect 6: the first-run holiday question defaulted to "None" on a desktop in
Shanghai whose locale names no country (C, as many minimal systems and containers have), and
its window title was cut ("Public holi… 程 Richeng"). The default now follows the locale's
country, then the time zone's, then the interface language's; the title is short and the
dialog is wide enough for it (the question itself is in the body)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication

from app.settings import holiday_choice


@pytest.fixture(autouse=True)
def display_name(qapp: Any) -> Iterator[str]:
    """The app's display name, as application.run sets it (Qt adds it to every title)."""
    before = QGuiApplication.applicationDisplayName()
    QGuiApplication.setApplicationDisplayName("日程 Richeng")
    yield "日程 Richeng"
    QGuiApplication.setApplicationDisplayName(before)


@pytest.mark.parametrize(
    ("locale_name", "zone", "language", "country"),
    [
        ("zh_CN", "Asia/Shanghai", None, "CN"),
        ("C", "Asia/Shanghai", "zh_CN", "CN"),  # the defect: a C locale in Shanghai
        ("C", "Asia/Shanghai", None, "CN"),
        ("en_US", "UTC", None, "US"),
        ("en_US", "Asia/Shanghai", None, "US"),  # the locale first, the zone only where it names none
        ("C", "America/New_York", None, "US"),
        ("C", "Asia/Taipei", "zh_CN", "TW"),  # the zone says where, the interface language only what to read
        ("C", "Europe/Berlin", None, "DE"),
        ("C", "Asia/Hong_Kong", None, "HK"),
        ("C", "UTC", "zh_CN", "CN"),  # nothing else names a country: the interface language does
        ("C", "UTC", "en", None),
        ("C", "Etc/UTC", None, None),
        ("en", "No/Such_Zone", None, None),
    ],
)
def test_the_default_country(locale_name: str, zone: str, language: str | None, country: str | None) -> None:
    assert holiday_choice.default_country(locale_name, zone, language) == country


def test_zone_countries_come_from_the_tz_database() -> None:
    assert holiday_choice.country_for_zone("Asia/Shanghai") == "CN"
    assert holiday_choice.country_for_zone("Asia/Urumqi") == "CN"
    assert holiday_choice.country_for_zone("Europe/London") == "GB"
    assert holiday_choice.country_for_zone("UTC") is None and holiday_choice.country_for_zone("") is None


def test_first_start_in_shanghai_preselects_china_and_the_title_fits(app_ctx: Any, qtbot: Any) -> None:
    """app_ctx runs in Asia/Shanghai; the system locale here is C."""
    assert holiday_choice.apply_locale_default(app_ctx, "C", language="zh_CN") is True
    assert app_ctx.settings.get("holiday_country") == "CN"
    dialog = holiday_choice.open_question(app_ctx, None)
    qtbot.addWidget(dialog)
    qtbot.waitExposed(dialog)
    assert dialog.countries.currentData() == "CN"
    # The title bar shows "<title> — <display name>" (Qt's X11/Windows title format) next
    # to the icon and the window buttons: all of it fits the dialog's width.
    shown = f"{dialog.windowTitle()} \u2014 {QGuiApplication.applicationDisplayName()}"
    needed = dialog.fontMetrics().horizontalAdvance(shown) + holiday_choice.TITLE_BAR_CHROME
    assert needed <= dialog.width(), (shown, needed, dialog.width())
    assert len(dialog.windowTitle()) <= 12  # a short title; the question is in the body
    assert "?" in dialog.question.text()
    dialog.close()


def test_the_zh_title_fits_too(app_ctx: Any, qtbot: Any, qapp: Any) -> None:
    from app import i18n

    i18n.install(qapp, "zh_CN")
    try:
        holiday_choice.apply_locale_default(app_ctx, "C")
        dialog = holiday_choice.open_question(app_ctx, None)
        qtbot.addWidget(dialog)
        qtbot.waitExposed(dialog)
        assert dialog.windowTitle() == "节假日" and "？" in dialog.question.text()
        shown = f"{dialog.windowTitle()} \u2014 日程 Richeng"
        assert dialog.fontMetrics().horizontalAdvance(shown) + holiday_choice.TITLE_BAR_CHROME <= dialog.width()
        assert dialog.countries.currentData() == "CN"
        dialog.close()
    finally:
        i18n.uninstall(qapp)
