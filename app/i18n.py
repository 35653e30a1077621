"""Translations: every UI string goes through Qt's ``tr``; catalogues are JSON files.

A ``QTranslator`` subclass reads ``resources/translations/<lang>.json`` ({context: {source:
translation}}), which keeps the catalogue editable without Qt's lrelease tool while the code
uses the standard ``self.tr()`` / ``QCoreApplication.translate`` calls throughout.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from app.paths import resource_path


_INSTALLED: list[QTranslator] = []


class JsonTranslator(QTranslator):
    def __init__(self, catalogue: dict[str, dict[str, str]]) -> None:
        super().__init__()
        self.catalogue = catalogue

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str | None:  # noqa: ARG002
        """``None`` (not "") for unknown strings: Qt takes "" as a real, empty translation,
        which would blank the standard buttons of Qt's own dialogs."""
        table = self.catalogue.get(context) or {}
        return table.get(source) or self.catalogue.get("*", {}).get(source)

    def isEmpty(self) -> bool:  # noqa: N802 (Qt's name)
        return not self.catalogue


def catalogue_path(language: str) -> Path:
    return resource_path("translations") / f"{language}.json"


def system_language() -> str:
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def install(app: QCoreApplication, language: str | None) -> JsonTranslator | None:
    """Install the catalogue for ``language`` (``zh_CN``/``en``; None = the system's)."""
    language = language or system_language()
    if language.startswith("en"):
        return None
    path = catalogue_path(language)
    if not path.exists():
        return None
    translator = JsonTranslator(json.loads(path.read_text(encoding="utf-8")))
    app.installTranslator(translator)
    _INSTALLED.append(translator)  # Qt holds no Python reference: without one it is collected
    return translator
