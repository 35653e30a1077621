"""The ``richeng`` console script: a command runs the CLI, no command opens the app.

The CLI lives in ``agent`` (headless, importable without Qt); this module is the only place
that decides between the two, and it imports Qt only when a window is wanted.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

CLI_COMMANDS = {"time", "events", "calendars", "memory", "chat", "import", "export", "eval", "report", "sync"}
CLI_FLAGS = {"-h", "--help", "--version", "--json"}


def wants_cli(argv: Sequence[str]) -> bool:
    return any(arg in CLI_COMMANDS or arg in CLI_FLAGS for arg in argv)


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
