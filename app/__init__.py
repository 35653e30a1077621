"""Richeng's PySide6 desktop app: UI only. Every write goes through ``agent`` services."""
