"""Is there a display to open a window on? Asked before Qt is touched.

Without one, Qt's platform plugin fails inside ``QApplication()`` and calls ``qFatal``:
the process dies of SIGABRT after several lines about plugins, which reads like a broken
install. On Linux (and the BSDs) the answer is in the environment, so ``richeng`` can say
it in one line and exit 2 instead. Elsewhere (macOS, Windows) the platform always has one.

``QT_QPA_PLATFORM`` names the plugin when set: ``xcb`` needs ``DISPLAY``, ``wayland`` needs
``WAYLAND_DISPLAY``, others (``offscreen``, ``minimal``, ``vnc``, ``eglfs`` …) need neither.
Unset, Qt takes Wayland or X11, whichever is there.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

NO_DISPLAY = "richeng: no display found; use the CLI (richeng --help) or richeng --offscreen"
XCB_LIBS = ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1")
_LIB_DIRS = ("/usr/lib", "/usr/lib64", "/lib", "/usr/local/lib")


def display_problem(environ: Mapping[str, str], platform: str) -> str | None:
    """The one-line message when no window can be opened, else None."""
    if platform.startswith(("darwin", "win", "cygwin")):
        return None
    plugin = environ.get("QT_QPA_PLATFORM", "").split(":", 1)[0].split(";", 1)[0].strip().lower()
    x11, wayland = bool(environ.get("DISPLAY")), bool(environ.get("WAYLAND_DISPLAY"))
    if plugin == "xcb":
        return None if x11 else NO_DISPLAY
    if plugin.startswith("wayland"):
        return None if wayland else NO_DISPLAY
    if plugin:
        return None
    return None if x11 or wayland else NO_DISPLAY


def missing_xcb_hint(environ: Mapping[str, str], platform: str) -> str | None:
    """A hint, not a verdict: when Qt will use X11 and libxcb-cursor is in none of the usual
    library folders, name the packages Qt 6.5+ needs (Debian/Ubuntu names). Qt decides."""
    if not platform.startswith("linux") or environ.get("WAYLAND_DISPLAY") or not environ.get("DISPLAY"):
        return None
    plugin = environ.get("QT_QPA_PLATFORM", "").strip().lower()
    if plugin and not plugin.startswith("xcb"):
        return None
    for folder in _LIB_DIRS:
        base = Path(folder)
        if any(base.glob("libxcb-cursor.so*")) or any(base.glob("*/libxcb-cursor.so*")):
            return None
    return "richeng: Qt's X11 plugin needs libxcb-cursor0 and may not start; on Debian/Ubuntu: sudo apt-get install " + " ".join(
        XCB_LIBS
    )
