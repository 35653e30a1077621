"""What the chat pane shows before any model is connected.

A first run has no model (Richeng ships no weights and no key), and an empty chat box that
answers "model unavailable" to everything would read as broken. This panel says what the
assistant needs, that the calendar works without it, and opens the settings.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class NoModelPanel(QWidget):
    settings_requested = Signal()
    quick_add_requested = Signal()  # focus the calendar's quick-add field (Ctrl+L)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("no_model_panel")
        title = QLabel(self.tr("Connect a model to chat"), self)
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        title.setFont(font)
        title.setWordWrap(True)

        body = QLabel(self)
        body.setWordWrap(True)
        body.setTextFormat(Qt.TextFormat.RichText)
        body.setText(
            self.tr(
                "<p>The assistant turns sentences like <i>明天下午三点和张三开会</i> into events. "
                "It needs a language model, which you choose in Settings → Model:</p>"
                "<ul>"
                "<li><b>A hosted endpoint</b> that speaks the OpenAI API (Qwen on DashScope, DeepSeek, "
                "OpenAI, or Ollama on this computer). The API key is kept in the system keyring.</li>"
                "<li><b>A local GGUF file</b> that runs on this computer, offline. Settings can "
                "download a recommended one.</li>"
                "</ul>"
                "<p>The calendar works fully without a model.</p>"
                "<p><b>Only a card marked ✓ Calendar changed means your calendar changed.</b> "
                "The assistant's own words never change anything; when a reply talks about your "
                "calendar on a turn that changed nothing, a line under it says so.</p>"
            )
        )

        # One sentence, one event, with no model: the quick-add field above the calendar.
        quick = QLabel(self)
        quick.setWordWrap(True)
        quick.setTextFormat(Qt.TextFormat.RichText)
        quick.setText(
            self.tr(
                "<p><b>No model needed to add one event:</b> type a sentence such as "
                "<i>明天下午三点和张三开会</i> or <i>Lunch with Tom tomorrow at noon</i> into "
                "<b>Quick add</b> above the calendar (Ctrl+L) and press Enter.</p>"
            )
        )
        self.quick_label = quick
        self.quick_button = QPushButton(self.tr("Quick add (Ctrl+L)"), self)
        self.quick_button.clicked.connect(self.quick_add_requested)

        self.open_button = QPushButton(self.tr("Open settings…"), self)
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self.settings_requested)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 24, 16, 16)
        layout.setSpacing(10)
        layout.addWidget(title)
        layout.addWidget(body)
        layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addSpacing(6)
        layout.addWidget(quick)
        layout.addWidget(self.quick_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
