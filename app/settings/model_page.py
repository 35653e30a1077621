"""Choosing the chat model: a hosted OpenAI-compatible endpoint, or a local GGUF file.

What is saved is a *spec* string (``openai:MODEL@URL`` or ``llama:PATH``) plus, for a local
file, its context size and thread count. An API key never enters the settings: it goes to
the OS keyring through ``agent.models.keys.store_api_key``, per endpoint, so a DeepSeek key
is never sent to DashScope; "Forget saved key" removes it from the keyring again. "Test
connection" sends one tiny request on a worker thread and shows either OK or the
``ModelUnavailable`` reason word for word. Both it and the download of a recommended model
run as ``app.background_op.BackgroundOp``s on the global pool.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QThreadPool, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from agent.models.base import ModelUnavailable
from agent.models.keys import delete_api_key, keyring_key, normalize_base_url, store_api_key
from agent.models.registry import ModelSpecError, load_model, parse_spec
from app.background_op import BackgroundOp
from app.context import AppContext
from app.i18n import error_text
from app.io import file_dialogs
from app.settings.model_download import RECOMMENDED, download_model
from app.worker import Channel, GeneratorWorker, describe

NONE, HOSTED, LOCAL = "none", "openai", "llama"
PRESETS = (
    ("DashScope (Qwen)", "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus"),
    ("DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat"),
    ("OpenAI", "https://api.openai.com/v1", "gpt-4o-mini"),
    ("Ollama (this computer)", "http://localhost:11434/v1", "qwen2.5:7b"),
)
PROBE_MESSAGES = [{"role": "user", "content": "Reply with OK."}]


def probe_model(spec: str, options: dict[str, Any]) -> tuple[bool, str]:
    """One tiny request through the real backend: (True, model name) or (False, reason)."""
    try:
        model = load_model(spec, **options)
        model.complete(PROBE_MESSAGES, [], max_tokens=4)
    except (ModelUnavailable, ModelSpecError) as exc:
        return False, error_text(exc)
    except Exception as exc:  # a backend's unexpected error still reads as a reason
        return False, f"{type(exc).__name__}: {exc}"
    return True, str(getattr(model, "name", spec))


class ModelPage(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.pool = QThreadPool.globalInstance()
        self.probe: BackgroundOp[None, tuple[bool, str]] | None = None
        self.download: BackgroundOp[tuple[int, int], str | None] | None = None

        self.kind = QComboBox(self)
        self.kind.addItem(self.tr("No model (calendar only)"), NONE)
        self.kind.addItem(self.tr("Hosted endpoint (OpenAI-compatible)"), HOSTED)
        self.kind.addItem(self.tr("Local GGUF file (runs offline)"), LOCAL)
        self.stack = QStackedWidget(self)
        none_page = QLabel(
            self.tr(
                "The calendar works without a model. Until you choose one, the chat pane shows how to connect one,"
                " and quick add (Ctrl+L) adds events."
            )
        )
        none_page.setWordWrap(True)
        self.stack.addWidget(none_page)
        self.stack.addWidget(self._hosted_page())
        self.stack.addWidget(self._local_page())
        self.kind.currentIndexChanged.connect(self._kind_changed)

        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = QLabel(self)
        self.test_result.setWordWrap(True)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_result, 1)

        layout = QVBoxLayout(self)
        layout.addWidget(self.kind)
        layout.addWidget(self.stack)
        layout.addLayout(test_row)
        layout.addStretch(1)
        self._load()

    # ---- pages ------------------------------------------------------------------------------

    def _hosted_page(self) -> QWidget:
        page = QWidget(self)
        self.preset = QComboBox(page)
        self.preset.addItem(self.tr("Custom"), None)
        for label, url, model in PRESETS:
            self.preset.addItem(label, (url, model))
        self.preset.currentIndexChanged.connect(self._preset_chosen)
        self.base_url = QLineEdit(page)
        self.base_url.setPlaceholderText("https://…/v1")
        self.base_url.editingFinished.connect(self._update_key_hint)
        self.model_name = QLineEdit(page)
        self.model_name.setPlaceholderText("qwen-plus")
        self.api_key = QLineEdit(page)
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_hint = QLabel(page)
        self.key_hint.setWordWrap(True)
        self.key_hint.setStyleSheet("color: palette(placeholder-text);")
        self.forget_key = QPushButton(self.tr("Forget saved key"), page)
        self.forget_key.setToolTip(self.tr("Remove this endpoint's key from the system keyring now"))
        self.forget_key.clicked.connect(self._forget_key)
        self.forget_key.hide()
        key_row = QHBoxLayout()
        key_row.setContentsMargins(0, 0, 0, 0)
        key_row.addWidget(self.api_key, 1)
        key_row.addWidget(self.forget_key)
        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Provider:"), self.preset)
        form.addRow(self.tr("Base URL:"), self.base_url)
        form.addRow(self.tr("Model:"), self.model_name)
        form.addRow(self.tr("API key:"), key_row)
        form.addRow("", self.key_hint)
        return page

    def _local_page(self) -> QWidget:
        page = QWidget(self)
        self.path = QLineEdit(page)
        self.path.setPlaceholderText(self.tr("a .gguf file"))
        browse = QPushButton(self.tr("Browse…"), page)
        browse.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        self.n_ctx = QSpinBox(page)
        self.n_ctx.setRange(512, 131072)
        self.n_ctx.setSingleStep(1024)
        self.threads = QSpinBox(page)
        self.threads.setRange(0, max(1, os.cpu_count() or 1))
        self.threads.setSpecialValueText(self.tr("Automatic"))
        for spin in (self.n_ctx, self.threads):
            spin.setMaximumWidth(160)

        group = QGroupBox(self.tr("Download a recommended model"), page)
        self.recommended = QComboBox(group)
        for item in RECOMMENDED:
            self.recommended.addItem(self.tr("{0}, about {1}").format(item.label, item.size), item.key)
        self.download_button = QPushButton(self.tr("Download"), group)
        self.download_button.clicked.connect(self.start_download)
        self.cancel_download_button = QPushButton(self.tr("Cancel"), group)
        self.cancel_download_button.clicked.connect(self.cancel_download)
        self.cancel_download_button.setEnabled(False)
        self.progress = QProgressBar(group)
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(False)
        self.download_status = QLabel(self.tr("From Hugging Face; saved in Richeng's data folder."), group)
        self.download_status.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.download_button)
        buttons.addWidget(self.cancel_download_button)
        box = QVBoxLayout(group)
        box.addWidget(self.recommended)
        box.addLayout(buttons)
        box.addWidget(self.download_status)

        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Model file:"), path_row)
        form.addRow(self.tr("Context size:"), self.n_ctx)
        form.addRow(self.tr("Threads:"), self.threads)
        form.addRow(group)
        return page

    def _load(self) -> None:
        settings = self.ctx.settings
        self.n_ctx.setValue(int(settings.get("llama_n_ctx") or 4096))
        self.threads.setValue(int(settings.get("llama_threads") or 0))
        spec = settings.get("model")
        kind = NONE
        if spec:
            try:
                parsed = parse_spec(str(spec))
            except ModelSpecError:
                parsed = None
            if parsed is not None and parsed.kind == "openai":
                kind = HOSTED
                self.base_url.setText(parsed.base_url)
                self.model_name.setText(parsed.model)
            elif parsed is not None and parsed.kind == "llama":
                kind = LOCAL
                self.path.setText(parsed.target)
        for index, (_label, url, _model) in enumerate(PRESETS, start=1):
            if normalize_base_url(url) == normalize_base_url(self.base_url.text()):
                self.preset.blockSignals(True)
                self.preset.setCurrentIndex(index)
                self.preset.blockSignals(False)
        self.kind.setCurrentIndex(self.kind.findData(kind))
        self._kind_changed()
        self._update_key_hint()

    # ---- the spec ---------------------------------------------------------------------------

    def current_kind(self) -> str:
        return str(self.kind.currentData())

    def spec(self) -> str | None:
        kind = self.current_kind()
        if kind == HOSTED:
            return f"openai:{self.model_name.text().strip()}@{normalize_base_url(self.base_url.text())}"
        if kind == LOCAL:
            return f"llama:{self.path.text().strip()}"
        return None

    def validate(self) -> str | None:
        kind = self.current_kind()
        if kind == HOSTED:
            url = self.base_url.text().strip()
            if not url.startswith(("http://", "https://")):
                return self.tr("The base URL must start with http:// or https://.")
            if not self.model_name.text().strip():
                return self.tr("Enter the model name the endpoint expects (for example qwen-plus).")
        elif kind == LOCAL:
            path = Path(self.path.text().strip()).expanduser()
            if not self.path.text().strip() or not path.is_file():
                return self.tr("Choose an existing .gguf file, or download one below.")
        return None

    def options(self) -> dict[str, Any]:
        """Constructor options for ``load_model`` from the form (the key only while typed)."""
        kind = self.current_kind()
        if kind == HOSTED:
            key = self.api_key.text().strip()
            return {"api_key": key} if key else {}
        if kind == LOCAL:
            options: dict[str, Any] = {"n_ctx": self.n_ctx.value()}
            if self.threads.value():
                options["n_threads"] = self.threads.value()
            return options
        return {}

    def save(self) -> bool:
        """Store the key in the keyring and the spec in settings; True when the model changed.

        Raises ``UserFacingError`` when the keyring refuses the key (nothing is saved then).
        """
        settings = self.ctx.settings
        kind = self.current_kind()
        key = self.api_key.text().strip()
        if kind == HOSTED and key:
            store_api_key(self.base_url.text(), key)
            self.api_key.clear()
        changed = bool(kind == HOSTED and key)
        if kind == LOCAL:
            for name, value in (("llama_n_ctx", self.n_ctx.value()), ("llama_threads", self.threads.value() or None)):
                if settings.get(name) != value:
                    settings.set(name, value)
                    changed = True
        spec = self.spec()
        if settings.get("model") != spec:
            settings.set("model", spec)
            changed = True
        return changed

    # ---- test connection --------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> GeneratorWorker[None, tuple[bool, str]] | None:
        problem = self.validate()
        spec = self.spec()
        if problem or spec is None:
            self._show_test(False, problem or self.tr("Choose a model first."))
            return None
        self.test_button.setEnabled(False)
        self.test_result.setStyleSheet("")
        self.test_result.setText(self.tr("Testing…"))
        options = self.options()

        def probe(_channel: Channel[None]) -> tuple[bool, str]:
            return probe_model(spec, options)

        op = BackgroundOp(self, probe, "model probe")
        op.ended(self._probe_ended).success(self._probe_returned).failure(self._probe_errored)
        self.probe = op
        return op.run_in_background(self.pool)

    def _probe_returned(self, outcome: tuple[bool, str]) -> None:
        ok, detail = outcome
        self._show_test(ok, detail)

    def _probe_errored(self, error: Exception) -> None:
        self._show_test(False, describe(error))

    def _probe_ended(self) -> None:
        self.probe = None
        self.test_button.setEnabled(self.current_kind() != NONE)

    def _show_test(self, ok: bool, detail: str) -> None:
        if ok:
            self.test_result.setStyleSheet("color: #2e7d32;")
            self.test_result.setText(self.tr("✓ Connected: {0}").format(detail))
        else:
            self.test_result.setStyleSheet("color: #c0392b;")
            self.test_result.setText(self.tr("✗ {0}").format(detail))

    # ---- download ---------------------------------------------------------------------------

    @Slot()
    def start_download(self) -> GeneratorWorker[tuple[int, int], str | None] | None:
        if self.download is not None:
            return None
        key = self.recommended.currentData()
        model = next(item for item in RECOMMENDED if item.key == key)
        op: BackgroundOp[tuple[int, int], str | None] = BackgroundOp(
            self, lambda channel: download_model(model, channel), "model download"
        )
        op.progress(self._download_progress).ended(self._download_finished)
        op.success(self._download_succeeded).failure(self._download_failed)
        self.download = op
        self.download_button.setEnabled(False)
        self.cancel_download_button.setEnabled(True)
        self.progress.setRange(0, 0)  # busy until the first byte count
        self.download_status.setText(self.tr("Downloading {0}…").format(model.filename))
        return op.run_in_background(self.pool)

    @Slot()
    def cancel_download(self) -> None:
        """Cancel is the worker's quit: the download stops at its next progress step."""
        if self.download is not None:
            self.download.quit()
            self.download_status.setText(self.tr("Cancelling…"))

    def _download_progress(self, step: tuple[int, int]) -> None:
        done, total = step
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(done * 1000 / total))
            self.download_status.setText(self.tr("{0:.0f} of {1:.0f} MB").format(done / 1e6, total / 1e6))

    def _download_succeeded(self, path: str | None) -> None:
        if path is None:
            self._download_cancelled()
            return
        self.progress.setRange(0, 1000)
        self.progress.setValue(1000)
        self.path.setText(path)
        self.kind.setCurrentIndex(self.kind.findData(LOCAL))
        self.download_status.setText(self.tr("Downloaded to {0}").format(path))

    def _download_failed(self, error: Exception) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.download_status.setText(self.tr("Download failed: {0}").format(describe(error)))

    def _download_cancelled(self) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.download_status.setText(self.tr("Download cancelled; starting again resumes it."))

    def _download_finished(self) -> None:
        self.download = None
        self.download_button.setEnabled(True)
        self.cancel_download_button.setEnabled(False)

    def shutdown(self) -> None:
        """The dialog is closing: a running download stops (its partial file is kept)."""
        if self.download is not None:
            self.download.quit()

    # ---- small slots ------------------------------------------------------------------------

    @Slot()
    def _kind_changed(self) -> None:
        index = {NONE: 0, HOSTED: 1, LOCAL: 2}.get(self.current_kind(), 0)
        self.stack.setCurrentIndex(index)
        self.test_button.setEnabled(self.current_kind() != NONE)
        self.test_result.clear()

    @Slot(int)
    def _preset_chosen(self, index: int) -> None:
        data = self.preset.itemData(index)
        if data:
            url, model = data
            self.base_url.setText(url)
            self.model_name.setText(model)
            self._update_key_hint()

    @Slot()
    def _update_key_hint(self) -> None:
        url = self.base_url.text().strip()
        saved = bool(url and keyring_key(url))
        self.forget_key.setVisible(saved)
        if saved:
            self.api_key.setPlaceholderText(self.tr("saved in the system keyring"))
            self.key_hint.setText(self.tr("A key for this endpoint is already saved; type a new one to replace it."))
        else:
            self.api_key.setPlaceholderText(self.tr("paste your API key"))
            self.key_hint.setText(
                self.tr("Kept in the system keyring, never in Richeng's files. Local servers such as Ollama need none.")
            )

    @Slot()
    def _forget_key(self) -> None:
        """Remove the endpoint's key from the keyring at once (not on Save): giving a laptop
        away or leaving a provider should not need a keyring tool."""
        url = self.base_url.text().strip()
        removed = bool(url) and delete_api_key(url)
        self._update_key_hint()
        if removed:
            self.key_hint.setText(self.tr("The saved key was removed from the system keyring."))
        elif url and keyring_key(url):
            self.key_hint.setText(
                self.tr("The system keyring did not remove the key; remove it with your system's password manager.")
            )

    @Slot()
    def _browse(self) -> None:
        path = file_dialogs.open_file_name(
            self, self.tr("Choose a GGUF model"), self.path.text(), self.tr("GGUF models (*.gguf)")
        )
        if path:
            self.path.setText(path)
