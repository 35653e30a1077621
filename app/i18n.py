"""Translations: every UI string goes through Qt's ``tr``; catalogues are JSON files.

A ``QTranslator`` subclass reads ``resources/translations/<lang>.json`` ({context: {source:
translation}}), which keeps the catalogue editable without Qt's lrelease tool while the code
uses the standard ``self.tr()`` / ``QCoreApplication.translate`` calls throughout.

Qt's own strings (the standard buttons OK, Cancel, Yes, No, … of ``QDialogButtonBox`` and
``QMessageBox``, the context menu of a line edit) come from Qt's ``qtbase_<lang>.qm``, which
PySide6-Essentials ships under ``QLibraryInfo.path(TranslationsPath)``; it is installed first,
so our catalogue (searched first) can still override a text, and answers ``None`` otherwise.
(Checked: PySide6-Essentials 6.11 ships ``qtbase_zh_CN.qm``, so no copy of Qt's button texts
is kept in our catalogue.)
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDate, QLibraryInfo, QLocale, QTranslator

from agent.errors import UserFacingError
from app.paths import resource_path

_INSTALLED: list[QTranslator] = []
_UI_LANG: list[str] = ["en"]  # the language ``install`` put in place ("zh" or "en")


def ui_lang() -> str:
    """``zh`` or ``en``: the interface language installed, for agent/messages' ``render``."""
    return _UI_LANG[0]


def error_text(exc: BaseException) -> str:
    """What the user reads about ``exc``: a ``UserFacingError`` in the interface language
    (its catalogue code rendered), anything else as its ``str``."""
    return exc.text(ui_lang()) if isinstance(exc, UserFacingError) else str(exc)


def format_day(locale: QLocale, day: date, pattern: str) -> str:
    """``day`` in ``locale``'s words for a date-only ``pattern`` (month and day names, CJK units).

    Through ``QDate``: the text is the one a midnight ``datetime`` gave, and it is the type
    PySide6 declares for ``QLocale.toString``."""
    return locale.toString(QDate(day.year, day.month, day.day), pattern)


class JsonTranslator(QTranslator):
    def __init__(self, catalogue: dict[str, dict[str, str]]) -> None:
        super().__init__()
        self.catalogue = catalogue

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str | None:
        """``None`` (not "") for unknown strings: Qt takes "" as a real, empty translation,
        which would blank the standard buttons of Qt's own dialogs."""
        table = self.catalogue.get(context) or {}
        return table.get(source) or self.catalogue.get("*", {}).get(source)

    def isEmpty(self) -> bool:
        return not self.catalogue


def catalogue_path(language: str) -> Path:
    return resource_path("translations") / f"{language}.json"


def system_language() -> str:
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else "en"


DEFAULT_CALENDAR_NAMES = {"zh_CN": "日程", "en": "Calendar"}


def default_calendar_name(language: str | None) -> str:
    """The first calendar's name in the UI language (a new profile's only calendar)."""
    language = language or system_language()
    return DEFAULT_CALENDAR_NAMES["zh_CN" if language.startswith("zh") else "en"]


def install_qt_translations(app: QCoreApplication, language: str) -> QTranslator | None:
    """Qt's own ``qtbase`` catalogue for ``language`` (None where it is not installed)."""
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    translator = QTranslator()
    if not translator.load(f"qtbase_{language}", folder):
        return None
    app.installTranslator(translator)
    _INSTALLED.append(translator)
    return translator


def uninstall(app: QCoreApplication) -> None:
    """Remove every translator ``install`` added (tests switch languages in one process)."""
    while _INSTALLED:
        app.removeTranslator(_INSTALLED.pop())
    _UI_LANG[0] = "en"


def install(app: QCoreApplication, language: str | None) -> JsonTranslator | None:
    """Install the catalogue for ``language`` (``zh_CN``/``en``; None = the system's)."""
    language = language or system_language()
    _UI_LANG[0] = "zh" if language.startswith("zh") else "en"
    if language.startswith("en"):
        return None
    path = catalogue_path(language)
    if not path.exists():
        return None
    install_qt_translations(app, language)  # before ours: the last installed is asked first
    translator = JsonTranslator(json.loads(path.read_text(encoding="utf-8")))
    app.installTranslator(translator)
    _INSTALLED.append(translator)  # Qt holds no Python reference: without one it is collected
    return translator
