"""The ``richeng`` console script: a command runs the CLI, no command opens the app.

The CLI lives in ``agent`` (headless, importable without Qt); this module is the only place
that decides between the two, and it imports Qt only when a window is wanted. Anything that
is not one of the app's own options goes to the CLI, so a typo gets the CLI's one-line error
instead of a window.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

APP_VALUE_OPTIONS = {"--db", "--tz", "--now", "--lang", "--quit-after"}
APP_FLAGS = {"--offscreen", "--report-startup"}


def wants_cli(argv: Sequence[str]) -> bool:
    index = 0
    while index < len(argv):
        arg = argv[index]
        name = arg.split("=", 1)[0]
        if name in APP_VALUE_OPTIONS:
            index += 1 if "=" in arg else 2
            continue
        if arg in APP_FLAGS:
            index += 1
            continue
        return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if wants_cli(args):
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
