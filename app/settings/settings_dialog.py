"""The settings dialog: General, Model and Sync pages, saved together on OK.

Saving validates every page first and writes nothing if one is wrong, so a half-saved
dialog cannot leave the assistant pointed at a model whose key never reached the keyring.
When the model changed, the session gets the new one at once (``set_model`` waits for a
turn that is still running, which is at most the turn's own length).
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTabWidget, QVBoxLayout, QWidget

from agent.errors import UserFacingError
from agent.sync.secrets import Secrets
from app.context import AppContext
from app.i18n import error_text
from app.model_loader import configured_model
from app.settings.general_page import GeneralPage
from app.settings.model_page import ModelPage
from app.settings.sync_page import SyncPage


class SettingsDialog(QDialog):
    def __init__(
        self, ctx: AppContext, parent: QWidget | None = None, secrets: Secrets | None = None, page: str | None = None
    ) -> None:
        """``page`` (general, model, sync) is the tab to open on: the chat's "Open settings…"
        asks for the Model tab, because a model is what it is missing."""
        super().__init__(parent)
        self.ctx = ctx
        self.changed_keys: list[str] = []
        self.model_changed = False
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(520)

        self.general = GeneralPage(ctx, self)
        self.model = ModelPage(ctx, self)
        self.sync = SyncPage(ctx, self, secrets)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.general, self.tr("General"))
        self.tabs.addTab(self.model, self.tr("Model"))
        self.tabs.addTab(self.sync, self.tr("Sync"))
        pages = {"general": self.general, "model": self.model, "sync": self.sync}
        if page in pages:
            self.tabs.setCurrentWidget(pages[page])

        self.error = QLabel(self)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()

        # Our own button texts, so they follow our catalogue like everything else.
        self.buttons = QDialogButtonBox(self)
        self.save_button = self.buttons.addButton(self.tr("Save"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(self.tr("Cancel"), QDialogButtonBox.ButtonRole.RejectRole)
        self.save_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()

    def accept(self) -> None:
        for page in (self.general, self.model, self.sync):
            problem = page.validate()
            if problem:
                self.tabs.setCurrentWidget(page)
                self.show_error(problem)
                return
        try:
            self.model_changed = self.model.save()  # first: the keyring may refuse the key
        except UserFacingError as exc:
            self.tabs.setCurrentWidget(self.model)
            self.show_error(error_text(exc))
            return
        try:
            sync_keys = self.sync.save()  # the keyring may refuse the password, too
        except UserFacingError as exc:
            self.tabs.setCurrentWidget(self.sync)
            self.show_error(error_text(exc))
            return
        self.changed_keys = self.general.save() + sync_keys
        if self.model_changed:
            self.ctx.session.set_model(configured_model(self.ctx.settings))
        self.model.shutdown()
        self.sync.shutdown()
        super().accept()

    def reject(self) -> None:
        self.model.shutdown()
        self.sync.shutdown()
        super().reject()
