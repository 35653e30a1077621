"""The ``richeng`` console script: a command runs the CLI, no command opens the app.

The CLI lives in ``agent`` (headless, importable without Qt); this module is the only place
that decides between the two, and it imports Qt only when a window is wanted. Anything that
is not one of the app's own options goes to the CLI, so a typo gets the CLI's one-line error
instead of a window.

Qt's own options (``-style Fusion``, ``-platform offscreen``, ``-reverse`` …, issue 23) are
the exception: every Qt program takes them, so they open the window and go to QApplication
(``split_qt_options``); they used to reach the CLI and exit 2 with "invalid choice".
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

APP_VALUE_OPTIONS = {"--db", "--tz", "--now", "--lang", "--quit-after"}
APP_FLAGS = {"--offscreen", "--report-startup"}
# Qt 6's documented options: QGuiApplication's, QApplication's (-style, -stylesheet,
# -widgetcount) and the X11 plugin's (-display, -geometry, -name, -visual, -sync, -nograb ...).
QT_VALUE_OPTIONS = {
    "-style", "-stylesheet", "-platform", "-platformpluginpath", "-platformtheme", "-plugin", "-qmljsdebugger",
    "-qwindowgeometry", "-qwindowicon", "-qwindowtitle", "-session", "-display", "-geometry", "-title", "-icon",
    "-name", "-visual",
}  # fmt: skip
QT_FLAGS = {"-reverse", "-widgetcount", "-nograb", "-dograb", "-sync"}


def qt_option_name(arg: str) -> str:
    """``-style=Fusion`` → ``-style``; ``--platform`` → ``-platform`` (Qt reads a double dash
    as a single one); anything else unchanged."""
    name = arg.split("=", 1)[0]
    return name[1:] if name.startswith("--") else name


def split_qt_options(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the rest, Qt's options with their values), each in the order given. A value
    belongs to the option before it (``--db -style`` is a file named "-style")."""
    rest: list[str] = []
    qt: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        name = arg.split("=", 1)[0]
        if name in APP_VALUE_OPTIONS and "=" not in arg:
            rest.extend(argv[index : index + 2])
            index += 2
            continue
        if qt_option_name(arg) in QT_VALUE_OPTIONS:
            taken = 1 if "=" in arg else 2
            qt.extend(argv[index : index + taken])
            index += taken
            continue
        (qt if qt_option_name(arg) in QT_FLAGS else rest).append(arg)
        index += 1
    return rest, qt


def is_calendar_file(arg: str) -> bool:
    """An existing ``.ics`` file: what a file manager passes (``Exec=richeng %F`` in
    ``resources/richeng.desktop``); the window opens and imports it."""
    return arg.lower().endswith(".ics") and os.path.isfile(arg)


def wants_cli(argv: Sequence[str]) -> bool:
    """Whether ``argv`` (Qt's options aside) has anything but the app's own options and
    calendar files to open."""
    args, _qt = split_qt_options(argv)
    index = 0
    while index < len(args):
        arg = args[index]
        name = arg.split("=", 1)[0]
        if name in APP_VALUE_OPTIONS:
            index += 1 if "=" in arg else 2
            continue
        if arg in APP_FLAGS or is_calendar_file(arg):
            index += 1
            continue
        return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if wants_cli(args):
        from app.print_command import is_print

        if is_print(split_qt_options(args)[0], APP_VALUE_OPTIONS | {"--profile"}):
            # Drawn with Qt, so not in agent/ (which never imports Qt): app/print_command.py.
            from app.print_command import main as print_main

            return print_main(split_qt_options(args)[0])
        from agent.cli.main import main as cli_main

        return cli_main(args)
    try:
        from app.application import run
    except ImportError as exc:  # Qt missing or unusable: say so, and point at the CLI
        print(f"richeng: the desktop app cannot start ({exc}); the CLI still works: richeng --help", file=sys.stderr)
        return 2
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
