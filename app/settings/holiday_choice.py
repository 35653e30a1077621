"""Which country's public holidays the calendar shows: follow the locale, and ask once.

Holidays used to default to Mainland China on every system, so an English/UTC desktop
showed 调休 badges nobody there keeps. On the first start (no ``holiday_country`` stored
yet) the app writes a default country before the calendar is built, so the first paint
already follows it, and then asks once, in a small non-modal dialog, with that choice
preselected. Closing the dialog keeps it; the question is never asked again because the
setting now exists. Settings → General changes it later.

The default (issue 23): the locale's country (zh_CN → CN, en_US → US, de_DE → DE); where
the locale names none (C or POSIX, as minimal systems and containers have), the time zone's
country from the tz database's ``zone.tab`` (Asia/Shanghai → CN, Asia/Taipei → TW); where
that names none either (UTC), the interface language's (``--lang zh_CN`` → CN); else none.
The zone comes before the interface language because it says where someone is, the
language only what they read (zh_CN is also the interface of a reader in Taipei).

The dialog's title is one short word: the window manager shows it as "<title> — 日程
Richeng", and a longer one was cut ("Public holi… 程 Richeng"); the question is the body.
"""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QLocale, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app.context import AppContext

SETTING = "holiday_country"
HOLIDAY_COUNTRIES = ("CN", "HK", "MO", "TW", "SG", "JP", "KR", "US", "GB", "DE", "FR", "CA", "AU")
# What a title bar spends besides the text: the window icon and three buttons, with margins
# (openbox, GNOME and KDE all fit in this at their default sizes).
TITLE_BAR_CHROME = 160
TITLE_SEPARATOR = " \u2014 "  # Qt's own, between a window's title and the application's display name


def supported_countries() -> frozenset[str]:
    """ISO codes the ``holidays`` package has data for."""
    import holidays

    return frozenset(code.upper() for code in holidays.list_supported_countries())


def country_for_locale(locale_name: str | None) -> str | None:
    """The holiday country a locale implies: ``zh_CN`` → CN, ``en_US.UTF-8`` → US,
    ``zh-Hant-TW`` → TW; None for C/POSIX, a bare language, or a country without data."""
    if not locale_name:
        return None
    text = locale_name.split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    parts = [part for part in text.split("_") if part]
    if len(parts) < 2:
        return None
    code = parts[-1].upper()
    if len(code) != 2 or not code.isalpha():
        return None
    return code if code in supported_countries() else None


@cache
def zone_countries() -> dict[str, str]:
    """Zone name → ISO country, from the tz database's ``zone.tab`` (the system's, else the
    ``tzdata`` package's); empty where neither is installed."""
    candidates: list[Path] = [Path(folder) / "zone.tab" for folder in zoneinfo.TZPATH]
    with contextlib.suppress(ModuleNotFoundError, TypeError):  # tzdata is optional on Linux
        candidates.append(Path(str(resources.files("tzdata.zoneinfo") / "zone.tab")))
    for path in candidates:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
        return {row[2]: row[0].upper() for row in rows if len(row) >= 3}
    return {}


def country_for_zone(zone_name: str | None) -> str | None:
    """The holiday country a time zone lies in (Asia/Shanghai → CN); None for UTC, an
    unknown zone or a country without data."""
    code = zone_countries().get(zone_name or "")
    return code if code is not None and code in supported_countries() else None


def default_country(locale_name: str | None, zone_name: str | None, language: str | None = None) -> str | None:
    """The first start's holiday country: the locale's, else the zone's, else the interface
    language's (see the module docstring for why in this order); None when none names one."""
    return country_for_locale(locale_name) or country_for_zone(zone_name) or country_for_locale(language)


def system_locale_name() -> str:
    """Qt's reading of the system locale (``en_US``, ``zh_CN``; ``C`` when unset)."""
    return QLocale.system().name()


def is_chosen(ctx: AppContext) -> bool:
    """Whether a holiday country (or "none") was ever stored for this profile."""
    with ctx.store.lock:
        row = ctx.store.conn.execute(
            "SELECT 1 FROM settings WHERE profile_id = ? AND key = ?", (ctx.profile_id, SETTING)
        ).fetchone()
    return row is not None


def apply_locale_default(
    ctx: AppContext, locale_name: str | None = None, zone_name: str | None = None, language: str | None = None
) -> bool:
    """First start: store :func:`default_country` (None = no holidays) for the system locale
    (or ``locale_name``), the app's zone (or ``zone_name``) and the interface ``language``
    (``--lang``). True when it did, which is when the app should ask (:class:`HolidayChoiceDialog`)."""
    if is_chosen(ctx):
        return False
    locale_name = locale_name if locale_name is not None else system_locale_name()
    ctx.settings.set(SETTING, default_country(locale_name, zone_name if zone_name is not None else ctx.tz.key, language))
    return True


def country_label(code: str, tr: Callable[[str], str]) -> str:
    names = {
        "CN": tr("Mainland China"), "HK": tr("Hong Kong"), "MO": tr("Macau"),
        "TW": tr("Taiwan"), "SG": tr("Singapore"), "JP": tr("Japan"),
        "KR": tr("South Korea"), "US": tr("United States"), "GB": tr("United Kingdom"),
        "DE": tr("Germany"), "FR": tr("France"), "CA": tr("Canada"), "AU": tr("Australia"),
    }  # fmt: skip
    return f"{names.get(code, code)} ({code})"


def fill_countries(combo: QComboBox, current: object, none_label: str, tr: Callable[[str], str]) -> None:
    """The holiday combo's rows: no holidays, the usual countries, and a code set elsewhere."""
    combo.addItem(none_label, None)
    for code in HOLIDAY_COUNTRIES:
        combo.addItem(country_label(code, tr), code)
    index = combo.findData(current)
    if index < 0 and current:
        combo.addItem(str(current), current)  # a locale's or the CLI's country stays selectable
        index = combo.count() - 1
    combo.setCurrentIndex(max(0, index))


class HolidayChoiceDialog(QDialog):
    """The one-time question; ``chosen`` carries the code (or None) once saved."""

    chosen = Signal(object)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Holidays"))
        self.question = QLabel(
            self.tr(
                "Which country's public holidays should the calendar show?\nYou can change this later in Settings → General."
            ),
            self,
        )
        self.question.setWordWrap(True)
        self.countries = QComboBox(self)
        fill_countries(self.countries, ctx.settings.get(SETTING), self.tr("None"), self.tr)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok, self)
        buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(self.question)
        layout.addWidget(self.countries)
        layout.addWidget(buttons)
        self.setMinimumWidth(self.title_bar_width())

    def title_bar_width(self) -> int:
        """How wide the window must be for its title bar to show the whole title."""
        display = QGuiApplication.applicationDisplayName()
        title = self.windowTitle() + (TITLE_SEPARATOR + display if display and display != self.windowTitle() else "")
        return self.fontMetrics().horizontalAdvance(title) + TITLE_BAR_CHROME

    def accept(self) -> None:
        value = self.countries.currentData()
        if self.ctx.settings.get(SETTING) != value:
            self.ctx.settings.set(SETTING, value)
        self.chosen.emit(value)
        super().accept()


def open_question(
    ctx: AppContext, parent: QWidget | None, on_chosen: Callable[[object], None] | None = None
) -> HolidayChoiceDialog:
    """Show the one-time question, non-modal: a start-up must never block on it."""
    dialog = HolidayChoiceDialog(ctx, parent)
    dialog.setModal(False)
    if on_chosen is not None:
        dialog.chosen.connect(on_chosen)
    dialog.show()
    return dialog
