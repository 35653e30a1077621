"""A small file system that fills, and one that turns read-only, for the file-fault tests
(issue 29, "make it systematic"). Mounting needs root (or a user namespace); where it is not
permitted the test is skipped with that reason, never failed."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


def _mount(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["mount", *args], capture_output=True, timeout=10, check=False)


@contextlib.contextmanager
def small_tmpfs(base: Path, size_kib: int) -> Iterator[Path]:
    """A tmpfs of ``size_kib`` KiB mounted at ``base / "fs"``, unmounted afterwards."""
    if not sys.platform.startswith("linux") or shutil.which("mount") is None:
        pytest.skip("needs Linux and mount(8)")
    folder = base / "fs"
    folder.mkdir()
    done = _mount("-t", "tmpfs", "-o", f"size={size_kib}k,mode=0755", "tmpfs", str(folder))
    if done.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10, check=False)


def read_only(folder: Path) -> None:
    """Remount the tmpfs at ``folder`` read-only (even root cannot write there then)."""
    done = _mount("-o", "remount,ro", str(folder))
    if done.returncode != 0:
        pytest.skip(f"remounting read-only is not permitted here: {done.stderr.decode(errors='replace').strip()}")


def free_bytes(folder: Path) -> int:
    info = os.statvfs(folder)
    return info.f_bavail * info.f_frsize


def fill(folder: Path, leave: int = 0) -> Path:
    """Take all but ``leave`` bytes of the file system with one file; returns it."""
    filler = folder / "filler"
    with open(filler, "ab") as out:
        while free_bytes(folder) > leave:
            try:
                out.write(b"\0" * max(min(free_bytes(folder) - leave, 1 << 20), 1))
                out.flush()
            except OSError:
                break
    return filler
