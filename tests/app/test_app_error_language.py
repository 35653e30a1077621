"""The app shows a user-facing error in the interface language (``i18n.error_text``)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from agent.errors import UserFacingError
from app import i18n


def test_a_coded_error_reads_in_the_installed_language(qapp: QApplication) -> None:
    error = UserFacingError("runtime.no_receipt", tool="x")
    try:
        i18n.install(qapp, "zh_CN")
        assert i18n.ui_lang() == "zh" and i18n.error_text(error) == "工具 x 没有回执"
    finally:
        i18n.uninstall(qapp)
    assert i18n.ui_lang() == "en" and i18n.error_text(error) == "no receipt for tool x" == str(error)
    assert i18n.error_text(UserFacingError("a server's own words")) == "a server's own words"
    assert i18n.error_text(ValueError("plain")) == "plain"
