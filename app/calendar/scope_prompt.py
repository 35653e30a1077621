"""Asking which occurrences of a recurring event a change or delete applies to.

Callers use ``scope_prompt.ask_scope(...)`` through the module (not ``from … import``) so
tests can patch this one function and walk every branch without a modal box.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from agent.services.editing import Scope


def tr(text: str) -> str:
    return QCoreApplication.translate("ScopePrompt", text)


def ask_scope(parent: QWidget | None, action: str, title: str) -> Scope | None:
    """ "this" / "following" / "all", or None when the user cancels.

    ``action`` is "edit", "move" or "delete"; it only changes the wording.
    """
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(tr("Recurring event"))
    questions = {
        "delete": tr("Delete “{0}”: which occurrences?"),
        "move": tr("Move “{0}”: which occurrences?"),
        "edit": tr("Change “{0}”: which occurrences?"),
    }
    box.setText(questions.get(action, questions["edit"]).format(title))
    box.setInformativeText(tr("This event repeats."))
    this = box.addButton(tr("Only this one"), QMessageBox.ButtonRole.AcceptRole)
    following = box.addButton(tr("This and following"), QMessageBox.ButtonRole.AcceptRole)
    every = box.addButton(tr("All occurrences"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel).setText(tr("Cancel"))
    box.setDefaultButton(this)
    box.exec()
    clicked = box.clickedButton()
    if clicked is this:
        return "this"
    if clicked is following:
        return "following"
    if clicked is every:
        return "all"
    return None
