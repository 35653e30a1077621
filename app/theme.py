"""Light, dark, or the system's palette (Settings → General → Appearance, issue 32).

"system" is the palette the platform gave at start-up (its theme, or Fusion's light one);
"light" is Fusion's standard palette; "dark" a dark palette in the same roles, with the
contrasts the views rely on (the grid lines against ``Base`` and ``AlternateBase``, issue 23;
``PlaceholderText`` readable). Every view paints from the palette, so a switch repaints
everything in place; nothing is restarted.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")
_SYSTEM: list[QPalette] = []  # the start-up palette, taken before the first change

_DARK = {
    QPalette.ColorRole.Window: "#2b2b2b",
    QPalette.ColorRole.WindowText: "#e8e8e8",
    QPalette.ColorRole.Base: "#232323",
    QPalette.ColorRole.AlternateBase: "#2e2e2e",
    QPalette.ColorRole.ToolTipBase: "#3a3a3a",
    QPalette.ColorRole.ToolTipText: "#f0f0f0",
    QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    QPalette.ColorRole.Text: "#e8e8e8",
    QPalette.ColorRole.Button: "#353535",
    QPalette.ColorRole.ButtonText: "#e8e8e8",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Light: "#4a4a4a",
    QPalette.ColorRole.Midlight: "#3e3e3e",
    QPalette.ColorRole.Mid: "#6a6a6a",
    QPalette.ColorRole.Dark: "#1e1e1e",
    QPalette.ColorRole.Shadow: "#101010",
    QPalette.ColorRole.Highlight: "#3d7fd9",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Link: "#7ab4ff",
    QPalette.ColorRole.LinkVisited: "#c49cff",
}


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return palette


def apply_theme(app: QApplication, name: str) -> None:
    """Set the application's palette for ``name`` (an unknown name is "system")."""
    if not _SYSTEM:
        _SYSTEM.append(QPalette(app.palette()))
    if name == "dark":
        app.setPalette(dark_palette())
    elif name == "light":
        style = app.style()
        app.setPalette(style.standardPalette() if style is not None else QPalette())
    else:
        app.setPalette(_SYSTEM[0])
