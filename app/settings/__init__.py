"""The settings dialog: general preferences and the chat model."""
