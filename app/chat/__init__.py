"""The chat pane: a conversation with the assistant, run off the UI thread."""
