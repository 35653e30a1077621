"""Where bundled resources live, in a checkout and in the frozen (PyInstaller) app."""

from __future__ import annotations

import sys
from pathlib import Path


def resource_path(*parts: str) -> Path:
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[1]))
    return base.joinpath("resources", *parts)
