"""`make run` installs the runtime dependencies only; the `dev` extra is `make test`'s.

A dry run (`make -n -B`: print every command, as if nothing were built, run none) shows what
each target would install on a fresh clone, without installing anything."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _dry_run(target: str) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # Under `make test` this make is nested: without the parent's MAKEFLAGS/MAKELEVEL (and with
    # --no-print-directory) it prints only the commands, not "make[1]: Entering directory".
    env = {key: value for key, value in os.environ.items() if key not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_make_run_installs_the_runtime_dependencies_without_the_dev_extra() -> None:
    commands = _dry_run("run")
    installs = [line for line in commands.splitlines() if "pip install" in line and "--upgrade pip" not in line]
    assert installs == [".venv/bin/python -m pip install -e ."]
    assert "[dev]" not in commands
    assert commands.rstrip().splitlines()[-1].startswith(".venv/bin/richeng")


def test_make_test_installs_the_dev_extra() -> None:
    commands = _dry_run("test")
    assert ".venv/bin/python -m pip install -e '.[dev]'" in commands.splitlines()
