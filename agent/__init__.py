"""Richeng's headless core: store, time symbols, services, ICS, agent runtime, CLI.

Nothing under this package may import Qt or ``app``; the import-linter contract in
``pyproject.toml`` enforces that so the agent, the CLI and the evals run without a display.
"""

__version__ = "0.1.0"
