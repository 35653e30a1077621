"""Which country's public holidays the calendar shows: follow the locale, and ask once.

Holidays used to default to Mainland China on every system, so an English/UTC desktop
showed 调休 badges nobody there keeps. On the first start (no ``holiday_country`` stored
yet) the app writes the locale's country (zh_CN → CN, en_US → US, de_DE → DE; a locale with
no country, such as C or POSIX, → no holidays) before the calendar is built, so the first
paint already follows the locale, and then asks once, in a small non-modal dialog, with that
choice preselected. Closing the dialog keeps the locale's choice; the question is never
asked again because the setting now exists. Settings → General changes it later.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLocale, Signal
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app.context import AppContext

SETTING = "holiday_country"
HOLIDAY_COUNTRIES = ("CN", "HK", "MO", "TW", "SG", "JP", "KR", "US", "GB", "DE", "FR", "CA", "AU")


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


def apply_locale_default(ctx: AppContext, locale_name: str | None = None) -> bool:
    """First start: store the locale's country (None = no holidays). True when it did, which
    is when the app should ask (:class:`HolidayChoiceDialog`)."""
    if is_chosen(ctx):
        return False
    ctx.settings.set(SETTING, country_for_locale(locale_name if locale_name is not None else system_locale_name()))
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
        self.setWindowTitle(self.tr("Public holidays"))
        text = QLabel(
            self.tr(
                "Which country's public holidays should the calendar show?\nYou can change this later in Settings → General."
            ),
            self,
        )
        text.setWordWrap(True)
        self.countries = QComboBox(self)
        fill_countries(self.countries, ctx.settings.get(SETTING), self.tr("None"), self.tr)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok, self)
        buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.countries)
        layout.addWidget(buttons)

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
